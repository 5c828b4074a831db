/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report.h - printing a check report (text, JSON, HTML) and reading a
 * fabric's live routing over MADs; shared by `check` and `diff`.
 */
#ifndef FFROUTE_REPORT_H
#define FFROUTE_REPORT_H

#include <stdio.h>

#include <ffroute/check.h>
#include <ffroute/io.h>

/** report_html - one self-contained HTML page for one or more checked routings */
struct report_input {
	const char *label;		/* e.g. "ftree" or the input path */
	const struct topo *t;
	const struct lft *l;
	const struct chk_class *c;
	const struct chk_report *r;
};
int report_html(const struct report_input *in, unsigned n, FILE *fp);

/**
 * live_read - discover the fabric and read every switch's LFT with SMPs
 * through libibumad (directed-route LinearForwardingTable queries).
 * @ca/@port: local HCA and port (NULL/0 = first active).
 * Return: 0, or -errno with the reason in @dl; -ENOTSUP when built
 * without libibnetdisc/libibmad.
 */
int live_read(const char *ca, int port, struct topo **t, struct lft **l, struct diag_list *dl);

#endif
