// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_slots.c - places kept for CAs that went away, so that a host
 * reboot moves no other destination.
 *
 * A destination's D-mod-K rank is its index, within its traffic class,
 * in position order (zone, switch position, port, LID: route.c).  Ranked
 * over the CAs present alone, a host that leaves shifts the rank of every
 * destination after it, and half of every switch's table changes.  So the
 * engine takes the places of earlier passes (struct route_slot: the
 * switch GUID and port a CA was cabled to, its class, LID count and rail) and
 * ranks a remembered place as if its CA were there while that port is
 * free: the others keep their ranks, and when the CA comes back it takes
 * its old place.  A remembered place is also routed (route_dest.c: no LFT
 * entry, lid 0) so that the balance counters, and with them every later
 * choice by load (exits between zones, fallback hops), are what they were
 * with the CA present.  A place is forgotten when something else is cabled to
 * its port; it is kept while its switch is absent (a leaf that reboots
 * takes its hosts with it).  Ports are the truth, not GUIDs: a host
 * replaced by another on the same port takes the same place.
 *
 * Cost: O(places log places + CA ports).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "route/route_int.h"

static int cmp_slot(const void *a, const void *b)
{
	const struct route_slot *x = a, *y = b;

	if (x->sw_guid != y->sw_guid)
		return x->sw_guid < y->sw_guid ? -1 : 1;
	if (x->port != y->port)
		return (int)x->port - (int)y->port;
	if (x->tc != y->tc)
		return (int)x->tc - (int)y->tc;
	return (int)x->nlids - (int)y->nlids;
}

static int cmp_place(const struct route_slot *x, const struct route_slot *y)
{
	return x->sw_guid != y->sw_guid || x->port != y->port;
}

/* The switch port a remembered place names, if it is free now; else TOPO_NONE. */
uint32_t rt_slot_port(const struct topo *t, const struct route_slot *s)
{
	uint32_t node = topo_find_guid(t, s->sw_guid), p;

	if (node == TOPO_NONE || !topo_is_switch(t, node) || !s->port ||
	    s->port > t->node_nports[node])
		return TOPO_NONE;
	p = t->port_off[node] + s->port;
	return t->port_remote[p] == TOPO_NONE ? p : TOPO_NONE;
}

/* Is the remembered place's switch absent (not in the fabric, or not a switch now)? */
static bool slot_switch_absent(const struct topo *t, const struct route_slot *s)
{
	uint32_t node = topo_find_guid(t, s->sw_guid);

	return node == TOPO_NONE || !topo_is_switch(t, node);
}

/* The places after this pass: every CA port cabled to a switch, and @prev's kept ones. */
int route_slots(const struct topo *t, const struct cls *c, const struct route_slot *prev,
		uint32_t nprev, struct route_slot **out, uint32_t *nout)
{
	struct route_slot *s = malloc(((size_t)t->nports + nprev + 1) * sizeof(*s));
	uint32_t n = 0, k = 0;

	*out = NULL;
	*nout = 0;
	if (!s)
		return -ENOMEM;
	for (uint32_t p = 0; p < t->nports; p++) {
		uint32_t node = t->port_node[p], r = t->port_remote[p], sw;

		if (topo_is_switch(t, node) || r == TOPO_NONE || !t->port_lid[p] ||
		    t->port_lid[p] > TOPO_MAX_UCAST_LID || !topo_is_switch(t, t->port_node[r]))
			continue;
		sw = t->port_node[r];
		s[n++] = (struct route_slot){ t->node_guid[sw], (uint8_t)topo_port_num(t, r),
					      (uint8_t)cls_tclass_of((enum cls_role)c->role[node]),
					      (uint16_t)(1u << (t->port_lmc[p] & 7)),
					      c->rail[node] };
	}
	for (uint32_t i = 0; i < nprev; i++)
		if (prev[i].tc < CLS_TC_COUNT && prev[i].nlids &&
		    (slot_switch_absent(t, &prev[i]) || rt_slot_port(t, &prev[i]) != TOPO_NONE))
			s[n++] = prev[i];
	qsort(s, n, sizeof(*s), cmp_slot);
	for (uint32_t i = 0; i < n; i++)	/* one place per port (repeats in @prev) */
		if (!k || cmp_place(&s[k - 1], &s[i]))
			s[k++] = s[i];
	*out = s;
	*nout = k;
	return 0;
}
