// SPDX-License-Identifier: BSD-2-Clause
/*
 * cmd_fabric.c - "ffroute fabric": generate a reference fabric (frame, ff2,
 * multiframe, rail, fattree; small or full preset; optionally degraded)
 * with gen_fabric() and write it as an ibsim .net or ibnetdiscover file.
 *
 * OUT is written atomically (temporary file in OUT's directory, renamed
 * into place only when the whole fabric was written); "-o -" is stdout.
 * Rail-only fabrics are one subnet per rail: without --rail, OUT is a
 * prefix and every rail K (0 .. --rails - 1, default 8) goes to
 * OUT.railK.net (OUT.railK.ibnd with --to ibnetdiscover); with --rail K,
 * just that rail goes to OUT.
 *
 * One summary line per file goes to stderr:
 *   "ffroute fabric: ff2 bridge full: 122 switches, 1568 CAs, 3200 links -> OUT"
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ffroute/gen.h>

#include "cli.h"

#define FABRIC_RAILS_DEFAULT 8	/* rail-only: rails written without --rails */

const char cmd_fabric_help[] =
	"usage: ffroute fabric FAMILY [--style S] [--size small|full] [SHAPE...]\n"
	"                      [--drop-links F] [--drop-switches N] [--miscable N]\n"
	"                      [--trained-down N] [--slow-hcas N] [--sharp]\n"
	"                      [--seed N] [--to net|ibnetdiscover] -o OUT\n"
	"\n"
	"Generate a reference fabric and write it as an ibsim .net file (default) or\n"
	"as ibnetdiscover output.  The same options and seed give the same bytes.\n"
	"\n"
	"Families and styles (the first style is the default):\n"
	"  frame       one 2-level Clos (\"800-port frame\"): director, discrete\n"
	"  ff2         Fire-Flyer 2, two zones + dual-homed storage: bridge, leaf2leaf\n"
	"  multiframe  frames joined leaf to leaf, no third tier: director, discrete\n"
	"  rail        8-HCA GPU hosts: rail2, rail3, rail-only\n"
	"  fattree     generic k-ary fat tree (--levels 2 or 3)\n"
	"  hetero      a frame with low-speed subtrees: mixed, below-leaf, below-spine\n"
	"\n"
	"Shape (0 or absent = the preset's value; not every family uses every one):\n"
	"  -s, --size small|full   preset (default small)\n"
	"  -S, --style S           family style\n"
	"      --radix N           switch ports (full 40, small 8)\n"
	"      --spines N, --leaves N   per frame (rail: leaves per rail; spines in all\n"
	"                               (rail2) or per rail (rail3, rail-only))\n"
	"      --oversub N         leaf down:up = N:1\n"
	"      --compute N         compute hosts per frame/zone (--hosts: same for\n"
	"                          frame/ff2/multiframe; GPU hosts or endpoints for\n"
	"                          rail/fattree)\n"
	"      --storage N         ff2 dual-homed storage servers\n"
	"      --mgmt N            management hosts per frame/zone\n"
	"      --frames N          multiframe frames (default 4)\n"
	"      --inter-links N     ff2: links between the zones (per zone);\n"
	"                          multiframe: links per frame pair\n"
	"      --rails N, --rail K, --levels N   rail/fattree\n"
	"      --subtrees N        hetero: low-speed subtrees (full 8, small 2)\n"
	"      --sub-hosts N       hetero: hosts per subtree (full 16, small 3)\n"
	"      --sub-uplinks N     hetero: up-links per subtree (default 2)\n"
	"      --sub-rate R        hetero: the subtrees' links, e.g. 4xEDR (default),\n"
	"                          2xHDR, 4xFDR, 4xQDR, or 100, 56, 40 (Gb/s)\n"
	"\n"
	"Degradation (seeded, in this order):\n"
	"      --drop-links F      remove fraction F (0..1, or N%) of switch-switch links\n"
	"      --drop-switches N   remove N switches\n"
	"      --miscable N        swap the far ends of N pairs of switch-switch cables\n"
	"      --trained-down N    N full-rate switch-switch links trained down\n"
	"                          (alternately 4x -> 1x and HDR -> EDR)\n"
	"      --slow-hcas N       N full-rate host links run at 4x EDR\n"
	"      --sharp             a SHARP aggregation node on the last port of every switch\n"
	"      --seed N            seed (default 1)\n"
	"\n"
	"Output:\n"
	"  -t, --to FMT            net (default) or ibnetdiscover\n"
	"  -o, --output OUT        output file, '-' for stdout; rail-only without\n"
	"                          --rail: prefix of OUT.railK.net, one file per rail\n"
	"  -h, --help              print this help\n";

struct fabric_opts {
	struct gen_opts g;
	enum ffr_format to;
	const char *out;
	bool rail_given;
};

enum {
	OPT_RADIX = 256, OPT_SPINES, OPT_LEAVES, OPT_COMPUTE, OPT_STORAGE, OPT_MGMT,
	OPT_HOSTS, OPT_RAILS, OPT_LEVELS, OPT_FRAMES, OPT_INTER, OPT_OVERSUB, OPT_RAIL,
	OPT_DROP_LINKS, OPT_DROP_SWITCHES, OPT_MISCABLE, OPT_SHARP, OPT_SEED,
	OPT_SUBTREES, OPT_SUB_HOSTS, OPT_SUB_UPLINKS, OPT_SUB_RATE, OPT_TRAINED_DOWN,
	OPT_SLOW_HCAS,
};

/* ---- options ---------------------------------------------------------------- */

static int parse_uint(const struct cli_cmd *cmd, const char *opt, const char *arg,
		      unsigned max, unsigned *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!*arg || *end || errno || arg[0] == '-' || v > max)
		return cli_usage_error(cmd, "%s: '%s' is not a number in 0..%u", opt, arg, max);
	*out = (unsigned)v;
	return 0;
}

static int parse_fraction(const struct cli_cmd *cmd, const char *arg, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end != arg && *end == '%' && !end[1]) {
		v /= 100;
		end++;
	}
	if (end == arg || *end || errno || isnan(v) || v < 0 || v > 1)
		return cli_usage_error(cmd, "--drop-links: '%s' is not a fraction in 0..1 "
				       "(or a percentage like 5%%)", arg);
	*out = v;
	return 0;
}

static int parse_seed(const struct cli_cmd *cmd, const char *arg, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (!*arg || *end || errno || arg[0] == '-')
		return cli_usage_error(cmd, "--seed: '%s' is not a number", arg);
	*out = v;
	return 0;
}

/* --sub-rate: "<W>x<SPEED>" (4xEDR) or a rate in Gb/s of the usual 4x links. */
static int parse_rate(const struct cli_cmd *cmd, const char *arg, struct gen_opts *g)
{
	static const struct { const char *gbps; uint8_t w, s; } by_rate[] = {
		{ "100", 4, TOPO_SPEED_EDR }, { "56", 4, TOPO_SPEED_FDR },
		{ "40", 4, TOPO_SPEED_QDR }, { "200", 4, TOPO_SPEED_HDR },
	};
	char *x;
	unsigned long w;

	for (size_t i = 0; i < sizeof(by_rate) / sizeof(by_rate[0]); i++)
		if (!strcmp(arg, by_rate[i].gbps)) {
			g->sub_width = by_rate[i].w;
			g->sub_speed = by_rate[i].s;
			return 0;
		}
	w = strtoul(arg, &x, 10);
	if (x != arg && (*x == 'x' || *x == 'X') && topo_width_valid((unsigned)w) &&
	    topo_speed_parse(x + 1, (unsigned)strlen(x + 1)) != TOPO_SPEED_UNKNOWN) {
		g->sub_width = (uint8_t)w;
		g->sub_speed = (uint8_t)topo_speed_parse(x + 1, (unsigned)strlen(x + 1));
		return 0;
	}
	return cli_usage_error(cmd, "--sub-rate: '%s' is not a rate like 4xEDR, 2xHDR or 100",
			       arg);
}

/* The option that sets an unsigned field of struct gen_opts, or NULL. */
static unsigned *uint_field(struct gen_opts *g, int c)
{
	switch (c) {
	case OPT_RADIX: return &g->radix;
	case OPT_SPINES: return &g->spines;
	case OPT_LEAVES: return &g->leaves;
	case OPT_COMPUTE: return &g->compute;
	case OPT_STORAGE: return &g->storage;
	case OPT_MGMT: return &g->mgmt;
	case OPT_HOSTS: return &g->hosts;
	case OPT_RAILS: return &g->rails;
	case OPT_LEVELS: return &g->levels;
	case OPT_FRAMES: return &g->frames;
	case OPT_INTER: return &g->inter_links;
	case OPT_OVERSUB: return &g->oversub;
	case OPT_RAIL: return &g->rail;
	case OPT_DROP_SWITCHES: return &g->drop_switches;
	case OPT_MISCABLE: return &g->miscable;
	case OPT_SUBTREES: return &g->subtrees;
	case OPT_SUB_HOSTS: return &g->sub_hosts;
	case OPT_SUB_UPLINKS: return &g->sub_uplinks;
	case OPT_TRAINED_DOWN: return &g->trained_down;
	case OPT_SLOW_HCAS: return &g->slow_hcas;
	default: return NULL;
	}
}

static int fabric_opt(const struct cli_cmd *cmd, int c, const char *name, char **argv,
		      struct fabric_opts *o, const char **style)
{
	unsigned *u = uint_field(&o->g, c);
	char opt[32];

	if (u) {
		o->rail_given |= c == OPT_RAIL;
		snprintf(opt, sizeof(opt), "--%s", name);
		return parse_uint(cmd, opt, optarg, 1u << 20, u);
	}
	switch (c) {
	case 's':
		if (strcmp(optarg, "small") && strcmp(optarg, "full"))
			return cli_usage_error(cmd, "--size: '%s' is not small or full", optarg);
		o->g.full = !strcmp(optarg, "full");
		return 0;
	case 'S':
		*style = optarg;
		return 0;
	case OPT_DROP_LINKS:
		return parse_fraction(cmd, optarg, &o->g.drop_links);
	case OPT_SHARP:
		o->g.sharp = true;
		return 0;
	case OPT_SUB_RATE:
		return parse_rate(cmd, optarg, &o->g);
	case OPT_SEED:
		return parse_seed(cmd, optarg, &o->g.seed);
	case 't':
		o->to = ffr_format_parse(optarg);
		if (o->to != FFR_FMT_NET && o->to != FFR_FMT_IBND)
			return cli_usage_error(cmd, "--to: '%s' is not net or ibnetdiscover", optarg);
		return 0;
	case 'o':
		o->out = optarg;
		return 0;
	case 'h':
		cli_help(cmd, stdout);
		return -1;
	default:
		return cli_getopt_error(cmd, c, argv);
	}
}

/* FAMILY and --style, once all options are read. */
static int fabric_family(const struct cli_cmd *cmd, int argc, char **argv, struct fabric_opts *o,
			 const char *style)
{
	int f, s = GEN_STYLE_DEFAULT;

	if (optind >= argc)
		return cli_usage_error(cmd, "no FAMILY given (frame, ff2, multiframe, rail, "
				       "fattree, hetero)");
	if (optind + 1 < argc)
		return cli_usage_error(cmd, "one FAMILY only (got '%s' too)", argv[optind + 1]);
	f = gen_family_parse(argv[optind]);
	if (f < 0)
		return cli_usage_error(cmd, "unknown family '%s' (frame, ff2, multiframe, rail, "
				       "fattree, hetero)", argv[optind]);
	if (style && (s = gen_style_parse(style)) < 0)
		return cli_usage_error(cmd, "--style: unknown style '%s'", style);
	o->g.family = (enum gen_family)f;
	o->g.style = (enum gen_style)s;
	if (!o->out)
		return cli_usage_error(cmd, "-o OUT is required ('-' for stdout)");
	return 0;
}

static int fabric_parse(const struct cli_cmd *cmd, int argc, char **argv, struct fabric_opts *o)
{
	static const struct option longopts[] = {
		{ "style", required_argument, NULL, 'S' },
		{ "size", required_argument, NULL, 's' },
		{ "radix", required_argument, NULL, OPT_RADIX },
		{ "spines", required_argument, NULL, OPT_SPINES },
		{ "leaves", required_argument, NULL, OPT_LEAVES },
		{ "compute", required_argument, NULL, OPT_COMPUTE },
		{ "storage", required_argument, NULL, OPT_STORAGE },
		{ "mgmt", required_argument, NULL, OPT_MGMT },
		{ "hosts", required_argument, NULL, OPT_HOSTS },
		{ "rails", required_argument, NULL, OPT_RAILS },
		{ "levels", required_argument, NULL, OPT_LEVELS },
		{ "frames", required_argument, NULL, OPT_FRAMES },
		{ "inter-links", required_argument, NULL, OPT_INTER },
		{ "oversub", required_argument, NULL, OPT_OVERSUB },
		{ "rail", required_argument, NULL, OPT_RAIL },
		{ "drop-links", required_argument, NULL, OPT_DROP_LINKS },
		{ "drop-switches", required_argument, NULL, OPT_DROP_SWITCHES },
		{ "miscable", required_argument, NULL, OPT_MISCABLE },
		{ "sharp", no_argument, NULL, OPT_SHARP },
		{ "subtrees", required_argument, NULL, OPT_SUBTREES },
		{ "sub-hosts", required_argument, NULL, OPT_SUB_HOSTS },
		{ "sub-uplinks", required_argument, NULL, OPT_SUB_UPLINKS },
		{ "sub-rate", required_argument, NULL, OPT_SUB_RATE },
		{ "trained-down", required_argument, NULL, OPT_TRAINED_DOWN },
		{ "slow-hcas", required_argument, NULL, OPT_SLOW_HCAS },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "to", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *style = NULL;
	int c, rc, li = 0;

	memset(o, 0, sizeof(*o));
	gen_opts_init(&o->g, GEN_FRAME);
	o->to = FFR_FMT_NET;
	while ((c = getopt_long(argc, argv, ":S:s:t:o:h", longopts, &li)) != -1) {
		rc = fabric_opt(cmd, c, longopts[li].name, argv, o, &style);
		if (rc)
			return rc;
	}
	return fabric_family(cmd, argc, argv, o, style);
}

/* ---- generate and write ------------------------------------------------------ */

/* The style a fabric was built in (DEFAULT means the family's first one). */
static const char *style_name(const struct gen_opts *g)
{
	static const enum gen_style first[GEN_FAMILY_COUNT] = {
		[GEN_FRAME] = GEN_STYLE_DIRECTOR, [GEN_FF2] = GEN_STYLE_BRIDGE,
		[GEN_MULTIFRAME] = GEN_STYLE_DIRECTOR, [GEN_RAIL] = GEN_STYLE_RAIL2,
		[GEN_HETERO] = GEN_STYLE_MIXED,
	};

	if (g->style != GEN_STYLE_DEFAULT || (unsigned)g->family >= GEN_FAMILY_COUNT)
		return gen_style_name(g->style);
	return gen_style_name(first[g->family]);
}

/*
 * The first line of every output: the command that regenerates it, with
 * the effective options (not argv, so the bytes do not depend on -o).
 */
static void fabric_comment(const struct fabric_opts *o, FILE *fp)
{
	static const struct { const char *name; size_t off; } fields[] = {
#define F(n, f) { n, offsetof(struct gen_opts, f) }
		F("radix", radix), F("spines", spines), F("leaves", leaves),
		F("oversub", oversub), F("compute", compute), F("storage", storage),
		F("mgmt", mgmt), F("hosts", hosts), F("rails", rails), F("levels", levels),
		F("frames", frames), F("inter-links", inter_links),
		F("subtrees", subtrees), F("sub-hosts", sub_hosts),
		F("sub-uplinks", sub_uplinks),
		F("drop-switches", drop_switches), F("miscable", miscable),
		F("trained-down", trained_down), F("slow-hcas", slow_hcas),
#undef F
	};
	const struct gen_opts *g = &o->g;

	fprintf(fp, "# generated by: ffroute fabric %s --style %s --size %s",
		gen_family_name(g->family), style_name(g), g->full ? "full" : "small");
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		unsigned v = *(const unsigned *)((const char *)g + fields[i].off);

		if (v)
			fprintf(fp, " --%s %u", fields[i].name, v);
	}
	if (o->rail_given || (g->family == GEN_RAIL && g->style == GEN_STYLE_RAILONLY))
		fprintf(fp, " --rail %u", g->rail);
	if (g->sub_width)
		fprintf(fp, " --sub-rate %ux%s", g->sub_width, topo_speed_name(g->sub_speed));
	if (g->drop_links > 0)
		fprintf(fp, " --drop-links %g", g->drop_links);
	if (g->sharp)
		fputs(" --sharp", fp);
	fprintf(fp, " --seed %llu%s\n", (unsigned long long)g->seed,
		o->to == FFR_FMT_IBND ? " --to ibnetdiscover" : "");
}

/* Generate with @o and write to @path; one summary line on stderr. */
static int fabric_one(const struct fabric_opts *o, const char *path)
{
	struct diag_list dl;
	struct cli_out of;
	struct topo *t;
	int rc, wrc;

	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	t = gen_fabric(&o->g, &dl);
	if (!t && !dl.nerrors)
		diag_add(&dl, DIAG_ERROR, "fabric", 0, 0, "cannot generate: %s",
			 strerror(errno ? errno : EINVAL));
	diag_print(&dl, stderr);
	diag_free(&dl);
	if (!t)
		return CLI_ERROR;
	rc = cli_out_open(&of, path);
	if (rc) {
		fprintf(stderr, "ffroute fabric: cannot create %s: %s\n", path, strerror(-rc));
	} else {
		fabric_comment(o, of.fp);
		wrc = o->to == FFR_FMT_IBND ? topo_write_ibnd(t, of.fp) : topo_write_net(t, of.fp);
		rc = cli_out_close(&of, wrc == 0);
		rc = wrc ? wrc : rc;
		if (rc)
			fprintf(stderr, "ffroute fabric: cannot write %s: %s\n", path,
				strerror(-rc));
	}
	if (!rc)
		fprintf(stderr, "ffroute fabric: %s %s %s: %u switches, %u CAs, %u links -> %s\n",
			gen_family_name(o->g.family), style_name(&o->g),
			o->g.full ? "full" : "small", t->nswitches, t->ncas, t->nlinks, path);
	topo_free(t);
	return rc ? CLI_ERROR : CLI_OK;
}

/* Rail-only without --rail: every rail's subnet to OUT.railK.EXT. */
static int fabric_rails(struct fabric_opts *o)
{
	unsigned n = o->g.rails ? o->g.rails : FABRIC_RAILS_DEFAULT;
	const char *ext = o->to == FFR_FMT_IBND ? "ibnd" : "net";
	size_t len = strlen(o->out) + 32;
	char *path = malloc(len);
	int rc = CLI_OK;

	if (!path)
		return CLI_ERROR;
	for (unsigned k = 0; k < n && rc == CLI_OK; k++) {
		o->g.rail = k;
		snprintf(path, len, "%s.rail%u.%s", o->out, k, ext);
		rc = fabric_one(o, path);
	}
	free(path);
	return rc;
}

/**
 * cmd_fabric - "ffroute fabric": generate a reference fabric
 * Return: CLI_OK, or CLI_ERROR (impossible options, write failure, usage).
 */
int cmd_fabric(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct fabric_opts o;
	int rc = fabric_parse(cmd, argc, argv, &o);

	if (rc)
		return rc < 0 ? CLI_OK : rc;
	if (o.g.family == GEN_RAIL && o.g.style == GEN_STYLE_RAILONLY && !o.rail_given) {
		if (!strcmp(o.out, "-"))
			return cli_usage_error(cmd, "rail-only writes one file per rail: give -o "
					       "PREFIX, or --rail K for one rail on stdout");
		return fabric_rails(&o);
	}
	return fabric_one(&o, o.out);
}
