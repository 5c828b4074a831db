/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.h - printing a check report (text, JSON, HTML) and reading a
 * fabric's live routing over MADs; shared by `check` and `diff`.
 */
#ifndef FFROUTE_REPORT_H
#define FFROUTE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <ffroute/check.h>
#include <ffroute/io.h>

/* Where one routing comes from: a directory, explicit files, or live MADs. */
struct check_input {
	const char *dir;		/* OpenSM dump dir, ibdiagnet(2) dir, ffroute route dir */
	const char *topo, *lft;		/* explicit files (override what dir finds) */
	enum ffr_format topo_fmt, lft_fmt;
	const char *sl2vl, *roles, *job;	/* optional files */
	const char *sl;			/* ffroute.sl: SL per (source group, LID) */
	const char *db_csv;		/* ibdiagnet2.db_csv: link widths and speeds */
	bool live;			/* read topology + LFTs over MADs */
	bool live_vl;			/* ... and SL2VL + VL arbitration tables */
	const char *ca;			/* --live: local HCA (NULL = first) */
	int port;			/* --live: local port (0 = first active) */
};

/* One checked routing: inputs, classification and report. */
struct check_run {
	char label[256];		/* what was read, for headings */
	struct topo *t;
	struct lft *l;
	struct cls c;
	struct cls_overrides roles;
	uint8_t *sl2vl;
	struct chk_vlx vlx;		/* SL2VL rows of (in, out) pairs that differ */
	uint8_t *sl;			/* with sl_group: from an ffroute.sl dump */
	uint32_t *sl_group;
	uint32_t sl_ngroups;
	struct chk_sl_classes tcs;	/* traffic classes of the ffroute.sl dump */
	uint32_t *job, njob;
	char **vlarb;			/* --live-vl: distinct VL arbitration tables read */
	uint32_t nvlarb;
	struct chk_report r;
};

/**
 * check_run - load @in, classify, run findings (and metrics if o->metrics)
 * Return: 0, or -errno with diagnostics in @dl (bad input: -EINVAL).
 */
int check_run(const struct check_input *in, const struct chk_opts *o, struct check_run *run,
	      struct diag_list *dl);
void check_run_free(struct check_run *run);

/** report_text / report_json - print one checked routing (deterministic) */
int report_text(const struct check_run *run, FILE *fp);
int report_json(const struct check_run *run, FILE *fp);

/** report_html - one self-contained HTML page for one or more checked routings */
struct report_input {
	const char *label;		/* e.g. "ftree" or the input path */
	const struct topo *t;
	const struct lft *l;
	const struct cls *c;
	const struct chk_report *r;
};
int report_html(const struct report_input *in, unsigned n, FILE *fp);

/* The switches' SL2VL and VL arbitration tables as read (live_read()). */
struct live_vl {
	uint8_t *sl2vl;			/* [nports * 16]: each output port's row from its
					 * first input port read (0, the switch itself) */
	struct chk_vlx vlx;		/* rows of cabled input ports that differ */
	char **vlarb;			/* "N ports: low V:W,.. high V:W,.." per distinct
					 * pair of tables on cabled switch ports, most first */
	uint32_t nvlarb;
};

/**
 * live_read - discover the fabric and read every switch's LFT with SMPs
 * through libibumad (directed-route LinearForwardingTable queries); with
 * @vl, every switch's SL2VL table of each (cabled input, cabled output)
 * port pair and each cabled port's VL arbitration tables too.
 * @ca/@port: local HCA and port (NULL/0 = first active).
 * Return: 0, or -errno with the reason in @dl; -ENOTSUP when built
 * without libibnetdisc/libibmad.
 */
int live_read(const char *ca, int port, struct topo **t, struct lft **l, struct live_vl *vl,
	      struct diag_list *dl);
void live_vl_free(struct live_vl *vl);

#endif
