// SPDX-License-Identifier: BSD-2-Clause
/*
 * cli_json.c - text encoding shared by the JSON and HTML writers.
 * NodeDescriptions are bytes: valid UTF-8 is kept, any other byte >= 0x80
 * is read as Latin-1 (and escaped), so output is always valid UTF-8.
 */
#include "cli.h"

unsigned cli_utf8_len(const unsigned char *s)
{
	unsigned n, i;
	uint32_t c;

	if (s[0] < 0xC2 || s[0] > 0xF4)
		return 0;
	n = s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3 : 4;
	c = s[0] & (0x7F >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3F);
	}
	if ((n == 3 && (c < 0x800 || (c >= 0xD800 && c < 0xE000))) ||
	    (n == 4 && (c < 0x10000 || c > 0x10FFFF)))
		return 0;
	return n;
}

void cli_json_str(FILE *fp, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', fp);
	while (*s) {
		unsigned n;

		if (*s == '"' || *s == '\\') {
			fprintf(fp, "\\%c", *s++);
		} else if (*s == '\n') {
			fputs("\\n", fp);
			s++;
		} else if (*s == '\t') {
			fputs("\\t", fp);
			s++;
		} else if (*s < 0x20 || *s == 0x7F) {
			fprintf(fp, "\\u%04x", *s++);
		} else if (*s < 0x80) {
			fputc(*s++, fp);
		} else if ((n = cli_utf8_len(s)) != 0) {
			fwrite(s, 1, n, fp);
			s += n;
		} else {
			fprintf(fp, "\\u%04x", *s++);
		}
	}
	fputc('"', fp);
}
