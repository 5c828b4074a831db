// SPDX-License-Identifier: BSD-2-Clause
/* ffroute - command-line front end (minimal; being extended) */
#include <stdio.h>
#include <string.h>

#include <ffroute/io.h>

int main(int argc, char **argv)
{
	struct diag_list dl;
	struct topo *t;

	if (argc != 3 || strcmp(argv[1], "info")) {
		fprintf(stderr, "usage: ffroute info FILE\n");
		return 2;
	}
	diag_init(&dl, 0);
	t = topo_read_file(argv[2], FFR_FMT_AUTO, &dl);
	diag_print(&dl, stderr);
	diag_free(&dl);
	if (!t)
		return 2;
	printf("%u switches, %u CAs, %u links\n", t->nswitches, t->ncas, t->nlinks);
	topo_free(t);
	return 0;
}
