/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * class_int.h - helpers shared by the classification files.
 */
#ifndef FFROUTE_CLASS_INT_H
#define FFROUTE_CLASS_INT_H

#include <ffroute/class.h>

/* Neighbouring node across port @p, or TOPO_NONE. */
static inline uint32_t cls_peer(const struct topo *t, uint32_t p)
{
	uint32_t r = t->port_remote[p];

	return r == TOPO_NONE ? TOPO_NONE : t->port_node[r];
}

/* Neighbouring switch across port @p, or TOPO_NONE. */
static inline uint32_t cls_peer_sw(const struct topo *t, uint32_t p)
{
	uint32_t q = cls_peer(t, p);

	return q != TOPO_NONE && topo_is_switch(t, q) ? q : TOPO_NONE;
}

/* Union-find root of @x, halving the path on the way. */
static inline uint32_t cls_uf_find(uint32_t *uf, uint32_t x)
{
	while (uf[x] != x)
		x = uf[x] = uf[uf[x]];
	return x;
}

/**
 * cls_find_levels - every switch's level (class_level.c); @queue, @mark,
 * @seen: scratch [nodes + 1], zeroed, left zeroed but @queue
 */
void cls_find_levels(const struct topo *t, struct cls *c, uint32_t *queue, uint32_t *mark,
		     uint32_t *seen);
/** cls_count_levels - nlevels: the highest switch level (class_level.c) */
void cls_count_levels(const struct topo *t, struct cls *c);
/** cls_find_hosts - group CAs into hosts (class_port.c) */
int cls_find_hosts(const struct topo *t, struct cls *c);
/** cls_ports - port directions and groups, after levels and zones (class_port.c) */
void cls_ports(const struct topo *t, struct cls *c);
void cls_shape(const struct topo *t, struct cls *c);
/** cls_verdict - reasons the engine cannot route the fabric (class_port.c) */
void cls_verdict(const struct topo *t, struct cls *c);
/** cls_zones_of_hosts - one zone when a zone holds no compute host of its own (class_port.c) */
void cls_zones_of_hosts(const struct topo *t, struct cls *c);
/** cls_dual_homed - hosts with CAs in two zones become storage (class_port.c) */
void cls_dual_homed(const struct topo *t, struct cls *c);
/** cls_positions - c->pos, after levels (class_pos.c) */
int cls_positions(const struct topo *t, struct cls *c);
/** cls_rates - link rates, slow nodes, subtrees, trained-down links (class_rate.c) */
int cls_rates(const struct topo *t, struct cls *c);
struct scan;
struct text_reader;
/** cls_at_end - skip blanks; true when the rest of the line is empty or a comment (roles.c) */
bool cls_at_end(struct scan *s);
/** cls_parse_guid - a hex GUID ending the word, not 0; errors at the reader (roles.c) */
int cls_parse_guid(struct text_reader *rd, struct scan *s, uint64_t *guid);
/** cls_is_default_desc - an unconfigured NodeDescription, not a host name */
bool cls_is_default_desc(const char *d);

#endif
