/* SPDX-License-Identifier: BSD-2-Clause */
/* osm_ffroute.h - the OpenSM adapter's internal interface */
#ifndef FFROUTE_OSM_FFROUTE_H
#define FFROUTE_OSM_FFROUTE_H

#include <stdbool.h>
#include <stddef.h>

#include <ffroute/class.h>
#include <ffroute/diag.h>
#include <ffroute/route.h>
#include <ffroute/topo.h>

struct osm_opensm;

/* ffroute.conf, named by OpenSM's event_plugin_options (osm_conf.c). */
struct ffr_conf {
	unsigned vl_limit;		/* most data VLs (0: default, 2; 8 with classes) */
	struct route_tclass tc[CHK_TC_MAX];	/* class lines: traffic classes */
	unsigned ntc;
	int rail_isolation;		/* -1 auto, 0 off, 1 on */
	unsigned class_weight[3];	/* compute, storage, other (default 0,0,0) */
	bool tree_digits;		/* route_opts.tree_digits (default true) */
	bool shift_refine;		/* route_opts.shift_refine (default true) */
	unsigned threads;		/* route_opts.threads (default 0: auto) */
	bool non_tree;			/* route_opts.non_tree (default false: decline) */
	bool incremental;		/* keep a base and merge faults into it (default true) */
	bool have_roles;
	struct cls_overrides roles;	/* classification overrides */
	char *path;			/* ffroute.conf as named (NULL: defaults) */
	char *roles_path;		/* the roles file, resolved against path's folder */
	char *jobs_path;		/* the jobs file, read at every pass (NULL: none) */
	char sig[2][96];		/* ffroute.conf and roles before they were read */
};

/**
 * ffr_osm_topo - build a struct topo from OpenSM's subnet (lock held)
 * Return: the fabric, or NULL with errno set (problems recorded in @dl).
 */
struct topo *ffr_osm_topo(struct osm_opensm *osm, struct diag_list *dl);
/**
 * ffr_osm_data_vls - the data VLs OpenSM will let every link use (1 when
 * qos is FALSE); @why names the limit (the option or the port).
 */
unsigned ffr_osm_data_vls(struct osm_opensm *osm, char *why, size_t size);
/**
 * ffr_osm_vlarb_cap - the fewest VL arbitration entries of any cabled port
 * (low and high tables); @why names that port
 */
void ffr_osm_vlarb_cap(struct osm_opensm *osm, unsigned *low, unsigned *high, char *why,
		       size_t size);
/** ffr_conf_vl_limit - the VL limit in force: vl_limit, else 2 (8 with classes) */
unsigned ffr_conf_vl_limit(const struct ffr_conf *conf);
/**
 * ffr_conf_load - read ffroute.conf at @path (NULL or empty: defaults);
 * errors are logged as "ERR RE08: file:line:col: ...".  Return: 0 or -1
 * (the settings are dropped, the files read stay named in @conf: free it
 * with ffr_conf_free either way).
 */
int ffr_conf_load(struct osm_opensm *osm, const char *path, struct ffr_conf *conf);
/**
 * ffr_conf_reload - at a heavy sweep: when ffroute.conf (or the path in
 * event_plugin_options) or its roles file changed since it was read, read
 * it again; a bad edit keeps the settings in force (ERR RE08, once per
 * edit).  Return: true when the settings changed.
 */
bool ffr_conf_reload(struct osm_opensm *osm, struct ffr_conf *conf);
void ffr_conf_free(struct ffr_conf *conf);
/**
 * ffr_dump_sl - write ffroute.sl into OpenSM's dump directory when VLs are
 * used; remove it when they are not or @out is NULL (the pass failed and
 * another engine's tables are in force), so it always describes the tables
 * in force or is absent.
 */
void ffr_dump_sl(struct osm_opensm *osm, const struct topo *t, const struct route_out *out);
/**
 * ffr_slots_load - the places of CAs (route_slots) kept in OpenSM's dump
 * directory by an earlier run, so a restart keeps the ranks; none when the
 * file is absent or bad (logged, RE09).
 */
void ffr_slots_load(struct osm_opensm *osm, struct route_slot **slots, uint32_t *n);
/**
 * ffr_jobs_load - the jobs file at @path for @t (unknown hosts left out,
 * logged) and a digest of the file as written (a host that is down does
 * not change it); errors logged (RE08).  Return: 0, or -errno (no jobs).
 */
int ffr_jobs_load(struct osm_opensm *osm, const char *path, const struct topo *t,
		  struct chk_jobs *jobs, uint64_t *digest);
/** ffr_slots_save - write them there (ffroute.slots) after a successful pass */
void ffr_slots_save(struct osm_opensm *osm, const struct route_slot *slots, uint32_t n);

#endif
