/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * class.h - what every node and port of a fabric is: the one
 * classification that the engine routes by and the checker judges with.
 *
 * Per node: role (compute, storage, mgmt, SHARP, other), level (switches:
 * 1 = leaf, 2 = spine, ...), zone (frame; -1 = none, e.g. a bridge), rail
 * (-1 = none), host (CAs of one server), the switch a CA is cabled to.
 * Per port: direction (host, up, down, same level, inter-zone) and port
 * group (parallel links to one peer switch).  Plus a verdict: reasons why
 * the engine cannot route the fabric, if any.
 *
 * The graph is the truth; NodeDescriptions are hints (see ffroute(1),
 * CLASSIFICATION, for every rule).  An override file fixes what inference
 * cannot know.  Cost: O(nodes log nodes + ports x radix).
 *
 * RETURN VALUE: int functions return 0 or -errno.
 */
#ifndef FFROUTE_CLASS_H
#define FFROUTE_CLASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ffroute/diag.h>
#include <ffroute/topo.h>

enum cls_role {
	CLS_ROLE_SWITCH = 0,
	CLS_ROLE_COMPUTE,	/* hosts that are not storage, mgmt or SHARP */
	CLS_ROLE_STORAGE,	/* "stNNN", "*stor*", dual-homed across zones */
	CLS_ROLE_MGMT,		/* "mgNNN", "*mgmt*", "*login*", "*admin*" */
	CLS_ROLE_SHARP,		/* SHARP aggregation node: never a traffic endpoint */
	CLS_ROLE_OTHER,
	CLS_ROLE_COUNT
};

/* Traffic classes for balance: compute, storage, other. */
enum cls_tclass { CLS_TC_COMPUTE = 0, CLS_TC_STORAGE, CLS_TC_OTHER, CLS_TC_COUNT };

/* Direction of a port, seen from its node. */
enum cls_dir {
	CLS_DIR_NONE = 0,	/* not cabled, or port 0 */
	CLS_DIR_HOST,		/* switch port to a CA/router, or a CA's own port */
	CLS_DIR_UP,		/* to a switch one level up, same zone */
	CLS_DIR_DOWN,		/* to a switch one level down, same zone */
	CLS_DIR_SAME,		/* to a switch of the same level and zone */
	CLS_DIR_XZONE,		/* to a switch of another zone, or zone-less <-> zoned */
	CLS_DIR_COUNT
};

#define CLS_MAX_REASONS 8

struct cls {
	uint8_t *role;		/* [nnodes] enum cls_role */
	int16_t *zone;		/* [nnodes] zone (frame) id, -1 = none (bridge, unknown) */
	int16_t *rail;		/* [nnodes] CA: rail; leaf: the rail it serves; -1 none */
	uint8_t *level;		/* [nnodes] switch: 1 leaf, 2 spine, 3+ higher; 0 unknown */
	uint32_t *ca_sw;	/* [nnodes] CA: switch node its first cabled port reaches */
	uint32_t *host;		/* [nnodes] CA: host id (0..nhosts-1); TOPO_NONE otherwise */
	uint8_t *interzone;	/* [nports] 1 if the port's link joins different zones */
	uint8_t *dir;		/* [nports] enum cls_dir */
	uint32_t *group;	/* [nports] switch port: lowest port index with the same peer */
	uint32_t *pos;		/* [nnodes] switch: its place in the position order
				 * (pods' switches together, class_pos.c); TOPO_NONE for CAs */
	uint32_t *part;		/* [nnodes * npartlv] node n's part at level nlevels - 1 - i
				 * is part[n * npartlv + i]: the connected part of switches
				 * of levels 1..that level holding n (a pod), named by its
				 * lowest node index; UINT32_MAX above that level or for CAs */
	unsigned npartlv;	/* nlevels - 2 on three levels or more, else 0 */
	uint32_t nzones, nrails, nhosts;
	uint8_t nlevels;	/* highest switch level */
	unsigned nreasons;	/* > 0: the engine refuses the fabric */
	char reason[CLS_MAX_REASONS][160];
	char zone_why[160];	/* how zones were found (or why there are none) */
	char rail_why[160];	/* how rails were found, or why there are none */
	bool not_tree;		/* most switch ports join switches of one level, in
				 * cycles (a torus, a dragonfly): route_run declines
				 * unless asked (route_opts.non_tree) */
	char shape_why[160];	/* why the fabric is, or is not, a tree */
	/* rates (class_rate.c), in Gb/s x 10 (4x HDR = 2000); 0 = unknown */
	uint32_t *rate;		/* [nports] the link's rate (the lower end's) */
	uint32_t *cap;		/* [nnodes] the best rate among the node's links */
	uint8_t *slow;		/* [nnodes] cap below full_rate: a slow CA or switch */
	uint8_t *trained;	/* [nports] the link runs below both ends' cap */
	uint32_t *subtree;	/* [nnodes] low-speed subtree of a slow switch or of a
				 * CA's switch, TOPO_NONE for the fast tree */
	uint8_t *below;		/* [nnodes] in a subtree that hangs below the fast tree:
				 * its links to fast switches go up */
	uint32_t full_rate;	/* the rate most switch-to-switch links run at */
	uint32_t nsubtrees, ntrained;	/* trained: links (counted once) */
	bool rates_mixed;	/* links of more than one known rate */
};

/* Override of inferred attributes; -1 = keep the inferred value. */
struct cls_override {
	uint64_t guid;		/* node or port GUID; 0 when @re is used */
	char *re;		/* extended regex on the NodeDescription, or NULL */
	int8_t role;		/* enum cls_role or -1 */
	int16_t zone, rail, level;
	unsigned line;		/* where it was given */
	int32_t re_idx;		/* ordinal among the regex overrides, -1 for a GUID */
};

struct cls_re_cache;
struct cls_overrides {
	struct cls_override *v;
	uint32_t n;
	const char *fname;
	struct cls_re_cache *cache;	/* compiled regexes, matches per description */
};

/**
 * cls_overrides_read - read an override file: one
 * "GUID|/REGEX/ ROLE [zone=Z] [rail=R] [level=L]" per line (ROLE is
 * compute|storage|mgmt|sharp|other|-), '#' comments.  Errors go to @dl as
 * file:line:col.  Free with cls_overrides_free.
 */
int cls_overrides_read(const char *buf, size_t len, const char *fname,
		       struct cls_overrides *ov, struct diag_list *dl);
void cls_overrides_free(struct cls_overrides *ov);
/*
 * cls_overrides_compile - compile @ov's regexes once (cls_overrides_read
 * does it); cls_overrides_uncompile - free them (cls_overrides_free does).
 * cls_overrides_match - bit k set when regex override k (re_idx) matches
 * @desc; each regex runs once per distinct description.  NULL: no memory.
 * The bit sets stay valid until the next cls_overrides_reserve, which
 * empties the cache when @n more descriptions could overflow its bound:
 * call it before matching the @n nodes of one fabric.
 */
void cls_overrides_reserve(const struct cls_overrides *ov, uint32_t n);
int cls_overrides_compile(struct cls_overrides *ov);
void cls_overrides_uncompile(struct cls_overrides *ov);
const uint8_t *cls_overrides_match(const struct cls_overrides *ov, const char *desc);
/**
 * cls_overrides_check - warn (file:line) about overrides that change
 * nothing in @t: unknown GUIDs, regexes matching no node, roles given to
 * switches.  Return: 0.
 */
int cls_overrides_check(const struct topo *t, const struct cls_overrides *ov, const char *fname,
			struct diag_list *dl);

/**
 * cls_classify - classify every node and port of @t (@ov may be NULL)
 * Return: 0 (check c->nreasons for a refusal), -ENOMEM.
 */
int cls_classify(const struct topo *t, const struct cls_overrides *ov, struct cls *c);
/** cls_free - release (a zeroed struct is fine) */
void cls_free(struct cls *c);
/** cls_tclass_of - traffic class of a role */
enum cls_tclass cls_tclass_of(enum cls_role r);
const char *cls_role_name(enum cls_role r);
const char *cls_dir_name(enum cls_dir d);
/** cls_link_rate - rate of the link on port @p, Gb/s x 10, the lower end's; 0 unknown */
uint32_t cls_link_rate(const struct topo *t, uint32_t p);
/** cls_is_endpoint - a CA port that carries traffic (not a SHARP AN) */
bool cls_is_endpoint(const struct topo *t, const struct cls *c, uint32_t node);

#endif
