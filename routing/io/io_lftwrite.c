// SPDX-License-Identifier: BSD-2-Clause
/*
 * io_lftwrite.c - writers of unicast forwarding tables:
 *
 *   lft_write_osm      OpenSM's opensm-lfts.dump, byte for byte as OpenSM
 *                      3.3.23 writes it (osm_dump.c dump_ucast_lfts), so
 *                      OpenSM's "file" routing engine (lfts_file) loads it;
 *                      compact, without the comment after each row's port
 *                      (the destination's type, port GUID and description),
 *                      about 11 bytes an entry instead of about 75: the file
 *                      engine loads that too, each LID as written (the port
 *                      GUID only lets it follow a LID that moved since);
 *   lft_write_ibroute  dump_lfts-style blocks as ibroute prints them.
 *
 * What OpenSM does, and these writers copy (checked against OpenSM 3.3.23
 * under ibsim, see tests/integration/test_opensm_dumps.sh):
 *   - one block per switch, in the order of OpenSM's switch table: a
 *     cl_qmap keyed by the node GUID in network byte order, compared as a
 *     host integer, i.e. sorted by the byte-swapped GUID on x86;
 *   - rows for LIDs 0..MAX, where MAX is the highest LID of the fabric;
 *     rows without a port (0xFF) are skipped; the footer prints MAX;
 *   - descriptions as OpenSM's print_desc: at most 63 bytes, anything not
 *     printable replaced by a blank.
 * Only switches that have a table (l->have) are written.  The ibroute
 * writer lists switches in GUID order (dump_lfts uses discovery order,
 * which a file cannot reproduce) and prints the extra LIDs of an LMC range
 * as ibroute does ("path #k out of n: portguid ...").  Deterministic.
 *
 * Time O(switches x LIDs); memory O(switches + LIDs): the part of an
 * opensm-lfts.dump row after the port depends on the LID only, and is
 * formatted once (osm_suffixes()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/io.h>

#define DESC_PRINT_MAX 63

/* OpenSM's print_desc: first 63 bytes, non-printables become blanks. */
static void print_desc(const char *in, char out[DESC_PRINT_MAX + 1])
{
	unsigned i;

	for (i = 0; i < DESC_PRINT_MAX && in[i]; i++) {
		unsigned char ch = (unsigned char)in[i];

		out[i] = ch >= 0x20 && ch < 0x7f ? (char)ch : ' ';
	}
	out[i] = '\0';
}

static const char *node_type_str(unsigned type)
{
	switch (type) {
	case TOPO_NODE_SWITCH: return "Switch";
	case TOPO_NODE_CA: return "Channel Adapter";
	case TOPO_NODE_ROUTER: return "Router";
	default: return "???";
	}
}

/* Highest LID to list: the fabric's, or a higher one that has a route. */
static uint32_t top_lid(const struct topo *t, const struct lft *l)
{
	uint32_t top = t->max_lid < l->nlids ? t->max_lid : l->nlids - 1;

	for (uint32_t sw = 0; sw < l->nsw; sw++)
		for (uint32_t lid = l->nlids - 1; lid > top; lid--)
			if (lft_get(l, sw, lid) != LFT_NONE) {
				top = lid;
				break;
			}
	return top;
}

static uint64_t bswap64(uint64_t x)
{
	uint64_t r = 0;

	for (int i = 0; i < 8; i++, x >>= 8)
		r = (r << 8) | (x & 0xFF);
	return r;
}

struct sw_key {
	uint64_t key;
	uint32_t sw;
};

static int cmp_sw_key(const void *a, const void *b)
{
	const struct sw_key *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* Switch ordinals that have a table, in OpenSM's order or GUID order. */
static uint32_t *switch_order(const struct topo *t, const struct lft *l, bool osm,
			      uint32_t *n)
{
	struct sw_key *k = malloc(((size_t)l->nsw + 1) * sizeof(*k));
	uint32_t *order = malloc(((size_t)l->nsw + 1) * sizeof(*order));
	uint32_t m = 0;

	if (!k || !order) {
		free(k);
		free(order);
		return NULL;
	}
	for (uint32_t sw = 0; sw < l->nsw; sw++) {
		uint64_t guid = t->node_guid[t->sw_node[sw]];

		if (!l->have[sw])
			continue;
		k[m].key = osm ? bswap64(guid) : guid;
		k[m++].sw = sw;
	}
	qsort(k, m, sizeof(*k), cmp_sw_key);
	for (uint32_t i = 0; i < m; i++)
		order[i] = k[i].sw;
	free(k);
	*n = m;
	return order;
}

/* The port behind @lid (OpenSM: osm_get_port_by_lid_ho), or TOPO_NONE. */
static uint32_t dest_port(const struct topo *t, uint32_t lid)
{
	return lid && lid <= t->max_lid ? topo_find_lid(t, lid) : TOPO_NONE;
}

/*
 * What follows "0xLLLL PPP # " on LID @lid's row, the same in every
 * switch's block: formatted once per LID (sfx.text + sfx.off[lid]), so
 * writing a block costs its bytes, not a printf per row.
 */
struct osm_sfx {
	char *text;
	size_t *off;	/* [top + 2]: row suffix lid is text[off[lid] .. off[lid + 1]) */
};

static int osm_suffixes(const struct topo *t, uint32_t top, struct osm_sfx *x)
{
	char desc[DESC_PRINT_MAX + 1], line[160];
	size_t len = 0, cap = 64 * ((size_t)top + 1);

	x->text = malloc(cap);
	x->off = malloc(((size_t)top + 2) * sizeof(*x->off));
	if (!x->text || !x->off)
		return -ENOMEM;
	for (uint32_t lid = 0; lid <= top; lid++) {
		uint32_t p = dest_port(t, lid);
		int n;

		if (p == TOPO_NONE) {
			n = snprintf(line, sizeof(line), "unknown node and type\n");
		} else {
			print_desc(t->node_desc[t->port_node[p]], desc);
			n = snprintf(line, sizeof(line), "%s portguid 0x%016llx: '%s'\n",
				     node_type_str(t->node_type[t->port_node[p]]),
				     (unsigned long long)t->port_guid[p], desc);
		}
		if (n < 0 || n >= (int)sizeof(line))
			n = (int)sizeof(line) - 1;	/* cannot happen: 63-byte descriptions */
		if (len + (size_t)n > cap) {
			char *m = realloc(x->text, 2 * cap + (size_t)n);

			if (!m)
				return -ENOMEM;
			x->text = m;
			cap = 2 * cap + (size_t)n;
		}
		x->off[lid] = len;
		memcpy(x->text + len, line, (size_t)n);
		len += (size_t)n;
	}
	x->off[top + 1] = len;
	return 0;
}

/*
 * "0x%04x %03u # " into @o (LIDs up to 0xffff, ports up to 255), or with
 * @compact "0x%04x %03u\n", the whole row; its length.
 */
static size_t osm_prefix(char *o, uint32_t lid, unsigned port, bool compact)
{
	static const char hex[] = "0123456789abcdef";

	o[0] = '0';
	o[1] = 'x';
	o[2] = hex[lid >> 12 & 15];
	o[3] = hex[lid >> 8 & 15];
	o[4] = hex[lid >> 4 & 15];
	o[5] = hex[lid & 15];
	o[6] = ' ';
	o[7] = (char)('0' + port / 100);
	o[8] = (char)('0' + port / 10 % 10);
	o[9] = (char)('0' + port % 10);
	if (compact) {
		o[10] = '\n';
		return 11;
	}
	memcpy(o + 10, " # ", 3);
	return 13;
}

/* A switch's block; without @x (compact), rows without their comments. */
static void osm_block(const struct topo *t, const struct lft *l, uint32_t sw, uint32_t top,
		      const struct osm_sfx *x, FILE *fp)
{
	uint32_t node = t->sw_node[sw];
	unsigned nports = t->node_nports[node];
	char desc[DESC_PRINT_MAX + 1], buf[1 << 16];
	size_t n = 0;

	print_desc(t->node_desc[node], desc);
	fprintf(fp, "Unicast lids [0-%u] of switch Lid %u guid 0x%016llx ('%s'):\n", top,
		topo_node_lid(t, node), (unsigned long long)t->node_guid[node], desc);
	for (uint32_t lid = 0; lid <= top; lid++) {
		unsigned port = lft_get(l, sw, lid);
		size_t sl = x ? x->off[lid + 1] - x->off[lid] : 0;

		if (port > nports)	/* OpenSM: port >= num_ports (incl. port 0) */
			continue;
		if (n + 13 + sl > sizeof(buf)) {
			fwrite(buf, 1, n, fp);
			n = 0;
		}
		n += osm_prefix(buf + n, lid, port, !x);
		if (x)
			memcpy(buf + n, x->text + x->off[lid], sl);	/* sl < 160 */
		n += sl;
	}
	fwrite(buf, 1, n, fp);
	fprintf(fp, "%u lids dumped\n", top);
}

/**
 * lft_write_osm_how - write @l as OpenSM's opensm-lfts.dump (@compact:
 * without the rows' comments)
 * Return: 0, -EINVAL (@l is not sized for @t), -ENOMEM, or -EIO.
 */
int lft_write_osm_how(const struct topo *t, const struct lft *l, bool compact, FILE *fp)
{
	struct osm_sfx x = { 0 };
	uint32_t n, top, *order;
	int rc;

	if (l->nsw != t->nswitches || !l->nlids)
		return -EINVAL;
	order = switch_order(t, l, true, &n);
	top = top_lid(t, l);
	rc = !order ? -ENOMEM : top > 0xffff ? -EINVAL : compact ? 0 : osm_suffixes(t, top, &x);
	for (uint32_t i = 0; !rc && i < n; i++)
		osm_block(t, l, order[i], top, compact ? NULL : &x, fp);
	free(order);
	free(x.text);
	free(x.off);
	return rc ? rc : fflush(fp) || ferror(fp) ? -EIO : 0;
}

int lft_write_osm(const struct topo *t, const struct lft *l, FILE *fp)
{
	return lft_write_osm_how(t, l, false, fp);
}

/* ibroute's destination column for @lid. */
static void ibroute_dest(const struct topo *t, uint32_t lid, FILE *fp)
{
	uint32_t p = dest_port(t, lid);
	char desc[DESC_PRINT_MAX + 1];
	unsigned base, n;

	if (p == TOPO_NONE) {
		fputs(": (unknown node and type)\n", fp);
		return;
	}
	base = t->port_lid[p];
	n = 1u << t->port_lmc[p];
	if (lid != base) {
		fprintf(fp, ": (path #%u out of %u: portguid 0x%016llx)\n", lid - base + 1, n,
			(unsigned long long)t->port_guid[p]);
		return;
	}
	print_desc(t->node_desc[t->port_node[p]], desc);
	fprintf(fp, ": (%s portguid 0x%016llx: '%s')\n",
		node_type_str(t->node_type[t->port_node[p]]),
		(unsigned long long)t->port_guid[p], desc);
}

static void ibroute_block(const struct topo *t, const struct lft *l, uint32_t sw,
			  uint32_t top, FILE *fp)
{
	uint32_t node = t->sw_node[sw];
	unsigned nports = t->node_nports[node], valid = 0;
	char desc[DESC_PRINT_MAX + 1];

	print_desc(t->node_desc[node], desc);
	fprintf(fp, "Unicast lids [0x0-0x%x] of switch Lid %u guid 0x%016llx (%s):\n", top,
		topo_node_lid(t, node), (unsigned long long)t->node_guid[node], desc);
	fputs("  Lid  Out   Destination\n", fp);
	fputs("       Port     Info \n", fp);
	for (uint32_t lid = 0; lid <= top; lid++) {
		unsigned port = lft_get(l, sw, lid);

		if (port > nports)
			continue;
		fprintf(fp, "0x%04x %03u ", lid, port);
		ibroute_dest(t, lid, fp);
		valid++;
	}
	fprintf(fp, "%u valid lids dumped \n", valid);
}

/**
 * lft_write_ibroute - write @l as dump_lfts would print it (switches in GUID order)
 * Return: 0, -EINVAL (@l is not sized for @t), -ENOMEM, or -EIO.
 */
int lft_write_ibroute(const struct topo *t, const struct lft *l, FILE *fp)
{
	uint32_t n, top, *order;

	if (l->nsw != t->nswitches || !l->nlids)
		return -EINVAL;
	order = switch_order(t, l, false, &n);
	if (!order)
		return -ENOMEM;
	top = top_lid(t, l);
	for (uint32_t i = 0; i < n; i++)
		ibroute_block(t, l, order[i], top, fp);
	free(order);
	return fflush(fp) || ferror(fp) ? -EIO : 0;
}
