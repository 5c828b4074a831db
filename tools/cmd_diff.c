// SPDX-License-Identifier: BSD-2-Clause
/* cmd_diff.c - ffroute diff (placeholder, being written) */
#include "cli.h"

const char cmd_diff_help[] = "usage: ffroute diff A B\n";

int cmd_diff(const struct cli_cmd *cmd, int argc, char **argv)
{
	(void)cmd; (void)argc; (void)argv;
	return 2;
}
