// SPDX-License-Identifier: BSD-2-Clause
/* gen_rail.c - rail-optimized and rail-only families (placeholder, being written) */
#include "gen_int.h"

int gen_rail(struct gen *g)
{
	return gen_fail(g, "rail generator not built yet");
}
