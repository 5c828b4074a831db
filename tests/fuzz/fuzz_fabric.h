/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_fabric.h - the fixed small fabric the fuzz targets bind their
 * inputs to (two switches, four CAs described "ca", LIDs 1..6), so that
 * the readers' binding checks run too.
 */
#ifndef FFROUTE_FUZZ_FABRIC_H
#define FFROUTE_FUZZ_FABRIC_H

#include <ffroute/topo.h>

static struct topo *fixed_fabric(void)
{
	struct diag_list dl;
	struct topo_builder *b;
	struct topo_port_info pi = { 0 };
	struct topo_node_info sw = { .type = TOPO_NODE_SWITCH, .nports = 8, .desc = "sw" };
	struct topo_node_info ca = { .type = TOPO_NODE_CA, .nports = 1, .desc = "ca" };
	struct topo *t;
	int s[2], h;

	diag_init(&dl, 0);
	b = topo_builder_new(&dl);
	for (int i = 0; i < 2; i++) {
		sw.guid = 0x200000 + (uint64_t)i;
		s[i] = topo_builder_add_node(b, &sw, NULL);
		pi.lid = (uint16_t)(1 + i);
		topo_builder_set_port(b, s[i], 0, &pi, NULL);
	}
	for (int i = 0; i < 4; i++) {
		struct topo_ref r = { NULL, 0x200000 + (uint64_t)(i / 2) };

		ca.guid = 0x100000 + 2 * (uint64_t)i;
		h = topo_builder_add_node(b, &ca, NULL);
		pi.lid = (uint16_t)(3 + i);
		pi.guid = ca.guid + 1;
		topo_builder_set_port(b, h, 1, &pi, NULL);
		topo_builder_add_link(b, h, 1, &r, 1 + (unsigned)(i % 2), 4, TOPO_SPEED_HDR, NULL);
	}
	t = topo_builder_finish(b);
	diag_free(&dl);
	return t;
}

#endif
