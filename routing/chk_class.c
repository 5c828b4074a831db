// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_class.c - what each node is: role, zone, rail, level.
 *
 * Roles: SHARP aggregation nodes by description; otherwise by the host
 * name (first word of the NodeDescription): "st<digit>"/"*stor*"/"ai400*"
 * storage, "mg<digit>"/"*mgmt*"/"*login*"/"*admin*" management, anything
 * else compute.  Role overrides (by node or port GUID) win.
 * Levels: switches with host CAs are leaves (1); BFS over switch links
 * gives the others 2, 3, ...; switches no leaf reaches are 0.
 * Zones (frames): two leaves are in one zone when they share more than
 * half of their upper neighbours (every spine of a frame vs. a couple of
 * bridges); union-find over leaves, then every other switch takes the zone
 * that at least 3/4 of its zoned neighbours have (repeated by level), or
 * none: a bridge links to both zones about evenly, and still does after a
 * few of its links fail, while a spine stays in its frame even when one of
 * its cables is miscabled.  CAs take their switch's zone.
 * Rails: the compute HCAs of one host (same first word), ranked by the
 * number in their device name (mlx5_K, HCA-K), when hosts have >= 4 of
 * them; a leaf's rail is its HCAs' rail if they all agree.
 * Cost: O(nodes + sum over leaves of sum of upper-neighbour degrees).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ffroute/check.h>

static const char *const role_names[CHK_ROLE_COUNT] = {
	"switch", "compute", "storage", "mgmt", "sharp", "other",
};

const char *chk_role_name(enum chk_role r)
{
	return (unsigned)r < CHK_ROLE_COUNT ? role_names[r] : "?";
}

enum chk_tclass chk_tclass_of(enum chk_role r)
{
	return r == CHK_ROLE_COMPUTE ? CHK_TC_COMPUTE
	       : r == CHK_ROLE_STORAGE ? CHK_TC_STORAGE : CHK_TC_OTHER;
}

static bool prefix_digit(const char *s, const char *p)
{
	size_t n = strlen(p);

	return !strncasecmp(s, p, n) && isdigit((unsigned char)s[n]);
}

static bool has_word(const char *host, size_t n, const char *w)
{
	size_t k = strlen(w);

	for (size_t i = 0; i + k <= n; i++)
		if (!strncasecmp(host + i, w, k))
			return true;
	return false;
}

static enum chk_role role_of(const struct topo *t, uint32_t n)
{
	const char *d = t->node_desc[n];
	size_t hl = strcspn(d, " ");

	if (topo_is_switch(t, n))
		return CHK_ROLE_SWITCH;
	if (topo_is_sharp_an(t, n))
		return CHK_ROLE_SHARP;
	if (prefix_digit(d, "st") || has_word(d, hl, "stor") || has_word(d, hl, "ai400"))
		return CHK_ROLE_STORAGE;
	if (prefix_digit(d, "mg") || has_word(d, hl, "mgmt") || has_word(d, hl, "login") ||
	    has_word(d, hl, "admin"))
		return CHK_ROLE_MGMT;
	return CHK_ROLE_COMPUTE;
}

/* Neighbouring node across port @p, or TOPO_NONE. */
static uint32_t peer(const struct topo *t, uint32_t p)
{
	uint32_t r = t->port_remote[p];

	return r == TOPO_NONE ? TOPO_NONE : t->port_node[r];
}

static void find_levels(const struct topo *t, struct chk_class *c, uint32_t *queue)
{
	uint32_t head = 0, tail = 0;

	for (uint32_t n = 0; n < t->nnodes; n++) {
		uint32_t q;

		c->ca_sw[n] = TOPO_NONE;
		if (topo_is_switch(t, n))
			continue;
		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++)
			if ((q = peer(t, p)) != TOPO_NONE && topo_is_switch(t, q)) {
				c->ca_sw[n] = q;
				break;
			}
		q = c->ca_sw[n];
		if (q != TOPO_NONE && c->role[n] != CHK_ROLE_SHARP && !c->level[q]) {
			c->level[q] = 1;
			queue[tail++] = q;
		}
	}
	while (head < tail) {
		uint32_t s = queue[head++];

		for (uint32_t p = t->port_off[s] + 1; p < t->port_off[s + 1]; p++) {
			uint32_t q = peer(t, p);

			if (q != TOPO_NONE && topo_is_switch(t, q) && !c->level[q]) {
				c->level[q] = (uint8_t)(c->level[s] < 254 ? c->level[s] + 1 : 255);
				queue[tail++] = q;
			}
		}
	}
}

static uint32_t uf_find(uint32_t *uf, uint32_t x)
{
	while (uf[x] != x)
		x = uf[x] = uf[uf[x]];
	return x;
}

static unsigned up_degree(const struct topo *t, const struct chk_class *c, uint32_t n)
{
	unsigned d = 0;

	for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
		uint32_t q = peer(t, p);

		d += q != TOPO_NONE && topo_is_switch(t, q) && c->level[q] > 1;
	}
	return d;
}

/* Union leaves sharing a strict majority of their upper neighbours. */
static void zone_leaves(const struct topo *t, const struct chk_class *c, uint32_t *uf,
			uint32_t *cnt, uint32_t *touched)
{
	for (uint32_t a = 0; a < t->nnodes; a++) {
		uint32_t nt = 0;
		unsigned da;

		if (c->level[a] != 1)
			continue;
		da = up_degree(t, c, a);
		for (uint32_t p = t->port_off[a] + 1; p < t->port_off[a + 1]; p++) {
			uint32_t s = peer(t, p);

			if (s == TOPO_NONE || !topo_is_switch(t, s) || c->level[s] <= 1)
				continue;
			for (uint32_t q = t->port_off[s] + 1; q < t->port_off[s + 1]; q++) {
				uint32_t b = peer(t, q);

				if (b == TOPO_NONE || b <= a || c->level[b] != 1)
					continue;
				if (!cnt[b]++)
					touched[nt++] = b;
			}
		}
		for (uint32_t i = 0; i < nt; i++) {
			uint32_t b = touched[i], db = up_degree(t, c, b);

			if (2 * cnt[b] > (da < db ? da : db))
				uf[uf_find(uf, a)] = uf_find(uf, b);
			cnt[b] = 0;
		}
	}
}

/* Zone held by at least 3/4 of a switch's zoned neighbours, or -1. */
static int16_t majority_zone(const struct topo *t, const struct chk_class *c, uint32_t s,
			     uint32_t *cnt)
{
	uint32_t total = 0, best = 0;
	int16_t bz = -1;

	for (uint32_t p = t->port_off[s] + 1; p < t->port_off[s + 1]; p++) {
		uint32_t q = peer(t, p);

		if (q != TOPO_NONE && topo_is_switch(t, q) && c->zone[q] >= 0)
			cnt[c->zone[q]]++, total++;
	}
	for (uint32_t p = t->port_off[s] + 1; p < t->port_off[s + 1]; p++) {
		uint32_t q = peer(t, p);

		if (q == TOPO_NONE || !topo_is_switch(t, q) || c->zone[q] < 0)
			continue;
		if (cnt[c->zone[q]] > best)
			best = cnt[c->zone[q]], bz = c->zone[q];
		cnt[c->zone[q]] = 0;
	}
	return best && 4 * best >= 3 * total ? bz : -1;
}

static void find_zones(const struct topo *t, struct chk_class *c, uint32_t *uf, uint32_t *cnt,
		       uint32_t *touched)
{
	uint8_t maxlvl = 0;

	for (uint32_t n = 0; n < t->nnodes; n++) {
		uf[n] = n;
		c->zone[n] = -1;
		if (c->level[n] > maxlvl)
			maxlvl = c->level[n];
	}
	zone_leaves(t, c, uf, cnt, touched);
	for (uint32_t n = 0; n < t->nnodes; n++)	/* number zones by lowest leaf */
		if (c->level[n] == 1 && uf_find(uf, n) == n)
			c->zone[n] = (int16_t)(c->nzones < 32767 ? c->nzones++ : 32767);
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (c->level[n] == 1)
			c->zone[n] = c->zone[uf_find(uf, n)];
	for (uint8_t lv = 2; lv && lv <= maxlvl; lv++)
		for (uint32_t n = 0; n < t->nnodes; n++)
			if (c->level[n] == lv)
				c->zone[n] = majority_zone(t, c, n, cnt);
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (!topo_is_switch(t, n) && c->ca_sw[n] != TOPO_NONE)
			c->zone[n] = c->zone[c->ca_sw[n]];
}

/* Inter-zone links, and nzones/nrails covering every id, after overrides. */
static void mark_interzone(const struct topo *t, struct chk_class *c)
{
	for (uint32_t n = 0; n < t->nnodes; n++) {
		if (c->zone[n] >= 0 && (uint32_t)c->zone[n] >= c->nzones)
			c->nzones = (uint32_t)c->zone[n] + 1;
		if (c->rail[n] >= 0 && (uint32_t)c->rail[n] >= c->nrails)
			c->nrails = (uint32_t)c->rail[n] + 1;
		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
			uint32_t q = peer(t, p);

			c->interzone[p] = q != TOPO_NONE && topo_is_switch(t, n) &&
					  topo_is_switch(t, q) && c->zone[n] != c->zone[q];
		}
	}
}

struct hca_key {
	const char *host;
	size_t hl;
	long dev;
	uint32_t node;
};

static int cmp_hca(const void *a, const void *b)
{
	const struct hca_key *x = a, *y = b;
	size_t n = x->hl < y->hl ? x->hl : y->hl;
	int c = strncmp(x->host, y->host, n);

	if (c)
		return c;
	if (x->hl != y->hl)
		return x->hl < y->hl ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* Trailing number of the device word ("mlx5_3" -> 3, "HCA-2" -> 2), or -1. */
static long dev_number(const char *d, size_t hl)
{
	const char *w = d + hl, *e;

	while (*w == ' ')
		w++;
	e = w + strcspn(w, " ");
	if (e == w || !isdigit((unsigned char)e[-1]))
		return -1;
	while (e > w && isdigit((unsigned char)e[-1]))
		e--;
	return strtol(e, NULL, 10);
}

static int find_rails(const struct topo *t, struct chk_class *c)
{
	struct hca_key *k = malloc(((size_t)t->nnodes + 1) * sizeof(*k));
	uint32_t n = 0;

	if (!k)
		return -ENOMEM;
	for (uint32_t i = 0; i < t->nnodes; i++) {
		c->rail[i] = -1;
		if (c->role[i] != CHK_ROLE_COMPUTE)
			continue;
		k[n].host = t->node_desc[i];
		k[n].hl = strcspn(k[n].host, " ");
		k[n].dev = dev_number(k[n].host, k[n].hl);
		k[n++].node = i;
	}
	qsort(k, n, sizeof(*k), cmp_hca);
	for (uint32_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && k[j].hl == k[i].hl &&
				!strncmp(k[j].host, k[i].host, k[i].hl); j++)
			;
		if (j - i < 4 || k[i].hl == 0)
			continue;
		for (uint32_t r = i; r < j; r++)
			c->rail[k[r].node] = (int16_t)(r - i);
		if (j - i > c->nrails)
			c->nrails = j - i;
	}
	free(k);
	/* a leaf serves rail r if all its railed HCAs are on r */
	for (uint32_t i = 0; i < t->nnodes; i++) {
		uint32_t s = c->ca_sw[i];

		if (topo_is_switch(t, i) || s == TOPO_NONE || c->rail[i] < 0)
			continue;
		if (c->rail[s] == -1)
			c->rail[s] = c->rail[i];
		else if (c->rail[s] != c->rail[i])
			c->rail[s] = -2;
	}
	for (uint32_t i = 0; i < t->nnodes; i++)
		if (c->rail[i] == -2)
			c->rail[i] = -1;
	return 0;
}

static void apply_overrides(const struct topo *t, const struct chk_roles *ov,
			    struct chk_class *c, bool roles)
{
	for (uint32_t i = 0; ov && i < ov->n; i++) {
		const struct chk_role_override *o = &ov->v[i];
		uint32_t n = topo_find_guid(t, o->guid);

		if (n == TOPO_NONE) {
			uint32_t p = topo_find_port_guid(t, o->guid);

			n = p == TOPO_NONE ? TOPO_NONE : t->port_node[p];
		}
		if (n == TOPO_NONE)
			continue;
		if (roles && o->role >= 0 && o->role < CHK_ROLE_COUNT && !topo_is_switch(t, n))
			c->role[n] = (uint8_t)o->role;
		if (!roles && o->zone >= 0)
			c->zone[n] = o->zone;
		if (!roles && o->rail >= 0)
			c->rail[n] = o->rail;
	}
}

void chk_class_free(struct chk_class *c)
{
	free(c->role);
	free(c->zone);
	free(c->rail);
	free(c->level);
	free(c->ca_sw);
	free(c->interzone);
	memset(c, 0, sizeof(*c));
}

int chk_classify(const struct topo *t, const struct chk_roles *ov, struct chk_class *c)
{
	size_t nn = (size_t)t->nnodes + 1;
	uint32_t *s1 = calloc(nn, sizeof(uint32_t)), *s2 = calloc(nn, sizeof(uint32_t));
	uint32_t *s3 = calloc(nn, sizeof(uint32_t));
	int rc = -ENOMEM;

	memset(c, 0, sizeof(*c));
	c->role = calloc(nn, 1);
	c->zone = calloc(nn, sizeof(int16_t));
	c->rail = calloc(nn, sizeof(int16_t));
	c->level = calloc(nn, 1);
	c->ca_sw = calloc(nn, sizeof(uint32_t));
	c->interzone = calloc((size_t)t->nports + 1, 1);
	if (!s1 || !s2 || !s3 || !c->role || !c->zone || !c->rail || !c->level || !c->ca_sw ||
	    !c->interzone)
		goto out;
	for (uint32_t n = 0; n < t->nnodes; n++)
		c->role[n] = (uint8_t)role_of(t, n);
	apply_overrides(t, ov, c, true);
	find_levels(t, c, s1);
	find_zones(t, c, s1, s2, s3);
	rc = find_rails(t, c);
	if (!rc) {
		apply_overrides(t, ov, c, false);
		mark_interzone(t, c);
	}
out:
	free(s1);
	free(s2);
	free(s3);
	if (rc)
		chk_class_free(c);
	return rc;
}
