// SPDX-License-Identifier: BSD-2-Clause
/* live.c - live fabric reading (placeholder, being written) */
#include <errno.h>

#include "report.h"

int live_read(const char *ca, int port, struct topo **t, struct lft **l, struct diag_list *dl)
{
	(void)ca; (void)port; (void)t; (void)l;
	diag_add(dl, DIAG_ERROR, "live", 0, 0, "live reading not built yet");
	return -ENOTSUP;
}
