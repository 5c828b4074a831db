// SPDX-License-Identifier: BSD-2-Clause
/*
 * verbs_none.c - --verbs in a build without libibverbs: say so, skip (77).
 */
#include <stdio.h>

#include "hfrcli.h"

int hfr_verbs_main(const struct hfr_cli *o)
{
	(void)o;
	fprintf(stderr, "hfreduce-check: built without libibverbs: verbs mode unavailable "
		"(Debian: apt-get install libibverbs-dev, then rebuild); skipping\n");
	return 77;
}
