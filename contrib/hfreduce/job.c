// SPDX-License-Identifier: BSD-2-Clause
/*
 * job.c - which CA ports run the allreduce, in rank order, and which
 * storage HCA each reads from when storage incast is modelled.  Ranks are
 * endpoints as the checker defines them (chk_endpoints: a CA port with a
 * LID, cabled to a switch); the default job is the compute HCAs of the
 * first zone, in the checker's compute order, so `ffroute check`'s
 * dbt_zone0 metrics and this tool describe the same job.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"

int job_parse(const char *arg, struct job_spec *j)
{
	char *end;

	memset(j, 0, sizeof(*j));
	if (!strncmp(arg, "zone:", 5)) {
		long z = strtol(arg + 5, &end, 10);

		if (!arg[5] || *end || z < 0 || z > 32767)
			return -EINVAL;
		j->kind = JOB_ZONE;
		j->zone = (int)z;
		return 0;
	}
	if (!strncmp(arg, "hosts:", 6) && arg[6]) {
		j->kind = JOB_HOSTS;
		j->hosts = arg + 6;
		return 0;
	}
	if (!strncmp(arg, "random:", 7)) {
		unsigned long long k = strtoull(arg + 7, &end, 10), seed = 1;

		if (end == arg + 7 || k < 2 || k > 1u << 20 || arg[7] == '-')
			return -EINVAL;
		if (*end == ':') {
			const char *sp = end + 1;

			seed = strtoull(sp, &end, 0);
			if (end == sp || *sp == '-')
				return -EINVAL;
		}
		if (*end)
			return -EINVAL;
		j->kind = JOB_RANDOM;
		j->count = (uint32_t)k;
		j->seed = seed;
		return 0;
	}
	return -EINVAL;
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The job file's CAs (read by check_run, as `ffroute check --job`), each
 * at its first endpoint port. */
static int hosts_job(struct pm *m, const struct cls *c, const uint32_t *nodes, uint32_t n)
{
	m->rk = malloc(((size_t)n + 1) * sizeof(*m->rk));
	if (!m->rk)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		if (nodes[i] < m->t->nnodes && !topo_is_switch(m->t, nodes[i]))
			m->nrk += chk_node_ep(m->t, c, nodes[i], &m->rk[m->nrk]);
	return 0;
}

/* Keep the endpoints of @all in zone @zone, in order. */
static int filter_zone(struct pm *m, const struct chk_ep *all, uint32_t n, int zone)
{
	m->rk = malloc(((size_t)n + 1) * sizeof(*m->rk));
	if (!m->rk)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		if (all[i].zone == zone)
			m->rk[m->nrk++] = all[i];
	return 0;
}

static int random_job(struct pm *m, struct chk_ep *all, uint32_t n, uint32_t k, uint64_t seed)
{
	if (k > n)
		k = n;
	m->rk = malloc(((size_t)k + 1) * sizeof(*m->rk));
	if (!m->rk)
		return -ENOMEM;
	for (uint32_t i = 0; i < k; i++) {	/* partial Fisher-Yates */
		uint32_t j = i + (uint32_t)(splitmix(&seed) % (n - i));
		struct chk_ep e = all[i];

		all[i] = all[j];
		all[j] = e;
		m->rk[m->nrk++] = all[i];
	}
	return 0;
}

/* Rank i reads from the (i mod n)-th storage endpoint of its zone (any zone
 * if its own has none). */
static int readers(struct pm *m, const struct cls *c)
{
	int rc = chk_endpoints(m->t, c, CLS_ROLE_STORAGE, &m->stor, &m->nstor);

	if (rc)
		return rc;
	m->reader = malloc(((size_t)m->nrk + 1) * sizeof(*m->reader));
	if (!m->reader)
		return -ENOMEM;
	for (uint32_t i = 0; i < m->nrk; i++) {
		uint32_t same = 0, pick = TOPO_NONE;

		for (uint32_t s = 0; s < m->nstor; s++)
			same += m->stor[s].zone == m->rk[i].zone;
		for (uint32_t s = 0, k = 0; s < m->nstor && pick == TOPO_NONE; s++)
			if (!same || m->stor[s].zone == m->rk[i].zone)
				if (k++ == i % (same ? same : m->nstor))
					pick = s;
		m->reader[i] = pick;
	}
	return 0;
}

int job_select(struct pm *m, const struct cls *c, const struct job_spec *j, char *what,
	       size_t wlen)
{
	struct chk_ep *all = NULL;
	uint32_t n = 0;
	int rc = chk_endpoints(m->t, c, CLS_ROLE_COMPUTE, &all, &n);

	if (rc)
		return rc;
	switch (j->kind) {
	case JOB_DEFAULT:
		rc = filter_zone(m, all, n, n ? all[0].zone : 0);
		snprintf(what, wlen, "the compute HCAs of zone %d (the first zone)", n ? all[0].zone : 0);
		break;
	case JOB_ZONE:
		rc = filter_zone(m, all, n, j->zone);
		snprintf(what, wlen, "the compute HCAs of zone %d", j->zone);
		break;
	case JOB_HOSTS:
		rc = hosts_job(m, c, j->nodes, j->nnodes);
		snprintf(what, wlen, "the hosts of %s", j->hosts);
		break;
	case JOB_RANDOM:
		rc = random_job(m, all, n, j->count, j->seed);
		snprintf(what, wlen, "%u compute HCAs drawn at random (seed %llu)", m->nrk,
			 (unsigned long long)j->seed);
		break;
	}
	free(all);
	if (!rc)
		rc = readers(m, c);
	return rc ? rc : pm_prepare(m);
}
