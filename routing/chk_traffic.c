// SPDX-License-Identifier: BSD-2-Clause
/* chk_traffic.c - traffic-pattern metrics (placeholder, being written) */
#include <ffroute/check.h>
