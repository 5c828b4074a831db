// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_find_text.c - the examples chk_findings() gives (chk_find.c): nodes
 * named by NodeDescription (by GUID when it is empty or shared), ports and
 * LIDs, and why a route fails.  Apart from the walk that finds them: text
 * is formatted only for the few examples a report keeps.
 */
#include <inttypes.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "check/chk_find.h"

/* ---- names ---------------------------------------------------------------- */

/* NodeDescription, or the GUID when it is empty or not unique. */
static void nname(const struct topo *t, uint32_t n, char *buf)
{
	chk_node_name(t, n, buf, NAME_LEN);
}

/* "LID 12 (cn0001 mlx5_0/1)" or "LID 3 (switch spine01)" */
static void lidname(const struct find *f, char *buf, size_t len)
{
	char n[NAME_LEN];

	nname(f->t, f->dnode, n);
	if (f->dsw)
		snprintf(buf, len, "LID %u (switch %s)", f->lid, n);
	else
		snprintf(buf, len, "LID %u (%s/%u)", f->lid, n, topo_port_num(f->t, f->dport));
}

static void swname(const struct find *f, uint32_t s, char *buf)
{
	nname(f->t, f->t->sw_node[s], buf);
}

/* Count @n occurrences of @k; keep @ex (may be NULL) as an example. */
static void note(struct chk_report *r, enum chk_finding_kind k, bool hard, uint64_t n,
		 const char *ex)
{
	struct chk_finding *f = &r->f[k];

	if (!n)
		return;
	f->count += n;
	f->hard = f->hard || hard;
	if (ex && f->nex < CHK_EXAMPLES)
		snprintf(f->ex[f->nex++], sizeof(f->ex[0]), "%s", ex);
}

static bool want_example(const struct find *f, enum chk_finding_kind k)
{
	return f->r->f[k].nex < CHK_EXAMPLES;
}

/* ---- examples ------------------------------------------------------------------ */

/* "a/3 -> b/1 -> a/3": the cycle through switch ordinal @s0. */
static void cycle_text(const struct find *f, uint32_t s0, char *buf, size_t len)
{
	size_t n = 0;
	uint32_t s = s0;

	buf[0] = '\0';
	for (unsigned i = 0; i <= f->nsw && n + 1 < len; i++) {
		char nm[NAME_LEN];
		uint32_t p = f->outp[s];

		swname(f, s, nm);
		n += (size_t)snprintf(buf + n, len - n, "%s%s/%u", i ? " -> " : "", nm,
				      p == TOPO_NONE ? 0 : topo_port_num(f->t, p));
		if (i && s == s0)
			break;
		s = f->nxt[s];
		if (s == TOPO_NONE)
			break;
	}
}

/* Why the route of switch ordinal @s fails (blackhole / no route). */
static void fail_text(const struct find *f, uint32_t s, char *buf, size_t len)
{
	const struct topo *t = f->t;
	uint32_t a = f->at[s], node = t->sw_node[a];
	uint8_t e = lft_get(f->l, a, f->lid);
	char an[NAME_LEN], rn[NAME_LEN];

	swname(f, a, an);
	switch (f->st[s]) {
	case FS_NO_ROUTE:
		snprintf(buf, len, "empty LFT entry at %s", an);
		break;
	case FS_PORT0:
		snprintf(buf, len, "%s sends it to its port 0 but does not own the LID", an);
		break;
	case FS_DEAD:
		if (e > t->node_nports[node])
			snprintf(buf, len, "%s sends it to port %u, beyond its %u ports", an, e,
				 t->node_nports[node]);
		else
			snprintf(buf, len, "%s sends it to port %u, which is not cabled", an, e);
		break;
	case FS_WRONG:
		nname(t, t->port_node[t->port_remote[f->outp[a]]], rn);
		snprintf(buf, len, "%s/%u delivers it to %s/%u, which does not own the LID", an,
			 e, rn, topo_port_num(t, t->port_remote[f->outp[a]]));
		break;
	case FS_LOOP:
		buf[0] = '\0';
		cycle_text(f, a, buf, len);
		break;
	default:
		snprintf(buf, len, "%s", an);
		break;
	}
}

/* Path of switch ordinal @s's route: the first inter-zone link, or the last link. */
static void xzone_text(const struct find *f, uint32_t s, char *buf, size_t len)
{
	const struct topo *t = f->t;
	uint32_t x = s, p = TOPO_NONE;

	for (unsigned i = 0; x != TOPO_NONE && i <= f->nsw; i++, x = f->nxt[x]) {
		if (f->outp[x] != TOPO_NONE && f->c->interzone[f->outp[x]]) {
			p = f->outp[x];
			break;
		}
	}
	if (p == TOPO_NONE) {
		snprintf(buf, len, "changes zone %u times", f->zch[s]);
	} else {
		char a[NAME_LEN], b[NAME_LEN];
		uint32_t q = t->port_remote[p];

		nname(t, t->port_node[p], a);
		nname(t, t->port_node[q], b);
		snprintf(buf, len, "uses inter-zone link %s/%u -> %s/%u (%u zone changes)", a,
			 topo_port_num(t, p), b, topo_port_num(t, q), f->zch[s]);
	}
}

/* First other-rail leaf after switch ordinal @s on its route. */
static void rail_text(const struct find *f, uint32_t s, char *buf, size_t len)
{
	uint32_t x = f->nxt[s];

	for (unsigned i = 0; x != TOPO_NONE && i <= f->nsw; i++, x = f->nxt[x]) {
		uint32_t node = f->t->sw_node[x];

		if (f->c->level[node] == 1 && f->c->rail[node] >= 0 &&
		    f->c->rail[node] != f->drail) {
			char nm[NAME_LEN];

			nname(f->t, node, nm);
			snprintf(buf, len, "passes %s, a leaf of rail %d", nm, f->c->rail[node]);
			return;
		}
	}
	snprintf(buf, len, "leaves the plane");
}

void chk_find_emit_dest(struct find *f)
{
	static const char *const what[CHK_F_COUNT] = {
		[CHK_F_UNREACHABLE] = "no route from",
		[CHK_F_UNREACHABLE_PHYS] = "no physical path from",
		[CHK_F_LOOP] = "routes loop from",
		[CHK_F_BLACKHOLE] = "black hole from",
		[CHK_F_SWITCH_LID] = "broken route from",
		[CHK_F_NONMINIMAL] = "non-minimal from",
		[CHK_F_RAIL_LEAVE] = "leaves its rail's plane from",
		[CHK_F_XZONE_LINK] = "zone rule broken from",
		[CHK_F_STORAGE_XZONE] = "storage reached outside its zone from",
	};
	char ln[120], sn[NAME_LEN], why[200], ex[sizeof(f->r->f[0].ex[0])];

	for (unsigned k = 0; k < CHK_F_COUNT; k++) {
		uint32_t s = f->tfirst[k];
		bool hard = chk_finding_hard((enum chk_finding_kind)k);

		if (!f->tn[k])
			continue;
		if (hard && f->o && f->o->lid_found)
			f->o->lid_found[f->lid] = 1;
		if (!want_example(f, (enum chk_finding_kind)k)) {
			note(f->r, (enum chk_finding_kind)k, hard, f->tn[k], NULL);
			continue;
		}
		lidname(f, ln, sizeof(ln));
		swname(f, s, sn);
		why[0] = '\0';
		if (k == CHK_F_NONMINIMAL)
			snprintf(why, sizeof(why), "%u switch hops, shortest %u", f->hops[s],
				 f->dist[s]);
		else if (k == CHK_F_XZONE_LINK || k == CHK_F_STORAGE_XZONE)
			xzone_text(f, s, why, sizeof(why));
		else if (k == CHK_F_RAIL_LEAVE)
			rail_text(f, s, why, sizeof(why));
		else if (k != CHK_F_UNREACHABLE_PHYS)
			fail_text(f, s, why, sizeof(why));
		snprintf(ex, sizeof(ex), "%s: %s %u switch%s, e.g. %s%s%s%s", ln, what[k], f->tn[k],
			 f->tn[k] == 1 ? "" : "es", sn, why[0] ? " (" : "", why, why[0] ? ")" : "");
		note(f->r, (enum chk_finding_kind)k, hard, f->tn[k], ex);
	}
}

/* ---- whole-fabric findings ------------------------------------------------------- */

void chk_find_emit_no_table(struct find *f)
{
	char nm[NAME_LEN], ex[sizeof(f->r->f[0].ex[0])];

	for (uint32_t s = 0; s < f->nsw; s++) {
		uint32_t node = f->t->sw_node[s];

		if (f->l->have[s])
			continue;
		nname(f->t, node, nm);
		snprintf(ex, sizeof(ex), "switch %s (0x%016" PRIx64 ", LID %u) has no forwarding "
			 "table; %" PRIu64 " routes of other switches enter it", nm,
			 f->t->node_guid[node], topo_node_lid(f->t, node), f->notab[s]);
		note(f->r, CHK_F_NO_TABLE, chk_finding_hard(CHK_F_NO_TABLE), 1, ex);
	}
}

#define RAILS_SHARED (-3)

/*
 * The rail of each switch's down-cone into @cone: a leaf's rail; above,
 * the one rail of the switches below it, or RAILS_SHARED when they serve
 * several (the spine of a DGX SuperPOD unit, cabled to a leaf of every
 * rail), -1 when none.  Levels ascending: each switch after those below.
 */
static void rail_cones(const struct topo *t, const struct cls *c, int16_t *cone)
{
	for (uint32_t n = 0; n < t->nnodes; n++)
		cone[n] = topo_is_switch(t, n) && c->level[n] == 1 ? c->rail[n] : -1;
	for (unsigned lv = 2; lv <= c->nlevels; lv++)
		for (uint32_t n = 0; n < t->nnodes; n++) {
			if (!topo_is_switch(t, n) || c->level[n] != lv)
				continue;
			for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
				uint32_t w = sw_peer(t, p) == TOPO_NONE ? TOPO_NONE :
					     t->port_node[t->port_remote[p]];
				int16_t r = w == TOPO_NONE || c->dir[p] != CLS_DIR_DOWN ? -1 : cone[w];

				if (r != -1 && cone[n] != RAILS_SHARED)
					cone[n] = cone[n] == -1 || cone[n] == r ? r : RAILS_SHARED;
			}
		}
}

/*
 * rail_mix: per link inside one rail's plane, that is whose lower switch
 * serves one rail (or none): a link whose lower end serves several rails
 * is shared by design, and no routing could keep it to one.
 */
int chk_find_emit_rail_mix(struct find *f)
{
	const struct topo *t = f->t;
	int16_t *cone = malloc(((size_t)t->nnodes + 1) * sizeof(*cone));

	if (!cone)
		return -ENOMEM;
	rail_cones(t, f->c, cone);
	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t q = t->port_remote[p], ends[2] = { p, q };
		int16_t r0 = -1, r1 = -1;
		uint32_t l0 = 0, l1 = 0, a0, b0;

		if (q == TOPO_NONE || q < p || sw_peer(t, p) == TOPO_NONE ||
		    !topo_is_switch(t, t->port_node[p]))
			continue;
		a0 = t->port_node[p], b0 = t->port_node[q];
		if (cone[f->c->level[a0] <= f->c->level[b0] ? a0 : b0] == RAILS_SHARED)
			continue;
		for (int e = 0; e < 2; e++)
			for (int i = 0; i < 2; i++) {
				int16_t rr = f->chr[i][ends[e]];

				if (rr < 0)
					continue;
				if (r0 < 0)
					r0 = rr, l0 = f->chlid[i][ends[e]];
				else if (rr != r0 && r1 < 0)
					r1 = rr, l1 = f->chlid[i][ends[e]];
			}
		if (r1 >= 0) {
			char a[NAME_LEN], b[NAME_LEN], ex[sizeof(f->r->f[0].ex[0])];

			nname(t, t->port_node[p], a);
			nname(t, t->port_node[q], b);
			snprintf(ex, sizeof(ex), "link %s/%u <-> %s/%u carries routes to rail %d "
				 "(LID %u) and rail %d (LID %u)", a, topo_port_num(t, p), b,
				 topo_port_num(t, q), r0, l0, r1, l1);
			note(f->r, CHK_F_RAIL_MIX, chk_finding_hard(CHK_F_RAIL_MIX), 1,
			     want_example(f, CHK_F_RAIL_MIX) ? ex : NULL);
		}
	}
	free(cone);
	return 0;
}
