// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_walk.c - follow forwarding tables hop by hop.
 *
 * From a CA port the first channel is its own link; at each switch the LFT
 * entry for the LID names the out-port: 0 delivers to the switch itself
 * (correct only if the switch owns the LID), a cabled port moves on (the
 * CA port at the far end must own the LID).  A switch seen twice is a loop; the
 * walk is bounded by CHK_MAX_HOPS.  O(path length) per call.
 */
#include <string.h>

#include <ffroute/check.h>

static const char *const status_names[] = {
	"ok", "no route", "no table", "loop", "dead port", "no such LID", "wrong node",
};

const char *chk_walk_status_name(enum chk_walk_status s)
{
	return (unsigned)s < sizeof(status_names) / sizeof(status_names[0]) ? status_names[s] : "?";
}

static bool push(struct chk_path *p, uint32_t ch)
{
	if (p->nch >= CHK_MAX_HOPS) {
		p->status = CHK_WALK_LOOP;
		return false;
	}
	p->ch[p->nch++] = ch;
	return true;
}

void chk_walk(const struct topo *t, const struct lft *l, uint32_t src, uint32_t dlid,
	      struct chk_path *p)
{
	uint32_t dport = topo_find_lid(t, dlid);
	uint32_t dnode = dport == TOPO_NONE ? TOPO_NONE : t->port_node[dport];
	uint32_t sw = t->port_node[src];
	uint32_t seen[CHK_MAX_HOPS + 1], nseen = 0;

	p->nch = 0;
	p->last_sw = TOPO_NONE;
	if (dnode == TOPO_NONE) {
		p->status = CHK_WALK_NO_LID;
		return;
	}
	if (!topo_is_switch(t, sw)) {
		uint32_t r = t->port_remote[src];

		if (sw == dnode) {		/* a CA to itself: no hop */
			p->status = CHK_WALK_OK;
			return;
		}
		if (r == TOPO_NONE) {
			p->status = CHK_WALK_DEAD_PORT;
			return;
		}
		push(p, src);
		sw = t->port_node[r];
		if (!topo_is_switch(t, sw)) {	/* back-to-back CAs */
			p->status = r == dport ? CHK_WALK_OK : CHK_WALK_WRONG_NODE;
			return;
		}
	}
	for (;;) {
		uint32_t s = t->node_sw[sw], out, r;
		uint8_t port;

		p->last_sw = sw;
		for (uint32_t i = 0; i < nseen; i++)
			if (seen[i] == sw) {
				p->status = CHK_WALK_LOOP;
				return;
			}
		seen[nseen++] = sw;
		if (!l->have[s]) {
			p->status = CHK_WALK_NO_TABLE;
			return;
		}
		port = lft_get(l, s, dlid);
		if (port == LFT_NONE) {
			p->status = CHK_WALK_NO_ROUTE;
			return;
		}
		if (port == 0) {
			p->status = sw == dnode ? CHK_WALK_OK : CHK_WALK_DEAD_PORT;
			return;
		}
		if (port > t->node_nports[sw] ||
		    (r = t->port_remote[out = topo_port(t, sw, port)]) == TOPO_NONE) {
			p->status = CHK_WALK_DEAD_PORT;
			return;
		}
		if (!push(p, out))
			return;
		sw = t->port_node[r];
		if (!topo_is_switch(t, sw)) {	/* the port itself must own the LID */
			p->status = r == dport ? CHK_WALK_OK : CHK_WALK_WRONG_NODE;
			return;
		}
	}
}
