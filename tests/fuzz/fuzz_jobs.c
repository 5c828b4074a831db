// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_jobs.c - libFuzzer target for the jobs file (chk_jobs_read, on
 * the fixed fabric of fuzz_fabric.h, whose CAs are host "ca") and the
 * traffic classes file (tclass_read): the first byte picks the reader.  Every input gives
 * a result or a diagnosed error; ASan/UBSan catch the rest (a scheduler
 * writes the jobs file that OpenSM's plugin reads at every sweep).
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>
#include <ffroute/io.h>
#include <ffroute/route.h>

#include "fuzz_fabric.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct topo *fabric;
	struct diag_list dl;
	char *buf;

	if (!size || !(buf = malloc(size)))
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';	/* as ffr_load_file() gives it */
	if (!fabric)
		fabric = fixed_fabric();
	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	if (data[0] & 1) {
		struct chk_jobs j;

		if (fabric && chk_jobs_read(buf, size - 1, "fuzz.jobs", fabric,
					    data[0] & 2 ? CHK_JOBS_LENIENT : 0, &j, &dl) == 0) {
			assert(dl.nerrors == 0);
			for (uint32_t q = 0; q < j.n; q++)
				assert(j.off[q] <= j.off[q + 1] && j.off[q + 1] <= fabric->nnodes);
			chk_jobs_free(&j);
		}
	} else {
		struct route_tclass tc[CHK_TC_MAX];
		unsigned n = 0;

		if (tclass_read(buf, size - 1, "fuzz.classes", tc, &n, &dl) == 0)
			assert(dl.nerrors == 0 && n >= 1 && n <= CHK_TC_MAX);
	}
	diag_free(&dl);
	free(buf);
	return 0;
}
