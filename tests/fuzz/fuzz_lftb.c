// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_lftb.c - libFuzzer target for the ffroute.lftb reader (the binary
 * tables `route --previous` reads its base from), bound to the fixed
 * fabric: every input gives tables whose digest matches, or a diagnosed
 * error, never both; ASan/UBSan catch the rest.  The first input byte
 * picks a valid file of the fabric to start from (its tables written
 * and then overlaid by the rest), so the digest check is reached.
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/io.h>

#include "fuzz_fabric.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A valid ffroute.lftb of @t (every entry @port) in a malloc'd buffer. */
static uint8_t *valid_file(const struct topo *t, uint8_t port, size_t *len)
{
	struct lft *l = lft_new(t->nswitches, t->max_lid);
	char *buf = NULL;
	FILE *fp;

	if (!l)
		return NULL;
	memset(l->port, port, (size_t)l->nsw * l->nlids);
	memset(l->have, 1, l->nsw);
	fp = open_memstream(&buf, len);
	if (fp) {
		lft_write_bin(t, l, fp);
		fclose(fp);
	}
	lft_free(l);
	return (uint8_t *)buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct topo *t;
	struct diag_list dl;
	struct lft *l;
	uint8_t *buf;
	size_t len = 0;

	if (!t && !(t = fixed_fabric()))
		return 0;
	if (size && (data[0] & 1)) {	/* a valid file overlaid by the rest */
		buf = valid_file(t, data[0] >> 1, &len);
		if (!buf)
			return 0;
		for (size_t i = 1; i < size && i - 1 < len; i++)
			buf[i - 1] ^= data[i];
	} else {
		buf = malloc(size + 1);
		if (!buf)
			return 0;
		memcpy(buf, data, size);
		len = size;
	}
	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	l = lft_read_bin_buf(buf, len, "fuzz.lftb", t, &dl);
	if (l) {
		assert(dl.nerrors == 0 && l->nsw == t->nswitches);
		lft_free(l);
	} else {
		assert(dl.nerrors > 0);
	}
	diag_free(&dl);
	free(buf);
	return 0;
}
