// SPDX-License-Identifier: BSD-2-Clause
/*
 * hfrcli.h - hfreduce-check's options and its three modes (cmd_paths.c,
 * cmd_local.c, verbs.c), one entry point each.
 */
#ifndef HFR_CLI_H
#define HFR_CLI_H

#include <stdbool.h>
#include <stdint.h>


#include "report.h"
#include "hfr.h"
#include "paths.h"

enum hfr_mode { MODE_NONE, MODE_PATHS, MODE_LOCAL, MODE_VERBS };

struct hfr_cli {
	enum hfr_mode mode;
	struct check_input in;		/* path mode: what to read */
	struct job_spec job;
	uint64_t size, chunk;		/* bytes */
	enum hfr_dtype dtype;
	bool lmc_spread, no_ring, summary, strict;
	bool steps;			/* --steps: every pipeline step's time (local, verbs) */
	uint32_t local;			/* --local N */
	const char *hosts, *dev;	/* --verbs */
	int rank, tcp_port, ib_port;
	int trace;			/* path mode: print step @trace's paths (-1 none) */
};

int hfr_parse_size(const char *arg, uint64_t *out);
int hfr_paths_main(const struct hfr_cli *o);
int hfr_local_main(const struct hfr_cli *o);
int hfr_verbs_main(const struct hfr_cli *o);

#endif
