// SPDX-License-Identifier: BSD-2-Clause
/*
 * cmd_diff.c - "ffroute diff": two routings of one fabric side by side,
 * or of two states of it (before and after a fault or a host reboot: the
 * churn an SM would push).
 *
 * Both routings are loaded and checked with check_run() (the same path
 * as `ffroute check`), then compared:
 *   fabric    nodes are matched by GUID (a node of another type is
 *             refused, as is a pair with no switch in common); nodes and
 *             links in one only are counted.  LIDs may differ.
 *   findings  count per kind, A and B
 *   metrics   every metric, A, B and B-A (union of names, A's order first)
 *   LFTs      per switch in both, every destination in both (each
 *             LID-owning port and each LID of its LMC range) is looked up
 *             by port, not by LID: entry (switch, A's LID of port p + k)
 *             against (switch, B's LID of p + k).  Blocks are compared LID
 *             by LID over the LIDs either fabric assigns: a 64-LID block
 *             differs when an SM must send it to install B.  Entries of
 *             destinations in one only are counted apart.
 * Exit status: 0 identical routing (every destination in both, routed the
 * same: LIDs may differ, and blocks with them), 1 they differ, 2 bad input.
 * Cost: O(switches x (ports + LIDs)) for the LFT comparison, plus two checks.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"

#define LFT_BLOCK 64

const char cmd_diff_help[] =
	"usage: ffroute diff [--json] [--html FILE] [--seed N] [--no-metrics] A B\n"
	"\n"
	"Check two routings of one fabric (for example ffroute's and OpenSM's ftree),\n"
	"or of two states of it (before and after a fault), and print them side by\n"
	"side: the findings of each, every metric (A, B and B-A), and the LFT entries\n"
	"that differ, per switch with the 64-LID LFT blocks that would change to\n"
	"install B.\n"
	"\n"
	"A and B are each a routing source:\n"
	"  DIR        a directory as read by 'ffroute check DIR' (OpenSM dump\n"
	"             directory, ibdiagnet(2) output, a directory of 'ffroute route')\n"
	"  TOPO:LFT   a topology file and a forwarding-table dump (formats detected);\n"
	"             split at the first ':' whose left part is an existing file\n"
	"\n"
	"Switches and destinations are matched by GUID; LIDs may differ.  Entries\n"
	"are compared for the destinations (ports) in both, on the switches in both;\n"
	"blocks LID by LID (what an SM sends).  A and B must share a switch.\n"
	"\n"
	"Options:\n"
	"  -j, --json          print one JSON object {\"a\": ..., \"b\": ..., \"diff\": ...}\n"
	"      --html FILE     also write an HTML page with both routings side by side\n"
	"      --seed N        seed of every sampled metric (default 1)\n"
	"      --no-metrics    findings and LFT differences only\n"
	"  -h, --help          print this help\n"
	"\n"
	"Exit status: 0 identical routing, 1 the routings differ, 2 bad input or\n"
	"usage (also when A and B share no switch).\n";

struct diff_opts {
	bool json, metrics;
	uint64_t seed;
	const char *html;
	const char *arg[2];
	struct check_input in[2];
	char *topo_path[2];	/* left part of TOPO:LFT, owned */
};

/* The LFT differences of one switch. */
struct sw_delta {
	uint64_t entries;	/* differing entries of destinations in both */
	uint64_t compared;	/* entries of destinations in both */
	uint64_t one_side;	/* entries of destinations in A only or B only */
	uint8_t *block;		/* [nblocks] 1 = block would change */
	uint32_t nblocks, nchanged;
};

/* Totals over the switches in both. */
struct lft_total {
	uint64_t compared, differ, one_side, blocks, all_blocks;
	uint32_t switches, sw_differ, sw_blocks;	/* in both; with entries, blocks differing */
};

/* A's nodes and ports in B and back (TOPO_NONE: not there), and what differs. */
struct fabric_map {
	uint32_t *b_of_a, *a_of_b;
	uint32_t *pb_of_pa, *pa_of_pb;	/* ports (topo_port_in), once for every switch */
	uint32_t only_a, only_b;		/* nodes */
	uint32_t links_only_a, links_only_b;	/* links */
};

/* ---- arguments ------------------------------------------------------------ */

static bool is_kind(const char *path, mode_t kind)
{
	struct stat st;

	return !stat(path, &st) && (st.st_mode & S_IFMT) == kind;
}

/* DIR, or TOPO:LFT split at the first ':' whose left part is a file. */
static int parse_source(const struct cli_cmd *cmd, struct diff_opts *o, unsigned i)
{
	const char *arg = o->arg[i];
	struct check_input *in = &o->in[i];

	memset(in, 0, sizeof(*in));
	if (is_kind(arg, S_IFDIR)) {
		in->dir = arg;
		return 0;
	}
	for (const char *c = strchr(arg, ':'); c; c = strchr(c + 1, ':')) {
		char *left = strndup(arg, (size_t)(c - arg));

		if (!left)
			return cli_usage_error(cmd, "out of memory");
		if (c[1] && is_kind(left, S_IFREG)) {
			o->topo_path[i] = left;
			in->topo = left;
			in->lft = c + 1;
			return 0;
		}
		free(left);
	}
	return cli_usage_error(cmd, "%s: not a directory nor TOPO:LFT with an existing "
			       "topology file", arg);
}

static int parse_opts(const struct cli_cmd *cmd, int argc, char **argv, struct diff_opts *o)
{
	enum { OPT_HTML = 256, OPT_SEED, OPT_NO_METRICS };
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "html", required_argument, NULL, OPT_HTML },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "no-metrics", no_argument, NULL, OPT_NO_METRICS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	memset(o, 0, sizeof(*o));
	o->metrics = true;
	o->seed = 1;
	while ((c = getopt_long(argc, argv, ":jh", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			o->json = true;
			break;
		case OPT_HTML:
			o->html = optarg;
			break;
		case OPT_SEED:
			errno = 0;
			o->seed = strtoull(optarg, &end, 0);
			if (errno || end == optarg || *end || optarg[0] == '-')
				return cli_usage_error(cmd, "--seed: '%s' is not a number", optarg);
			break;
		case OPT_NO_METRICS:
			o->metrics = false;
			break;
		case 'h':
			cli_help(cmd, stdout);
			return -1;
		default:
			return cli_getopt_error(cmd, c, argv);
		}
	}
	if (argc - optind != 2)
		return cli_usage_error(cmd, "two routings A and B are needed (got %d)",
				       argc - optind);
	o->arg[0] = argv[optind];
	o->arg[1] = argv[optind + 1];
	for (unsigned i = 0; i < 2; i++) {
		int rc = parse_source(cmd, o, i);

		if (rc)
			return rc;
	}
	return 0;
}

/* ---- comparison ------------------------------------------------------------ */

/* Links of @x that @y lacks (an end not in @y counts); @py_of_px: ports of @x in @y. */
static uint32_t links_missing(const struct topo *x, const struct topo *y, const uint32_t *py_of_px)
{
	uint32_t n = 0;

	for (uint32_t p = 0; p < x->nports; p++) {
		uint32_t q = x->port_remote[p], yp = py_of_px[p], yq;

		if (q == TOPO_NONE || p > q)
			continue;
		yq = py_of_px[q];
		n += yp == TOPO_NONE || yq == TOPO_NONE || y->port_remote[yp] != yq;
	}
	return n;
}

/*
 * A and B as states of one fabric: nodes matched by GUID (both sorted by
 * GUID, one merge).  Nodes of one type only in A or only in B, and links
 * that differ, are counted; a node whose type differs is refused.
 */
static int fabric_map(const struct topo *a, const struct topo *b, struct fabric_map *m,
		      char *why, size_t len)
{
	uint32_t i = 0, j = 0, common_sw = 0;

	memset(m, 0, sizeof(*m));
	m->b_of_a = malloc(((size_t)a->nnodes + 1) * sizeof(uint32_t));
	m->a_of_b = malloc(((size_t)b->nnodes + 1) * sizeof(uint32_t));
	m->pb_of_pa = malloc(((size_t)a->nports + 1) * sizeof(uint32_t));
	m->pa_of_pb = malloc(((size_t)b->nports + 1) * sizeof(uint32_t));
	if (!m->b_of_a || !m->a_of_b || !m->pb_of_pa || !m->pa_of_pb)
		return -ENOMEM;
	for (uint32_t n = 0; n < a->nnodes; n++)
		m->b_of_a[n] = TOPO_NONE;
	for (uint32_t n = 0; n < b->nnodes; n++)
		m->a_of_b[n] = TOPO_NONE;
	while (i < a->nnodes && j < b->nnodes) {
		if (a->node_guid[i] < b->node_guid[j]) {
			i++;
		} else if (a->node_guid[i] > b->node_guid[j]) {
			j++;
		} else if (a->node_type[i] != b->node_type[j]) {
			snprintf(why, len, "node 0x%016" PRIx64 " (\"%s\") is a %s in A and not in B",
				 a->node_guid[i], a->node_desc[i],
				 topo_is_switch(a, i) ? "switch" : "CA or router");
			return -EINVAL;
		} else {
			m->b_of_a[i] = j;
			m->a_of_b[j] = i;
			common_sw += topo_is_switch(a, i);
			i++, j++;
		}
	}
	if (!common_sw) {
		snprintf(why, len, "no switch GUID is in both");
		return -EINVAL;
	}
	for (uint32_t n = 0; n < a->nnodes; n++)
		m->only_a += m->b_of_a[n] == TOPO_NONE;
	for (uint32_t n = 0; n < b->nnodes; n++)
		m->only_b += m->a_of_b[n] == TOPO_NONE;
	for (uint32_t p = 0; p < a->nports; p++)
		m->pb_of_pa[p] = topo_port_in(a, p, b);
	for (uint32_t p = 0; p < b->nports; p++)
		m->pa_of_pb[p] = topo_port_in(b, p, a);
	m->links_only_a = links_missing(a, b, m->pb_of_pa);
	m->links_only_b = links_missing(b, a, m->pa_of_pb);
	return 0;
}

static void fabric_map_free(struct fabric_map *m)
{
	free(m->b_of_a);
	free(m->a_of_b);
	free(m->pb_of_pa);
	free(m->pa_of_pb);
}

/* LIDs owned by port @p: base LID and count (0 when it has none). */
static uint32_t port_lids(const struct topo *t, uint32_t p, uint32_t *base)
{
	uint32_t lid = p == TOPO_NONE ? 0 : t->port_lid[p];

	if (!lid || lid == TOPO_LID_UNASSIGNED || lid > TOPO_MAX_UCAST_LID)
		return 0;
	*base = lid;
	return 1u << (t->port_lmc[p] & 7);
}

/* Does a port of @t own @lid (within its LMC range)? */
static bool lid_assigned(const struct topo *t, uint32_t lid)
{
	return lid <= t->max_lid && t->lid_port[lid] != TOPO_NONE;
}

/*
 * Differences of A's switch ordinal @s (and B's @sb): entries of the
 * destinations in both, looked up by port; destinations in one only;
 * and the 64-LID blocks whose entries differ LID by LID (over the LIDs
 * either assigns), which an SM sends to install B.  Zeroes d first.
 */
static void sw_compare(const struct check_run *a, const struct check_run *b,
		       const struct fabric_map *m, uint32_t s, struct sw_delta *d)
{
	const struct topo *ta = a->t, *tb = b->t;
	uint32_t sb = tb->node_sw[m->b_of_a[ta->sw_node[s]]], top;

	d->entries = d->compared = d->one_side = 0;
	memset(d->block, 0, d->nblocks);
	for (uint32_t p = 0; p < ta->nports; p++) {
		uint32_t ba = 0, bb = 0, na = port_lids(ta, p, &ba);
		uint32_t nb = port_lids(tb, m->pb_of_pa[p], &bb);

		if (na && !nb)
			d->one_side += na;
		for (uint32_t k = 0; k < na && k < nb; k++) {
			d->compared++;
			d->entries += lft_get(a->l, s, ba + k) != lft_get(b->l, sb, bb + k);
		}
	}
	for (uint32_t p = 0; p < tb->nports; p++) {
		uint32_t bb = 0, nb = port_lids(tb, p, &bb), ba = 0;

		if (nb && !port_lids(ta, m->pa_of_pb[p], &ba))
			d->one_side += nb;
	}
	top = ta->max_lid > tb->max_lid ? ta->max_lid : tb->max_lid;
	for (uint32_t lid = 1; lid <= top && lid / LFT_BLOCK < d->nblocks; lid++)
		if ((lid_assigned(ta, lid) || lid_assigned(tb, lid)) &&
		    lft_get(a->l, s, lid) != lft_get(b->l, sb, lid))
			d->block[lid / LFT_BLOCK] = 1;
	d->nchanged = 0;
	for (uint32_t i = 0; i < d->nblocks; i++)
		d->nchanged += d->block[i];
}

static int delta_init(const struct check_run *a, const struct check_run *b, struct sw_delta *d)
{
	uint32_t lids = a->t->max_lid > b->t->max_lid ? a->t->max_lid : b->t->max_lid;

	d->nblocks = (lids + LFT_BLOCK) / LFT_BLOCK;
	d->block = calloc(d->nblocks, 1);
	return d->block ? 0 : -ENOMEM;
}

/* A's switch ordinal @s is in B too. */
static bool in_both(const struct check_run *a, const struct fabric_map *m, uint32_t s)
{
	return m->b_of_a[a->t->sw_node[s]] != TOPO_NONE;
}

/* Totals over the switches in both. */
static void lft_totals(const struct check_run *a, const struct check_run *b,
		       const struct fabric_map *m, struct sw_delta *d, struct lft_total *tot)
{
	memset(tot, 0, sizeof(*tot));
	for (uint32_t s = 0; s < a->t->nswitches; s++) {
		if (!in_both(a, m, s))
			continue;
		sw_compare(a, b, m, s, d);
		tot->compared += d->compared;
		tot->differ += d->entries;
		tot->one_side += d->one_side;
		tot->blocks += d->nchanged;
		tot->all_blocks += d->nblocks;
		tot->switches++;
		tot->sw_differ += d->entries != 0;
		tot->sw_blocks += d->nchanged != 0;
	}
}

/* ---- text output ------------------------------------------------------------ */

/* Block list as ranges: "0-3,7"; @json: "[0, 1, 2, 3, 7]". */
static void print_blocks(FILE *fp, const struct sw_delta *d, bool json)
{
	bool first = true;

	for (uint32_t i = 0; i < d->nblocks; i++) {
		uint32_t j = i;

		if (!d->block[i])
			continue;
		if (json) {
			fprintf(fp, "%s%u", first ? "" : ", ", i);
			first = false;
			continue;
		}
		while (j + 1 < d->nblocks && d->block[j + 1])
			j++;
		fprintf(fp, "%s%u", first ? "" : ",", i);
		if (j > i)
			fprintf(fp, "-%u", j);
		first = false;
		i = j;
	}
}

static void print_num(FILE *fp, double v, bool sign)
{
	if (isnan(v))
		fprintf(fp, " %14s", "-");
	else if (sign && v != 0)
		fprintf(fp, " %+14.6g", v);
	else
		fprintf(fp, " %14.6g", v);
}

static void print_metric_row(FILE *fp, int w, const char *name, double va, double vb)
{
	fprintf(fp, "  %-*s", w, name);
	print_num(fp, va, false);
	print_num(fp, vb, false);
	print_num(fp, vb - va, true);
	fputc('\n', fp);
}

static void print_metrics(FILE *fp, const struct check_run *a, const struct check_run *b)
{
	const struct chk_report *r[2] = { &a->r, &b->r };
	int w = 28;

	if (!a->r.nm && !b->r.nm)
		return;
	for (unsigned i = 0; i < 2; i++)
		for (uint32_t k = 0; k < r[i]->nm; k++)
			if ((int)strlen(r[i]->m[k].name) > w)
				w = (int)strlen(r[i]->m[k].name);
	fprintf(fp, "\n%-*s %14s %14s %14s\n", w + 2, "metric", "A", "B", "B-A");
	for (unsigned i = 0; i < 2; i++)
		for (uint32_t k = 0; k < r[i]->nm; k++) {
			const char *name = r[i]->m[k].name;

			if (i == 1 && !isnan(chk_metric_get(r[0], name)))
				continue;
			print_metric_row(fp, w, name, chk_metric_get(r[0], name),
					 chk_metric_get(r[1], name));
		}
}

/* "fabric:" lines: what A and B share and how B's fabric differs. */
static void print_fabric(FILE *fp, const struct check_run *run, const struct fabric_map *m)
{
	const struct topo *a = run[0].t;

	fprintf(fp, "fabric: %u switches, %u CAs, %u links", a->nswitches, a->ncas, a->nlinks);
	if (!m->only_a && !m->only_b && !m->links_only_a && !m->links_only_b) {
		fprintf(fp, " (the same in A and B)\n");
		return;
	}
	fprintf(fp, " in A; B has %u switches, %u CAs, %u links\n", run[1].t->nswitches,
		run[1].t->ncas, run[1].t->nlinks);
	fprintf(fp, "  nodes only in A: %u, only in B: %u; links only in A: %u, only in B: %u\n",
		m->only_a, m->only_b, m->links_only_a, m->links_only_b);
}

static void print_text(FILE *fp, const struct diff_opts *o, const struct check_run *run,
		       const struct fabric_map *m, struct sw_delta *d)
{
	const struct check_run *a = &run[0], *b = &run[1];
	struct lft_total tot;

	for (unsigned i = 0; i < 2; i++)
		fprintf(fp, "%c: %s%s%s%s\n", 'A' + i, o->arg[i], run[i].label[0] ? " (" : "",
			run[i].label, run[i].label[0] ? ")" : "");
	print_fabric(fp, run, m);
	fprintf(fp, "\n%-30s %14s %14s\n", "findings", "A", "B");
	for (unsigned k = 0; k < CHK_F_COUNT; k++)
		fprintf(fp, "  %-28s %14" PRIu64 " %14" PRIu64 "%s\n",
			chk_finding_name((enum chk_finding_kind)k), a->r.f[k].count,
			b->r.f[k].count, a->r.f[k].hard || b->r.f[k].hard ? "  (hard)" : "");
	fprintf(fp, "  %-28s %14" PRIu64 " %14" PRIu64 "\n", "hard findings total",
		chk_hard_findings(&a->r), chk_hard_findings(&b->r));
	print_metrics(fp, a, b);
	lft_totals(a, b, m, d, &tot);
	fprintf(fp, "\nLFT entries that differ: %" PRIu64 " of %" PRIu64 " on %u of %u switches\n",
		tot.differ, tot.compared, tot.sw_differ, tot.switches);
	fprintf(fp, "LFT blocks that differ: %" PRIu64 " of %" PRIu64 " on %u switches\n",
		tot.blocks, tot.all_blocks, tot.sw_blocks);
	if (tot.one_side)
		fprintf(fp, "entries of destinations in A only or B only: %" PRIu64 "\n",
			tot.one_side);
	for (uint32_t s = 0; s < a->t->nswitches; s++) {
		uint32_t n = a->t->sw_node[s];

		if (!in_both(a, m, s))
			continue;
		sw_compare(a, b, m, s, d);
		if (!d->entries && !d->nchanged)
			continue;
		fprintf(fp, "  0x%016" PRIx64 " \"%s\": %" PRIu64 " entr%s, blocks ",
			a->t->node_guid[n], a->t->node_desc[n], d->entries,
			d->entries == 1 ? "y" : "ies");
		print_blocks(fp, d, false);
		fputc('\n', fp);
	}
}

/* ---- JSON output ------------------------------------------------------------ */

static void json_num(FILE *fp, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", fp);
	else
		fprintf(fp, "%.17g", v);
}

/* report_json() of one routing, without its final newline. */
static int json_run(FILE *fp, const struct check_run *run)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int rc;

	if (!mem)
		return -ENOMEM;
	rc = report_json(run, mem);
	if (fclose(mem) && !rc)
		rc = -ENOMEM;
	while (!rc && len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	if (!rc)
		fwrite(buf, 1, len, fp);
	free(buf);
	return rc;
}

static void json_metrics(FILE *fp, const struct check_run *a, const struct check_run *b)
{
	const struct chk_report *r[2] = { &a->r, &b->r };
	bool first = true;

	fputs("    \"metrics\": {", fp);
	for (unsigned i = 0; i < 2; i++)
		for (uint32_t k = 0; k < r[i]->nm; k++) {
			const char *name = r[i]->m[k].name;
			double va = chk_metric_get(r[0], name), vb = chk_metric_get(r[1], name);

			if (i == 1 && !isnan(va))
				continue;
			fputs(first ? "\n      " : ",\n      ", fp);
			first = false;
			cli_json_str(fp, name);
			fputs(": {\"a\": ", fp);
			json_num(fp, va);
			fputs(", \"b\": ", fp);
			json_num(fp, vb);
			fputs(", \"delta\": ", fp);
			json_num(fp, vb - va);
			fputc('}', fp);
		}
	fputs(first ? "},\n" : "\n    },\n", fp);
}

static void json_switches(FILE *fp, const struct check_run *a, const struct check_run *b,
			  const struct fabric_map *m, struct sw_delta *d)
{
	bool first = true;

	fputs("    \"switches\": [", fp);
	for (uint32_t s = 0; s < a->t->nswitches; s++) {
		uint32_t n = a->t->sw_node[s];

		if (!in_both(a, m, s))
			continue;
		sw_compare(a, b, m, s, d);
		if (!d->entries && !d->nchanged)
			continue;
		fprintf(fp, "%s\n      {\"guid\": \"0x%016" PRIx64 "\", \"desc\": ",
			first ? "" : ",", a->t->node_guid[n]);
		cli_json_str(fp, a->t->node_desc[n]);
		fprintf(fp, ", \"entries\": %" PRIu64 ", \"blocks\": [", d->entries);
		print_blocks(fp, d, true);
		fputs("]}", fp);
		first = false;
	}
	fputs(first ? "]\n" : "\n    ]\n", fp);
}

static int print_json(FILE *fp, const struct check_run *run, const struct fabric_map *m,
		      struct sw_delta *d)
{
	const struct check_run *a = &run[0], *b = &run[1];
	struct lft_total tot;
	int rc;

	fputs("{\n\"a\": ", fp);
	rc = json_run(fp, a);
	fputs(",\n\"b\": ", fp);
	rc = rc ? rc : json_run(fp, b);
	if (rc)
		return rc;
	lft_totals(a, b, m, d, &tot);
	fprintf(fp, ",\n\"diff\": {\n    \"identical\": %s,\n    \"same_fabric\": %s,\n",
		tot.differ || tot.one_side ? "false" : "true",
		m->only_a || m->only_b || m->links_only_a || m->links_only_b ? "false" : "true");
	fprintf(fp, "    \"nodes_only_a\": %u,\n    \"nodes_only_b\": %u,\n    \"links_only_a\": "
		"%u,\n    \"links_only_b\": %u,\n", m->only_a, m->only_b, m->links_only_a,
		m->links_only_b);
	fprintf(fp, "    \"lft_entries_compared\": %" PRIu64 ",\n    \"lft_entries_differ\": %"
		PRIu64 ",\n    \"lft_entries_one_side\": %" PRIu64 ",\n    \"lft_blocks\": %" PRIu64
		",\n    \"lft_blocks_differ\": %" PRIu64 ",\n    \"switches_compared\": %u,\n"
		"    \"switches_differ\": %u,\n    \"switches_blocks_differ\": %u,\n", tot.compared,
		tot.differ, tot.one_side, tot.all_blocks, tot.blocks, tot.switches, tot.sw_differ,
		tot.sw_blocks);
	fputs("    \"findings\": {", fp);
	for (unsigned k = 0; k < CHK_F_COUNT; k++)
		fprintf(fp, "%s\n      \"%s\": {\"a\": %" PRIu64 ", \"b\": %" PRIu64 "}",
			k ? "," : "", chk_finding_name((enum chk_finding_kind)k),
			a->r.f[k].count, b->r.f[k].count);
	fprintf(fp, "\n    },\n    \"hard_findings\": {\"a\": %" PRIu64 ", \"b\": %" PRIu64 "},\n",
		chk_hard_findings(&a->r), chk_hard_findings(&b->r));
	json_metrics(fp, a, b);
	json_switches(fp, a, b, m, d);
	fputs("}\n}\n", fp);
	return 0;
}

/* ---- HTML -------------------------------------------------------------------- */

/* Write the page; a failure never leaves a partial FILE. */
static int write_html(const struct diff_opts *o, const struct check_run *run)
{
	struct report_input in[2];
	struct cli_out of;
	int rc = cli_out_open(&of, o->html);

	if (rc)
		return rc;
	for (unsigned i = 0; i < 2; i++)
		in[i] = (struct report_input){ o->arg[i], run[i].t, run[i].l, &run[i].c,
					       &run[i].r };
	rc = report_html(in, 2, of.fp);
	return cli_out_close(&of, rc == 0) ?: rc;
}

/* ---- the command -------------------------------------------------------------- */

static int load_both(const struct diff_opts *o, struct check_run *run, struct fabric_map *m)
{
	struct chk_opts co;
	char why[800] = "out of memory";

	chk_opts_init(&co);
	co.seed = o->seed;
	co.metrics = o->metrics;
	for (unsigned i = 0; i < 2; i++) {
		struct diag_list dl;
		int rc;

		diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
		rc = check_run(&o->in[i], &co, &run[i], &dl);
		diag_print(&dl, stderr);
		diag_free(&dl);
		if (rc) {
			fprintf(stderr, "ffroute diff: %s: cannot check this routing: %s\n",
				o->arg[i], strerror(-rc));
			return CLI_ERROR;
		}
	}
	if (fabric_map(run[0].t, run[1].t, m, why, sizeof(why))) {
		fprintf(stderr, "ffroute diff: A and B are not states of one fabric: %s\n", why);
		return CLI_ERROR;
	}
	return CLI_OK;
}

int cmd_diff(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct check_run run[2];
	struct diff_opts o;
	struct sw_delta d = { 0 };
	struct fabric_map m = { 0 };
	struct lft_total tot;
	int rc = parse_opts(cmd, argc, argv, &o), err = 0;

	memset(run, 0, sizeof(run));
	if (rc) {
		rc = rc < 0 ? CLI_OK : rc;
		goto out;
	}
	rc = load_both(&o, run, &m);
	if (rc)
		goto out;
	if (delta_init(&run[0], &run[1], &d)) {
		err = -ENOMEM;
		goto out;
	}
	if (o.json)
		err = print_json(stdout, run, &m, &d);
	else
		print_text(stdout, &o, run, &m, &d);
	if (!err && o.html && (err = write_html(&o, run)) != 0)
		fprintf(stderr, "ffroute diff: %s: %s\n", o.html, strerror(-err));
	lft_totals(&run[0], &run[1], &m, &d, &tot);
	rc = tot.differ || tot.one_side ? CLI_FINDINGS : CLI_OK;
out:
	if (err)
		rc = CLI_ERROR;
	if (!err && (fflush(stdout) || ferror(stdout))) {
		fprintf(stderr, "ffroute diff: error writing the output\n");
		rc = CLI_ERROR;
	}
	free(d.block);
	fabric_map_free(&m);
	for (unsigned i = 0; i < 2; i++) {
		check_run_free(&run[i]);
		free(o.topo_path[i]);
	}
	return rc;
}
