// SPDX-License-Identifier: BSD-2-Clause
/* chk_metric.c - balance metrics (placeholder, being written) */
#include <errno.h>
#include <ffroute/check.h>

int chk_metrics(const struct topo *t, const struct lft *l, const struct chk_class *c,
		const struct chk_opts *o, struct chk_report *r)
{
	(void)t; (void)l; (void)c; (void)o; (void)r;
	return -ENOSYS;
}
