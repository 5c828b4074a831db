// SPDX-License-Identifier: BSD-2-Clause
/* check_run.c - load, classify and check one routing (placeholder, being written) */
#include <errno.h>
#include <string.h>

#include "report.h"

int check_run(const struct check_input *in, const struct chk_opts *o, struct check_run *run,
	      struct diag_list *dl)
{
	(void)in; (void)o;
	memset(run, 0, sizeof(*run));
	diag_add(dl, DIAG_ERROR, "check", 0, 0, "check not built yet");
	return -ENOSYS;
}

void check_run_free(struct check_run *run)
{
	(void)run;
}

int report_text(const struct check_run *run, FILE *fp)
{
	(void)run; (void)fp;
	return -ENOSYS;
}

int report_json(const struct check_run *run, FILE *fp)
{
	(void)run; (void)fp;
	return -ENOSYS;
}
