// SPDX-License-Identifier: BSD-2-Clause
/* io_lftwrite.c - LFT dump writers (placeholder, being written) */
#include <errno.h>
#include <ffroute/io.h>

int lft_write_osm(const struct topo *t, const struct lft *l, FILE *fp)
{
	(void)t; (void)l; (void)fp;
	return -ENOSYS;
}

int lft_write_ibroute(const struct topo *t, const struct lft *l, FILE *fp)
{
	(void)t; (void)l; (void)fp;
	return -ENOSYS;
}
