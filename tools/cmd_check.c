// SPDX-License-Identifier: BSD-2-Clause
/* cmd_check.c - ffroute check (placeholder, being written) */
#include "cli.h"

const char cmd_check_help[] = "usage: ffroute check ...\n";

int cmd_check(const struct cli_cmd *cmd, int argc, char **argv)
{
	(void)cmd; (void)argc; (void)argv;
	return 2;
}
