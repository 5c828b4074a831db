/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * diag.h - structured input diagnostics ("file:line:col: error: msg").
 *
 * Parsers record problems into a struct diag_list and keep going until
 * diag_full() says enough errors were seen.  The library never prints:
 * the caller formats the list with diag_format() / diag_print().
 *
 * RETURN VALUE: functions returning int return 0 or -errno.
 */
#ifndef FFROUTE_DIAG_H
#define FFROUTE_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum diag_level { DIAG_ERROR = 0, DIAG_WARNING = 1, DIAG_NOTE = 2 };

#define DIAG_MSG_MAX 200

/**
 * ffr_sanitize - copy @in to @out (at most @size bytes with the NUL),
 * control bytes and invalid UTF-8 as '?'; @in == @out is fine.  Every
 * diagnostic goes through it.  Return: the length written.
 */
size_t ffr_sanitize(const char *in, char *out, size_t size);

struct diag {
	enum diag_level level;
	const char *file;	/* interned; owned by the list */
	unsigned line, col;	/* 1-based; 0 = not applicable */
	char msg[DIAG_MSG_MAX];
};

struct diag_list {
	struct diag *v;
	unsigned n, cap;
	unsigned nerrors, nwarnings;
	unsigned max_errors;	/* parsing stops after this many errors */
	unsigned max_keep;	/* at most this many entries are stored */
	unsigned dropped;	/* entries not stored because of max_keep */
	char **files;		/* interned file names */
	unsigned nfiles;
};

#define DIAG_DEFAULT_MAX_ERRORS 20

/** diag_init - initialise an empty list that stops after @max_errors errors */
void diag_init(struct diag_list *dl, unsigned max_errors);
/** diag_free - release every entry and interned name */
void diag_free(struct diag_list *dl);

/**
 * diag_add - record one diagnostic
 * @file may be NULL ("<input>"); it is copied.
 * Return: 0, or -ENOMEM (the diagnostic is then counted but not stored).
 */
int diag_add(struct diag_list *dl, enum diag_level level, const char *file,
	     unsigned line, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
int diag_vadd(struct diag_list *dl, enum diag_level level, const char *file,
	      unsigned line, unsigned col, const char *fmt, va_list ap)
	__attribute__((format(printf, 6, 0)));

/** diag_full - true once max_errors errors were recorded (stop parsing) */
bool diag_full(const struct diag_list *dl);

/** diag_format - "file:line:col: error: msg" into @buf; returns snprintf's result */
int diag_format(const struct diag *d, char *buf, size_t len);

/** diag_print - print every entry (and a "N more" line) to @fp */
void diag_print(const struct diag_list *dl, FILE *fp);

/** diag_level_name - "error", "warning" or "note" */
const char *diag_level_name(enum diag_level level);

#endif
