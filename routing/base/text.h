/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * text.h - line reader and scanner shared by every text parser (internal).
 *
 * text_next() yields one line at a time, NUL-terminated, without its end
 * of line; "\n", "\r\n" and a bare "\r" all end a line.  A NUL byte stops
 * the input with "binary data" and an over-long line is reported and
 * skipped, so parsers only ever see printable-ish, bounded lines.
 *
 * struct scan walks one line; columns are 1-based byte offsets.
 */
#ifndef FFROUTE_TEXT_H
#define FFROUTE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ffroute/diag.h>
#include <ffroute/topo.h>

#define TEXT_MAX_LINE 65536

struct text_reader {
	const char *buf;
	size_t len, pos;
	const char *fname;
	struct diag_list *dl;
	unsigned lineno;	/* of the current line */
	char *line;		/* current line (NUL-terminated copy) */
	size_t linelen;
	size_t cap;
	bool failed;		/* binary data or out of memory: stop */
};

void text_init(struct text_reader *r, const char *buf, size_t len, const char *fname,
	       struct diag_list *dl);
void text_fini(struct text_reader *r);
/** text_lines - at least as many as the lines text_next() gives for @buf (it ends one at
 * \n, \r\n or a lone \r): what per-line arrays are sized by */
size_t text_lines(const char *buf, size_t len);
/** text_next - advance to the next line; false at end, on fatal error or when diag_full */
bool text_next(struct text_reader *r);
/** text_error - record an error at column @col of the current line */
void text_error(struct text_reader *r, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/** text_fail - text_error() that returns false, for parsers that bail out with it */
bool text_fail(struct text_reader *r, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void text_warn(struct text_reader *r, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/** text_loc - src_loc of column @col of the current line */
struct src_loc text_loc(const struct text_reader *r, unsigned col);

struct scan {
	const char *line;	/* start of the line (for columns) */
	const char *p;		/* cursor */
};

static inline void scan_init(struct scan *s, const char *line)
{
	s->line = line;
	s->p = line;
}

static inline unsigned scan_col(const struct scan *s)
{
	return (unsigned)(s->p - s->line) + 1;
}

static inline bool scan_eol(const struct scan *s)
{
	return *s->p == '\0';
}

/** scan_ws - skip blanks (space, tab, stray CR); returns true if any */
bool scan_ws(struct scan *s);
/** scan_lit - consume @lit if it is next (case-sensitive) */
bool scan_lit(struct scan *s, const char *lit);
/** scan_lit_ci - consume @lit if it is next (ignoring case) */
bool scan_lit_ci(struct scan *s, const char *lit);
/** scan_char - consume @c if it is next */
bool scan_char(struct scan *s, char c);
/**
 * scan_uint - unsigned number in @base (16 accepts an optional 0x prefix;
 * 0 means C rules: 0x hex, else decimal) no larger than @max.
 * Return: 0, -EINVAL (no digits; cursor unchanged), -ERANGE (too large;
 * cursor after the digits).
 */
int scan_uint(struct scan *s, int base, uint64_t max, uint64_t *out);
/**
 * scan_quoted - a "..." string into @out (at most @outsz-1 bytes).
 * Return: 0, -EINVAL (no opening quote / unterminated), -ERANGE (too long).
 */
int scan_quoted(struct scan *s, char *out, size_t outsz);
/** scan_word - up to @outsz-1 non-blank bytes not in @stop into @out; returns length */
size_t scan_word(struct scan *s, const char *stop, char *out, size_t outsz);
/** scan_find - move to the next occurrence of @needle; false (cursor unchanged) if none */
bool scan_find(struct scan *s, const char *needle);

/**
 * text_get_num - skip blanks, then scan_uint(); on failure record
 * "expected WHAT" or "WHAT too large (max N)" at the number's column.
 * Return: true if *@out was set.
 */
bool text_get_num(struct text_reader *r, struct scan *s, int base, uint64_t max,
		  const char *what, uint64_t *out);

/** text_is_blank - only blanks */
bool text_is_blank(const char *line);

#endif
