// SPDX-License-Identifier: BSD-2-Clause
/*
 * cli_out.c - output files that appear whole or not at all: written to a
 * temporary file next to the target, synced, and renamed over it only on
 * success, so a failed command never leaves a partial file (or clobbers an
 * existing one).  "-" is standard output.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

int cli_out_open(struct cli_out *of, const char *path)
{
	mode_t mask;
	int fd;

	of->path = path;
	of->tmp = NULL;
	if (!strcmp(path, "-")) {
		of->fp = stdout;
		return 0;
	}
	of->tmp = malloc(strlen(path) + sizeof(".tmpXXXXXX"));
	if (!of->tmp)
		return -ENOMEM;
	strcpy(of->tmp, path);
	strcat(of->tmp, ".tmpXXXXXX");
	fd = mkstemp(of->tmp);
	if (fd < 0 || !(of->fp = fdopen(fd, "w"))) {
		int err = errno;

		if (fd >= 0) {
			close(fd);
			unlink(of->tmp);
		}
		free(of->tmp);
		of->tmp = NULL;
		return -err;
	}
	mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	return 0;
}

int cli_out_close(struct cli_out *of, bool ok)
{
	int err = 0;

	if (!of->tmp) {
		if (fflush(of->fp) || ferror(of->fp))
			err = errno ? -errno : -EIO;
		return ok ? err : 0;
	}
	if (ok && (fflush(of->fp) || ferror(of->fp) || fsync(fileno(of->fp))))
		err = errno ? -errno : -EIO;
	if (fclose(of->fp) && !err)
		err = errno ? -errno : -EIO;
	if (ok && !err && rename(of->tmp, of->path))
		err = -errno;
	if (!ok || err)
		unlink(of->tmp);
	free(of->tmp);
	of->tmp = NULL;
	return err;
}
