// SPDX-License-Identifier: BSD-2-Clause
/*
 * cmd_info.c - "ffroute info": read a topology in any format and describe it.
 *
 * One pass over the nodes and one over the ports collects everything:
 * node counts (CAs split into hosts and SHARP aggregation nodes), links
 * counted once (the lower port index of each pair), histograms of switch
 * radix, cabled switch ports and link width x speed, the LID range (the
 * highest LID includes the LMC range of its port) and the LMC values seen.
 * Parallel links are found by sorting the switch-switch
 * links by (node, node, port) and grouping equal node pairs; loopback
 * cables are links whose two ends are on the same switch.
 *
 * Output is deterministic: nodes are in GUID order (struct topo invariant)
 * and every histogram is printed in key order.  O(ports log ports) time,
 * O(switch-switch links) extra memory.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define INFO_LIST_MAX 5		/* parallel groups / loopbacks listed by name */
#define INFO_MAX_WIDTH 12

const char cmd_info_help[] =
	"usage: ffroute info [--format FMT] [--json] FILE\n"
	"\n"
	"Read a topology (ibnetdiscover, ibnetdiscover -p, ibsim .net, .lst) and\n"
	"print its switches, CAs (hosts and SHARP aggregation nodes), routers,\n"
	"links, switch radix and cabled-port histograms, link width x speed\n"
	"histogram, LID range, parallel links and loopback cables.\n"
	"\n"
	"Options:\n"
	"  -f, --format FMT  read FILE as FMT (ibnetdiscover, ibnetdiscover-ports,\n"
	"                    net, lst); default: detect from the contents;\n"
	"                    also --topo-format\n"
	"  -j, --json        print one JSON object instead of text\n"
	"  -h, --help        print this help\n";

struct info_opts {
	enum ffr_format fmt;
	bool json;
	const char *path;
};

/* A switch-to-switch link between two different switches, na < nb. */
struct sw_link {
	uint32_t na, nb;
	uint8_t pa, pb;
};

/* A loopback cable: ports pa < pb of switch node. */
struct loopback {
	uint32_t node;
	uint8_t pa, pb;
};

struct info_stats {
	uint32_t nhosts, nans;
	uint32_t links, links_sw_sw, links_sw_ca, links_other;
	uint32_t radix[TOPO_MAX_PORTS + 1];
	uint32_t cabled[TOPO_MAX_PORTS + 1];
	uint32_t ws[INFO_MAX_WIDTH + 1][TOPO_SPEED_COUNT];
	uint32_t lid_min, lid_max, nolid_nodes;
	unsigned lmc_mask;
	/* parallel links */
	struct sw_link *sl;
	uint32_t nsl;
	uint32_t par_groups, par_extra;
	uint32_t par_start[INFO_LIST_MAX], par_len[INFO_LIST_MAX];
	/* loopback cables */
	uint32_t nloop;
	struct loopback loop[INFO_LIST_MAX];
};

static void count_nodes(const struct topo *t, struct info_stats *st)
{
	for (uint32_t n = 0; n < t->nnodes; n++) {
		uint16_t lid = topo_node_lid(t, n);

		if (t->node_type[n] == TOPO_NODE_CA) {
			if (topo_is_sharp_an(t, n))
				st->nans++;
			else
				st->nhosts++;
		} else if (t->node_type[n] == TOPO_NODE_SWITCH) {
			unsigned cabled = 0;

			for (unsigned pn = 1; pn <= t->node_nports[n]; pn++)
				if (t->port_remote[topo_port(t, n, pn)] != TOPO_NONE)
					cabled++;
			st->radix[t->node_nports[n]]++;
			st->cabled[cabled]++;
		}
		if (!lid)
			st->nolid_nodes++;
	}
}

static void count_lids(const struct topo *t, struct info_stats *st)
{
	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t lid = t->port_lid[p], top;

		if (!lid || lid == TOPO_LID_UNASSIGNED)
			continue;
		top = lid + (1u << (t->port_lmc[p] & 7)) - 1;
		if (!st->lid_min || lid < st->lid_min)
			st->lid_min = lid;
		if (top > st->lid_max)
			st->lid_max = top;
		st->lmc_mask |= 1u << (t->port_lmc[p] & 7);
	}
}

/* Classify one link (p, r), p < r, and remember what info prints by name. */
static void count_link(const struct topo *t, struct info_stats *st, uint32_t p, uint32_t r)
{
	uint32_t na = t->port_node[p], nb = t->port_node[r];
	bool swa = topo_is_switch(t, na), swb = topo_is_switch(t, nb);
	unsigned w = t->port_width[p] ? t->port_width[p] : t->port_width[r];
	unsigned s = t->port_speed[p] ? t->port_speed[p] : t->port_speed[r];

	st->links++;
	if (w > INFO_MAX_WIDTH)
		w = 0;
	if (s >= TOPO_SPEED_COUNT)
		s = TOPO_SPEED_UNKNOWN;
	st->ws[w][s]++;
	if (swa && swb)
		st->links_sw_sw++;
	else if ((swa && t->node_type[nb] == TOPO_NODE_CA) ||
		 (swb && t->node_type[na] == TOPO_NODE_CA))
		st->links_sw_ca++;
	else
		st->links_other++;
	if (!swa || !swb)
		return;
	if (na == nb) {
		if (st->nloop < INFO_LIST_MAX)
			st->loop[st->nloop] = (struct loopback){
				na, (uint8_t)topo_port_num(t, p), (uint8_t)topo_port_num(t, r) };
		st->nloop++;
		return;
	}
	/* p < r and nodes own ascending port ranges, so na < nb */
	st->sl[st->nsl++] = (struct sw_link){ na, nb, (uint8_t)topo_port_num(t, p),
					      (uint8_t)topo_port_num(t, r) };
}

static int sw_link_cmp(const void *a, const void *b)
{
	const struct sw_link *x = a, *y = b;

	if (x->na != y->na)
		return x->na < y->na ? -1 : 1;
	if (x->nb != y->nb)
		return x->nb < y->nb ? -1 : 1;
	return (int)x->pa - (int)y->pa;
}

static void find_parallel(struct info_stats *st)
{
	uint32_t i = 0;

	qsort(st->sl, st->nsl, sizeof(*st->sl), sw_link_cmp);
	while (i < st->nsl) {
		uint32_t j = i + 1;

		while (j < st->nsl && st->sl[j].na == st->sl[i].na && st->sl[j].nb == st->sl[i].nb)
			j++;
		if (j - i > 1) {
			if (st->par_groups < INFO_LIST_MAX) {
				st->par_start[st->par_groups] = i;
				st->par_len[st->par_groups] = j - i;
			}
			st->par_groups++;
			st->par_extra += j - i - 1;
		}
		i = j;
	}
}

static int collect(const struct topo *t, struct info_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->sl = malloc(((size_t)t->nlinks + 1) * sizeof(*st->sl));
	if (!st->sl)
		return -1;
	count_nodes(t, st);
	count_lids(t, st);
	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t r = t->port_remote[p];

		if (r != TOPO_NONE && r > p && st->links < t->nlinks + 1)
			count_link(t, st, p, r);
	}
	find_parallel(st);
	return 0;
}

/* ---- text output --------------------------------------------------------- */

static void print_ws_key(FILE *fp, unsigned w, unsigned s)
{
	if (w)
		fprintf(fp, "%ux%s", w, topo_speed_name(s));
	else
		fprintf(fp, "?x%s", topo_speed_name(s));
}

static void print_ports(FILE *fp, const struct info_stats *st, uint32_t start, uint32_t len,
			bool side_b, const char *sep)
{
	for (uint32_t k = 0; k < len; k++)
		fprintf(fp, "%s%u", k ? sep : "",
			side_b ? st->sl[start + k].pb : st->sl[start + k].pa);
}

static void print_node(FILE *fp, const struct topo *t, uint32_t n)
{
	fprintf(fp, "\"%s\" (0x%016llx)", t->node_desc[n],
		(unsigned long long)t->node_guid[n]);
}

static void print_oddities(FILE *fp, const struct topo *t, const struct info_stats *st)
{
	fprintf(fp, "parallel links: %u group%s, %u extra link%s\n", st->par_groups,
		st->par_groups == 1 ? "" : "s", st->par_extra, st->par_extra == 1 ? "" : "s");
	for (uint32_t g = 0; g < st->par_groups && g < INFO_LIST_MAX; g++) {
		const struct sw_link *l = &st->sl[st->par_start[g]];

		fputs("  ", fp);
		print_node(fp, t, l->na);
		fputs(" ports ", fp);
		print_ports(fp, st, st->par_start[g], st->par_len[g], false, ",");
		fputs(" <-> ", fp);
		print_node(fp, t, l->nb);
		fputs(" ports ", fp);
		print_ports(fp, st, st->par_start[g], st->par_len[g], true, ",");
		fputc('\n', fp);
	}
	if (st->par_groups > INFO_LIST_MAX)
		fprintf(fp, "  ... %u more\n", st->par_groups - INFO_LIST_MAX);
	fprintf(fp, "loopback cables: %u\n", st->nloop);
	for (uint32_t k = 0; k < st->nloop && k < INFO_LIST_MAX; k++) {
		fputs("  ", fp);
		print_node(fp, t, st->loop[k].node);
		fprintf(fp, " port %u <-> port %u\n", st->loop[k].pa, st->loop[k].pb);
	}
	if (st->nloop > INFO_LIST_MAX)
		fprintf(fp, "  ... %u more\n", st->nloop - INFO_LIST_MAX);
}

static void print_lids(FILE *fp, const struct info_stats *st)
{
	if (!st->lid_max) {
		fprintf(fp, "LIDs: none assigned (%u nodes without a LID)\n", st->nolid_nodes);
		return;
	}
	fprintf(fp, "LIDs: %u-%u, LMC", st->lid_min, st->lid_max);
	for (unsigned m = 0, first = 1; m < 8; m++)
		if (st->lmc_mask & (1u << m)) {
			fprintf(fp, "%s%u", first ? " " : ",", m);
			first = 0;
		}
	fprintf(fp, ", %u node%s without a LID\n", st->nolid_nodes,
		st->nolid_nodes == 1 ? "" : "s");
}

static void print_text(FILE *fp, const struct info_opts *o, enum ffr_format fmt,
		       const struct topo *t, const struct info_stats *st)
{
	fprintf(fp, "file: %s\n", o->path);
	fprintf(fp, "format: %s\n", ffr_format_name(fmt));
	fprintf(fp, "switches: %u\n", t->nswitches);
	fprintf(fp, "CAs: %u (hosts %u, SHARP aggregation nodes %u)\n", t->ncas, st->nhosts,
		st->nans);
	fprintf(fp, "routers: %u\n", t->nrouters);
	fprintf(fp, "links: %u (switch-switch %u, switch-CA %u, other %u)\n", st->links,
		st->links_sw_sw, st->links_sw_ca, st->links_other);
	fprintf(fp, "switches by radix (NumPorts count):\n");
	for (unsigned k = 0; k <= TOPO_MAX_PORTS; k++)
		if (st->radix[k])
			fprintf(fp, "  %u %u\n", k, st->radix[k]);
	fprintf(fp, "switches by cabled ports (cabled count):\n");
	for (unsigned k = 0; k <= TOPO_MAX_PORTS; k++)
		if (st->cabled[k])
			fprintf(fp, "  %u %u\n", k, st->cabled[k]);
	fprintf(fp, "links by width x speed (speed count):\n");
	for (unsigned s = 0; s < TOPO_SPEED_COUNT; s++)
		for (unsigned w = 0; w <= INFO_MAX_WIDTH; w++)
			if (st->ws[w][s]) {
				fputs("  ", fp);
				print_ws_key(fp, w, s);
				fprintf(fp, " %u\n", st->ws[w][s]);
			}
	print_lids(fp, st);
	print_oddities(fp, t, st);
}

/* ---- JSON output --------------------------------------------------------- */

static void json_hist(FILE *fp, const char *key, const uint32_t *h)
{
	bool first = true;

	fprintf(fp, "  \"%s\": {", key);
	for (unsigned k = 0; k <= TOPO_MAX_PORTS; k++)
		if (h[k]) {
			fprintf(fp, "%s\"%u\": %u", first ? "" : ", ", k, h[k]);
			first = false;
		}
	fputs("},\n", fp);
}

static void json_end(FILE *fp, const struct topo *t, uint32_t n, unsigned pn)
{
	fputs("{\"desc\": ", fp);
	cli_json_str(fp, t->node_desc[n]);
	fprintf(fp, ", \"guid\": \"0x%016llx\", \"port\": %u}",
		(unsigned long long)t->node_guid[n], pn);
}

static void json_oddities(FILE *fp, const struct topo *t, const struct info_stats *st)
{
	fprintf(fp, "  \"parallel_links\": {\"groups\": %u, \"extra_links\": %u, \"first\": [",
		st->par_groups, st->par_extra);
	for (uint32_t g = 0; g < st->par_groups && g < INFO_LIST_MAX; g++) {
		fprintf(fp, "%s[", g ? ", " : "");
		for (uint32_t k = 0; k < st->par_len[g]; k++) {
			const struct sw_link *l = &st->sl[st->par_start[g] + k];

			fprintf(fp, "%s{\"a\": ", k ? ", " : "");
			json_end(fp, t, l->na, l->pa);
			fputs(", \"b\": ", fp);
			json_end(fp, t, l->nb, l->pb);
			fputc('}', fp);
		}
		fputc(']', fp);
	}
	fputs("]},\n", fp);
	fprintf(fp, "  \"loopback_cables\": {\"count\": %u, \"first\": [", st->nloop);
	for (uint32_t k = 0; k < st->nloop && k < INFO_LIST_MAX; k++) {
		fprintf(fp, "%s{\"a\": ", k ? ", " : "");
		json_end(fp, t, st->loop[k].node, st->loop[k].pa);
		fputs(", \"b\": ", fp);
		json_end(fp, t, st->loop[k].node, st->loop[k].pb);
		fputc('}', fp);
	}
	fputs("]}\n", fp);
}

static void json_lids(FILE *fp, const struct info_stats *st)
{
	fprintf(fp, "  \"lids\": {\"lowest\": %u, \"highest\": %u, \"lmc\": [", st->lid_min,
		st->lid_max);
	for (unsigned m = 0, first = 1; m < 8; m++)
		if (st->lmc_mask & (1u << m)) {
			fprintf(fp, "%s%u", first ? "" : ", ", m);
			first = 0;
		}
	fprintf(fp, "], \"nodes_without_lid\": %u},\n", st->nolid_nodes);
}

static void print_json(FILE *fp, const struct info_opts *o, enum ffr_format fmt,
		       const struct topo *t, const struct info_stats *st)
{
	bool first = true;

	fputs("{\n  \"file\": ", fp);
	cli_json_str(fp, o->path);
	fprintf(fp, ",\n  \"format\": \"%s\",\n", ffr_format_name(fmt));
	fprintf(fp, "  \"switches\": %u,\n", t->nswitches);
	fprintf(fp, "  \"cas\": %u,\n  \"hosts\": %u,\n  \"sharp_ans\": %u,\n", t->ncas,
		st->nhosts, st->nans);
	fprintf(fp, "  \"routers\": %u,\n", t->nrouters);
	fprintf(fp, "  \"links\": {\"total\": %u, \"switch_switch\": %u, \"switch_ca\": %u, "
		"\"other\": %u},\n", st->links, st->links_sw_sw, st->links_sw_ca, st->links_other);
	json_hist(fp, "switch_radix", st->radix);
	json_hist(fp, "cabled_switch_ports", st->cabled);
	fputs("  \"link_speeds\": {", fp);
	for (unsigned s = 0; s < TOPO_SPEED_COUNT; s++)
		for (unsigned w = 0; w <= INFO_MAX_WIDTH; w++)
			if (st->ws[w][s]) {
				fputs(first ? "\"" : ", \"", fp);
				print_ws_key(fp, w, s);
				fprintf(fp, "\": %u", st->ws[w][s]);
				first = false;
			}
	fputs("},\n", fp);
	json_lids(fp, st);
	json_oddities(fp, t, st);
	fputs("}\n", fp);
}

/* ---- the command ---------------------------------------------------------- */

static int parse_opts(const struct cli_cmd *cmd, int argc, char **argv, struct info_opts *o)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "topo-format", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	while ((c = getopt_long(argc, argv, ":f:jh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (cli_parse_format(cmd, "--format", optarg, CLI_FMT_TOPO, &o->fmt))
				return CLI_ERROR;
			break;
		case 'j':
			o->json = true;
			break;
		case 'h':
			cli_help(cmd, stdout);
			return -1;
		default:
			return cli_getopt_error(cmd, c, argv);
		}
	}
	if (optind >= argc)
		return cli_usage_error(cmd, "no FILE given");
	if (optind + 1 < argc)
		return cli_usage_error(cmd, "one FILE only (got '%s' too)", argv[optind + 1]);
	o->path = argv[optind];
	return 0;
}

int cmd_info(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct info_opts o;
	struct info_stats st;
	enum ffr_format used;
	struct topo *t;
	int rc = parse_opts(cmd, argc, argv, &o);

	if (rc)
		return rc < 0 ? CLI_OK : rc;
	t = cli_load_topo(o.path, o.fmt, &used);
	if (!t)
		return CLI_ERROR;
	if (collect(t, &st)) {
		fprintf(stderr, "ffroute info: out of memory\n");
		topo_free(t);
		return CLI_ERROR;
	}
	if (o.json)
		print_json(stdout, &o, used, t, &st);
	else
		print_text(stdout, &o, used, t, &st);
	free(st.sl);
	topo_free(t);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "ffroute info: error writing the output\n");
		return CLI_ERROR;
	}
	return CLI_OK;
}
