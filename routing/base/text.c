// SPDX-License-Identifier: BSD-2-Clause
/*
 * text.c - bounded line reader and scanner for the text parsers.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"

void text_init(struct text_reader *r, const char *buf, size_t len, const char *fname,
	       struct diag_list *dl)
{
	memset(r, 0, sizeof(*r));
	r->buf = buf;
	r->len = len;
	r->fname = fname ? fname : "<input>";
	r->dl = dl;
}

void text_fini(struct text_reader *r)
{
	free(r->line);
	r->line = NULL;
}

static void text_vdiag(struct text_reader *r, enum diag_level lvl, unsigned col,
		       const char *fmt, va_list ap)
{
	diag_vadd(r->dl, lvl, r->fname, r->lineno, col, fmt, ap);
}

void text_error(struct text_reader *r, unsigned col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vdiag(r, DIAG_ERROR, col, fmt, ap);
	va_end(ap);
}

bool text_fail(struct text_reader *r, unsigned col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vdiag(r, DIAG_ERROR, col, fmt, ap);
	va_end(ap);
	return false;
}

void text_warn(struct text_reader *r, unsigned col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vdiag(r, DIAG_WARNING, col, fmt, ap);
	va_end(ap);
}

struct src_loc text_loc(const struct text_reader *r, unsigned col)
{
	struct src_loc l = { r->fname, r->lineno, col };

	return l;
}

/* Copy buf[start, end) as the current line. */
static bool take_line(struct text_reader *r, size_t start, size_t end)
{
	size_t n = end - start;

	if (n + 1 > r->cap) {
		size_t cap = n + 1 < 256 ? 256 : n + 1;
		char *nl = realloc(r->line, cap);

		if (!nl) {
			diag_add(r->dl, DIAG_ERROR, r->fname, r->lineno, 0, "out of memory");
			r->failed = true;
			return false;
		}
		r->line = nl;
		r->cap = cap;
	}
	memcpy(r->line, r->buf + start, n);
	r->line[n] = '\0';
	r->linelen = n;
	return true;
}

size_t text_lines(const char *buf, size_t len)
{
	size_t n = 1;

	for (size_t i = 0; i < len; i++)	/* "\r\n" counts twice: a bound, not a count */
		n += buf[i] == '\n' || buf[i] == '\r';
	return n;
}

bool text_next(struct text_reader *r)
{
	for (;;) {
		size_t start = r->pos, end;
		const char *nul;

		if (r->failed || r->pos >= r->len || diag_full(r->dl))
			return false;
		r->lineno++;
		end = start;
		while (end < r->len && r->buf[end] != '\n' && r->buf[end] != '\r')
			end++;
		nul = memchr(r->buf + start, '\0', end - start);
		if (nul) {
			text_error(r, (unsigned)(nul - (r->buf + start)) + 1,
				   "binary data (NUL byte): not a text dump");
			r->failed = true;
			return false;
		}
		if (end + 1 < r->len && r->buf[end] == '\r' && r->buf[end + 1] == '\n')
			r->pos = end + 2;
		else if (end < r->len)
			r->pos = end + 1;
		else
			r->pos = end;
		if (end - start > TEXT_MAX_LINE) {
			text_error(r, TEXT_MAX_LINE + 1, "line too long (%zu bytes, limit %u)",
				   end - start, TEXT_MAX_LINE);
			continue;
		}
		return take_line(r, start, end);
	}
}

bool scan_ws(struct scan *s)
{
	const char *p0 = s->p;

	while (*s->p == ' ' || *s->p == '\t' || *s->p == '\r' || *s->p == '\v' || *s->p == '\f')
		s->p++;
	return s->p != p0;
}

bool scan_lit(struct scan *s, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(s->p, lit, n))
		return false;
	s->p += n;
	return true;
}

bool scan_lit_ci(struct scan *s, const char *lit)
{
	size_t n = strlen(lit);

	if (strncasecmp(s->p, lit, n))
		return false;
	s->p += n;
	return true;
}

bool scan_char(struct scan *s, char c)
{
	if (*s->p != c || c == '\0')
		return false;
	s->p++;
	return true;
}

static int digit_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

int scan_uint(struct scan *s, int base, uint64_t max, uint64_t *out)
{
	const char *p = s->p;
	uint64_t v = 0;
	bool overflow = false;
	int d;

	if ((base == 16 || base == 0) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	    digit_val(p[2]) < 16) {
		p += 2;
		base = 16;
	} else if (base == 0) {
		base = 10;
	}
	if (digit_val(*p) >= base)
		return -EINVAL;
	while ((d = digit_val(*p)) < base) {
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			overflow = true;
		else
			v = v * (uint64_t)base + (uint64_t)d;
		p++;
	}
	s->p = p;
	if (overflow || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int scan_quoted(struct scan *s, char *out, size_t outsz)
{
	const char *p = s->p, *q;
	size_t n;

	if (*p != '"')
		return -EINVAL;
	q = strchr(p + 1, '"');
	if (!q)
		return -EINVAL;
	n = (size_t)(q - (p + 1));
	if (n + 1 > outsz)
		return -ERANGE;
	memcpy(out, p + 1, n);
	out[n] = '\0';
	s->p = q + 1;
	return 0;
}

size_t scan_word(struct scan *s, const char *stop, char *out, size_t outsz)
{
	size_t n = 0;

	while (*s->p && !isspace((unsigned char)*s->p) && !strchr(stop, *s->p)) {
		if (n + 1 < outsz)
			out[n++] = *s->p;
		s->p++;
	}
	if (outsz)
		out[n] = '\0';
	return n;
}

bool scan_find(struct scan *s, const char *needle)
{
	const char *q = strstr(s->p, needle);

	if (!q)
		return false;
	s->p = q;
	return true;
}

bool text_is_blank(const char *line)
{
	while (*line == ' ' || *line == '\t' || *line == '\r' || *line == '\v' || *line == '\f')
		line++;
	return *line == '\0';
}

bool text_get_num(struct text_reader *r, struct scan *s, int base, uint64_t max,
		  const char *what, uint64_t *out)
{
	unsigned col;
	int rc;

	scan_ws(s);
	col = scan_col(s);
	rc = scan_uint(s, base, max, out);
	if (rc == -EINVAL)
		text_error(r, col, "expected %s", what);
	else if (rc == -ERANGE && base == 16)
		text_error(r, col, "%s too large (max 0x%" PRIx64 ")", what, max);
	else if (rc == -ERANGE)
		text_error(r, col, "%s too large (max %" PRIu64 ")", what, max);
	return rc == 0;
}
