/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gen_int.h - what the family generators share (internal).
 *
 * A family declares switches and CAs with gen_switch()/gen_ca() and cables
 * with gen_cable(); node ids are dense ints in declaration order.  GUIDs
 * are allocated from disjoint ranges, so fabrics of different families or
 * zones never collide.  In hex digits, OOOOOO ZZ F SSSSSS P:
 *   switch  0x0002c9 << 40 | zone << 32 | family << 28 | seq << 4
 *   CA      0x0c42a1 << 40 | zone << 32 | family << 28 | seq << 4
 *   chassis (director system image GUID): the switch form, zone 0xff,
 *           seq = chassis index + 1
 *   SHARP AN = its switch GUID | 0x8 (port GUID | 0x9)
 * (OUI in the top 24 bits, zone 0..254 in bits 32..39, family 0..15,
 * seq 1..2^24-1.  The first plan, 0x0002c903... | family << 40 |
 * zone << 32, OR-ed family and zone into the OUI bytes 0xc9 and 0x03, so
 * zones 0..3 and families 0/1 collided; the zone field kept its place.)
 * The system image GUID of a director ASIC is its chassis GUID; of a
 * discrete switch or a host, its own (first) GUID.  CA port GUID = node
 * GUID + port.  Every cable is 4x HDR unless the family says otherwise.
 */
#ifndef FFROUTE_GEN_INT_H
#define FFROUTE_GEN_INT_H

#include <ffroute/gen.h>

#define GEN_SWITCH_OUI 0x0002c9ULL
#define GEN_CA_OUI 0x0c42a1ULL
#define GEN_ZONE_SHIFT 32
#define GEN_FAMILY_SHIFT 28
#define GEN_CHASSIS_ZONE 0xffu
#define GEN_SEQ_MAX (1u << 24)
/* gen_guid_zone - the zone field of a generated switch/CA GUID */
#define gen_guid_zone(guid) ((unsigned)((guid) >> GEN_ZONE_SHIFT) & 0xffu)

struct gen_node {
	uint8_t type;
	uint8_t nports;
	uint8_t zone;
	uint8_t removed;	/* by degradation */
	uint64_t guid, sysguid;
	uint32_t desc;		/* offset into gen.strs */
};

struct gen_cable {
	uint32_t a, b;		/* node ids */
	uint8_t pa, pb;
	uint8_t width, speed;
	uint8_t removed;
};

struct gen {
	const struct gen_opts *o;
	struct diag_list *dl;
	struct gen_node *nodes;
	uint32_t nnodes, capnodes;
	struct gen_cable *cables;
	uint32_t ncables, capcables;
	char *strs;
	uint32_t nstrs, capstrs;
	uint32_t seq[2][256];	/* GUID sequence per (switch/CA, zone) */
	uint64_t rng;
	bool failed;
};

/** gen_switch - declare a switch; @sysguid 0 = its own GUID. Returns node id or -1 */
int gen_switch(struct gen *g, unsigned zone, unsigned nports, uint64_t sysguid,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/** gen_ca - declare a CA (host HCA); @sysguid 0 = its own GUID. Returns node id or -1 */
int gen_ca(struct gen *g, unsigned zone, unsigned nports, uint64_t sysguid,
	   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/** gen_cable - cable (a, pa) to (b, pb), 4x HDR; -1 (and an error) if a port is taken */
int gen_cable(struct gen *g, int a, unsigned pa, int b, unsigned pb);
/** gen_chassis_guid - a chassis (system image) GUID for director @idx */
uint64_t gen_chassis_guid(const struct gen *g, unsigned idx);
/** gen_fail - record why the options cannot be satisfied; returns -EINVAL */
int gen_fail(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** gen_rand - next value of the generator's seeded PRNG (splitmix64) */
uint64_t gen_rand(struct gen *g);
/** gen_pick - uniform integer in [0, n) */
uint32_t gen_pick(struct gen *g, uint32_t n);

/* Families: describe nodes and cables into @g; return 0 or -EINVAL. */
int gen_frame(struct gen *g);
int gen_ff2(struct gen *g);
int gen_multiframe(struct gen *g);
int gen_rail(struct gen *g);
int gen_fattree(struct gen *g);
int gen_hetero(struct gen *g);

/*
 * gen_clos - one 2-level Clos ("frame") in zone @zone: @spines spines and
 * @leaves leaves of @radix ports, leaf ports 1..down to hosts, the next
 * ports to the spines (round robin, so a 20x40 frame gives one link from
 * every leaf to every spine).  Fills leaf[]/spine[] with node ids.  Shared
 * by frame, ff2 and multiframe.
 */
struct gen_clos {
	unsigned zone, radix, spines, leaves, down;
	bool director;
	const char *name;	/* chassis or name prefix */
	int *leaf, *spine;	/* out: node ids, caller-allocated */
};
int gen_clos(struct gen *g, struct gen_clos *c);

/*
 * Helpers of the frame-based families (gen_clos.c), added for frame, ff2
 * and multiframe; other families need not use them.
 *
 * gen_clos_shape - fill @c's radix/down/spines/leaves from the options and
 * the size preset (radix 40 full, 8 small; down = radix x oversub /
 * (oversub + 1); leaves = radix and spines = radix - down unless given, so
 * every spine port is used) and check that the spines can take every
 * leaf up-link.  Sets zone, director and name as given.  0 or -EINVAL.
 */
int gen_clos_shape(struct gen *g, struct gen_clos *c, unsigned zone, bool director,
		   const char *name);
/*
 * gen_clos_slot - the leaf down-port of host slot @i: slot i goes to leaf
 * i % leaves, port i / leaves + 1, so every run of consecutive slots is
 * spread evenly (per-leaf counts differ by at most one).  Returns the leaf
 * node id and sets *port, or -1 when i >= leaves x down.
 */
int gen_clos_slot(const struct gen_clos *c, unsigned i, unsigned *port);
/*
 * gen_clos_hosts - @n one-port CAs "<prefix><num> mlx5_0" (num = @first,
 * @first + 1, ..., zero-padded to @width digits) on slots *slot.. of @c;
 * advances *slot.  0 or -EINVAL.
 */
int gen_clos_hosts(struct gen *g, const struct gen_clos *c, unsigned *slot, unsigned n,
		   const char *prefix, unsigned width, unsigned first);

/*
 * Helpers of the tree families (defined in gen_fattree.c, used by the
 * fattree and rail families).
 *
 * gen_wire - cable each lower switch lo[i] (i < nlo) to every upper switch
 * hi[j] (j < nhi) with @per parallel links: up-link x (x < nhi x per) of
 * lo[i] is port port0 + x and goes to hi[x % nhi], on that switch's next
 * free port next[j] (advanced).  0 or -EINVAL.
 *
 * gen_split - the smallest s dividing @links such that @n lower switches
 * with @links up-links each fit on s upper switches of @cap ports
 * (n x links / s <= cap); 0 when none does.
 */
int gen_wire(struct gen *g, const int *lo, unsigned nlo, unsigned port0, const int *hi,
	     unsigned nhi, unsigned per, unsigned *next);
unsigned gen_split(unsigned links, unsigned n, unsigned cap);

#endif
