// SPDX-License-Identifier: BSD-2-Clause
/*
 * jobs.c - job files: which CAs run together, in rank order.  A
 * scheduler knows exactly where each job runs; the checker's job metrics,
 * hfreduce-check's --job hosts:FILE and the engine's job-aware digits
 * (route_dbt.c) all read it.
 *
 * Format: one host name (the first word of CA NodeDescriptions: every CA
 * of that host, in NodeDescription order) or node/port GUID (0x...) per
 * line, '#' comments.  A line "job NAME [dbt|ring]" starts a job (its
 * collective: the double binary tree allreduce, default, or a ring);
 * lines before any job line form one unnamed job.  A CA twice in a job is
 * a warning (kept once); a CA in two jobs keeps the first (a warning).
 * Unknown hosts and GUIDs are errors, or with CHK_JOBS_LENIENT warnings
 * (a host that is down: the plugin still routes the others).
 * Errors are file:line:col.  Cost O(CAs log CAs + lines).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

#include "base/text.h"
#include "class/class_int.h"

#define WORD_MAX 128

struct host_key {
	const char *host;	/* the NodeDescription; its first hl bytes name the host */
	size_t hl;
	uint32_t node;
	const char *desc;
};

static int cmp_host(const void *a, const void *b)
{
	const struct host_key *x = a, *y = b;
	size_t n = x->hl < y->hl ? x->hl : y->hl;
	int c = memcmp(x->host, y->host, n);

	if (c)
		return c;
	if (x->hl != y->hl)
		return x->hl < y->hl ? -1 : 1;
	if ((c = strcmp(x->desc, y->desc)))	/* a host's CAs in NodeDescription order */
		return c;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* First index in @k (sorted) whose host equals @w, or @n. */
static uint32_t host_lower(const struct host_key *k, uint32_t n, const char *w, size_t wl)
{
	uint32_t lo = 0, hi = n;
	struct host_key key = { w, wl, 0, "" };

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (cmp_host(&k[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct job_ctx {
	const struct topo *t;
	struct host_key *k;
	uint32_t nk;
	uint32_t *job_of;	/* [nnodes]: 1 + the job a CA is in, 0 none */
	struct chk_jobs *j;
	unsigned flags;
};

/* Add a CA to the current job; 0, or 1 + the job it is already in. */
static uint32_t job_add(struct job_ctx *x, uint32_t node)
{
	struct chk_jobs *j = x->j;

	if (x->job_of[node])
		return x->job_of[node];
	x->job_of[node] = j->n;	/* 1 + the current job's index */
	j->node[j->off[j->n]++] = node;
	return 0;
}

/* The warning for @what (a host or a CA) already in job @in (1-based). */
static void job_dup(struct text_reader *rd, unsigned col, const struct job_ctx *x,
		    const char *what, uint32_t in)
{
	if (in == x->j->n)
		text_warn(rd, col, "%s is already in the job", what);
	else
		text_warn(rd, col, "%s is already in job %s: left out of this one", what,
			  x->j->name[in - 1][0] ? x->j->name[in - 1] : "(unnamed)");
}

/* A new job (the first, unnamed, when hosts come before any job line). */
static void job_open(struct job_ctx *x, const char *name, uint8_t coll)
{
	struct chk_jobs *j = x->j;

	snprintf(j->name[j->n], sizeof(j->name[j->n]), "%s", name);
	j->coll[j->n] = coll;
	j->off[j->n + 1] = j->off[j->n];
	j->n++;
}

/* "job NAME [dbt|ring]" */
static void job_header(struct text_reader *rd, struct scan *s, struct job_ctx *x)
{
	char name[WORD_MAX], coll[WORD_MAX];
	unsigned col;
	uint8_t c = CHK_COLL_DBT;

	scan_ws(s);
	col = scan_col(s);
	if (!scan_word(s, "#", name, sizeof(name)) || strlen(name) >= sizeof(x->j->name[0])) {
		text_error(rd, col, "a job name (1..%zu characters) expected",
			   sizeof(x->j->name[0]) - 1);
		return;
	}
	for (uint32_t i = 0; i < x->j->n; i++)
		if (!strcmp(x->j->name[i], name)) {
			text_error(rd, col, "a second job %s", name);
			return;
		}
	scan_ws(s);
	col = scan_col(s);
	if (!cls_at_end(s)) {
		scan_word(s, "#", coll, sizeof(coll));
		if (strcmp(coll, "dbt") && strcmp(coll, "ring")) {
			text_error(rd, col, "the collective is dbt or ring, not %s", coll);
			return;
		}
		c = coll[0] == 'r' ? CHK_COLL_RING : CHK_COLL_DBT;
	}
	if (!cls_at_end(s))
		text_error(rd, scan_col(s), "unexpected text after the job's collective");
	else
		job_open(x, name, c);
}

static void job_line(struct text_reader *rd, struct job_ctx *x)
{
	struct scan s;
	char w[WORD_MAX];
	unsigned col;
	uint32_t dup = 0;
	bool added;
	size_t wl;

	scan_init(&s, rd->line);
	if (cls_at_end(&s))
		return;
	col = scan_col(&s);
	if (scan_lit(&s, "job ") || scan_lit(&s, "job\t")) {
		job_header(rd, &s, x);
		return;
	}
	if (!x->j->n)
		job_open(x, "", CHK_COLL_DBT);
	if (s.p[0] == '0' && (s.p[1] == 'x' || s.p[1] == 'X')) {
		uint64_t guid;
		uint32_t node, p;

		if (cls_parse_guid(rd, &s, &guid))
			return;
		node = topo_find_guid(x->t, guid);
		if (node == TOPO_NONE && (p = topo_find_port_guid(x->t, guid)) != TOPO_NONE)
			node = x->t->port_node[p];
		if (node == TOPO_NONE || x->t->node_type[node] != TOPO_NODE_CA) {
			if (node == TOPO_NONE && (x->flags & CHK_JOBS_LENIENT))
				text_warn(rd, col, "no CA with GUID 0x%016llx: left out",
					  (unsigned long long)guid);
			else
				text_error(rd, col, node == TOPO_NONE ? "no CA with GUID 0x%016llx"
					   : "GUID 0x%016llx is not a CA", (unsigned long long)guid);
		} else if (topo_is_sharp_an(x->t, node)) {
			text_warn(rd, col, "0x%016llx is a SHARP aggregation node, not a host: "
				  "left out of the job", (unsigned long long)guid);
		} else if ((dup = job_add(x, node))) {
			char what[40];

			snprintf(what, sizeof(what), "CA 0x%016llx", (unsigned long long)guid);
			job_dup(rd, col, x, what, dup);
		}
	} else {
		uint32_t i;

		wl = scan_word(&s, "#", w, sizeof(w));
		i = host_lower(x->k, x->nk, w, wl);
		if (i >= x->nk || x->k[i].hl != wl || memcmp(x->k[i].host, w, wl)) {
			if (x->flags & CHK_JOBS_LENIENT)
				text_warn(rd, col, "unknown host '%s': left out", w);
			else
				text_error(rd, col, "unknown host '%s' (no CA description starts "
					   "with it)", w);
			return;
		}
		for (added = 0; i < x->nk && x->k[i].hl == wl && !memcmp(x->k[i].host, w, wl); i++)
			if (!(dup = job_add(x, x->k[i].node)))
				added = true;
		if (!added) {
			char what[WORD_MAX + 16];

			snprintf(what, sizeof(what), "host '%s'", w);
			job_dup(rd, col, x, what, dup);
		}
	}
	if (!cls_at_end(&s))
		text_error(rd, scan_col(&s), "one host or GUID per line");
}

void chk_jobs_free(struct chk_jobs *j)
{
	free(j->off);
	free(j->node);
	free(j->coll);
	free(j->name);
	memset(j, 0, sizeof(*j));
}

int chk_jobs_read(const char *buf, size_t len, const char *fname, const struct topo *t,
		  unsigned flags, struct chk_jobs *jobs, struct diag_list *dl)
{
	struct job_ctx x = { .t = t, .j = jobs, .flags = flags };
	struct text_reader rd;
	unsigned nerr0 = dl->nerrors;
	size_t lines = text_lines(buf, len) + 1;	/* a job per line, and the unnamed one */
	int rc;

	memset(jobs, 0, sizeof(*jobs));
	x.k = malloc(((size_t)t->nnodes + 1) * sizeof(*x.k));
	x.job_of = calloc((size_t)t->nnodes + 1, sizeof(*x.job_of));
	jobs->node = malloc(((size_t)t->nnodes + 1) * sizeof(*jobs->node));
	jobs->off = calloc(lines + 1, sizeof(*jobs->off));
	jobs->coll = calloc(lines, sizeof(*jobs->coll));
	jobs->name = calloc(lines, sizeof(*jobs->name));
	rc = x.k && x.job_of && jobs->node && jobs->off && jobs->coll && jobs->name ? 0 : -ENOMEM;
	for (uint32_t i = 0; !rc && i < t->nnodes; i++) {
		if (t->node_type[i] != TOPO_NODE_CA || !t->node_desc[i][0] || topo_is_sharp_an(t, i))
			continue;
		x.k[x.nk].host = t->node_desc[i];
		x.k[x.nk].hl = strcspn(t->node_desc[i], " ");
		x.k[x.nk].desc = t->node_desc[i];
		x.k[x.nk++].node = i;
	}
	if (!rc) {
		qsort(x.k, x.nk, sizeof(*x.k), cmp_host);
		text_init(&rd, buf, len, fname, dl);
		while (text_next(&rd))
			job_line(&rd, &x);
		text_fini(&rd);
		rc = dl->nerrors != nerr0 ? -EINVAL : 0;
	}
	free(x.k);
	free(x.job_of);
	if (rc)
		chk_jobs_free(jobs);
	return rc;
}

int chk_job_read(const char *buf, size_t len, const char *fname, const struct topo *t,
		 uint32_t **nodes, uint32_t *n, struct diag_list *dl)
{
	struct chk_jobs j;
	int rc = chk_jobs_read(buf, len, fname, t, 0, &j, dl);

	*nodes = NULL;
	*n = 0;
	if (rc)
		return rc;
	if (j.n > 1) {
		diag_add(dl, DIAG_ERROR, fname, 0, 0, "%u jobs: give one job's hosts", j.n);
		chk_jobs_free(&j);
		return -EINVAL;
	}
	if (!j.n || !j.off[1])
		diag_add(dl, DIAG_WARNING, fname, 0, 0, "the job names no host: no job metrics");
	*nodes = j.node;
	*n = j.n ? j.off[1] : 0;
	j.node = NULL;
	chk_jobs_free(&j);
	return 0;
}

int chk_jobs_write(FILE *f, const struct chk_jobs *j, const struct topo *t)
{
	for (uint32_t q = 0; q < j->n; q++) {
		if (j->name[q][0])
			fprintf(f, "job %s %s\n", j->name[q], j->coll[q] == CHK_COLL_RING ? "ring" : "dbt");
		for (uint32_t i = j->off[q]; i < j->off[q + 1]; i++)
			fprintf(f, "0x%016llx\n", (unsigned long long)t->node_guid[j->node[i]]);
	}
	return ferror(f) ? -EIO : 0;
}

/* Every LID of CA node @n's ports on @t (their LMC ranges) into @mark. */
static void mark_ca(const struct topo *t, uint32_t n, uint8_t *mark)
{
	if (n == TOPO_NONE)
		return;		/* not on this fabric now */
	for (uint32_t p = t->port_off[n]; p < t->port_off[n + 1]; p++)
		for (uint32_t k = 0; t->port_lid[p] && k < (1u << t->port_lmc[p]); k++)
			if (t->port_lid[p] + k <= t->max_lid)
				mark[t->port_lid[p] + k] = 1;
}

/* Job @q of @a (on @ta) and job @r of @b (on @tb): the same CAs in the same order, same collective. */
static bool same_job(const struct chk_jobs *a, const struct topo *ta, uint32_t q,
		     const struct chk_jobs *b, const struct topo *tb, uint32_t r)
{
	uint32_t n = a->off[q + 1] - a->off[q];

	if (a->coll[q] != b->coll[r] || n != b->off[r + 1] - b->off[r])
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (ta->node_guid[a->node[a->off[q] + i]] != tb->node_guid[b->node[b->off[r] + i]])
			return false;
	return true;
}

/* Job @q of @j (on @t): its CAs' LIDs into @mark. */
static void mark_job(const struct chk_jobs *j, uint32_t q, const struct topo *t, uint8_t *mark)
{
	for (uint32_t i = j->off[q]; i < j->off[q + 1]; i++)
		mark_ca(t, j->node[i], mark);
}

void chk_jobs_lids(const struct chk_jobs *j, const struct topo *t, uint8_t *mark)
{
	for (uint32_t q = 0; j && q < j->n; q++)
		mark_job(j, q, t, mark);
}

int chk_jobs_changed(const struct chk_jobs *was, const struct topo *tw, const struct chk_jobs *now,
		     const struct topo *t, uint8_t *mark)
{
	uint8_t *matched = calloc((size_t)was->n + 1, 1);
	int changed = 0;

	if (!matched)
		return -ENOMEM;
	for (uint32_t r = 0; r < now->n; r++) {
		uint32_t q = 0;

		while (q < was->n && (matched[q] || strcmp(was->name[q], now->name[r])))
			q++;
		if (q < was->n) {
			matched[q] = 1;
			if (same_job(was, tw, q, now, t, r))
				continue;
		}
		mark_job(now, r, t, mark);
		changed++;
	}
	for (uint32_t q = 0; q < was->n; q++)
		changed += !matched[q];	/* ended: its CAs keep their routes */
	free(matched);
	return changed;
}
