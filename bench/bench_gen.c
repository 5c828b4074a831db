// SPDX-License-Identifier: BSD-2-Clause
/* bench_gen.c - generator timing (placeholder, being written) */
int main(void)
{
	return 0;
}
