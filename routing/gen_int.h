/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * gen_int.h - what the family generators share (internal).
 *
 * A family declares switches and CAs with gen_switch()/gen_ca() and cables
 * with gen_cable(); node ids are dense ints in declaration order.  GUIDs
 * are allocated from disjoint ranges (gen_guid_plan below), so fabrics of
 * different families or zones never collide:
 *   switch  0x0002c90300000000 | family << 40 | zone << 32 | seq << 4
 *   CA      0x0c42a10300000000 | family << 40 | zone << 32 | seq << 4
 *   SHARP AN = its switch GUID | 0x8 (port GUID | 0x9)
 * The system image GUID of a director ASIC is its chassis GUID; of a
 * discrete switch or a host, its own (first) GUID.  CA port GUID = node
 * GUID + port.  Every cable is 4x HDR unless the family says otherwise.
 */
#ifndef FFROUTE_GEN_INT_H
#define FFROUTE_GEN_INT_H

#include <ffroute/gen.h>

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

#endif
