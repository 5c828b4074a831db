// SPDX-License-Identifier: BSD-2-Clause
/* chk_cdg.c - channel dependency graph and credit loops (placeholder, being written) */
#include <ffroute/check.h>
