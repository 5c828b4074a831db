// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_check.c - libFuzzer target for what `ffroute check` and `ffroute
 * route` do after reading: a mutated topology and LFT pair.  The input is
 * a topology, a line "%%", then forwarding tables (both formats detected).
 * When both read, the fabric is classified and checked (findings and
 * metrics, as `check` does); the topology alone is also routed by the
 * engine, whose own verification must then report no hard finding.
 * Readers refusing the input is fine; a crash, a sanitizer report or an
 * engine that returns tables it should not is not.
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>
#include <ffroute/class.h>
#include <ffroute/io.h>
#include <ffroute/route.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_pair(const struct topo *t, const struct lft *l, const struct cls *c)
{
	struct chk_opts o;
	struct chk_report r;

	chk_opts_init(&o);
	if (chk_report_init(&r, t->nports))
		return;
	if (!chk_findings(t, l, c, &o, &r))
		(void)chk_metrics(t, l, c, &o, &r);
	chk_report_free(&r);
}

static void route_topo(const struct topo *t, const struct cls *c)
{
	struct route_opts o;
	struct route_out out;

	route_opts_init(&o);
	memset(&out, 0, sizeof(out));
	if (route_run(t, c, &o, &out) == 0)
		assert(out.lft && out.hard_findings == 0);
	else
		assert(!out.lft);
	route_out_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data, *sep = NULL;
	struct diag_list dl;
	struct topo *t;
	struct cls c;
	struct cls_overrides ov;

	for (size_t i = 0; i + 3 <= size && !sep; i++)
		if (!memcmp(buf + i, "%%\n", 3) && (i == 0 || buf[i - 1] == '\n'))
			sep = buf + i;
	diag_init(&dl, 0);
	t = topo_read_buf(buf, sep ? (size_t)(sep - buf) : size, "fuzz-topo", FFR_FMT_AUTO,
			  &dl);
	memset(&c, 0, sizeof(c));
	memset(&ov, 0, sizeof(ov));
	if (t && cls_classify(t, &ov, &c) == 0) {
		if (sep) {
			const char *lb = sep + 3;
			struct lft *l = lft_read_buf(lb, size - (size_t)(lb - buf), "fuzz-lft",
						     FFR_FMT_AUTO, t, &dl);

			if (l)
				check_pair(t, l, &c);
			lft_free(l);
		}
		route_topo(t, &c);
	}
	cls_free(&c);
	topo_free(t);
	diag_free(&dl);
	return 0;
}
