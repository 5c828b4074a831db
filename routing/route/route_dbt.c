// SPDX-License-Identifier: BSD-2-Clause
/*
 * route_dbt.c - D-mod-K digits that also keep HFReduce's double binary
 * tree allreduce off shared links.
 *
 * Why.  D-mod-K sends compute destination number i (in position order)
 * through spine i mod m of its leaf's up-group.  A shift permutation
 * then meets no contention, because every W consecutive destinations
 * (W = the most compute HCAs on one leaf) have distinct digits.  But the
 * pipelined double binary tree (chk_dbt_parent; hfreduce-check's step
 * rule, contrib/hfreduce/sched.c) sends, in its ramp-up and ramp-down
 * steps, from one leaf to destinations 2^k apart, and 2^k mod m collide:
 * on Fire-Flyer 2 (15 compute HCAs per leaf, 20 spines) 27 of 51 steps
 * lose bandwidth.  When W < m, rank mod m is not the only digit sequence
 * with distinct digits in every W consecutive destinations; this file
 * searches for one that also carries every tree step at the rates its
 * endpoints allow.
 *
 * What is kept.  Moves swap the digits of two destinations, so each spine
 * is designated as often as before (per-class balance), and a swap is
 * taken only if every cyclic window of W destinations still has distinct
 * digits (shift permutations; in each leaf's own destinations too).  A
 * swap is kept only if the tree's overload does not grow.
 *
 * Where.  Per zone, only where the model is exact: every compute
 * destination of the zone is one LID (LMC 0) on a leaf, all those leaves
 * have the same up-group of m spines, one link to each, and W <= m (W = m
 * below), with at most DBT_MAX_RANKS of them.  Elsewhere the digits stay rank mod m.
 * A leaf that lost links to spines of its group (holes, route_pos.c)
 * still counts as having them: the digits are those of the healthy
 * fabric, so a failed link moves only the routes that crossed it (the
 * hole's substitute carries them), not every destination of the zone.
 *
 * W = m (a full frame: 20 compute HCAs on a leaf, 20 spines).  Windows
 * of m distinct digits force rank mod m (each window of m is then a
 * permutation, so d[i + m] = d[i]); and when m does not divide n, the
 * windows that wrap around already repeat a digit, so most shifts load
 * some up-link twice anyway.  There the search swaps digits inside a
 * leaf only (each leaf keeps its set of digits: per-class balance and
 * down-links unchanged) and keeps windows of m - 1, then m - 2, ... down
 * to m / 2 distinct, the least slack that frees the tree: any m
 * consecutive destinations then still hold a digit at most twice, so no
 * shift loads a link more than twice, as with rank mod m.  When m
 * divides n, rank mod m is contention-free for shifts, but not for the
 * tree (on Fire-Flyer 2's 600 ranks under 20 spines, 4 transfers of the
 * ramp-down at 3/4 of their rate); there the search keeps windows of
 * m - 1 (a shift loads a link twice at most), and its digits are taken
 * only if the shifts' mean of most loaded up-links stays within
 * RT_SHIFT_COST of rank mod m's 1 (600 ranks under 20 spines: 1.10;
 * 24 under 4: 1.35, so rank mod m stays and the tree keeps its overload).
 *
 * Jobs (route_opts.jobs: a scheduler's jobs file).  The transfers to
 * keep free are then those of the running jobs rather than of one
 * hypothetical job over the whole zone: each job's double binary tree
 * (or ring: every rank to the next, one step) over its own ranks, in its
 * order, with its endpoint-limited rates; a transfer counts in the zone
 * that holds both its ends (a job across zones: the part inside each).
 * Jobs' steps are separate cells (jobs do not wait for one another: each
 * is kept free of itself, as hfreduce-check --job judges it).  A zone
 * without two ranks of any job keeps the zone's own tree (tree_digits).
 * The same swaps keep the same windows and balance, so shifts and per-
 * class balance are those of rank mod m for every destination.
 *
 * The tree's steps: hfreduce-check's schedule with 2H + 1 chunks per tree
 * (H its height): every pattern of concurrent transfers that any chunk
 * count >= 2H + 1 produces, ramp-up, full pipeline and ramp-down.  Per
 * step each transfer gets its endpoint-limited rate (max-min over the HCA
 * links, all of one rate); the cost is the rate beyond 1 on any leaf
 * up-link (a spine's down-link to a leaf carries one destination's
 * transfers only, which that destination's own link already limits).
 *
 * Deterministic: one seeded splitmix64; swaps are drawn from the cells
 * that are over capacity.  Cost: O(steps x transfers) to set up (steps
 * ~ 4H, transfers ~ 4n), then a few thousand swaps of O(W + H * 6) each.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/check.h>

#include "base/rng.h"
#include "route/route_int.h"

#define DBT_EPS 1e-9
#define DBT_ITERS 40000u	/* swaps tried per zone at most */
#define DBT_REFS 4u		/* a job change: reference leaves read per zone (base_digits()) */
#define DBT_MAX_RANKS 16384u	/* larger zones keep rank mod m (memory ~ 64 n log n bytes) */
#define DBT_MAX_SLOTS (1u << 22)	/* (step, leaf, digit) load slots: 32 MiB; jobs beyond
					 * it are left out, the smallest first */

/* One zone's job and the search state. */
struct dbt {
	uint32_t n, m, w, nleaf, nsteps;
	bool inleaf;		/* W = m: swaps inside a leaf only, windows shorter than m */
	bool modm_free;		/* inleaf, m divides n: rank mod m is free for shifts */
	uint32_t wmin;		/* inleaf: the shortest windows tried */
	uint32_t *leaf;		/* [n] compact leaf index of each rank */
	uint32_t *lbeg;		/* [nleaf + 1] first rank of each leaf */
	uint32_t *dig;		/* [n] current digit */
	uint8_t *frozen;	/* [n] a job change: may not swap (base_digits()); NULL: none */
	uint32_t *dig0;		/* [n] a job change: the base's digits */
	uint32_t *eoff;		/* [n + 1] CSR: transfers into each rank ... */
	uint32_t *ecell;	/* ... (step, source leaf) cell of each */
	double *erate;		/* ... and its endpoint-limited rate */
	uint32_t *coff, *cdst;	/* [cells + 1] CSR: the destinations of each cell's transfers */
	double *load;		/* [nsteps * nleaf * m] rate on each leaf up-link */
	double ov;		/* the overload: rate beyond 1 summed over the slots */
	uint64_t rng;
};

static double over(double v)
{
	return v > 1.0 + DBT_EPS ? v - 1.0 : 0.0;
}

/* ---- the job -------------------------------------------------------------- */

static int tree_build(struct rt_tree *tr, uint32_t n, int which)
{
	int64_t h;

	tr->parent = malloc(((size_t)n + 1) * sizeof(*tr->parent));
	tr->depth = calloc((size_t)n + 1, sizeof(*tr->depth));
	if (!tr->parent || !tr->depth)
		return -ENOMEM;
	h = chk_dbt_tree(n, which, tr->parent, tr->depth);
	tr->height = h < 0 ? 0 : (uint32_t)h;
	return h < 0 ? -EINVAL : 0;
}

/* Transfers of step @s with @chunks chunks (sched.c's rule), into @src/@dst. */
static uint32_t step_xfers(const struct rt_tree tr[2], uint32_t n, uint32_t chunks, uint32_t s,
			   uint32_t *src, uint32_t *dst)
{
	uint32_t k = 0;

	for (int t = 0; t < 2; t++) {
		uint32_t H = tr[t].height;

		for (uint32_t i = 0; i < n; i++) {
			int64_t up = (int64_t)s - H + tr[t].depth[i];	/* chunk sent up */
			int32_t p = tr[t].parent[i];

			if (p >= 0 && up >= 0 && up < chunks)
				src[k] = i, dst[k++] = (uint32_t)p;
			/* broadcast: the parent p sends chunk s - H - depth(p) to i */
			if (p >= 0) {
				int64_t dn = (int64_t)s - H - tr[t].depth[p];

				if (dn >= 0 && dn < chunks)
					src[k] = (uint32_t)p, dst[k++] = i;
			}
		}
	}
	return k;
}

/* Max-min fair rates of @k transfers over the HCA links alone (capacity 1). */
void rt_endpoint_rates(uint32_t n, uint32_t k, const uint32_t *src, const uint32_t *dst,
			   double *rate, double *cap, uint32_t *act)
{
	double level = 0;
	uint32_t left = k;

	for (uint32_t i = 0; i < 2 * n; i++)
		cap[i] = 1.0, act[i] = 0;
	for (uint32_t j = 0; j < k; j++) {
		act[src[j]]++;
		act[n + dst[j]]++;
		rate[j] = -1;
	}
	while (left) {
		double inc = 2.0;

		for (uint32_t i = 0; i < 2 * n; i++)
			if (act[i] && cap[i] / act[i] < inc)
				inc = cap[i] / act[i];
		level += inc;
		for (uint32_t i = 0; i < 2 * n; i++)
			if (act[i])
				cap[i] -= inc * act[i];
		for (uint32_t j = 0; j < k; j++) {
			if (rate[j] >= 0 || (cap[src[j]] > DBT_EPS && cap[n + dst[j]] > DBT_EPS))
				continue;
			rate[j] = level;
			act[src[j]]--;
			act[n + dst[j]]--;
			left--;
		}
	}
}

/* ---- set-up ----------------------------------------------------------------- */

static void dbt_free(struct dbt *z)
{
	free(z->frozen);
	free(z->dig0);
	free(z->leaf);
	free(z->lbeg);
	free(z->dig);
	free(z->eoff);
	free(z->ecell);
	free(z->erate);
	free(z->coff);
	free(z->cdst);
	free(z->load);
}

/* Transfers of step @s of @j, in its ranks (the ring: every rank to the next at once). */
uint32_t rt_job_xfers(const struct rt_job *j, uint32_t s, uint32_t *src, uint32_t *dst)
{
	if (j->coll == CHK_COLL_RING) {
		for (uint32_t i = 0; i < j->n; i++)
			src[i] = i, dst[i] = (i + 1) % j->n;
		return j->n;
	}
	return step_xfers(j->tr, j->n, j->chunks, s, src, dst);
}

/* Every cross-leaf transfer of every step of every job: CSR by destination and by cell. */
static int dbt_index(struct dbt *z, const struct rt_job *jobs, uint32_t njobs)
{
	uint32_t n = z->n, xmax = 4, ne = 0, ncell = z->nsteps * z->nleaf, base = 0, nmax = 1;
	size_t emax = 1;
	uint32_t *src, *dst, *act, *ed = NULL, *ec = NULL;
	double *rate, *cap, *er = NULL;
	int rc = -ENOMEM;

	for (uint32_t q = 0; q < njobs; q++) {
		xmax = 4 * jobs[q].n + 4 > xmax ? 4 * jobs[q].n + 4 : xmax;
		nmax = jobs[q].n > nmax ? jobs[q].n : nmax;
		emax += (size_t)jobs[q].nsteps * (4 * jobs[q].n + 4);
	}
	src = malloc(xmax * sizeof(*src));
	dst = malloc(xmax * sizeof(*dst));
	act = malloc(2 * ((size_t)nmax + 1) * sizeof(*act));
	rate = malloc(xmax * sizeof(*rate));
	cap = malloc(2 * ((size_t)nmax + 1) * sizeof(*cap));
	z->eoff = calloc((size_t)n + 2, sizeof(*z->eoff));
	z->coff = calloc((size_t)ncell + 2, sizeof(*z->coff));
	if (!src || !dst || !act || !rate || !cap || !z->eoff || !z->coff ||
	    !(ed = malloc(emax * sizeof(*ed))) || !(ec = malloc(emax * sizeof(*ec))) ||
	    !(er = malloc(emax * sizeof(*er))))
		goto out;
	for (uint32_t q = 0; q < njobs; base += jobs[q++].nsteps)
		for (uint32_t s = 0; s < jobs[q].nsteps; s++) {
			uint32_t k = rt_job_xfers(&jobs[q], s, src, dst);

			rt_endpoint_rates(jobs[q].n, k, src, dst, rate, cap, act);
			for (uint32_t x = 0; x < k; x++) {
				uint32_t a = jobs[q].zr[src[x]], b = jobs[q].zr[dst[x]];

				if (a == UINT32_MAX || b == UINT32_MAX || z->leaf[a] == z->leaf[b])
					continue;	/* another zone's, or inside one leaf */
				ed[ne] = b;
				ec[ne] = (base + s) * z->nleaf + z->leaf[a];
				er[ne++] = rate[x];
				z->eoff[b + 1]++;
				z->coff[ec[ne - 1] + 1]++;
			}
		}
	for (uint32_t i = 0; i < n; i++)
		z->eoff[i + 1] += z->eoff[i];
	for (uint32_t c = 0; c < ncell; c++)
		z->coff[c + 1] += z->coff[c];
	z->ecell = malloc(((size_t)ne + 1) * sizeof(*z->ecell));
	z->erate = malloc(((size_t)ne + 1) * sizeof(*z->erate));
	z->cdst = malloc(((size_t)ne + 1) * sizeof(*z->cdst));
	if (!z->ecell || !z->erate || !z->cdst)
		goto out;
	for (uint32_t e = 0; e < ne; e++) {	/* scatter; offsets restored below */
		uint32_t i = z->eoff[ed[e]]++, c = z->coff[ec[e]]++;

		z->ecell[i] = ec[e];
		z->erate[i] = er[e];
		z->cdst[c] = ed[e];
	}
	for (uint32_t i = n; i > 0; i--)
		z->eoff[i] = z->eoff[i - 1];
	z->eoff[0] = 0;
	for (uint32_t c = ncell; c > 0; c--)
		z->coff[c] = z->coff[c - 1];
	z->coff[0] = 0;
	rc = 0;
out:
	free(src);
	free(dst);
	free(act);
	free(rate);
	free(cap);
	free(ed);
	free(ec);
	free(er);
	return rc;
}

/* The up-link loads of the current digits. */
static void dbt_loads(struct dbt *z)
{
	memset(z->load, 0, (size_t)z->nsteps * z->nleaf * z->m * sizeof(*z->load));
	for (uint32_t i = 0; i < z->n; i++)
		for (uint32_t e = z->eoff[i]; e < z->eoff[i + 1]; e++)
			z->load[(size_t)z->ecell[e] * z->m + z->dig[i]] += z->erate[e];
}

/* @j's trees and steps (hfreduce-check's schedule with 2H + 1 chunks), or the ring's one step. */
int rt_job_steps(struct rt_job *j)
{
	uint32_t H;
	int rc;

	if (j->coll == CHK_COLL_RING) {
		j->nsteps = 1;
		return 0;
	}
	rc = tree_build(&j->tr[0], j->n, 0);
	if (!rc)
		rc = tree_build(&j->tr[1], j->n, 1);
	H = j->tr[0].height > j->tr[1].height ? j->tr[0].height : j->tr[1].height;
	j->chunks = 2 * H + 1;
	j->nsteps = j->chunks + 2 * H - 1;
	return rc;
}

void rt_job_free(struct rt_job *j)
{
	for (int t = 0; t < 2; t++) {
		free(j->tr[t].parent);
		free(j->tr[t].depth);
	}
	free(j->zr);
}

/*
 * Leave out the smallest jobs (no steps) until the load slots fit
 * DBT_MAX_SLOTS: many small jobs must not make a sweep slow.  Returns how
 * many were left out.
 */
static uint32_t slots_budget(struct dbt *z, struct rt_job *jobs, uint32_t njobs)
{
	uint64_t per = (uint64_t)z->nleaf * z->m, total = 0;
	uint32_t out = 0;

	for (uint32_t q = 0; q < njobs; q++)
		total += jobs[q].nsteps * per;
	while (total > DBT_MAX_SLOTS) {
		uint32_t small = UINT32_MAX;

		for (uint32_t q = 0; q < njobs; q++)
			if (jobs[q].nsteps && (small == UINT32_MAX || jobs[q].n < jobs[small].n))
				small = q;
		if (small == UINT32_MAX)
			break;
		total -= jobs[small].nsteps * per;
		jobs[small].nsteps = 0;
		out++;
	}
	return out;
}

/* The jobs' steps, the index and the loads of the digits rank mod m. */
static int dbt_setup(struct dbt *z, struct rt_job *jobs, uint32_t njobs, uint32_t *left_out)
{
	int rc = 0;

	z->nsteps = 0;
	for (uint32_t q = 0; !rc && q < njobs; q++)
		rc = rt_job_steps(&jobs[q]);
	*left_out = rc ? 0 : slots_budget(z, jobs, njobs);
	for (uint32_t q = 0; !rc && q < njobs; q++)
		z->nsteps += jobs[q].nsteps;
	if (!rc)
		rc = dbt_index(z, jobs, njobs);
	if (!rc && !(z->load = calloc((size_t)z->nsteps * z->nleaf * z->m, sizeof(*z->load))))
		rc = -ENOMEM;
	if (!rc)
		dbt_loads(z);
	return rc;
}

/* ---- search ------------------------------------------------------------------ */

/* Whether rank @i may take digit @v: no other rank within cyclic distance < w has it. */
static bool window_ok(const struct dbt *z, uint32_t i, uint32_t v, uint32_t partner)
{
	for (uint32_t k = 1; k < z->w; k++) {
		uint32_t a = (i + k) % z->n, b = (i + z->n - k % z->n) % z->n;

		if ((a != partner && z->dig[a] == v) || (b != partner && z->dig[b] == v))
			return false;
	}
	return true;
}

/* Move rank @i's transfers from digit @from to @to; z->ov follows. */
static void move(struct dbt *z, uint32_t i, uint32_t from, uint32_t to)
{
	double dc = 0;

	for (uint32_t e = z->eoff[i]; e < z->eoff[i + 1]; e++) {
		double *a = &z->load[(size_t)z->ecell[e] * z->m + from];
		double *b = &z->load[(size_t)z->ecell[e] * z->m + to];

		dc -= over(*a) + over(*b);
		*a -= z->erate[e];
		*b += z->erate[e];
		dc += over(*a) + over(*b);
	}
	z->dig[i] = to;
	z->ov += dc;
}

/* Overloaded (cell, digit) slots into @bad; their count. */
static uint32_t overloaded(const struct dbt *z, uint32_t *bad, uint32_t max)
{
	size_t nslot = (size_t)z->nsteps * z->nleaf * z->m;
	uint32_t k = 0;

	for (size_t x = 0; x < nslot && k < max; x++)
		if (over(z->load[x]) > 0)
			bad[k++] = (uint32_t)x;
	return k;
}

/* A rank with digit @v that receives a transfer counted in @slot's cell. */
static uint32_t pick_culprit(struct dbt *z, uint32_t slot)
{
	uint32_t c = slot / z->m, v = slot % z->m, k = 0, pick;

	for (uint32_t e = z->coff[c]; e < z->coff[c + 1]; e++)
		k += z->dig[z->cdst[e]] == v && !(z->frozen && z->frozen[z->cdst[e]]);
	if (!k)
		return UINT32_MAX;
	pick = ffr_rng_below(&z->rng, k);
	for (uint32_t e = z->coff[c]; e < z->coff[c + 1]; e++)
		if (z->dig[z->cdst[e]] == v && !(z->frozen && z->frozen[z->cdst[e]]) && !pick--)
			return z->cdst[e];
	return UINT32_MAX;
}

/* A rank whose digit @i may take while it takes @i's (windows kept), or UINT32_MAX. */
static uint32_t pick_partner(struct dbt *z, uint32_t i)
{
	uint32_t vi = z->dig[i], lo = 0, span = z->n;

	if (z->inleaf) {	/* the leaf keeps its digits: balance and down-links as they were */
		lo = z->lbeg[z->leaf[i]];
		span = z->lbeg[z->leaf[i] + 1] - lo;
	}
	for (unsigned tries = 0; tries < 16; tries++) {
		uint32_t c = lo + ffr_rng_below(&z->rng, span);

		if (z->dig[c] != vi && !(z->frozen && z->frozen[c]) && window_ok(z, i, z->dig[c], c) &&
		    window_ok(z, c, vi, i))
			return c;
	}
	return UINT32_MAX;
}

/*
 * Swap digits drawn from overloaded slots (threshold accepting: a swap
 * may add up to a threshold that falls to 0 over the first half of the
 * budget, then only swaps that add nothing); the best digits seen win.
 * Stops at no overload, at the budget, or after 500 + n swaps without
 * a new best (a residue the windows do not let go of).
 */
static int dbt_search(struct dbt *z, uint32_t *bad, uint32_t maxbad)
{
	uint32_t nbad = 0, *best = malloc(((size_t)z->n + 1) * sizeof(*best));
	uint32_t stall = 500 + z->n, last = 0;	/* give up after so many swaps without a best */
	double bov;

	if (!best)
		return -ENOMEM;
	z->ov = 0;
	for (size_t x = 0; x < (size_t)z->nsteps * z->nleaf * z->m; x++)
		z->ov += over(z->load[x]);
	bov = z->ov;
	memcpy(best, z->dig, (size_t)z->n * sizeof(*best));
	for (uint32_t it = 0; it < DBT_ITERS && bov > DBT_EPS && it - last < stall; it++) {
		double thr = it < DBT_ITERS / 2 ? 0.25 * (1.0 - 2.0 * it / DBT_ITERS) : 0;
		uint32_t slot, i, j, vi, vj;
		double was = z->ov;

		if (!nbad || it % 64 == 0)
			nbad = overloaded(z, bad, maxbad);
		if (!nbad)
			break;
		slot = bad[ffr_rng_below(&z->rng, nbad)];
		if (!over(z->load[slot]) || (i = pick_culprit(z, slot)) == UINT32_MAX) {
			nbad = 0;
			continue;
		}
		vi = z->dig[i];
		if ((j = pick_partner(z, i)) == UINT32_MAX)
			continue;
		vj = z->dig[j];
		move(z, i, vi, vj);
		move(z, j, vj, vi);
		if (z->ov > was + thr + 1e-12) {	/* too much worse: undo */
			move(z, j, vi, vj);
			move(z, i, vj, vi);
			continue;
		}
		if (z->ov < bov - DBT_EPS) {
			last = it;
			bov = z->ov;
			memcpy(best, z->dig, (size_t)z->n * sizeof(*best));
		}
	}
	memcpy(z->dig, best, (size_t)z->n * sizeof(*best));
	dbt_loads(z);	/* the loads of the best digits: a next search starts from them */
	z->ov = bov;
	free(best);
	return 0;
}

/*
 * The mean over the zone's shifts k of the most flows on a leaf's up-link
 * under the current digits: per source leaf, the most of its ranks whose
 * destination, on another leaf, has one digit (swaps inside a leaf keep every down-link at
 * one destination).  Every shift up to 1,024 of them, else 1,024 evenly
 * spread: O(n min(n, 1024)).
 */
static double shift_mean(const struct dbt *z)
{
	uint32_t *cnt = calloc(z->m, sizeof(*cnt)), step = (z->n + 1023) / 1024, sum = 0, ns = 0;

	if (!cnt)
		return HUGE_VAL;	/* unknown: rank mod m stays */
	for (uint32_t k = 1; k < z->n; k += step, ns++) {
		uint32_t mx = 0;

		for (uint32_t l = 0; l < z->nleaf; l++) {
			for (uint32_t i = z->lbeg[l]; i < z->lbeg[l + 1]; i++) {
				uint32_t j = (i + k) % z->n, c;

				if (z->leaf[j] == l)
					continue;	/* stays on the leaf: no up-link */
				c = ++cnt[z->dig[j]];
				mx = c > mx ? c : mx;
			}
			for (uint32_t i = z->lbeg[l]; i < z->lbeg[l + 1]; i++)
				cnt[z->dig[(i + k) % z->n]] = 0;
		}
		sum += mx;
	}
	free(cnt);
	return ns ? (double)sum / ns : 0;
}

/* ---- zones --------------------------------------------------------------------- */

/*
 * The compute destinations d[lo..hi) of one zone, if the model is exact
 * there (see the top): ranks into @z (leaf, dig, n, nleaf, w, m).
 * Return: 1 to search, 0 to leave the zone alone, -ENOMEM.
 */
static int dbt_job(const struct rt *r, const struct rt_dest *d, uint32_t lo, uint32_t hi,
		   struct dbt *z)
{
	uint32_t first = TOPO_NONE, prev = TOPO_NONE, run = 0, n = 0;

	for (uint32_t i = lo; i < hi; i++) {
		const struct rt_dest *x = &d[i];

		if (x->tc != CLS_TC_COMPUTE)
			continue;
		if (r->c->level[rt_node(r, x->attach)] != 1 ||
		    r->c->subtree[rt_node(r, x->attach)] != TOPO_NONE)
			return 0;	/* compute above the leaves or in a low-speed subtree
					 * (ranked apart): not the checker's job order */
		if (n && x->attach == d[prev].attach && x->port == d[prev].port)
			return 0;	/* LMC > 0 */
		if (first == TOPO_NONE) {
			first = x->attach;
			z->m = r->upg_off[first + 1] - r->upg_off[first];
		}
		if (!n || x->attach != d[prev].attach) {
			if (!rt_same_up_group(r, x->attach, first, z->m, true))
				return 0;
			run = 0;
			z->nleaf++;
		}
		if (++run > z->w)
			z->w = run;
		prev = i;
		n++;
	}
	if (n < 4 || n > DBT_MAX_RANKS || z->nleaf < 2 || z->w > z->m)
		return 0;
	if (z->w == z->m) {	/* see the top: windows of m - 1 at most */
		z->inleaf = true;
		z->w = z->m - 1;
		z->modm_free = n % z->m == 0;
		z->wmin = z->modm_free ? z->m - 1 : (z->m + 1) / 2;
	}
	z->n = n;
	z->leaf = malloc((size_t)n * sizeof(*z->leaf));
	z->lbeg = calloc((size_t)z->nleaf + 1, sizeof(*z->lbeg));
	z->dig = malloc((size_t)n * sizeof(*z->dig));
	if (!z->leaf || !z->lbeg || !z->dig)
		return -ENOMEM;
	n = 0;
	z->nleaf = 0;
	for (uint32_t i = lo; i < hi; i++) {
		if (d[i].tc != CLS_TC_COMPUTE)
			continue;
		if (n && d[i].attach != d[prev].attach)
			z->lbeg[++z->nleaf] = n;
		z->leaf[n] = z->nleaf;
		z->dig[n++] = d[i].rank % z->m;
		prev = i;
	}
	z->lbeg[++z->nleaf] = n;
	return 1;
}

/* [max_lid + 1]: the compute LIDs of CAs in no job (idle), NULL on ENOMEM. */
static uint8_t *idle_lids(const struct rt *r)
{
	uint8_t *idle = calloc((size_t)r->t->max_lid + 1, 1);

	if (!idle)
		return NULL;
	chk_jobs_lids(r->o->jobs, r->t, idle);	/* in a job: 1 */
	for (uint32_t lid = 0; lid <= r->t->max_lid; lid++)
		idle[lid] ^= 1;
	return idle;
}

/* The digit of @lid as leaf @s's base entry leads (the up-switch rt_up_target() gives it), else @m. */
static uint32_t base_digit(const struct rt *r, uint32_t s, uint32_t lid, uint32_t m)
{
	const struct route_base *b = r->o->base;
	const struct topo *t = r->t;
	uint32_t nn = rt_node(r, s), bn = topo_find_guid(b->t, t->node_guid[nn]), v = m, w;
	uint8_t e;

	if (bn == TOPO_NONE || b->t->node_sw[bn] == TOPO_NONE)
		return m;
	e = lft_get(b->lft, b->t->node_sw[bn], lid);
	if (!e || e == LFT_NONE || e >= t->port_off[nn + 1] - t->port_off[nn])
		return m;
	w = r->peer[topo_port(t, nn, e)];
	for (v = 0; v < m && rt_up_target(r, s, v) != w; v++)
		;
	return v;
}

/*
 * A CA's base entries are its digit's at every leaf of the zone d[lo..hi)
 * (no swap of the base's ties it to another CA there): its digit may then
 * move, its new column whole, without breaking a leaf's counts.
 */
static bool plain(const struct rt *r, const struct rt_dest *d, uint32_t lo, uint32_t hi,
		  uint32_t lid, uint32_t v)
{
	const struct route_base *b = r->o->base;
	const struct topo *t = r->t;
	uint32_t own = r->t->node_sw[t->port_node[t->port_remote[t->lid_port[lid]]]];

	for (uint32_t i = lo, prev = TOPO_NONE; i < hi; i++) {
		uint32_t s = d[i].attach, nn, bn;
		uint8_t e;

		if (s == prev || s == own || d[i].tc != CLS_TC_COMPUTE)
			continue;
		prev = s;
		nn = rt_node(r, s);
		bn = topo_find_guid(b->t, t->node_guid[nn]);
		e = bn == TOPO_NONE ? LFT_NONE : lft_get(b->lft, b->t->node_sw[bn], lid);
		if (e && e != LFT_NONE && e < t->port_off[nn + 1] - t->port_off[nn] &&
		    r->peer[topo_port(t, nn, e)] != rt_up_target(r, s, v))
			return false;
	}
	return true;
}

/*
 * @lid's digit in the base, read at up to three reference leaves other than
 * its own (@own): the one two agree on, else the first read; @m if none.
 * One leaf alone may mislead (its entry moved by a refinement of the base).
 */
static uint32_t voted_digit(const struct rt *r, const uint32_t *ref, uint32_t nref, uint32_t own,
			    uint32_t lid, uint32_t m)
{
	uint32_t got[3], n = 0;

	for (uint32_t x = 0; x < nref && n < 3; x++)
		if (ref[x] != own && (got[n] = base_digit(r, ref[x], lid, m)) < m)
			n++;
	if (n == 3 && got[1] == got[2] && got[0] != got[1])
		return got[1];
	return n ? got[0] : m;
}

/*
 * A job change (route_opts.force_lids, with a base): every compute
 * destination's digit the base's, read off the base's LFT at other leaves
 * of the zone (the up-switch their entries lead to, rt_up_target(): a
 * vote of up to three leaves, whole up-groups first);
 * only the destinations of the jobs that changed and idle ones (@idle[lid]:
 * in no job) may then swap, and only those whose base entries are plain
 * (plain()), so every running job keeps its routes and the windows hold
 * as they held in the base.
 * How many digits could not be read (they keep rank mod m), or -ENOMEM.
 */
static int base_digits(const struct rt *r, const struct rt_dest *d, uint32_t lo, uint32_t hi,
		       struct dbt *z, const uint8_t *idle)
{
	uint32_t ref[DBT_REFS], nref = 0, k = 0;
	int miss = 0;

	z->frozen = calloc((size_t)z->n + 1, 1);
	z->dig0 = malloc(((size_t)z->n + 1) * sizeof(*z->dig0));
	if (!z->frozen || !z->dig0 || !idle)
		return -ENOMEM;
	/* reference leaves: whole up-groups first (a hole's digit reads as its substitute's) */
	for (unsigned pass = 0; pass < 2; pass++)
		for (uint32_t i = lo; i < hi && nref < DBT_REFS; i++) {
			uint32_t s = d[i].attach, x = 0;

			while (x < nref && ref[x] != s)
				x++;
			if (d[i].tc == CLS_TC_COMPUTE && x == nref &&
			    (pass || r->upg_nr[s] == r->upg_off[s + 1] - r->upg_off[s]))
				ref[nref++] = s;
		}
	for (uint32_t i = lo; i < hi; i++) {
		uint32_t v;

		if (d[i].tc != CLS_TC_COMPUTE)
			continue;
		v = d[i].ghost ? z->m : voted_digit(r, ref, nref, d[i].attach, d[i].lid, z->m);
		z->frozen[k] = d[i].ghost || !(r->o->force_lids[d[i].lid] || idle[d[i].lid]) ||
			       v >= z->m || !plain(r, d, lo, hi, d[i].lid, v);
		if (v < z->m)
			z->dig[k] = v;
		else
			miss += !d[i].ghost;
		z->dig0[k] = z->dig[k];
		k++;
	}
	return miss;
}

/*
 * What the zone's digits serve: the given jobs with two ranks or more in
 * the zone (*@nj of them, into *@out), else HFReduce over every compute
 * CA of the zone in position order (one job, the ranks themselves).
 */
static int zone_jobs(const struct rt *r, const struct rt_dest *d, uint32_t lo, uint32_t hi,
		     const struct dbt *z, struct rt_job **out, uint32_t *nj)
{
	const struct chk_jobs *J = r->o->jobs;
	const struct topo *t = r->t;
	uint32_t *zr_of = NULL, k = 0, nwant = J ? J->n : 0;
	struct rt_job *jobs = calloc((size_t)nwant + 1, sizeof(*jobs));

	*out = jobs;
	*nj = 0;
	if (!jobs || (nwant && !(zr_of = malloc(((size_t)t->nnodes + 1) * sizeof(*zr_of)))))
		return -ENOMEM;
	for (uint32_t i = 0; nwant && i < t->nnodes; i++)
		zr_of[i] = UINT32_MAX;
	for (uint32_t i = lo; nwant && i < hi; i++)
		if (d[i].tc == CLS_TC_COMPUTE) {
			if (!d[i].ghost)
				zr_of[t->port_node[t->lid_port[d[i].lid]]] = k;
			k++;
		}
	for (uint32_t q = 0; q < nwant; q++) {
		struct rt_job *j = &jobs[*nj];
		uint32_t in = 0;

		j->n = J->off[q + 1] - J->off[q];
		j->coll = J->coll[q];
		if (!(j->zr = malloc(((size_t)j->n + 1) * sizeof(*j->zr)))) {
			free(zr_of);
			return -ENOMEM;
		}
		for (uint32_t i = 0; i < j->n; i++)
			in += (j->zr[i] = zr_of[J->node[J->off[q] + i]]) != UINT32_MAX;
		if (in >= 2 && j->n >= 2)
			(*nj)++;
		else
			free(j->zr), j->zr = NULL;
	}
	free(zr_of);
	if (*nj || !r->o->tree_digits)
		return 0;
	jobs[0].n = z->n;	/* no job here: the zone's own tree */
	jobs[0].coll = CHK_COLL_DBT;
	if (!(jobs[0].zr = malloc(((size_t)z->n + 1) * sizeof(*jobs[0].zr))))
		return -ENOMEM;
	for (uint32_t i = 0; i < z->n; i++)
		jobs[0].zr[i] = i;
	*nj = 1;
	return 0;
}

/* The digits into the ranks of the compute destinations d[lo..hi). */
static void write_digits(const struct rt *r, struct rt_dest *d, uint32_t lo, uint32_t hi,
			 const struct dbt *z)
{
	for (uint32_t i = lo, k = 0; i < hi; i++)
		if (d[i].tc == CLS_TC_COMPUTE) {
			if (z->dig0 && z->dig[k] != z->dig0[k] && !d[i].ghost)	/* it moves */
				r->out->forced[d[i].lid] = r->dig_moved[d[i].lid] = 1;
			d[i].rank = d[i].rank / z->m * z->m + z->dig[k++];
		}
}

/* Search one zone d[lo..hi); write the digits back into the ranks. */
static int dbt_zone(struct rt *r, struct rt_dest *d, uint32_t lo, uint32_t hi)
{
	struct dbt z;
	struct rt_job *jobs = NULL;
	uint32_t *bad = NULL, maxbad = 4096, nj = 0, out = 0;
	uint32_t nslot = (r->o->jobs ? r->o->jobs->n : 0) + 1;	/* zone_jobs' array */
	bool keep = true;	/* the digits searched */
	int rc;

	memset(&z, 0, sizeof(z));
	rc = dbt_job(r, d, lo, hi, &z);
	if (rc == 1 && r->out->forced) {	/* a job change */
		uint8_t *idle = idle_lids(r);
		int miss = base_digits(r, d, lo, hi, &z, idle);

		free(idle);
		rc = miss < 0 ? miss : 1;
		r->dbt_unread += miss > 0 ? (uint32_t)miss : 0;
	}
	if (rc == 1)
		rc = zone_jobs(r, d, lo, hi, &z, &jobs, &nj);
	else if (!rc)
		goto out;
	/* a job change on full leaves: the digits are forced, and the base's
	 * leaf swaps (which the digit model does not see) hold the shifts'
	 * budget; only route_xjob.c's swaps, judged on the tables, may spend
	 * it: the base's digits */
	if (!rc && (!nj || z.inleaf) && z.frozen) {
		write_digits(r, d, lo, hi, &z);
		goto out;
	}
	if (!rc && !nj)
		goto out;	/* no job here and no tree digits: rank mod m */
	if (!rc)
		rc = dbt_setup(&z, jobs, nj, &out);
	r->dbt_jobs_out += out;
	if (!rc && !(bad = malloc(maxbad * sizeof(*bad))))
		rc = -ENOMEM;
	if (!rc) {
		z.rng = 0x44425444u ^ z.n;	/* "DBTD" */
		rc = dbt_search(&z, bad, maxbad);
		while (!rc && z.inleaf && z.ov > DBT_EPS && z.w > z.wmin) {
			z.w--;	/* windows one shorter: the least slack that frees the tree */
			rc = dbt_search(&z, bad, maxbad);
		}
		/* rank mod m loads every shift's links once: the tree may cost them
		 * RT_SHIFT_COST, no more (else rank mod m stays, overload and all) */
		keep = !z.modm_free || shift_mean(&z) <= RT_SHIFT_COST;
		if (!keep && z.frozen) {	/* a job change: back to the base's */
			memcpy(z.dig, z.dig0, (size_t)z.n * sizeof(*z.dig));
			keep = true;
		}
	}
	if (!rc) {
		int16_t zn = rt_zone(r, d[lo].attach);

		if (keep)
			write_digits(r, d, lo, hi, &z);
		r->dbt_zones++;
		r->dbt_left += z.ov > DBT_EPS || !keep;
		if (keep && !r->dbt_done && !(r->dbt_done = calloc(r->c->nzones + 1, 1)))
			rc = -ENOMEM;
		else if (keep && zn >= 0 && (uint32_t)zn < r->c->nzones)
			r->dbt_done[zn] = 1;	/* the digits are the search's */
	}
out:
	for (uint32_t q = 0; jobs && q < nslot; q++)
		rt_job_free(&jobs[q]);
	free(jobs);
	free(bad);
	dbt_free(&z);
	return rc;
}

int rt_dbt_digits(struct rt *r, struct rt_dest *d, uint32_t nd)
{
	int rc = 0;

	for (uint32_t lo = 0, hi; lo < nd && !rc; lo = hi) {
		int16_t zone = rt_zone(r, d[lo].attach);

		for (hi = lo + 1; hi < nd && rt_zone(r, d[hi].attach) == zone; hi++)
			;
		if (zone >= 0)
			rc = dbt_zone(r, d, lo, hi);
	}
	return rc;
}
