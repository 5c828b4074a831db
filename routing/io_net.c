// SPDX-License-Identifier: BSD-2-Clause
/* io_net.c - ibsim .net reader/writer (placeholder, being written) */
#include <errno.h>
#include <ffroute/io.h>

struct topo *net_read(const char *buf, size_t len, const char *fname, struct diag_list *dl)
{
	(void)buf; (void)len;
	diag_add(dl, DIAG_ERROR, fname, 0, 0, ".net reader not built yet");
	errno = ENOSYS;
	return NULL;
}

int topo_write_net(const struct topo *t, FILE *fp)
{
	(void)t; (void)fp;
	return -ENOSYS;
}
