// SPDX-License-Identifier: BSD-2-Clause
/*
 * verbs_int.h - the verbs transport's state, shared by verbs.c (device and
 * transport) and verbs_run.c (QPs, bootstrap over TCP, the timed run).
 */
#ifndef HFR_VERBS_INT_H
#define HFR_VERBS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "hfrcli.h"

#define MAXPEER 8

struct peer {
	uint32_t rank;
	struct ibv_qp *qp;
	uint64_t raddr[4];		/* its region for my writes, per slot (0 = none) */
	uint32_t rkey;
	uint64_t filled[4];		/* bytes arrived from it, per slot */
	char *region[4];		/* my receive region for it, per slot */
};

struct vctx {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *data_mr, *recv_mr;
	char *recv;
	uint64_t half;
	struct peer peer[MAXPEER];
	unsigned npeer;
	uint32_t outstanding;
	uint16_t lid;
	uint8_t lmc;
	int port;
	bool lmc_spread;
};

int fail(const char *what);
struct peer *find_peer(struct vctx *v, uint32_t rank);
int poll_one(struct vctx *v);
int v_put(struct hfr_xport *x, uint32_t peer, unsigned slot, uint64_t off, const void *buf,
	  uint64_t len);
int v_wait(struct hfr_xport *x, uint32_t peer, unsigned slot, uint64_t off, uint64_t len,
	   const void **data);
int v_flush(struct hfr_xport *x);
int neighbours(struct vctx *v, uint32_t me, uint32_t n, unsigned recv_slots[MAXPEER]);
int hfr_verbs_run(struct vctx *v, const struct hfr_cli *o);
void hfr_verbs_close(struct vctx *v);

#endif
