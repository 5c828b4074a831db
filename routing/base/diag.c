// SPDX-License-Identifier: BSD-2-Clause
/*
 * diag.c - the diagnostic list.  Entries are appended in input order;
 * file names are interned so each entry can point at one copy.  Messages
 * and file names quote their inputs (a regex, a role word, a host name),
 * so both are sanitized here, once for every reader: control bytes and
 * invalid UTF-8 become '?', and no input can drive a terminal or forge a
 * line of OpenSM's log.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/diag.h>

#define DIAG_KEEP_DEFAULT 200

void diag_init(struct diag_list *dl, unsigned max_errors)
{
	memset(dl, 0, sizeof(*dl));
	dl->max_errors = max_errors ? max_errors : DIAG_DEFAULT_MAX_ERRORS;
	dl->max_keep = DIAG_KEEP_DEFAULT;
}

void diag_free(struct diag_list *dl)
{
	for (unsigned i = 0; i < dl->nfiles; i++)
		free(dl->files[i]);
	free(dl->files);
	free(dl->v);
	memset(dl, 0, sizeof(*dl));
}

/* Length of the valid UTF-8 sequence at @s (a byte >= 0x80), or 0. */
static unsigned utf8_len(const unsigned char *s)
{
	unsigned n = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 ? 2 : 0;

	if (s[0] >= 0xF5 || (s[0] == 0xC2 && s[1] < 0xA0))
		return 0;	/* above U+10FFFF; C1 controls (U+009B starts escapes) */
	for (unsigned i = 1; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	if ((n == 3 && s[0] == 0xE0 && s[1] < 0xA0) || (n == 3 && s[0] == 0xED && s[1] >= 0xA0) ||
	    (n == 4 && s[0] == 0xF0 && s[1] < 0x90) || (n == 4 && s[0] == 0xF4 && s[1] >= 0x90))
		return 0;	/* overlong, surrogate, above U+10FFFF */
	return n;
}

size_t ffr_sanitize(const char *in, char *out, size_t size)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t o = 0;

	if (!size)
		return 0;
	while (*p && o + 1 < size) {
		unsigned n = *p < 0x80 ? 1 : utf8_len(p);

		if (!n || *p < 0x20 || *p == 0x7F || o + n >= size) {
			out[o++] = '?';
			p++;	/* a cut sequence is a '?' too */
			continue;
		}
		memmove(out + o, p, n);
		o += n;
		p += n;
	}
	out[o] = '\0';
	return o;
}

static const char *intern(struct diag_list *dl, const char *file)
{
	char **nf, *copy;
	char safe[512];

	if (!file)
		file = "<input>";
	ffr_sanitize(file, safe, sizeof(safe));
	file = safe;
	for (unsigned i = dl->nfiles; i-- > 0;)
		if (!strcmp(dl->files[i], file))
			return dl->files[i];
	copy = strdup(file);
	if (!copy)
		return NULL;
	nf = realloc(dl->files, (dl->nfiles + 1) * sizeof(*nf));
	if (!nf) {
		free(copy);
		return NULL;
	}
	dl->files = nf;
	dl->files[dl->nfiles++] = copy;
	return copy;
}

int diag_vadd(struct diag_list *dl, enum diag_level level, const char *file,
	      unsigned line, unsigned col, const char *fmt, va_list ap)
{
	struct diag *d;

	if (level == DIAG_ERROR)
		dl->nerrors++;
	else if (level == DIAG_WARNING)
		dl->nwarnings++;
	if (dl->n >= dl->max_keep) {
		dl->dropped++;
		return 0;
	}
	if (dl->n == dl->cap) {
		unsigned cap = dl->cap ? dl->cap * 2 : 16;
		struct diag *nv = realloc(dl->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		dl->v = nv;
		dl->cap = cap;
	}
	d = &dl->v[dl->n];
	d->file = intern(dl, file);
	if (!d->file)
		return -ENOMEM;
	d->level = level;
	d->line = line;
	d->col = col;
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	ffr_sanitize(d->msg, d->msg, sizeof(d->msg));	/* in place: it only shrinks */
	dl->n++;
	return 0;
}

int diag_add(struct diag_list *dl, enum diag_level level, const char *file,
	     unsigned line, unsigned col, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = diag_vadd(dl, level, file, line, col, fmt, ap);
	va_end(ap);
	return rc;
}

bool diag_full(const struct diag_list *dl)
{
	return dl->nerrors >= dl->max_errors;
}

const char *diag_level_name(enum diag_level level)
{
	switch (level) {
	case DIAG_ERROR:
		return "error";
	case DIAG_WARNING:
		return "warning";
	default:
		return "note";
	}
}

int diag_format(const struct diag *d, char *buf, size_t len)
{
	if (d->line && d->col)
		return snprintf(buf, len, "%s:%u:%u: %s: %s", d->file, d->line, d->col,
				diag_level_name(d->level), d->msg);
	if (d->line)
		return snprintf(buf, len, "%s:%u: %s: %s", d->file, d->line,
				diag_level_name(d->level), d->msg);
	return snprintf(buf, len, "%s: %s: %s", d->file, diag_level_name(d->level), d->msg);
}

void diag_print(const struct diag_list *dl, FILE *fp)
{
	char buf[DIAG_MSG_MAX + 512];

	for (unsigned i = 0; i < dl->n; i++) {
		diag_format(&dl->v[i], buf, sizeof(buf));
		fprintf(fp, "%s\n", buf);
	}
	if (dl->dropped)
		fprintf(fp, "(%u more diagnostics not shown)\n", dl->dropped);
	if (diag_full(dl))
		fprintf(fp, "too many errors (%u), stopped\n", dl->nerrors);
}
