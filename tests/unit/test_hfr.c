// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_hfr.c - the HFReduce harness's algorithm: the two trees, the
 * step schedules (every chunk over every edge once, in dependency order),
 * the SIMD reduction against a scalar reference, and the real allreduce
 * over the local transport for 2..64 ranks, odd counts, sizes that the
 * chunk does not divide, float32 and bfloat16.
 */
#include "unit.h"

#include "../../contrib/hfreduce/hfr.h"

static void test_trees(void **state)
{
	(void)state;
	for (uint32_t n = 2; n <= 300; n++) {
		struct hfr_tree t[2];
		uint32_t lg = 0, inner_both = 0;

		while ((1u << lg) < n)
			lg++;
		for (int k = 0; k < 2; k++) {
			uint32_t seen = 0;

			assert_int_equal(hfr_tree_build(&t[k], n, k), 0);
			assert_true(t[k].root >= 0);
			/* every rank is in the tree: reaches the root, depth <= ceil(log2 n) */
			for (uint32_t r = 0; r < n; r++) {
				seen += t[k].parent[r] < 0;
				assert_true(t[k].depth[r] <= lg);
				assert_true(t[k].nchild[r] <= 2);
			}
			assert_int_equal(seen, 1);
		}
		/* complementary: a rank inner (with children) in one tree is a leaf in
		 * the other; odd n (shifted tree): all but rank 0, inner in both */
		for (uint32_t r = 0; r < n; r++)
			inner_both += t[0].nchild[r] && t[1].nchild[r];
		assert_int_equal(inner_both, n % 2 ? 1 : 0);
		if (n % 2)
			assert_true(t[0].nchild[0] && t[1].nchild[0]);
		hfr_tree_free(&t[0]);
		hfr_tree_free(&t[1]);
	}
}

/* Every (tree, chunk, edge, direction) once; up after the children's up,
 * down after the parent's down; nothing after the last step. */
static void check_dbt(uint32_t n, uint64_t nel, uint64_t chunk)
{
	struct hfr_sched s;
	struct hfr_tree t[2];
	struct hfr_half h[2];
	uint32_t *up_at[2], *down_at[2];

	assert_int_equal(hfr_sched_dbt(&s, n, nel, 4, chunk), 0);
	hfr_halves(nel, chunk, h);
	for (int k = 0; k < 2; k++) {
		assert_int_equal(hfr_tree_build(&t[k], n, k), 0);
		up_at[k] = malloc(sizeof(uint32_t) * n * (h[k].nchunks + 1));
		down_at[k] = malloc(sizeof(uint32_t) * n * (h[k].nchunks + 1));
		memset(up_at[k], 0xff, sizeof(uint32_t) * n * (h[k].nchunks + 1));
		memset(down_at[k], 0xff, sizeof(uint32_t) * n * (h[k].nchunks + 1));
	}
	for (uint32_t st = 0; st < s.nsteps; st++)
		for (uint32_t i = s.off[st]; i < s.off[st + 1]; i++) {
			const struct hfr_xfer *x = &s.x[i];
			uint32_t *at = x->phase == HFR_UP ? up_at[x->tree] : down_at[x->tree];
			uint32_t who = x->phase == HFR_UP ? x->src : x->dst;

			if (x->phase == HFR_UP)
				assert_int_equal(t[x->tree].parent[x->src], (int32_t)x->dst);
			else
				assert_int_equal(t[x->tree].parent[x->dst], (int32_t)x->src);
			assert_int_equal(at[who * (h[x->tree].nchunks + 1) + x->chunk], UINT32_MAX);
			at[who * (h[x->tree].nchunks + 1) + x->chunk] = st;
		}
	for (int k = 0; k < 2; k++)
		for (uint32_t c = 0; c < h[k].nchunks; c++)
			for (uint32_t r = 0; r < n; r++) {
				uint32_t w = h[k].nchunks + 1, u = up_at[k][r * w + c];
				int32_t p = t[k].parent[r];

				if (p < 0) {
					assert_int_equal(u, UINT32_MAX);
					continue;
				}
				assert_true(u < s.nsteps);
				for (unsigned j = 0; j < t[k].nchild[r]; j++)
					assert_true(up_at[k][(uint32_t)t[k].child[r][j] * w + c] < u);
				assert_true(down_at[k][r * w + c] < s.nsteps);
				if (t[k].parent[p] >= 0)	/* got it before passing it on */
					assert_true(down_at[k][(uint32_t)p * w + c] < down_at[k][r * w + c]);
				else	/* the root sends after all its children reduced */
					for (unsigned j = 0; j < t[k].nchild[p]; j++)
						assert_true(up_at[k][(uint32_t)t[k].child[p][j] * w + c] <
							    down_at[k][r * w + c]);
			}
	assert_true(s.nsteps == 0 || s.off[s.nsteps] > s.off[s.nsteps - 1]);	/* last step used */
	for (int k = 0; k < 2; k++) {
		free(up_at[k]);
		free(down_at[k]);
		hfr_tree_free(&t[k]);
	}
	hfr_sched_free(&s);
}

static void test_sched_dbt(void **state)
{
	(void)state;
	check_dbt(2, 10, 3);
	check_dbt(3, 1000, 7);
	check_dbt(17, 1001, 64);
	check_dbt(64, 4096, 1000);
	check_dbt(600, 1 << 20, 1 << 16);
}

static void test_sched_ring(void **state)
{
	struct hfr_sched s;
	uint64_t sent = 0;

	(void)state;
	assert_int_equal(hfr_sched_ring(&s, 5, 1003, 4), 0);
	assert_int_equal(s.nsteps, 8);
	for (uint32_t k = 0; k < s.nsteps; k++) {
		assert_int_equal(s.off[k + 1] - s.off[k], 5);
		for (uint32_t i = s.off[k]; i < s.off[k + 1]; i++) {
			assert_int_equal(s.x[i].dst, (s.x[i].src + 1) % 5);
			sent += s.x[i].bytes;
		}
	}
	/* each rank sends every block but one, twice: 2 (n - 1) / n of the data each */
	assert_int_equal(sent, 2ull * 4 * 1003 * 4);
	hfr_sched_free(&s);
}

static void test_reduce(void **state)
{
	float a[37], b[37];
	uint16_t x[37], y[37];

	(void)state;
	for (int i = 0; i < 37; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = (float)(37 - i) * 0.25f;
		x[i] = hfr_f32_to_bf16(a[i]);
		y[i] = hfr_f32_to_bf16(b[i]);
	}
	hfr_add(HFR_F32, a, b, 37);
	hfr_add(HFR_BF16, x, y, 37);
	for (int i = 0; i < 37; i++) {
		float want = (float)i * 0.5f + (float)(37 - i) * 0.25f;

		assert_true(a[i] == want);
		/* SIMD path and scalar path agree with the scalar reference */
		assert_int_equal(x[i], hfr_f32_to_bf16(hfr_bf16_to_f32(hfr_f32_to_bf16((float)i * 0.5f)) +
						       hfr_bf16_to_f32(hfr_f32_to_bf16((float)(37 - i) * 0.25f))));
	}
	/* round to nearest even: 1 + 2^-8 is halfway between bf16 1 and 1 + 2^-7 */
	assert_int_equal(hfr_f32_to_bf16(1.0f + 1.0f / 256), 0x3f80);
	assert_int_equal(hfr_f32_to_bf16(1.0f + 3.0f / 256), 0x3f82);
	assert_true(hfr_bf16_to_f32(hfr_f32_to_bf16(__builtin_nanf(""))) !=
		    hfr_bf16_to_f32(hfr_f32_to_bf16(__builtin_nanf(""))));
}

static void run_local(uint32_t n, enum hfr_dtype d, uint64_t nel, uint64_t chunk)
{
	void **buf = calloc(n, sizeof(*buf));

	for (uint32_t r = 0; r < n; r++) {
		buf[r] = malloc(nel * hfr_dtype_size(d) + 1);
		hfr_fill(d, buf[r], r, nel);
	}
	assert_int_equal(hfr_local_allreduce(n, d, buf, nel, chunk, NULL), 0);
	for (uint32_t r = 0; r < n; r++) {
		assert_int_equal(hfr_verify(d, buf[r], n, nel), 0);
		free(buf[r]);
	}
	free(buf);
}

static void test_local_allreduce(void **state)
{
	(void)state;
	for (uint32_t n = 2; n <= 9; n++)
		run_local(n, HFR_F32, 1000 + n, 97);
	run_local(17, HFR_BF16, 12345, 1000);
	run_local(31, HFR_F32, 7, 3);		/* fewer elements than ranks */
	run_local(64, HFR_F32, 100003, 4096);
	run_local(64, HFR_BF16, 65537, 8192);
	run_local(5, HFR_F32, 1, 1);
}

/* A corrupted input shows up: the check is not vacuous. */
static void test_verify_catches(void **state)
{
	float v[10];

	(void)state;
	hfr_fill(HFR_F32, v, 0, 10);
	assert_int_equal(hfr_verify(HFR_F32, v, 1, 10), 0);
	v[3] += 1;
	assert_int_equal(hfr_verify(HFR_F32, v, 1, 10), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trees),
		cmocka_unit_test(test_sched_dbt),
		cmocka_unit_test(test_sched_ring),
		cmocka_unit_test(test_reduce),
		cmocka_unit_test(test_local_allreduce),
		cmocka_unit_test(test_verify_catches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
