// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_reader.c - libFuzzer target for one reader, chosen at build time
 * with -DFUZZ_FORMAT=<enum ffr_format>.  LFT readers bind to a fixed small
 * fabric (two switches, four CAs) so that their binding checks run too.
 * Every input must return a fabric or a diagnosed error; ASan/UBSan catch
 * the rest.  Build: ./configure CC=clang --enable-fuzz; run e.g.
 * tests/fuzz/fuzz_ibnd -max_total_time=60 tests/fuzz/corpus/ibnd
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <ffroute/io.h>

#ifndef FUZZ_FORMAT
#error "define FUZZ_FORMAT"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct topo *fixed_fabric(void)
{
	struct diag_list dl;
	struct topo_builder *b;
	struct topo_port_info pi = { 0 };
	struct topo_node_info sw = { .type = TOPO_NODE_SWITCH, .nports = 8, .desc = "sw" };
	struct topo_node_info ca = { .type = TOPO_NODE_CA, .nports = 1, .desc = "ca" };
	struct topo *t;
	int s[2], h;

	diag_init(&dl, 0);
	b = topo_builder_new(&dl);
	for (int i = 0; i < 2; i++) {
		sw.guid = 0x200000 + (uint64_t)i;
		s[i] = topo_builder_add_node(b, &sw, NULL);
		pi.lid = (uint16_t)(1 + i);
		topo_builder_set_port(b, s[i], 0, &pi, NULL);
	}
	for (int i = 0; i < 4; i++) {
		struct topo_ref r = { NULL, 0x200000 + (uint64_t)(i / 2) };

		ca.guid = 0x100000 + 2 * (uint64_t)i;
		h = topo_builder_add_node(b, &ca, NULL);
		pi.lid = (uint16_t)(3 + i);
		pi.guid = ca.guid + 1;
		topo_builder_set_port(b, h, 1, &pi, NULL);
		topo_builder_add_link(b, h, 1, &r, 1 + (unsigned)(i % 2), 4, TOPO_SPEED_HDR, NULL);
	}
	t = topo_builder_finish(b);
	diag_free(&dl);
	return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct topo *fabric;
	struct diag_list dl;

	diag_init(&dl, 0);
	if (ffr_format_is_lft(FUZZ_FORMAT)) {
		struct lft *l;

		if (!fabric)
			fabric = fixed_fabric();
		assert(fabric);
		l = lft_read_buf((const char *)data, size, "fuzz", FUZZ_FORMAT, fabric, &dl);
		assert(l || dl.nerrors);
		lft_free(l);
	} else {
		struct topo *t = topo_read_buf((const char *)data, size, "fuzz", FUZZ_FORMAT, &dl);

		assert(t || dl.nerrors);
		topo_free(t);
	}
	diag_free(&dl);
	return 0;
}
