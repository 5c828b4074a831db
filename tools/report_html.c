// SPDX-License-Identifier: BSD-2-Clause
/* report_html.c - the HTML report (placeholder, being written) */
#include "report.h"
