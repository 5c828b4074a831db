// SPDX-License-Identifier: BSD-2-Clause
/*
 * verbs.c - --verbs: the allreduce over RDMA, one process per host.  Each
 * rank opens one RC QP per tree neighbour and exposes one receive region
 * per (neighbour, slot) of half the buffer, so a chunk is written once to
 * its own place and never overwritten in flight (no credits needed).  A
 * put is an RDMA WRITE with immediate (slot << 28 | length); RC delivers a
 * QP's writes in order, so each region's arrived prefix grows by the
 * lengths of its immediates.  QP numbers, LIDs and regions are exchanged
 * over TCP through rank 0 (the first host).  With no RDMA device it says
 * so and exits 77 (skip), before touching the network.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "hfrcli.h"
#include "verbs_int.h"

int fail(const char *what)
{
	int e = errno ? errno : EIO;

	fprintf(stderr, "hfreduce-check: %s: %s\n", what, strerror(e));
	return -e;
}

struct peer *find_peer(struct vctx *v, uint32_t rank)
{
	for (unsigned i = 0; i < v->npeer; i++)
		if (v->peer[i].rank == rank)
			return &v->peer[i];
	return NULL;
}

/* One completion: a receive advances its region, a send is one fewer outstanding. */
int poll_one(struct vctx *v)
{
	struct ibv_wc wc;
	int n;

	while ((n = ibv_poll_cq(v->cq, 1, &wc)) == 0)
		;
	if (n < 0)
		return fail("ibv_poll_cq");
	if (wc.status != IBV_WC_SUCCESS) {
		fprintf(stderr, "hfreduce-check: work completion error: %s (wr %llu)\n",
			ibv_wc_status_str(wc.status), (unsigned long long)wc.wr_id);
		return -EIO;
	}
	if (wc.opcode == IBV_WC_RECV_RDMA_WITH_IMM) {
		uint32_t imm = ntohl(wc.imm_data);
		struct peer *p = &v->peer[wc.wr_id];

		p->filled[imm >> 28] += imm & 0x0fffffffu;
	} else if (v->outstanding) {
		v->outstanding--;
	}
	return 0;
}

int v_put(struct hfr_xport *x, uint32_t peer, unsigned slot, uint64_t off,
		 const void *buf, uint64_t len)
{
	struct vctx *v = x->ctx;
	struct peer *p = find_peer(v, peer);
	struct ibv_mr *mr = (const char *)buf >= v->recv && (const char *)buf < v->recv + v->recv_mr->length
			    ? v->recv_mr : v->data_mr;
	struct ibv_sge sge = { (uintptr_t)buf, (uint32_t)len, mr->lkey };
	struct ibv_send_wr wr = { 0 }, *bad;

	if (!p || !p->raddr[slot] || len >= 1u << 28)
		return -EINVAL;
	while (v->outstanding >= 512)
		if (poll_one(v))
			return -EIO;
	wr.wr_id = (uint64_t)-1;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.imm_data = htonl((uint32_t)slot << 28 | (uint32_t)len);
	wr.wr.rdma.remote_addr = p->raddr[slot] + off;
	wr.wr.rdma.rkey = p->rkey;
	errno = ibv_post_send(p->qp, &wr, &bad);
	if (errno)
		return fail("ibv_post_send");
	v->outstanding++;
	return 0;
}

int v_wait(struct hfr_xport *x, uint32_t peer, unsigned slot, uint64_t off,
		  uint64_t len, const void **data)
{
	struct vctx *v = x->ctx;
	struct peer *p = find_peer(v, peer);

	if (!p || !p->region[slot])
		return -EINVAL;
	while (p->filled[slot] < off + len)
		if (poll_one(v))
			return -EIO;
	*data = p->region[slot] + off;
	return 0;
}

int v_flush(struct hfr_xport *x)
{
	struct vctx *v = x->ctx;

	while (v->outstanding)
		if (poll_one(v))
			return -EIO;
	return 0;
}

/* Neighbours in both trees and the slots each sends me (bit s = slot s). */
int neighbours(struct vctx *v, uint32_t me, uint32_t n, unsigned recv_slots[MAXPEER])
{
	for (int t = 0; t < 2; t++) {
		struct hfr_tree tr;
		int rc = hfr_tree_build(&tr, n, t);

		if (rc)
			return rc;
		for (uint32_t r = 0; r < n; r++) {
			bool child = tr.parent[r] == (int32_t)me, parent = tr.parent[me] == (int32_t)r;
			struct peer *p;

			if (!child && !parent)
				continue;
			if (!(p = find_peer(v, r))) {
				p = &v->peer[v->npeer++];
				p->rank = r;
				recv_slots[p - v->peer] = 0;
			}
			recv_slots[p - v->peer] |= 1u << (t * 2 + (child ? HFR_UP : HFR_DOWN));
		}
		hfr_tree_free(&tr);
	}
	return 0;
}

static int open_dev(struct vctx *v, const struct hfr_cli *o)
{
	int num = 0;
	struct ibv_device **devs = ibv_get_device_list(&num);
	struct ibv_port_attr pa;

	if (!devs || num == 0) {
		fprintf(stderr, "hfreduce-check: no RDMA device found (ibv_get_device_list: %s): "
			"verbs mode needs an RDMA-capable HCA and its kernel driver; skipping\n",
			devs ? "0 devices" : strerror(errno));
		if (devs)
			ibv_free_device_list(devs);
		return 77;
	}
	for (int i = 0; i < num && !v->ctx; i++)
		if (!o->dev || !strcmp(ibv_get_device_name(devs[i]), o->dev))
			v->ctx = ibv_open_device(devs[i]);
	ibv_free_device_list(devs);
	if (!v->ctx) {
		fprintf(stderr, "hfreduce-check: cannot open RDMA device %s\n", o->dev ? o->dev : "");
		return 2;
	}
	v->port = o->ib_port;
	if (ibv_query_port(v->ctx, (uint8_t)v->port, &pa)) {
		fail("ibv_query_port");
		return 2;
	}
	if (pa.state != IBV_PORT_ACTIVE) {
		fprintf(stderr, "hfreduce-check: port %d is not active\n", v->port);
		return 2;
	}
	v->lid = pa.lid;
	v->lmc = pa.lmc;
	return 0;
}

int hfr_verbs_main(const struct hfr_cli *o)
{
	struct vctx v = { .lmc_spread = o->lmc_spread };
	int rc = open_dev(&v, o);

	if (rc)
		return rc;
	rc = hfr_verbs_run(&v, o);
	hfr_verbs_close(&v);
	return rc;
}
