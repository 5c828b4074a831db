// SPDX-License-Identifier: BSD-2-Clause
/*
 * hfr.h - hfreduce-check: HFReduce's inter-node allreduce (Fire-Flyer 2,
 * section IV) as one schedule with three consumers: the path model (which
 * transfers share which links under given LFTs), the local transport
 * (threads, so the algorithm is tested for real here) and the verbs
 * transport (RDMA WRITE with immediate on a real cluster).
 *
 * Schedule: NCCL's double binary tree (chk_dbt_parent), the data split in
 * two halves, one per tree, each half in chunks; reduce up the tree, then
 * broadcast down, both trees at once, pipelined.  Step model: in tree T of
 * height H, chunk c goes up from a node at depth d at step c + H - d and
 * down from a node at depth d at step c + H + d, so a node forwards a chunk
 * the step after it has it.  Ring allreduce (reduce-scatter, allgather) is
 * there for comparison.
 */
#ifndef HFR_H
#define HFR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HFR_MAX_CHILD 3

/* ---- trees and schedules (sched.c) ----------------------------------------- */

struct hfr_tree {
	uint32_t n;
	int32_t root;
	uint32_t height;		/* max depth */
	int32_t *parent;		/* [n], -1 for the root */
	uint32_t *depth;		/* [n] */
	uint8_t *nchild;		/* [n] */
	int32_t (*child)[HFR_MAX_CHILD];	/* [n] */
};

int hfr_tree_build(struct hfr_tree *t, uint32_t n, int which);
void hfr_tree_free(struct hfr_tree *t);

enum hfr_phase { HFR_UP = 0, HFR_DOWN = 1, HFR_RING = 2 };

struct hfr_xfer {
	uint32_t src, dst;		/* ranks */
	uint64_t bytes;
	uint32_t chunk;
	uint8_t tree;			/* 0, 1 (ring: 0) */
	uint8_t phase;			/* enum hfr_phase */
};

struct hfr_sched {
	uint32_t nranks, nsteps;
	uint64_t bytes;			/* allreduce size */
	uint32_t *off;			/* [nsteps + 1]: step s = x[off[s] .. off[s+1]) */
	struct hfr_xfer *x;
	uint32_t nx;
};

/* Chunk layout of one tree's half: elements [first, first + count). */
struct hfr_half {
	uint64_t first, count;		/* elements */
	uint32_t nchunks;
	uint64_t chunk_elems;
};

void hfr_halves(uint64_t nelems, uint64_t chunk_elems, struct hfr_half h[2]);
int hfr_sched_dbt(struct hfr_sched *s, uint32_t n, uint64_t nelems, size_t esize,
		  uint64_t chunk_elems);
int hfr_sched_ring(struct hfr_sched *s, uint32_t n, uint64_t nelems, size_t esize);
void hfr_sched_free(struct hfr_sched *s);

/* ---- reduction (reduce.c) --------------------------------------------------- */

enum hfr_dtype { HFR_F32 = 0, HFR_BF16 = 1 };

size_t hfr_dtype_size(enum hfr_dtype d);
/* dst[i] += src[i], i < count; SIMD through GCC vector extensions */
void hfr_add(enum hfr_dtype d, void *dst, const void *src, size_t count);
float hfr_bf16_to_f32(uint16_t v);
uint16_t hfr_f32_to_bf16(float f);	/* round to nearest even; NaN stays NaN */

/* ---- transports and the allreduce (allreduce.c) ------------------------------ */

/*
 * A transport moves chunks between ranks.  A rank's receive regions are
 * indexed by (peer, slot), slot = tree * 2 + phase; put() writes @len bytes
 * at byte offset @off of the peer's region for (me, slot), and wait()
 * blocks until that range has arrived and returns where it is.  A region is
 * written once per offset, so nothing is ever overwritten in flight.
 */
/*
 * Timing of one rank's pipeline: iteration i reduces chunk i up both trees
 * and broadcasts chunk i - 2 down both (allreduce.c); ns[i] is when it
 * ended (from the start of the allreduce), bytes[i] what the rank put in
 * it.  hfr_allreduce fills up to @cap entries and sets @n.
 */
struct hfr_steps {
	uint32_t n, cap;
	uint64_t *ns, *bytes;
};

struct hfr_xport {
	void *ctx;
	uint32_t rank, nranks;
	struct hfr_steps *steps;	/* optional: per-iteration timing */
	int (*put)(struct hfr_xport *x, uint32_t peer, unsigned slot, uint64_t off,
		   const void *buf, uint64_t len);
	int (*wait)(struct hfr_xport *x, uint32_t peer, unsigned slot, uint64_t off,
		    uint64_t len, const void **data);
	int (*flush)(struct hfr_xport *x);	/* every put complete (may be NULL) */
};

/*
 * hfr_allreduce - sum @buf (nelems of @d) over all ranks with the pipelined
 * double binary tree; every rank calls it with its own transport.
 * Return 0 or -errno.
 */
int hfr_allreduce(struct hfr_xport *x, enum hfr_dtype d, void *buf, uint64_t nelems,
		  uint64_t chunk_elems);
/* hfr_iterations - pipeline iterations of hfr_allreduce (struct hfr_steps' size) */
uint32_t hfr_iterations(uint64_t nelems, uint64_t chunk_elems);
/* hfr_steps_new / _free - @cap entries (NULL on failure) */
struct hfr_steps *hfr_steps_new(uint32_t cap);
void hfr_steps_free(struct hfr_steps *s);
/*
 * hfr_steps_print - one line for @who (mean and slowest iteration, its
 * bytes and bandwidth); with @every, a line per iteration before it.
 */
void hfr_steps_print(FILE *f, const char *who, const struct hfr_steps *s, bool every);

/* Local transport: @n ranks as threads of this process, regions of
 * @region_bytes each (at least half the buffer). */
struct hfr_local;
struct hfr_local *hfr_local_new(uint32_t n, uint64_t region_bytes);
void hfr_local_xport(struct hfr_local *l, uint32_t rank, struct hfr_xport *x);
void hfr_local_free(struct hfr_local *l);

/* Run an allreduce over @n threads: buf[r] is rank r's buffer. */
int hfr_local_allreduce(uint32_t n, enum hfr_dtype d, void **buf, uint64_t nelems,
			uint64_t chunk_elems, struct hfr_steps *rank0);

/* ---- test data (cmd_local.c): known inputs, exact sums ------------------------ */

float hfr_pattern(enum hfr_dtype d, uint32_t r, uint64_t i);
void hfr_fill(enum hfr_dtype d, void *buf, uint32_t r, uint64_t n);
uint64_t hfr_verify(enum hfr_dtype d, const void *buf, uint32_t nranks, uint64_t n);

#endif
