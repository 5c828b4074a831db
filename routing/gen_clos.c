// SPDX-License-Identifier: BSD-2-Clause
/* gen_clos.c - frame and multiframe families (placeholder, being written) */
#include "gen_int.h"

int gen_clos(struct gen *g, struct gen_clos *c)
{
	(void)c;
	return gen_fail(g, "frame generator not built yet");
}

int gen_frame(struct gen *g)
{
	return gen_fail(g, "frame generator not built yet");
}

int gen_multiframe(struct gen *g)
{
	return gen_fail(g, "multiframe generator not built yet");
}
