// SPDX-License-Identifier: BSD-2-Clause
/*
 * lft.c - the flat LFT block and the loader that binds dump entries to a
 * fabric by switch GUID.  Entries are buffered (8 B each) until the end so
 * the table can be sized once; remapping by destination port GUID follows
 * OpenSM's file engine (the dump's LIDs may be from another sweep).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "base/util.h"
#include "model/lft_load.h"

/*
 * The table, its entries unset, huge pages asked for: tens of megabytes
 * written once each, a page fault every 4 KiB otherwise (the 32k tree's
 * route: 0.4 s of its 4 s), and a column of entries spans a page per
 * switch.
 */
static struct lft *lft_alloc(uint32_t nsw, uint32_t max_lid)
{
	struct lft *l = calloc(1, sizeof(*l));
	uint64_t n = (uint64_t)nsw * (max_lid + 1u);

	if (!l || max_lid > 0xFFFF)
		goto fail;
	l->nsw = nsw;
	l->nlids = max_lid + 1u;
	l->port = malloc(n ? n : 1);
	l->have = calloc(nsw ? nsw : 1, 1);
	if (!l->port || !l->have)
		goto fail;
	ffr_huge_hint(l->port, n);
	return l;
fail:
	lft_free(l);
	errno = ENOMEM;
	return NULL;
}

struct lft *lft_new_raw(uint32_t nsw, uint32_t max_lid)
{
	return lft_alloc(nsw, max_lid);
}

struct lft *lft_new(uint32_t nsw, uint32_t max_lid)
{
	struct lft *l = lft_alloc(nsw, max_lid);

	if (l)
		memset(l->port, LFT_NONE, (size_t)l->nsw * l->nlids);
	return l;
}

void lft_cols_get(const struct lft *l, const uint32_t *lids, uint32_t n, uint8_t *blk)
{
	for (uint32_t s = 0; s < l->nsw; s++) {
		const uint8_t *row = l->port + (size_t)s * l->nlids;
		uint8_t *col = blk + (size_t)s * LFT_COLS;

		for (uint32_t k = 0; k < n; k++)
			col[k] = lids[k] < l->nlids ? row[lids[k]] : LFT_NONE;
	}
}

void lft_cols_put(struct lft *l, const uint32_t *lids, uint32_t n, const uint8_t *blk)
{
	for (uint32_t s = 0; s < l->nsw; s++) {
		uint8_t *row = l->port + (size_t)s * l->nlids;
		const uint8_t *col = blk + (size_t)s * LFT_COLS;

		for (uint32_t k = 0; k < n; k++)
			if (lids[k] < l->nlids)
				row[lids[k]] = col[k];
	}
}

/* One entry's 64-bit hash: splitmix64 rounds over its three keys. */
static uint64_t entry_hash(uint64_t sw_guid, uint64_t port_guid, uint64_t off_port)
{
	uint64_t h = sw_guid;

	h = ffr_rng_next(&h) ^ port_guid;
	h = ffr_rng_next(&h) ^ off_port;
	return ffr_rng_next(&h);
}

uint64_t lft_digest(const struct topo *t, const struct lft *l, uint32_t max_lid)
{
	uint64_t sum = 0;

	for (uint32_t s = 0; s < l->nsw && s < t->nswitches; s++) {
		uint64_t sw_guid = t->node_guid[t->sw_node[s]];

		for (uint32_t lid = 1; lid <= t->max_lid && lid <= max_lid && lid < l->nlids; lid++) {
			uint8_t e = lft_get(l, s, lid);
			uint32_t p = t->lid_port[lid];

			if (e == LFT_NONE || p == TOPO_NONE)
				continue;
			sum += entry_hash(sw_guid, t->port_guid[p],
					  (uint64_t)(lid - t->port_lid[p]) << 8 | e);
		}
	}
	return sum;
}

void lft_free(struct lft *l)
{
	if (!l)
		return;
	free(l->port);
	free(l->have);
	free(l);
}

struct lft_ent {
	uint32_t sw;
	uint16_t lid;
	uint8_t port;
	uint32_t line;		/* where it was read (duplicates are reported) */
	uint16_t col;
};

struct lft_loader {
	const struct topo *t;
	struct diag_list *dl;
	const char *fname;
	unsigned errors_at_start;
	struct lft_ent *e;
	uint32_t n, cap;
	uint32_t max_lid;
	unsigned *seen_line;	/* [nsw] header line of the switch's block, 0 = not seen */
	unsigned remapped;
	unsigned unknown;	/* entries naming a port GUID the fabric lacks */
	uint64_t unknown_guid;	/* the first of them */
};

struct lft_loader *lft_loader_new(const struct topo *t, struct diag_list *dl, const char *fname)
{
	struct lft_loader *ld = calloc(1, sizeof(*ld));

	if (!ld || !(ld->seen_line = calloc(t->nswitches + 1u, sizeof(unsigned)))) {
		free(ld);
		errno = ENOMEM;
		return NULL;
	}
	ld->t = t;
	ld->dl = dl;
	ld->fname = fname ? fname : "<input>";
	ld->errors_at_start = dl->nerrors;
	ld->max_lid = t->max_lid;
	return ld;
}

void lft_loader_free(struct lft_loader *ld)
{
	if (!ld)
		return;
	free(ld->e);
	free(ld->seen_line);
	free(ld);
}

int lft_loader_switch(struct lft_loader *ld, uint64_t guid, unsigned line, unsigned col)
{
	uint32_t node = topo_find_guid(ld->t, guid);
	uint32_t sw;

	if (node == TOPO_NONE) {
		diag_add(ld->dl, DIAG_ERROR, ld->fname, line, col,
			 "switch GUID 0x%016llx is not in the fabric", (unsigned long long)guid);
		return -ENOENT;
	}
	if (!topo_is_switch(ld->t, node)) {
		diag_add(ld->dl, DIAG_ERROR, ld->fname, line, col,
			 "GUID 0x%016llx is a CA, not a switch", (unsigned long long)guid);
		return -ENOENT;
	}
	sw = ld->t->node_sw[node];
	if (ld->seen_line[sw])
		diag_add(ld->dl, DIAG_WARNING, ld->fname, line, col,
			 "switch 0x%016llx listed again (first at line %u); later entries win",
			 (unsigned long long)guid, ld->seen_line[sw]);
	else
		ld->seen_line[sw] = line ? line : 1;
	return (int)sw;
}

int lft_loader_entry(struct lft_loader *ld, int sw, uint32_t lid, unsigned port,
		     uint64_t dest_guid, unsigned line, unsigned col)
{
	const struct topo *t = ld->t;
	uint32_t node = t->sw_node[sw];

	if (lid == 0 || lid > TOPO_MAX_UCAST_LID) {
		diag_add(ld->dl, DIAG_ERROR, ld->fname, line, col,
			 lid ? "LID 0x%x is not a unicast LID" : "LID %u is not a valid LID", lid);
		return -EINVAL;
	}
	if (port != LFT_NONE && port > t->node_nports[node]) {
		diag_add(ld->dl, DIAG_ERROR, ld->fname, line, col,
			 "port %u out of range (switch has %u)", port, t->node_nports[node]);
		return -EINVAL;
	}
	if (dest_guid) {
		uint32_t p = topo_find_port_guid(t, dest_guid);
		uint32_t base = p == TOPO_NONE ? 0 : t->port_lid[p];

		uint32_t span = p == TOPO_NONE ? 1 : 1u << t->port_lmc[p];

		if (p == TOPO_NONE && !ld->unknown++) {	/* the dump and the fabric disagree */
			ld->unknown_guid = dest_guid;
			diag_add(ld->dl, DIAG_WARNING, ld->fname, line, col,
				 "LID %u: port 0x%016llx is not in the fabric; the entry is "
				 "taken for whatever port has LID %u there", lid,
				 (unsigned long long)dest_guid, lid);
		}

		/*
		 * LMC ranges are aligned to 2^LMC, so the offset inside the range
		 * is the low bits of the LID; keep it when moving to the new base.
		 */
		if (base && (lid < base || lid >= base + span)) {
			if (!ld->remapped++)
				diag_add(ld->dl, DIAG_NOTE, ld->fname, line, col,
					 "LID %u belongs to port 0x%016llx, which now has LID %u; "
					 "remapping by port GUID", lid,
					 (unsigned long long)dest_guid, base);
			lid = base + (lid & (span - 1));
		}
	}
	if (ld->n == ld->cap) {
		uint32_t cap = ld->cap ? ld->cap * 2 : 4096;
		struct lft_ent *ne = cap > ld->cap ? realloc(ld->e, (size_t)cap * sizeof(*ne)) : NULL;

		if (!ne) {
			diag_add(ld->dl, DIAG_ERROR, ld->fname, line, col, "out of memory");
			return -ENOMEM;
		}
		ld->e = ne;
		ld->cap = cap;
	}
	ld->e[ld->n++] = (struct lft_ent){ (uint32_t)sw, (uint16_t)lid, (uint8_t)port, line,
					   (uint16_t)(col < 65535 ? col : 65535) };
	if (lid > ld->max_lid)
		ld->max_lid = lid;
	return 0;
}

/*
 * Fill the table; a (switch, LID) given twice is a warning when both say
 * the same port and an error when they differ, never a silent last-wins.
 */
static int set_entries(struct lft_loader *ld, struct lft *l)
{
	size_t bits = (size_t)l->nsw * l->nlids;
	uint8_t *seen = calloc(bits / 8 + 1, 1);
	int rc = 0;

	if (!seen)
		return -ENOMEM;
	for (uint32_t i = 0; i < ld->n; i++) {
		const struct lft_ent *e = &ld->e[i];
		size_t b = (size_t)e->sw * l->nlids + e->lid;
		uint8_t old = lft_get(l, e->sw, e->lid);

		if (seen[b / 8] & (1u << (b % 8))) {
			bool same = old == e->port;

			diag_add(ld->dl, same ? DIAG_WARNING : DIAG_ERROR, ld->fname, e->line, e->col,
				 "LID %u given twice for this switch (%s)", e->lid,
				 same ? "same port" : "different ports");
			rc |= !same;
			if (diag_full(ld->dl))
				break;
			continue;
		}
		seen[b / 8] |= (uint8_t)(1u << (b % 8));
		lft_set(l, e->sw, e->lid, e->port);
	}
	free(seen);
	return rc ? -EINVAL : 0;
}

struct lft *lft_loader_finish(struct lft_loader *ld)
{
	struct lft *l = NULL;

	if (ld->unknown > 1)
		diag_add(ld->dl, DIAG_WARNING, ld->fname, 0, 0, "%u entries name port GUIDs that "
			 "are not in the fabric (the first: 0x%016llx)", ld->unknown,
			 (unsigned long long)ld->unknown_guid);
	if (ld->dl->nerrors > ld->errors_at_start) {
		errno = EINVAL;
		goto out;
	}
	l = lft_new(ld->t->nswitches, ld->max_lid);
	if (!l)
		goto out;
	for (uint32_t i = 0; i < ld->t->nswitches; i++)
		l->have[i] = ld->seen_line[i] != 0;
	if (set_entries(ld, l)) {
		lft_free(l);
		l = NULL;
		errno = EINVAL;
	}
out:
	lft_loader_free(ld);
	return l;
}
