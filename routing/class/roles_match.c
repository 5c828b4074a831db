// SPDX-License-Identifier: BSD-2-Clause
/*
 * roles_match.c - which regex overrides of a roles file match a
 * NodeDescription, evaluated once per distinct description per load.
 *
 * Inside OpenSM a roles file is read once and the subnet classified at
 * every heavy sweep, under OpenSM's exclusive lock: compiling and running
 * every regex on every node each time cost 1.1 s per sweep for 2,000
 * lines on 1,690 nodes.  The regexes are compiled when the file is read;
 * the set of regexes a description matches is a bit set kept in a hash
 * table keyed by the description, so a sweep over an unchanged fabric runs
 * no regex at all and a new node costs one pass over the regexes.
 * Back-references are refused when the file is read (roles.c): they are
 * the one construct whose matching time explodes.  Not thread-safe: one
 * classification at a time per set of overrides (the plugin holds the
 * lock; the CLI classifies once).
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/class.h>

#define CACHE_MAX_ENTRIES (1u << 18)	/* then start again (reserve): bounded memory */

struct cls_re_cache {
	uint32_t nre;		/* regex overrides */
	regex_t *re;		/* [nre], compiled once */
	size_t bytes;		/* bytes per bit set: (nre + 7) / 8 */
	uint32_t cap, n;	/* hash slots (a power of two), entries */
	char **key;		/* [cap] description, NULL = empty slot */
	uint8_t **bits;		/* [cap] bit k: regex override k matches */
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static void cache_clear(struct cls_re_cache *c)
{
	for (uint32_t i = 0; i < c->cap; i++) {
		free(c->key[i]);
		free(c->bits[i]);
	}
	free(c->key);
	free(c->bits);
	c->key = NULL;
	c->bits = NULL;
	c->cap = c->n = 0;
}

static int cache_grow(struct cls_re_cache *c)
{
	uint32_t cap = c->cap ? c->cap * 2 : 1024;
	char **key = calloc(cap, sizeof(*key));
	uint8_t **bits = calloc(cap, sizeof(*bits));

	if (!key || !bits) {
		free(key);
		free(bits);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < c->cap; i++) {
		uint32_t j;

		if (!c->key[i])
			continue;
		for (j = (uint32_t)str_hash(c->key[i]) & (cap - 1); key[j]; j = (j + 1) & (cap - 1))
			;
		key[j] = c->key[i];
		bits[j] = c->bits[i];
	}
	free(c->key);
	free(c->bits);
	c->key = key;
	c->bits = bits;
	c->cap = cap;
	return 0;
}

int cls_overrides_compile(struct cls_overrides *ov)
{
	struct cls_re_cache *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	for (uint32_t i = 0; i < ov->n; i++)
		ov->v[i].re_idx = ov->v[i].re ? (int32_t)c->nre++ : -1;
	c->re = calloc(c->nre ? c->nre : 1, sizeof(*c->re));
	if (!c->re) {
		free(c);
		return -ENOMEM;
	}
	for (uint32_t i = 0, k = 0; i < ov->n; i++)
		if (ov->v[i].re && regcomp(&c->re[k++], ov->v[i].re, REG_EXTENDED | REG_NOSUB)) {
			c->nre = k - 1;	/* checked when read: only ENOMEM gets here */
			ov->cache = c;
			return -ENOMEM;
		}
	c->bytes = (c->nre + 7) / 8;
	ov->cache = c;
	return 0;
}

void cls_overrides_uncompile(struct cls_overrides *ov)
{
	struct cls_re_cache *c = ov->cache;

	if (!c)
		return;
	cache_clear(c);
	for (uint32_t k = 0; k < c->nre; k++)
		regfree(&c->re[k]);
	free(c->re);
	free(c);
	ov->cache = NULL;
}

void cls_overrides_reserve(const struct cls_overrides *ov, uint32_t n)
{
	struct cls_re_cache *c = ov ? ov->cache : NULL;

	if (c && c->n + (uint64_t)n > CACHE_MAX_ENTRIES)
		cache_clear(c);	/* before the caller holds any bit set */
}

const uint8_t *cls_overrides_match(const struct cls_overrides *ov, const char *desc)
{
	static const uint8_t none[1];
	struct cls_re_cache *c = ov ? ov->cache : NULL;
	uint32_t j;

	if (!c || !c->nre)
		return none;
	if (2 * (c->n + 1) > c->cap && cache_grow(c))
		return NULL;
	for (j = (uint32_t)str_hash(desc) & (c->cap - 1); c->key[j]; j = (j + 1) & (c->cap - 1))
		if (!strcmp(c->key[j], desc))
			return c->bits[j];
	c->key[j] = strdup(desc);
	c->bits[j] = calloc(c->bytes, 1);
	if (!c->key[j] || !c->bits[j]) {
		free(c->key[j]);
		free(c->bits[j]);
		c->key[j] = NULL;
		c->bits[j] = NULL;
		return NULL;
	}
	c->n++;
	for (uint32_t k = 0; k < c->nre; k++)
		if (!regexec(&c->re[k], desc, 0, NULL, 0))
			c->bits[j][k / 8] |= (uint8_t)(1u << (k % 8));
	return c->bits[j];
}
