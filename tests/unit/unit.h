/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * unit.h - shared helpers for the cmocka unit tests.
 *   unit_expect_diag(dl, text)   some diagnostic's "file:line:col: level: msg" contains text
 *   unit_read_file(path, &len)   whole file, malloc'd, NUL-terminated (fails the test if absent)
 *   unit_real_fixture(name)      path of tests/data/real/<name> (REAL_FIXTURES env
 *                                overrides); NULL if the directory is missing
 */
#ifndef FFROUTE_UNIT_H
#define FFROUTE_UNIT_H

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include <ffroute/diag.h>

#ifndef SRCDIR
#define SRCDIR "."
#endif

static inline void unit_expect_diag(const struct diag_list *dl, const char *text)
{
	char buf[DIAG_MSG_MAX + 512];

	for (unsigned i = 0; i < dl->n; i++) {
		diag_format(&dl->v[i], buf, sizeof(buf));
		if (strstr(buf, text))
			return;
	}
	for (unsigned i = 0; i < dl->n; i++) {
		diag_format(&dl->v[i], buf, sizeof(buf));
		print_message("  have: %s\n", buf);
	}
	fail_msg("no diagnostic contains \"%s\"", text);
}

static inline char *unit_read_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	if (!fp)
		fail_msg("cannot open %s", path);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

static inline const char *unit_real_fixture(const char *name)
{
	static char path[4096];
	const char *dir = getenv("REAL_FIXTURES");
	struct stat st;

	if (!dir || !*dir)
		dir = SRCDIR "/tests/data/real";
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0 ? path : NULL;
}

#endif
