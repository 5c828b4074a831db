// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_tc.c - traffic classes on VLs of their own: Fire-Flyer 2 keeps
 * storage and allreduce traffic apart by giving each its SLs, and the SLs
 * their VLs, so one class's congestion does not block another's buffers.
 *
 * The deadlock layers (route_sl.c) give every path a layer SL l and every
 * port a row layer SL -> VL in 0 .. L-1 (L = 1 or 2).  With K classes:
 *   - class k's SL for layer 0 (paths inside a zone) is its configured SL,
 *     the one hosts ask for; its SL for every other layer SL the routes use
 *     is taken, in order, from the SLs no class names (map[k][l]);
 *   - on every port, SL map[k][l] goes to VL k * L + row[l]; an SL no class
 *     uses goes where the default class's layer 0 goes;
 *   - so each class's routes see exactly the deadlock layers' VL
 *     assignment, shifted to VLs no other class uses: acyclic per VL if
 *     the layers are, and the checker walks every class to prove it.
 * It needs K x (layer SLs used) SLs (16 exist) and K x L VLs (the ports'
 * VLCap); either short and the pass is refused with the numbers: classes
 * are never merged.  A path's class comes from the SL it was asked with,
 * else from its endpoints' roles, else the default class
 * (route_path_class).  VL arbitration gives every VL of a class the
 * class's weight, in the high or the low table (route_vlarb).
 *
 * Cost: O(groups x LIDs + ports x 16).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route/route_int.h"

unsigned route_tclass_defaults(struct route_tclass *tc)
{
	static const struct route_tclass def[] = {
		{ "other", 0, 32, false, true, 0 },
		{ "collectives", 1, 64, false, false, 1u << CLS_ROLE_SHARP },
		{ "storage", 2, 64, false, false, 1u << CLS_ROLE_STORAGE },
		{ "management", 3, 16, false, false,
		  1u << CLS_ROLE_MGMT | 1u << CLS_ROLE_SWITCH },
	};

	memcpy(tc, def, sizeof(def));
	return (unsigned)(sizeof(def) / sizeof(def[0]));
}

/* The next word of @s at *@at (skipping blanks) into @w; its column in *@col; false at the end. */
static bool word(const char *s, size_t *at, char *w, size_t size, unsigned *col)
{
	size_t n = 0;

	while (s[*at] == ' ' || s[*at] == '\t')
		(*at)++;
	*col = (unsigned)*at;
	while (s[*at] && s[*at] != ' ' && s[*at] != '\t') {
		if (n + 1 < size)
			w[n++] = s[*at];
		(*at)++;
	}
	w[n] = '\0';
	return n > 0;
}

static bool number(const char *w, unsigned long lo, unsigned long hi, unsigned long *v)
{
	char *end;

	if (*w < '0' || *w > '9')
		return false;
	*v = strtoul(w, &end, 10);
	return !*end && *v >= lo && *v <= hi;
}

static int roles_of(const char *w, uint16_t *roles)
{
	char buf[128];
	char *save = NULL;

	snprintf(buf, sizeof(buf), "%s", w);
	*roles = 0;
	for (char *r = strtok_r(buf, ",", &save); r; r = strtok_r(NULL, ",", &save)) {
		unsigned i = 0;

		while (i < CLS_ROLE_COUNT && strcmp(r, cls_role_name((enum cls_role)i)))
			i++;
		if (i == CLS_ROLE_COUNT)
			return -EINVAL;
		*roles |= (uint16_t)(1u << i);
	}
	return *roles ? 0 : -EINVAL;
}

int route_tclass_parse(const char *s, struct route_tclass *tc, unsigned *col, char *err,
		       size_t errsz)
{
	char w[128], v[128];
	size_t at = 0;
	unsigned long x;
	bool have_sl = false;

	memset(tc, 0, sizeof(*tc));
	tc->weight = 32;
	if (!word(s, &at, w, sizeof(w), col) || strlen(w) >= CHK_TC_NAME) {
		snprintf(err, errsz, "a class name (1..%u characters) expected", CHK_TC_NAME - 1);
		return -EINVAL;
	}
	snprintf(tc->name, sizeof(tc->name), "%s", w);
	while (word(s, &at, w, sizeof(w), col)) {
		unsigned vcol;

		if (!strcmp(w, "high") || !strcmp(w, "default")) {
			*(w[0] == 'h' ? &tc->high : &tc->fallback) = true;
			continue;
		}
		if (strcmp(w, "sl") && strcmp(w, "weight") && strcmp(w, "roles")) {
			snprintf(err, errsz, "sl, weight, roles, high or default expected, not %.40s", w);
			return -EINVAL;
		}
		if (!word(s, &at, v, sizeof(v), &vcol)) {
			snprintf(err, errsz, "a value expected after %s", w);
			return -EINVAL;
		}
		*col = vcol;
		if (w[0] == 's' && number(v, 0, 15, &x)) {
			tc->sl = (uint8_t)x;
			have_sl = true;
		} else if (w[0] == 'w' && number(v, 1, 255, &x)) {
			tc->weight = (uint8_t)x;
		} else if (w[0] == 'r' && !roles_of(v, &tc->roles)) {
			continue;
		} else {
			snprintf(err, errsz, "%s", w[0] == 's' ? "sl is 0..15" : w[0] == 'w' ?
				 "weight is 1..255" : "roles is a comma list of switch, compute, "
				 "storage, mgmt, sharp, other");
			return -EINVAL;
		}
	}
	if (!have_sl) {
		*col = (unsigned)at;
		snprintf(err, errsz, "class %s has no sl", tc->name);
		return -EINVAL;
	}
	return 0;
}

int route_tclasses_valid(const struct route_tclass *tc, unsigned n, char *err, size_t errsz)
{
	unsigned fallbacks = 0;

	if (n > CHK_TC_MAX) {
		snprintf(err, errsz, "%u traffic classes: at most %u", n, CHK_TC_MAX);
		return -EINVAL;
	}
	for (unsigned i = 0; i < n; i++) {
		fallbacks += tc[i].fallback;
		if (!tc[i].sl && !tc[i].fallback) {	/* OpenSM's default SL: no class named */
			snprintf(err, errsz, "class %s: SL 0 is what a request naming no SL asks "
				 "for: only the default class may take it", tc[i].name);
			return -EINVAL;
		}
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(tc[i].name, tc[j].name) || tc[i].sl == tc[j].sl) {
				snprintf(err, errsz, "classes %s and %s share a%s", tc[j].name,
					 tc[i].name, tc[i].sl == tc[j].sl ? "n SL" : " name");
				return -EINVAL;
			}
	}
	if (fallbacks > 1) {
		snprintf(err, errsz, "%u classes marked default: at most one", fallbacks);
		return -EINVAL;
	}
	return 0;
}

/*
 * The layer SLs some path uses (SL 0 always) into *@used, and those some
 * path to a CA uses into *@ca (the others only lead to switch LIDs: the
 * turns of switches' own routes).
 */
static void layer_sls(const struct topo *t, const struct route_out *out, uint16_t *used,
		      uint16_t *ca)
{
	*used = *ca = 1;
	for (uint32_t lid = 1; lid < out->nlids; lid++) {
		uint32_t p = t->lid_port[lid];
		bool to_ca = p != TOPO_NONE && !topo_is_switch(t, t->port_node[p]);

		for (uint32_t g = 0; g < out->ngroups; g++) {
			uint16_t bit = (uint16_t)(1u << (out->sl[(size_t)g * out->nlids + lid] & 15));

			*used |= bit;
			if (to_ca)
				*ca |= bit;
		}
	}
}

/* Whether layer SLs @a and @b go to the same VL on every port and every turn row. */
static bool same_column(const struct topo *t, const struct route_out *out, unsigned a, unsigned b)
{
	for (uint32_t p = 0; p < t->nports; p++)
		if (out->sl2vl[(size_t)p * 16 + a] != out->sl2vl[(size_t)p * 16 + b])
			return false;
	for (uint32_t i = 0; i < out->vlx.n; i++)
		if (out->vlx.v[i].vl[a] != out->vlx.v[i].vl[b])
			return false;
	return true;
}

/* @row (layer SL -> VL) as the classes' row (SL -> VL): class k's own SLs. */
static void class_row(const struct route_out *out, const uint16_t *own, uint8_t row[16])
{
	unsigned L = out->layer_vls;
	uint8_t layer[16], fb = (uint8_t)(out->tc_fallback * L + row[0]);

	memcpy(layer, row, 16);
	memset(row, fb, 16);
	for (unsigned k = 0; k < out->tcs.n; k++)
		for (unsigned l = 0; l < 16; l++)
			if (own[k] >> l & 1)
				row[out->tcs.map[k][l]] = (uint8_t)(k * L + layer[l]);
}

/* The class that carries switches' own turns: the first with role switch, else the default. */
static unsigned switch_class(const struct route_opts *o)
{
	unsigned fb = 0;

	for (unsigned k = 0; k < o->ntc; k++) {
		if (o->tc[k].roles >> CLS_ROLE_SWITCH & 1)
			return k;
		if (o->tc[k].fallback)
			fb = k;
	}
	return fb;
}

/*
 * The SLs of every (class, layer SL), class k's own layers in @own[k]:
 * layers with the same VL column share an SL; layers only paths to
 * switch LIDs use get SLs in the switch class only, and the other classes
 * use its SLs there.  -EINVAL (err) when 16 do not suffice.
 */
static int assign_sls(const struct topo *t, struct route_out *out, const struct route_opts *o,
		      uint16_t *own)
{
	uint16_t used, ca, claimed = 1, reps = 0, careps = 0;	/* SL 0: unclassified */
	unsigned swk = switch_class(o), next = 1, need, avail;
	uint8_t rep[16];

	layer_sls(t, out, &used, &ca);
	for (unsigned l = 0; l < 16; l++) {
		for (rep[l] = 0; rep[l] < l && !((used >> rep[l] & 1) &&
						   same_column(t, out, rep[l], l)); rep[l]++)
			;
		if (used >> l & 1)
			reps |= (uint16_t)(1u << rep[l]);
		if (ca >> l & 1)
			careps |= (uint16_t)(1u << rep[l]);
	}
	need = o->ntc * (unsigned)__builtin_popcount(careps) +
	       (unsigned)__builtin_popcount(reps & ~careps);
	for (unsigned k = 0; k < o->ntc; k++)
		claimed |= (uint16_t)(1u << o->tc[k].sl);
	avail = 15 - (unsigned)__builtin_popcount(claimed & ~1u);
	if (need - o->ntc > avail) {	/* each class's own SL is its first */
		snprintf(out->err, sizeof(out->err), "traffic classes: %u classes x %u SLs of "
			 "deadlock layers (+%u for switches' turns) need %u SLs, %u exist (SL 0 "
			 "and the classes' own SLs are not lent)", o->ntc,
			 (unsigned)__builtin_popcount(careps),
			 (unsigned)__builtin_popcount(reps & ~careps), need, avail + o->ntc);
		return -EINVAL;
	}
	for (unsigned i = 0; i < o->ntc; i++) {
		unsigned k = i ? i - (i <= swk) : swk;	/* the switch class first */

		own[k] = 1;
		out->tc_sls[k] = (uint16_t)(1u << o->tc[k].sl);
		memset(out->tcs.map[k], o->tc[k].sl, 16);
		for (unsigned l = 1; l < 16; l++) {
			if (!(used >> l & 1))
				continue;
			if (rep[l] != l) {
				out->tcs.map[k][l] = out->tcs.map[k][rep[l]];
				own[k] |= (uint16_t)((own[k] >> rep[l] & 1) << l);
				continue;
			}
			if (k != swk && !(careps >> l & 1)) {
				out->tcs.map[k][l] = out->tcs.map[swk][l];
				continue;
			}
			while (next < 16 && (claimed >> next & 1))
				next++;
			if (next == 16) {
				snprintf(out->err, sizeof(out->err), "traffic classes: %u classes "
					 "need %u SLs, 16 exist", o->ntc, need);
				return -EINVAL;
			}
			out->tcs.map[k][l] = (uint8_t)next;
			claimed |= (uint16_t)(1u << next);
			out->tc_sls[k] |= (uint16_t)(1u << next);
			own[k] |= (uint16_t)(1u << l);
		}
	}
	for (unsigned k = 0; k < o->ntc; k++) {
		out->tc[k] = o->tc[k];
		snprintf(out->tcs.name[k], CHK_TC_NAME, "%s", o->tc[k].name);
		if (o->tc[k].fallback)
			out->tc_fallback = k;
	}
	out->tcs.n = o->ntc;
	return 0;
}

int rt_tc_map(struct rt *r)
{
	const struct route_opts *o = r->o;
	struct route_out *out = r->out;
	uint16_t own[CHK_TC_MAX];
	int rc;

	if (!o->ntc)
		return 0;
	out->layer_vls = out->nvls;
	out->nvls = o->ntc * out->layer_vls;
	if (out->nvls > o->vl_limit) {
		snprintf(out->err, sizeof(out->err), "traffic classes: %u classes x %u VL%s of "
			 "deadlock layers need %u VLs, the limit is %u", o->ntc, out->layer_vls,
			 out->layer_vls == 1 ? "" : "s", out->nvls, o->vl_limit);
		return -EINVAL;
	}
	rc = assign_sls(r->t, out, o, own);
	for (uint32_t p = 0; !rc && p < r->t->nports; p++)
		class_row(out, own, out->sl2vl + (size_t)p * 16);
	for (uint32_t i = 0; !rc && i < out->vlx.n; i++)
		class_row(out, own, out->vlx.v[i].vl);
	return rc;
}

unsigned route_path_class(const struct route_out *out, const struct cls *c, uint8_t hint,
			  uint32_t src, uint32_t dst)
{
	unsigned n = out->tcs.n, fb = out->tc_fallback;

	for (unsigned k = 0; k < n; k++)
		if (k != fb && hint < 16 && (out->tc_sls[k] >> hint & 1))
			return k;
	for (unsigned side = 0; side < 2; side++) {
		uint32_t node = side ? src : dst;

		for (unsigned k = 0; c && node != TOPO_NONE && k < n; k++)
			if (k != fb && (out->tc[k].roles >> c->role[node] & 1))
				return k;
	}
	return n ? fb : 0;
}

uint8_t route_class_sl(const struct route_out *out, unsigned k, uint32_t src_node, uint32_t dlid)
{
	uint8_t l = route_sl(out, src_node, dlid) & 15;

	return k < out->tcs.n ? out->tcs.map[k][l] : l;
}

void route_vlarb(const struct route_out *out, bool high, uint8_t vl[64], uint8_t weight[64],
		 unsigned *n)
{
	*n = 0;
	for (unsigned k = 0; k < out->tcs.n; k++)
		for (unsigned v = 0; out->tc[k].high == high && v < out->layer_vls && *n < 64; v++) {
			vl[*n] = (uint8_t)(k * out->layer_vls + v);
			weight[(*n)++] = out->tc[k].weight;
		}
}

void route_vlarb_conf(const struct route_out *out, bool high, char *buf, size_t size)
{
	uint8_t vl[64], w[64];
	unsigned n;
	size_t at = 0;

	route_vlarb(out, high, vl, w, &n);
	buf[0] = '\0';
	for (unsigned i = 0; i < n && at < size; i++)
		at += (size_t)snprintf(buf + at, size - at, "%s%u:%u", i ? "," : "", vl[i], w[i]);
	if (!n)	/* every entry's weight 0: the table is not used */
		snprintf(buf, size, "0:0");
}
