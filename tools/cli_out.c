// SPDX-License-Identifier: BSD-2-Clause
/*
 * cli_out.c - output files that appear whole or not at all.
 *
 * A regular file (or a path that does not exist yet) is written to a
 * temporary file in the same directory, synced, and renamed over the
 * target only on success, so a failed command never leaves a partial file
 * and never clobbers an existing one.  The temporary file takes the
 * target's mode and owner (0600 stays 0600).  A symlink is followed to
 * the real path, which is then replaced the same way (the link stays a
 * link).  Anything else - a device node (/dev/null), a FIFO, a socket, or
 * a regular file with other hard links (replacing it would split the
 * links) - is opened and written in place.  "-" and /dev/stdout are
 * standard output.  A set of files that belong together (ffroute route's
 * output directory) is finished file by file and committed (renamed) only
 * when every file is complete.  The temporary name is short (".ffr.XXXXXX" in the
 * target's directory), so a 255-byte file name stays legal.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Temporary name ".ffr.XXXXXX" in the directory of @path. */
static char *tmp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
	char *t = malloc(dl + sizeof(".ffr.XXXXXX"));

	if (t) {
		memcpy(t, path, dl);
		strcpy(t + dl, ".ffr.XXXXXX");
	}
	return t;
}

/* Write @path in place (special files, hard-linked files). */
static int open_in_place(struct cli_out *of, const char *path)
{
	of->fp = fopen(path, "w");
	return of->fp ? 0 : -errno;
}

int cli_out_open(struct cli_out *of, const char *path)
{
	struct stat st;
	bool exists;
	mode_t mask;
	int fd;

	of->path = path;
	of->real = NULL;
	of->tmp = NULL;
	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout")) {
		of->fp = stdout;
		return 0;
	}
	exists = stat(path, &st) == 0;	/* follows symlinks */
	if (exists && (!S_ISREG(st.st_mode) || st.st_nlink > 1))
		return open_in_place(of, path);
	if (exists) {
		of->real = realpath(path, NULL);	/* replace the link's target */
		if (!of->real)
			return -errno;
	}
	of->tmp = tmp_name(of->real ? of->real : path);
	if (!of->tmp)
		return -ENOMEM;
	fd = mkstemp(of->tmp);
	if (fd < 0 || !(of->fp = fdopen(fd, "w"))) {
		int err = errno;

		if (fd >= 0) {
			close(fd);
			unlink(of->tmp);
		}
		free(of->tmp);
		free(of->real);
		of->tmp = of->real = NULL;
		return -err;
	}
	if (exists) {	/* keep the target's mode and owner */
		(void)fchmod(fd, st.st_mode & 07777);
		if (fchown(fd, st.st_uid, st.st_gid) && errno != EPERM) {
			/* not ours to give away (EPERM): the file stays the writer's */
		}
	} else {
		mask = umask(0);
		umask(mask);
		(void)fchmod(fd, 0666 & ~mask);
	}
	return 0;
}

int cli_out_finish(struct cli_out *of, bool ok)
{
	int err = 0;

	if (!of->tmp) {
		if (fflush(of->fp) || ferror(of->fp))
			err = errno ? -errno : -EIO;
		if (of->fp != stdout && fclose(of->fp) && !err)
			err = errno ? -errno : -EIO;
		of->fp = NULL;
		return ok ? err : 0;
	}
	if (ok && (fflush(of->fp) || ferror(of->fp) || fsync(fileno(of->fp))))
		err = errno ? -errno : -EIO;
	if (fclose(of->fp) && !err)
		err = errno ? -errno : -EIO;
	of->fp = NULL;
	if (!ok || err)
		cli_out_commit(of, false);
	return err;
}

int cli_out_commit(struct cli_out *of, bool ok)
{
	int err = 0;

	if (!of->tmp)
		return 0;
	if (ok && rename(of->tmp, of->real ? of->real : of->path))
		err = -errno;
	if (!ok || err)
		unlink(of->tmp);
	free(of->tmp);
	free(of->real);
	of->tmp = of->real = NULL;
	return err;
}

int cli_out_close(struct cli_out *of, bool ok)
{
	int err = cli_out_finish(of, ok);

	return err ? err : cli_out_commit(of, ok);
}
