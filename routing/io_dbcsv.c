// SPDX-License-Identifier: BSD-2-Clause
/* io_dbcsv.c - ibdiagnet2.db_csv port speeds (placeholder, being written) */
#include <errno.h>
#include <ffroute/io.h>

int dbcsv_apply_speeds(struct topo *t, const char *buf, size_t len, const char *fname,
		       struct diag_list *dl)
{
	(void)t; (void)buf; (void)len;
	diag_add(dl, DIAG_ERROR, fname, 0, 0, "db_csv reader not built yet");
	return -ENOSYS;
}
