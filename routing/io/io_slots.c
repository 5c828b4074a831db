// SPDX-License-Identifier: BSD-2-Clause
/*
 * io_slots.c - ffroute.slots: the places D-mod-K keeps for CAs that went
 * away (route_slots.c), so that a later run ranks destinations as the
 * earlier one did.  One line per place, sorted by switch GUID and port:
 *   # comments
 *   slot 0x<switch GUID> <port> <compute|storage|other> <LIDs> <rail|->
 * LIDs is the CA's LID count (1 << LMC); rail its rail, '-' for none.  Reader errors are
 * file:line:col; it keeps going until diag_full().  Cost O(places).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/io.h>
#include <ffroute/route.h>

#include "base/text.h"

static const char *const tc_name[CLS_TC_COUNT] = { "compute", "storage", "other" };

int slots_write(const struct route_slot *s, uint32_t n, FILE *fp)
{
	fprintf(fp, "# ffroute.slots: where each CA is cabled, its class and LID count;\n"
		"# a CA that went away keeps its D-mod-K place while its port is free\n");
	for (uint32_t i = 0; i < n; i++) {
		fprintf(fp, "slot 0x%016" PRIx64 " %u %s %u ", s[i].sw_guid, s[i].port,
			tc_name[s[i].tc < CLS_TC_COUNT ? s[i].tc : CLS_TC_OTHER], s[i].nlids);
		if (s[i].rail < 0)
			fputs("-\n", fp);
		else
			fprintf(fp, "%d\n", s[i].rail);
	}
	return ferror(fp) ? -EIO : 0;
}

static void slot_line(struct text_reader *rd, struct route_slot *out, uint32_t *n)
{
	struct route_slot x = { 0 };
	struct scan s;
	uint64_t v;
	char word[16];
	unsigned col;

	scan_init(&s, rd->line);
	scan_ws(&s);
	if (scan_eol(&s) || *s.p == '#')
		return;
	if (!scan_lit(&s, "slot ")) {
		text_error(rd, scan_col(&s), "expected \"slot\"");
		return;
	}
	scan_ws(&s);
	if (!scan_lit(&s, "0x")) {
		text_error(rd, scan_col(&s), "expected a switch GUID 0x...");
		return;
	}
	if (!text_get_num(rd, &s, 16, UINT64_MAX, "a switch GUID", &v))
		return;
	x.sw_guid = v;
	if (!text_get_num(rd, &s, 10, 254, "a port number (1..254)", &v))
		return;
	if (!v) {
		text_error(rd, scan_col(&s) - 1, "port 0 is the switch itself, not a CA's place");
		return;
	}
	x.port = (uint8_t)v;
	scan_ws(&s);
	col = scan_col(&s);
	scan_word(&s, "", word, sizeof(word));
	for (x.tc = 0; x.tc < CLS_TC_COUNT && strcmp(word, tc_name[x.tc]); x.tc++)
		;
	if (x.tc == CLS_TC_COUNT) {
		text_error(rd, col, "expected a class: compute, storage or other");
		return;
	}
	if (!text_get_num(rd, &s, 10, 128, "a LID count (1..128)", &v))
		return;
	if (v & (v - 1) || !v) {
		text_error(rd, scan_col(&s) - 1, "a LID count is a power of two (1 << LMC)");
		return;
	}
	x.nlids = (uint16_t)v;
	scan_ws(&s);
	x.rail = -1;
	if (!scan_char(&s, '-')) {
		if (!text_get_num(rd, &s, 10, 255, "a rail (0..255) or '-'", &v))
			return;
		x.rail = (int16_t)v;
	}
	scan_ws(&s);
	if (!scan_eol(&s) && *s.p != '#') {
		text_error(rd, scan_col(&s), "unexpected text at the end of the line");
		return;
	}
	out[(*n)++] = x;
}

int slots_read(const char *buf, size_t len, const char *fname, struct route_slot **out,
	       uint32_t *nout, struct diag_list *dl)
{
	struct route_slot *s;
	struct text_reader rd;
	unsigned nerr0 = dl->nerrors;
	size_t lines = text_lines(buf, len);
	uint32_t n = 0;

	s = malloc(lines * sizeof(*s));
	if (!s)
		return -ENOMEM;
	text_init(&rd, buf, len, fname, dl);
	while (text_next(&rd))
		slot_line(&rd, s, &n);
	text_fini(&rd);
	if (dl->nerrors != nerr0) {
		free(s);
		return -EINVAL;
	}
	*out = s;
	*nout = n;
	return 0;
}
