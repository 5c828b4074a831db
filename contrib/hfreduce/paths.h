// SPDX-License-Identifier: BSD-2-Clause
/*
 * paths.h - hfreduce-check's path model (paths.c) and job selection
 * (job.c): which CA ports are the ranks, which storage HCA each reads from.
 */
#ifndef HFR_PATHS_H
#define HFR_PATHS_H

#include <stdbool.h>
#include <stdint.h>

#include <ffroute/check.h>
#include <ffroute/class.h>

#include "hfr.h"

struct pm_opts {
	bool lmc_spread;	/* transfer (tree, phase) k uses DLID base + k mod 2^LMC */
};

struct pm_step {
	uint32_t xfers;		/* transfers of the schedule in this step */
	uint32_t shared;	/* switch-to-switch channels carrying >= 2 of them */
	uint32_t worst;		/* most transfers on one switch-to-switch channel */
	uint32_t worst_ch;	/* that channel (sending port), TOPO_NONE if none */
	uint32_t slow;		/* transfers below their endpoint-limited rate */
	uint32_t unrouted;	/* transfers whose walk failed */
	double min_ratio;	/* lowest rate / endpoint-limited rate */
	double time, ideal_time;	/* seconds: slowest transfer, and with ideal rates */
	bool slow_xfer_set;
	uint32_t slow_xfer;	/* the worst slowed transfer (schedule index) */
	double slow_rate, slow_ideal;	/* its rate and endpoint limit, Gb/s */
};

struct pm_result {
	uint32_t steps, worst, slow, unrouted;
	double min_ratio, time, ideal_time;
	double algbw, ideal_algbw;	/* GB/s: size / time */
};

struct pm {
	const struct topo *t;
	const struct lft *l;
	struct pm_opts opt;
	struct chk_ep *rk;	/* ranks, in rank order */
	uint32_t nrk;
	struct chk_ep *stor;	/* storage endpoints */
	uint32_t nstor;
	uint32_t *reader;	/* [nrk]: index into stor that rank i reads from, or TOPO_NONE */
	/* scratch */
	uint32_t *cnt, *touched;
	double *rem;
	uint8_t *frozen;
	struct flows {
		uint32_t n, cap, nch, chcap;
		uint32_t *off, *ch;
		double *rate, *ideal;
		uint64_t *bytes;
		uint32_t *xi;
		uint8_t *ok;
	} f;
};

typedef void (*pm_step_cb)(void *arg, const struct hfr_sched *s, uint32_t k,
			   const struct pm_step *st);

int pm_init(struct pm *m, const struct topo *t, const struct lft *l);
int pm_prepare(struct pm *m);	/* after the ranks are chosen */
int pm_run(struct pm *m, const struct hfr_sched *s, bool incast, struct pm_result *res,
	   pm_step_cb cb, void *arg);
void pm_free(struct pm *m);

/* ---- jobs (job.c) ---------------------------------------------------------- */

enum job_kind { JOB_DEFAULT, JOB_ZONE, JOB_HOSTS, JOB_RANDOM };

struct job_spec {
	enum job_kind kind;
	int zone;
	const char *hosts;	/* file (read by check_run into nodes) */
	const uint32_t *nodes;	/* JOB_HOSTS: its CAs, in rank order */
	uint32_t nnodes;
	uint32_t count;
	uint64_t seed;
};

/* "zone:Z", "hosts:FILE", "random:K[:SEED]"; 0 or -EINVAL */
int job_parse(const char *arg, struct job_spec *j);
/* Fill m->rk / m->nrk and the storage readers; a description into @what. */
int job_select(struct pm *m, const struct cls *c, const struct job_spec *j, char *what,
	       size_t wlen);

#endif
