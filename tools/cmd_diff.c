// SPDX-License-Identifier: BSD-2-Clause
/*
 * cmd_diff.c - "ffroute diff": two routings of one fabric side by side.
 *
 * Both routings are loaded and checked with check_run() (the same path
 * as `ffroute check`), then compared:
 *   fabric    the two topologies must be the same fabric: same nodes
 *             (GUID, type, NumPorts) and the same links.  LIDs may differ
 *             between sweeps, so they are not compared.  As nodes are
 *             sorted by GUID, equal fabrics have equal node and port
 *             indices, and the comparison is one pass over each array.
 *   findings  count per kind, A and B
 *   metrics   every metric, A, B and B-A (union of names, A's order first)
 *   LFTs      per switch, every destination (each LID-owning port and each
 *             LID of its LMC range) is looked up by port, not by LID: entry
 *             (switch, A's LID of port p + k) against (switch, B's LID of
 *             p + k).  A differing entry marks the 64-LID LFT block of B's
 *             LID (the block an SM would push to install B).
 * Exit status: 0 identical routing, 1 they differ, 2 bad input.
 * Cost: O(switches x destinations) for the LFT comparison, plus two checks.
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
	"Check two routings of one fabric (for example ffroute's and OpenSM's ftree)\n"
	"and print them side by side: the findings of each, every metric (A, B and\n"
	"B-A), and the LFT entries that differ, per switch with the 64-LID LFT blocks\n"
	"that would change to install B.\n"
	"\n"
	"A and B are each a routing source:\n"
	"  DIR        a directory as read by 'ffroute check DIR' (OpenSM dump\n"
	"             directory, ibdiagnet(2) output, a directory of 'ffroute route')\n"
	"  TOPO:LFT   a topology file and a forwarding-table dump (formats detected);\n"
	"             split at the first ':' whose left part is an existing file\n"
	"\n"
	"A and B must be the same fabric: the same nodes (GUID, type, ports) and\n"
	"links.  LIDs may differ: entries are compared by destination port.\n"
	"\n"
	"Options:\n"
	"  -j, --json          print one JSON object {\"a\": ..., \"b\": ..., \"diff\": ...}\n"
	"      --html FILE     also write an HTML page with both routings side by side\n"
	"      --seed N        seed of every sampled metric (default 1)\n"
	"      --no-metrics    findings and LFT differences only\n"
	"  -h, --help          print this help\n"
	"\n"
	"Exit status: 0 identical routing, 1 the routings differ, 2 bad input or\n"
	"usage (also when A and B are not the same fabric).\n";

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
	uint64_t entries;	/* differing entries */
	uint8_t *block;		/* [nblocks] 1 = block would change */
	uint32_t nblocks;
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

static void port_name(const struct topo *t, uint32_t p, char *buf, size_t len)
{
	if (p == TOPO_NONE)
		snprintf(buf, len, "nothing");
	else
		snprintf(buf, len, "\"%s\" (0x%016" PRIx64 ") port %u",
			 t->node_desc[t->port_node[p]], t->node_guid[t->port_node[p]],
			 topo_port_num(t, p));
}

/* Same nodes (GUID, type, NumPorts) and links; LIDs are not compared. */
static bool same_fabric(const struct topo *a, const struct topo *b, char *why, size_t len)
{
	char pa[320], pb[320];

	if (a->nnodes != b->nnodes) {
		snprintf(why, len, "A has %u nodes, B has %u", a->nnodes, b->nnodes);
		return false;
	}
	for (uint32_t n = 0; n < a->nnodes; n++)
		if (a->node_guid[n] != b->node_guid[n] || a->node_type[n] != b->node_type[n] ||
		    a->node_nports[n] != b->node_nports[n]) {
			snprintf(why, len, "node 0x%016" PRIx64 " (\"%s\") in A is not in B, or "
				 "differs in type or port count", a->node_guid[n], a->node_desc[n]);
			return false;
		}
	for (uint32_t p = 0; p < a->nports; p++)
		if (a->port_remote[p] != b->port_remote[p]) {
			port_name(a, p, pa, sizeof(pa));
			port_name(a, a->port_remote[p], pb, sizeof(pb));
			snprintf(why, len, "%s is linked to %s in A but not in B", pa, pb);
			if (a->port_remote[p] == TOPO_NONE) {
				port_name(b, b->port_remote[p], pb, sizeof(pb));
				snprintf(why, len, "%s is linked to %s in B but not in A", pa, pb);
			}
			return false;
		}
	return true;
}

/* LIDs owned by port @p: base LID and count (0 when it has none). */
static uint32_t port_lids(const struct topo *t, uint32_t p, uint32_t *base)
{
	uint32_t lid = t->port_lid[p];

	if (!lid || lid == TOPO_LID_UNASSIGNED || lid > TOPO_MAX_UCAST_LID)
		return 0;
	*base = lid;
	return 1u << (t->port_lmc[p] & 7);
}

/* Differences of switch ordinal @s; marks d->block[] (zeroed here). */
static void sw_compare(const struct check_run *a, const struct check_run *b, uint32_t s,
		       struct sw_delta *d, uint64_t *compared)
{
	const struct topo *t = a->t;

	d->entries = 0;
	memset(d->block, 0, d->nblocks);
	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t ba = 0, bb = 0, na = port_lids(a->t, p, &ba), nb = port_lids(b->t, p, &bb);

		for (uint32_t k = 0; k < na || k < nb; k++) {
			uint8_t ea = k < na ? lft_get(a->l, s, ba + k) : LFT_NONE;
			uint8_t eb = k < nb ? lft_get(b->l, s, bb + k) : LFT_NONE;
			uint32_t lid = k < nb ? bb + k : ba + k;

			(*compared)++;
			if (ea == eb)
				continue;
			d->entries++;
			if (lid / LFT_BLOCK < d->nblocks)
				d->block[lid / LFT_BLOCK] = 1;
		}
	}
}

static int delta_init(const struct check_run *a, const struct check_run *b, struct sw_delta *d)
{
	uint32_t lids = a->t->max_lid > b->t->max_lid ? a->t->max_lid : b->t->max_lid;

	/* the top of an LMC range may pass max_lid: size for the largest LMC */
	d->nblocks = (lids + 128 + LFT_BLOCK) / LFT_BLOCK;
	d->block = calloc(d->nblocks, 1);
	return d->block ? 0 : -ENOMEM;
}

/* Totals over every switch: entries compared/differing, switches differing. */
static void lft_totals(const struct check_run *a, const struct check_run *b, struct sw_delta *d,
		       uint64_t *compared, uint64_t *differ, uint32_t *nsw)
{
	*compared = *differ = 0;
	*nsw = 0;
	for (uint32_t s = 0; s < a->t->nswitches; s++) {
		sw_compare(a, b, s, d, compared);
		*differ += d->entries;
		*nsw += d->entries != 0;
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

static void print_text(FILE *fp, const struct diff_opts *o, const struct check_run *run,
		       struct sw_delta *d)
{
	const struct check_run *a = &run[0], *b = &run[1];
	uint64_t compared, differ, unused = 0;
	uint32_t nsw;

	for (unsigned i = 0; i < 2; i++)
		fprintf(fp, "%c: %s%s%s%s\n", 'A' + i, o->arg[i], run[i].label[0] ? " (" : "",
			run[i].label, run[i].label[0] ? ")" : "");
	fprintf(fp, "fabric: %u switches, %u CAs, %u links (the same in A and B)\n",
		a->t->nswitches, a->t->ncas, a->t->nlinks);
	fprintf(fp, "\n%-30s %14s %14s\n", "findings", "A", "B");
	for (unsigned k = 0; k < CHK_F_COUNT; k++)
		fprintf(fp, "  %-28s %14" PRIu64 " %14" PRIu64 "%s\n",
			chk_finding_name((enum chk_finding_kind)k), a->r.f[k].count,
			b->r.f[k].count, a->r.f[k].hard || b->r.f[k].hard ? "  (hard)" : "");
	fprintf(fp, "  %-28s %14" PRIu64 " %14" PRIu64 "\n", "hard findings total",
		chk_hard_findings(&a->r), chk_hard_findings(&b->r));
	print_metrics(fp, a, b);
	lft_totals(a, b, d, &compared, &differ, &nsw);
	fprintf(fp, "\nLFT entries that differ: %" PRIu64 " of %" PRIu64 " on %u of %u switches\n",
		differ, compared, nsw, a->t->nswitches);
	for (uint32_t s = 0; s < a->t->nswitches; s++) {
		uint32_t n = a->t->sw_node[s];

		sw_compare(a, b, s, d, &unused);
		if (!d->entries)
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
			  struct sw_delta *d)
{
	uint64_t unused = 0;
	bool first = true;

	fputs("    \"switches\": [", fp);
	for (uint32_t s = 0; s < a->t->nswitches; s++) {
		uint32_t n = a->t->sw_node[s];

		sw_compare(a, b, s, d, &unused);
		if (!d->entries)
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

static int print_json(FILE *fp, const struct check_run *run, struct sw_delta *d)
{
	const struct check_run *a = &run[0], *b = &run[1];
	uint64_t compared, differ;
	uint32_t nsw;
	int rc;

	fputs("{\n\"a\": ", fp);
	rc = json_run(fp, a);
	fputs(",\n\"b\": ", fp);
	rc = rc ? rc : json_run(fp, b);
	if (rc)
		return rc;
	lft_totals(a, b, d, &compared, &differ, &nsw);
	fprintf(fp, ",\n\"diff\": {\n    \"identical\": %s,\n    \"lft_entries_compared\": %"
		PRIu64 ",\n    \"lft_entries_differ\": %" PRIu64 ",\n    \"switches_differ\": %u,\n",
		differ ? "false" : "true", compared, differ, nsw);
	fputs("    \"findings\": {", fp);
	for (unsigned k = 0; k < CHK_F_COUNT; k++)
		fprintf(fp, "%s\n      \"%s\": {\"a\": %" PRIu64 ", \"b\": %" PRIu64 "}",
			k ? "," : "", chk_finding_name((enum chk_finding_kind)k),
			a->r.f[k].count, b->r.f[k].count);
	fprintf(fp, "\n    },\n    \"hard_findings\": {\"a\": %" PRIu64 ", \"b\": %" PRIu64 "},\n",
		chk_hard_findings(&a->r), chk_hard_findings(&b->r));
	json_metrics(fp, a, b);
	json_switches(fp, a, b, d);
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

static int load_both(const struct diff_opts *o, struct check_run *run)
{
	struct chk_opts co;
	char why[800];

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
	if (!same_fabric(run[0].t, run[1].t, why, sizeof(why))) {
		fprintf(stderr, "ffroute diff: A and B are not the same fabric: %s\n", why);
		return CLI_ERROR;
	}
	return CLI_OK;
}

int cmd_diff(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct check_run run[2];
	struct diff_opts o;
	struct sw_delta d = { 0 };
	uint64_t compared, differ;
	uint32_t nsw;
	int rc = parse_opts(cmd, argc, argv, &o), err = 0;

	memset(run, 0, sizeof(run));
	if (rc) {
		rc = rc < 0 ? CLI_OK : rc;
		goto out;
	}
	rc = load_both(&o, run);
	if (rc)
		goto out;
	if (delta_init(&run[0], &run[1], &d)) {
		err = -ENOMEM;
		goto out;
	}
	if (o.json)
		err = print_json(stdout, run, &d);
	else
		print_text(stdout, &o, run, &d);
	if (!err && o.html && (err = write_html(&o, run)) != 0)
		fprintf(stderr, "ffroute diff: %s: %s\n", o.html, strerror(-err));
	lft_totals(&run[0], &run[1], &d, &compared, &differ, &nsw);
	rc = differ ? CLI_FINDINGS : CLI_OK;
out:
	if (err)
		rc = CLI_ERROR;
	if (!err && (fflush(stdout) || ferror(stdout))) {
		fprintf(stderr, "ffroute diff: error writing the output\n");
		rc = CLI_ERROR;
	}
	free(d.block);
	for (unsigned i = 0; i < 2; i++) {
		check_run_free(&run[i]);
		free(o.topo_path[i]);
	}
	return rc;
}
