/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lft.h - linear forwarding tables of a whole fabric.
 *
 * One flat byte block of nsw x nlids entries: row = switch ordinal
 * (topo->sw_node[] order), column = destination LID.  An entry is the
 * out-port, 0 = "this switch", LFT_NONE = no route.  nlids is max_lid + 1.
 * Memory: 1 B per (switch, LID): 700 switches x 48k LIDs = 33 MB.
 *
 * RETURN VALUE: int functions return 0 or -errno; constructors return NULL
 * with errno set.
 */
#ifndef FFROUTE_LFT_H
#define FFROUTE_LFT_H

#include <stdbool.h>
#include <stdint.h>

#define LFT_NONE 0xFF
#define LFT_COLS 64	/* LIDs per column block (lft_cols_get/put) */

struct lft {
	uint32_t nsw;		/* switches (rows) */
	uint32_t nlids;		/* LIDs per row: max_lid + 1 */
	uint8_t *port;		/* [nsw * nlids] */
	uint8_t *have;		/* [nsw] 1 = a table was read/computed for it */
};

/** lft_new - all entries LFT_NONE, no switch marked present */
struct lft *lft_new(uint32_t nsw, uint32_t max_lid);
/**
 * lft_new_raw - lft_new() without setting the entries, for a caller that
 * writes every one.  Both ask for transparent huge pages (a page fault
 * per 2 MiB, not per 4 KiB, of a fresh table)
 */
struct lft *lft_new_raw(uint32_t nsw, uint32_t max_lid);
/** lft_free - release (NULL is fine) */
void lft_free(struct lft *l);

struct topo;
/**
 * lft_digest - a fingerprint of what @l routes on @t: the sum of a hash of
 * every entry (switch node GUID, destination port GUID, LMC offset, out
 * port) whose LID (at most @max_lid: what was installed) has a port in @t.
 * Keyed by GUIDs, not LIDs, so it holds when a dump is remapped to other
 * LIDs; ffroute.sl carries it so that a checker can tell whether the SLs
 * belong to the LFTs beside them.
 */
uint64_t lft_digest(const struct topo *t, const struct lft *l, uint32_t max_lid);

static inline uint8_t lft_get(const struct lft *l, uint32_t sw, uint32_t lid)
{
	return lid < l->nlids ? l->port[(uint64_t)sw * l->nlids + lid] : LFT_NONE;
}

static inline void lft_set(struct lft *l, uint32_t sw, uint32_t lid, uint8_t port)
{
	l->port[(uint64_t)sw * l->nlids + lid] = port;
}

/*
 * Column blocks: code that works one destination LID at a time touches
 * one row per switch, far apart (a cache and TLB miss per switch on a big
 * fabric); it copies the columns of up to LFT_COLS LIDs at once, row by
 * row, into a [nsw][LFT_COLS] block: blk[sw * LFT_COLS + k] is the entry
 * of switch sw for lids[k].
 */
/** lft_cols_get - copy the columns of @lids[0..n) (n <= LFT_COLS; past the table: LFT_NONE) into @blk */
void lft_cols_get(const struct lft *l, const uint32_t *lids, uint32_t n, uint8_t *blk);
/** lft_cols_put - copy @blk back into the columns of @lids[0..n) (those in the table) */
void lft_cols_put(struct lft *l, const uint32_t *lids, uint32_t n, const uint8_t *blk);

#endif
