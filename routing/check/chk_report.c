// SPDX-License-Identifier: BSD-2-Clause
/*
 * chk_report.c - the report that findings and metrics fill: findings
 * counted per kind with a few examples each, metrics as named values, and
 * per-channel counters sized to the fabric's ports.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

static const char *const finding_names[CHK_F_COUNT] = {
	"no_table", "unreachable", "unreachable_physical", "loop", "blackhole", "switch_lid",
	"non_minimal", "credit_loop", "rail_mix", "rail_leave", "cross_zone_link",
	"storage_cross_zone",
	"credit_loop_switch", "rate_slowed", "slow_transit",
};

/* Kinds that make `ffroute check` fail (non-minimal and physically unreachable do not). */
static const bool finding_hard[CHK_F_COUNT] = {
	[CHK_F_NO_TABLE] = true, [CHK_F_UNREACHABLE] = true, [CHK_F_LOOP] = true,
	[CHK_F_BLACKHOLE] = true, [CHK_F_SWITCH_LID] = true, [CHK_F_CREDIT_LOOP] = true,
	[CHK_F_RAIL_MIX] = true, [CHK_F_RAIL_LEAVE] = true, [CHK_F_XZONE_LINK] = true,
	[CHK_F_STORAGE_XZONE] = true, [CHK_F_RATE_SLOWED] = true, [CHK_F_SLOW_TRANSIT] = true,
};

bool chk_finding_hard(enum chk_finding_kind k)
{
	return (unsigned)k < CHK_F_COUNT && finding_hard[k];
}

const char *chk_finding_name(enum chk_finding_kind k)
{
	return (unsigned)k < CHK_F_COUNT ? finding_names[k] : "?";
}

void chk_opts_init(struct chk_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seed = 1;
	o->shift_samples = 64;
	o->shift_all_max = 1024;
	o->xzone_job = 512;
	o->metrics = true;
}

int chk_report_init(struct chk_report *r, uint32_t nports)
{
	size_t n = (size_t)nports + 1;

	memset(r, 0, sizeof(*r));
	for (unsigned i = 0; i < CHK_F_COUNT; i++)
		r->f[i].kind = (enum chk_finding_kind)i;
	r->ch_routes = calloc(n, sizeof(uint32_t));
	r->ch_load = calloc(n, sizeof(uint32_t));
	for (unsigned i = 0; i < CLS_TC_COUNT; i++) {
		r->ch_routes_tc[i] = calloc(n, sizeof(uint32_t));
		r->ch_dests_tc[i] = calloc(n, sizeof(uint32_t));
		if (!r->ch_routes_tc[i] || !r->ch_dests_tc[i]) {
			chk_report_free(r);
			return -ENOMEM;
		}
	}
	if (!r->ch_routes || !r->ch_load) {
		chk_report_free(r);
		return -ENOMEM;
	}
	return 0;
}

void chk_report_free(struct chk_report *r)
{
	free(r->m);
	free(r->ch_routes);
	free(r->ch_load);
	for (unsigned i = 0; i < CLS_TC_COUNT; i++) {
		free(r->ch_routes_tc[i]);
		free(r->ch_dests_tc[i]);
	}
	memset(r, 0, sizeof(*r));
}

int chk_metric_set(struct chk_report *r, const char *name, double value)
{
	for (uint32_t i = 0; i < r->nm; i++)
		if (!strcmp(r->m[i].name, name)) {
			r->m[i].value = value;
			return 0;
		}
	if (r->nm == r->capm) {
		uint32_t cap = r->capm ? r->capm * 2 : 64;
		struct chk_metric *nm = realloc(r->m, cap * sizeof(*nm));

		if (!nm)
			return -ENOMEM;
		r->m = nm;
		r->capm = cap;
	}
	snprintf(r->m[r->nm].name, sizeof(r->m[r->nm].name), "%s", name);
	r->m[r->nm++].value = value;
	return 0;
}

double chk_metric_get(const struct chk_report *r, const char *name)
{
	for (uint32_t i = 0; i < r->nm; i++)
		if (!strcmp(r->m[i].name, name))
			return r->m[i].value;
	return NAN;
}

void chk_finding_add(struct chk_report *r, enum chk_finding_kind kind, bool hard,
		     const char *fmt, ...)
{
	struct chk_finding *f = &r->f[kind];
	va_list ap;

	f->count++;
	f->hard = f->hard || hard;
	if (f->nex >= CHK_EXAMPLES)
		return;
	va_start(ap, fmt);
	vsnprintf(f->ex[f->nex++], sizeof(f->ex[0]), fmt, ap);
	va_end(ap);
}

uint64_t chk_hard_findings(const struct chk_report *r)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < CHK_F_COUNT; i++)
		if (r->f[i].hard)
			n += r->f[i].count;
	return n;
}

/* Another node has the same NodeDescription. */
static bool desc_shared(const struct topo *t, uint32_t n)
{
	for (uint32_t m = 0; m < t->nnodes; m++)
		if (m != n && !strcmp(t->node_desc[m], t->node_desc[n]))
			return true;
	return false;
}

const char *chk_node_name(const struct topo *t, uint32_t n, char *buf, size_t len)
{
	if (t->node_desc[n][0] && !desc_shared(t, n))
		snprintf(buf, len, "%s", t->node_desc[n]);
	else
		snprintf(buf, len, "0x%016" PRIx64, t->node_guid[n]);
	return buf;
}
