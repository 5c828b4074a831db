// SPDX-License-Identifier: BSD-2-Clause
/*
 * reduce.c - the CPU side of HFReduce: add a received chunk into the local
 * one, float32 or bfloat16.  GCC vector extensions give SIMD (SSE/AVX with
 * -march, NEON on arm) without intrinsics per architecture; bf16 is
 * widened to float32, added, and rounded back to nearest even, as GPUs do.
 */
#include <string.h>

#include "hfr.h"

#define VLEN 8
typedef float vf __attribute__((vector_size(VLEN * sizeof(float))));
typedef uint32_t vu __attribute__((vector_size(VLEN * sizeof(uint32_t))));

size_t hfr_dtype_size(enum hfr_dtype d)
{
	return d == HFR_BF16 ? 2 : 4;
}

float hfr_bf16_to_f32(uint16_t v)
{
	uint32_t u = (uint32_t)v << 16;
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

uint16_t hfr_f32_to_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu))
		return (uint16_t)((u >> 16) | 0x40);	/* quiet NaN stays NaN */
	u += 0x7fffu + ((u >> 16) & 1);		/* round to nearest even */
	return (uint16_t)(u >> 16);
}

static void add_f32(float *dst, const float *src, size_t n)
{
	size_t i = 0;

	for (; i + VLEN <= n; i += VLEN) {
		vf a, b;

		memcpy(&a, dst + i, sizeof(a));	/* no alignment assumed */
		memcpy(&b, src + i, sizeof(b));
		a += b;
		memcpy(dst + i, &a, sizeof(a));
	}
	for (; i < n; i++)
		dst[i] += src[i];
}

/* bf16 -> f32 is a shift; f32 -> bf16 rounds to nearest even (NaN kept). */
static void add_bf16(uint16_t *dst, const uint16_t *src, size_t n)
{
	size_t i = 0;

	for (; i + VLEN <= n; i += VLEN) {
		vu ua, ub, r, nan;
		vf a, b;

		for (int k = 0; k < VLEN; k++) {
			ua[k] = (uint32_t)dst[i + k] << 16;
			ub[k] = (uint32_t)src[i + k] << 16;
		}
		memcpy(&a, &ua, sizeof(a));
		memcpy(&b, &ub, sizeof(b));
		a += b;
		memcpy(&r, &a, sizeof(r));
		nan = (vu)((r & 0x7f800000u) == 0x7f800000u) & (vu)((r & 0x007fffffu) != 0);
		r = (nan & ((r >> 16) | 0x40)) | (~nan & ((r + 0x7fffu + ((r >> 16) & 1)) >> 16));
		for (int k = 0; k < VLEN; k++)
			dst[i + k] = (uint16_t)r[k];
	}
	for (; i < n; i++)
		dst[i] = hfr_f32_to_bf16(hfr_bf16_to_f32(dst[i]) + hfr_bf16_to_f32(src[i]));
}

void hfr_add(enum hfr_dtype d, void *dst, const void *src, size_t count)
{
	if (d == HFR_BF16)
		add_bf16(dst, src, count);
	else
		add_f32(dst, src, count);
}
