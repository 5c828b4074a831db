// SPDX-License-Identifier: BSD-2-Clause
/* gen_fattree.c - generic fat trees (placeholder, being written) */
#include "gen_int.h"

int gen_fattree(struct gen *g)
{
	return gen_fail(g, "fattree generator not built yet");
}
