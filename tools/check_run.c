// SPDX-License-Identifier: BSD-2-Clause
/*
 * check_run.c - load one routing (directory, explicit files or live MADs),
 * classify the fabric, run the findings and metrics, and print the report
 * as text or JSON.  Shared by `ffroute check` and `ffroute diff`.
 *
 * Input discovery in a directory, first match wins:
 *   1. OpenSM dumps: opensm-subnet.lst + opensm-lfts.dump (or opensm.fdbs
 *      when there is no opensm-lfts.dump); opensm-sl2vl.dump when present
 *   2. ibdiagnet2: ibdiagnet2.lst + ibdiagnet2.fdbs; ibdiagnet2.db_csv when
 *      present (the .lst holds only legacy speeds; see apply_db_csv())
 *   3. ibdiagnet v1: ibdiagnet.lst + ibdiagnet.fdbs
 *   4. `ffroute route --no-lfts-dump`'s: fabric.topo + ffroute.lftb when
 *      there is no opensm-lfts.dump (+ opensm-sl2vl.dump, ffroute.sl)
 *   5. anything else (e.g. written by `ffroute route`): exactly one
 *      topology file (*.lst, *.topo, *.net) and exactly one table file
 *      (*.dump, *.lfts, *.fdbs) in the directory, formats detected from the
 *      contents; several candidates of a kind is an error naming them.
 * Explicit --topo/--lft/--sl2vl/--db-csv files override what the directory
 * gives; a directory's db_csv is used only with the directory's .lst.
 *
 * No OpenSM dump holds the SL each route uses (OpenSM hands path SLs out
 * in SA path records only).  ffroute's engine writes them as ffroute.sl
 * (found in the directory, or --sl); with it and an SL2VL table, credit
 * loops are judged per VL.  Without an SL dump every path uses SL 0: the
 * VL is SL2VL[port][0] (VL 0 when no SL2VL is given either).
 *
 * Output is deterministic: findings in kind order, metrics in the order
 * they were computed, numbers as integers or %.6g.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "report.h"

#define PATH_LEN 4096

/* What a directory holds (paths malloc'd, NULL = none). */
struct found {
	char *topo, *lft, *sl2vl, *db_csv, *sl;
};

static void found_free(struct found *f)
{
	free(f->topo);
	free(f->lft);
	free(f->sl2vl);
	free(f->sl);
	free(f->db_csv);
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static bool is_file(const char *dir, const char *name)
{
	char *p = join(dir, name);
	struct stat st;
	bool ok = p && !stat(p, &st) && S_ISREG(st.st_mode);

	free(p);
	return ok;
}

static bool ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), k = strlen(suf);

	return n > k && !strcmp(s + n - k, suf);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The only file of @dir ending in one of @suf; errors name the candidates. */
static int only_file(const char *dir, const char *const *suf, const char *what, char **out,
		     struct diag_list *dl)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *names[8];
	unsigned n = 0, total = 0;
	int rc = 0;

	if (!d) {
		diag_add(dl, DIAG_ERROR, dir, 0, 0, "cannot read the directory: %s",
			 strerror(errno));
		return -EINVAL;
	}
	while ((e = readdir(d)) != NULL) {
		bool match = false;

		for (unsigned i = 0; suf[i]; i++)
			match = match || ends_with(e->d_name, suf[i]);
		if (!strcmp(e->d_name, "opensm-sl2vl.dump"))
			match = false;	/* an SL2VL table, not forwarding tables */
		if (!match || !is_file(dir, e->d_name))
			continue;
		if (n < 8 && !(names[n] = strdup(e->d_name))) {
			rc = -ENOMEM;
			break;
		}
		n += n < 8;
		total++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	if (!rc && total == 1) {
		*out = join(dir, names[0]);
		rc = *out ? 0 : -ENOMEM;
	} else if (!rc && !total) {
		diag_add(dl, DIAG_ERROR, dir, 0, 0, "no %s file (*%s, *%s, *%s) in the directory", what,
			 suf[0], suf[1], suf[2]);
		rc = -EINVAL;
	} else if (!rc) {
		char list[512] = "";

		for (unsigned i = 0; i < n; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? ", " : "", names[i]);
		diag_add(dl, DIAG_ERROR, dir, 0, 0, "%u %s files (%s%s): say which with --%s",
			 total, what, list, total > n ? ", ..." : "",
			 strcmp(what, "topology") ? "lft" : "topo");
		rc = -EINVAL;
	}
	for (unsigned i = 0; i < n; i++)
		free(names[i]);
	return rc;
}

/* Fill what @dir gives; only the kinds that @need_topo / @need_lft ask for must be unique. */
static int find_inputs(const char *dir, bool need_topo, bool need_lft, struct found *f,
		       struct diag_list *dl)
{
	static const char *const known[][2] = {
		{ "opensm-subnet.lst", "opensm-lfts.dump" },
		{ "opensm-subnet.lst", "opensm.fdbs" },
		{ "ibdiagnet2.lst", "ibdiagnet2.fdbs" },
		{ "ibdiagnet.lst", "ibdiagnet.fdbs" },
	};
	static const char *const tsuf[] = { ".lst", ".topo", ".net", NULL };
	static const char *const lsuf[] = { ".dump", ".lfts", ".fdbs", NULL };
	struct stat st;
	int rc = 0;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		diag_add(dl, DIAG_ERROR, dir, 0, 0, "not a directory");
		return -EINVAL;
	}
	for (unsigned i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (is_file(dir, known[i][0]) && is_file(dir, known[i][1])) {
			f->topo = join(dir, known[i][0]);
			f->lft = join(dir, known[i][1]);
			if (i < 2 && is_file(dir, "opensm-sl2vl.dump"))
				f->sl2vl = join(dir, "opensm-sl2vl.dump");
			if (i < 2 && is_file(dir, "ffroute.sl"))
				f->sl = join(dir, "ffroute.sl");
			if (i == 2 && is_file(dir, "ibdiagnet2.db_csv") &&
			    !(f->db_csv = join(dir, "ibdiagnet2.db_csv")))
				return -ENOMEM;
			return f->topo && f->lft ? 0 : -ENOMEM;
		}
	if (is_file(dir, "fabric.topo") && is_file(dir, "ffroute.lftb") &&
	    !is_file(dir, "opensm-lfts.dump")) {	/* route --no-lfts-dump */
		f->topo = join(dir, "fabric.topo");
		f->lft = join(dir, "ffroute.lftb");
		if (!f->topo || !f->lft)
			return -ENOMEM;
	} else {
		rc = need_topo ? only_file(dir, tsuf, "topology", &f->topo, dl) : 0;
		if (!rc && need_lft)
			rc = only_file(dir, lsuf, "forwarding-table", &f->lft, dl);
	}
	if (!rc && is_file(dir, "opensm-sl2vl.dump") && !(f->sl2vl = join(dir, "opensm-sl2vl.dump")))
		rc = -ENOMEM;
	if (!rc && is_file(dir, "ffroute.sl") && !(f->sl = join(dir, "ffroute.sl")))
		rc = -ENOMEM;
	return rc;
}

/* ---- loading ---------------------------------------------------------------- */

static int load_text(const char *path, char **buf, size_t *len, struct diag_list *dl)
{
	return ffr_load_file(path, buf, len, dl);
}

static int load_extras(const struct check_input *in, const char *sl2vl, const char *sl,
		       struct check_run *run, struct diag_list *dl)
{
	char *buf;
	size_t len;
	int rc = 0;

	if (in->roles && !(rc = load_text(in->roles, &buf, &len, dl))) {
		rc = cls_overrides_read(buf, len, in->roles, &run->roles, dl);
		free(buf);
		if (!rc)
			cls_overrides_check(run->t, &run->roles, in->roles, dl);
	}
	if (!rc && in->job && !(rc = load_text(in->job, &buf, &len, dl))) {
		rc = chk_job_read(buf, len, in->job, run->t, &run->job, &run->njob, dl);
		free(buf);
	}
	if (!rc && sl2vl && !(rc = load_text(sl2vl, &buf, &len, dl))) {
		rc = chk_sl2vl_read(buf, len, sl2vl, run->t, &run->sl2vl, &run->vlx, dl);
		free(buf);
	}
	if (!rc && sl && !(rc = load_text(sl, &buf, &len, dl))) {
		uint64_t want = 0, have;

		rc = sl_read(buf, len, sl, run->t, &run->sl, &run->sl_group, &run->sl_ngroups,
			     &run->tcs, &want, dl);
		free(buf);
		have = rc ? 0 : lft_digest(run->t, run->l, UINT32_MAX);
		if (want && want != have) {	/* a stale ffroute.sl: it would judge other tables */
			diag_add(dl, DIAG_ERROR, sl, 0, 0, "written for other LFTs than %s (digest "
				 "0x%016" PRIx64 ", these LFTs 0x%016" PRIx64 "): a stale dump of "
				 "an earlier pass; its SLs would not judge these tables",
				 run->label, want, have);
			rc = -EINVAL;
		}
	}
	return rc;
}

/*
 * Active link widths and speeds of @t from the ibdiagnet2.db_csv @path.
 * Given with --db-csv (@found false) the file must read cleanly: its
 * errors are errors.  Found in the directory it is a bonus: its errors
 * become warnings, one more warning says the speeds stay as @topo gave
 * them, and the check goes on (the routing itself does not depend on it).
 * Return: 0 when applied, else -errno (-EINVAL: not applied).
 */
static int apply_db_csv(const char *path, bool found, struct topo *t, const char *topo,
			struct diag_list *dl)
{
	struct diag_list own;
	char *buf;
	size_t len;
	int rc;

	diag_init(&own, DIAG_DEFAULT_MAX_ERRORS);
	rc = load_text(path, &buf, &len, found ? &own : dl);
	if (!rc) {
		rc = dbcsv_apply_speeds(t, buf, len, path, found ? &own : dl);
		free(buf);
	}
	for (unsigned i = 0; i < own.n; i++) {
		const struct diag *d = &own.v[i];

		diag_add(dl, d->level == DIAG_ERROR ? DIAG_WARNING : d->level, d->file, d->line,
			 d->col, "%s", d->msg);
	}
	if (rc && found)
		diag_add(dl, DIAG_WARNING, path, 0, 0, "not used: link speeds stay as in %s", topo);
	diag_free(&own);
	return rc;
}

static int load_files(const struct check_input *in, struct check_run *run, const char **sl2vl,
		      struct found *f, struct diag_list *dl)
{
	const char *topo = in->topo, *lft = in->lft;
	const char *db_csv = in->db_csv;
	int rc;

	if (in->dir && (!topo || !lft)) {
		rc = find_inputs(in->dir, !topo, !lft, f, dl);
		if (rc)
			return rc;
		topo = topo ? topo : f->topo;
		lft = lft ? lft : f->lft;
		*sl2vl = in->sl2vl ? in->sl2vl : f->sl2vl;
		db_csv = db_csv ? db_csv : in->topo ? NULL : f->db_csv;
	} else if (in->dir && !in->sl2vl && is_file(in->dir, "opensm-sl2vl.dump")) {
		f->sl2vl = join(in->dir, "opensm-sl2vl.dump");
		if (!f->sl2vl)
			return -ENOMEM;
		*sl2vl = f->sl2vl;
	}
	if (!topo || !lft) {
		diag_add(dl, DIAG_ERROR, topo ? topo : lft ? lft : "check", 0, 0,
			 "need both a topology and forwarding tables");
		return -EINVAL;
	}
	errno = 0;
	run->t = topo_read_file(topo, in->topo ? in->topo_fmt : FFR_FMT_AUTO, dl);
	if (!run->t)
		return errno == ENOMEM ? -ENOMEM : -EINVAL;
	if (db_csv) {
		rc = apply_db_csv(db_csv, !in->db_csv, run->t, topo, dl);
		if (rc && (in->db_csv || rc == -ENOMEM))
			return rc;
		db_csv = rc ? NULL : db_csv;
	}
	errno = 0;
	run->l = lft_read_file(lft, in->lft ? in->lft_fmt : FFR_FMT_AUTO, run->t, dl);
	if (!run->l)
		return errno == ENOMEM ? -ENOMEM : -EINVAL;
	snprintf(run->label, sizeof(run->label), "%s + %s%s%s", topo, lft, db_csv ? " + " : "",
		 db_csv ? db_csv : "");
	return 0;
}

static int load(const struct check_input *in, struct check_run *run, struct diag_list *dl)
{
	struct found f = { NULL, NULL, NULL, NULL, NULL };
	const char *sl2vl = in->sl2vl;
	int rc;

	if (in->live) {
		struct live_vl vl = { 0 };

		rc = live_read(in->ca, in->port, &run->t, &run->l, in->live_vl ? &vl : NULL, dl);
		if (rc)
			return rc;
		if (in->live_vl && !in->sl)	/* no dump holds the paths' SLs */
			diag_add(dl, DIAG_WARNING, "--live-vl", 0, 0, "no --sl: every path judged on "
				 "SL 0, so VL layers show as credit loops; give the plugin's ffroute.sl");
		run->sl2vl = vl.sl2vl;	/* --live-vl: the switches' own */
		run->vlx = vl.vlx;
		run->vlarb = vl.vlarb;
		run->nvlarb = vl.nvlarb;
		if (in->port)
			snprintf(run->label, sizeof(run->label), "live (%s, port %d)",
				 in->ca ? in->ca : "first HCA", in->port);
		else
			snprintf(run->label, sizeof(run->label), "live (%s, first active port)",
				 in->ca ? in->ca : "first HCA");
	} else {
		rc = load_files(in, run, &sl2vl, &f, dl);
	}
	if (!rc && run->l->nsw != run->t->nswitches) {
		diag_add(dl, DIAG_ERROR, run->label, 0, 0, "tables do not match the fabric");
		rc = -EINVAL;
	}
	if (!rc)
		rc = load_extras(in, sl2vl, in->sl ? in->sl : f.sl, run, dl);
	found_free(&f);
	return rc;
}

int check_run(const struct check_input *in, const struct chk_opts *o, struct check_run *run,
	      struct diag_list *dl)
{
	struct chk_opts co = *o;
	int rc;

	memset(run, 0, sizeof(*run));
	rc = load(in, run, dl);
	if (!rc)
		rc = cli_lft_bound(run->t, run->l, run->label, dl);
	if (!rc)
		rc = cls_classify(run->t, &run->roles, &run->c);
	if (!rc)
		rc = chk_report_init(&run->r, run->t->nports);
	if (rc)
		goto out;
	co.sl2vl = run->sl2vl;
	co.vlx = &run->vlx;
	co.sl = run->sl;
	co.sl_group = run->sl_group;
	co.sl_ngroups = run->sl_ngroups;
	co.tcs = run->tcs.n ? &run->tcs : NULL;
	co.job = run->job;
	co.njob = run->njob;
	run->r.seed = o->seed;
	rc = chk_findings(run->t, run->l, &run->c, &co, &run->r);
	if (!rc && o->metrics) {
		rc = chk_metrics(run->t, run->l, &run->c, &co, &run->r);
		if (rc == -ENOSYS)	/* metrics not built in: findings only */
			rc = 0;
	}
	if (rc)
		diag_add(dl, DIAG_ERROR, run->label, 0, 0, "checking failed: %s", strerror(-rc));
out:
	if (rc)
		check_run_free(run);
	return rc;
}

void check_run_free(struct check_run *run)
{
	chk_report_free(&run->r);
	cls_free(&run->c);
	cls_overrides_free(&run->roles);
	free(run->sl2vl);
	chk_vlx_free(&run->vlx);
	free(run->sl);
	free(run->sl_group);
	free(run->job);
	for (uint32_t i = 0; i < run->nvlarb; i++)
		free(run->vlarb[i]);
	free(run->vlarb);
	lft_free(run->l);
	topo_free(run->t);
	memset(run, 0, sizeof(*run));
}

/* ---- summary counts ------------------------------------------------------------ */

struct summary {
	uint32_t with_table, hosts, sharp, links, lids;
	uint32_t roles[CLS_ROLE_COUNT];
	uint32_t levels[4];		/* 0, 1, 2, 3+ */
	uint32_t zone_sw[8], zone_ca[8];
};

static void summarize(const struct check_run *run, struct summary *s)
{
	const struct topo *t = run->t;
	const struct cls *c = &run->c;

	memset(s, 0, sizeof(*s));
	for (uint32_t i = 0; i < t->nswitches; i++)
		s->with_table += run->l->have[i] != 0;
	for (uint32_t n = 0; n < t->nnodes; n++) {
		s->roles[c->role[n] < CLS_ROLE_COUNT ? c->role[n] : CLS_ROLE_OTHER]++;
		if (topo_is_switch(t, n))
			s->levels[c->level[n] > 3 ? 3 : c->level[n]]++;
		else if (t->node_type[n] == TOPO_NODE_CA && topo_is_sharp_an(t, n))
			s->sharp++;
		else if (t->node_type[n] == TOPO_NODE_CA)
			s->hosts++;
		if (c->zone[n] >= 0 && c->zone[n] < 8)
			(topo_is_switch(t, n) ? s->zone_sw : s->zone_ca)[c->zone[n]]++;
	}
	for (uint32_t p = 0; p < t->nports; p++)
		s->links += t->port_remote[p] != TOPO_NONE && t->port_remote[p] > p;
	for (uint32_t lid = 1; lid <= t->max_lid; lid++)
		s->lids += t->lid_port[lid] != TOPO_NONE;
}

/* ---- text ------------------------------------------------------------------------ */

static void print_num(FILE *fp, double v)
{
	if (isnan(v) || isinf(v))
		fputs(isnan(v) ? "n/a" : v > 0 ? "inf" : "-inf", fp);
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		fprintf(fp, "%.0f", v);
	else
		fprintf(fp, "%.6g", v);
}

static void text_class(FILE *fp, const struct check_run *run, const struct summary *s)
{
	const struct cls *c = &run->c;

	fprintf(fp, "classification: %u zone%s, %u rail%s\n", c->nzones, c->nzones == 1 ? "" : "s",
		c->nrails, c->nrails == 1 ? "" : "s");
	fputs("  roles:", fp);
	for (unsigned r = 1; r < CLS_ROLE_COUNT; r++)
		fprintf(fp, " %s %u%s", cls_role_name((enum cls_role)r), s->roles[r],
			r + 1 < CLS_ROLE_COUNT ? "," : "\n");
	fprintf(fp, "  switch levels: leaf %u, spine %u, higher %u, none %u\n", s->levels[1],
		s->levels[2], s->levels[3], s->levels[0]);
	for (uint32_t z = 0; z < c->nzones && z < 8; z++)
		fprintf(fp, "  zone %u: %u switches, %u CAs\n", z, s->zone_sw[z], s->zone_ca[z]);
	if (c->nzones > 8)
		fprintf(fp, "  ... %u more zones\n", c->nzones - 8);
}

int report_text(const struct check_run *run, FILE *fp)
{
	const struct topo *t = run->t;
	const struct chk_report *r = &run->r;
	uint64_t hard = chk_hard_findings(r);
	struct summary s;

	summarize(run, &s);
	fprintf(fp, "input: %s\n", run->label);
	for (uint32_t i = 0; i < run->nvlarb; i++)
		fprintf(fp, "VL arbitration (read live): %s\n", run->vlarb[i]);
	fprintf(fp, "fabric: %u switches (%u with a forwarding table), %u CAs (%u hosts, %u SHARP "
		"aggregation nodes), %u routers, %u links, %u LIDs (highest %u)\n", t->nswitches,
		s.with_table, t->ncas, s.hosts, s.sharp, t->nrouters, s.links, s.lids, t->max_lid);
	text_class(fp, run, &s);
	fprintf(fp, "findings: %llu hard (%s)\n", (unsigned long long)hard,
		hard ? "FAIL" : "PASS");
	for (unsigned k = 0; k < CHK_F_COUNT; k++) {
		const struct chk_finding *f = &r->f[k];

		fprintf(fp, "  %-22s %10llu%s\n", chk_finding_name((enum chk_finding_kind)k),
			(unsigned long long)f->count, f->count && f->hard ? "  hard" : "");
		for (unsigned i = 0; i < f->nex; i++)
			fprintf(fp, "      %s\n", f->ex[i]);
		if (f->nex == CHK_EXAMPLES && f->count > f->nex)
			fprintf(fp, "      ... (%llu in all)\n", (unsigned long long)f->count);
	}
	if (r->nm)
		fputs("metrics:\n", fp);
	for (uint32_t i = 0; i < r->nm; i++) {
		fprintf(fp, "  %-36s ", r->m[i].name);
		print_num(fp, r->m[i].value);
		fputc('\n', fp);
	}
	fprintf(fp, "seed: %llu\n", (unsigned long long)r->seed);
	return ferror(fp) ? -EIO : 0;
}

/* ---- JSON ------------------------------------------------------------------------ */

static void json_num(FILE *fp, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", fp);
	else
		print_num(fp, v);
}

static void json_class(FILE *fp, const struct check_run *run, const struct summary *s)
{
	fprintf(fp, "  \"classification\": {\"zones\": %u, \"rails\": %u, \"roles\": {",
		run->c.nzones, run->c.nrails);
	for (unsigned r = 1; r < CLS_ROLE_COUNT; r++)
		fprintf(fp, "%s\"%s\": %u", r > 1 ? ", " : "", cls_role_name((enum cls_role)r),
			s->roles[r]);
	fprintf(fp, "}, \"switch_levels\": {\"leaf\": %u, \"spine\": %u, \"higher\": %u, "
		"\"none\": %u}},\n", s->levels[1], s->levels[2], s->levels[3], s->levels[0]);
}

static void json_findings(FILE *fp, const struct chk_report *r)
{
	fputs("  \"findings\": {", fp);
	for (unsigned k = 0; k < CHK_F_COUNT; k++) {
		const struct chk_finding *f = &r->f[k];

		fprintf(fp, "%s\n    \"%s\": {\"count\": %llu, \"hard\": %s, \"examples\": [",
			k ? "," : "", chk_finding_name((enum chk_finding_kind)k),
			(unsigned long long)f->count,
			chk_finding_hard(k) ? "true" : "false");
		for (unsigned i = 0; i < f->nex; i++) {
			fputs(i ? ", " : "", fp);
			cli_json_str(fp, f->ex[i]);
		}
		fputs("]}", fp);
	}
	fprintf(fp, "\n  },\n  \"hard_findings\": %llu,\n",
		(unsigned long long)chk_hard_findings(r));
}

int report_json(const struct check_run *run, FILE *fp)
{
	const struct topo *t = run->t;
	const struct chk_report *r = &run->r;
	struct summary s;

	summarize(run, &s);
	fputs("{\n  \"input\": ", fp);
	cli_json_str(fp, run->label);
	for (uint32_t i = 0; i < run->nvlarb; i++) {
		fputs(i ? ", " : ",\n  \"vlarb_live\": [", fp);
		cli_json_str(fp, run->vlarb[i]);
	}
	if (run->nvlarb)
		fputs("]", fp);
	fprintf(fp, ",\n  \"fabric\": {\"switches\": %u, \"switches_with_table\": %u, \"cas\": %u, "
		"\"hosts\": %u, \"sharp_ans\": %u, \"routers\": %u, \"links\": %u, \"lids\": %u, "
		"\"max_lid\": %u},\n", t->nswitches, s.with_table, t->ncas, s.hosts, s.sharp,
		t->nrouters, s.links, s.lids, t->max_lid);
	json_class(fp, run, &s);
	json_findings(fp, r);
	fputs("  \"metrics\": {", fp);
	for (uint32_t i = 0; i < r->nm; i++) {
		fputs(i ? ",\n    " : "\n    ", fp);
		cli_json_str(fp, r->m[i].name);
		fputs(": ", fp);
		json_num(fp, r->m[i].value);
	}
	fprintf(fp, "%s},\n  \"seed\": %llu\n}\n", r->nm ? "\n  " : "",
		(unsigned long long)r->seed);
	return ferror(fp) ? -EIO : 0;
}
