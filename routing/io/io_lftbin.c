// SPDX-License-Identifier: BSD-2-Clause
/*
 * io_lftbin.c - ffroute.lftb: the forwarding tables in a compact binary
 * form for ffroute's own use (`route --previous` reads its base from it).
 *
 * Why.  opensm-lfts.dump spends about 80 bytes of text per entry: 1.7 GB
 * for the 16,384-endpoint tree, 6.8 GB for 32,768 hosts.  OpenSM and the
 * operators need it; ffroute reading its own base back does not.  This
 * file holds one byte per entry, written and read at the cost of a copy.
 *
 * Format (integers little-endian):
 *   "ffroute-lfts 1\n"         15 bytes
 *   u32 nsw, u32 nlids          switches written, LIDs per row
 *   nsw x { u64 node GUID, nlids bytes (out port, 0xFF none) }
 *   u64 lft_digest()            of the tables on the topology written with
 * The reader maps rows to @t's switches by node GUID (a switch of @t with
 * no row has no table), refuses a GUID @t lacks or a switch given twice,
 * a short or long file, and a digest that does not match what it read:
 * "file: error: ..." with the byte offset.  Deterministic: switch ordinal
 * order.  Cost O(switches x LIDs).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/io.h>

static const char MAGIC[] = "ffroute-lfts 1\n";
#define MAGIC_LEN (sizeof(MAGIC) - 1)
#define MAGIC_NAME_LEN (MAGIC_LEN - 2)	/* "ffroute-lfts ", before the version */

bool lft_bin_head(const char *buf, size_t len)
{
	return len >= MAGIC_NAME_LEN && !memcmp(buf, MAGIC, MAGIC_NAME_LEN);
}

static void put_le(uint8_t *o, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		o[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

int lft_write_bin(const struct topo *t, const struct lft *l, FILE *fp)
{
	uint8_t h[8];
	uint32_t n = 0;

	if (l->nsw != t->nswitches)
		return -EINVAL;
	for (uint32_t s = 0; s < l->nsw; s++)
		n += l->have[s] ? 1 : 0;
	fwrite(MAGIC, 1, MAGIC_LEN, fp);
	put_le(h, n, 4);
	put_le(h + 4, l->nlids, 4);
	fwrite(h, 1, 8, fp);
	for (uint32_t s = 0; s < l->nsw; s++) {
		if (!l->have[s])
			continue;
		put_le(h, t->node_guid[t->sw_node[s]], 8);
		fwrite(h, 1, 8, fp);
		fwrite(l->port + (uint64_t)s * l->nlids, 1, l->nlids, fp);
	}
	put_le(h, lft_digest(t, l, UINT32_MAX), 8);
	fwrite(h, 1, 8, fp);
	return fflush(fp) || ferror(fp) ? -EIO : 0;
}

/* The rows of @buf (after the header) into a new table for @t; NULL + diagnostics. */
static struct lft *bin_rows(const uint8_t *buf, size_t len, const char *fname,
			    const struct topo *t, uint32_t nsw, uint32_t nlids, struct diag_list *dl)
{
	size_t off = MAGIC_LEN + 8, row = 8 + (size_t)nlids;
	struct lft *l;

	if (!nlids || nlids > TOPO_MAX_UCAST_LID + 1 || (len - off - 8) / row != nsw ||
	    (len - off - 8) % row) {
		diag_add(dl, DIAG_ERROR, fname, 0, 0, "%zu bytes: not %u rows of %u LIDs and a "
			 "digest (a truncated or foreign file)", len, nsw, nlids);
		return NULL;
	}
	if (!(l = lft_new(t->nswitches, nlids - 1))) {
		diag_add(dl, DIAG_ERROR, fname, 0, 0, "out of memory");
		return NULL;
	}
	for (uint32_t i = 0; i < nsw; i++, off += row) {
		uint64_t guid = get_le(buf + off, 8);
		uint32_t n = topo_find_guid(t, guid);

		if (n == TOPO_NONE || !topo_is_switch(t, n) || l->have[t->node_sw[n]]) {
			diag_add(dl, DIAG_ERROR, fname, 0, 0, "byte %zu: switch 0x%016llx %s", off,
				 (unsigned long long)guid, n == TOPO_NONE || !topo_is_switch(t, n) ?
				 "is not a switch of the fabric" : "given twice");
			lft_free(l);
			return NULL;
		}
		memcpy(l->port + (uint64_t)t->node_sw[n] * l->nlids, buf + off + 8, nlids);
		l->have[t->node_sw[n]] = 1;
	}
	return l;
}

/* The whole file @path into *@buf (binary: ffr_load_file() is for text). */
static int load_bin(const char *path, char **buf, size_t *len, struct diag_list *dl)
{
	FILE *fp = fopen(path, "rb");
	long n;

	*buf = NULL;
	if (!fp || fseek(fp, 0, SEEK_END) || (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) ||
	    !(*buf = malloc((size_t)n + 1)) || fread(*buf, 1, (size_t)n, fp) != (size_t)n) {
		diag_add(dl, DIAG_ERROR, path, 0, 0, "cannot read: %s",
			 strerror(errno ? errno : EIO));
		if (fp)
			fclose(fp);
		free(*buf);
		*buf = NULL;
		return -EIO;
	}
	fclose(fp);
	*len = (size_t)n;
	return 0;
}

struct lft *lft_read_bin_buf(const uint8_t *b, size_t len, const char *fname,
			     const struct topo *t, struct diag_list *dl)
{
	struct lft *l;

	if (len < MAGIC_LEN + 16 || memcmp(b, MAGIC, MAGIC_LEN)) {
		diag_add(dl, DIAG_ERROR, fname, 1, 1, "not an ffroute.lftb file (no \"%.14s\")",
			 MAGIC);
		return NULL;
	}
	l = bin_rows(b, len, fname, t, (uint32_t)get_le(b + MAGIC_LEN, 4),
		     (uint32_t)get_le(b + MAGIC_LEN + 4, 4), dl);
	if (l && lft_digest(t, l, UINT32_MAX) != get_le(b + len - 8, 8)) {
		diag_add(dl, DIAG_ERROR, fname, 0, 0, "byte %zu: the digest does not match the "
			 "tables read (a damaged file, or written for another fabric)", len - 8);
		lft_free(l);
		l = NULL;
	}
	return l;
}

struct lft *lft_read_bin(const char *path, const struct topo *t, struct diag_list *dl)
{
	char *buf;
	size_t len;
	struct lft *l;

	errno = 0;
	if (load_bin(path, &buf, &len, dl))
		return NULL;
	l = lft_read_bin_buf((const uint8_t *)buf, len, path, t, dl);
	free(buf);
	return l;
}
