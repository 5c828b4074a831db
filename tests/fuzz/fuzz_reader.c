// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_reader.c - libFuzzer target for one reader, chosen at build time
 * with -DFUZZ_FORMAT=<enum ffr_format>.  LFT readers bind to a fixed small
 * fabric (two switches, four CAs) so that their binding checks run too.
 * Every input must return a fabric or a diagnosed error; ASan/UBSan catch
 * the rest.  Build: ./configure CC=clang --enable-fuzz; run e.g.
 * tests/fuzz/fuzz_ibnd -max_total_time=60 tests/fuzz/corpus/ibnd
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <ffroute/io.h>

#include "fuzz_fabric.h"

#ifndef FUZZ_FORMAT
#error "define FUZZ_FORMAT"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct topo *fabric;
	struct diag_list dl;

	diag_init(&dl, 0);
	if (ffr_format_is_lft(FUZZ_FORMAT)) {
		struct lft *l;

		if (!fabric)
			fabric = fixed_fabric();
		assert(fabric);
		l = lft_read_buf((const char *)data, size, "fuzz", FUZZ_FORMAT, fabric, &dl);
		assert(l || dl.nerrors);
		lft_free(l);
	} else {
		struct topo *t = topo_read_buf((const char *)data, size, "fuzz", FUZZ_FORMAT, &dl);

		assert(t || dl.nerrors);
		topo_free(t);
	}
	diag_free(&dl);
	return 0;
}
