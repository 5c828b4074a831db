// SPDX-License-Identifier: BSD-2-Clause
/*
 * class_port.c - hosts, port directions, port groups and the verdict.
 *
 * Hosts: CAs that share a SystemImageGUID (with another CA) form a host;
 * otherwise CAs whose NodeDescription starts with the same host name do,
 * unless the description is an unconfigured default ("MT4123 ConnectX6",
 * "Mellanox Technologies Aggregation Node", "HCA-1", empty), which names
 * no host: such a CA is a host of its own.  A host with CAs in two zones
 * is dual-homed storage (Fire-Flyer 2), when every zone has compute hosts
 * of its own (else the zones were no frames).
 *
 * Port direction, seen from the port's node: HOST (to or from a CA),
 * XZONE (the link joins two zones, or a zone and a zone-less switch),
 * else UP / DOWN / SAME by the levels of the two switches.  Port group:
 * parallel links to one peer switch share the id of the lowest port.
 *
 * Verdict: the engine refuses a fabric with no switch, more zones than it
 * has service levels for, or two zones that are not joined directly or
 * through zone-less switches (routes would cross a third zone).
 *
 * Cost: O(nodes log nodes + ports x radix).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "class/class_int.h"

#define MAX_ZONES 13	/* SL 0 local, 1..13 into zone 0..12, 14 transit, 15 turns */

static const char *const dir_names[CLS_DIR_COUNT] = {
	"none", "host", "up", "down", "same", "xzone",
};

const char *cls_dir_name(enum cls_dir d)
{
	return (unsigned)d < CLS_DIR_COUNT ? dir_names[d] : "?";
}

bool cls_is_endpoint(const struct topo *t, const struct cls *c, uint32_t node)
{
	return !topo_is_switch(t, node) && c->role[node] != CLS_ROLE_SHARP;
}

bool cls_is_default_desc(const char *d)
{
	size_t hl = strcspn(d, " ");

	if (!hl)
		return true;
	if ((d[0] == 'M' && d[1] == 'T' && isdigit((unsigned char)d[2])) ||
	    !strncmp(d, "Mellanox", 8) || !strncmp(d, "NVIDIA", 6) || !strncmp(d, "ConnectX", 8))
		return true;
	if (!strncmp(d, "HCA-", 4) && hl > 4 && strspn(d + 4, "0123456789") == hl - 4)
		return true;
	return hl == 9 && !strncmp(d, "localhost", 9);
}

struct host_key {
	uint64_t sys;		/* shared system GUID, or 0 */
	const char *name;	/* host name, or NULL */
	size_t nl;
	uint32_t node;
};

static int cmp_key(const void *a, const void *b)
{
	const struct host_key *x = a, *y = b;
	int c;

	if (x->sys != y->sys)
		return x->sys < y->sys ? -1 : 1;
	if (!x->name || !y->name) {
		if (x->name != y->name)
			return x->name ? -1 : 1;
		return x->node < y->node ? -1 : x->node > y->node;
	}
	if (x->nl != y->nl)
		return x->nl < y->nl ? -1 : 1;
	c = memcmp(x->name, y->name, x->nl);
	return c ? c : x->node < y->node ? -1 : x->node > y->node;
}

static bool same_host(const struct host_key *a, const struct host_key *b)
{
	if (a->sys || b->sys)
		return a->sys == b->sys;
	return a->name && b->name && a->nl == b->nl && !memcmp(a->name, b->name, a->nl);
}

int cls_find_hosts(const struct topo *t, struct cls *c)
{
	struct host_key *k = malloc(((size_t)t->nnodes + 1) * sizeof(*k));
	uint64_t *sys = malloc(((size_t)t->nnodes + 1) * sizeof(*sys));
	uint32_t n = 0, ns = 0;

	if (!k || !sys) {
		free(k);
		free(sys);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < t->nnodes; i++)
		if (!topo_is_switch(t, i) && t->node_sysguid[i])
			sys[ns++] = t->node_sysguid[i];
	qsort(sys, ns, sizeof(*sys), ffr_cmp_u64);
	for (uint32_t i = 0; i < t->nnodes; i++) {
		uint64_t g = t->node_sysguid[i];
		const uint64_t *hit;
		struct host_key key = { 0, NULL, 0, i };

		c->host[i] = TOPO_NONE;
		if (topo_is_switch(t, i) || c->role[i] == CLS_ROLE_SHARP)
			continue;
		hit = g ? bsearch(&g, sys, ns, sizeof(*sys), ffr_cmp_u64) : NULL;
		if (hit && ((hit > sys && hit[-1] == g) || (hit + 1 < sys + ns && hit[1] == g)))
			key.sys = g;
		else if (!cls_is_default_desc(t->node_desc[i])) {
			key.name = t->node_desc[i];
			key.nl = strcspn(key.name, " ");
		}
		k[n++] = key;
	}
	qsort(k, n, sizeof(*k), cmp_key);
	for (uint32_t i = 0; i < n; i++) {
		if (i && !same_host(&k[i - 1], &k[i]))
			c->nhosts++;
		c->host[k[i].node] = c->nhosts;
	}
	c->nhosts += n > 0;
	free(k);
	free(sys);
	return 0;
}

/* Whether a path of switch links joins every zoned switch (@c->zone). */
static bool zones_joined(const struct topo *t, const struct cls *c)
{
	uint32_t *q = malloc(((size_t)t->nnodes + 1) * sizeof(*q)), head = 0, tail = 0;
	uint8_t *seen = calloc((size_t)t->nnodes + 1, 1);
	bool all = true;

	if (!q || !seen) {
		free(q);
		free(seen);
		return true;	/* a hint only: the verdict still judges the zones */
	}
	for (uint32_t n = 0; n < t->nnodes && !tail; n++)
		if (topo_is_switch(t, n) && c->zone[n] >= 0)
			seen[n] = 1, q[tail++] = n;
	while (head < tail) {
		uint32_t n = q[head++];

		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
			uint32_t w = cls_peer_sw(t, p);

			if (w != TOPO_NONE && !seen[w])
				seen[w] = 1, q[tail++] = w;
		}
	}
	for (uint32_t n = 0; n < t->nnodes; n++)
		all &= !topo_is_switch(t, n) || c->zone[n] < 0 || seen[n];
	free(q);
	free(seen);
	return all;
}

/* Each host's zone, -2 for a host with CAs in two, -1 none: malloc'd [nhosts + 1], or NULL. */
static int16_t *host_zones(const struct topo *t, const struct cls *c)
{
	int16_t *z = malloc(((size_t)c->nhosts + 1) * sizeof(*z));

	for (uint32_t h = 0; z && h < c->nhosts; h++)
		z[h] = -1;
	for (uint32_t n = 0; z && n < t->nnodes; n++) {
		uint32_t h = c->host[n];

		if (h == TOPO_NONE || c->zone[n] < 0)
			continue;
		z[h] = z[h] == -1 || z[h] == c->zone[n] ? c->zone[n] : -2;
	}
	return z;
}

/*
 * Zones are frames of compute hosts (Fire-Flyer 2: each zone's own hosts,
 * storage dual-homed into both).  When some zone holds no compute CA of a
 * host cabled to that zone alone, the parts are no frames: a SuperPOD's
 * storage branch under the cores of a single unit (every DGX has HCAs in
 * both, and all would pass for storage), a management switch under a
 * leaf.  Then every zoned node is in zone 0.  Before the roles of
 * dual-homed hosts are set (cls_dual_homed()); overrides come after.
 */
void cls_zones_of_hosts(const struct topo *t, struct cls *c)
{
	int16_t *z = c->nzones >= 2 ? host_zones(t, c) : NULL;
	uint8_t *own = calloc((size_t)c->nzones + 1, 1);
	uint32_t with = 0;

	if (!z || !own)
		goto out;	/* one zone, or a hint only */
	for (uint32_t n = 0; n < t->nnodes; n++) {
		uint32_t h = c->host[n];
		int16_t zn = h != TOPO_NONE ? z[h] : c->zone[n];

		if (!topo_is_switch(t, n) && c->role[n] == CLS_ROLE_COMPUTE && zn >= 0 &&
		    (uint32_t)zn < c->nzones && !own[zn]) {
			own[zn] = 1;
			with++;
		}
	}
	if (with == c->nzones || !zones_joined(t, c))
		goto out;	/* parts with no path between them: the verdict refuses */
	snprintf(c->zone_why, sizeof(c->zone_why), "%u of %u parts hold no compute host of "
		 "their own: not frames, one zone", c->nzones - with, c->nzones);
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (c->zone[n] >= 0)
			c->zone[n] = 0;
	c->nzones = 1;
out:
	free(z);
	free(own);
}

void cls_dual_homed(const struct topo *t, struct cls *c)
{
	int16_t *z = host_zones(t, c);

	if (!z)
		return;		/* a hint only */
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (c->host[n] != TOPO_NONE && z[c->host[n]] == -2 &&
		    c->role[n] == CLS_ROLE_COMPUTE)
			c->role[n] = CLS_ROLE_STORAGE;
	free(z);
}

static enum cls_dir port_dir(const struct topo *t, const struct cls *c, uint32_t n, uint32_t p)
{
	uint32_t q = cls_peer(t, p);

	if (q == TOPO_NONE || p == t->port_off[n])
		return CLS_DIR_NONE;
	if (!topo_is_switch(t, n) || !topo_is_switch(t, q))
		return CLS_DIR_HOST;
	if (c->interzone[p])
		return CLS_DIR_XZONE;
	if (c->below[n] != c->below[q])	/* a subtree hanging below: up from it */
		return c->below[n] ? CLS_DIR_UP : CLS_DIR_DOWN;
	if (c->level[q] == c->level[n] || q == n)
		return CLS_DIR_SAME;
	return c->level[q] > c->level[n] ? CLS_DIR_UP : CLS_DIR_DOWN;
}

void cls_ports(const struct topo *t, struct cls *c)
{
	for (uint32_t n = 0; n < t->nnodes; n++)
		for (uint32_t p = t->port_off[n]; p < t->port_off[n + 1]; p++) {
			uint32_t q = cls_peer_sw(t, p);

			c->dir[p] = (uint8_t)port_dir(t, c, n, p);
			c->group[p] = p;
			if (q == TOPO_NONE || !topo_is_switch(t, n))
				continue;
			for (uint32_t r = t->port_off[n] + 1; r < p; r++)
				if (cls_peer(t, r) == q) {
					c->group[p] = c->group[r];
					break;
				}
		}
}

/*
 * Whether the switches form a tree by levels: not when most switch ports
 * join switches of one level (no up or down) and those links close
 * cycles (distinct switch pairs >= switches they touch): a torus, a
 * dragonfly, a ring.  Two switches cabled back to back, or a few
 * miscabled leaf-to-leaf links in a fat tree, stay trees.
 */
void cls_shape(const struct topo *t, struct cls *c)
{
	uint32_t up = 0, same = 0, pairs = 0, touched = 0;

	for (uint32_t n = 0; n < t->nnodes; n++) {
		bool any = false;

		if (!topo_is_switch(t, n))
			continue;
		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
			up += c->dir[p] == CLS_DIR_UP;
			if (c->dir[p] != CLS_DIR_SAME)
				continue;
			same++;
			any = true;
			pairs += c->group[p] == p && cls_peer_sw(t, p) > n;	/* once per pair */
		}
		touched += any;
	}
	c->not_tree = same > 2 * up && pairs >= touched && pairs > 1;	/* up: one port a link */
	snprintf(c->shape_why, sizeof(c->shape_why), c->not_tree ?
		 "not a tree: %u of %u switch-to-switch ports join switches of one level, in "
		 "cycles (a torus, a dragonfly)" : "routed as a tree (%u of %u switch-to-switch "
		 "ports join switches of one level: a minority, or no cycles)", same, same + 2 * up);
}

static void reason(struct cls *c, const char *fmt, unsigned a, unsigned b)
{
	if (c->nreasons < CLS_MAX_REASONS)
		snprintf(c->reason[c->nreasons++], sizeof(c->reason[0]), fmt, a, b);
}

/* Zones joined directly or through one zone-less switch: adj[a * nz + b]. */
static void zone_adjacency(const struct topo *t, const struct cls *c, uint8_t *adj)
{
	uint32_t nz = c->nzones;

	for (uint32_t n = 0; n < t->nnodes; n++) {
		if (!topo_is_switch(t, n))
			continue;
		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
			uint32_t q = cls_peer_sw(t, p);

			if (q == TOPO_NONE)
				continue;
			if (c->zone[n] >= 0 && c->zone[q] >= 0)
				adj[c->zone[n] * nz + c->zone[q]] = 1;
			if (c->zone[n] >= 0 || c->zone[q] < 0)
				continue;
			for (uint32_t r = t->port_off[n] + 1; r < t->port_off[n + 1]; r++) {
				uint32_t w = cls_peer_sw(t, r);

				if (w != TOPO_NONE && c->zone[w] >= 0)
					adj[c->zone[q] * nz + c->zone[w]] = 1;
			}
		}
	}
}

/* Whether no switch path joins zones @a and @b (an ibsim file of two parts). */
static bool apart(const struct topo *t, const struct cls *c, uint32_t a, uint32_t b)
{
	uint32_t *uf = malloc(((size_t)t->nnodes + 1) * sizeof(*uf)), ra = TOPO_NONE;
	bool joined = false;

	if (!uf)
		return false;
	for (uint32_t n = 0; n < t->nnodes; n++)
		uf[n] = n;
	for (uint32_t n = 0; n < t->nnodes; n++)
		for (uint32_t p = t->port_off[n] + 1; topo_is_switch(t, n) && p < t->port_off[n + 1]; p++) {
			uint32_t q = cls_peer_sw(t, p);

			if (q != TOPO_NONE)
				uf[cls_uf_find(uf, n)] = cls_uf_find(uf, q);
		}
	for (uint32_t n = 0; n < t->nnodes && ra == TOPO_NONE; n++)
		if (topo_is_switch(t, n) && c->zone[n] == (int16_t)a)
			ra = cls_uf_find(uf, n);
	for (uint32_t n = 0; n < t->nnodes && !joined; n++)
		joined = ra == TOPO_NONE || (topo_is_switch(t, n) && c->zone[n] == (int16_t)b &&
					     cls_uf_find(uf, n) == ra);
	free(uf);
	return !joined;
}

void cls_verdict(const struct topo *t, struct cls *c)
{
	uint8_t *adj;

	if (!t->nswitches)
		reason(c, "no switches: nothing to route%.0u%.0u", 0, 0);
	if (c->nzones > MAX_ZONES) {
		reason(c, "%u zones: at most %u are supported (one SL per destination zone)",
		       c->nzones, MAX_ZONES);
		return;
	}
	if (c->nzones < 2)
		return;
	adj = calloc((size_t)c->nzones * c->nzones, 1);
	if (!adj) {
		reason(c, "out of memory%.0u%.0u", 0, 0);
		return;
	}
	zone_adjacency(t, c, adj);
	for (uint32_t a = 0; a < c->nzones; a++)
		for (uint32_t b = a + 1; b < c->nzones; b++)
			if (!adj[a * c->nzones + b]) {
				if (apart(t, c, a, b))
					reason(c, "zones %u and %u have no link path between them: a "
					       "subnet is one connected part (OpenSM and ibnetdiscover "
					       "see one); route each part on its own", a, b);
				else
					reason(c, "zones %u and %u are not joined directly or through "
					       "zone-less switches", a, b);
				goto out;
			}
out:
	free(adj);
}
