// SPDX-License-Identifier: BSD-2-Clause
/*
 * cli_load.c - load a topology, forwarding tables or role overrides with
 * diagnostics printed to stderr, and refuse tables that mean nothing: the
 * helpers every command (and hfreduce-check) reading a fabric shares.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ffroute/check.h>
#include <ffroute/class.h>
#include <ffroute/route.h>

#include "cli.h"

struct topo *cli_load_topo(const char *path, enum ffr_format fmt, enum ffr_format *used)
{
	struct diag_list dl;
	struct topo *t = NULL;
	char *buf;
	size_t len;

	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	if (ffr_load_file(path, &buf, &len, &dl) == 0) {
		if (fmt == FFR_FMT_AUTO)
			fmt = ffr_detect_topo_format(path, buf, len);
		t = topo_read_buf(buf, len, path, fmt, &dl);
		free(buf);
	}
	if (t && dl.nerrors) {	/* defensive: a reader must not return both */
		topo_free(t);
		t = NULL;
	}
	if (!t && !dl.nerrors)
		diag_add(&dl, DIAG_ERROR, path, 0, 0, "cannot read the fabric: %s",
			 strerror(errno ? errno : EINVAL));
	diag_print(&dl, stderr);
	diag_free(&dl);
	if (used)
		*used = fmt;
	return t;
}

/* What a text file is parsed into: one of the readers below. */
struct parse_to {
	enum { TO_OVERRIDES, TO_CLASSES, TO_JOBS, TO_SLOTS, TO_SL } kind;
	void *out;
	unsigned *n;
	uint32_t *n32;
	const struct topo *t;
	uint64_t *digest;	/* TO_SL: the lfts line's */
};

/* Read @path whole and parse it as @to says; the diagnostics go to stderr. */
static int load_parse(const char *path, const struct parse_to *to)
{
	struct diag_list dl;
	char *buf;
	size_t len;
	int rc;

	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	rc = ffr_load_file(path, &buf, &len, &dl);
	if (!rc) {
		switch (to->kind) {
		case TO_OVERRIDES: rc = cls_overrides_read(buf, len, path, to->out, &dl); break;
		case TO_CLASSES: rc = tclass_read(buf, len, path, to->out, to->n, &dl); break;
		case TO_JOBS: rc = chk_jobs_read(buf, len, path, to->t, 0, to->out, &dl); break;
		case TO_SLOTS: rc = slots_read(buf, len, path, to->out, to->n32, &dl); break;
		case TO_SL: {
			struct route_out *o = to->out;

			rc = sl_read(buf, len, path, to->t, &o->sl, &o->sl_group, &o->ngroups,
				     &o->tcs, to->digest, &dl);
			break;
		}
		}
		free(buf);
	}
	diag_print(&dl, stderr);
	diag_free(&dl);
	return rc;
}

int cli_load_overrides(const char *path, struct cls_overrides *ov)
{
	return load_parse(path, &(struct parse_to){ .kind = TO_OVERRIDES, .out = ov });
}

int cli_load_classes(const char *spec, struct route_tclass *tc, unsigned *n)
{
	if (!strcmp(spec, "default")) {
		*n = route_tclass_defaults(tc);
		return 0;
	}
	return load_parse(spec, &(struct parse_to){ .kind = TO_CLASSES, .out = tc, .n = n });
}

int cli_load_jobs(const char *path, const struct topo *t, struct chk_jobs *jobs)
{
	return load_parse(path, &(struct parse_to){ .kind = TO_JOBS, .out = jobs, .t = t });
}

int cli_load_slots(const char *dir, struct route_slot **slots, uint32_t *n)
{
	char path[4096];

	*slots = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "%s/ffroute.slots", dir);
	return load_parse(path, &(struct parse_to){ .kind = TO_SLOTS, .out = slots, .n32 = n });
}

void warn_overrides(const struct topo *t, const struct cls_overrides *ov, const char *path)
{
	struct diag_list dl;

	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	cls_overrides_check(t, ov, path, &dl);
	diag_print(&dl, stderr);
	diag_free(&dl);
}

struct lft *cli_load_lft(const char *path, enum ffr_format fmt, const struct topo *t)
{
	struct diag_list dl;
	struct lft *l;

	diag_init(&dl, DIAG_DEFAULT_MAX_ERRORS);
	errno = 0;
	l = lft_read_file(path, fmt, t, &dl);
	if (l && dl.nerrors) {
		lft_free(l);
		l = NULL;
	}
	if (!l && !dl.nerrors)
		diag_add(&dl, DIAG_ERROR, path, 0, 0, "cannot read the forwarding tables: %s",
			 strerror(errno ? errno : EINVAL));
	diag_print(&dl, stderr);
	diag_free(&dl);
	return l;
}

/*
 * Tables that mean nothing are an input error, not a result: none bound to
 * a switch of the fabric, or a fabric without LIDs (a .net file: LIDs come
 * from an SM).  Entries for LIDs the fabric lacks are warned about.
 */
int cli_lft_bound(const struct topo *t, const struct lft *l, const char *label,
		  struct diag_list *dl)
{
	uint32_t tables = 0, lids = 0;
	uint64_t stray = 0;

	for (uint32_t lid = 1; lid <= t->max_lid; lid++)
		lids += t->lid_port[lid] != TOPO_NONE;
	for (uint32_t s = 0; s < l->nsw; s++) {
		if (!l->have[s])
			continue;
		tables++;
		for (uint32_t lid = 1; lid < l->nlids; lid++)
			stray += lft_get(l, s, lid) != LFT_NONE &&
				 (lid > t->max_lid || t->lid_port[lid] == TOPO_NONE);
	}
	if (!tables)
		diag_add(dl, DIAG_ERROR, label, 0, 0, "no forwarding table belongs to a switch "
			 "of this fabric (switch GUIDs differ?)");
	else if (!lids)
		diag_add(dl, DIAG_ERROR, label, 0, 0, "the fabric has no LIDs (a .net file has "
			 "none: use the SM's dump, e.g. opensm-subnet.lst)");
	else if (stray)
		diag_add(dl, DIAG_WARNING, label, 0, 0, "%llu table entries name LIDs the fabric "
			 "does not have", (unsigned long long)stray);
	return tables && lids ? 0 : -EINVAL;
}

int cli_load_base_sls(const char *dir, const struct topo *t, const struct lft *l,
		      struct route_out *o)
{
	char path[4096];
	uint64_t digest = 0;
	int rc;

	memset(o, 0, sizeof(*o));
	snprintf(path, sizeof(path), "%s/ffroute.sl", dir);
	if (access(path, R_OK))
		return 1;
	rc = load_parse(path, &(struct parse_to){ .kind = TO_SL, .out = o, .t = t,
						  .digest = &digest });
	if (!rc && digest != lft_digest(t, l, UINT32_MAX))
		rc = 1;	/* written for other tables: not the base's */
	if (rc) {
		route_out_free(o);
		memset(o, 0, sizeof(*o));
		return rc;
	}
	o->lft = (struct lft *)l;
	o->nlids = t->max_lid + 1;
	return 0;
}
