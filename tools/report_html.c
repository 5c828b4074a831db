// SPDX-License-Identifier: BSD-2-Clause
/*
 * report_html.c - the HTML report of `ffroute check --html` and
 * `ffroute diff --html`: one self-contained HTML5 page (inline CSS and
 * SVG, no scripts, no external resources) for n checked routings of one
 * fabric, shown side by side.
 *
 * Sections:
 *   summary    per routing: fabric counts, zones, rails, LFTs read, hard
 *              findings and a PASS/FAIL badge
 *   findings   one row per finding kind: count per routing, the examples
 *   heat maps  per zone (frame) and routing, an SVG grid with the zone's
 *              spines (level-2 switches) as rows and leaves (level 1) as
 *              columns; each cell is split in two: top half the leaf->spine
 *              up-link, bottom half the spine->leaf down-link, parallel
 *              links summed.  One map of LFT routes (ch_routes) and, when
 *              metrics ran, one of the all-to-all load (ch_load).  Colours
 *              are 9 bins of one scale shared by every map of a kind, so
 *              routings compare at a glance; exact numbers are in tooltips.
 *   histogram  per routing, the distribution of routes (and load) over the
 *              directed switch-switch channels, on a shared axis
 *   metrics    every metric, routings side by side (and B-A for two)
 *
 * Everything user-supplied (NodeDescriptions, labels, finding examples)
 * is HTML-escaped; bytes that are not valid UTF-8 become numeric character
 * references (read as Latin-1).  Output is deterministic: switches are
 * sorted by NodeDescription (numbers compared by value), then GUID; no
 * time stamps.  Size: ~170 bytes per heat-map cell, so the full ff2 fabric
 * (2 zones x 20 x 40) is ~0.3 MB per routing and kind.
 * Cost: O(ports) per map and histogram, O(switches log switches) sorting.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "cli.h"
#include "report.h"

#define HM_MAX_W 480		/* cells shrink to keep maps this wide: 12 px at 40 leaves */
#define HM_MAX_CELL 28
#define HM_MIN_CELL 4
#define HM_BINS 9		/* colour bins above zero */
#define HM_MAX_CELLS 8192	/* larger zones get a note, not a map (~1.3 MB) */
#define NAME_MAX_CHARS 14	/* axis labels keep the last 14 characters */
#define HIST_BARS 40
#define HIST_W 420
#define HIST_H 150

enum hm_kind { HM_ROUTES = 0, HM_LOAD, HM_NKINDS };

static const char *const kind_class[HM_NKINDS] = { "routes", "load" };
static const char *const kind_title[HM_NKINDS] = {
	"LFT routes per link", "all-to-all load per link (flows)"
};

/* The leaf/spine structure of one zone: switches in display order. */
struct frame {
	uint32_t *spine, *leaf;
	uint32_t nspine, nleaf;
	unsigned lw, lh;	/* room for row (spine) and column (leaf) labels */
};

/* Cell values of one heat map: [spine * nleaf + leaf]. */
struct grid {
	uint64_t *up, *down;
	uint16_t *links;
	uint64_t max;
};

/* ---- escaping and names ------------------------------------------------- */

/* Write at most @max bytes of @str as HTML text or attribute value. */
static void esc_n(FILE *fp, const char *str, size_t max)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t left = max;

	while (left && *s) {
		unsigned n;

		switch (*s) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '\'': fputs("&#39;", fp); break;
		default:
			if (*s < 0x20 || *s == 0x7F) {
				fputc(*s == '\t' || *s == '\n' ? ' ' : '?', fp);
			} else if (*s < 0x80) {
				fputc(*s, fp);
			} else if ((n = cli_utf8_len(s)) != 0 && n <= left) {
				fwrite(s, 1, n, fp);
				s += n;
				left -= n;
				continue;
			} else {
				fprintf(fp, "&#%u;", *s);
			}
		}
		s++;
		left--;
	}
}

static void esc(FILE *fp, const char *str)
{
	esc_n(fp, str, SIZE_MAX);
}

static bool is_unit(const char *c, size_t n)
{
	if (n < 2 || c[0] != 'U')
		return false;
	for (size_t i = 1; i < n; i++)
		if (c[i] < '0' || c[i] > '9')
			return false;
	return true;
}

/*
 * An axis label from a NodeDescription: "MF0;zone0:MCS8500/L07/U2" ->
 * "L07/U2" (the parts after the model), "MF0;spine01:MQM8700/U1" ->
 * "spine01" (the name before ':' when the parts are only a "U<n>"), else
 * the description; at most its last NAME_MAX_CHARS bytes.  NULL (and
 * *len = 4) for an empty description: print the GUID's low 16 bits.
 */
static const char *short_name(const struct topo *t, uint32_t n, size_t *len)
{
	const char *s = strchr(t->node_desc[n], ';'), *colon, *best = NULL;
	const char *slash;
	size_t blen = 0;

	s = s ? s + 1 : t->node_desc[n];
	colon = strchr(s, ':');
	slash = colon ? strchr(colon, '/') : NULL;
	for (const char *p = slash; p; p = strchr(p + 1, '/'))
		if (!is_unit(p + 1, strcspn(p + 1, "/"))) {
			best = slash + 1;
			blen = strlen(best);
			break;
		}
	if (!best) {
		best = s;
		blen = colon ? (size_t)(colon - s) : strlen(s);
	}
	if (blen > NAME_MAX_CHARS) {
		best += blen - NAME_MAX_CHARS;
		blen = NAME_MAX_CHARS;
	}
	*len = blen ? blen : 4;
	return blen ? best : NULL;
}

static void write_short_name(FILE *fp, const struct topo *t, uint32_t n)
{
	size_t len;
	const char *s = short_name(t, n, &len);

	if (s)
		esc_n(fp, s, len);
	else
		fprintf(fp, "%04llx", (unsigned long long)(t->node_guid[n] & 0xFFFF));
}

/* Room for the longest label of @nodes (9 px sans-serif: ~5.5 px a byte). */
static unsigned label_room(const struct topo *t, const uint32_t *nodes, uint32_t n)
{
	size_t max = 1, len;

	for (uint32_t i = 0; i < n; i++) {
		short_name(t, nodes[i], &len);
		max = len > max ? len : max;
	}
	return 10 + (unsigned)(max * 11 / 2);
}

/* ---- frames: the spines and leaves of a zone, in display order --------- */

struct sw_key {
	const char *desc;
	uint64_t guid;
	uint32_t node;
};

/* Compare strings with digit runs taken as numbers ("L9" < "L10"). */
static int natcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			const char *ea = a, *eb = b;

			while (*a == '0')
				a++;
			while (*b == '0')
				b++;
			for (ea = a; *ea >= '0' && *ea <= '9'; ea++)
				;
			for (eb = b; *eb >= '0' && *eb <= '9'; eb++)
				;
			if (ea - a != eb - b)
				return ea - a < eb - b ? -1 : 1;
			for (; a < ea; a++, b++)
				if (*a != *b)
					return *a < *b ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int sw_key_cmp(const void *x, const void *y)
{
	const struct sw_key *a = x, *b = y;
	int r = natcmp(a->desc, b->desc);

	if (r)
		return r;
	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

/* Switches of level @lvl in zone @zone (-1: any zone), sorted. */
static uint32_t *frame_pick(const struct report_input *in, int zone, unsigned lvl, uint32_t *cnt)
{
	const struct topo *t = in->t;
	struct sw_key *k = malloc(((size_t)t->nswitches + 1) * sizeof(*k));
	uint32_t *out = malloc(((size_t)t->nswitches + 1) * sizeof(*out));
	uint32_t n = 0;

	if (!k || !out) {
		free(k);
		free(out);
		return NULL;
	}
	for (uint32_t s = 0; s < t->nswitches; s++) {
		uint32_t node = t->sw_node[s];

		if (in->c->level[node] != lvl || (zone >= 0 && in->c->zone[node] != zone))
			continue;
		k[n++] = (struct sw_key){ t->node_desc[node], t->node_guid[node], node };
	}
	qsort(k, n, sizeof(*k), sw_key_cmp);
	for (uint32_t i = 0; i < n; i++)
		out[i] = k[i].node;
	free(k);
	*cnt = n;
	return out;
}

static void frame_free(struct frame *f)
{
	free(f->spine);
	free(f->leaf);
	memset(f, 0, sizeof(*f));
}

static int frame_build(const struct report_input *in, int zone, struct frame *f)
{
	memset(f, 0, sizeof(*f));
	f->spine = frame_pick(in, zone, 2, &f->nspine);
	f->leaf = frame_pick(in, zone, 1, &f->nleaf);
	if (!f->spine || !f->leaf) {
		frame_free(f);
		return -ENOMEM;
	}
	f->lw = label_room(in->t, f->spine, f->nspine);
	f->lh = label_room(in->t, f->leaf, f->nleaf);
	f->lw = f->lw < 90 ? 90 : f->lw;	/* the "spine / leaf" corner note */
	return 0;
}

/* ---- grids ------------------------------------------------------------- */

static void grid_free(struct grid *g)
{
	free(g->up);
	free(g->down);
	free(g->links);
	memset(g, 0, sizeof(*g));
}

/* Sum @cnt over the links between each leaf and spine of @f. */
static int grid_build(const struct topo *t, const struct frame *f, const uint32_t *cnt,
		      struct grid *g)
{
	size_t ncell = (size_t)f->nspine * f->nleaf + 1;
	uint32_t *row = malloc(((size_t)t->nnodes + 1) * sizeof(*row));

	memset(g, 0, sizeof(*g));
	g->up = calloc(ncell, sizeof(*g->up));
	g->down = calloc(ncell, sizeof(*g->down));
	g->links = calloc(ncell, sizeof(*g->links));
	if (!row || !g->up || !g->down || !g->links) {
		free(row);
		grid_free(g);
		return -ENOMEM;
	}
	for (uint32_t n = 0; n < t->nnodes; n++)
		row[n] = TOPO_NONE;
	for (uint32_t i = 0; i < f->nspine; i++)
		row[f->spine[i]] = i;
	for (uint32_t col = 0; col < f->nleaf; col++) {
		uint32_t leaf = f->leaf[col];

		for (uint32_t p = t->port_off[leaf] + 1; p < t->port_off[leaf + 1]; p++) {
			uint32_t r = t->port_remote[p], s;
			size_t cell;

			if (r == TOPO_NONE || (s = row[t->port_node[r]]) == TOPO_NONE)
				continue;
			cell = (size_t)s * f->nleaf + col;
			g->up[cell] += cnt[p];
			g->down[cell] += cnt[r];
			if (g->links[cell] < UINT16_MAX)
				g->links[cell]++;
		}
	}
	for (size_t i = 0; i + 1 < ncell; i++) {
		if (g->up[i] > g->max)
			g->max = g->up[i];
		if (g->down[i] > g->max)
			g->max = g->down[i];
	}
	free(row);
	return 0;
}

/* ---- colour scale ------------------------------------------------------ */

/* Bin 0 for zero, 1..HM_BINS for 1..max. */
static unsigned bin_of(uint64_t v, uint64_t max)
{
	if (!v || !max)
		return 0;
	if (v >= max)
		return HM_BINS;
	return 1 + (unsigned)((v - 1) * HM_BINS / max);
}

/* Smallest value in bin @b (b >= 1). */
static uint64_t bin_low(unsigned b, uint64_t max)
{
	return 1 + ((b - 1) * max + HM_BINS - 1) / HM_BINS;
}

static void svg_legend(FILE *fp, uint64_t max, const char *unit)
{
	unsigned x = 0;

	fprintf(fp, "<svg class=\"legend\" xmlns=\"http://www.w3.org/2000/svg\" width=\"420\" "
		"height=\"30\" viewBox=\"0 0 420 30\">");
	fputs("<rect class=\"nl\" x=\"0\" y=\"0\" width=\"16\" height=\"12\"/>"
	      "<text x=\"0\" y=\"26\">no link</text>", fp);
	x = 60;
	for (unsigned b = 0; b <= HM_BINS; b++, x += 22) {
		uint64_t lo = b ? bin_low(b, max) : 0;
		uint64_t hi = !b ? 0 : b == HM_BINS ? max : bin_low(b + 1, max) - 1;

		fprintf(fp, "<rect class=\"q%u\" x=\"%u\" y=\"0\" width=\"22\" height=\"12\">", b, x);
		if (hi < lo)
			fputs("<title>(no value)</title>", fp);
		else if (hi == lo)
			fprintf(fp, "<title>%llu %s</title>", (unsigned long long)lo, unit);
		else
			fprintf(fp, "<title>%llu-%llu %s</title>", (unsigned long long)lo,
				(unsigned long long)hi, unit);
		fputs("</rect>", fp);
	}
	fprintf(fp, "<text x=\"60\" y=\"26\">0</text><text x=\"%u\" y=\"26\" "
		"text-anchor=\"end\">max %llu %s</text></svg>\n", x, (unsigned long long)max, unit);
}

/* ---- heat maps --------------------------------------------------------- */

static void svg_cell(FILE *fp, const struct topo *t, const struct frame *f,
		     const struct grid *g, uint32_t s, uint32_t col, uint64_t max,
		     unsigned cs)
{
	size_t i = (size_t)s * f->nleaf + col;
	unsigned x = f->lw + col * cs, y = f->lh + s * cs;
	unsigned hu = cs / 2, hd = cs - hu - 1;

	fputs("<g class=\"c\"><title>", fp);
	write_short_name(fp, t, f->leaf[col]);
	fputs(" \xe2\x86\x94 ", fp);
	write_short_name(fp, t, f->spine[s]);
	if (!g->links[i]) {
		fprintf(fp, ": no link</title><rect class=\"nl\" x=\"%u\" y=\"%u\" width=\"%u\" "
			"height=\"%u\"/><rect class=\"nl\" x=\"%u\" y=\"%u\" width=\"%u\" "
			"height=\"%u\"/></g>", x, y, cs - 1, hu, x, y + hu, cs - 1, hd);
		return;
	}
	fprintf(fp, ": up %llu, down %llu (%u link%s)</title>",
		(unsigned long long)g->up[i], (unsigned long long)g->down[i],
		g->links[i], g->links[i] == 1 ? "" : "s");
	fprintf(fp, "<rect class=\"q%u\" x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\"/>",
		bin_of(g->up[i], max), x, y, cs - 1, hu);
	fprintf(fp, "<rect class=\"q%u\" x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\"/></g>",
		bin_of(g->down[i], max), x, y + hu, cs - 1, hd);
}

static void svg_heatmap(FILE *fp, const struct topo *t, const struct frame *f,
			const struct grid *g, uint64_t max, enum hm_kind kind)
{
	unsigned cs = HM_MAX_W / (f->nleaf ? f->nleaf : 1), w, h;
	bool labels;

	cs = cs > HM_MAX_CELL ? HM_MAX_CELL : cs < HM_MIN_CELL ? HM_MIN_CELL : cs;
	labels = cs >= 8;
	w = f->lw + f->nleaf * cs + 4;
	h = f->lh + f->nspine * cs + 4;
	fprintf(fp, "<svg class=\"heatmap %s\" data-spines=\"%u\" data-leaves=\"%u\" "
		"xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" "
		"viewBox=\"0 0 %u %u\" role=\"img\">\n", kind_class[kind], f->nspine, f->nleaf,
		w, h, w, h);
	fprintf(fp, "<text x=\"2\" y=\"%u\">spine \xe2\x86\x93 leaf \xe2\x86\x92</text>\n",
		f->lh - 6);
	for (uint32_t s = 0; labels && s < f->nspine; s++) {
		fprintf(fp, "<text x=\"%u\" y=\"%u\" text-anchor=\"end\">", f->lw - 3,
			f->lh + s * cs + cs / 2 + 3);
		write_short_name(fp, t, f->spine[s]);
		fputs("</text>", fp);
	}
	for (uint32_t l = 0; labels && l < f->nleaf; l++) {
		fprintf(fp, "<text transform=\"translate(%u,%u) rotate(-90)\">",
			f->lw + l * cs + cs / 2 + 3, f->lh - 3);
		write_short_name(fp, t, f->leaf[l]);
		fputs("</text>", fp);
	}
	fputc('\n', fp);
	for (uint32_t s = 0; s < f->nspine; s++) {
		for (uint32_t l = 0; l < f->nleaf; l++)
			svg_cell(fp, t, f, g, s, l, max, cs);
		fputc('\n', fp);
	}
	fputs("</svg>\n", fp);
}

/* True when the routing carries all-to-all loads (metrics ran). */
static bool has_load(const struct report_input *in)
{
	if (!in->r->ch_load)
		return false;
	for (uint32_t p = 0; p < in->t->nports; p++)
		if (in->r->ch_load[p])
			return true;
	return false;
}

static const uint32_t *counters(const struct report_input *in, enum hm_kind kind)
{
	return kind == HM_ROUTES ? in->r->ch_routes : in->r->ch_load;
}

/* The largest cell of @kind over every zone and routing (one shared scale). */
static int scale_max(const struct report_input *in, unsigned n, struct frame *fr,
		     unsigned nz, enum hm_kind kind, uint64_t *max)
{
	*max = 0;
	for (unsigned z = 0; z < nz; z++)
		for (unsigned i = 0; i < n; i++) {
			struct frame *f = &fr[z * n + i];
			struct grid g;

			if (!f->nspine || !f->nleaf || !counters(&in[i], kind) ||
			    (uint64_t)f->nspine * f->nleaf > HM_MAX_CELLS)
				continue;
			if (grid_build(in[i].t, f, counters(&in[i], kind), &g))
				return -ENOMEM;
			if (g.max > *max)
				*max = g.max;
			grid_free(&g);
		}
	return 0;
}

static void zone_note(FILE *fp, const struct report_input *in, const struct frame *f,
		      unsigned n)
{
	if (n > 1) {
		esc(fp, in->label);
		fputs(": ", fp);
	}
	if (f->nspine && f->nleaf)
		fprintf(fp, "%u spines \xc3\x97 %u leaves: too large for a heat map (more "
			"than %u cells); see the histograms.", f->nspine, f->nleaf, HM_MAX_CELLS);
	else
		fprintf(fp, "no leaf/spine structure in this zone (%u spines, %u leaves); "
			"no heat map.", f->nspine, f->nleaf);
}

/* One row of maps (one per routing) of zone @z for @kind. */
static int heat_row(FILE *fp, const struct report_input *in, unsigned n, struct frame *fr,
		    unsigned z, enum hm_kind kind, uint64_t max)
{
	fprintf(fp, "<h4>%s</h4>\n", kind_title[kind]);
	svg_legend(fp, max, kind == HM_ROUTES ? "routes" : "flows");
	fputs("<div class=\"row\">\n", fp);
	for (unsigned i = 0; i < n; i++) {
		const struct frame *f = &fr[z * n + i];
		struct grid g;

		if (!f->nspine || !f->nleaf || (uint64_t)f->nspine * f->nleaf > HM_MAX_CELLS) {
			fputs("<p class=\"note\">", fp);
			zone_note(fp, &in[i], f, n);
			fputs("</p>\n", fp);
			continue;
		}
		if (grid_build(in[i].t, f, counters(&in[i], kind), &g))
			return -ENOMEM;
		fputs("<figure>\n", fp);
		svg_heatmap(fp, in[i].t, f, &g, max, kind);
		fputs("<figcaption>", fp);
		esc(fp, in[i].label);
		fprintf(fp, ": %u spines \xc3\x97 %u leaves, largest cell %llu"
			"</figcaption>\n</figure>\n", f->nspine, f->nleaf,
			(unsigned long long)g.max);
		grid_free(&g);
	}
	fputs("</div>\n", fp);
	return 0;
}

static unsigned max_zones(const struct report_input *in, unsigned n)
{
	unsigned nz = 1;

	for (unsigned i = 0; i < n; i++)
		if (in[i].c->nzones > nz)
			nz = in[i].c->nzones;
	return nz;
}

static int section_heatmaps(FILE *fp, const struct report_input *in, unsigned n)
{
	unsigned nz = max_zones(in, n);
	struct frame *fr = calloc((size_t)nz * n, sizeof(*fr));
	uint64_t max[HM_NKINDS] = { 0 };
	bool load = true;
	int rc = 0;

	if (!fr)
		return -ENOMEM;
	for (unsigned z = 0; z < nz && !rc; z++)
		for (unsigned i = 0; i < n && !rc; i++)
			rc = frame_build(&in[i], in[i].c->nzones ? (int)z : -1, &fr[z * n + i]);
	for (unsigned i = 0; i < n; i++)
		load = load && has_load(&in[i]);
	fputs("<h2 id=\"heat\">Link load per zone</h2>\n<p>Rows are the zone's spines, "
	      "columns its leaves. A cell sums every link between the two: its top half "
	      "is the up-link (leaf\xe2\x86\x92spine), its bottom half the down-link "
	      "(spine\xe2\x86\x92leaf). One colour scale per kind for every map, so the "
	      "routings compare directly; hover a cell for its numbers.</p>\n", fp);
	for (unsigned k = 0; k < HM_NKINDS && !rc; k++)
		if (k == HM_ROUTES || load)
			rc = scale_max(in, n, fr, nz, (enum hm_kind)k, &max[k]);
	for (unsigned z = 0; z < nz && !rc; z++) {
		fprintf(fp, "<h3>Zone %u</h3>\n", z);
		if (in[0].c->nzones == 0)
			fputs("<p>No zones were found; all leaves and spines are shown "
			      "together.</p>\n", fp);
		for (unsigned k = 0; k < HM_NKINDS && !rc; k++)
			if (k == HM_ROUTES || load)
				rc = heat_row(fp, in, n, fr, z, (enum hm_kind)k, max[k]);
	}
	for (unsigned i = 0; i < nz * n; i++)
		frame_free(&fr[i]);
	free(fr);
	return rc;
}

/* ---- histograms -------------------------------------------------------- */

/* A directed switch-to-switch channel: sent from switch port @p. */
static bool sw_channel(const struct topo *t, uint32_t p)
{
	uint32_t r = t->port_remote[p];

	return r != TOPO_NONE && topo_port_num(t, p) != 0 &&
	       topo_is_switch(t, t->port_node[p]) && topo_is_switch(t, t->port_node[r]);
}

static uint32_t channel_max(const struct topo *t, const uint32_t *cnt)
{
	uint32_t max = 0;

	for (uint32_t p = 0; p < t->nports; p++)
		if (sw_channel(t, p) && cnt[p] > max)
			max = cnt[p];
	return max;
}

static void svg_hist(FILE *fp, const struct topo *t, const uint32_t *cnt, uint32_t max,
		     const char *unit)
{
	uint64_t bw = (max + (uint64_t)HIST_BARS) / HIST_BARS, nb = max / bw + 1;
	uint64_t bar[HIST_BARS + 1] = { 0 }, ymax = 1, nch = 0, sum = 0, top = 0;
	unsigned x0 = 44, pw = HIST_W - x0 - 8, ph = HIST_H - 34;

	for (uint32_t p = 0; p < t->nports; p++)
		if (sw_channel(t, p)) {
			bar[cnt[p] / bw]++;
			nch++;
			sum += cnt[p];
			top = cnt[p] > top ? cnt[p] : top;
		}
	for (uint64_t b = 0; b < nb; b++)
		ymax = bar[b] > ymax ? bar[b] : ymax;
	fprintf(fp, "<svg class=\"hist\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" "
		"height=\"%u\" viewBox=\"0 0 %u %u\" role=\"img\">\n", HIST_W, HIST_H,
		HIST_W, HIST_H);
	for (uint64_t b = 0; b < nb; b++) {
		unsigned bh = (unsigned)(bar[b] * ph / ymax), x = x0 + (unsigned)(b * pw / nb);
		unsigned w = (unsigned)((b + 1) * pw / nb) - (unsigned)(b * pw / nb);

		if (!bar[b])
			continue;
		fprintf(fp, "<rect class=\"bar\" x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\">"
			"<title>%llu-%llu %s: %llu channels</title></rect>", x, 8 + ph - bh,
			w > 1 ? w - 1 : 1, bh ? bh : 1, (unsigned long long)(b * bw),
			(unsigned long long)(b * bw + bw - 1), unit, (unsigned long long)bar[b]);
	}
	fprintf(fp, "\n<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" class=\"ax\"/>"
		"<line x1=\"%u\" y1=\"8\" x2=\"%u\" y2=\"%u\" class=\"ax\"/>", x0, 8 + ph,
		x0 + pw, 8 + ph, x0, x0, 8 + ph);
	fprintf(fp, "<text x=\"%u\" y=\"14\" text-anchor=\"end\">%llu</text>"
		"<text x=\"%u\" y=\"%u\" text-anchor=\"end\">0</text>", x0 - 3,
		(unsigned long long)ymax, x0 - 3, 8 + ph);
	fprintf(fp, "<text x=\"%u\" y=\"%u\">0</text><text x=\"%u\" y=\"%u\" "
		"text-anchor=\"end\">%llu %s</text>", x0, ph + 20, x0 + pw, ph + 20,
		(unsigned long long)(nb * bw - 1), unit);
	fprintf(fp, "<text x=\"%u\" y=\"%u\">%llu channels, mean %.1f, max %llu</text>"
		"</svg>\n", x0 + 60, ph + 32, (unsigned long long)nch,
		nch ? (double)sum / (double)nch : 0.0, (unsigned long long)top);
}

static void section_hist(FILE *fp, const struct report_input *in, unsigned n)
{
	bool load = true;

	for (unsigned i = 0; i < n; i++)
		load = load && has_load(&in[i]);
	fputs("<h2 id=\"hist\">Per-link load distribution</h2>\n<p>Directed switch-switch "
	      "channels (each direction of each link) by the number they carry; "
	      "x axis shared by the routings.</p>\n", fp);
	for (unsigned k = 0; k < HM_NKINDS; k++) {
		uint32_t max = 0;

		if (k == HM_LOAD && !load)
			break;
		for (unsigned i = 0; i < n; i++) {
			uint32_t m = channel_max(in[i].t, counters(&in[i], (enum hm_kind)k));

			max = m > max ? m : max;
		}
		fprintf(fp, "<h4>%s</h4>\n<div class=\"row\">\n", kind_title[k]);
		for (unsigned i = 0; i < n; i++) {
			fputs("<figure>\n", fp);
			svg_hist(fp, in[i].t, counters(&in[i], (enum hm_kind)k), max,
				 k == HM_ROUTES ? "routes" : "flows");
			fputs("<figcaption>", fp);
			esc(fp, in[i].label);
			fputs("</figcaption>\n</figure>\n", fp);
		}
		fputs("</div>\n", fp);
	}
}

/* ---- summary, findings, metrics ----------------------------------------- */

static uint32_t sw_sw_links(const struct topo *t)
{
	uint32_t n = 0;

	for (uint32_t p = 0; p < t->nports; p++)
		n += sw_channel(t, p) && t->port_remote[p] > p;
	return n;
}

static uint32_t tables_read(const struct report_input *in)
{
	uint32_t n = 0;

	for (uint32_t s = 0; s < in->l->nsw; s++)
		n += in->l->have[s] != 0;
	return n;
}

static void zone_counts(FILE *fp, const struct report_input *in)
{
	const struct cls *c = in->c;
	const struct topo *t = in->t;

	fprintf(fp, "%u", c->nzones);
	for (uint32_t z = 0; z < c->nzones && z < 16; z++) {
		unsigned sp = 0, lf = 0;

		for (uint32_t s = 0; s < t->nswitches; s++) {
			uint32_t node = t->sw_node[s];

			if (c->zone[node] != (int)z)
				continue;
			sp += c->level[node] == 2;
			lf += c->level[node] == 1;
		}
		fprintf(fp, "%szone %u: %u&#215;%u", z ? "; " : " (", z, sp, lf);
	}
	fputs(c->nzones > 16 ? "; &#8230;)" : c->nzones ? ")" : "", fp);
}

/* Inter-zone links: count, and routes per direction min/mean/max. */
static void interzone(FILE *fp, const struct report_input *in)
{
	const struct topo *t = in->t;
	uint64_t nch = 0, sum = 0, lo = UINT64_MAX, hi = 0;

	for (uint32_t p = 0; p < t->nports; p++) {
		uint64_t v = in->r->ch_routes[p];

		if (!in->c->interzone[p] || !sw_channel(t, p))
			continue;
		nch++;
		sum += v;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (!nch) {
		fputs("none", fp);
		return;
	}
	fprintf(fp, "%llu links; routes per direction %llu / %.1f / %llu",
		(unsigned long long)(nch / 2), (unsigned long long)lo,
		(double)sum / (double)nch, (unsigned long long)hi);
}

static void sum_row(FILE *fp, const char *name, const struct report_input *in, unsigned n,
		    unsigned what)
{
	fprintf(fp, "<tr><th>%s</th>", name);
	for (unsigned i = 0; i < n; i++) {
		const struct topo *t = in[i].t;
		uint64_t hard = chk_hard_findings(in[i].r);

		fputs(what == 4 || what == 8 ? "<td>" : "<td class=\"n\">", fp);
		switch (what) {
		case 0: fprintf(fp, "%u", t->nswitches); break;
		case 1: fprintf(fp, "%u", t->ncas); break;
		case 2: fprintf(fp, "%u (%u switch-switch)", t->nlinks, sw_sw_links(t)); break;
		case 3: fprintf(fp, "%u", t->max_lid); break;
		case 4: zone_counts(fp, &in[i]); break;
		case 5: fprintf(fp, "%u", in[i].c->nrails); break;
		case 6: fprintf(fp, "%u of %u", tables_read(&in[i]), t->nswitches); break;
		case 7: fprintf(fp, "%llu", (unsigned long long)hard); break;
		case 8: interzone(fp, &in[i]); break;
		default:
			fprintf(fp, "<span class=\"badge %s\">%s</span>", hard ? "fail" : "pass",
				hard ? "FAIL" : "PASS");
		}
		fputs("</td>", fp);
	}
	fputs("</tr>\n", fp);
}

static void section_summary(FILE *fp, const struct report_input *in, unsigned n)
{
	static const char *const rows[] = {
		"switches", "CAs", "links", "highest LID", "zones (spines&#215;leaves)",
		"rails", "switches with an LFT", "hard findings",
		"inter-zone links (min / mean / max)", "result",
	};

	fputs("<h2 id=\"summary\">Summary</h2>\n<table class=\"sum\">\n<tr><th></th>", fp);
	for (unsigned i = 0; i < n; i++) {
		fputs("<th>", fp);
		esc(fp, in[i].label);
		fputs("</th>", fp);
	}
	fputs("</tr>\n", fp);
	for (unsigned k = 0; k < sizeof(rows) / sizeof(rows[0]); k++)
		sum_row(fp, rows[k], in, n, k);
	fputs("</table>\n", fp);
}

static void finding_row(FILE *fp, const struct report_input *in, unsigned n, unsigned k)
{
	bool any = false, hard = false;

	for (unsigned i = 0; i < n; i++) {
		any = any || in[i].r->f[k].count;
		hard = hard || in[i].r->f[k].hard;
	}
	fprintf(fp, "<tr%s><td>%s</td><td>%s</td>", any ? "" : " class=\"zero\"",
		chk_finding_name((enum chk_finding_kind)k), hard ? "<b>hard</b>" : any ? "info" : "");
	for (unsigned i = 0; i < n; i++)
		fprintf(fp, "<td class=\"n\">%llu</td>", (unsigned long long)in[i].r->f[k].count);
	fputs("<td>", fp);
	for (unsigned i = 0; i < n; i++) {
		const struct chk_finding *f = &in[i].r->f[k];

		if (!f->nex)
			continue;
		fputs("<ul class=\"ex\">", fp);
		for (unsigned e = 0; e < f->nex && e < CHK_EXAMPLES; e++) {
			fputs("<li>", fp);
			if (n > 1)
				fprintf(fp, "<b>%c:</b> ", 'A' + (int)i);
			esc_n(fp, f->ex[e], sizeof(f->ex[e]));
			fputs("</li>", fp);
		}
		if (f->count > f->nex)
			fprintf(fp, "<li>&#8230; %llu more</li>",
				(unsigned long long)(f->count - f->nex));
		fputs("</ul>", fp);
	}
	fputs("</td></tr>\n", fp);
}

static void section_findings(FILE *fp, const struct report_input *in, unsigned n)
{
	fputs("<h2 id=\"findings\">Findings</h2>\n<table class=\"find\">\n"
	      "<tr><th>kind</th><th>severity</th>", fp);
	for (unsigned i = 0; i < n; i++) {
		fputs("<th>", fp);
		if (n > 1)
			fprintf(fp, "%c: ", 'A' + (int)i);
		esc(fp, in[i].label);
		fputs("</th>", fp);
	}
	fputs("<th>examples</th></tr>\n", fp);
	for (unsigned k = 0; k < CHK_F_COUNT; k++)
		finding_row(fp, in, n, k);
	fputs("</table>\n", fp);
}

static void num_cell(FILE *fp, double v, bool sign)
{
	if (isnan(v))
		fputs("<td class=\"n\">&#8211;</td>", fp);
	else
		fprintf(fp, sign ? "<td class=\"n\">%+.6g</td>" : "<td class=\"n\">%.6g</td>", v);
}

/* Was metric @name listed by an earlier routing than @i (or earlier in @i)? */
static bool metric_seen(const struct report_input *in, unsigned i, uint32_t k)
{
	const char *name = in[i].r->m[k].name;

	for (uint32_t j = 0; j < k; j++)
		if (!strcmp(in[i].r->m[j].name, name))
			return true;
	for (unsigned a = 0; a < i; a++)
		if (!isnan(chk_metric_get(in[a].r, name)))
			return true;
	return false;
}

static void section_metrics(FILE *fp, const struct report_input *in, unsigned n)
{
	unsigned rows = 0;

	fputs("<h2 id=\"metrics\">Metrics</h2>\n<table class=\"met\">\n<tr><th>metric</th>", fp);
	for (unsigned i = 0; i < n; i++) {
		fputs("<th>", fp);
		if (n > 1)
			fprintf(fp, "%c: ", 'A' + (int)i);
		esc(fp, in[i].label);
		fputs("</th>", fp);
	}
	fputs(n == 2 ? "<th>B&#8722;A</th></tr>\n" : "</tr>\n", fp);
	for (unsigned i = 0; i < n; i++)
		for (uint32_t k = 0; k < in[i].r->nm; k++) {
			const char *name = in[i].r->m[k].name;

			if (metric_seen(in, i, k))
				continue;
			fputs("<tr><td>", fp);
			esc(fp, name);
			fputs("</td>", fp);
			for (unsigned j = 0; j < n; j++)
				num_cell(fp, chk_metric_get(in[j].r, name), false);
			if (n == 2)
				num_cell(fp, chk_metric_get(in[1].r, name) -
					 chk_metric_get(in[0].r, name), true);
			fputs("</tr>\n", fp);
			rows++;
		}
	fputs("</table>\n", fp);
	if (!rows)
		fputs("<p class=\"note\">No metrics (run without --no-metrics).</p>\n", fp);
}

/* ---- the page ------------------------------------------------------------ */

static const char page_css[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;"
	"margin:20px 28px;color:#1d232a;background:#fff}\n"
	"h1{font-size:22px;margin:0 0 6px}h2{font-size:18px;margin:28px 0 8px;"
	"border-bottom:1px solid #d6dbe0;padding-bottom:3px}h3{font-size:16px;margin:18px 0 4px}"
	"h4{font-size:14px;margin:10px 0 4px;color:#444}\n"
	"table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid #d6dbe0;"
	"padding:3px 9px;text-align:left;vertical-align:top}th{background:#f3f5f7}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
	"tr.zero td{color:#9aa3ab}\n"
	".badge{display:inline-block;padding:1px 10px;border-radius:10px;color:#fff;"
	"font-weight:600;font-size:13px}.pass{background:#2e7d32}.fail{background:#c62828}\n"
	".row{display:flex;flex-wrap:wrap;gap:28px;align-items:flex-start}figure{margin:0}"
	"figure{display:table}figcaption{display:table-caption;caption-side:bottom;"
	"font-size:12px;color:#4a535c}\n"
	"ul.ex{margin:0;padding-left:18px;font:12px/1.35 ui-monospace,monospace;"
	"word-break:break-all;max-width:780px}\n"
	".note{color:#8a5a00}.inputs{margin:0;padding-left:18px}\n"
	"svg text{font:9px sans-serif;fill:#2b3137}svg.legend text{font-size:10px}"
	"svg.hist text{font-size:10px}\n"
	".q0{fill:#e9edf1}.q1{fill:#ffffcc}.q2{fill:#ffeda0}.q3{fill:#fed976}.q4{fill:#feb24c}"
	".q5{fill:#fd8d3c}.q6{fill:#fc4e2a}.q7{fill:#e31a1c}.q8{fill:#bd0026}.q9{fill:#800026}"
	".nl{fill:#3b4148}.bar{fill:#4a78b0}.ax{stroke:#555;stroke-width:1}\n";

static void page_head(FILE *fp, const struct report_input *in, unsigned n)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"ffroute " PACKAGE_VERSION "\">\n<title>", fp);
	fputs(n > 1 ? "ffroute diff: " : "ffroute check: ", fp);
	for (unsigned i = 0; i < n; i++) {
		fputs(i ? " vs " : "", fp);
		esc(fp, in[i].label);
	}
	fprintf(fp, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", page_css);
	fprintf(fp, "<h1>ffroute %s report</h1>\n<ul class=\"inputs\">\n",
		n > 1 ? "diff" : "check");
	for (unsigned i = 0; i < n; i++) {
		uint64_t hard = chk_hard_findings(in[i].r);

		fputs("<li>", fp);
		if (n > 1)
			fprintf(fp, "<b>%c</b>: ", 'A' + (int)i);
		esc(fp, in[i].label);
		fprintf(fp, " <span class=\"badge %s\">%s</span></li>\n", hard ? "fail" : "pass",
			hard ? "FAIL" : "PASS");
	}
	fputs("</ul>\n<p>Sections: <a href=\"#summary\">summary</a> &#183; <a href=\"#findings\">"
	      "findings</a> &#183; <a href=\"#heat\">heat maps</a> &#183; <a href=\"#hist\">"
	      "histograms</a> &#183; <a href=\"#metrics\">metrics</a></p>\n", fp);
}

/**
 * report_html - write one self-contained HTML page for @n checked routings
 * of one fabric (n = 1 for `check --html`, 2 for `diff --html`), side by
 * side: summary, findings, per-zone spine x leaf heat maps, per-link
 * histograms and the metric table.  See the top of this file.
 * Return: 0, -EINVAL (no input), -ENOMEM, or -EIO when writing failed.
 */
int report_html(const struct report_input *in, unsigned n, FILE *fp)
{
	int rc;

	if (!n || !in)
		return -EINVAL;
	for (unsigned i = 0; i < n; i++)
		if (!in[i].t || !in[i].l || !in[i].c || !in[i].r || !in[i].label)
			return -EINVAL;
	page_head(fp, in, n);
	section_summary(fp, in, n);
	section_findings(fp, in, n);
	rc = section_heatmaps(fp, in, n);
	if (rc)
		return rc;
	section_hist(fp, in, n);
	section_metrics(fp, in, n);
	fputs("<p class=\"note\" style=\"color:#777\">Generated by ffroute " PACKAGE_VERSION
	      ".</p>\n</body>\n</html>\n", fp);
	return fflush(fp) || ferror(fp) ? -EIO : 0;
}
