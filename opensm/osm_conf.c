// SPDX-License-Identifier: BSD-2-Clause
/*
 * osm_conf.c - the plugin's configuration file and its per-sweep dump.
 *
 * ffroute.conf (path in OpenSM's event_plugin_options), one setting per
 * line, '#' comments:
 *   vl_limit N                 data VLs the routing may use (1..15, default 2)
 *   rail_isolation auto|on|off default auto (on when rails are found)
 *   class_weights C,S,O        all-class tie-break weights (default 0,0,0: off)
 *   tree_digits on|off         search D-mod-K digits for HFReduce's tree (default on)
 *   shift_refine on|off        degraded two-level zones: leaf entries for shifts (default on)
 *   threads auto|1|2           engine threads (default auto: 2 when 2 CPUs are online)
 *   roles FILE                 classification overrides (see ffroute(1))
 * A bad line is an error (ERR RE08 file:line:col) and the plugin does not
 * load, so OpenSM routes with its next engine rather than with settings
 * the operator did not mean.
 */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/io.h>

#include "osm_ffroute.h"

static int conf_error(struct osm_opensm *osm, const char *path, unsigned line, unsigned col,
		      const char *msg, const char *arg)
{
	OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR RE08: ffroute: %s:%u:%u: error: %s%s%s\n", path, line,
		col, msg, arg ? " " : "", arg ? arg : "");
	return -1;
}

static int load_roles(struct osm_opensm *osm, const char *file, struct ffr_conf *conf)
{
	struct diag_list dl;
	char *buf, msg[DIAG_MSG_MAX + 512];
	size_t len;
	int rc;

	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	rc = ffr_load_file(file, &buf, &len, &dl);
	if (!rc) {
		rc = cls_overrides_read(buf, len, file, &conf->roles, &dl);
		free(buf);
	}
	for (unsigned i = 0; i < dl.n; i++) {
		diag_format(&dl.v[i], msg, sizeof(msg));
		OSM_LOG(&osm->log, dl.v[i].level == DIAG_ERROR ? OSM_LOG_ERROR : OSM_LOG_INFO,
			"%sffroute: %s\n", dl.v[i].level == DIAG_ERROR ? "ERR RE08: " : "", msg);
	}
	diag_free(&dl);
	conf->have_roles = !rc;
	return rc ? -1 : 0;
}

static int conf_line(struct osm_opensm *osm, const char *path, unsigned ln, char *line,
		     struct ffr_conf *conf)
{
	char key[64], val[4096], extra[8];
	unsigned long v;
	char *end;
	int n;

	line[strcspn(line, "#\r\n")] = '\0';
	n = sscanf(line, "%63s %4095s %7s", key, val, extra);
	if (n <= 0)
		return 0;
	if (n != 2)
		return conf_error(osm, path, ln, 1, n == 1 ? "expected a value after" :
				  "unexpected text after the value of", key);
	if (!strcmp(key, "vl_limit")) {
		v = strtoul(val, &end, 10);
		if (*end || v < 1 || v > 15)
			return conf_error(osm, path, ln, 1, "vl_limit must be 1..15, not", val);
		conf->vl_limit = (unsigned)v;
	} else if (!strcmp(key, "rail_isolation")) {
		if (!strcmp(val, "auto") || !strcmp(val, "on") || !strcmp(val, "off"))
			conf->rail_isolation = val[0] == 'a' ? -1 : val[1] == 'n';
		else
			return conf_error(osm, path, ln, 1, "rail_isolation is auto, on or off, not",
					  val);
	} else if (!strcmp(key, "class_weights")) {
		if (route_parse_class_weights(val, conf->class_weight))
			return conf_error(osm, path, ln, 1,
					  "class_weights is C,S,O (integers 0..1000), not", val);
	} else if (!strcmp(key, "tree_digits")) {
		if (strcmp(val, "on") && strcmp(val, "off"))
			return conf_error(osm, path, ln, 1, "tree_digits is on or off, not", val);
		conf->tree_digits = val[1] == 'n';
	} else if (!strcmp(key, "shift_refine")) {
		if (strcmp(val, "on") && strcmp(val, "off"))
			return conf_error(osm, path, ln, 1, "shift_refine is on or off, not", val);
		conf->shift_refine = val[1] == 'n';
	} else if (!strcmp(key, "threads")) {
		if (strcmp(val, "auto") && strcmp(val, "1") && strcmp(val, "2"))
			return conf_error(osm, path, ln, 1, "threads is auto, 1 or 2, not", val);
		conf->threads = val[0] == 'a' ? 0 : (unsigned)(val[0] - '0');
	} else if (!strcmp(key, "roles")) {
		return load_roles(osm, val, conf);
	} else {
		return conf_error(osm, path, ln, 1, "unknown setting", key);
	}
	return 0;
}

int ffr_conf_load(struct osm_opensm *osm, const char *path, struct ffr_conf *conf)
{
	char line[8192];
	unsigned ln = 0;
	FILE *fp;
	int rc = 0;

	memset(conf, 0, sizeof(*conf));
	conf->vl_limit = 2;
	conf->rail_isolation = -1;
	conf->tree_digits = true;
	conf->shift_refine = true;
	if (!path || !*path || !strcmp(path, "(null)"))
		return 0;
	fp = fopen(path, "r");
	if (!fp)
		return conf_error(osm, path, 0, 0, "cannot open:", strerror(errno));
	while (!rc && fgets(line, sizeof(line), fp))
		rc = conf_line(osm, path, ++ln, line, conf);
	fclose(fp);
	if (rc)
		ffr_conf_free(conf);
	else
		OSM_LOG(&osm->log, OSM_LOG_INFO, "ffroute: configuration %s read\n", path);
	return rc;
}

void ffr_conf_free(struct ffr_conf *conf)
{
	if (conf->have_roles)
		cls_overrides_free(&conf->roles);
	conf->have_roles = false;
}

void ffr_dump_sl(struct osm_opensm *osm, const struct topo *t, const struct route_out *out)
{
	const char *dir = osm->subn.opt.dump_files_dir;
	char path[4096], tmp[4200];
	FILE *fp;
	int rc;

	if (out->nvls < 2 || !dir)
		return;
	snprintf(path, sizeof(path), "%s/ffroute.sl", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fp = fopen(tmp, "w");
	if (!fp) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR RE09: ffroute: %s: %s\n", tmp, strerror(errno));
		return;
	}
	rc = sl_write(t, out->sl, out->sl_group, out->ngroups, fp);
	if (fclose(fp) || rc || rename(tmp, path)) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR RE09: ffroute: cannot write %s\n", path);
		remove(tmp);
	}
}
