// SPDX-License-Identifier: BSD-2-Clause
/* io_ibnd_ports.c - ibnetdiscover -p reader (placeholder, being written) */
#include <ffroute/io.h>
#include <errno.h>

struct topo *ibnd_ports_read(const char *buf, size_t len, const char *fname, struct diag_list *dl)
{
	(void)buf; (void)len;
	diag_add(dl, DIAG_ERROR, fname, 0, 0, "ibnetdiscover -p reader not built yet");
	errno = ENOSYS;
	return NULL;
}
