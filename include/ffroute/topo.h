/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * topo.h - the fabric model shared by every face of ffroute.
 *
 * A fabric is nodes (switches, CAs, routers) and their ports, stored as
 * flat arrays indexed by uint32_t:
 *
 *   node n            node_type[n], node_guid[n], node_desc[n], ...
 *   ports of node n   port indices port_off[n] .. port_off[n+1]-1;
 *                     port number p of node n is port index port_off[n]+p
 *                     (slot p = 0 exists for every node; on a CA it is
 *                     unused and never linked)
 *   link              port_remote[i] = peer port index, or TOPO_NONE
 *
 * port_off[] with port_remote[] is the CSR adjacency of the fabric.
 * Nodes are sorted by node GUID, so the same fabric read from any format
 * gives the same indices, and GUID lookup is a binary search.  LID lookup
 * is one array, lid_port[0..max_lid].
 *
 * A struct topo is built once with a struct topo_builder and then read-only.
 * Memory: ~40 B per port + ~80 B per node + 4 B per LID + strings.
 *
 * RETURN VALUE: int functions return 0 or -errno; constructors return NULL
 * with errno set.
 */
#ifndef FFROUTE_TOPO_H
#define FFROUTE_TOPO_H

#include <stdbool.h>
#include <stdint.h>

#include <ffroute/diag.h>

#define TOPO_NONE UINT32_MAX
#define TOPO_MAX_PORTS 254	/* NumPorts limit (port numbers 1..254) */
#define TOPO_MAX_UCAST_LID 0xBFFF
#define TOPO_LID_UNASSIGNED 0xFFFF
/*
 * Port slots a fabric may declare in all (every node's NumPorts + 1): ten
 * times the largest real fabrics (~100k ports), so memory stays bounded
 * (~40 B per slot) whatever a hostile input declares.
 */
#define TOPO_MAX_PORT_SLOTS (1u << 20)

enum topo_node_type {
	TOPO_NODE_CA = 1,	/* IBA NodeType values */
	TOPO_NODE_SWITCH = 2,
	TOPO_NODE_ROUTER = 3,
};

/* Link speed per lane, in IBA order. */
enum topo_speed {
	TOPO_SPEED_UNKNOWN = 0,
	TOPO_SPEED_SDR, TOPO_SPEED_DDR, TOPO_SPEED_QDR, TOPO_SPEED_FDR10,
	TOPO_SPEED_FDR, TOPO_SPEED_EDR, TOPO_SPEED_HDR, TOPO_SPEED_NDR,
	TOPO_SPEED_XDR,
	TOPO_SPEED_COUNT
};

/* PortState (IBA): 0 = not known. */
enum topo_port_state {
	TOPO_PORT_UNKNOWN = 0, TOPO_PORT_DOWN = 1, TOPO_PORT_INIT = 2,
	TOPO_PORT_ARMED = 3, TOPO_PORT_ACTIVE = 4,
};

struct topo {
	uint32_t nnodes, nports;	/* nports counts every slot, incl. 0 */
	uint32_t nswitches, ncas, nrouters;
	uint32_t nlinks;		/* links counted once */

	/* nodes [nnodes], sorted by node_guid */
	uint8_t *node_type;
	uint8_t *node_nports;		/* NumPorts, excluding port 0 */
	uint64_t *node_guid;
	uint64_t *node_sysguid;		/* SystemImageGUID, 0 if unknown */
	uint32_t *node_vendor, *node_devid, *node_rev;
	const char **node_desc;		/* NodeDescription, never NULL */
	const char **node_name;		/* id in the source file, never NULL */
	uint32_t *port_off;		/* [nnodes + 1] */
	uint32_t *node_sw;		/* node -> switch ordinal or TOPO_NONE */
	uint32_t *sw_node;		/* [nswitches] switch ordinal -> node */

	/* ports [nports] */
	uint32_t *port_node;
	uint64_t *port_guid;		/* 0 if unknown; a switch's is on port 0 only */
	uint16_t *port_lid;		/* base LID; 0 = none (switch: slot 0) */
	uint8_t *port_lmc;
	uint8_t *port_width;		/* active lanes: 1,2,4,8,12; 0 unknown */
	uint8_t *port_speed;		/* enum topo_speed */
	uint8_t *port_state;		/* enum topo_port_state */
	uint32_t *port_remote;		/* peer port index or TOPO_NONE */

	/* lookups */
	uint32_t *pguid_sorted;		/* port indices with a GUID, by GUID */
	uint32_t npguids;
	uint32_t max_lid;		/* highest assigned unicast LID */
	uint32_t *lid_port;		/* [max_lid + 1] -> port index/TOPO_NONE */

	char *strings;			/* backing store of desc/name strings */
};

/* ---- queries ----------------------------------------------------------- */

static inline uint32_t topo_port(const struct topo *t, uint32_t node, unsigned pn)
{
	return t->port_off[node] + pn;
}

static inline unsigned topo_port_num(const struct topo *t, uint32_t port)
{
	return port - t->port_off[t->port_node[port]];
}

static inline bool topo_is_switch(const struct topo *t, uint32_t node)
{
	return t->node_type[node] == TOPO_NODE_SWITCH;
}

/* Port @p is cabled to another switch's port: a switch-to-switch channel. */
static inline bool topo_is_sw_link(const struct topo *t, uint32_t p)
{
	uint32_t r = t->port_remote[p];

	return r != TOPO_NONE && topo_is_switch(t, t->port_node[p]) &&
	       topo_is_switch(t, t->port_node[r]);
}

/* topo_sw_peers(): the peer is a CA, router or port 0 side, its port index below */
#define TOPO_PEER_PORT 0x80000000u
/**
 * topo_sw_peers - per switch ordinal, an entry per LFT port value 0..255:
 * the switch ordinal its port leads to, TOPO_PEER_PORT | the remote port
 * index when that is not a switch's, or TOPO_NONE (port 0, not cabled,
 * past the last port, 255).  One lookup a hop for walks along LFTs, where
 * the topology takes four.  [nswitches * 256], to free; NULL on ENOMEM.
 */
uint32_t *topo_sw_peers(const struct topo *t);
/** topo_find_guid - node with node GUID @guid, or TOPO_NONE */
uint32_t topo_find_guid(const struct topo *t, uint64_t guid);
/**
 * topo_port_in - port @p of @x as a port of @y: the node of the same GUID
 * and type, the same port number; TOPO_NONE if @y has none (or @p is).
 * Two states of one fabric (before and after a fault) compare through it.
 */
uint32_t topo_port_in(const struct topo *x, uint32_t p, const struct topo *y);
/** topo_find_port_guid - port index with port GUID @guid, or TOPO_NONE */
uint32_t topo_find_port_guid(const struct topo *t, uint64_t guid);
/** topo_find_lid - port index owning unicast LID @lid (LMC range included) */
uint32_t topo_find_lid(const struct topo *t, uint32_t lid);
/**
 * topo_lid_node - the node a LID leads to: the switch for a switch LID,
 * the CA/router for an end-port LID; TOPO_NONE if unassigned
 */
uint32_t topo_lid_node(const struct topo *t, uint32_t lid);
/** topo_node_lid - base LID of a node (switch: port 0; CA: first port with a LID) */
uint16_t topo_node_lid(const struct topo *t, uint32_t node);
/** topo_is_sharp_an - true for a SHARP aggregation-node CA */
bool topo_is_sharp_an(const struct topo *t, uint32_t node);
/**
 * topo_assign_lids - assign LIDs to end ports that have none (switch port
 * 0: one LID; CA ports: 2^@lmc aligned), in node order after max_lid
 */
int topo_assign_lids(struct topo *t, unsigned lmc);
/** topo_free - release a fabric (NULL is fine) */
void topo_free(struct topo *t);
/** topo_equal - same nodes, ports, LIDs and links (by GUID); @why gets the first difference */
bool topo_equal(const struct topo *a, const struct topo *b, char *why, unsigned whylen);

/* ---- speed/width helpers ----------------------------------------------- */

/** topo_speed_name - "HDR", "EDR", ... ("?" for unknown) */
const char *topo_speed_name(unsigned speed);
/** topo_speed_parse - parse "HDR" etc. (case-insensitive); TOPO_SPEED_UNKNOWN if not */
enum topo_speed topo_speed_parse(const char *s, unsigned len);
/** topo_speed_gbps_x10 - per-lane data rate, Gb/s x 10 (HDR -> 500) */
unsigned topo_speed_gbps_x10(unsigned speed);
/** topo_width_from_iba - PortInfo LinkWidthActive bit (1,2,4,8,16) -> lanes; 0 if not one bit */
unsigned topo_width_from_iba(unsigned mask);
/**
 * topo_speed_from_iba - PortInfo LinkSpeedActive (1 SDR, 2 DDR, 4 QDR) and
 * LinkSpeedExtActive (1 FDR, 2 EDR, 4 HDR, 8 NDR; 0 = none) -> enum
 * topo_speed; @fdr10 set when Mellanox ExtendedPortInfo reports FDR10
 */
enum topo_speed topo_speed_from_iba(unsigned speed, unsigned ext, bool fdr10);
/** topo_width_valid - 1, 2, 4, 8 or 12 */
bool topo_width_valid(unsigned width);

/* ---- building ------------------------------------------------------------ */

/* Where a construct was read, for diagnostics. */
struct src_loc {
	const char *file;
	unsigned line, col;
};

struct topo_node_info {
	uint8_t type;		/* enum topo_node_type */
	uint8_t nports;		/* NumPorts, 1..254 */
	uint64_t guid;		/* node GUID, nonzero */
	uint64_t sysguid;
	uint32_t vendor, devid, rev;
	const char *desc;	/* NodeDescription (copied), NULL = "" */
	const char *name;	/* file-local id (copied); NULL = none */
};

struct topo_port_info {
	uint64_t guid;		/* port GUID, 0 = unknown */
	uint16_t lid;		/* 0 or 0xFFFF = unassigned */
	uint8_t lmc;
	uint8_t width;		/* lanes, 0 = unknown */
	uint8_t speed;		/* enum topo_speed */
	uint8_t state;		/* enum topo_port_state */
};

struct topo_builder;

/** topo_builder_new - start a fabric; problems go to @dl. NULL + errno on failure */
struct topo_builder *topo_builder_new(struct diag_list *dl);
/** topo_builder_free - discard a builder (NULL is fine) */
void topo_builder_free(struct topo_builder *b);

/**
 * topo_builder_add_node - declare a node
 * Return: node handle (>= 0), or -EEXIST (duplicate GUID or name; an error
 * is recorded at @loc), -EINVAL (bad field; recorded), -ENOMEM.
 */
int topo_builder_add_node(struct topo_builder *b, const struct topo_node_info *ni,
			  const struct src_loc *loc);
/** topo_builder_find_guid - handle of the node with GUID @guid, or -ENOENT */
int topo_builder_find_guid(const struct topo_builder *b, uint64_t guid);
/** topo_builder_find_name - handle of the node declared with @name, or -ENOENT */
int topo_builder_find_name(const struct topo_builder *b, const char *name);
/** topo_builder_node_nports - NumPorts of a declared node */
unsigned topo_builder_node_nports(const struct topo_builder *b, int node);

/**
 * topo_builder_set_port - set port attributes (port 0 only on switches)
 * Fields that are zero leave earlier values in place.
 * Return: 0, -ERANGE (port out of range; recorded), -ENOMEM.
 */
int topo_builder_set_port(struct topo_builder *b, int node, unsigned port,
			  const struct topo_port_info *pi, const struct src_loc *loc);

/*
 * A link end that may not be declared yet: by file-local name (when
 * @name is non-NULL) or by node GUID.
 */
struct topo_ref {
	const char *name;
	uint64_t guid;
};

/**
 * topo_builder_add_link - connect (@node, @port) to (@peer, @peer_port)
 * The peer is resolved in topo_builder_finish(); a link seen from both ends
 * is kept once; a port linked to two different peers is an error.
 * @width/@speed may be 0 (unknown).  Return: 0, -ERANGE, -ENOMEM.
 */
int topo_builder_add_link(struct topo_builder *b, int node, unsigned port,
			  const struct topo_ref *peer, unsigned peer_port,
			  unsigned width, unsigned speed, const struct src_loc *loc);

/**
 * topo_builder_finish - resolve links, validate, build lookups
 * The builder is consumed (freed) in every case.
 * Return: the fabric, or NULL with errno = EINVAL when errors were
 * recorded (the diag list says which), ENOMEM on allocation failure.
 */
struct topo *topo_builder_finish(struct topo_builder *b);

#endif
