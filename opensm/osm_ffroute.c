// SPDX-License-Identifier: BSD-2-Clause
/*
 * osm_ffroute.c - OpenSM event plugin that registers the "ffroute" routing
 * engine (OpenSM 3.3.23 external routing engine API) and routes the live
 * subnet with the core engine.
 *
 * Load it with `event_plugin_name ffroute` and select it with
 * `routing_engine ffroute,updn`; `event_plugin_options` may name an
 * ffroute.conf (osm_conf.c).  On every heavy sweep (and the console's
 * reroute), under OpenSM's exclusive lock, ucast_build_fwd_tables():
 *   subnet -> struct topo (osm_topo.c) -> cls_classify -> route_run
 *   (engine + verification) -> every switch's new_lft.
 * Any failure (model, classification, routing, verification, memory)
 * logs why with a stable ERR RE0x id and returns -1 before any new_lft is
 * touched, so OpenSM falls back to the next engine: never a partial table.
 * The result stays as the state path_sl() (SA threads, shared lock,
 * read-only) and update_sl2vl() (qos TRUE) answer from, until the next
 * sweep replaces it; a failed sweep drops it (the next engine's tables are
 * in force, and its SLs with them); destroy() frees it.  Each sweep also
 * writes ffroute.sl into OpenSM's dump directory when VLs are used, so
 * `ffroute check DIR` / `--live --sl` judges what was installed.
 */
#include <opensm/osm_config.h>
#include <opensm/osm_event_plugin.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_qos_policy.h>
#include <opensm/osm_switch.h>
#include <opensm/osm_version.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ffroute/io.h>
#include <ffroute/route.h>

#include "osm_ffroute.h"

#if OSM_EVENT_PLUGIN_INTERFACE_VER != 2
#error "ffroute was written for OpenSM event plugin interface 2"
#endif

/* The routing of the last successful sweep. */
struct ffr_state {
	struct topo *t;
	struct cls c;
	struct route_out out;
	uint16_t sl_used;	/* SLs some route uses; the others are free for QoS */
	uint32_t njobs;		/* jobs of the jobs file it was routed for */
	struct chk_jobs jobs;	/* ... those jobs: a later pass re-routes the CAs of
				 * the ones that changed (chk_jobs_changed()) */
	uint64_t jobs_digest;	/* ... the file as written (0 none): a base serves
				 * only passes with the same jobs file */
	unsigned vl_limit;	/* the VLs it was routed within ... */
	char vl_why[96];	/* ... and what limited them */
};

struct ffr_ctx {
	struct osm_opensm *osm;
	struct ffr_conf conf;
	unsigned passes;
	struct ffr_state *st;	/* NULL until a sweep succeeds */
	struct ffr_state *base;	/* the last pass routed from scratch on a fabric that was
				 * not the base minus something: routes a fault leaves
				 * intact are kept from it (route_incr.c); may be st */
	uint32_t qos_said;	/* the QoS clash last logged (0x10000 | SLs), 0: none */
	bool declined;		/* this pass: not a tree, left to the next engine (RE13) */
	struct route_slot *slots;	/* CAs' places (route_slots.c), kept across passes */
	uint32_t nslots;
	bool slots_read;	/* ffroute.slots of an earlier run was looked for */
	struct route_base base_view;	/* route_opts.base: c->base's fabric and tables */
	bool swept;		/* a heavy sweep's discovery ended since the last pass
				 * (ffr_report()); a pass without one is the console's reroute */
};

/*
 * Entries and 64-LID blocks of @row (0..@max) that differ from what @prev
 * routed for switch @guid: what this pass makes OpenSM send.
 */
static void row_changes(const struct ffr_state *prev, uint64_t guid, const uint8_t *row,
			uint32_t max, unsigned *entries, unsigned *blocks)
{
	uint32_t node = prev ? topo_find_guid(prev->t, guid) : TOPO_NONE;

	for (uint32_t b = 0; b <= max / 64; b++) {
		unsigned diff = 0;

		for (uint32_t lid = b * 64; lid <= max && lid < (b + 1) * 64; lid++) {
			uint8_t e = lid && node != TOPO_NONE ?
				lft_get(prev->out.lft, prev->t->node_sw[node], lid) : LFT_NONE;

			diff += node == TOPO_NONE || (e == LFT_NONE ? OSM_NO_PATH : e) != row[lid];
		}
		*entries += diff;
		*blocks += diff != 0;
	}
}

static void state_free(struct ffr_state *st)
{
	if (!st)
		return;
	route_out_free(&st->out);
	cls_free(&st->c);
	chk_jobs_free(&st->jobs);
	topo_free(st->t);
	free(st);
}

/*
 * @st (NULL: none, after a failed pass) is the state in force; it becomes
 * the base too unless it kept the base in force (the fabric is the base
 * minus something).  A failed pass keeps the base: the next pass may be
 * incremental from it again.
 */
static void set_state(struct ffr_ctx *c, struct ffr_state *st)
{
	struct ffr_state *old = c->st, *old_base = c->base;

	c->st = st;
	if (st && !st->out.base_in_force)
		c->base = st;
	if (old && old != c->st && old != c->base)
		state_free(old);
	if (old_base && old_base != old && old_base != c->base && old_base != c->st)
		state_free(old_base);
}

static void log_diags(struct ffr_ctx *c, const struct diag_list *dl)
{
	char buf[DIAG_MSG_MAX + 512];

	for (unsigned i = 0; i < dl->n; i++) {
		diag_format(&dl->v[i], buf, sizeof(buf));
		if (dl->v[i].level == DIAG_ERROR)
			OSM_LOG(&c->osm->log, OSM_LOG_ERROR, "ERR RE02: ffroute: subnet: %s\n", buf);
		else
			OSM_LOG(&c->osm->log, OSM_LOG_VERBOSE, "ffroute: subnet: %s\n", buf);
	}
}

static void log_core(void *ctx, enum route_log_level lvl, const char *msg)
{
	struct ffr_ctx *c = ctx;

	if (lvl == ROUTE_LOG_ERROR)
		OSM_LOG(&c->osm->log, OSM_LOG_ERROR, "ERR RE05: ffroute: %s\n", msg);
	else
		OSM_LOG(&c->osm->log, OSM_LOG_VERBOSE, "ffroute: %s\n", msg);
}

static int ffr_build_lid_matrices(void *context)
{
	(void)context;
	return 1;	/* OpenSM's own min-hop matrix (multicast, dumps, cache) */
}

/*
 * Whether some port's VL arbitration tables hold fewer entries than the
 * classes have VLs (logged): a VL without an entry is never scheduled.
 */
static bool vlarb_short(struct ffr_ctx *c, const struct ffr_state *st)
{
	uint8_t vl[64], w[64];
	unsigned low, high, nlow, nhigh;
	char why[96];

	ffr_osm_vlarb_cap(c->osm, &low, &high, why, sizeof(why));
	route_vlarb(&st->out, false, vl, w, &nlow);
	route_vlarb(&st->out, true, vl, w, &nhigh);
	if (nlow <= low && nhigh <= high)
		return false;
	OSM_LOG(&c->osm->log, OSM_LOG_ERROR, "ERR RE14: ffroute: traffic classes: %u VLs need "
		"%u low- and %u high-priority VL arbitration entries, %s holds %u and %u: a VL "
		"without an entry is never sent\n", st->out.nvls, nlow, nhigh, why, low, high);
	return true;
}

/*
 * The jobs of this pass (st->jobs, when a jobs file is named and usable)
 * and the base.  When the jobs changed since the base, only the CAs of the
 * jobs that changed (and idle ones the pass moves for them) take new
 * routes (*@force, chk_jobs_changed()); every running job keeps its own.
 */
static void pass_inputs(struct ffr_ctx *c, struct ffr_state *st, struct route_opts *o,
			uint8_t **force)
{
	int n;

	*force = NULL;
	if (c->conf.jobs_path &&
	    !ffr_jobs_load(c->osm, c->conf.jobs_path, st->t, &st->jobs, &st->jobs_digest)) {
		o->jobs = &st->jobs;
		st->njobs = st->jobs.n;
	}
	if (c->base && !c->conf.incremental) {
		OSM_LOG(&c->osm->log, OSM_LOG_INFO, "ffroute: pass %u: incremental off in "
			"ffroute.conf: routed from scratch\n", c->passes);
		return;
	}
	if (c->base && !c->swept) {	/* asked for: the balance of a fabric as it is now */
		OSM_LOG(&c->osm->log, OSM_LOG_INFO, "ffroute: pass %u: OpenSM's reroute (a "
			"pass with no heavy sweep): routed from scratch\n", c->passes);
		return;
	}
	if (c->base && c->osm->subn.coming_out_of_standby) {
		OSM_LOG(&c->osm->log, OSM_LOG_INFO, "ffroute: pass %u: out of standby (another "
			"SM's tables were in force): routed from scratch\n", c->passes);
		return;
	}
	if (!c->base)
		return;
	c->base_view = (struct route_base){ c->base->t, c->base->out.lft, &c->base->out };
	o->base = &c->base_view;
	if (c->base->jobs_digest == st->jobs_digest)
		return;
	*force = calloc((size_t)st->t->max_lid + 2, 1);
	n = *force ? chk_jobs_changed(&c->base->jobs, c->base->t, &st->jobs, st->t, *force)
		   : -ENOMEM;
	if (n <= 0 || !memchr(*force, 1, (size_t)st->t->max_lid + 1)) {	/* only ended */
		free(*force);
		*force = NULL;
	}
	if (n < 0) {
		o->base = NULL;
		OSM_LOG(&c->osm->log, OSM_LOG_INFO, "ffroute: pass %u: the jobs changed (out "
			"of memory comparing them): routed from scratch\n", c->passes);
	} else if (*force) {
		o->force_lids = *force;
		OSM_LOG(&c->osm->log, OSM_LOG_INFO, "ffroute: pass %u: %d job(s) changed: "
			"their CAs (and idle ones the pass moves for them) take new routes, "
			"every other LID keeps its own\n", c->passes, n);
	}
}

/* Model, classify, route and verify the subnet; NULL on any failure (logged). */
static struct ffr_state *route_subnet(struct ffr_ctx *c)
{
	struct ffr_state *st = calloc(1, sizeof(*st));
	struct route_opts o;
	struct diag_list dl;
	char why[sizeof(st->vl_why)];
	unsigned vls = ffr_osm_data_vls(c->osm, why, sizeof(why));
	unsigned limit = ffr_conf_vl_limit(&c->conf);
	uint8_t *force = NULL;
	int rc;

	if (!st) {
		OSM_LOG(&c->osm->log, OSM_LOG_ERROR, "ERR RE06: ffroute: out of memory\n");
		return NULL;
	}
	diag_init(&dl, 0);
	st->t = ffr_osm_topo(c->osm, &dl);
	log_diags(c, &dl);
	diag_free(&dl);
	if (!st->t) {
		OSM_LOG(&c->osm->log, OSM_LOG_ERROR, "ERR RE01: ffroute: cannot model the subnet\n");
		free(st);
		return NULL;
	}
	if (cls_classify(st->t, c->conf.have_roles ? &c->conf.roles : NULL, &st->c)) {
		OSM_LOG(&c->osm->log, OSM_LOG_ERROR, "ERR RE06: ffroute: out of memory\n");
		topo_free(st->t);
		free(st);
		return NULL;
	}
	route_opts_init(&o);
	o.vl_limit = limit < vls ? limit : vls;
	st->vl_limit = o.vl_limit;
	if (limit <= vls)
		snprintf(why, sizeof(why), "vl_limit %u in ffroute.conf%s", limit,
			 c->conf.vl_limit ? "" : " (default)");
	o.tc = c->conf.tc;
	o.ntc = c->conf.ntc;
	memcpy(st->vl_why, why, sizeof(why));
	o.rail_isolation = c->conf.rail_isolation;
	o.tree_digits = c->conf.tree_digits;
	o.shift_refine = c->conf.shift_refine;
	o.threads = c->conf.threads;
	o.non_tree = c->conf.non_tree;
	if (st->c.not_tree && !o.non_tree && !st->c.nreasons) {	/* one line, no RE03 */
		OSM_LOG(&c->osm->log, OSM_LOG_ERROR, "ERR RE13: ffroute: pass %u: declined, %s; "
			"OpenSM routes with the next engine of routing_engine (e.g. ffroute,dfsssp)"
			"; non_tree route in ffroute.conf routes it\n", c->passes, st->c.shape_why);
		c->declined = true;
		state_free(st);
		return NULL;
	}
	memcpy(o.class_weight, c->conf.class_weight, sizeof(o.class_weight));
	if (!c->slots_read) {	/* a restart keeps the places of the last run */
		ffr_slots_load(c->osm, &c->slots, &c->nslots);
		c->slots_read = true;
	}
	o.slots = c->slots;
	o.nslots = c->nslots;
	pass_inputs(c, st, &o, &force);
	c->swept = false;
	o.log = log_core;
	o.log_ctx = c;
	rc = route_run(st->t, &st->c, &o, &st->out);
	free(force);
	if (rc) {	/* logged by log_core */
		if (o.vl_limit < limit)
			OSM_LOG(&c->osm->log, OSM_LOG_ERROR, "ERR RE10: ffroute: routed within %u "
				"VL%s, as %s allows (vl_limit %u): this fabric needs more\n",
				o.vl_limit, o.vl_limit == 1 ? "" : "s", why, limit);
		state_free(st);
		return NULL;
	}
	if (o.ntc && vlarb_short(c, st)) {
		state_free(st);
		return NULL;
	}
	st->sl_used = 1;
	for (size_t i = 0; st->out.sl && i < (size_t)st->out.ngroups * st->out.nlids; i++)
		st->sl_used |= (uint16_t)(1u << (st->out.sl[i] & 15));
	return st;
}

/*
 * Copy every switch's row into new_lft; count the entries and 64-LID blocks
 * that changed since the last pass (all, after a failed one).
 * OpenSM's LID table never shrinks: max_lid_ho stays at the highest LID
 * ever assigned, above the model's max_lid once the port that held it is
 * gone.  Every LID up to max_lid_ho is written; a LID with no port in the
 * model (or above its max_lid) gets OSM_NO_PATH.
 */
static int install(struct ffr_ctx *c, const struct ffr_state *st, unsigned *entries,
		   unsigned *changed)
{
	cl_qmap_t *tbl = &c->osm->subn.sw_guid_tbl;
	const struct topo *t = st->t;

	*entries = *changed = 0;
	for (cl_map_item_t *it = cl_qmap_head(tbl); it != cl_qmap_end(tbl); it = cl_qmap_next(it)) {
		osm_switch_t *sw = (osm_switch_t *)it;
		uint64_t guid = cl_ntoh64(osm_node_get_node_guid(sw->p_node));
		uint32_t node = topo_find_guid(t, guid);

		if (node == TOPO_NONE || !topo_is_switch(t, node)) {
			OSM_LOG(&c->osm->log, OSM_LOG_ERROR, "ERR RE07: ffroute: switch 0x%016llx "
				"is not in the model (it joined during the pass?); falling back\n",
				(unsigned long long)guid);
			return -1;
		}
		if (sw->lft_size < sw->max_lid_ho + 1u) {
			OSM_LOG(&c->osm->log, OSM_LOG_ERROR, "ERR RE07: ffroute: switch 0x%016llx "
				"holds %u LFT entries, LID %u needs %u; falling back\n",
				(unsigned long long)guid, (unsigned)sw->lft_size,
				(unsigned)sw->max_lid_ho, sw->max_lid_ho + 1u);
			return -1;
		}
	}
	for (cl_map_item_t *it = cl_qmap_head(tbl); it != cl_qmap_end(tbl); it = cl_qmap_next(it)) {
		osm_switch_t *sw = (osm_switch_t *)it;
		uint64_t guid = cl_ntoh64(osm_node_get_node_guid(sw->p_node));
		uint32_t s = t->node_sw[topo_find_guid(t, guid)];

		for (uint32_t lid = 0; lid <= sw->max_lid_ho; lid++) {
			uint8_t e = lid ? lft_get(st->out.lft, s, lid) : LFT_NONE;

			sw->new_lft[lid] = e == LFT_NONE ? OSM_NO_PATH : e;
		}
		row_changes(c->st, guid, sw->new_lft, sw->max_lid_ho, entries, changed);
	}
	return 0;
}

/*
 * A QoS policy's SLs reach hosts through path_sl's hint.  ffroute keeps a
 * hint SL that no route of its layers uses (mapped to VLs as SL 0 is, by
 * update_sl2vl); an SL its layers use is replaced.  Say so once per change
 * (update_sl2vl calls it: OpenSM parses the policy after routing).
 */
static void qos_policy_clash(struct ffr_ctx *c, const struct ffr_state *st)
{
	const struct osm_qos_policy *qp = c->osm->subn.p_qos_policy;
	uint32_t want = 0, clash;

	if (!c->osm->subn.opt.qos || !qp)
		return;
	for (cl_list_iterator_t i = cl_list_head(&qp->qos_levels); i != cl_list_end(&qp->qos_levels);
	     i = cl_list_next(i)) {
		const osm_qos_level_t *lv = cl_list_obj(i);

		if (lv && lv->sl_set && lv->sl < 16)
			want |= 1u << lv->sl;
	}
	if (qp->p_default_qos_level && qp->p_default_qos_level->sl_set &&
	    qp->p_default_qos_level->sl < 16)
		want |= 1u << qp->p_default_qos_level->sl;
	clash = want & st->sl_used & ~1u;
	if ((clash | 0x10000) == c->qos_said || (!clash && !c->qos_said))
		return;
	c->qos_said = clash ? clash | 0x10000 : 0;
	if (clash)
		OSM_LOG(&c->osm->log, OSM_LOG_ERROR, "ERR RE11: ffroute: the QoS policy's SLs "
			"0x%04x are SLs of ffroute's VL layers here: paths of those QoS levels get "
			"the layer's SL instead; the other SLs are kept (they take the VLs of SL 0)\n",
			clash);
	else
		OSM_LOG(&c->osm->log, OSM_LOG_INFO, "ffroute: the QoS policy's SLs no longer clash "
			"with the VL layers\n");
}

/* One line per class: its SLs, VLs and weight (what hosts and the switches get). */
static void log_classes(struct ffr_ctx *c, const struct route_out *out)
{
	for (unsigned k = 0; k < out->tcs.n; k++) {
		char sls[64];
		size_t at = 0;

		sls[0] = '\0';
		for (unsigned sl = 0; sl < 16; sl++)
			if (out->tc_sls[k] >> sl & 1)
				at += (size_t)snprintf(sls + at, sizeof(sls) - at, "%s%u", at ? "," : "",
						       sl);
		OSM_LOG(&c->osm->log, OSM_LOG_INFO, "ffroute: pass %u: class %s%s: SLs %s, VLs "
			"%u-%u, VL arbitration weight %u (%s)\n", c->passes, out->tc[k].name,
			k == out->tc_fallback ? " (default)" : "", sls, k * out->layer_vls,
			(k + 1) * out->layer_vls - 1, out->tc[k].weight,
			out->tc[k].high ? "high" : "low");
	}
}

static int ffr_build_fwd_tables(void *context)
{
	struct ffr_ctx *c = context;
	struct timespec t0, t1;
	struct ffr_state *st;
	unsigned entries, changed, nlids = 0;
	char mode[96];

	c->passes++;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ffr_conf_reload(c->osm, &c->conf);
	c->declined = false;
	st = route_subnet(c);
	if (!st || install(c, st, &entries, &changed)) {
		state_free(st);
		set_state(c, NULL);	/* the next engine's tables: its SLs, not ours */
		ffr_dump_sl(c->osm, NULL, NULL);
		if (!c->declined)
			OSM_LOG(&c->osm->log, OSM_LOG_ERROR, "ERR RE03: ffroute: pass %u: no LFT "
				"written; OpenSM falls back to the next engine\n", c->passes);
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (uint32_t lid = 1; lid <= st->t->max_lid; lid++)
		nlids += st->t->lid_port[lid] != TOPO_NONE;
	if (st->out.incremental)
		snprintf(mode, sizeof(mode), "incremental (LIDs kept %u, patched %u, re-routed %u, "
			 "verified %u)", st->out.kept_lids, st->out.patched_lids,
			 st->out.rerouted_lids, st->out.judged_lids);
	else
		snprintf(mode, sizeof(mode), "from scratch");
	/* one line, short enough for OpenSM's log line limit */
	OSM_LOG(&c->osm->log, OSM_LOG_INFO,
		"ffroute: pass %u: %u LFT entries, %u blocks changed; %u switches, %u CAs, %u LIDs, %u VL%s, "
		"%u zone%s, %u rails, %u LIDs rooted, tree digits %u/%u, shifts refined %u, max %u "
		"routes/link, %s, %.3f s\n", c->passes,
		entries, changed, st->t->nswitches, st->t->ncas, nlids, st->out.nvls,
		st->out.nvls > 1 ? "s" : "", st->c.nzones, st->c.nzones == 1 ? "" : "s",
		st->c.nrails, st->out.rooted_lids, st->out.tree_zones - st->out.tree_left,
		st->out.tree_zones, st->out.shift_zones, st->out.max_link_routes,
		mode, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (st->out.tcs.n)
		log_classes(c, &st->out);
	if (c->conf.jobs_path)
		OSM_LOG(&c->osm->log, OSM_LOG_INFO, "ffroute: pass %u: %u job(s) of %s; zones "
			"whose digits serve them or the zone's tree: %u, with transfers still "
			"sharing a link: %u\n", c->passes, st->njobs, c->conf.jobs_path,
			st->out.tree_zones, st->out.tree_left);
	if (st->out.single_order)
		OSM_LOG(&c->osm->log, OSM_LOG_ERROR, "ERR RE10: ffroute: pass %u: %s leaves %u "
			"VL%s, too few for this fabric's VL layers: every LID routed up*/down* in one "
			"order instead (no credit loop, but %llu zone-rule findings: routes that "
			"detour through another zone, and a hot root); set qos TRUE, two VLs per link\n",
			c->passes, st->vl_why, st->vl_limit, st->vl_limit == 1 ? "" : "s",
			(unsigned long long)st->out.zone_detours);
	if (st->out.rails_given_up)
		OSM_LOG(&c->osm->log, OSM_LOG_ERROR, "ERR RE12: ffroute: pass %u: rail isolation "
			"could not be kept: %llu rail finding(s) accepted; set rail_isolation on "
			"to refuse instead\n",
			c->passes, (unsigned long long)st->out.rail_findings);
	ffr_dump_sl(c->osm, st->t, &st->out);
	free(c->slots);		/* the places for the next pass: this one's */
	c->slots = st->out.slots;
	c->nslots = st->out.nslots;
	st->out.slots = NULL;
	st->out.nslots = 0;
	ffr_slots_save(c->osm, c->slots, c->nslots);
	set_state(c, st);
	return 0;
}

/*
 * SA threads, shared lock: read-only lookups; unknown LIDs get the hint.
 * With traffic classes: the class the hint names (else the endpoints'
 * roles, else the default class) on the SL of the path's layer.  Without:
 * the layer's SL, and the hint on SL 0 paths when it is an SL no route
 * uses (a QoS level's SL: update_sl2vl maps it as SL 0, so the VL layers
 * are intact).
 */
static uint8_t ffr_path_sl(void *context, uint8_t hint, const ib_net16_t slid,
			   const ib_net16_t dlid)
{
	const struct ffr_ctx *c = context;
	const struct ffr_state *st = c->st;
	uint32_t s = cl_ntoh16(slid), d = cl_ntoh16(dlid), p, q;
	uint8_t sl;

	if (!st || !st->out.sl || s > st->t->max_lid || d > st->t->max_lid ||
	    (p = st->t->lid_port[s]) == TOPO_NONE || (q = st->t->lid_port[d]) == TOPO_NONE)
		return hint;
	p = st->t->port_node[p];
	if (st->out.tcs.n)
		return route_class_sl(&st->out, route_path_class(&st->out, &st->c, hint, p,
								 st->t->port_node[q]), p, d);
	sl = route_sl(&st->out, p, d);
	if (!sl && hint < 16 && !(st->sl_used >> hint & 1))
		return hint;	/* a QoS level's SL no layer uses: VLs as SL 0 */
	return sl;
}

/*
 * qos TRUE only, under the exclusive lock: with traffic classes, the
 * classes' weights on their VLs (route_vlarb) in place of the qos_vlarb_*
 * options; blocks 0, 1 are the low-priority table, 2, 3 the high one.
 */
static void ffr_update_vlarb(void *context, osm_physp_t *port, uint8_t port_num,
			     ib_vl_arb_table_t *block, unsigned len, unsigned blocknum)
{
	const struct ffr_ctx *c = context;
	const struct ffr_state *st = c->st;
	uint8_t vl[64], w[64];
	unsigned n;

	(void)port;
	(void)port_num;
	if (!st || !st->out.tcs.n || blocknum > 3)
		return;		/* keep what QoS configured */
	route_vlarb(&st->out, blocknum >= 2, vl, w, &n);
	for (unsigned i = 0; i < len && i < IB_NUM_VL_ARB_ELEMENTS_IN_BLOCK; i++) {
		unsigned e = (blocknum & 1) * IB_NUM_VL_ARB_ELEMENTS_IN_BLOCK + i;

		block->vl_entry[i].vl = e < n ? vl[e] : 0;
		block->vl_entry[i].weight = e < n ? w[e] : 0;
	}
}

/*
 * qos TRUE only, from osm_qos_setup() under the exclusive lock, after it
 * parsed the QoS policy: the VL of every SL from @in to @out on @port's
 * node; SLs no route uses map as SL 0 (QoS levels' SLs, path_sl).
 */
static void ffr_update_sl2vl(void *context, osm_physp_t *port, uint8_t in, uint8_t out,
			     ib_slvl_table_t *tbl)
{
	struct ffr_ctx *c = context;
	const struct ffr_state *st = c->st;
	const uint8_t *row;
	uint32_t node, pin, pout;

	if (!st || !st->out.sl2vl)
		return;		/* keep what QoS configured */
	if (!st->out.tcs.n)
		qos_policy_clash(c, st);	/* the policy was parsed just before */
	node = topo_find_guid(st->t, cl_ntoh64(osm_node_get_node_guid(osm_physp_get_node_ptr(port))));
	if (node == TOPO_NONE)
		return;
	if (!topo_is_switch(st->t, node))
		in = out = osm_physp_get_port_num(port);
	if (out > st->t->node_nports[node] || in > st->t->node_nports[node])
		return;
	pin = topo_port(st->t, node, in);
	pout = topo_port(st->t, node, out);
	row = chk_vlx_find(&st->out.vlx, pin, pout);
	if (!row)
		row = st->out.sl2vl + (size_t)pout * 16;
	for (uint8_t sl = 0; sl < 16; sl++)	/* the classes map every SL */
		ib_slvl_table_set(tbl, sl, st->out.tcs.n || st->sl_used >> sl & 1 ? row[sl] : row[0]);
}

static void ffr_destroy(void *context)
{
	struct ffr_ctx *c = context;

	set_state(c, NULL);	/* the context itself belongs to the plugin */
	if (c->base)
		state_free(c->base);
	c->base = NULL;
}

static int ffr_setup(struct osm_routing_engine *re, struct osm_opensm *osm)
{
	(void)osm;
	re->build_lid_matrices = ffr_build_lid_matrices;
	re->ucast_build_fwd_tables = ffr_build_fwd_tables;
	re->path_sl = ffr_path_sl;
	re->update_sl2vl = ffr_update_sl2vl;
	re->update_vlarb = ffr_update_vlarb;
	re->destroy = ffr_destroy;
	return 0;
}

static void *ffr_create(struct osm_opensm *osm)
{
	external_routing_engine_module_t mod = { "ffroute", ffr_setup, NULL };
	struct ffr_ctx *c = calloc(1, sizeof(*c));

	OSM_LOG(&osm->log, OSM_LOG_INFO, "ffroute %s (git %s) built for %s\n", FFR_VERSION,
		FFR_GIT, OSM_VERSION);
	if (!c)
		return NULL;
	c->osm = osm;
	if (ffr_conf_load(osm, osm->subn.opt.event_plugin_options, &c->conf)) {
		ffr_conf_free(&c->conf);
		free(c);
		return NULL;	/* logged: a bad configuration is not silently ignored */
	}
	mod.context = c;
	if (osm_register_external_routing_engine(osm, &mod, c) != CL_SUCCESS) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"ERR RE04: ffroute: cannot register the routing engine\n");
		ffr_conf_free(&c->conf);
		free(c);
		return NULL;
	}
	if (!osm->subn.opt.qos && ffr_conf_vl_limit(&c->conf) > 1)
		OSM_LOG(&osm->log, OSM_LOG_INFO, "ffroute: qos is FALSE, so OpenSM programs no "
			"SL2VL table and ffroute routes within 1 VL: a fabric whose zones need VL "
			"layers is routed in one up*/down* order, with detours (error RE10 at "
			"every such sweep); set qos TRUE\n");
	OSM_LOG(&osm->log, OSM_LOG_INFO, "ffroute: routing engine registered (VL limit %u, "
		"%u traffic classes, class weights %u,%u,%u, threads %s)\n",
		ffr_conf_vl_limit(&c->conf), c->conf.ntc, c->conf.class_weight[0],
		c->conf.class_weight[1], c->conf.class_weight[2],
		c->conf.threads == 1 ? "1" : c->conf.threads == 2 ? "2" : "auto");
	return c;
}

static void ffr_delete(void *plugin_data)
{
	struct ffr_ctx *c = plugin_data;

	if (!c)
		return;
	set_state(c, NULL);
	if (c->base)
		state_free(c->base);
	ffr_conf_free(&c->conf);
	free(c->slots);
	free(c);
}

/*
 * OpenSM reports the end of a heavy sweep's discovery just before it
 * routes, and the end of unicast routing after (state manager thread, as
 * the routing).  The console's reroute routes without a heavy sweep
 * (osm_state_mgr.c: "just reroute only"): that pass is from scratch, as
 * an operator asking for a reroute expects.  The end of routing clears
 * the mark (also for a sweep whose routing the unicast cache made without
 * a pass), and so does a change of SM state (a sweep that stopped after
 * its discovery, for a handover or standby).  A heavy sweep's start is
 * not the mark: a sweep that stops in discovery (the SM port down) would
 * leave it, and the next reroute would be merged.
 */
static void ffr_report(void *plugin_data, osm_epi_event_id_t event_id, void *event_data)
{
	struct ffr_ctx *c = plugin_data;

	(void)event_data;
	if (!c)
		return;
	if (event_id == OSM_EVENT_ID_HEAVY_SWEEP_DONE)
		c->swept = true;
	else if (event_id == OSM_EVENT_ID_UCAST_ROUTING_DONE ||
		 event_id == OSM_EVENT_ID_STATE_CHANGE)
		c->swept = false;
}

__attribute__((visibility("default"))) osm_event_plugin_t osm_event_plugin = {
	.osm_version = OSM_VERSION,
	.create = ffr_create,
	.delete = ffr_delete,
	.report = ffr_report,
};
