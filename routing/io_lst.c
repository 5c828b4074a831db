// SPDX-License-Identifier: BSD-2-Clause
/* io_lst.c - .lst reader (placeholder, being written) */
#include <errno.h>
#include <ffroute/io.h>

struct topo *lst_read(const char *buf, size_t len, const char *fname, struct diag_list *dl)
{
	(void)buf; (void)len;
	diag_add(dl, DIAG_ERROR, fname, 0, 0, ".lst reader not built yet");
	errno = ENOSYS;
	return NULL;
}
