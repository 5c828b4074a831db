/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gen.h - generator of reference fabrics (frames, Fire-Flyer 2, multi-frame,
 * rail-optimized/rail-only, generic fat trees) and of degraded variants.
 *
 * A family function describes nodes and cables into a struct gen; then
 * gen_finish() applies the degradation options (seeded), adds SHARP ANs and
 * builds the struct topo.  Same options and seed -> same fabric, byte for
 * byte once written.
 *
 * Naming (what the checker later infers roles, zones and rails from):
 *   compute HCA  "cnNNNN mlx5_0"          storage HCA "stNNN mlx5_Z" (Z = zone)
 *   management   "mgNNN mlx5_0"           GPU host HCA "gpuNNN mlx5_K" (K = rail)
 *   director ASIC "MF0;<chassis>:MCS8500/L<nn>/U<n>" (leaf), ".../S<nn>/U1" (spine)
 *   discrete     "MF0;<name>:MQM8700/U1"
 *
 * RETURN VALUE: int functions return 0 or -errno; constructors return NULL
 * with errno set.
 */
#ifndef FFROUTE_GEN_H
#define FFROUTE_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include <ffroute/diag.h>
#include <ffroute/topo.h>

enum gen_family {
	GEN_FRAME,		/* one 2-level Clos ("800-port frame") */
	GEN_FF2,		/* Fire-Flyer 2: two frames + dual-homed storage */
	GEN_MULTIFRAME,		/* M frames joined by a few links, no third tier */
	GEN_RAIL,		/* 8-rail GPU hosts */
	GEN_FATTREE,		/* generic k-ary 2/3-level fat tree */
	GEN_HETERO,		/* a frame with low-speed subtrees */
	GEN_FAMILY_COUNT
};

enum gen_style {
	GEN_STYLE_DEFAULT = 0,
	GEN_STYLE_DIRECTOR,	/* frame/ff2/multiframe: CS8500 ASICs, shared sysimgguid */
	GEN_STYLE_DISCRETE,	/* frame/ff2/multiframe: 1U switches */
	GEN_STYLE_BRIDGE,	/* ff2: zones joined through 2 bridge switches */
	GEN_STYLE_LEAF2LEAF,	/* ff2: zones joined leaf to leaf */
	GEN_STYLE_RAIL2,	/* rail: rail-optimized 2-level (shared spines) */
	GEN_STYLE_RAIL3,	/* rail: rail-optimized 3-level (SuperPOD-like) */
	GEN_STYLE_RAILONLY,	/* rail: no spines, each rail its own subnet */
	GEN_STYLE_MIXED,	/* hetero: subtrees below leaves and below spines, alternating */
	GEN_STYLE_BELOW_LEAF,	/* hetero: every subtree below leaves */
	GEN_STYLE_BELOW_SPINE,	/* hetero: every subtree below spines */
	GEN_STYLE_COUNT
};

struct gen_opts {
	enum gen_family family;
	enum gen_style style;	/* DEFAULT = the family's first style */
	bool full;		/* the full-size preset instead of small */
	/*
	 * Shape; 0 = the preset's value.  Not every family uses every field
	 * (see ffroute(1), FABRIC).
	 */
	unsigned radix;		/* switch ports */
	unsigned spines, leaves;	/* per frame */
	unsigned levels;	/* fattree: 2 or 3 */
	unsigned frames;	/* multiframe */
	unsigned compute;	/* compute hosts per zone / frame */
	unsigned storage;	/* ff2: dual-homed storage servers */
	unsigned mgmt;		/* management hosts per zone */
	unsigned hosts;		/* rail: GPU hosts; fattree: endpoints */
	unsigned rails;		/* rail: HCAs per host (8) */
	unsigned inter_links;	/* ff2/multiframe: links between zones / per frame pair */
	unsigned oversub;	/* frame: leaf down:up ratio numerator (1 = 1:1) */
	unsigned rail;		/* rail-only: which rail's subnet to build (0-based) */
	unsigned subtrees;	/* hetero: low-speed subtrees */
	unsigned sub_hosts;	/* hetero: hosts per subtree */
	unsigned sub_uplinks;	/* hetero: up-links per subtree, to distinct switches */
	uint8_t sub_width, sub_speed;	/* hetero: the subtrees' links (0: 4x EDR) */
	/* degradation, applied in this order, all seeded */
	double drop_links;	/* fraction of switch-switch links removed */
	unsigned drop_switches;	/* whole switches removed (uniformly among all switches) */
	unsigned miscable;	/* pairs of switch-switch cables whose ends are swapped */
	unsigned trained_down;	/* full-rate switch-switch links trained down: 4x -> 1x
				 * and HDR -> EDR, alternately */
	unsigned slow_hcas;	/* full-rate host links run at 4x EDR (a slow HCA) */
	bool sharp;		/* a SHARP AN CA on the last port of every switch */
	uint64_t seed;
};

/** gen_opts_init - defaults: small preset, no degradation, seed 1 */
void gen_opts_init(struct gen_opts *o, enum gen_family family);

/**
 * gen_fabric - generate a fabric
 * Return: the fabric, or NULL with errno set (EINVAL: options impossible,
 * e.g. more hosts than ports; the reason is in @dl).
 */
struct topo *gen_fabric(const struct gen_opts *o, struct diag_list *dl);

/** gen_family_name / gen_family_parse - "frame", "ff2", ... (-1 if unknown) */
const char *gen_family_name(enum gen_family f);
int gen_family_parse(const char *s);
/** gen_style_name / gen_style_parse - "director", "bridge", "rail-only", ... */
const char *gen_style_name(enum gen_style s);
int gen_style_parse(const char *s);

#endif
