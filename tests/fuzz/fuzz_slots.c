// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_slots.c - libFuzzer target for the ffroute.slots reader (the places
 * `route --previous` and the plugin read back): every input gives places
 * or a diagnosed error, never both; ASan/UBSan catch the rest.
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/io.h>
#include <ffroute/route.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct route_slot *s = NULL;
	struct diag_list dl;
	uint32_t n = 0;
	char *buf = malloc(size + 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';	/* as ffr_load_file() gives it */
	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	if (slots_read(buf, size, "fuzz.slots", &s, &n, &dl) == 0) {
		assert(dl.nerrors == 0);
		for (uint32_t i = 0; i < n; i++)
			assert(s[i].port && s[i].nlids && !(s[i].nlids & (s[i].nlids - 1)) &&
			       s[i].tc < CLS_TC_COUNT);
		free(s);
	} else {
		assert(dl.nerrors > 0 || !s);
	}
	diag_free(&dl);
	free(buf);
	return 0;
}
