// SPDX-License-Identifier: BSD-2-Clause
/*
 * class.c - what each node is: role, zone, rail, level (ports, hosts and the
 * verdict are in class_port.c).
 *
 * Roles: SHARP aggregation nodes by description; otherwise by the host
 * name (first word of the NodeDescription): "st<digit>"/"*stor*"/"ai400*"
 * storage, "mg<digit>"/"*mgmt*"/"*login*"/"*admin*"/"*ufm*" (NVIDIA's fabric
 * manager appliance) management, anything
 * else compute, but a host CA on a switch above the leaves is management
 * (above_leaves()).  Role overrides (by node or port GUID) win.
 * Levels: class_level.c.
 * Zones (frames): two leaves are in one zone when they share more than
 * half of their upper neighbours (every spine of a frame vs. a couple of
 * bridges); union-find over leaves, then every other switch takes the zone
 * that at least 3/4 of its zoned neighbours have (repeated by level), or
 * none: a bridge links to both zones about evenly, and still does after a
 * few of its links fail, while a spine stays in its frame even when one of
 * its cables is miscabled.  CAs take their switch's zone.
 * Rails: the compute HCAs of one host (same first word), ranked by the
 * number in their device name (mlx5_K, HCA-K), when hosts have >= 4 of
 * them (a host missing some: by the most common full list holding its
 * own); a leaf's rail is its HCAs' rail if they all agree.
 * Cost: O(nodes + sum over leaves of sum of upper-neighbour degrees).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ffroute/class.h>

#include "class/class_int.h"

static const char *const role_names[CLS_ROLE_COUNT] = {
	"switch", "compute", "storage", "mgmt", "sharp", "other",
};

const char *cls_role_name(enum cls_role r)
{
	return (unsigned)r < CLS_ROLE_COUNT ? role_names[r] : "?";
}

enum cls_tclass cls_tclass_of(enum cls_role r)
{
	return r == CLS_ROLE_COMPUTE ? CLS_TC_COMPUTE
	       : r == CLS_ROLE_STORAGE ? CLS_TC_STORAGE : CLS_TC_OTHER;
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

static enum cls_role role_of(const struct topo *t, uint32_t n)
{
	const char *d = t->node_desc[n];
	size_t hl = strcspn(d, " ");

	if (topo_is_switch(t, n))
		return CLS_ROLE_SWITCH;
	if (topo_is_sharp_an(t, n))
		return CLS_ROLE_SHARP;
	if (t->node_type[n] == TOPO_NODE_ROUTER)
		return CLS_ROLE_OTHER;	/* a gateway to another subnet: no compute host */
	if (prefix_digit(d, "st") || has_word(d, hl, "stor") || has_word(d, hl, "ai400"))
		return CLS_ROLE_STORAGE;
	if (prefix_digit(d, "mg") || has_word(d, hl, "mgmt") || has_word(d, hl, "login") ||
	    has_word(d, hl, "admin") || has_word(d, hl, "ufm"))
		return CLS_ROLE_MGMT;
	return CLS_ROLE_COMPUTE;
}

#define peer cls_peer

/*
 * A host CA cabled to a switch above the leaves (an SM server or a UFM
 * appliance on a spine, whatever its name) is management, not compute:
 * it is not where the compute ranks are, and it follows its switch's own
 * routes (route_sl.c).  Role overrides still win (applied again later).
 */
static void above_leaves(const struct topo *t, struct cls *c)
{
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (!topo_is_switch(t, n) && c->role[n] == CLS_ROLE_COMPUTE &&
		    c->ca_sw[n] != TOPO_NONE && c->level[c->ca_sw[n]] >= 2)
			c->role[n] = CLS_ROLE_MGMT;
}

static unsigned up_degree(const struct topo *t, const struct cls *c, uint32_t n)
{
	unsigned d = 0;

	for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
		uint32_t q = peer(t, p);

		d += q != TOPO_NONE && topo_is_switch(t, q) && c->level[q] > 1;
	}
	return d;
}

/* Union leaves sharing a strict majority of their upper neighbours. */
static void zone_leaves(const struct topo *t, const struct cls *c, uint32_t *uf,
			uint32_t *cnt, uint32_t *touched)
{
	for (uint32_t a = 0; a < t->nnodes; a++) {
		uint32_t nt = 0;
		unsigned da;

		if (c->level[a] != 1 || c->below[a])	/* below_zones() places those */
			continue;
		da = up_degree(t, c, a);
		for (uint32_t p = t->port_off[a] + 1; p < t->port_off[a + 1]; p++) {
			uint32_t s = peer(t, p);

			if (s == TOPO_NONE || !topo_is_switch(t, s) || c->level[s] <= 1)
				continue;
			for (uint32_t q = t->port_off[s] + 1; q < t->port_off[s + 1]; q++) {
				uint32_t b = peer(t, q);

				if (b == TOPO_NONE || b <= a || c->level[b] != 1 || c->below[b])
					continue;
				if (!cnt[b]++)
					touched[nt++] = b;
			}
		}
		for (uint32_t i = 0; i < nt; i++) {
			uint32_t b = touched[i], db = up_degree(t, c, b);

			if (2 * cnt[b] > (da < db ? da : db))
				uf[cls_uf_find(uf, a)] = cls_uf_find(uf, b);
			cnt[b] = 0;
		}
	}
}

/* Zone held by at least 3/4 of a switch's zoned neighbours, or -1. */
static int16_t majority_zone(const struct topo *t, const struct cls *c, uint32_t s,
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

/*
 * Per candidate zone, whether most of its top-level switches (below the
 * lowest level of zone-less switches above it) have a link up to a
 * zone-less switch of a higher level: a pod of a 3-level tree,
 * whose cores span every pod, however tapered.  Once three candidates or
 * more are such pods, so is any candidate with one switch still linked
 * up to such a switch (a SuperPOD rail group whose spines lost most core
 * links, or that took in a core that lost most of its other links, stayed
 * a zone, and its dual-homed hosts passed for storage servers).
 * Only then: two zones joined through switches above their
 * spines (the test fabric of tests/unit/test_check.c) may be Fire-Flyer
 * 2's two zones as well as a 2-pod tree, and stay zones by the bisection
 * rule.  Fire-Flyer 2's own inter-zone switches hang from leaves.  Sets
 * @tier[z]; -ENOMEM if out of memory.
 */
static int find_tiers(const struct topo *t, const struct cls *c, uint32_t nz, bool *tier)
{
	uint32_t *top = calloc((size_t)nz * 5, sizeof(*top)), *ntop = top + nz, *nup = ntop + nz;
	uint32_t *anyup = nup + nz, *lo = anyup + nz;
	uint32_t ntiers = 0;

	if (!top)
		return -ENOMEM;
	for (uint32_t z = 0; z < nz; z++)
		lo[z] = UINT32_MAX;
	for (uint32_t n = 0; n < t->nnodes; n++) {	/* the tier above: its lowest level */
		if (!topo_is_switch(t, n) || c->zone[n] < 0)
			continue;
		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
			uint32_t q = cls_peer_sw(t, p);

			if (q != TOPO_NONE && c->zone[q] < 0 && c->level[q] > c->level[n] &&
			    c->level[q] < lo[c->zone[n]])
				lo[c->zone[n]] = c->level[q];
		}
	}
	/* the top below that tier: a core that lost its link to every pod but
	 * one joined that pod's candidate by majority, and is no top of it */
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (topo_is_switch(t, n) && c->zone[n] >= 0 && c->level[n] > top[c->zone[n]] &&
		    c->level[n] < lo[c->zone[n]])
			top[c->zone[n]] = c->level[n];
	for (uint32_t n = 0; n < t->nnodes; n++) {
		bool up = false;

		if (!topo_is_switch(t, n) || c->zone[n] < 0)
			continue;
		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
			uint32_t q = cls_peer_sw(t, p);

			up |= q != TOPO_NONE && c->zone[q] < 0 && c->level[q] > c->level[n];
		}
		anyup[c->zone[n]] += up;
		if (c->level[n] != top[c->zone[n]])
			continue;
		ntop[c->zone[n]]++;
		nup[c->zone[n]] += up;
	}
	for (uint32_t z = 0; z < nz; z++)
		ntiers += 2 * nup[z] > ntop[z];
	for (uint32_t z = 0; z < nz; z++)	/* a tier seen: a pod that kept one link to it */
		tier[z] = ntiers >= 3 && anyup[z] > 0;
	free(top);
	return 0;
}

/*
 * A zone is a part joined to the rest by a cut of few links: at most half
 * its internal switch links (its bisection, in a Clos), and not through a
 * tier above it (find_tiers).  Candidate zones that fail (the pods of a
 * 3-level tree, tapered or not, the rail pods of a rail-optimized tree) are
 * merged into one.  Returns 1 if any merged, 0 if none, -ENOMEM.
 */
static int merge_weak_zones(const struct topo *t, struct cls *c, uint32_t *in, uint32_t *cut)
{
	uint32_t nz = c->nzones, keep = 0, weak = 0;
	int16_t first_weak = -1;
	bool *tier = calloc(nz, sizeof(*tier));

	if (!tier || find_tiers(t, c, nz, tier)) {
		free(tier);
		return -ENOMEM;
	}

	memset(in, 0, nz * sizeof(*in));
	memset(cut, 0, nz * sizeof(*cut));
	for (uint32_t n = 0; n < t->nnodes; n++) {
		if (!topo_is_switch(t, n) || c->zone[n] < 0)
			continue;
		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
			uint32_t q = cls_peer_sw(t, p);

			if (q == TOPO_NONE || q == n)
				continue;
			if (c->zone[q] == c->zone[n])
				in[c->zone[n]]++;	/* counted from both ends */
			else
				cut[c->zone[n]] += 2;
		}
	}
	for (uint32_t z = 0; z < nz; z++) {
		if (cut[z] * 2 <= in[z] && !tier[z]) {
			in[z] = keep++;		/* new id */
			continue;
		}
		weak++;
		if (first_weak < 0)
			first_weak = (int16_t)keep++;
		in[z] = (uint32_t)first_weak;
	}
	free(tier);
	if (!weak)
		return 0;
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (c->zone[n] >= 0)
			c->zone[n] = (int16_t)in[c->zone[n]];
		else if (topo_is_switch(t, n))
			c->zone[n] = -1;
	c->nzones = keep;
	snprintf(c->zone_why, sizeof(c->zone_why),
		 "%u of %u candidate zones joined by many links or a tier above: merged into one",
		 weak, nz);
	return 1;
}

/*
 * A subtree that hangs below the fast tree takes the zone of the switches
 * it hangs from, from its top down (no zone if they disagree: a bridge).
 */
static void below_zones(const struct topo *t, struct cls *c, uint32_t *cnt)
{
	bool changed = true;

	for (uint32_t n = 0; n < t->nnodes; n++)
		if (c->below[n] && topo_is_switch(t, n))
			c->zone[n] = -1;
	memset(cnt, 0, ((size_t)t->nnodes + 1) * sizeof(*cnt));
	while (changed) {
		changed = false;
		for (uint32_t n = 0; n < t->nnodes; n++)
			if (c->below[n] && topo_is_switch(t, n) && c->zone[n] < 0 &&
			    (c->zone[n] = majority_zone(t, c, n, cnt)) >= 0)
				changed = true;
	}
}

static int find_zones(const struct topo *t, struct cls *c, uint32_t *uf, uint32_t *cnt,
		      uint32_t *touched)
{
	uint8_t maxlvl = 0;
	int merged;

	for (uint32_t n = 0; n < t->nnodes; n++) {
		uf[n] = n;
		c->zone[n] = -1;
		if (c->level[n] > maxlvl)
			maxlvl = c->level[n];
	}
	zone_leaves(t, c, uf, cnt, touched);
	for (uint32_t n = 0; n < t->nnodes; n++)	/* number zones by lowest leaf */
		if (c->level[n] == 1 && cls_uf_find(uf, n) == n && !c->below[n])
			c->zone[n] = (int16_t)(c->nzones < 32767 ? c->nzones++ : 32767);
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (c->level[n] == 1)
			c->zone[n] = c->zone[cls_uf_find(uf, n)];
	for (uint8_t lv = 2; lv && lv <= maxlvl; lv++)
		for (uint32_t n = 0; n < t->nnodes; n++)
			if (c->level[n] == lv)
				c->zone[n] = majority_zone(t, c, n, cnt);
	merged = c->nzones > 1 ? merge_weak_zones(t, c, cnt, touched) : 0;
	if (merged < 0)
		return merged;
	if (merged) {	/* switches that were between merged pods join them */
		memset(cnt, 0, ((size_t)t->nnodes + 1) * sizeof(*cnt));
		for (uint8_t lv = 2; lv && lv <= maxlvl; lv++)
			for (uint32_t n = 0; n < t->nnodes; n++)
				if (c->level[n] == lv && c->zone[n] < 0)
					c->zone[n] = majority_zone(t, c, n, cnt);
	}
	below_zones(t, c, cnt);
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (!topo_is_switch(t, n) && c->ca_sw[n] != TOPO_NONE)
			c->zone[n] = c->zone[c->ca_sw[n]];
	return 0;
}

/* Inter-zone links, and nzones/nrails covering every id, after overrides. */
/*
 * Renumber the ids in @v (zones or rails, from inference and overrides)
 * densely in order: a "zone=32767" override makes one more zone, not
 * 32,768.  Ids are < 32768, so the map is 64 KiB.
 */
static void compact_ids(const struct topo *t, int16_t *v)
{
	int16_t *map = malloc(32768 * sizeof(*map));
	int16_t next = 0;

	if (!map)
		return;		/* ids stay as they are: correct, only sparse */
	for (uint32_t i = 0; i < 32768; i++)
		map[i] = -1;
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (v[n] >= 0)
			map[v[n]] = 0;
	for (uint32_t i = 0; i < 32768; i++)
		if (map[i] >= 0)
			map[i] = next++;
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (v[n] >= 0)
			v[n] = map[v[n]];
	free(map);
}

static void mark_interzone(const struct topo *t, struct cls *c)
{
	uint32_t nz = 0;

	compact_ids(t, c->zone);
	compact_ids(t, c->rail);
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (c->zone[n] >= 0 && (uint32_t)c->zone[n] >= nz)
			nz = (uint32_t)c->zone[n] + 1;
	if (nz <= 1) {		/* one zone: everything is in it */
		for (uint32_t n = 0; n < t->nnodes; n++)
			c->zone[n] = 0;
		if (!c->zone_why[0])
			snprintf(c->zone_why, sizeof(c->zone_why), "one zone");
	}
	c->nzones = 0;
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
	if (c->nrails && !strncmp(c->rail_why, "no ", 3))
		snprintf(c->rail_why, sizeof(c->rail_why), "set by rail= overrides");
}

struct hca_key {
	uint32_t host;
	long dev;
	uint32_t node;
};

static int cmp_hca(const void *a, const void *b)
{
	const struct hca_key *x = a, *y = b;

	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/*
 * Rank key of an HCA within its host, from the device word: the PCI
 * address of "ibp<bus>s<slot>f<fn>" names, else the trailing number
 * ("mlx5_3" -> 3, "HCA-2" -> 2); -1 when there is none (node order then).
 */
static long dev_number(const char *d)
{
	const char *w = d + strcspn(d, " "), *e;
	unsigned bus, slot, fn;

	while (*w == ' ')
		w++;
	if (sscanf(w, "ibp%us%uf%u", &bus, &slot, &fn) == 3 && bus < 256 && slot < 32 && fn < 8)
		return (long)(bus << 8 | slot << 3 | fn);
	e = w + strcspn(w, " ");
	if (e == w || !isdigit((unsigned char)e[-1]))
		return -1;
	while (e > w && isdigit((unsigned char)e[-1]) && e - w < 18)
		e--;
	return strtol(e, NULL, 10);
}

/* An HCA ranked by no name, on its leaf's rail if the leaves have rails. */
#define RAIL_BY_LEAF (-2)

/* A leaf serves rail r when most of its railed HCAs are on r; rails are
 * kept only when >= 90 % of the railed HCAs agree with their leaf. */
static void leaf_rails(const struct topo *t, struct cls *c, uint32_t *cnt)
{
	uint32_t agree = 0, total = 0;

	for (uint32_t s = 0; s < t->nnodes; s++) {
		uint32_t best = 0;
		int16_t br = -1;

		if (!topo_is_switch(t, s) || c->level[s] != 1)
			continue;
		for (uint32_t p = t->port_off[s] + 1; p < t->port_off[s + 1]; p++) {
			uint32_t q = cls_peer(t, p);

			if (q != TOPO_NONE && !topo_is_switch(t, q) && c->rail[q] >= 0 &&
			    ++cnt[c->rail[q]] > best)
				best = cnt[c->rail[q]], br = c->rail[q];
		}
		for (uint32_t p = t->port_off[s] + 1; p < t->port_off[s + 1]; p++) {
			uint32_t q = cls_peer(t, p);

			if (q != TOPO_NONE && !topo_is_switch(t, q) && c->rail[q] >= 0) {
				cnt[c->rail[q]] = 0;
				total++;
				agree += c->rail[q] == br;
			}
		}
		c->rail[s] = br;
	}
	if (total && agree * 10 < total * 9) {
		snprintf(c->rail_why, sizeof(c->rail_why), "no rail planes: hosts have several "
			 "HCAs, but only %u of %u sit on a leaf whose HCAs mostly have their rank "
			 "(90 %% needed): leaves carry several NIC ranks", agree, total);
		for (uint32_t n = 0; n < t->nnodes; n++)
			c->rail[n] = -1;
	} else if (total) {
		snprintf(c->rail_why, sizeof(c->rail_why), "HCA rank k of every host sits on "
			 "leaves of rank k (%u of %u HCAs)", agree, total);
		/* the cabling decides: an HCA is on its leaf's rail, whatever its rank
		 * (a host missing an HCA ranks the rest one lower) */
		for (uint32_t n = 0; n < t->nnodes; n++) {
			uint32_t p = t->port_off[n] + 1, q;

			if (topo_is_switch(t, n) || (c->rail[n] < 0 && c->rail[n] != RAIL_BY_LEAF) ||
			    p >= t->port_off[n + 1] ||
			    (q = cls_peer(t, p)) == TOPO_NONE || !topo_is_switch(t, q) ||
			    c->level[q] != 1 || c->rail[q] < 0)
				continue;
			c->rail[n] = c->rail[q];
		}
	}
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (c->rail[n] == RAIL_BY_LEAF)
			c->rail[n] = -1;	/* no railed leaf to take it from */
}

/*
 * The device lists of hosts with >= 4 compute HCAs, one per distinct list
 * (k[] ranges), with how many hosts have each.  A host whose HCA lost its
 * cable is not in the subnet OpenSM sees: its list is shorter, and its
 * HCAs after the gap would rank one lower.  Its rank is then the index in
 * the most common list (of two hosts or more) that holds its own (every
 * device numbered), if it has at least half of that list's HCAs: a CPU
 * node with one mlx5_0 stays without a rail.
 */
#define RAIL_LISTS 32
#define RAIL_LISTS_MAXLEN 64	/* HCAs of a host ranked in a list */
struct dev_list { uint32_t at, len, hosts; };

static bool same_devs(const struct hca_key *k, uint32_t a, uint32_t b, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		if (k[a + i].dev != k[b + i].dev || k[a + i].dev < 0)
			return false;
	return true;
}

/* Index of each of host [i, j)'s devices in list @l, or false if one is not in it. */
static bool in_list(const struct hca_key *k, uint32_t i, uint32_t j, const struct dev_list *l,
		    int16_t *rank)
{
	uint32_t x = l->at, e = l->at + l->len;

	for (uint32_t r = i; r < j; r++) {
		while (x < e && k[x].dev < k[r].dev)
			x++;
		if (x == e || k[x].dev != k[r].dev || k[r].dev < 0)
			return false;
		rank[r - i] = (int16_t)(x - l->at);
	}
	return true;
}

static uint32_t dev_lists(const struct hca_key *k, uint32_t n, struct dev_list *l)
{
	uint32_t nl = 0;

	for (uint32_t i = 0, j; i < n; i = j) {
		uint32_t x;

		for (j = i + 1; j < n && k[j].host == k[i].host; j++)
			;
		if (j - i < 4 || j - i > 32767 || k[i].dev < 0)	/* sorted: a -1 comes first */
			continue;
		for (x = 0; x < nl && !(l[x].len == j - i && same_devs(k, l[x].at, i, j - i)); x++)
			;
		if (x < nl)
			l[x].hosts++;
		else if (nl < RAIL_LISTS)
			l[nl++] = (struct dev_list){ i, j - i, 1 };
	}
	return nl;
}

/* Rails: the rank of each compute HCA within its host (hosts of >= 4). */
static int find_rails(const struct topo *t, struct cls *c, uint32_t *cnt)
{
	struct hca_key *k = malloc(((size_t)t->nnodes + 1) * sizeof(*k));
	struct dev_list lists[RAIL_LISTS];
	int16_t rank[RAIL_LISTS_MAXLEN];
	uint32_t n = 0, nl;

	if (!k)
		return -ENOMEM;
	for (uint32_t i = 0; i < t->nnodes; i++) {
		c->rail[i] = -1;
		if (c->role[i] != CLS_ROLE_COMPUTE || c->host[i] == TOPO_NONE)
			continue;
		/* an unconfigured description ("MT4129 ConnectX7 ...") names no device */
		k[n++] = (struct hca_key){ c->host[i], cls_is_default_desc(t->node_desc[i]) ? -1 :
						       dev_number(t->node_desc[i]), i };
	}
	qsort(k, n, sizeof(*k), cmp_hca);
	snprintf(c->rail_why, sizeof(c->rail_why), "no host has 4 or more compute HCAs (a "
		 "host: CAs sharing a SystemImageGUID, or the first word of configured "
		 "descriptions)");
	nl = dev_lists(k, n, lists);
	for (uint32_t i = 0, j; i < n; i = j) {
		const struct dev_list *best = NULL;
		uint32_t h = i;

		for (j = i + 1; j < n && k[j].host == k[i].host; j++)
			;
		/* a host of 4 or more, some HCAs unnumbered (sorted first): those
		 * vote for no rail and take their leaf's (leaf_rails()), the
		 * others are ranked by their names; before, the unnumbered took
		 * the first ranks and moved every other HCA of the host */
		while (j - h >= 4 && i < j && k[i].dev < 0)
			i++;
		if (i == j)
			i = h;	/* none numbered: ranked in node order */
		for (uint32_t r = h; r < i; r++)
			c->rail[k[r].node] = RAIL_BY_LEAF;
		for (uint32_t x = 0; x < nl && j - i <= RAIL_LISTS_MAXLEN; x++)
			if (lists[x].len > j - i && 2 * (j - i) >= lists[x].len &&
			    lists[x].hosts >= 2 && (!best || lists[x].hosts > best->hosts) &&
			    in_list(k, i, j, &lists[x], rank))
				best = &lists[x];
		if (best) {	/* a host short of HCAs: ranks in the full list */
			in_list(k, i, j, best, rank);
		} else if (j - i < 4) {
			for (uint32_t r = i; h < i && r < j; r++)
				c->rail[k[r].node] = RAIL_BY_LEAF;
			continue;
		}
		for (uint32_t r = i; r < j; r++)
			c->rail[k[r].node] = best ? rank[r - i] :
					     (int16_t)(r - i < 32767 ? r - i : 32767);
	}
	free(k);
	memset(cnt, 0, ((size_t)t->nnodes + 1) * sizeof(*cnt));
	leaf_rails(t, c, cnt);
	return 0;
}

enum ov_what { OV_ROLE, OV_LEVEL, OV_ZONE_RAIL };

static void override_node(const struct topo *t, const struct cls_override *o, uint32_t n,
			  struct cls *c, enum ov_what what)
{
	if (what == OV_ROLE && o->role >= 0 && o->role < CLS_ROLE_COUNT && !topo_is_switch(t, n))
		c->role[n] = (uint8_t)o->role;
	if (what == OV_LEVEL && o->level >= 0 && topo_is_switch(t, n))
		c->level[n] = (uint8_t)(o->level < 255 ? o->level : 255);
	if (what == OV_ZONE_RAIL && o->zone >= 0)
		c->zone[n] = o->zone < (int16_t)t->nnodes ? o->zone : (int16_t)(t->nnodes - 1);
	if (what == OV_ZONE_RAIL && o->rail >= 0)
		c->rail[n] = o->rail < (int16_t)t->nnodes ? o->rail : (int16_t)(t->nnodes - 1);
}

/*
 * Overrides by GUID (node or port) or by regex on the NodeDescription, in
 * file order (a later line wins); @m[n] says which regexes match node n's
 * description (cls_overrides_match, evaluated once per description).
 */
static void apply_overrides(const struct topo *t, const struct cls_overrides *ov,
			    const uint8_t *const *m, struct cls *c, enum ov_what what)
{
	for (uint32_t i = 0; ov && i < ov->n; i++) {
		const struct cls_override *o = &ov->v[i];
		uint32_t n;

		if (o->re) {
			uint32_t k = (uint32_t)o->re_idx;

			for (n = 0; o->re_idx >= 0 && n < t->nnodes; n++)
				if (m[n][k / 8] >> (k % 8) & 1)
					override_node(t, o, n, c, what);
			continue;
		}
		n = topo_find_guid(t, o->guid);
		if (n == TOPO_NONE) {
			uint32_t p = topo_find_port_guid(t, o->guid);

			n = p == TOPO_NONE ? TOPO_NONE : t->port_node[p];
		}
		if (n != TOPO_NONE)
			override_node(t, o, n, c, what);
	}
}

/* @m[n]: the regex overrides node n's description matches; -ENOMEM. */
static int match_overrides(const struct topo *t, const struct cls_overrides *ov,
			   const uint8_t **m)
{
	cls_overrides_reserve(ov, t->nnodes);
	for (uint32_t n = 0; n < t->nnodes; n++)
		if (!(m[n] = cls_overrides_match(ov, t->node_desc[n])))
			return -ENOMEM;
	return 0;
}

void cls_free(struct cls *c)
{
	free(c->role);
	free(c->zone);
	free(c->rail);
	free(c->level);
	free(c->ca_sw);
	free(c->interzone);
	free(c->host);
	free(c->dir);
	free(c->group);
	free(c->pos);
	free(c->part);
	free(c->rate);
	free(c->cap);
	free(c->slow);
	free(c->trained);
	free(c->subtree);
	free(c->below);
	memset(c, 0, sizeof(*c));
}

int cls_classify(const struct topo *t, const struct cls_overrides *ov, struct cls *c)
{
	size_t nn = (size_t)t->nnodes + 1;
	uint32_t *s1 = calloc(nn, sizeof(uint32_t)), *s2 = calloc(nn, sizeof(uint32_t));
	uint32_t *s3 = calloc(nn, sizeof(uint32_t));
	const uint8_t **m = calloc(nn, sizeof(*m));
	int rc = -ENOMEM;

	memset(c, 0, sizeof(*c));
	c->role = calloc(nn, 1);
	c->zone = calloc(nn, sizeof(int16_t));
	c->rail = calloc(nn, sizeof(int16_t));
	c->level = calloc(nn, 1);
	c->ca_sw = calloc(nn, sizeof(uint32_t));
	c->interzone = calloc((size_t)t->nports + 1, 1);
	c->host = calloc(nn, sizeof(uint32_t));
	c->dir = calloc((size_t)t->nports + 1, 1);
	c->group = calloc((size_t)t->nports + 1, sizeof(uint32_t));
	if (!s1 || !s2 || !s3 || !c->role || !c->zone || !c->rail || !c->level || !c->ca_sw ||
	    !c->interzone || !c->host || !c->dir || !c->group || !m ||
	    match_overrides(t, ov, m))
		goto out;
	for (uint32_t n = 0; n < t->nnodes; n++)
		c->role[n] = (uint8_t)role_of(t, n);
	apply_overrides(t, ov, m, c, OV_ROLE);
	cls_find_levels(t, c, s1, s2, s3);
	apply_overrides(t, ov, m, c, OV_LEVEL);
	cls_count_levels(t, c);	/* a level= override may raise or lower the top */
	above_leaves(t, c);
	if (cls_rates(t, c))	/* which subtrees hang below: by the levels in force */
		goto out;
	rc = find_zones(t, c, s1, s2, s3);
	if (!rc)
		rc = cls_find_hosts(t, c);
	if (!rc) {
		cls_zones_of_hosts(t, c);
		cls_dual_homed(t, c);
		apply_overrides(t, ov, m, c, OV_ROLE);
		rc = find_rails(t, c, s2);
	}
	if (!rc) {
		apply_overrides(t, ov, m, c, OV_ZONE_RAIL);
		mark_interzone(t, c);
		cls_ports(t, c);
		cls_shape(t, c);
		cls_verdict(t, c);
		rc = cls_positions(t, c);
	}
out:
	free(m);
	free(s1);
	free(s2);
	free(s3);
	if (rc)
		cls_free(c);
	return rc;
}
