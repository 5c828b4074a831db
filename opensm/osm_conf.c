// SPDX-License-Identifier: BSD-2-Clause
/*
 * osm_conf.c - the plugin's configuration file and its per-sweep dump.
 *
 * ffroute.conf (path in OpenSM's event_plugin_options), one setting per
 * line, '#' comments:
 *   vl_limit N                 data VLs the routing may use (1..15, default 2;
 *                              8 with class lines)
 *   class NAME sl N [weight W] [roles R,..] [high] [default]
 *                              a traffic class on SLs and VLs of its own
 *                              (route_tc.c); one line per class
 *   rail_isolation auto|on|off default auto (on when rails are found, unless refused)
 *   class_weights C,S,O        all-class tie-break weights (default 0,0,0: off)
 *   tree_digits on|off         search D-mod-K digits for HFReduce's tree (default on)
 *   shift_refine on|off        degraded two-level zones: leaf entries for shifts (default on)
 *   threads auto|1|2           engine threads (default auto: 2 when 2 CPUs are online)
 *   non_tree decline|route     a torus, a dragonfly (default decline: the next engine)
 *   incremental on|off         faults merged into the base (default on); off: every
 *                              pass from scratch, each the new base
 *   roles FILE                 classification overrides (see ffroute(1))
 *   jobs FILE                  the running jobs (read at every heavy sweep)
 * A bad line is an error (ERR RE08 file:line:col) and the plugin does not
 * load, so OpenSM routes with its next engine rather than with settings
 * the operator did not mean.  A file that cannot be read (a folder, an
 * I/O error) is an error too; lines are whole lines, however long.  A
 * relative roles path is taken from ffroute.conf's folder.  At each heavy
 * sweep a changed ffroute.conf or roles file is read again; a bad edit
 * keeps the settings in force (ERR RE08, once per edit).
 */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ffroute/io.h>

#include "osm_ffroute.h"

static int conf_error(struct osm_opensm *osm, const char *path, unsigned line, unsigned col,
		      const char *msg, const char *arg)
{
	char safe[160];

	ffr_sanitize(arg ? arg : "", safe, sizeof(safe));
	OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR RE08: ffroute: %s:%u:%u: error: %s%s%s\n", path, line,
		col, msg, arg ? " " : "", safe);
	return -1;
}

/* What @path looks like (device, inode, size, mtime): a change means "read it again". */
static void file_sig(const char *path, char *sig, size_t size)
{
	struct stat st;

	if (!path || stat(path, &st))
		snprintf(sig, size, "-");
	else
		snprintf(sig, size, "%llu:%llu:%lld:%lld.%09ld", (unsigned long long)st.st_dev,
			 (unsigned long long)st.st_ino, (long long)st.st_size,
			 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

/* @val relative to the folder of @conf_path (OpenSM's working folder is nobody's choice). */
static char *resolve(const char *conf_path, const char *val)
{
	const char *slash = strrchr(conf_path, '/');
	size_t dl = slash ? (size_t)(slash - conf_path) + 1 : 0;
	char *out;

	if (val[0] == '/' || !dl)
		return strdup(val);
	out = malloc(dl + strlen(val) + 1);
	if (out) {
		memcpy(out, conf_path, dl);
		strcpy(out + dl, val);
	}
	return out;
}

static int load_roles(struct osm_opensm *osm, const char *path, unsigned ln, unsigned col,
		      const char *val, struct ffr_conf *conf)
{
	struct diag_list dl;
	char *buf, msg[DIAG_MSG_MAX + 512];
	size_t len;
	int rc;

	if (conf->have_roles)
		return conf_error(osm, path, ln, col, "a second roles line:", val);
	free(conf->roles_path);
	conf->roles_path = resolve(path, val);
	if (!conf->roles_path)
		return conf_error(osm, path, ln, col, "out of memory", NULL);
	file_sig(conf->roles_path, conf->sig[1], sizeof(conf->sig[1]));	/* before reading */
	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	rc = ffr_load_file(conf->roles_path, &buf, &len, &dl);
	if (!rc) {
		rc = cls_overrides_read(buf, len, conf->roles_path, &conf->roles, &dl);
		free(buf);
	}
	if (rc)
		conf_error(osm, path, ln, col, "cannot use the roles file", conf->roles_path);
	for (unsigned i = 0; i < dl.n; i++) {
		diag_format(&dl.v[i], msg, sizeof(msg));
		OSM_LOG(&osm->log, dl.v[i].level == DIAG_ERROR ? OSM_LOG_ERROR : OSM_LOG_INFO,
			"%sffroute: %s\n", dl.v[i].level == DIAG_ERROR ? "ERR RE08: " : "", msg);
	}
	diag_free(&dl);
	conf->have_roles = !rc;
	return rc ? -1 : 0;
}

/* "class NAME sl N ...": the text after "class" (at column @at). */
static int conf_class(struct osm_opensm *osm, const char *path, unsigned ln, const char *line,
		      unsigned at, struct ffr_conf *conf)
{
	char err[160];
	unsigned col = 0;

	if (conf->ntc == CHK_TC_MAX)
		return conf_error(osm, path, ln, 1, "more than 8 class lines", NULL);
	if (route_tclass_parse(line + at, &conf->tc[conf->ntc], &col, err, sizeof(err)))
		return conf_error(osm, path, ln, at + col + 1, err, NULL);
	conf->ntc++;
	if (route_tclasses_valid(conf->tc, conf->ntc, err, sizeof(err)))
		return conf_error(osm, path, ln, 1, err, NULL);
	return 0;
}

static int conf_line(struct osm_opensm *osm, const char *path, unsigned ln, char *line,
		     struct ffr_conf *conf)
{
	char key[64], val[4096], extra[8];
	unsigned long v;
	char *end;
	int n, vcol;

	line[strcspn(line, "#\r")] = '\0';
	n = sscanf(line, "%63s%n", key, &vcol);
	if (n == 1 && !strcmp(key, "class"))
		return conf_class(osm, path, ln, line, (unsigned)vcol, conf);
	n = sscanf(line, "%63s %4095s%n %7s", key, val, &vcol, extra);
	if (n <= 0)
		return 0;
	if (n != 2)
		return conf_error(osm, path, ln, 1, n == 1 ? "expected a value after" :
				  "unexpected text after the value of", key);
	vcol = vcol - (int)strlen(val) + 1;
	if (!strcmp(key, "vl_limit")) {
		v = strtoul(val, &end, 10);
		if (*end || v < 1 || v > 15)
			return conf_error(osm, path, ln, vcol, "vl_limit must be 1..15, not", val);
		conf->vl_limit = (unsigned)v;
	} else if (!strcmp(key, "rail_isolation")) {
		if (!strcmp(val, "auto") || !strcmp(val, "on") || !strcmp(val, "off"))
			conf->rail_isolation = val[0] == 'a' ? -1 : val[1] == 'n';
		else
			return conf_error(osm, path, ln, vcol,
					  "rail_isolation is auto, on or off, not", val);
	} else if (!strcmp(key, "class_weights")) {
		if (route_parse_class_weights(val, conf->class_weight))
			return conf_error(osm, path, ln, vcol,
					  "class_weights is C,S,O (integers 0..1000), not", val);
	} else if (!strcmp(key, "tree_digits")) {
		if (strcmp(val, "on") && strcmp(val, "off"))
			return conf_error(osm, path, ln, vcol, "tree_digits is on or off, not", val);
		conf->tree_digits = val[1] == 'n';
	} else if (!strcmp(key, "shift_refine")) {
		if (strcmp(val, "on") && strcmp(val, "off"))
			return conf_error(osm, path, ln, vcol, "shift_refine is on or off, not", val);
		conf->shift_refine = val[1] == 'n';
	} else if (!strcmp(key, "non_tree")) {
		if (strcmp(val, "decline") && strcmp(val, "route"))
			return conf_error(osm, path, ln, vcol, "non_tree is decline or route, not", val);
		conf->non_tree = val[0] == 'r';
	} else if (!strcmp(key, "incremental")) {
		if (strcmp(val, "on") && strcmp(val, "off"))
			return conf_error(osm, path, ln, vcol, "incremental is on or off, not", val);
		conf->incremental = val[1] == 'n';
	} else if (!strcmp(key, "threads")) {
		if (strcmp(val, "auto") && strcmp(val, "1") && strcmp(val, "2"))
			return conf_error(osm, path, ln, vcol, "threads is auto, 1 or 2, not", val);
		conf->threads = val[0] == 'a' ? 0 : (unsigned)(val[0] - '0');
	} else if (!strcmp(key, "roles")) {
		return load_roles(osm, path, ln, (unsigned)vcol, val, conf);
	} else if (!strcmp(key, "jobs")) {
		if (conf->jobs_path)
			return conf_error(osm, path, ln, vcol, "a second jobs line:", val);
		conf->jobs_path = resolve(path, val);
		if (!conf->jobs_path)
			return conf_error(osm, path, ln, vcol, "out of memory", NULL);
	} else {
		return conf_error(osm, path, ln, 1, "unknown setting", key);
	}
	return 0;
}

/* The lines of @buf (whole lines, however long; NUL bytes are an error). */
static int conf_parse(struct osm_opensm *osm, const char *path, char *buf, size_t len,
		      struct ffr_conf *conf)
{
	unsigned ln = 0;
	int rc = 0;

	for (size_t at = 0; !rc && at < len; ln++) {
		char *line = buf + at, *nl = memchr(line, '\n', len - at);
		size_t n = nl ? (size_t)(nl - line) : len - at;

		if (memchr(line, '\0', n))
			return conf_error(osm, path, ln + 1, (unsigned)(strlen(line) + 1),
					  "binary data (a NUL byte)", NULL);
		line[n] = '\0';
		at += n + 1;
		rc = conf_line(osm, path, ln + 1, line, conf);
	}
	return rc;
}

static void conf_defaults(struct ffr_conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	conf->vl_limit = 0;	/* ffr_conf_vl_limit */
	conf->rail_isolation = -1;
	conf->tree_digits = true;
	conf->shift_refine = true;
	conf->incremental = true;
	snprintf(conf->sig[0], sizeof(conf->sig[0]), "-");
	snprintf(conf->sig[1], sizeof(conf->sig[1]), "-");
}

int ffr_conf_load(struct osm_opensm *osm, const char *path, struct ffr_conf *conf)
{
	struct diag_list dl;
	char *buf, msg[DIAG_MSG_MAX + 512];
	size_t len;
	int rc;

	conf_defaults(conf);
	if (!path || !*path || !strcmp(path, "(null)"))
		return 0;
	conf->path = strdup(path);
	if (!conf->path)
		return conf_error(osm, path, 0, 0, "out of memory", NULL);
	file_sig(path, conf->sig[0], sizeof(conf->sig[0]));
	diag_init(&dl, 1);
	rc = ffr_load_file(path, &buf, &len, &dl);	/* a folder, EIO, a huge file: errors */
	for (unsigned i = 0; i < dl.n; i++) {
		diag_format(&dl.v[i], msg, sizeof(msg));
		OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR RE08: ffroute: %s\n", msg);
	}
	diag_free(&dl);
	if (!rc) {
		rc = conf_parse(osm, path, buf, len, conf);
		free(buf);
	}
	if (rc) {	/* the settings go; what was read stays watched (path, sig) */
		if (conf->have_roles)
			cls_overrides_free(&conf->roles);
		conf->have_roles = false;
		return -1;
	}
	OSM_LOG(&osm->log, OSM_LOG_INFO, "ffroute: configuration %s read\n", path);
	return 0;
}

bool ffr_conf_reload(struct osm_opensm *osm, struct ffr_conf *conf)
{
	const char *path = osm->subn.opt.event_plugin_options;
	char sig[2][sizeof(conf->sig[0])];
	struct ffr_conf next;

	if (path && (!*path || !strcmp(path, "(null)")))
		path = NULL;
	file_sig(path, sig[0], sizeof(sig[0]));
	file_sig(conf->roles_path, sig[1], sizeof(sig[1]));
	if ((path ? conf->path && !strcmp(path, conf->path) : !conf->path) &&
	    !strcmp(sig[0], conf->sig[0]) && !strcmp(sig[1], conf->sig[1]))
		return false;	/* the files last read (or tried) are unchanged */
	if (ffr_conf_load(osm, path, &next)) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR RE08: ffroute: %s changed but cannot be "
			"used: keeping the settings read before\n", path ? path : "(no file)");
		/* keep the settings, watch what was tried: a fix is read, a bad edit logged once */
		free(conf->path);
		free(conf->roles_path);
		conf->path = next.path;
		conf->roles_path = next.roles_path;
		memcpy(conf->sig, next.sig, sizeof(conf->sig));
		return false;
	}
	ffr_conf_free(conf);
	*conf = next;
	OSM_LOG(&osm->log, OSM_LOG_INFO, "ffroute: configuration %s re-read (VL limit %u, "
		"%u traffic classes)\n", path ? path : "(defaults)", ffr_conf_vl_limit(conf),
		conf->ntc);
	return true;
}

unsigned ffr_conf_vl_limit(const struct ffr_conf *conf)
{
	return conf->vl_limit ? conf->vl_limit : conf->ntc ? 8 : 2;
}

void ffr_conf_free(struct ffr_conf *conf)
{
	if (conf->have_roles)
		cls_overrides_free(&conf->roles);
	conf->have_roles = false;
	free(conf->path);
	free(conf->roles_path);
	free(conf->jobs_path);
	conf->path = conf->roles_path = conf->jobs_path = NULL;
}

/* Open @path's temporary (@tmp) in the dump directory; NULL logged (RE09). */
static FILE *dump_open(struct osm_opensm *osm, const char *path, char *tmp, size_t size)
{
	FILE *fp;

	snprintf(tmp, size, "%s.tmp", path);
	fp = fopen(tmp, "w");
	if (!fp)
		OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR RE09: ffroute: %s: %s\n", tmp, strerror(errno));
	return fp;
}

/* Close and rename into place; on any failure (@rc too) logged, and nothing left. */
static int dump_commit(struct osm_opensm *osm, FILE *fp, int rc, const char *tmp,
		       const char *path)
{
	if (fclose(fp) || rc || rename(tmp, path)) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR RE09: ffroute: cannot write %s\n", path);
		remove(tmp);
		return -1;
	}
	return 0;
}

void ffr_dump_sl(struct osm_opensm *osm, const struct topo *t, const struct route_out *out)
{
	const char *dir = osm->subn.opt.dump_files_dir;
	char path[4096], tmp[4200];
	FILE *fp;
	int rc;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/ffroute.sl", dir);
	if (!out || out->nvls < 2) {	/* one VL, or another engine's tables */
		if (remove(path) && errno != ENOENT)
			OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR RE09: ffroute: cannot remove the "
				"stale %s: %s\n", path, strerror(errno));
		return;
	}
	fp = dump_open(osm, path, tmp, sizeof(tmp));
	if (!fp) {
		remove(path);
		return;
	}
	rc = sl_write(t, out->sl, out->sl_group, out->ngroups, out->tcs.n ? &out->tcs : NULL,
		      lft_digest(t, out->lft, osm->subn.max_ucast_lid_ho), fp);
	if (dump_commit(osm, fp, rc, tmp, path))
		remove(path);	/* never SLs of other tables */
}

int ffr_jobs_load(struct osm_opensm *osm, const char *path, const struct topo *t,
		  struct chk_jobs *jobs, uint64_t *digest)
{
	struct diag_list dl;
	char *buf, msg[DIAG_MSG_MAX + 512];
	size_t len;
	int rc;

	*digest = 0;
	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	rc = ffr_load_file(path, &buf, &len, &dl);
	if (!rc) {
		rc = chk_jobs_read(buf, len, path, t, CHK_JOBS_LENIENT, jobs, &dl);
		*digest = 0xcbf29ce484222325ull;	/* FNV-1a of the file as written */
		for (size_t i = 0; i < len; i++)
			*digest = (*digest ^ (uint8_t)buf[i]) * 0x100000001b3ull;
		free(buf);
	}
	for (unsigned i = 0; i < dl.n; i++) {
		diag_format(&dl.v[i], msg, sizeof(msg));
		if (dl.v[i].level == DIAG_ERROR)
			OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR RE08: ffroute: %s\n", msg);
		else
			OSM_LOG(&osm->log, OSM_LOG_VERBOSE, "ffroute: %s\n", msg);
	}
	diag_free(&dl);
	if (rc)
		OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR RE08: ffroute: the jobs file %s cannot be "
			"used: this pass routes as if no job ran\n", path);
	return rc;
}

void ffr_slots_load(struct osm_opensm *osm, struct route_slot **slots, uint32_t *n)
{
	const char *dir = osm->subn.opt.dump_files_dir;
	struct diag_list dl;
	char path[4096];
	char *buf;
	size_t len;

	*slots = NULL;
	*n = 0;
	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/ffroute.slots", dir);
	if (access(path, F_OK))
		return;	/* a first start: every CA present takes its place */
	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	if (!ffr_load_file(path, &buf, &len, &dl)) {
		if (slots_read(buf, len, path, slots, n, &dl))
			*slots = NULL, *n = 0;
		free(buf);
	}
	for (unsigned i = 0; i < dl.n; i++) {
		char msg[DIAG_MSG_MAX + 300];

		diag_format(&dl.v[i], msg, sizeof(msg));
		OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR RE09: ffroute: %s (the places of CAs that "
			"went away are forgotten)\n", msg);
	}
	diag_free(&dl);
}

void ffr_slots_save(struct osm_opensm *osm, const struct route_slot *slots, uint32_t n)
{
	const char *dir = osm->subn.opt.dump_files_dir;
	char path[4096], tmp[4200];
	FILE *fp;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/ffroute.slots", dir);
	fp = dump_open(osm, path, tmp, sizeof(tmp));
	if (fp)	/* on failure the last run's places stay */
		dump_commit(osm, fp, slots_write(slots, n, fp), tmp, path);
}
