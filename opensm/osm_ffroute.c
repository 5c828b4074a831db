// SPDX-License-Identifier: BSD-2-Clause
/*
 * osm_ffroute.c - OpenSM event plugin that registers the "ffroute" routing
 * engine (OpenSM 3.3.23 external routing engine API).
 *
 * Load it with `event_plugin_name ffroute` and select it with
 * `routing_engine ffroute,updn` in opensm.conf.  create() registers the
 * engine; setup() fills the osm_routing_engine_t callbacks.  The hop
 * matrix is left to OpenSM (build_lid_matrices returns 1).
 *
 * State of this adapter: it translates the subnet into the core model on
 * every routing pass and logs the fabric it saw; the routing core that
 * fills new_lft is the subject of a later issue, so ucast_build_fwd_tables
 * returns -1 without touching any LFT and OpenSM falls back to the next
 * engine in routing_engine.  Nothing partial is ever installed.
 */
#include <opensm/osm_config.h>
#include <opensm/osm_event_plugin.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_version.h>

#include <stdlib.h>
#include <string.h>

#include "osm_ffroute.h"

#if OSM_EVENT_PLUGIN_INTERFACE_VER != 2
#error "ffroute was written for OpenSM event plugin interface 2"
#endif

struct ffr_ctx {
	struct osm_opensm *osm;
	unsigned passes;
};

static void log_diags(struct ffr_ctx *c, const struct diag_list *dl)
{
	char buf[DIAG_MSG_MAX + 512];

	for (unsigned i = 0; i < dl->n; i++) {
		diag_format(&dl->v[i], buf, sizeof(buf));
		if (dl->v[i].level == DIAG_ERROR)
			OSM_LOG(&c->osm->log, OSM_LOG_ERROR, "ERR RE02: ffroute: subnet: %s\n", buf);
		else
			OSM_LOG(&c->osm->log, OSM_LOG_INFO, "ffroute: subnet: %s\n", buf);
	}
}

static int ffr_build_lid_matrices(void *context)
{
	(void)context;
	return 1;	/* OpenSM's own min-hop matrix (multicast, dumps, cache) */
}

static int ffr_build_fwd_tables(void *context)
{
	struct ffr_ctx *c = context;
	struct diag_list dl;
	struct topo *t;

	c->passes++;
	diag_init(&dl, 0);
	t = ffr_osm_topo(c->osm, &dl);
	log_diags(c, &dl);
	diag_free(&dl);
	if (!t) {
		OSM_LOG(&c->osm->log, OSM_LOG_ERROR,
			"ERR RE01: ffroute: cannot model the subnet; falling back\n");
		return -1;
	}
	OSM_LOG(&c->osm->log, OSM_LOG_INFO,
		"ffroute: pass %u: subnet has %u switches, %u CAs, %u routers, %u links, "
		"max LID %u\n", c->passes, t->nswitches, t->ncas, t->nrouters, t->nlinks,
		t->max_lid);
	topo_free(t);
	OSM_LOG(&c->osm->log, OSM_LOG_INFO,
		"ERR RE03: ffroute: routing core not present in this build; "
		"no LFT written, OpenSM falls back to the next engine\n");
	return -1;
}

static void ffr_destroy(void *context)
{
	(void)context;	/* the context belongs to the plugin; freed in delete */
}

static int ffr_setup(struct osm_routing_engine *re, struct osm_opensm *osm)
{
	(void)osm;
	re->build_lid_matrices = ffr_build_lid_matrices;
	re->ucast_build_fwd_tables = ffr_build_fwd_tables;
	re->destroy = ffr_destroy;
	return 0;
}

static void *ffr_create(struct osm_opensm *osm)
{
	external_routing_engine_module_t mod = { "ffroute", ffr_setup, NULL };
	struct ffr_ctx *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->osm = osm;
	mod.context = c;
	if (osm_register_external_routing_engine(osm, &mod, c) != CL_SUCCESS) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"ERR RE04: ffroute: cannot register the routing engine\n");
		free(c);
		return NULL;
	}
	OSM_LOG(&osm->log, OSM_LOG_INFO, "ffroute: routing engine registered\n");
	return c;
}

static void ffr_delete(void *plugin_data)
{
	free(plugin_data);
}

static void ffr_report(void *plugin_data, osm_epi_event_id_t event_id, void *event_data)
{
	(void)plugin_data;
	(void)event_id;
	(void)event_data;
}

osm_event_plugin_t osm_event_plugin = {
	.osm_version = OSM_VERSION,
	.create = ffr_create,
	.delete = ffr_delete,
	.report = ffr_report,
};
