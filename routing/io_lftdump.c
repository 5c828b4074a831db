// SPDX-License-Identifier: BSD-2-Clause
/* io_lftdump.c - LFT dump readers/writers (placeholder, being written) */
#include <errno.h>
#include <ffroute/io.h>

static struct lft *nyi(const char *fname, struct diag_list *dl)
{
	diag_add(dl, DIAG_ERROR, fname, 0, 0, "LFT reader not built yet");
	errno = ENOSYS;
	return NULL;
}

struct lft *osm_lfts_read(const char *buf, size_t len, const char *fname,
			  const struct topo *t, struct diag_list *dl)
{
	(void)buf; (void)len; (void)t;
	return nyi(fname, dl);
}

struct lft *fdbs_read(const char *buf, size_t len, const char *fname,
		      const struct topo *t, struct diag_list *dl)
{
	(void)buf; (void)len; (void)t;
	return nyi(fname, dl);
}

struct lft *ibroute_read(const char *buf, size_t len, const char *fname,
			 const struct topo *t, struct diag_list *dl)
{
	(void)buf; (void)len; (void)t;
	return nyi(fname, dl);
}

