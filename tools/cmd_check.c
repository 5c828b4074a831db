// SPDX-License-Identifier: BSD-2-Clause
/*
 * cmd_check.c - "ffroute check": validate the routing a fabric holds.
 *
 * Reads one routing (a dump directory, explicit topology + LFT files, or
 * the live fabric over MADs) through check_run(), prints the report as text
 * or one JSON object, optionally writes the HTML page, and exits 0 when no
 * hard finding exists, 1 when one does, 2 on bad input or usage.  The
 * findings and metrics themselves are in routing/chk_*.c; input discovery
 * and the report formats in check_run.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"

const char cmd_check_help[] =
	"usage: ffroute check [DIR] [--topo F [--topo-format FMT]] [--lft F [--lft-format FMT]]\n"
	"                     [--db-csv F] [--sl2vl F] [--sl F] [--roles F] [--job F]\n"
	"                     [--live [--live-vl] [--ca NAME] [--port N]]\n"
	"                     [--no-metrics] [--seed N] [--bisections N] [--threads N]\n"
	"                     [--json] [--html FILE] [--link-loads FILE]\n"
	"\n"
	"Check the unicast routing of a fabric: every (switch, LID) route is followed\n"
	"(LMC and switch LIDs included) for unreachable destinations, loops, black holes,\n"
	"broken switch-LID routes and non-minimal paths; the channel dependency graph for\n"
	"credit loops per VL; rail isolation and zone rules; then balance and traffic\n"
	"metrics.  DIR holds opensm-subnet.lst + opensm-lfts.dump (+ opensm-sl2vl.dump),\n"
	"ibdiagnet2.lst + ibdiagnet2.fdbs (+ ibdiagnet2.db_csv for the link speeds the\n"
	".lst lacks; if it cannot be read, a warning and the .lst speeds),\n"
	"ibdiagnet.lst + ibdiagnet.fdbs, or exactly one topology (*.lst, *.topo, *.net)\n"
	"and one table file (*.dump, *.lfts, *.fdbs).\n"
	"\n"
	"Options:\n"
	"  -t, --topo F          topology file (overrides DIR's)\n"
	"      --topo-format FMT ibnetdiscover, ibnetdiscover-ports, net, lst (default: detect)\n"
	"  -l, --lft F           forwarding tables (overrides DIR's)\n"
	"      --lft-format FMT  opensm-lfts, fdbs, ibroute (default: detect)\n"
	"      --db-csv F        ibdiagnet2.db_csv: active link widths and speeds (PORTS,\n"
	"                        EXTENDED_PORT_INFO); errors in it are errors\n"
	"      --sl2vl F         OpenSM opensm-sl2vl.dump: judge credit loops per VL\n"
	"      --sl F            ffroute.sl (written by ffroute route): the SL of every\n"
	"                        path; found in DIR too\n"
	"      --roles F         role overrides: \"GUID ROLE [zone=Z] [rail=R]\" lines\n"
	"      --job F           hosts of one job (host names or 0x GUIDs, one per line)\n"
	"      --live            read topology and LFTs from the fabric with SMPs\n"
	"      --live-vl         --live: the switches' SL2VL (every cabled port pair) and VL\n"
	"                        arbitration tables too; credit loops judged per VL with\n"
	"                        them (give the SLs with --sl)\n"
	"      --ca NAME         --live: local HCA (default: first)\n"
	"      --port N          --live: local port (default: first active)\n"
	"      --no-metrics      findings only\n"
	"      --seed N          seed of every sampled metric (default 1)\n"
	"      --bisections N    random bisections behind ebb (default: 3.2 million flows'\n"
	"                        worth, 32 to 4096; ebb_stderr is its sampling error)\n"
	"      --threads N       1 or 2 threads (default: 2 when 2 CPUs are online);\n"
	"                        the report is the same either way\n"
	"  -j, --json            print one JSON object instead of text\n"
	"      --html FILE       also write a self-contained HTML report\n"
	"      --link-loads FILE also write the routes on every switch-to-switch channel\n"
	"  -h, --help            print this help\n"
	"\n"
	"Exit status: 0 no hard finding, 1 hard findings, 2 bad input or usage.\n";

enum {
	OPT_TOPO_FMT = 256, OPT_LFT_FMT, OPT_SL2VL, OPT_ROLES, OPT_JOB, OPT_LIVE, OPT_CA,
	OPT_PORT, OPT_NO_METRICS, OPT_SEED, OPT_HTML, OPT_DB_CSV, OPT_SL, OPT_LINK_LOADS,
	OPT_THREADS, OPT_BISECTIONS, OPT_LIVE_VL,
};

struct check_opts {
	struct check_input in;
	struct chk_opts co;
	bool json, topo_fmt_set, lft_fmt_set;
	const char *html, *link_loads;
};

/* @opt's @arg as a number in @min..@max, or a usage error naming the range */
static int parse_uint(const struct cli_cmd *cmd, const char *opt, const char *arg,
		      unsigned long long min, unsigned long long max, unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(arg, &end, 0);
	if (!*arg || *end || errno || *out < min || *out > max || arg[0] == '-')
		return cli_usage_error(cmd, "%s: '%s' is not a number in %llu..%llu", opt, arg,
				       min, max);
	return 0;
}

static int parse_one(const struct cli_cmd *cmd, int c, struct check_opts *o)
{
	unsigned long long v;

	switch (c) {
	case 't': o->in.topo = optarg; return 0;
	case 'l': o->in.lft = optarg; return 0;
	case OPT_TOPO_FMT:
		o->topo_fmt_set = true;
		return cli_parse_format(cmd, "--topo-format", optarg, CLI_FMT_TOPO,
					&o->in.topo_fmt);
	case OPT_LFT_FMT:
		o->lft_fmt_set = true;
		return cli_parse_format(cmd, "--lft-format", optarg, CLI_FMT_LFT, &o->in.lft_fmt);
	case OPT_SL2VL: o->in.sl2vl = optarg; return 0;
	case OPT_SL: o->in.sl = optarg; return 0;
	case OPT_DB_CSV: o->in.db_csv = optarg; return 0;
	case OPT_ROLES: o->in.roles = optarg; return 0;
	case OPT_JOB: o->in.job = optarg; return 0;
	case OPT_LIVE: o->in.live = true; return 0;
	case OPT_LIVE_VL: o->in.live_vl = true; return 0;
	case OPT_CA: o->in.ca = optarg; return 0;
	case OPT_PORT:
		if (parse_uint(cmd, "--port", optarg, 1, TOPO_MAX_PORTS, &v))
			return CLI_ERROR;
		o->in.port = (int)v;
		return 0;
	case OPT_NO_METRICS: o->co.metrics = false; return 0;
	case OPT_SEED:
		if (parse_uint(cmd, "--seed", optarg, 0, UINT64_MAX, &v))
			return CLI_ERROR;
		o->co.seed = v;
		return 0;
	case OPT_BISECTIONS:
		if (parse_uint(cmd, "--bisections", optarg, 1, 1000000, &v))
			return CLI_ERROR;
		o->co.bisections = (unsigned)v;
		return 0;
	case OPT_THREADS:
		if (parse_uint(cmd, "--threads", optarg, 1, 2, &v))
			return CLI_ERROR;
		o->co.threads = (unsigned)v;
		return 0;
	case 'j': o->json = true; return 0;
	case OPT_HTML: o->html = optarg; return 0;
	case OPT_LINK_LOADS: o->link_loads = optarg; return 0;
	default:
		return -2;
	}
}

/* The combinations that make no sense. */
static int check_combos(const struct cli_cmd *cmd, const struct check_opts *o)
{
	const struct check_input *in = &o->in;

	if (in->live && (in->dir || in->topo || in->lft))
		return cli_usage_error(cmd, "--live reads the fabric itself: no DIR, --topo or --lft");
	if (in->live && in->db_csv)
		return cli_usage_error(cmd, "--db-csv goes with a DIR or --topo, not --live");
	if (!in->live && (in->ca || in->port || in->live_vl))
		return cli_usage_error(cmd, "--ca, --port and --live-vl go with --live");
	if (in->live_vl && in->sl2vl)
		return cli_usage_error(cmd, "--live-vl reads the SL2VL tables: no --sl2vl");
	if (o->topo_fmt_set && !in->topo)
		return cli_usage_error(cmd, "--topo-format needs --topo");
	if (o->lft_fmt_set && !in->lft)
		return cli_usage_error(cmd, "--lft-format needs --lft");
	if (!in->live && !in->dir && (!in->topo || !in->lft))
		return cli_usage_error(cmd, "give a DIR, --topo with --lft, or --live");
	return 0;
}

static int parse_opts(const struct cli_cmd *cmd, int argc, char **argv, struct check_opts *o)
{
	static const struct option longopts[] = {
		{ "topo", required_argument, NULL, 't' },
		{ "topo-format", required_argument, NULL, OPT_TOPO_FMT },
		{ "lft", required_argument, NULL, 'l' },
		{ "lft-format", required_argument, NULL, OPT_LFT_FMT },
		{ "sl2vl", required_argument, NULL, OPT_SL2VL },
		{ "sl", required_argument, NULL, OPT_SL },
		{ "db-csv", required_argument, NULL, OPT_DB_CSV },
		{ "roles", required_argument, NULL, OPT_ROLES },
		{ "job", required_argument, NULL, OPT_JOB },
		{ "live", no_argument, NULL, OPT_LIVE },
		{ "live-vl", no_argument, NULL, OPT_LIVE_VL },
		{ "ca", required_argument, NULL, OPT_CA },
		{ "port", required_argument, NULL, OPT_PORT },
		{ "no-metrics", no_argument, NULL, OPT_NO_METRICS },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "bisections", required_argument, NULL, OPT_BISECTIONS },
		{ "threads", required_argument, NULL, OPT_THREADS },
		{ "json", no_argument, NULL, 'j' },
		{ "html", required_argument, NULL, OPT_HTML },
		{ "link-loads", required_argument, NULL, OPT_LINK_LOADS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	chk_opts_init(&o->co);
	while ((c = getopt_long(argc, argv, ":t:l:jh", longopts, NULL)) != -1) {
		int rc;

		if (c == 'h') {
			cli_help(cmd, stdout);
			return -1;
		}
		rc = parse_one(cmd, c, o);
		if (rc == -2)
			return cli_getopt_error(cmd, c, argv);
		if (rc)
			return CLI_ERROR;
	}
	if (optind < argc)
		o->in.dir = argv[optind++];
	if (optind < argc)
		return cli_usage_error(cmd, "one DIR only (got '%s' too)", argv[optind]);
	return check_combos(cmd, o);
}

/* Write the HTML page; a failure never leaves a partial FILE. */
static int write_html(const char *path, const struct check_run *run)
{
	struct report_input in = { run->label, run->t, run->l, &run->c, &run->r };
	struct cli_out of;
	int rc = cli_out_open(&of, path);

	if (rc)
		return rc;
	rc = report_html(&in, 1, of.fp);
	return cli_out_close(&of, rc == 0) ?: rc;
}

/*
 * Write the route count of every switch-to-switch channel, one line each in
 * port order: what a plot of the load distribution (bench/run) or an operator
 * looking for the hottest cable needs.  A failure never leaves a partial FILE.
 */
static int write_link_loads(const char *path, const struct check_run *run)
{
	const struct topo *t = run->t;
	const struct chk_report *r = &run->r;
	struct cli_out of;
	int rc = cli_out_open(&of, path);

	if (rc)
		return rc;
	fprintf(of.fp, "# from_guid\tfrom_port\tto_guid\tto_port\troutes\tcompute\tstorage\tother\ta2a_flows\n");
	for (uint32_t p = 0; r->routes_counted && p < t->nports; p++) {
		uint32_t q = t->port_remote[p], n = t->port_node[p];

		if (!topo_is_sw_link(t, p))
			continue;
		fprintf(of.fp, "0x%016" PRIx64 "\t%u\t0x%016" PRIx64 "\t%u\t%u\t%u\t%u\t%u\t%u\n",
			t->node_guid[n], topo_port_num(t, p), t->node_guid[t->port_node[q]],
			topo_port_num(t, q), r->ch_routes[p],
			r->ch_routes_tc[CLS_TC_COMPUTE][p], r->ch_routes_tc[CLS_TC_STORAGE][p],
			r->ch_routes_tc[CLS_TC_OTHER][p], r->ch_load ? r->ch_load[p] : 0);
	}
	return cli_out_close(&of, true);
}

int cmd_check(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct check_opts o;
	struct check_run run;
	struct diag_list dl;
	int rc = parse_opts(cmd, argc, argv, &o), err;

	if (rc)
		return rc < 0 ? CLI_OK : rc;
	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	err = check_run(&o.in, &o.co, &run, &dl);
	diag_print(&dl, stderr);
	diag_free(&dl);
	if (err) {
		fprintf(stderr, "ffroute check: cannot check this routing: %s\n", strerror(-err));
		return CLI_ERROR;
	}
	err = o.json ? report_json(&run, stdout) : report_text(&run, stdout);
	if (!err && o.html && (err = write_html(o.html, &run)) != 0)
		fprintf(stderr, "ffroute check: %s: %s\n", o.html, strerror(-err));
	if (!err && o.link_loads && (err = write_link_loads(o.link_loads, &run)) != 0)
		fprintf(stderr, "ffroute check: %s: %s\n", o.link_loads, strerror(-err));
	rc = chk_hard_findings(&run.r) ? CLI_FINDINGS : CLI_OK;
	check_run_free(&run);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "ffroute check: error writing the output\n");
		return CLI_ERROR;
	}
	return err ? CLI_ERROR : rc;
}
