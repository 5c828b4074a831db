// SPDX-License-Identifier: BSD-2-Clause
/*
 * live.c - read a running fabric's topology and unicast routing with SMPs
 * (`ffroute check --live`).
 *
 * 1. Discovery: libibnetdisc (ibnd_discover_fabric) sweeps the subnet from
 *    the local HCA port @ca/@port with directed-route SMPs and returns
 *    every node with its NodeInfo, NodeDescription and the PortInfo of
 *    each port it reached (CAs: the cabled port; switches: every port,
 *    port 0 holding the switch LID/LMC and capability mask).  The graph
 *    is handed to the core topology builder exactly as opensm/osm_topo.c
 *    does it: one node per GUID, port attributes, links named by peer
 *    node GUID and resolved (and seen-from-both-ends deduplicated) in
 *    topo_builder_finish().  All ports of a switch share one port GUID,
 *    which the builder keeps on port 0.
 * 2. Routing: for every switch, SwitchInfo (LinearFDBTop) and then the
 *    LinearForwardingTable blocks 0 .. LinearFDBTop/64 (IBA 14.2.5.10:
 *    attribute 0x19, modifier = block number, 64 one-byte entries) are
 *    read with directed-route SMPs along the DR path ibnetdisc found, so
 *    no LID routing is trusted while the routing is what is being checked.
 *    0xFF means "no route" (LFT_NONE); a switch whose LinearFDBTop is 0
 *    has never been programmed and is reported as having no table.  Like
 *    the dump loaders, the table spans the larger of the fabric's highest
 *    LID and the highest LID any switch routes.
 *
 * 3. With --live-vl (@vl): every switch's SLtoVLMappingTable (IBA 14.2.5.8:
 *    attribute 0x17, modifier input port << 8 | output port, 16 four-bit
 *    entries, SL 0 in the high nibble of byte 0) for each cabled output
 *    port and each input port a packet can arrive on (port 0, the switch
 *    itself, then the cabled ones): the first row read is the output
 *    port's row, the others that differ go to vlx, as chk_sl2vl_read()
 *    keeps OpenSM's dump.  CA ports are not read: a CA's sending channel
 *    has no channel before it, so it closes no credit loop.  And each
 *    cabled switch port's VLArbitrationTable (attribute 0x18, modifier
 *    block << 16 | port; blocks 1-2 low, 3-4 high, as many as PortInfo's
 *    VLArbLowCap/HighCap ask; 32 entries of VL, weight), summarized as the
 *    distinct (low, high) pairs with their port counts.
 *
 * Any failed MAD is an error naming the switch and block; nothing partial
 * is returned.  ibnetdisc opens and closes its own umad port; ours for the
 * LFT reads is opened only afterwards (umad2sim, ibsim's client shim,
 * crashes with two clients in one process).  libibnetdisc 44.0 leaks 64 B
 * per switch-port link inside ibnd_discover_fabric() on a configured
 * subnet (ibnetdiscover leaks the same); everything of ours is freed.  Cost: discovery ~ (nodes + ports) SMPs, routing one SMP
 * per switch plus one per 64 LIDs per switch, issued one at a time.
 * Memory: the ibnetdisc graph plus one raw table per switch while reading.
 * Without libibnetdisc/libibmad/libibumad at build time live_read() only
 * reports -ENOTSUP.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#ifdef HAVE_LIVE

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>

#define LIVE_SRC "live"
#define LFT_BLOCK 64			/* entries per LinearForwardingTable block */
#define CAP_HAS_EXT_SPEEDS 0x4000	/* PortInfo:CapabilityMask bit 14 */
#define LIVE_MAX_SMPS 8			/* SMPs ibnetdisc keeps in flight */

/* One switch's table as read, before the fabric-wide width is known. */
struct live_raw {
	uint8_t *port;			/* [ntop + 1] */
	uint32_t ntop;			/* LinearFDBTop (clamped to unicast) */
};

struct live_ctx {
	ibnd_fabric_t *f;
	struct ibmad_port *mp;
	struct diag_list *dl;
};

/* LinkSpeedActive / LinkSpeedExtActive (+ Mellanox FDR10) -> enum topo_speed. */
static unsigned live_speed(const ibnd_port_t *p, uint32_t capmask)
{
	unsigned ext = 0;

	if (capmask & CAP_HAS_EXT_SPEEDS)
		ext = mad_get_field((void *)p->info, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F);
	/* Mellanox ExtendedPortInfo (read by ibnetdisc) reports FDR10 */
	return topo_speed_from_iba(mad_get_field((void *)p->info, 0, IB_PORT_LINK_SPEED_ACTIVE_F),
				   ext, mad_get_field((void *)p->ext_info, 0,
						      IB_MLNX_EXT_PORT_LINK_SPEED_ACTIVE_F) == 1);
}
static int live_add_node(struct topo_builder *b, ibnd_node_t *n)
{
	struct topo_node_info ni = { 0 };

	if (n->numports < 1 || n->numports > TOPO_MAX_PORTS) {
		errno = EINVAL;
		return -EINVAL;
	}
	ni.type = (uint8_t)n->type;
	ni.nports = (uint8_t)n->numports;
	ni.guid = n->guid;
	ni.sysguid = mad_get_field64(n->info, 0, IB_NODE_SYSTEM_GUID_F);
	ni.vendor = mad_get_field(n->info, 0, IB_NODE_VENDORID_F);
	ni.devid = mad_get_field(n->info, 0, IB_NODE_DEVID_F);
	ni.rev = mad_get_field(n->info, 0, IB_NODE_REVISION_F);
	ni.desc = n->nodedesc;
	return topo_builder_add_node(b, &ni, NULL);
}

/*
 * Ports ibnetdisc reached: GUID, LID/LMC (the switch's on port 0),
 * width/speed/state, and the link by peer node GUID.
 */
static void live_add_ports(struct topo_builder *b, int id, ibnd_node_t *n)
{
	bool sw = n->type == IB_NODE_SWITCH;
	uint32_t capmask = 0;

	if (sw && n->ports[0])
		capmask = mad_get_field(n->ports[0]->info, 0, IB_PORT_CAPMASK_F);
	if (sw) {
		struct topo_port_info pi = { 0 };

		pi.guid = n->ports[0] ? n->ports[0]->guid :
			  mad_get_field64(n->info, 0, IB_NODE_PORT_GUID_F);
		pi.lid = n->smalid;
		pi.lmc = n->smalmc;
		topo_builder_set_port(b, id, 0, &pi, NULL);
	}
	for (int pn = 1; pn <= n->numports; pn++) {
		ibnd_port_t *p = n->ports[pn];
		struct topo_port_info pi = { 0 };

		if (!p)
			continue;
		if (!sw)
			capmask = mad_get_field(p->info, 0, IB_PORT_CAPMASK_F);
		pi.guid = p->guid;
		if (!sw) {
			pi.lid = p->base_lid;
			pi.lmc = p->lmc;
		}
		pi.width = (uint8_t)topo_width_from_iba(mad_get_field(p->info, 0,
							      IB_PORT_LINK_WIDTH_ACTIVE_F));
		pi.speed = (uint8_t)live_speed(p, capmask);
		pi.state = (uint8_t)mad_get_field(p->info, 0, IB_PORT_STATE_F);
		topo_builder_set_port(b, id, (unsigned)pn, &pi, NULL);
		if (p->remoteport && p->remoteport->node) {
			struct topo_ref ref = { NULL, p->remoteport->node->guid };

			topo_builder_add_link(b, id, (unsigned)pn, &ref,
					      (unsigned)p->remoteport->portnum, 0, 0, NULL);
		}
	}
}

/* The discovered graph as a struct topo (NULL + errno on failure). */
static struct topo *live_topo(ibnd_fabric_t *f, struct diag_list *dl)
{
	struct topo_builder *b = topo_builder_new(dl);

	if (!b)
		return NULL;
	for (ibnd_node_t *n = f->nodes; n; n = n->next) {
		int id = live_add_node(b, n);

		if (id == -EINVAL && (n->numports < 1 || n->numports > TOPO_MAX_PORTS))
			diag_add(dl, DIAG_ERROR, LIVE_SRC, 0, 0,
				 "node 0x%016llx \"%s\": NumPorts %d out of range",
				 (unsigned long long)n->guid, n->nodedesc, n->numports);
		if (id >= 0)
			live_add_ports(b, id, n);
	}
	return topo_builder_finish(b);
}

static void live_mad_error(struct live_ctx *c, ibnd_node_t *n, const char *what)
{
	diag_add(c->dl, DIAG_ERROR, LIVE_SRC, 0, 0,
		 "switch 0x%016llx \"%s\" (%s): %s: SMP query failed",
		 (unsigned long long)n->guid, n->nodedesc, portid2str(&n->path_portid), what);
}

/* SwitchInfo then LFT blocks 0..LinearFDBTop/64 of switch @n into @raw. */
static int live_read_switch(struct live_ctx *c, ibnd_node_t *n, struct live_raw *raw)
{
	uint8_t buf[IB_SMP_DATA_SIZE] = { 0 };
	ib_portid_t pid = n->path_portid;
	uint32_t top, nblocks;
	char what[64];

	if (!smp_query_via(buf, &pid, IB_ATTR_SWITCH_INFO, 0, 0, c->mp)) {
		live_mad_error(c, n, "SwitchInfo");
		return -EIO;
	}
	top = mad_get_field(buf, 0, IB_SW_LINEAR_FDB_TOP_F);
	if (top > TOPO_MAX_UCAST_LID)
		top = TOPO_MAX_UCAST_LID;
	nblocks = top / LFT_BLOCK + 1;
	raw->ntop = top;
	raw->port = malloc((size_t)nblocks * LFT_BLOCK);
	if (!raw->port) {
		diag_add(c->dl, DIAG_ERROR, LIVE_SRC, 0, 0, "out of memory");
		return -ENOMEM;
	}
	for (uint32_t blk = 0; blk < nblocks; blk++) {
		pid = n->path_portid;
		if (!smp_query_via(raw->port + (size_t)blk * LFT_BLOCK, &pid,
				   IB_ATTR_LINEARFORWTBL, blk, 0, c->mp)) {
			snprintf(what, sizeof(what), "LinearForwardingTable block %u (LIDs %u-%u)",
				 blk, blk * LFT_BLOCK, blk * LFT_BLOCK + LFT_BLOCK - 1);
			live_mad_error(c, n, what);
			return -EIO;
		}
	}
	return 0;
}

/* Highest LID that @raw routes somewhere (0 if none). */
static uint32_t live_raw_max(const struct live_raw *raw)
{
	for (uint32_t lid = raw->ntop; lid > 0; lid--)
		if (raw->port[lid] != LFT_NONE)
			return lid;
	return 0;
}

/* Read every switch's table and bind it to @t's switch order. */
static struct lft *live_lfts(struct live_ctx *c, const struct topo *t, int *rc)
{
	struct live_raw *raw = calloc(t->nswitches ? t->nswitches : 1, sizeof(*raw));
	uint32_t max_lid = t->max_lid;
	struct lft *l = NULL;

	*rc = raw ? 0 : -ENOMEM;
	for (ibnd_node_t *n = c->f->nodes; n && !*rc; n = n->next) {
		uint32_t node = topo_find_guid(t, n->guid);
		uint32_t sw = node == TOPO_NONE ? TOPO_NONE : t->node_sw[node];

		if (n->type != IB_NODE_SWITCH || sw == TOPO_NONE || raw[sw].port)
			continue;
		*rc = live_read_switch(c, n, &raw[sw]);
		if (!*rc && live_raw_max(&raw[sw]) > max_lid)
			max_lid = live_raw_max(&raw[sw]);
	}
	if (!*rc && !(l = lft_new(t->nswitches, max_lid)))
		*rc = -ENOMEM;
	for (uint32_t sw = 0; sw < t->nswitches && l; sw++) {
		uint32_t n = raw[sw].ntop + 1;

		/* LinearFDBTop 0: the SM never programmed it, as if absent */
		if (!raw[sw].port || !raw[sw].ntop)
			continue;
		if (n > l->nlids)
			n = l->nlids;
		memcpy(l->port + (uint64_t)sw * l->nlids, raw[sw].port, n);
		lft_set(l, sw, 0, LFT_NONE);	/* LID 0 is never a destination */
		l->have[sw] = 1;
	}
	for (uint32_t sw = 0; raw && sw < t->nswitches; sw++)
		free(raw[sw].port);
	free(raw);
	if (*rc == -ENOMEM)
		diag_add(c->dl, DIAG_ERROR, LIVE_SRC, 0, 0, "out of memory");
	return l;
}

/* Switch @n's SL2VL rows of every (input, cabled output) pair into @v (topo node @tn). */
static int live_sl2vl_switch(struct live_ctx *c, const struct topo *t, uint32_t tn,
			     ibnd_node_t *n, struct live_vl *v)
{
	char what[64];

	for (int o = 1; o <= n->numports; o++) {
		uint8_t *base = v->sl2vl + ((size_t)t->port_off[tn] + (unsigned)o) * 16;
		bool first = true;

		if (!n->ports[o] || !n->ports[o]->remoteport)
			continue;
		for (int i = 0; i <= n->numports; i++) {
			uint8_t buf[IB_SMP_DATA_SIZE] = { 0 }, row[16];
			ib_portid_t pid = n->path_portid;

			if (i == o || (i && (!n->ports[i] || !n->ports[i]->remoteport)))
				continue;
			if (!smp_query_via(buf, &pid, IB_ATTR_SLVL_TABLE, (unsigned)(i << 8 | o), 0,
					   c->mp)) {
				snprintf(what, sizeof(what), "SLtoVLMappingTable in %d out %d", i, o);
				live_mad_error(c, n, what);
				return -EIO;
			}
			for (unsigned sl = 0; sl < 16; sl++)
				row[sl] = (uint8_t)(buf[sl >> 1] >> ((sl & 1) ? 0 : 4) & 15);
			if (first)
				memcpy(base, row, 16);
			else if (memcmp(row, base, 16) &&
				 chk_vlx_add(&v->vlx, t->port_off[tn] + (unsigned)i,
					     t->port_off[tn] + (unsigned)o, row))
				return -ENOMEM;
			first = false;
		}
	}
	return 0;
}

/* One VL arbitration table (@blk 1 low, 3 high) of port @o as "V:W,..", "-" when empty. */
static int live_vlarb_table(struct live_ctx *c, ibnd_node_t *n, int o, unsigned blk,
			    unsigned cap, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (unsigned b = 0; b < 2 && b * 32 < cap; b++) {
		uint8_t buf[IB_SMP_DATA_SIZE] = { 0 };
		ib_portid_t pid = n->path_portid;
		char what[64];

		if (!smp_query_via(buf, &pid, IB_ATTR_VL_ARBITRATION,
				   (blk + b) << 16 | (unsigned)o, 0, c->mp)) {
			snprintf(what, sizeof(what), "VLArbitrationTable block %u port %d", blk + b, o);
			live_mad_error(c, n, what);
			return -EIO;
		}
		for (unsigned e = 0; e < 32 && b * 32 + e < cap; e++)
			if (buf[2 * e + 1] && len + 16 < size)
				len += (size_t)snprintf(out + len, size - len, "%s%u:%u",
							len ? "," : "", buf[2 * e] & 15u,
							buf[2 * e + 1]);
	}
	if (!len)
		snprintf(out, size, "-");
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Every cabled switch port's VL arbitration, as "low L high H" lines into
 * @all (one per port, sorted), then counted into v->vlarb: the distinct
 * lines, most ports first.
 */
static int live_vlarb(struct live_ctx *c, struct live_vl *v)
{
	char **all = NULL, low[512], high[512];
	uint32_t n = 0, cap = 0;
	int rc = 0;

	for (ibnd_node_t *nd = c->f->nodes; nd && !rc; nd = nd->next)
		for (int o = 1; nd->type == IB_NODE_SWITCH && o <= nd->numports && !rc; o++) {
			ibnd_port_t *p = nd->ports[o];

			if (!p || !p->remoteport)
				continue;
			rc = live_vlarb_table(c, nd, o, 1, mad_get_field(p->info, 0,
					      IB_PORT_VL_ARBITRATION_LOW_CAP_F), low, sizeof(low));
			if (!rc)
				rc = live_vlarb_table(c, nd, o, 3, mad_get_field(p->info, 0,
						      IB_PORT_VL_ARBITRATION_HIGH_CAP_F), high,
						      sizeof(high));
			if (!rc && n == cap) {
				char **m = realloc(all, (cap = cap ? 2 * cap : 64) * sizeof(*m));

				rc = m ? 0 : -ENOMEM;
				all = m ? m : all;
			}
			if (!rc && !(all[n] = malloc(strlen(low) + strlen(high) + 16)))
				rc = -ENOMEM;
			if (!rc)
				sprintf(all[n++], "low %s high %s", low, high);
		}
	if (!rc)
		qsort(all, n, sizeof(*all), cmp_str);
	v->vlarb = rc ? NULL : calloc((size_t)n + 1, sizeof(*v->vlarb));
	for (uint32_t i = 0, j; !rc && i < n; i = j) {
		char *line;

		for (j = i; j < n && !strcmp(all[j], all[i]); j++)
			;
		if (!(line = malloc(strlen(all[i]) + 24)))
			rc = -ENOMEM;
		else
			sprintf(line, "%u ports: %s", j - i, all[i]);
		v->vlarb[v->nvlarb++] = line;
	}
	for (uint32_t i = 0; i < n; i++)
		free(all[i]);
	free(all);
	return rc;
}

/* The SL2VL and VL arbitration tables of every switch of @t into @v. */
static int live_vls(struct live_ctx *c, const struct topo *t, struct live_vl *v)
{
	int rc = 0;

	memset(v, 0, sizeof(*v));
	v->sl2vl = malloc((size_t)t->nports * 16 + 1);
	if (!v->sl2vl)
		return -ENOMEM;
	for (uint32_t p = 0; p < t->nports; p++)	/* not read: identity, as a dump's */
		for (unsigned sl = 0; sl < 16; sl++)
			v->sl2vl[(size_t)p * 16 + sl] = (uint8_t)sl;
	for (ibnd_node_t *n = c->f->nodes; n && !rc; n = n->next) {
		uint32_t tn = topo_find_guid(t, n->guid);

		if (n->type == IB_NODE_SWITCH && tn != TOPO_NONE)
			rc = live_sl2vl_switch(c, t, tn, n, v);
	}
	chk_vlx_sort(&v->vlx);
	if (!rc)
		rc = live_vlarb(c, v);
	if (rc == -ENOMEM)
		diag_add(c->dl, DIAG_ERROR, LIVE_SRC, 0, 0, "out of memory");
	return rc;
}

void live_vl_free(struct live_vl *vl)
{
	free(vl->sl2vl);
	chk_vlx_free(&vl->vlx);
	for (uint32_t i = 0; i < vl->nvlarb; i++)
		free(vl->vlarb[i]);
	free(vl->vlarb);
	memset(vl, 0, sizeof(*vl));
}

static const char *live_ca_name(const char *ca)
{
	return ca ? ca : "(first HCA)";
}

/**
 * live_read - discover the fabric and read every switch's LFT with SMPs
 * @ca: local HCA name (NULL = the first one umad finds)
 * @port: local port number (0 = the first active port)
 * @t, @l: on success, the fabric and its tables (caller frees them with
 *         topo_free() / lft_free()); untouched on failure
 * @dl: diagnostics; every failure names what failed
 *
 * Needs read/write access to /dev/infiniband/umad* (usually root) or an
 * ibsim client environment (LD_PRELOAD=libumad2sim.so).
 * Return: 0; -EIO when discovery or any SMP fails; -EINVAL when the
 * discovered fabric is inconsistent; -ENOMEM.
 */
int live_read(const char *ca, int port, struct topo **t, struct lft **l, struct live_vl *vl,
	      struct diag_list *dl)
{
	int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
	struct ibnd_config cfg = { 0 };
	struct live_ctx c = { NULL, NULL, dl };
	struct topo *topo = NULL;
	struct lft *lft = NULL;
	int rc = 0;

	cfg.max_smps = LIVE_MAX_SMPS;
	cfg.flags = IBND_CONFIG_MLX_EPI;	/* FDR10 is only in ExtendedPortInfo */
	c.f = ibnd_discover_fabric((char *)ca, port, NULL, &cfg);
	if (!c.f) {
		diag_add(dl, DIAG_ERROR, LIVE_SRC, 0, 0,
			 "fabric discovery through %s port %d failed (needs read/write access to "
			 "/dev/infiniband/umad*, usually root; try --ca/--port)",
			 live_ca_name(ca), port);
		return -EIO;
	}
	/* one umad client at a time: ibnetdisc has closed its port by now */
	c.mp = mad_rpc_open_port((char *)ca, port, classes, 2);
	if (!c.mp) {
		diag_add(dl, DIAG_ERROR, LIVE_SRC, 0, 0, "cannot open umad port %s/%d: %s",
			 live_ca_name(ca), port, strerror(errno ? errno : ENODEV));
		rc = -EIO;
		goto out;
	}
	topo = live_topo(c.f, dl);
	if (!topo) {
		rc = errno == ENOMEM ? -ENOMEM : -EINVAL;
		diag_add(dl, DIAG_ERROR, LIVE_SRC, 0, 0,
			 "the discovered fabric is not consistent (see above)");
		goto out;
	}
	lft = live_lfts(&c, topo, &rc);
	if (!rc && vl && (rc = live_vls(&c, topo, vl)))
		live_vl_free(vl);
	if (rc) {
		lft_free(lft);
		topo_free(topo);
		goto out;
	}
	*t = topo;
	*l = lft;
out:
	if (c.mp)
		mad_rpc_close_port(c.mp);
	ibnd_destroy_fabric(c.f);
	return rc;
}

#else /* !HAVE_LIVE */

int live_read(const char *ca, int port, struct topo **t, struct lft **l, struct live_vl *vl,
	      struct diag_list *dl)
{
	(void)port;
	(void)t;
	(void)l;
	(void)vl;
	diag_add(dl, DIAG_ERROR, "live", 0, 0,
		 "live reading (%s) is not available: ffroute was built without "
		 "libibnetdisc/libibmad/libibumad (Debian: apt-get install libibnetdisc-dev "
		 "libibmad-dev libibumad-dev, then re-run configure)",
		 ca ? ca : "--live");
	return -ENOTSUP;
}

void live_vl_free(struct live_vl *vl)
{
	(void)vl;
}

#endif /* HAVE_LIVE */
