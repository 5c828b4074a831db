// SPDX-License-Identifier: BSD-2-Clause
/* cmd_fabric.c - "ffroute fabric" (placeholder, being written) */
#include "cli.h"
