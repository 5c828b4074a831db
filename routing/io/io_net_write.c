// SPDX-License-Identifier: BSD-2-Clause
/*
 * io_net_write.c - the ibsim .net writer (the reader and the format notes
 * are in io_net.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/io.h>

#include "base/util.h"
#include "io/io_net.h"

/* ---- writer ---------------------------------------------------------------- */

struct net_wlink {
	unsigned w, s;		/* lanes and enum topo_speed of the link */
};

/* One width/speed for both ends: the lower port index wins when they differ. */
static struct net_wlink wlink(const struct topo *t, uint32_t p)
{
	uint32_t q = t->port_remote[p], lo = p < q ? p : q, hi = p < q ? q : p;
	struct net_wlink l = { t->port_width[lo], t->port_speed[lo] };

	if (!topo_width_valid(l.w))
		l.w = topo_width_valid(t->port_width[hi]) ? t->port_width[hi] : 0;
	if (!l.s || l.s >= TOPO_SPEED_COUNT)
		l.s = t->port_speed[hi] < TOPO_SPEED_COUNT ? t->port_speed[hi] : 0;
	if (l.s > TOPO_SPEED_HDR)
		l.s = TOPO_SPEED_HDR;
	if (l.s == TOPO_SPEED_FDR10 &&
	    (t->node_type[t->port_node[p]] == TOPO_NODE_ROUTER ||
	     t->node_type[t->port_node[q]] == TOPO_NODE_ROUTER))
		l.s = TOPO_SPEED_QDR;	/* ibsim parses "xFDR10" only on switches and CAs */
	return l;
}

static char type_char(const struct topo *t, uint32_t n)
{
	return t->node_type[n] == TOPO_NODE_SWITCH ? 'S' : t->node_type[n] == TOPO_NODE_ROUTER ?
	       'R' : 'H';
}

static void write_port(const struct topo *t, uint32_t p, FILE *fp)
{
	static const unsigned wmask[13] = { [1] = W_1X, [2] = W_2X, [4] = W_4X, [8] = W_8X,
					    [12] = W_12X };
	static const unsigned smask[TOPO_SPEED_COUNT] = {
		[TOPO_SPEED_SDR] = S_SDR, [TOPO_SPEED_DDR] = S_DDR, [TOPO_SPEED_QDR] = S_QDR,
		[TOPO_SPEED_FDR] = S_QDR, [TOPO_SPEED_EDR] = S_QDR, [TOPO_SPEED_HDR] = S_QDR,
	};
	static const unsigned emask[TOPO_SPEED_COUNT] = {
		[TOPO_SPEED_FDR] = E_FDR, [TOPO_SPEED_EDR] = E_EDR, [TOPO_SPEED_HDR] = E_HDR,
	};
	uint32_t q = t->port_remote[p], rn = t->port_node[q];
	struct net_wlink l = wlink(t, p);

	fprintf(fp, "[%u]\t\"%c-%016llx\"[%u]", topo_port_num(t, p), type_char(t, rn),
		(unsigned long long)t->node_guid[rn], topo_port_num(t, q));
	if (l.s == TOPO_SPEED_FDR10) {
		fprintf(fp, "\t# lid 0 %ux%s\n", l.w ? l.w : 4, "FDR10");
		return;
	}
	if (l.w)
		fprintf(fp, "\tw=%u", wmask[l.w]);
	if (smask[l.s])
		fprintf(fp, "%ss=%u", l.w ? " " : "\t", smask[l.s]);
	if (emask[l.s])
		fprintf(fp, " e=%u", emask[l.s]);
	fputc('\n', fp);
}

/* A NodeDescription ibsim reads back unchanged where possible. */
static void write_desc(const char *d, FILE *fp)
{
	fputs("\t# \"", fp);
	for (unsigned i = 0; i < NET_DESC_MAX && d[i]; i++)
		fputc(d[i] == '"' ? '\'' : d[i] == '\n' || d[i] == '\r' ? ' ' : d[i], fp);
	fputs("\"\n", fp);
}

static void write_node(const struct topo *t, uint32_t n, FILE *fp)
{
	static const char *const kw[] = { "", "Ca", "Switch", "Rt" };
	static const char *const gkw[] = { "", "caguid", "switchguid", "rtguid" };
	unsigned type = t->node_type[n] <= TOPO_NODE_ROUTER ? t->node_type[n] : TOPO_NODE_CA;

	fprintf(fp, "\nvendid=0x%x\ndevid=0x%x\n", t->node_vendor[n] & 0xffffff,
		t->node_devid[n] & 0xffff);
	if (t->node_sysguid[n])
		fprintf(fp, "sysimgguid=0x%016llx\n", (unsigned long long)t->node_sysguid[n]);
	fprintf(fp, "%s=0x%016llx\n%s\t%u \"%c-%016llx\"", gkw[type],
		(unsigned long long)t->node_guid[n], kw[type], t->node_nports[n],
		type_char(t, n), (unsigned long long)t->node_guid[n]);
	write_desc(t->node_desc[n], fp);
	for (unsigned pn = 1; pn <= t->node_nports[n]; pn++) {
		uint32_t p = topo_port(t, n, pn);

		if (t->port_remote[p] != TOPO_NONE)
			write_port(t, p, fp);
	}
}

static bool node_linked(const struct topo *t, uint32_t n)
{
	for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++)
		if (t->port_remote[p] != TOPO_NONE)
			return true;
	return false;
}

/* Port GUIDs ibsim would give twice: switch GUIDs and node GUID + p of
 * every CA and router port (a dual-port HCA whose node GUID is its port 1
 * GUID, next to another one, is the usual case).  UINT_MAX: no memory. */
static unsigned derived_clashes(const struct topo *t)
{
	uint64_t *g = malloc((t->nports + 1) * sizeof(*g));
	unsigned dup = 0;
	size_t k = 0;

	if (!g)
		return UINT_MAX;
	for (uint32_t n = 0; n < t->nnodes; n++) {
		if (t->node_type[n] == TOPO_NODE_SWITCH)
			g[k++] = t->node_guid[n];
		else
			for (unsigned pn = 1; pn <= t->node_nports[n]; pn++)
				g[k++] = t->node_guid[n] + pn;
	}
	qsort(g, k, sizeof(*g), ffr_cmp_u64);
	for (size_t i = 1; i < k; i++)
		dup += g[i] == g[i - 1];
	free(g);
	return dup;
}

/**
 * topo_net_losses - what a .net of @t cannot carry (ibsim's own limits)
 */
struct topo_net_losses topo_net_losses(const struct topo *t)
{
	struct topo_net_losses l = { 0 };

	for (uint32_t n = 0; n < t->nnodes; n++) {
		const char *d = t->node_desc[n];

		l.desc += !*d || strlen(d) > NET_DESC_MAX || strpbrk(d, "\"\r\n");
		l.sysguids += !t->node_sysguid[n];
		for (unsigned pn = 1; t->node_type[n] != TOPO_NODE_SWITCH &&
		     pn <= t->node_nports[n]; pn++) {
			uint64_t g = t->port_guid[topo_port(t, n, pn)], ng = t->node_guid[n] + pn;

			if (!g || g == ng)
				continue;
			l.guids++;
		}
		for (unsigned pn = 1; t->node_type[n] != TOPO_NODE_SWITCH &&
		     pn <= t->node_nports[n]; pn++)
			l.nclashes += topo_find_guid(t, t->node_guid[n] + pn) != TOPO_NONE;
		for (uint32_t p = t->port_off[n] + 1; p < t->port_off[n + 1]; p++) {
			if (t->port_remote[p] == TOPO_NONE || p > t->port_remote[p])
				continue;
			l.fast += t->port_speed[p] > TOPO_SPEED_HDR &&
				  t->port_speed[p] < TOPO_SPEED_COUNT;
			l.unknown += !t->port_speed[p] || !topo_width_valid(t->port_width[p]);
		}
	}
	l.clashes = derived_clashes(t);
	return l;
}

static void write_header(const struct topo *t, FILE *fp)
{
	struct topo_net_losses l = topo_net_losses(t);
	unsigned ports = 0;

	for (uint32_t n = 0; n < t->nnodes; n++)
		ports += t->node_nports[n] + (t->node_type[n] == TOPO_NODE_SWITCH);
	fprintf(fp, "# ibsim .net written by ffroute: %u switches, %u CAs, %u routers, %u links\n"
		"# Node, system and CA port GUIDs (node GUID + port) and NodeDescriptions are\n"
		"# explicit; w=/s=/e= give each link's width/speed.  No LIDs: OpenSM assigns them.\n",
		t->nswitches, t->ncas, t->nrouters, t->nlinks);
	if (t->nnodes > 2048 || t->nswitches > 256 || ports > 13312)
		fprintf(fp, "# run as: ibsim -N %u -S %u -P %u\n", t->nnodes, t->nswitches, ports);
	if (l.fast)
		fprintf(fp, "# %u links faster than HDR written as HDR (ibsim 0.10 stops at HDR)\n",
			l.fast);
	if (l.guids)
		fprintf(fp, "# %u port GUIDs not kept: ibsim gives CA port p node GUID + p\n",
			l.guids);
	if (l.desc)
		fprintf(fp, "# %u NodeDescriptions changed (empty, over %u bytes or with quotes)\n",
			l.desc, NET_DESC_MAX);
}

/**
 * topo_write_net - write @t as an ibsim .net file that ibsim 0.10 loads
 * Nodes go switches first (by GUID), then CAs and routers, with a linked
 * node first so ibsim attaches clients (OpenSM) inside the fabric.  Every
 * link is listed from both ends.  Return: 0, or -EIO on a write error.
 */
int topo_write_net(const struct topo *t, FILE *fp)
{
	static const uint8_t order[3] = { TOPO_NODE_SWITCH, TOPO_NODE_CA, TOPO_NODE_ROUTER };
	uint32_t first = TOPO_NONE;

	write_header(t, fp);
	for (unsigned k = 0; k < 3 && first == TOPO_NONE; k++)
		for (uint32_t n = 0; n < t->nnodes && first == TOPO_NONE; n++)
			if (t->node_type[n] == order[k] && node_linked(t, n))
				first = n;
	if (first != TOPO_NONE)
		write_node(t, first, fp);
	for (unsigned k = 0; k < 3; k++)
		for (uint32_t n = 0; n < t->nnodes; n++)
			if (n != first && t->node_type[n] == order[k])
				write_node(t, n, fp);
	return fflush(fp) || ferror(fp) ? -EIO : 0;
}
