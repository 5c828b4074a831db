/* SPDX-License-Identifier: BSD-2-Clause */
/* io_net_int.h - the ibsim .net reader's parser state, shared by io_net.c
 * (the lines) and io_net_link.c (the links, the fabric) (internal) */
#ifndef FFROUTE_IO_NET_INT_H
#define FFROUTE_IO_NET_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <ffroute/diag.h>

#include "base/text.h"

#define NET_ID_MAX 64		/* NODEIDLEN - 1 */
#define NET_ALIAS_MAX 39	/* ALIASLEN - 1 */
#define NET_PREFIX_MAX 20	/* NODEPREFIX */
#define NET_MAX_PORTS (1u << 22)	/* bound on memory for hostile input */
#define NO_STR UINT32_MAX
#define NO_IDX UINT32_MAX

struct nnode {
	uint32_t id, desc;	/* string offsets */
	uint32_t pbase;		/* index of port 1 in ports[] */
	uint32_t line, col;
	uint64_t guid, sysguid;
	uint32_t vendor, devid;
	uint8_t type, nports;
};

struct nport {
	uint32_t node;
	uint32_t rid;		/* remote node id, NO_STR = none listed */
	uint32_t alias, ralias;	/* own alias / alias used to name the peer */
	uint32_t line, col;	/* of the port line's remote id */
	uint32_t peer;		/* linked port, NO_IDX = none */
	uint8_t rport, w, s, e, m;	/* remote port; enabled masks */
	uint8_t aw, as;		/* active width (lanes) and enum topo_speed */
};

struct smap {
	uint32_t *key;		/* string offset, NO_STR = free */
	uint32_t *val;
	uint32_t cap, n;
};

struct net_parser {
	struct text_reader r;
	struct diag_list *dl;
	struct nnode *nodes;
	uint32_t nnodes, capnodes;
	struct nport *ports;
	uint32_t nports, capports;
	char *str;
	uint32_t nstr, capstr;
	struct smap ids, aliases;
	uint64_t guid[4], absguid[4];
	char prefix[NET_PREFIX_MAX + 1];
	uint32_t vendid, devid;
	uint64_t sysimgguid;
	uint8_t width, speed, extspeed;
	uint32_t cur;		/* node whose record is open, or NO_IDX */
	unsigned left;		/* port lines the open record still reads */
	bool skipping;		/* port lines of a rejected header */
	bool ignored_warned;	/* warned about the current run of ignored lines */
	uint32_t full_node;	/* record that just ended after NumPorts lines */
	bool oom;
	uint32_t pguid_diff, pguid_line;
};

/* An id or alias string's value in @m, NO_IDX if none (io_net.c). */
uint32_t net_smap_get(const struct net_parser *np, const struct smap *m, const char *s);
/* One line of the file (io_net.c). */
void net_line(struct net_parser *np, const char *line);

#endif
