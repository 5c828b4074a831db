// SPDX-License-Identifier: BSD-2-Clause
/*
 * cmd_route.c - "ffroute route": route a fabric offline and write the
 * tables in the formats the ecosystem reads.
 *
 * FABRIC (any topology format) -> cls_classify -> route_run (engine +
 * verification) -> DIR/{fabric.topo, opensm-lfts.dump, ffroute.slots},
 * DIR/ffroute.ibroute with --ibroute, and, when VL layers are used,
 * DIR/{ffroute.sl, opensm-sl2vl.dump}.
 * Ports without LIDs get them (topo_assign_lids).  Every file is written
 * whole or not at all (cli_out).  --check prints `ffroute check DIR` of
 * what was written.  Nothing is written when the engine refuses.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ffroute/route.h>

#include "cli.h"
#include "report.h"

const char cmd_route_help[] =
	"usage: ffroute route FABRIC -o DIR [--previous DIR] [--format F] [--roles F]\n"
	"                     [--lmc N]\n"
	"                     [--vl-limit N] [--rail-isolation auto|on|off]\n"
	"                     [--non-tree decline|route] [--class-weights C,S,O]\n"
	"                     [--classes default|FILE] [--jobs FILE]\n"
	"                     [--no-tree-digits]\n"
	"                     [--no-shift-refine] [--no-incremental] [--threads N] [--ibroute]\n"
	"                     [--no-lfts-dump | --lfts-compact]\n"
	"                     [--no-verify] [--check [--json]] [-q] [-v]\n"
	"\n"
	"Compute the forwarding tables of every switch (every LID of every CA port's\n"
	"LMC range and every switch LID), the SL of every path and the SL2VL tables\n"
	"when VL layers are needed, verify them with the checker, and write into DIR:\n"
	"  fabric.topo         the fabric, with the LIDs routed (ibnetdiscover format)\n"
	"  opensm-lfts.dump    OpenSM's format; its `file` engine loads it (lfts_file);\n"
	"                      not with --no-lfts-dump\n"
	"  ffroute.ibroute     ibroute/dump_lfts-style blocks, only with --ibroute\n"
	"  ffroute.sl          SL per (source group, LID), only when VLs are used\n"
	"  opensm-sl2vl.dump   SL2VL per port, only when VLs are used\n"
	"  ffroute.vlarb       with --classes: the classes' SLs and VLs, and the VL\n"
	"                      arbitration as opensm.conf's qos_vlarb_* lines\n"
	"  ffroute.slots       where every CA is cabled: --previous of a later run\n"
	"  ffroute.lftb        the tables, one byte per entry: --previous's base\n"
	"  ffroute.jobs        with --jobs: the jobs routed for (node GUIDs)\n"
	"\n"
	"  -o, --output DIR    output directory (created if missing)\n"
	"  -f, --format F      topology format (default: detected); also --topo-format\n"
	"  -r, --roles F       classification overrides (see ffroute classify)\n"
	"  -p, --previous DIR  an earlier run's output: CAs that went away since keep\n"
	"                      their places (DIR/ffroute.slots); when FABRIC is that\n"
	"                      run's base fabric minus something (faults), the routes\n"
	"                      the faults left intact are kept (incremental), and\n"
	"                      DIR/base/ keeps that base (fabric.topo, ffroute.lftb)\n"
	"      --no-incremental  with --previous: places only, routed from scratch (and\n"
	"                      the new base): a rebalance after faults that stay\n"
	"      --lmc N         LMC for ports that have no LID in FABRIC (default 0)\n"
	"      --vl-limit N    most VLs the routing may use (default 2, 8 with --classes;\n"
	"                      1 = no layers)\n"
	"      --jobs FILE     the running jobs (\"job NAME [dbt|ring]\" lines, each\n"
	"                      followed by its hosts in rank order): each zone's\n"
	"                      D-mod-K digits keep their collectives off shared links;\n"
	"                      with --previous, only the CAs of the jobs that changed\n"
	"                      since (DIR/ffroute.jobs) take new routes\n"
	"      --classes default|FILE  traffic classes on SLs and VLs of their own\n"
	"                      (ffroute.conf's class lines; default: other,\n"
	"                      collectives, storage, management); refused when\n"
	"                      classes x deadlock layers exceed the VL limit\n"
	"      --rail-isolation auto|on|off  keep same-rail routes in their rail's plane:\n"
	"                      auto (default) when rails are found, given up (with a\n"
	"                      message) where the verification refuses it; on refuses\n"
	"                      instead; off never tries\n"
	"      --non-tree decline|route  a fabric that is not a tree (a torus, a\n"
	"                      dragonfly: see ffroute classify): decline it (default;\n"
	"                      exit 1) or route it (on the rooted layer: one\n"
	"                      up*/down* order)\n"
	"      --class-weights C,S,O  what one compute, storage, other route weighs when\n"
	"                      a switch breaks a tie between links (0..1000; default\n"
	"                      0,0,0: no all-class tie-break)\n"
	"      --no-tree-digits  D-mod-K digits rank mod m only: no search for digits\n"
	"                      that keep HFReduce's double binary tree over each\n"
	"                      zone's compute HCAs off shared links\n"
	"      --no-shift-refine  degraded two-level zones: keep D-mod-K's leaf entries\n"
	"                      (no search for spines that bring shift permutations\n"
	"                      to their lower bound)\n"
	"      --threads N     1 or 2 threads (default: 2 when 2 CPUs are online);\n"
	"                      the tables are the same either way\n"
	"      --ibroute       also write ffroute.ibroute (the tables again, as\n"
	"                      ibroute prints them)\n"
	"      --no-lfts-dump  leave opensm-lfts.dump out (about 75 bytes an entry:\n"
	"                      6.5 GB for 35,000 LIDs on 2,560 switches); the tables\n"
	"                      stay in ffroute.lftb, which check reads and convert\n"
	"                      turns into the dump (--lft DIR/ffroute.lftb\n"
	"                      --to opensm-lfts)\n"
	"      --lfts-compact  opensm-lfts.dump without the comment after each row's\n"
	"                      port (about 11 bytes an entry: 1 GB there); OpenSM's\n"
	"                      file engine loads it, each LID as written (the\n"
	"                      comment's port GUID lets it follow a LID that moved)\n"
	"      --no-verify     skip the checker (not recommended)\n"
	"      --check         print the check report of what was written\n"
	"  -j, --json          with --check: the report as JSON\n"
	"  -q, --quiet         no summary line\n"
	"  -v, --verbose       also the engine's progress (each attempt and why)\n"
	"\n"
	"Exit status: 0 routed (and, with --check, no hard finding), 1 refused or\n"
	"hard findings, 2 bad input or usage.\n";

enum { OPT_LMC = 256, OPT_VL, OPT_RAILS, OPT_NON_TREE, OPT_NO_VERIFY, OPT_CHECK, OPT_WEIGHTS, OPT_NO_TREE,
       OPT_NO_SHIFT, OPT_THREADS, OPT_IBROUTE, OPT_CLASSES, OPT_JOBS, OPT_NO_INCR, OPT_NO_DUMP,
       OPT_COMPACT };

struct route_cli {
	const char *fabric, *dir, *roles, *previous, *classes, *jobs;
	bool vl_given;
	struct route_tclass tc[CHK_TC_MAX];
	enum ffr_format fmt;
	unsigned lmc;
	bool check, json, quiet, verbose, ibroute, no_dump, compact;
	bool no_incremental;	/* --previous gives places only */
	struct route_opts ro;
};

static int parse_num(const struct cli_cmd *cmd, const char *opt, const char *arg,
		     unsigned lo, unsigned hi, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (!*arg || *end || v < lo || v > hi || arg[0] == '-')
		return cli_usage_error(cmd, "%s: '%s' is not a number in %u..%u", opt, arg, lo, hi);
	*out = (unsigned)v;
	return 0;
}

static int parse(const struct cli_cmd *cmd, int argc, char **argv, struct route_cli *o)
{
	static const struct option lopts[] = {
		{ "output", required_argument, NULL, 'o' }, { "format", required_argument, NULL, 'f' },
		{ "topo-format", required_argument, NULL, 'f' },
		{ "roles", required_argument, NULL, 'r' },
		{ "previous", required_argument, NULL, 'p' }, { "lmc", required_argument, NULL, OPT_LMC },
		{ "vl-limit", required_argument, NULL, OPT_VL },
		{ "rail-isolation", required_argument, NULL, OPT_RAILS },
		{ "non-tree", required_argument, NULL, OPT_NON_TREE },
		{ "no-verify", no_argument, NULL, OPT_NO_VERIFY },
		{ "no-tree-digits", no_argument, NULL, OPT_NO_TREE },
		{ "no-shift-refine", no_argument, NULL, OPT_NO_SHIFT },
		{ "no-incremental", no_argument, NULL, OPT_NO_INCR },
		{ "threads", required_argument, NULL, OPT_THREADS },
		{ "ibroute", no_argument, NULL, OPT_IBROUTE },
		{ "no-lfts-dump", no_argument, NULL, OPT_NO_DUMP },
		{ "lfts-compact", no_argument, NULL, OPT_COMPACT },
		{ "class-weights", required_argument, NULL, OPT_WEIGHTS },
		{ "classes", required_argument, NULL, OPT_CLASSES },
		{ "jobs", required_argument, NULL, OPT_JOBS },
		{ "check", no_argument, NULL, OPT_CHECK }, { "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' }, { "verbose", no_argument, NULL, 'v' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	memset(o, 0, sizeof(*o));
	route_opts_init(&o->ro);
	cli_reset_getopt();
	while ((opt = getopt_long(argc, argv, ":o:f:r:p:jqvh", lopts, NULL)) != -1) {
		switch (opt) {
		case 'o': o->dir = optarg; break;
		case 'f':
			if (cli_parse_format(cmd, "--format", optarg, CLI_FMT_TOPO, &o->fmt))
				return CLI_ERROR;
			break;
		case 'r': o->roles = optarg; break;
		case 'p': o->previous = optarg; break;
		case OPT_LMC:
			if (parse_num(cmd, "--lmc", optarg, 0, 7, &o->lmc))
				return CLI_ERROR;
			break;
		case OPT_VL:
			if (parse_num(cmd, "--vl-limit", optarg, 1, 15, &o->ro.vl_limit))
				return CLI_ERROR;
			o->vl_given = true;
			break;
		case OPT_CLASSES: o->classes = optarg; break;
		case OPT_JOBS: o->jobs = optarg; break;
		case OPT_RAILS:
			if (strcmp(optarg, "auto") && strcmp(optarg, "on") && strcmp(optarg, "off")) {
				return cli_usage_error(cmd, "--rail-isolation is auto, on or off, "
						       "not '%s'", optarg);
			}
			o->ro.rail_isolation = optarg[0] == 'a' ? -1 : optarg[1] == 'n';
			break;
		case OPT_NON_TREE:
			if (strcmp(optarg, "decline") && strcmp(optarg, "route"))
				return cli_usage_error(cmd, "--non-tree is decline or route, not '%s'",
						       optarg);
			o->ro.non_tree = optarg[0] == 'r';
			break;
		case OPT_THREADS:
			if (parse_num(cmd, "--threads", optarg, 1, 2, &o->ro.threads))
				return CLI_ERROR;
			break;
		case OPT_WEIGHTS:
			if (route_parse_class_weights(optarg, o->ro.class_weight))
				return cli_usage_error(cmd, "--class-weights wants C,S,O (0..1000)");
			break;
		case OPT_NO_VERIFY: o->ro.verify = false; break;
		case OPT_NO_TREE: o->ro.tree_digits = false; break;
		case OPT_NO_SHIFT: o->ro.shift_refine = false; break;
		case OPT_NO_INCR: o->no_incremental = true; break;
		case OPT_CHECK: o->check = true; break;
		case OPT_IBROUTE: o->ibroute = true; break;
		case OPT_NO_DUMP: o->no_dump = true; break;
		case OPT_COMPACT: o->compact = true; break;
		case 'j': o->json = true; break;
		case 'q': o->quiet = true; break;
		case 'v': o->verbose = true; break;
		case 'h': cli_help(cmd, stdout); return -1;
		default: return cli_getopt_error(cmd, opt, argv);
		}
	}
	if (optind != argc - 1)
		return cli_usage_error(cmd, "expected one FABRIC file");
	if (!o->dir)
		return cli_usage_error(cmd, "-o DIR is required");
	if (o->no_incremental && !o->previous)
		return cli_usage_error(cmd, "--no-incremental goes with --previous");
	if (o->no_dump && o->compact)
		return cli_usage_error(cmd, "--lfts-compact writes the dump --no-lfts-dump leaves out");
	o->fabric = argv[optind];
	return 0;
}

/* Cabled CA and router ports: each takes 2^LMC LIDs. */
static unsigned end_ports(const struct topo *t)
{
	unsigned n = 0;

	for (uint32_t node = 0; node < t->nnodes; node++)
		for (uint32_t p = t->port_off[node] + 1; !topo_is_switch(t, node) &&
		     p < t->port_off[node + 1]; p++)
			n += t->port_remote[p] != TOPO_NONE;
	return n;
}

/* End ports (cabled CA ports, switch port 0) without a LID, and how many there are in all. */
static uint32_t no_lid(const struct topo *t, uint32_t *all)
{
	uint32_t n = 0;

	*all = 0;
	for (uint32_t node = 0; node < t->nnodes; node++) {
		bool sw = topo_is_switch(t, node);

		for (uint32_t p = t->port_off[node] + !sw; p < t->port_off[node + 1]; p++) {
			if ((sw && p != t->port_off[node]) || (!sw && t->port_remote[p] == TOPO_NONE))
				continue;
			++*all;
			n += !t->port_lid[p];
		}
	}
	return n;
}

static void log_stderr(void *ctx, enum route_log_level lvl, const char *msg)
{
	if (lvl == ROUTE_LOG_ERROR || (ctx && *(const bool *)ctx))
		fprintf(stderr, "ffroute route: %s\n", msg);
}

typedef int (*writer_fn)(const struct topo *, const struct route_out *, FILE *);

/*
 * Write DIR/@name with @fn to a temporary file, left for write_all to
 * commit; 0 or -errno (printed: the write's own errno, ENOSPC say, not
 * stdio's EIO).
 */
static int write_one(const char *dir, const char *name, const struct topo *t,
		     const struct route_out *ro, writer_fn fn, struct cli_out *of, char *path,
		     size_t size)
{
	int rc, err;

	snprintf(path, size, "%s/%s", dir, name);
	rc = cli_out_open(of, path);
	if (!rc) {
		errno = 0;
		rc = fn(t, ro, of->fp);
		if (rc == -EIO && errno)
			rc = -errno;
		err = cli_out_finish(of, !rc);
		rc = rc ? rc : err;
	}
	if (rc)
		fprintf(stderr, "ffroute route: %s: %s\n", path, strerror(-rc));
	return rc;
}

static int w_topo(const struct topo *t, const struct route_out *r, FILE *fp)
{
	(void)r;
	return topo_write_ibnd(t, fp);
}

static int w_osm(const struct topo *t, const struct route_out *r, FILE *fp)
{
	return lft_write_osm(t, r->lft, fp);
}

static int w_osm_compact(const struct topo *t, const struct route_out *r, FILE *fp)
{
	return lft_write_osm_how(t, r->lft, true, fp);
}

static int w_bin(const struct topo *t, const struct route_out *r, FILE *fp)
{
	return lft_write_bin(t, r->lft, fp);
}

static int w_ibroute(const struct topo *t, const struct route_out *r, FILE *fp)
{
	return lft_write_ibroute(t, r->lft, fp);
}

static int w_sl(const struct topo *t, const struct route_out *r, FILE *fp)
{
	return sl_write(t, r->sl, r->sl_group, r->ngroups, r->tcs.n ? &r->tcs : NULL,
			lft_digest(t, r->lft, UINT32_MAX), fp);
}

static int w_slots(const struct topo *t, const struct route_out *r, FILE *fp)
{
	(void)t;
	return slots_write(r->slots, r->nslots, fp);
}

static int w_sl2vl(const struct topo *t, const struct route_out *r, FILE *fp)
{
	return sl2vl_write(t, r->sl2vl, &r->vlx, fp);
}

/* The classes' SLs and VLs, and their VL arbitration as opensm.conf lines. */
static int w_vlarb(const struct topo *t, const struct route_out *r, FILE *fp)
{
	char line[400];

	(void)t;
	fprintf(fp, "# ffroute traffic classes: %u, %u VL%s each, %u VLs in all\n", r->tcs.n,
		r->layer_vls, r->layer_vls == 1 ? "" : "s", r->nvls);
	for (unsigned k = 0; k < r->tcs.n; k++) {
		fprintf(fp, "# class %s%s: SLs", r->tc[k].name, k == r->tc_fallback ?
			" (default)" : "");
		for (unsigned sl = 0; sl < 16; sl++)
			if (r->tc_sls[k] >> sl & 1)
				fprintf(fp, " %u", sl);
		fprintf(fp, ", VLs %u-%u, weight %u%s\n", k * r->layer_vls,
			(k + 1) * r->layer_vls - 1, r->tc[k].weight, r->tc[k].high ? ", high" : "");
	}
	fprintf(fp, "qos_max_vls %u\n", r->nvls);
	route_vlarb_conf(r, true, line, sizeof(line));
	fprintf(fp, "qos_vlarb_high %s\n", line);
	route_vlarb_conf(r, false, line, sizeof(line));
	fprintf(fp, "qos_vlarb_low %s\n", line);
	return ferror(fp) ? -EIO : 0;
}

/* mkdir -p; 0 or -1 with errno */
static int mkdir_p(const char *dir)
{
	char path[4096];
	size_t n = strlen(dir);

	if (n >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(path, dir, n + 1);
	for (size_t i = 1; i <= n; i++)
		if (path[i] == '/' || !path[i]) {
			char c = path[i];

			path[i] = '\0';
			if (mkdir(path, 0777) && errno != EEXIST)
				return -1;
			path[i] = c;
		}
	return 0;
}

/*
 * The output set appears whole or not at all: every file is written to a
 * temporary first, and only when all are complete are they renamed into
 * place (and the files of an earlier run this one does not write removed:
 * the layer files when it uses one VL, the ibroute copy unless asked for).
 * On failure DIR keeps the previous run's set, which is consistent with
 * itself; never the new topology beside the old tables.
 */
/* What write_all() writes as opensm-lfts.dump. */
enum dump_how { DUMP_NONE, DUMP_FULL, DUMP_COMPACT };

static int write_all(const char *dir, const struct topo *t, const struct route_out *ro,
		     bool ibroute, enum dump_how dump)
{
	enum { ALWAYS, LAYERS, IBROUTE, CLASSES, DUMP, COMPACT };
	static const struct { const char *name; writer_fn fn; int when; } files[] = {
		{ "fabric.topo", w_topo, ALWAYS },
		{ "opensm-lfts.dump", w_osm, DUMP },
		{ "opensm-lfts.dump", w_osm_compact, COMPACT },
		{ "ffroute.lftb", w_bin, ALWAYS },
		{ "ffroute.ibroute", w_ibroute, IBROUTE },
		{ "ffroute.sl", w_sl, LAYERS },
		{ "opensm-sl2vl.dump", w_sl2vl, LAYERS },
		{ "ffroute.vlarb", w_vlarb, CLASSES },
		{ "ffroute.slots", w_slots, ALWAYS },
	};
	enum { NFILES = sizeof(files) / sizeof(files[0]) };
	struct cli_out of[NFILES];
	char path[NFILES][4096];
	bool want[NFILES];
	unsigned n = 0;
	int rc = 0;

	if (mkdir_p(dir)) {
		int err = errno;

		fprintf(stderr, "ffroute route: %s: %s\n", dir, strerror(err));
		return -err;
	}
	for (unsigned i = 0; i < NFILES; i++) {
		want[i] = files[i].when == ALWAYS || (files[i].when == LAYERS && ro->nvls > 1) ||
			  (files[i].when == IBROUTE && ibroute) ||
			  (files[i].when == DUMP && dump == DUMP_FULL) ||
			  (files[i].when == COMPACT && dump == DUMP_COMPACT) ||
			  (files[i].when == CLASSES && ro->tcs.n);
		path[i][0] = '\0';
		if (rc || !want[i])
			continue;
		rc = write_one(dir, files[i].name, t, ro, files[i].fn, &of[i], path[i],
			       sizeof(path[i]));
		n = i + 1;
	}
	for (unsigned i = 0; i < n; i++) {
		int err = path[i][0] ? cli_out_commit(&of[i], !rc) : 0;

		if (err && !rc) {
			fprintf(stderr, "ffroute route: %s: %s\n", path[i], strerror(-err));
			rc = err;
		}
	}
	for (unsigned i = 0; !rc && i < NFILES; i++) {	/* no stale file of an earlier run */
		bool written = false;

		for (unsigned k = 0; k < NFILES; k++)	/* the dump: two writers */
			written |= want[k] && !strcmp(files[k].name, files[i].name);
		snprintf(path[i], sizeof(path[i]), "%s/%s", dir, files[i].name);
		if (!written)
			remove(path[i]);
	}
	return rc;
}

/*
 * The base's tables in @sub: ffroute.lftb (binary, a copy's cost) when
 * there, else opensm-lfts.dump (an earlier version's, or a damaged binary
 * file: warned).  NULL with diagnostics printed.
 */
static struct lft *load_base_lfts(const char *sub, const struct topo *t)
{
	char bin[4200], text[4200];
	struct diag_list dl;
	struct lft *l = NULL;

	snprintf(bin, sizeof(bin), "%s/ffroute.lftb", sub);
	snprintf(text, sizeof(text), "%s/opensm-lfts.dump", sub);
	if (!access(bin, R_OK)) {
		diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
		l = lft_read_bin(bin, t, &dl);
		diag_print(&dl, stderr);
		diag_free(&dl);
		if (l)
			return l;
		fprintf(stderr, "ffroute route: warning: %s not read; reading %s\n", bin, text);
	}
	return cli_load_lft(text, FFR_FMT_AUTO, t);
}

/*
 * --previous DIR: the base is DIR/base/ (fabric.topo, ffroute.lftb or an
 * earlier version's opensm-lfts.dump, and ffroute.sl when it used VL
 * layers) when that run kept one (the fabric lacked some of it), else what
 * it wrote (it was its own base).  Its SLs go to @bo; without them this
 * pass's SLs stand for the base's.
 */
static int load_base(const char *dir, struct route_base *b, struct route_out *bo,
		     struct chk_jobs *bjobs)
{
	char sub[4096], topo[4200], jobs[4200];
	struct stat st;
	struct topo *t;
	struct lft *l;

	snprintf(sub, sizeof(sub), "%s/base", dir);
	snprintf(topo, sizeof(topo), "%s/fabric.topo", sub);
	if (stat(topo, &st))
		snprintf(sub, sizeof(sub), "%s", dir);
	snprintf(topo, sizeof(topo), "%s/fabric.topo", sub);
	t = cli_load_topo(topo, FFR_FMT_AUTO, NULL);
	l = t ? load_base_lfts(sub, t) : NULL;
	if (!l) {
		topo_free(t);
		return -EINVAL;
	}
	b->t = t;
	b->lft = l;
	if (cli_load_base_sls(sub, t, l, bo) < 0)
		fprintf(stderr, "ffroute route: warning: %s: the base's SLs are not read; this "
			"pass's stand for them\n", sub);
	b->out = bo->sl ? bo : NULL;
	snprintf(jobs, sizeof(jobs), "%s/ffroute.jobs", sub);	/* the jobs it was routed for */
	if (!stat(jobs, &st) && cli_load_jobs(jobs, t, bjobs))
		return -EINVAL;
	return 0;
}

/*
 * DIR/ffroute.jobs: the jobs this run was routed for (node GUIDs), for a
 * later --previous DIR --jobs to tell which changed; removed without
 * jobs.  @sub: "" for DIR, "/base" for the base kept there.
 */
static int write_jobs(const char *dir, const char *sub, const struct chk_jobs *j,
		      const struct topo *t)
{
	char path[4200];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s%s/ffroute.jobs", dir, sub);
	if (!j || !j->n || !t) {
		remove(path);
		return 0;
	}
	if (!(f = fopen(path, "w"))) {
		fprintf(stderr, "ffroute route: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	rc = chk_jobs_write(f, j, t);
	if (fclose(f) && !rc)
		rc = -errno;
	if (rc)
		fprintf(stderr, "ffroute route: %s: %s\n", path, strerror(-rc));
	return rc;
}

static void free_base(struct route_base *b, struct route_out *bo)
{
	topo_free((struct topo *)b->t);
	lft_free((struct lft *)b->lft);
	bo->lft = NULL;	/* b->lft */
	route_out_free(bo);
	memset(bo, 0, sizeof(*bo));
	b->t = NULL;
	b->lft = NULL;
	b->out = NULL;
}

/*
 * The base stays in force (the fabric lacks some of it): DIR/base/ keeps a
 * copy, its SLs with it when it has them; else none.
 */
static int write_base(const char *dir, const struct route_base *b, const struct route_out *ro)
{
	static const struct { const char *name; writer_fn fn; bool sls; } files[] = {
		{ "fabric.topo", w_topo, false },
		{ "ffroute.lftb", w_bin, false },
		{ "ffroute.sl", w_sl, true },
		{ "opensm-lfts.dump", NULL, false },	/* an earlier version's: removed */
		{ "ffroute.jobs", NULL, false },	/* write_jobs()'s, after this */
	};
	enum { NFILES = sizeof(files) / sizeof(files[0]) };
	struct route_out bo = { .lft = (struct lft *)b->lft };
	char sub[4096], path[NFILES][4200];
	struct cli_out of[NFILES];
	bool want[NFILES];
	unsigned n = 0;
	int rc = 0;

	snprintf(sub, sizeof(sub), "%s/base", dir);
	if (b->out)
		bo = *b->out;
	for (unsigned i = 0; i < NFILES; i++) {
		want[i] = b->t && ro->base_in_force && files[i].fn && (!files[i].sls || b->out);
		path[i][0] = '\0';
	}
	if (!want[0]) {
		for (unsigned i = 0; i < NFILES; i++) {
			snprintf(path[i], sizeof(path[i]), "%s/%s", sub, files[i].name);
			remove(path[i]);
		}
		rmdir(sub);
		return 0;
	}
	if (mkdir_p(sub)) {
		rc = -errno;
		fprintf(stderr, "ffroute route: %s: %s\n", sub, strerror(-rc));
		return rc;
	}
	for (unsigned i = 0; !rc && i < NFILES; i++) {
		if (!want[i]) {
			snprintf(path[i], sizeof(path[i]), "%s/%s", sub, files[i].name);
			remove(path[i]);
			path[i][0] = '\0';
			continue;
		}
		rc = write_one(sub, files[i].name, b->t, &bo, files[i].fn, &of[i], path[i],
			       sizeof(path[i]));
		n = i + 1;
	}
	for (unsigned i = 0; i < n; i++) {
		int err = want[i] && path[i][0] ? cli_out_commit(&of[i], !rc) : 0;

		if (err && !rc)
			rc = err;
	}
	return rc;
}

static int check_dir(const struct route_cli *o)
{
	struct check_input in = { .dir = o->dir, .roles = o->roles };
	struct chk_opts co;
	struct check_run run;
	struct diag_list dl;
	int rc;

	chk_opts_init(&co);
	co.metrics = true;
	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	rc = check_run(&in, &co, &run, &dl);
	diag_print(&dl, stderr);
	diag_free(&dl);
	if (rc)
		return CLI_ERROR;
	rc = o->json ? report_json(&run, stdout) : report_text(&run, stdout);
	rc = rc ? CLI_ERROR : chk_hard_findings(&run.r) ? CLI_FINDINGS : CLI_OK;
	check_run_free(&run);
	return rc;
}

static unsigned classes_sls(const struct route_out *ro)
{
	unsigned m = 0;

	for (unsigned k = 0; k < ro->tcs.n; k++)
		m |= ro->tc_sls[k];
	return m;
}

/* What was routed, on stderr: the summary line (not with -q), and the concessions. */
static void summary(const struct route_cli *o, const struct topo *t, const struct route_out *ro)
{
	if (!o->quiet)
		fprintf(stderr, "ffroute route: %u switches, %u LIDs: %llu routes, %u VL%s, "
			"%llu switch turn routes, %u LIDs rooted, tree digits in %u zone%s "
			"(%u with overload left), shifts refined in %u zone%s (%u entries), "
			"%.3f s -> %s\n",
			t->nswitches, t->max_lid, (unsigned long long)ro->routes, ro->nvls,
			ro->nvls > 1 ? "s" : "", (unsigned long long)ro->turn_routes,
			ro->rooted_lids, ro->tree_zones, ro->tree_zones == 1 ? "" : "s",
			ro->tree_left, ro->shift_zones, ro->shift_zones == 1 ? "" : "s",
			ro->shift_moved, ro->seconds, o->dir);
	if (!o->quiet && ro->tcs.n)
		fprintf(stderr, "ffroute route: %u traffic classes x %u VL%s of deadlock layers: "
			"%u VLs, SLs 0x%04x (DIR/ffroute.vlarb)\n", ro->tcs.n, ro->layer_vls,
			ro->layer_vls == 1 ? "" : "s", ro->nvls, classes_sls(ro));
	if (ro->single_order)
		fprintf(stderr, "ffroute route: %u VL%s, too few for this fabric's VL "
			"layers: every LID routed up*/down* in one order instead (no credit "
			"loop, but %llu zone-rule findings: routes that detour through another "
			"zone, and a hot root)\n", o->ro.vl_limit, o->ro.vl_limit == 1 ? "" : "s",
			(unsigned long long)ro->zone_detours);
	if (!o->quiet && ro->incremental)
		fprintf(stderr, "ffroute route: incremental: %u LIDs keep the base's routes, "
			"%u patched where they met a fault, %u re-routed (this pass routed %u)\n",
			ro->kept_lids, ro->patched_lids, ro->rerouted_lids, ro->pass_lids);
	else if (!o->quiet && !o->verbose && o->ro.base)	/* -v: the engine said so */
		fprintf(stderr, "ffroute route: routed from scratch: %s\n", ro->mode_why);
	if (ro->rails_given_up)
		fprintf(stderr, "ffroute route: rail isolation could not be kept: %llu "
			"rail finding(s) accepted; routes still avoid other rails' leaves "
			"where they can\n", (unsigned long long)ro->rail_findings);
	if (ro->rate_findings)
		fprintf(stderr, "ffroute route: warning: %llu endpoint pair(s) routed slower "
			"than a path as short runs, or through a low-speed subtree (`ffroute "
			"check` lists them)\n", (unsigned long long)ro->rate_findings);
}

/*
 * With a base: the jobs that started or changed since it
 * (chk_jobs_changed(), the base's DIR/ffroute.jobs against --jobs; none
 * on either side is no job): their CAs' LIDs take this pass's routes
 * (*@force), every other keeps the base's.  The same jobs, or only some
 * ended: no *@force (the base's routes stay valid).  0 or -ENOMEM.
 */
static int jobs_changed(const struct route_cli *o, const struct chk_jobs *was,
			const struct topo *tw, const struct chk_jobs *now, const struct topo *t,
			uint8_t **force)
{
	int n;

	if (!(*force = calloc((size_t)t->max_lid + 2, 1)))
		return -ENOMEM;
	n = chk_jobs_changed(was, tw, now, t, *force);
	if (n <= 0 || !memchr(*force, 1, (size_t)t->max_lid + 1)) {	/* none, or only ended */
		free(*force);
		*force = NULL;
		return n < 0 ? n : 0;
	}
	if (o->verbose)
		fprintf(stderr, "ffroute route: %d job(s) changed since the base: their CAs "
			"take this pass's routes, every other LID keeps the base's\n", n);
	return 0;
}

/* What cmd_route() loads before routing; inputs_free() releases any part of it. */
struct route_inputs {
	struct cls_overrides ov;
	struct route_slot *prev;	/* --previous: the places */
	struct route_base base;		/* ... and its base, unless --no-incremental */
	struct route_out base_out;
	struct chk_jobs jobs, bjobs;	/* --jobs; the base's */
	uint8_t *force;			/* the LIDs of the jobs that changed */
	struct topo *t;
};

static void inputs_free(struct route_inputs *in)
{
	topo_free(in->t);
	cls_overrides_free(&in->ov);
	free(in->prev);
	free_base(&in->base, &in->base_out);
	chk_jobs_free(&in->jobs);
	chk_jobs_free(&in->bjobs);
	free(in->force);
}

/* The fabric, its LIDs assigned, and what the options name, into @in and @o->ro; 0 or CLI_ERROR (said). */
static int load_inputs(struct route_cli *o, struct route_inputs *in)
{
	uint32_t nolid, all;
	int rc = 0;

	if (o->roles && cli_load_overrides(o->roles, &in->ov))
		return CLI_ERROR;
	if (o->classes) {
		if (cli_load_classes(o->classes, o->tc, &o->ro.ntc))
			return CLI_ERROR;
		o->ro.tc = o->tc;
		if (!o->vl_given)
			o->ro.vl_limit = 8;
	}
	if (o->previous && (cli_load_slots(o->previous, &in->prev, &o->ro.nslots) ||
			    (!o->no_incremental &&
			     load_base(o->previous, &in->base, &in->base_out, &in->bjobs))))
		return CLI_ERROR;
	o->ro.slots = in->prev;
	o->ro.base = in->base.t ? &in->base : NULL;
	if (o->no_incremental && o->verbose)
		fprintf(stderr, "ffroute route: routed from scratch: --no-incremental\n");
	in->t = cli_load_topo(o->fabric, o->fmt, NULL);
	nolid = in->t ? no_lid(in->t, &all) : 0;
	if (nolid && nolid < all)	/* a dump taken before an SM gave every port a LID */
		fprintf(stderr, "ffroute route: %s: warning: %u of %u end ports have no LID (lid 0); "
			"they get LIDs from %u on, which an SM would not give them: route a dump "
			"taken after the SM's sweep\n", o->fabric, nolid, all, in->t->max_lid + 1);
	if (!in->t || (rc = topo_assign_lids(in->t, o->lmc))) {
		if (rc == -ENOSPC)
			fprintf(stderr, "ffroute route: %s: cannot assign LIDs: LMC %u needs %u LIDs "
				"per end port (%u end ports, %u switches); only %u unicast LIDs "
				"exist\n", o->fabric, o->lmc, 1u << o->lmc, end_ports(in->t),
				in->t->nswitches, TOPO_MAX_UCAST_LID);
		else if (in->t)
			fprintf(stderr, "ffroute route: %s: cannot assign LIDs: %s\n", o->fabric,
				strerror(-rc));
		return CLI_ERROR;
	}
	o->ro.log = log_stderr;
	o->ro.log_ctx = &o->verbose;
	if (o->roles)
		warn_overrides(in->t, &in->ov, o->roles);
	if ((o->jobs && cli_load_jobs(o->jobs, in->t, &in->jobs)) ||
	    (in->base.t && jobs_changed(o, &in->bjobs, in->base.t, &in->jobs, in->t, &in->force)))
		return CLI_ERROR;
	o->ro.jobs = o->jobs ? &in->jobs : NULL;
	o->ro.force_lids = in->force;
	return 0;
}

int cmd_route(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct route_cli o;
	struct route_inputs in = { 0 };
	struct route_out ro;
	struct cls c;
	int rc = parse(cmd, argc, argv, &o);

	if (rc)
		return rc < 0 ? CLI_OK : rc;
	if ((rc = load_inputs(&o, &in))) {
		inputs_free(&in);
		return rc;
	}
	if ((rc = cls_classify(in.t, &in.ov, &c))) {
		fprintf(stderr, "ffroute route: %s\n", strerror(-rc));
		rc = CLI_ERROR;
	} else {
		if (route_run(in.t, &c, &o.ro, &ro)) {
			rc = CLI_FINDINGS;	/* refused: the reason was logged */
		} else {
			rc = write_all(o.dir, in.t, &ro, o.ibroute, o.no_dump ? DUMP_NONE :
				   o.compact ? DUMP_COMPACT : DUMP_FULL) ||
			     write_base(o.dir, &in.base, &ro) ||
			     write_jobs(o.dir, "", o.ro.jobs, in.t) ||
			     write_jobs(o.dir, "/base", ro.base_in_force ? &in.bjobs : NULL, in.base.t)
				     ? CLI_ERROR : CLI_OK;
			if (!rc)
				summary(&o, in.t, &ro);
			route_out_free(&ro);
		}
		cls_free(&c);
	}
	inputs_free(&in);
	if (rc == CLI_OK && o.check)
		rc = check_dir(&o);
	return rc;
}
