// SPDX-License-Identifier: BSD-2-Clause
/* bench_check.c - checker timing (placeholder, being written) */
int main(void)
{
	return 0;
}
