// SPDX-License-Identifier: BSD-2-Clause
/*
 * cmd_convert.c - "ffroute convert" (topology and forwarding-table format
 * conversion) and "ffroute cmp" (do two topology files, in any formats,
 * describe the same fabric).
 *
 * convert writes OUT atomically: the output goes to a temporary file in
 * OUT's directory, which is flushed, synced and renamed over OUT only when
 * the writer succeeded, so a failure never leaves a partial or truncated
 * OUT behind.  "-o -" writes to stdout.
 *
 * Forwarding tables are bound to the topology by switch GUID (see io.h), so
 * "convert --lft" always needs the topology the tables were dumped from.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

const char cmd_convert_help[] =
	"usage: ffroute convert [--from FMT] --to FMT [--lossy] -o OUT TOPO\n"
	"       ffroute convert [--from FMT] --lft LFTFILE [--lft-format FMT] --to FMT -o OUT TOPO\n"
	"\n"
	"Convert a topology (first form; --to net or ibnetdiscover) or the forwarding\n"
	"tables LFTFILE of fabric TOPO (second form; --to opensm-lfts or ibroute).\n"
	"Tables are bound to TOPO by switch GUID.  OUT is replaced only when the\n"
	"whole output was written.\n"
	"\n"
	"Options:\n"
	"  -F, --from FMT        read TOPO as FMT (ibnetdiscover, ibnetdiscover-ports,\n"
	"                        net, lst); default: detect; also --topo-format\n"
	"  -t, --to FMT          output format: net, ibnetdiscover (topology) or\n"
	"                        opensm-lfts, ibroute (with --lft)\n"
	"  -l, --lft LFTFILE     convert these forwarding tables instead of TOPO\n"
	"  -L, --lft-format FMT  read LFTFILE as FMT (opensm-lfts, fdbs, ibroute);\n"
	"                        default: detect\n"
	"  -o, --output OUT      output file; '-' is stdout\n"
	"      --lossy           --to net even where ibsim cannot keep port or system\n"
	"                        GUIDs (refused otherwise)\n"
	"  -h, --help            print this help\n";

const char cmd_cmp_help[] =
	"usage: ffroute cmp [--ignore-lids] A B\n"
	"\n"
	"Read two topology files (any formats, detected) and tell whether they\n"
	"describe the same fabric: the same nodes (GUID, type, ports, description,\n"
	"system GUID), port GUIDs, LIDs and LMCs, links and link width/speed.\n"
	"Exit status 0 if they do, 1 (printing the first difference) if not,\n"
	"2 if either file cannot be read.\n"
	"\n"
	"Options:\n"
	"  -i, --ignore-lids  compare with every LID and LMC cleared\n"
	"  -h, --help         print this help\n";

struct convert_opts {
	enum ffr_format from, to, lft_fmt;
	const char *lft_path;
	const char *out;
	const char *topo_path;
	bool lossy;		/* --lossy: .net may change identities */
};

/* ---- convert --------------------------------------------------------------- */

static int convert_check(const struct cli_cmd *cmd, struct convert_opts *o)
{
	if (o->to == FFR_FMT_AUTO)
		return cli_usage_error(cmd, "--to FMT is required");
	if (!o->out)
		return cli_usage_error(cmd, "-o OUT is required ('-' for stdout)");
	if (o->lft_path) {
		if (o->to != FFR_FMT_OSM_LFTS && o->to != FFR_FMT_IBROUTE)
			return cli_usage_error(cmd, "with --lft, --to must be opensm-lfts or ibroute "
					       "(not %s)", ffr_format_name(o->to));
	} else {
		if (ffr_format_is_lft(o->to))
			return cli_usage_error(cmd, "--to %s needs --lft LFTFILE",
					       ffr_format_name(o->to));
		if (o->to != FFR_FMT_NET && o->to != FFR_FMT_IBND)
			return cli_usage_error(cmd, "cannot write %s; topologies convert to net "
					       "or ibnetdiscover", ffr_format_name(o->to));
		if (o->lft_fmt != FFR_FMT_AUTO)
			return cli_usage_error(cmd, "--lft-format needs --lft LFTFILE");
	}
	return 0;
}

static int convert_opt(const struct cli_cmd *cmd, int c, char **argv, struct convert_opts *o)
{
	enum ffr_format f;

	switch (c) {
	case 'F':
		return cli_parse_format(cmd, "--from", optarg, CLI_FMT_TOPO, &o->from);
	case 'L':
		return cli_parse_format(cmd, "--lft-format", optarg, CLI_FMT_LFT, &o->lft_fmt);
	case 't':
		f = ffr_format_parse(optarg);
		if (f == FFR_FMT_AUTO)
			return cli_usage_error(cmd, "--to: unknown format '%s'", optarg);
		o->to = f;
		return 0;
	case 'l':
		o->lft_path = optarg;
		return 0;
	case 'o':
		o->out = optarg;
		return 0;
	case 'Y':
		o->lossy = true;
		return 0;
	case 'h':
		cli_help(cmd, stdout);
		return -1;
	default:
		return cli_getopt_error(cmd, c, argv);
	}
}

static int convert_parse(const struct cli_cmd *cmd, int argc, char **argv, struct convert_opts *o)
{
	static const struct option longopts[] = {
		{ "from", required_argument, NULL, 'F' },
		{ "topo-format", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 't' },
		{ "lft", required_argument, NULL, 'l' },
		{ "lft-format", required_argument, NULL, 'L' },
		{ "output", required_argument, NULL, 'o' },
		{ "lossy", no_argument, NULL, 'Y' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	memset(o, 0, sizeof(*o));
	while ((c = getopt_long(argc, argv, ":F:t:l:L:o:h", longopts, NULL)) != -1) {
		rc = convert_opt(cmd, c, argv, o);
		if (rc)
			return rc;
	}
	if (optind >= argc)
		return cli_usage_error(cmd, "no TOPO file given");
	if (optind + 1 < argc)
		return cli_usage_error(cmd, "one TOPO file only (got '%s' too)", argv[optind + 1]);
	o->topo_path = argv[optind];
	return convert_check(cmd, o);
}

/* Write @t (and @l with --lft) in the output format. */
static int convert_write(const struct convert_opts *o, const struct topo *t,
			 const struct lft *l, FILE *fp)
{
	switch (o->to) {
	case FFR_FMT_NET:
		return topo_write_net(t, fp);
	case FFR_FMT_IBND:
		return topo_write_ibnd(t, fp);
	case FFR_FMT_OSM_LFTS:
		return lft_write_osm(t, l, fp);
	case FFR_FMT_IBROUTE:
		return lft_write_ibroute(t, l, fp);
	default:
		return -EINVAL;
	}
}

/*
 * .net is lossy where ibsim is.  Identities (port and system GUIDs) are
 * refused unless --lossy; a port GUID ibsim would give twice is refused
 * always (it would run a fabric with a duplicate port GUID).
 * Returns 0 to go on.
 */
static int net_losses(const struct convert_opts *o, const struct topo *t)
{
	struct topo_net_losses l = topo_net_losses(t);
	const char *lvl = o->lossy ? "warning" : "error";

	if (l.clashes == UINT_MAX) {
		fprintf(stderr, "ffroute convert: out of memory\n");
		return -1;
	}
	if (l.clashes) {
		fprintf(stderr, "ffroute convert: error: %u port GUID(s) would be given twice "
			"(ibsim gives CA port p node GUID + p)\n", l.clashes);
		return -1;
	}
	if (l.guids)
		fprintf(stderr, "ffroute convert: %s: %u CA port GUID(s) are not node GUID + port; "
			".net cannot keep them (ibsim derives them)\n", lvl, l.guids);
	if (l.nclashes)
		fprintf(stderr, "ffroute convert: %s: %u derived CA port GUID(s) are another "
			"node's GUID\n", lvl, l.nclashes);
	if (l.sysguids)
		fprintf(stderr, "ffroute convert: %s: %u node(s) without a system GUID; ibsim "
			"would use the node GUID\n", lvl, l.sysguids);
	if ((l.guids || l.nclashes || l.sysguids) && !o->lossy) {
		fprintf(stderr, "ffroute convert: the .net would describe other identities; "
			"--lossy converts anyway\n");
		return -1;
	}
	if (l.fast)
		fprintf(stderr, "ffroute convert: warning: %u link(s) faster than HDR written as "
			"HDR (ibsim 0.10 stops at HDR)\n", l.fast);
	if (l.unknown)
		fprintf(stderr, "ffroute convert: warning: %u link(s) of unknown width or speed "
			"written as ibsim's default\n", l.unknown);
	if (l.desc)
		fprintf(stderr, "ffroute convert: warning: %u NodeDescription(s) empty, too long or "
			"quoted; changed\n", l.desc);
	return 0;
}

int cmd_convert(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct convert_opts o;
	struct cli_out of;
	struct topo *t;
	struct lft *l = NULL;
	int rc = convert_parse(cmd, argc, argv, &o), wrc;

	if (rc)
		return rc < 0 ? CLI_OK : rc;
	t = cli_load_topo(o.topo_path, o.from, NULL);
	if (!t)
		return CLI_ERROR;
	if (o.lft_path) {
		struct diag_list dl;

		l = cli_load_lft(o.lft_path, o.lft_fmt, t);
		diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
		rc = l ? cli_lft_bound(t, l, o.lft_path, &dl) : -EINVAL;
		diag_print(&dl, stderr);
		diag_free(&dl);
		if (rc) {
			lft_free(l);
			topo_free(t);
			return CLI_ERROR;
		}
	}
	if (o.to == FFR_FMT_NET && net_losses(&o, t)) {
		topo_free(t);
		return CLI_ERROR;
	}
	rc = cli_out_open(&of, o.out);
	if (rc) {
		fprintf(stderr, "ffroute convert: cannot create %s: %s\n", o.out, strerror(-rc));
	} else {
		wrc = convert_write(&o, t, l, of.fp);
		rc = cli_out_close(&of, wrc == 0);
		if (wrc)
			fprintf(stderr, "ffroute convert: writing %s as %s failed: %s\n", o.out,
				ffr_format_name(o.to), strerror(-wrc));
		else if (rc)
			fprintf(stderr, "ffroute convert: cannot write %s: %s\n", o.out,
				strerror(-rc));
		rc = rc ? rc : wrc;
	}
	lft_free(l);
	topo_free(t);
	return rc ? CLI_ERROR : CLI_OK;
}

/* ---- cmp --------------------------------------------------------------------- */

static void clear_lids(struct topo *t)
{
	memset(t->port_lid, 0, (size_t)t->nports * sizeof(*t->port_lid));
	memset(t->port_lmc, 0, (size_t)t->nports * sizeof(*t->port_lmc));
}

int cmd_cmp(const struct cli_cmd *cmd, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ignore-lids", no_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool ignore_lids = false;
	struct topo *a, *b;
	char why[512];
	int c, rc;

	while ((c = getopt_long(argc, argv, ":ih", longopts, NULL)) != -1) {
		if (c == 'i') {
			ignore_lids = true;
		} else if (c == 'h') {
			cli_help(cmd, stdout);
			return CLI_OK;
		} else {
			return cli_getopt_error(cmd, c, argv);
		}
	}
	if (argc - optind != 2)
		return cli_usage_error(cmd, "two files needed (got %d)", argc - optind);
	a = cli_load_topo(argv[optind], FFR_FMT_AUTO, NULL);
	b = cli_load_topo(argv[optind + 1], FFR_FMT_AUTO, NULL);
	if (!a || !b) {
		topo_free(a);
		topo_free(b);
		return CLI_ERROR;
	}
	if (ignore_lids) {
		clear_lids(a);
		clear_lids(b);
	}
	why[0] = '\0';
	rc = CLI_OK;
	if (!topo_equal(a, b, why, sizeof(why))) {
		printf("%s and %s differ: %s\n", argv[optind], argv[optind + 1], why);
		rc = CLI_FINDINGS;
	}
	topo_free(a);
	topo_free(b);
	return rc;
}
