// SPDX-License-Identifier: BSD-2-Clause
/*
 * osm_topo.c - translate OpenSM's discovered subnet into a struct topo.
 *
 * One pass over subn.node_guid_tbl declares every node (GUID, type,
 * NumPorts, SystemImageGUID, NodeDescription) and its valid physical
 * ports (port GUID, base LID, LMC, active width and speed); links are
 * named by peer node GUID and resolved by the core builder, which also
 * checks the result like any other input.  O(nodes + ports).
 * Called with osm->lock held by the routing callbacks, so the subnet is
 * stable while we read it.
 */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_node.h>
#include <opensm/osm_port.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "osm_ffroute.h"

static int add_node(struct topo_builder *b, const osm_node_t *node)
{
	struct topo_node_info ni = { 0 };
	char desc[IB_NODE_DESCRIPTION_SIZE + 1];

	memcpy(desc, node->node_desc.description, IB_NODE_DESCRIPTION_SIZE);
	desc[IB_NODE_DESCRIPTION_SIZE] = '\0';
	ni.type = osm_node_get_type(node);
	ni.nports = (uint8_t)(osm_node_get_num_physp(node) - 1);
	ni.guid = cl_ntoh64(osm_node_get_node_guid(node));
	ni.sysguid = cl_ntoh64(node->node_info.sys_guid);
	ni.vendor = cl_ntoh32(ib_node_info_get_vendor_id(&node->node_info));
	ni.devid = cl_ntoh16(node->node_info.device_id);
	ni.rev = cl_ntoh32(node->node_info.revision);
	ni.desc = desc;
	return topo_builder_add_node(b, &ni, NULL);
}

static void add_ports(struct topo_builder *b, int id, const osm_node_t *node)
{
	unsigned first = osm_node_get_type(node) == IB_NODE_TYPE_SWITCH ? 0 : 1;

	for (unsigned pn = first; pn < osm_node_get_num_physp(node); pn++) {
		const osm_physp_t *p = osm_node_get_physp_ptr((osm_node_t *)node, pn);
		const osm_physp_t *r;
		struct topo_port_info pi = { 0 };

		if (!p || !osm_physp_is_valid(p))
			continue;
		pi.guid = cl_ntoh64(osm_physp_get_port_guid(p));
		if (pn == 0 || first == 1) {
			pi.lid = cl_ntoh16(osm_physp_get_base_lid(p));
			pi.lmc = ib_port_info_get_lmc(&p->port_info);
		}
		if (pn) {
			pi.width = (uint8_t)topo_width_from_iba(p->port_info.link_width_active);
			pi.speed = (uint8_t)topo_speed_from_iba(
				ib_port_info_get_link_speed_active(&p->port_info),
				ib_port_info_get_link_speed_ext_active(&p->port_info), false);
		}
		topo_builder_set_port(b, id, pn, &pi, NULL);
		r = pn ? osm_physp_get_remote(p) : NULL;
		if (r && osm_physp_is_valid(r)) {
			struct topo_ref ref = { NULL, 0 };

			ref.guid = cl_ntoh64(osm_node_get_node_guid(osm_physp_get_node_ptr(r)));
			topo_builder_add_link(b, id, pn, &ref, osm_physp_get_port_num(r), 0, 0,
					      NULL);
		}
	}
}

struct topo *ffr_osm_topo(struct osm_opensm *osm, struct diag_list *dl)
{
	cl_qmap_t *tbl = &osm->subn.node_guid_tbl;
	struct topo_builder *b = topo_builder_new(dl);

	if (!b)
		return NULL;
	for (cl_map_item_t *it = cl_qmap_head(tbl); it != cl_qmap_end(tbl);
	     it = cl_qmap_next(it)) {
		const osm_node_t *node = (const osm_node_t *)it;
		int id = add_node(b, node);

		if (id >= 0)
			add_ports(b, id, node);
	}
	return topo_builder_finish(b);
}

/* Data VLs of an OperVLs code (IBA 14.2.5.6: 1 = VL0, 2 = VL0-1, 3 = VL0-3, 4 = VL0-7, 5 = VL0-14). */
static unsigned vls_of(unsigned code)
{
	return code <= 1 ? 1 : code >= 5 ? 15 : 1u << (code - 1);
}

/*
 * The data VLs every link will have once OpenSM's link manager has set
 * OperVLs = min(VLCap of both ends, max_op_vls) (osm_physp_calc_link_op_vls):
 * OpenSM masks each SL2VL entry to the port's OperVLs, so a layer on a VL
 * a port lacks silently lands on VL 0.  Without QoS OpenSM programs no
 * SL2VL at all: one VL.  A VLCap of 0 (unknown) is skipped, as dfsssp does.
 */
unsigned ffr_osm_data_vls(struct osm_opensm *osm, char *why, size_t size)
{
	cl_qmap_t *tbl = &osm->subn.node_guid_tbl;
	unsigned best = osm->subn.opt.max_op_vls ? osm->subn.opt.max_op_vls : 5;

	if (!osm->subn.opt.qos) {
		snprintf(why, size, "qos is FALSE (OpenSM programs no SL2VL table)");
		return 1;
	}
	snprintf(why, size, "max_op_vls %u", best);
	for (cl_map_item_t *it = cl_qmap_head(tbl); it != cl_qmap_end(tbl); it = cl_qmap_next(it)) {
		osm_node_t *node = (osm_node_t *)it;

		for (unsigned pn = 1; pn < osm_node_get_num_physp(node); pn++) {
			const osm_physp_t *p = osm_node_get_physp_ptr(node, pn), *r;
			unsigned a, b;

			if (!p || !osm_physp_is_valid(p) || !(r = osm_physp_get_remote(p)))
				continue;
			a = ib_port_info_get_vl_cap(&p->port_info);
			b = ib_port_info_get_vl_cap(&r->port_info);
			a = a && b && b < a ? b : a ? a : b;
			if (a && a < best) {
				best = a;
				snprintf(why, size, "VLCap of port 0x%016llx/%u and its peer",
					 (unsigned long long)cl_ntoh64(osm_node_get_node_guid(node)), pn);
			}
		}
	}
	return vls_of(best);
}

void ffr_osm_vlarb_cap(struct osm_opensm *osm, unsigned *low, unsigned *high, char *why,
		       size_t size)
{
	cl_qmap_t *tbl = &osm->subn.node_guid_tbl;

	*low = *high = 64;
	snprintf(why, size, "no port");
	for (cl_map_item_t *it = cl_qmap_head(tbl); it != cl_qmap_end(tbl); it = cl_qmap_next(it)) {
		osm_node_t *node = (osm_node_t *)it;

		for (unsigned pn = 1; pn < osm_node_get_num_physp(node); pn++) {
			const osm_physp_t *p = osm_node_get_physp_ptr(node, pn);

			if (!p || !osm_physp_is_valid(p) || !osm_physp_get_remote(p))
				continue;
			if (p->port_info.vl_arb_low_cap < *low || p->port_info.vl_arb_high_cap < *high)
				snprintf(why, size, "port 0x%016llx/%u", (unsigned long long)
					 cl_ntoh64(osm_node_get_node_guid(node)), pn);
			if (p->port_info.vl_arb_low_cap < *low)
				*low = p->port_info.vl_arb_low_cap;
			if (p->port_info.vl_arb_high_cap < *high)
				*high = p->port_info.vl_arb_high_cap;
		}
	}
}
