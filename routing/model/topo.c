// SPDX-License-Identifier: BSD-2-Clause
/*
 * topo.c - queries on a finished fabric: GUID lookups by binary search on
 * the GUID-sorted node array and the port-GUID index, LID lookup through
 * the flat lid_port[] map, comparison, and speed/width names.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/topo_int.h"

int topo_alloc_arrays(struct topo *t, uint32_t nnodes, uint32_t nports, uint32_t nstrs)
{
	size_t nn = (size_t)nnodes + 1, np = (size_t)nports + 1;

	t->nnodes = nnodes;
	t->nports = nports;
	t->node_type = calloc(nn, 1);
	t->node_nports = calloc(nn, 1);
	t->node_guid = calloc(nn, sizeof(uint64_t));
	t->node_sysguid = calloc(nn, sizeof(uint64_t));
	t->node_vendor = calloc(nn, sizeof(uint32_t));
	t->node_devid = calloc(nn, sizeof(uint32_t));
	t->node_rev = calloc(nn, sizeof(uint32_t));
	t->node_desc = calloc(nn, sizeof(char *));
	t->node_name = calloc(nn, sizeof(char *));
	t->port_off = calloc(nn, sizeof(uint32_t));
	t->node_sw = calloc(nn, sizeof(uint32_t));
	t->sw_node = calloc(nn, sizeof(uint32_t));
	t->port_node = calloc(np, sizeof(uint32_t));
	t->port_guid = calloc(np, sizeof(uint64_t));
	t->port_lid = calloc(np, sizeof(uint16_t));
	t->port_lmc = calloc(np, 1);
	t->port_width = calloc(np, 1);
	t->port_speed = calloc(np, 1);
	t->port_state = calloc(np, 1);
	t->port_remote = calloc(np, sizeof(uint32_t));
	t->pguid_sorted = calloc(np, sizeof(uint32_t));
	t->strings = calloc((size_t)nstrs + 1, 1);
	if (!t->node_type || !t->node_nports || !t->node_guid || !t->node_sysguid ||
	    !t->node_vendor || !t->node_devid || !t->node_rev || !t->node_desc ||
	    !t->node_name || !t->port_off || !t->node_sw || !t->sw_node || !t->port_node ||
	    !t->port_guid || !t->port_lid || !t->port_lmc || !t->port_width ||
	    !t->port_speed || !t->port_state || !t->port_remote || !t->pguid_sorted ||
	    !t->strings)
		return -ENOMEM;
	return 0;
}

void topo_free(struct topo *t)
{
	if (!t)
		return;
	free(t->node_type);
	free(t->node_nports);
	free(t->node_guid);
	free(t->node_sysguid);
	free(t->node_vendor);
	free(t->node_devid);
	free(t->node_rev);
	free(t->node_desc);
	free(t->node_name);
	free(t->port_off);
	free(t->node_sw);
	free(t->sw_node);
	free(t->port_node);
	free(t->port_guid);
	free(t->port_lid);
	free(t->port_lmc);
	free(t->port_width);
	free(t->port_speed);
	free(t->port_state);
	free(t->port_remote);
	free(t->pguid_sorted);
	free(t->lid_port);
	free(t->strings);
	free(t);
}

uint32_t topo_find_guid(const struct topo *t, uint64_t guid)
{
	uint32_t lo = 0, hi = t->nnodes;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->node_guid[mid] < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nnodes && t->node_guid[lo] == guid ? lo : TOPO_NONE;
}

uint32_t *topo_sw_peers(const struct topo *t)
{
	uint32_t *nx = malloc(((size_t)t->nswitches * 256 + 1) * sizeof(*nx));

	for (uint32_t s = 0; nx && s < t->nswitches; s++) {
		uint32_t node = t->sw_node[s], *row = nx + (size_t)s * 256;

		for (unsigned e = 0; e < 256; e++) {
			uint32_t r = e && e <= t->node_nports[node] ?
				     t->port_remote[t->port_off[node] + e] : TOPO_NONE;

			row[e] = r == TOPO_NONE ? TOPO_NONE :
				 topo_is_switch(t, t->port_node[r]) ? t->node_sw[t->port_node[r]] :
				 TOPO_PEER_PORT | r;
		}
	}
	return nx;
}

uint32_t topo_port_in(const struct topo *x, uint32_t p, const struct topo *y)
{
	uint32_t n, yn;
	unsigned num;

	if (p == TOPO_NONE)
		return TOPO_NONE;
	n = x->port_node[p];
	yn = topo_find_guid(y, x->node_guid[n]);
	num = topo_port_num(x, p);
	if (yn == TOPO_NONE || y->node_type[yn] != x->node_type[n] || num > y->node_nports[yn])
		return TOPO_NONE;
	return y->port_off[yn] + num;
}

uint32_t topo_find_port_guid(const struct topo *t, uint64_t guid)
{
	uint32_t lo = 0, hi = t->npguids;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->port_guid[t->pguid_sorted[mid]] < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->npguids && t->port_guid[t->pguid_sorted[lo]] == guid ? t->pguid_sorted[lo]
									     : TOPO_NONE;
}

uint32_t topo_find_lid(const struct topo *t, uint32_t lid)
{
	return lid && lid <= t->max_lid ? t->lid_port[lid] : TOPO_NONE;
}

uint32_t topo_lid_node(const struct topo *t, uint32_t lid)
{
	uint32_t p = topo_find_lid(t, lid);

	return p == TOPO_NONE ? TOPO_NONE : t->port_node[p];
}

uint16_t topo_node_lid(const struct topo *t, uint32_t node)
{
	for (uint32_t p = t->port_off[node]; p < t->port_off[node + 1]; p++)
		if (t->port_lid[p])
			return t->port_lid[p];
	return 0;
}

bool topo_is_sharp_an(const struct topo *t, uint32_t node)
{
	return t->node_type[node] == TOPO_NODE_CA &&
	       strstr(t->node_desc[node], "Aggregation Node") != NULL;
}

/* ---- comparison ---------------------------------------------------------- */

static bool differ(char *why, unsigned len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool differ(char *why, unsigned len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return false;
}

static bool ports_equal(const struct topo *a, const struct topo *b, uint32_t n, char *why,
			unsigned len)
{
	unsigned long long g = (unsigned long long)a->node_guid[n];

	for (unsigned pn = 0; pn <= a->node_nports[n]; pn++) {
		uint32_t pa = topo_port(a, n, pn), pb = topo_port(b, n, pn);
		uint32_t ra = a->port_remote[pa], rb = b->port_remote[pb];

		if (a->port_guid[pa] != b->port_guid[pb])
			return differ(why, len, "node 0x%016llx port %u: port GUID differs", g, pn);
		if (a->port_lid[pa] != b->port_lid[pb] || a->port_lmc[pa] != b->port_lmc[pb])
			return differ(why, len, "node 0x%016llx port %u: LID %u/%u vs %u/%u", g, pn,
				      a->port_lid[pa], a->port_lmc[pa], b->port_lid[pb],
				      b->port_lmc[pb]);
		if ((ra == TOPO_NONE) != (rb == TOPO_NONE))
			return differ(why, len, "node 0x%016llx port %u: cabled in one only", g, pn);
		if (ra == TOPO_NONE)
			continue;
		if (a->node_guid[a->port_node[ra]] != b->node_guid[b->port_node[rb]] ||
		    topo_port_num(a, ra) != topo_port_num(b, rb))
			return differ(why, len, "node 0x%016llx port %u: cabled to different peers",
				      g, pn);
		if (a->port_width[pa] != b->port_width[pb] || a->port_speed[pa] != b->port_speed[pb])
			return differ(why, len, "node 0x%016llx port %u: %ux%s vs %ux%s", g, pn,
				      a->port_width[pa], topo_speed_name(a->port_speed[pa]),
				      b->port_width[pb], topo_speed_name(b->port_speed[pb]));
	}
	return true;
}

bool topo_equal(const struct topo *a, const struct topo *b, char *why, unsigned len)
{
	if (a->nnodes != b->nnodes || a->nlinks != b->nlinks)
		return differ(why, len, "%u nodes/%u links vs %u nodes/%u links", a->nnodes,
			      a->nlinks, b->nnodes, b->nlinks);
	for (uint32_t n = 0; n < a->nnodes; n++) {
		unsigned long long g = (unsigned long long)a->node_guid[n];

		if (a->node_guid[n] != b->node_guid[n])
			return differ(why, len, "node %u: GUID 0x%016llx vs 0x%016llx", n, g,
				      (unsigned long long)b->node_guid[n]);
		if (a->node_type[n] != b->node_type[n] || a->node_nports[n] != b->node_nports[n])
			return differ(why, len, "node 0x%016llx: type/port count differs", g);
		if (strcmp(a->node_desc[n], b->node_desc[n]))
			return differ(why, len, "node 0x%016llx: description \"%s\" vs \"%s\"", g,
				      a->node_desc[n], b->node_desc[n]);
		if (a->node_sysguid[n] != b->node_sysguid[n])
			return differ(why, len, "node 0x%016llx: system GUID differs", g);
		if (!ports_equal(a, b, n, why, len))
			return false;
	}
	return true;
}

/* ---- speeds -------------------------------------------------------------- */

static const char *const speed_names[TOPO_SPEED_COUNT] = {
	"?", "SDR", "DDR", "QDR", "FDR10", "FDR", "EDR", "HDR", "NDR", "XDR",
};

/* Per-lane data rate in Gb/s x 10 (after encoding). */
static const unsigned speed_rate[TOPO_SPEED_COUNT] = {
	0, 20, 40, 80, 100, 136, 250, 500, 1000, 2000,
};

const char *topo_speed_name(unsigned speed)
{
	return speed < TOPO_SPEED_COUNT ? speed_names[speed] : "?";
}

enum topo_speed topo_speed_parse(const char *s, unsigned len)
{
	for (unsigned i = 1; i < TOPO_SPEED_COUNT; i++)
		if (strlen(speed_names[i]) == len && !strncasecmp(s, speed_names[i], len))
			return (enum topo_speed)i;
	return TOPO_SPEED_UNKNOWN;
}

unsigned topo_speed_gbps_x10(unsigned speed)
{
	return speed < TOPO_SPEED_COUNT ? speed_rate[speed] : 0;
}

bool topo_width_valid(unsigned width)
{
	return width == 1 || width == 2 || width == 4 || width == 8 || width == 12;
}

unsigned topo_width_from_iba(unsigned mask)
{
	switch (mask) {
	case 1:
		return 1;
	case 2:
		return 4;
	case 4:
		return 8;
	case 8:
		return 12;
	case 16:
		return 2;
	default:
		return 0;
	}
}

enum topo_speed topo_speed_from_iba(unsigned speed, unsigned ext, bool fdr10)
{
	switch (ext) {
	case 1:
		return TOPO_SPEED_FDR;
	case 2:
		return TOPO_SPEED_EDR;
	case 4:
		return TOPO_SPEED_HDR;
	case 8:
		return TOPO_SPEED_NDR;
	default:
		break;
	}
	switch (speed) {
	case 1:
		return TOPO_SPEED_SDR;
	case 2:
		return TOPO_SPEED_DDR;
	case 4:
		return fdr10 ? TOPO_SPEED_FDR10 : TOPO_SPEED_QDR;
	default:
		return TOPO_SPEED_UNKNOWN;
	}
}

/*
 * topo_assign_lids - give every LID-less end port a LID range, as an SM
 * would: switch port 0 one LID, CA/router ports 2^lmc LIDs aligned to
 * 2^lmc, in node (GUID) order after the highest LID already assigned.
 * OpenSM assigns in discovery order instead; dumps still bind because
 * they name destination port GUIDs.  Return: 0, -ENOSPC, -ENOMEM.
 */
int topo_assign_lids(struct topo *t, unsigned lmc)
{
	uint32_t next = t->max_lid + 1, n = 1u << (lmc > 7 ? 7 : lmc), *lp;

	for (uint32_t node = 0; node < t->nnodes; node++) {
		bool sw = topo_is_switch(t, node);

		for (uint32_t p = t->port_off[node] + !sw; p < t->port_off[node + 1]; p++) {
			uint32_t k = sw ? 1 : n;

			if (t->port_lid[p] || (sw && p != t->port_off[node]) ||
			    (!sw && t->port_remote[p] == TOPO_NONE))
				continue;
			next = (next + k - 1) / k * k;
			if (next + k - 1 > TOPO_MAX_UCAST_LID)
				return -ENOSPC;
			t->port_lid[p] = (uint16_t)next;
			t->port_lmc[p] = (uint8_t)(sw ? 0 : lmc);
			next += k;
		}
	}
	if (next - 1 == t->max_lid)
		return 0;
	lp = malloc((size_t)next * sizeof(*lp));
	if (!lp)
		return -ENOMEM;
	for (uint32_t i = 0; i < next; i++)
		lp[i] = i <= t->max_lid ? t->lid_port[i] : TOPO_NONE;
	for (uint32_t p = 0; p < t->nports; p++)
		for (uint32_t k = 0; t->port_lid[p] > t->max_lid && k < (1u << t->port_lmc[p]); k++)
			lp[t->port_lid[p] + k] = p;
	free(t->lid_port);
	t->lid_port = lp;
	t->max_lid = next - 1;
	return 0;
}
