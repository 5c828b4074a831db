/* SPDX-License-Identifier: BSD-2-Clause */
/* cli.h - subcommands of the ffroute CLI (placeholder, being written) */
#ifndef FFROUTE_CLI_H
#define FFROUTE_CLI_H
#endif
