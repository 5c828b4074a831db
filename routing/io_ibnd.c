// SPDX-License-Identifier: BSD-2-Clause
/* io_ibnd.c - ibnetdiscover reader/writer (placeholder, being written) */
#include <errno.h>
#include <ffroute/io.h>

struct topo *ibnd_read(const char *buf, size_t len, const char *fname, struct diag_list *dl)
{
	(void)buf; (void)len;
	diag_add(dl, DIAG_ERROR, fname, 0, 0, "ibnetdiscover reader not built yet");
	errno = ENOSYS;
	return NULL;
}

int topo_write_ibnd(const struct topo *t, FILE *fp)
{
	(void)t; (void)fp;
	return -ENOSYS;
}
