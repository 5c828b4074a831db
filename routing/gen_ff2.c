// SPDX-License-Identifier: BSD-2-Clause
/* gen_ff2.c - Fire-Flyer 2 family (placeholder, being written) */
#include "gen_int.h"

int gen_ff2(struct gen *g)
{
	return gen_fail(g, "ff2 generator not built yet");
}
