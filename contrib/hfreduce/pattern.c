// SPDX-License-Identifier: BSD-2-Clause
/*
 * pattern.c - known allreduce inputs and the check of their sum, shared by
 * --local, --verbs and the unit tests: every rank can verify its result
 * without anyone sending it a reference.
 */
#include <math.h>

#include "hfr.h"

/* Rank r's element i: small integers, so the sums are exact: float32 in
 * -8..8, bfloat16 in -1..1 (8 significant bits: exact to 256 ranks). */
float hfr_pattern(enum hfr_dtype d, uint32_t r, uint64_t i)
{
	if (d == HFR_BF16)
		return (float)((r * 7 + i * 13) % 3) - 1.0f;
	return (float)((r * 7 + i * 13) % 17) - 8.0f;
}

void hfr_fill(enum hfr_dtype d, void *buf, uint32_t r, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		if (d == HFR_BF16)
			((uint16_t *)buf)[i] = hfr_f32_to_bf16(hfr_pattern(d, r, i));
		else
			((float *)buf)[i] = hfr_pattern(d, r, i);
	}
}

/*
 * Elements differing from the exact sum over @nranks ranks (bf16 beyond
 * 256 ranks: by more than bf16's rounding of the partial sums allows).
 * The pattern is periodic in r (period P = 17 or 3, 7 coprime to both) and
 * a whole period sums to 0, so only the last nranks mod P ranks count:
 * O(n P), not O(n nranks), per call.
 */
uint64_t hfr_verify(enum hfr_dtype d, const void *buf, uint32_t nranks, uint64_t n)
{
	uint32_t period = d == HFR_BF16 ? 3 : 17;
	uint64_t bad = 0;

	for (uint64_t i = 0; i < n; i++) {
		float want = 0, got;

		for (uint32_t r = nranks - nranks % period; r < nranks; r++)
			want += hfr_pattern(d, r, i);
		got = d == HFR_BF16 ? hfr_bf16_to_f32(((const uint16_t *)buf)[i])
				    : ((const float *)buf)[i];
		if (d == HFR_BF16 && nranks > 256)
			bad += fabsf(got - want) > nranks / 128.0f;
		else
			bad += got != want;
	}
	return bad;
}
