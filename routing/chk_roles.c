// SPDX-License-Identifier: BSD-2-Clause
/* chk_roles.c - role, job and SL2VL files (placeholder, being written) */
#include <errno.h>
#include <ffroute/check.h>

int chk_roles_read(const char *buf, size_t len, const char *fname, struct chk_roles *ov,
		   struct diag_list *dl)
{
	(void)buf; (void)len; (void)fname; (void)ov; (void)dl;
	return -ENOSYS;
}

void chk_roles_free(struct chk_roles *ov)
{
	(void)ov;
}

int chk_job_read(const char *buf, size_t len, const char *fname, const struct topo *t,
		 uint32_t **nodes, uint32_t *n, struct diag_list *dl)
{
	(void)buf; (void)len; (void)fname; (void)t; (void)nodes; (void)n; (void)dl;
	return -ENOSYS;
}

int chk_sl2vl_read(const char *buf, size_t len, const char *fname, const struct topo *t,
		   uint8_t **sl2vl, struct diag_list *dl)
{
	(void)buf; (void)len; (void)fname; (void)t; (void)sl2vl; (void)dl;
	return -ENOSYS;
}
