// SPDX-License-Identifier: BSD-2-Clause
/*
 * io.c - file loading, format names, format detection and dispatch to the
 * per-format readers.  Detection looks only at the first lines that are
 * not comments or banners, so a damaged tail cannot change the verdict.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ffroute/io.h>

static const char *const fmt_names[FFR_FMT_COUNT] = {
	[FFR_FMT_AUTO] = "auto",
	[FFR_FMT_IBND] = "ibnetdiscover",
	[FFR_FMT_IBND_PORTS] = "ibnetdiscover-ports",
	[FFR_FMT_NET] = "net",
	[FFR_FMT_LST] = "lst",
	[FFR_FMT_OSM_LFTS] = "opensm-lfts",
	[FFR_FMT_FDBS] = "fdbs",
	[FFR_FMT_IBROUTE] = "ibroute",
	[FFR_FMT_LFTB] = "lftb",
};

const char *ffr_format_name(enum ffr_format f)
{
	return (unsigned)f < FFR_FMT_COUNT ? fmt_names[f] : "?";
}

enum ffr_format ffr_format_parse(const char *name)
{
	for (unsigned i = 1; i < FFR_FMT_COUNT; i++)
		if (!strcasecmp(name, fmt_names[i]))
			return (enum ffr_format)i;
	if (!strcasecmp(name, "ibnd"))
		return FFR_FMT_IBND;
	if (!strcasecmp(name, "ibsim"))
		return FFR_FMT_NET;
	if (!strcasecmp(name, "dump_lfts"))
		return FFR_FMT_IBROUTE;
	return FFR_FMT_AUTO;
}

int ffr_format_is_lft(enum ffr_format f)
{
	return f == FFR_FMT_OSM_LFTS || f == FFR_FMT_FDBS || f == FFR_FMT_IBROUTE ||
	       f == FFR_FMT_LFTB;
}

/* Does @line (NUL-free, not terminated) start with @lit after blanks? */
static bool starts(const char *line, size_t n, const char *lit)
{
	size_t k = strlen(lit), i = 0;

	while (i < n && (line[i] == ' ' || line[i] == '\t'))
		i++;
	return n - i >= k && !strncmp(line + i, lit, k);
}

static bool contains(const char *line, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	for (size_t i = 0; i + k <= n; i++)
		if (!strncmp(line + i, lit, k))
			return true;
	return false;
}

/* One line: a verdict, or FFR_FMT_AUTO to look further. */
static enum ffr_format classify_line(const char *l, size_t n, bool *ibnd_hint)
{
	if (starts(l, n, "{") && contains(l, n, "Ports:"))
		return FFR_FMT_LST;
	if (starts(l, n, "Unicast lids [0x"))
		return FFR_FMT_IBROUTE;
	if (lft_bin_head(l, n))	/* ffroute.lftb's magic line */
		return FFR_FMT_LFTB;
	if (starts(l, n, "Unicast lids ["))
		return FFR_FMT_OSM_LFTS;
	if (contains(l, n, "dump_ucast_routes: Switch 0x"))
		return FFR_FMT_FDBS;
	if ((starts(l, n, "CA ") || starts(l, n, "SW ") || starts(l, n, "RT ")) &&
	    contains(l, n, " 0x"))
		return FFR_FMT_IBND_PORTS;
	if (starts(l, n, "# Topology file") || starts(l, n, "switchguid=") ||
	    starts(l, n, "caguid=") || starts(l, n, "vendid=") || starts(l, n, "rtguid=") ||
	    contains(l, n, "\"S-") || contains(l, n, "\"H-"))
		*ibnd_hint = true;
	if (starts(l, n, "Hca") || starts(l, n, "Switch") || starts(l, n, "Ca") ||
	    starts(l, n, "Rt"))
		return *ibnd_hint ? FFR_FMT_IBND : FFR_FMT_NET;
	return FFR_FMT_AUTO;
}

enum ffr_format ffr_detect_format(const char *buf, size_t len)
{
	bool ibnd_hint = false;
	size_t pos = 0;
	unsigned lines = 0;

	while (pos < len && lines < 4000) {
		size_t end = pos;
		enum ffr_format f;

		while (end < len && buf[end] != '\n' && buf[end] != '\r' && buf[end] != '\0')
			end++;
		if (end < len && buf[end] == '\0')
			return FFR_FMT_AUTO;
		f = classify_line(buf + pos, end - pos, &ibnd_hint);
		if (f != FFR_FMT_AUTO)
			return f;
		pos = end + 1;
		lines++;
	}
	return FFR_FMT_AUTO;
}

int ffr_load_file(const char *path, char **bufp, size_t *lenp, struct diag_list *dl)
{
	struct stat st;
	size_t len = 0, cap;
	char *buf;
	int fd, err;

	*bufp = NULL;
	*lenp = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		diag_add(dl, DIAG_ERROR, path, 0, 0, "cannot open: %s", strerror(err));
		return -err;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		diag_add(dl, DIAG_ERROR, path, 0, 0, "is a directory");
		return -EISDIR;
	}
	cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 1 : 65536;
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > FFR_MAX_INPUT) {
		close(fd);
		diag_add(dl, DIAG_ERROR, path, 0, 0, "file too large (%lld bytes, limit %u)",
			 (long long)st.st_size, FFR_MAX_INPUT);
		return -EFBIG;
	}
	buf = malloc(cap);
	if (!buf)
		goto nomem;
	for (;;) {
		ssize_t r;

		if (len + 1 >= cap) {
			char *nb;

			if (cap > FFR_MAX_INPUT) {
				free(buf);
				close(fd);
				diag_add(dl, DIAG_ERROR, path, 0, 0, "input too large (limit %u bytes)",
					 FFR_MAX_INPUT);
				return -EFBIG;
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				goto nomem;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = errno;
			free(buf);
			close(fd);
			diag_add(dl, DIAG_ERROR, path, 0, 0, "read error: %s", strerror(err));
			return -err;
		}
		if (r == 0)
			break;
		if (len < 4096 && memchr(buf + len, 0, (size_t)r < 4096 - len ? (size_t)r : 4096 - len)) {
			/* binary from its first bytes: /dev/zero stops here, not at the size limit */
			size_t at = (size_t)((char *)memchr(buf + len, 0, (size_t)r) - buf);
			unsigned line = 1, col = 1;

			for (size_t i = 0; i < at; i++)
				buf[i] == '\n' ? (line++, col = 1) : col++;
			free(buf);
			close(fd);
			diag_add(dl, DIAG_ERROR, path, line, col, "binary data (NUL byte): not a text dump");
			return -EINVAL;
		}
		len += (size_t)r;
	}
	close(fd);
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
		/* a UTF-8 byte-order mark (Windows editors): not part of any dump */
		memmove(buf, buf + 3, len - 3);
		len -= 3;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
nomem:
	close(fd);
	diag_add(dl, DIAG_ERROR, path, 0, 0, "out of memory");
	return -ENOMEM;
}

static void no_format(struct diag_list *dl, const char *fname, const char *what)
{
	diag_add(dl, DIAG_ERROR, fname, 0, 0,
		 "cannot tell the %s format (not ibnetdiscover, .net, .lst, opensm-lfts, "
		 ".fdbs, ibroute or lftb); name it with --%s-format", what,
		 *what == 't' ? "topo" : "lft");
}

struct topo *topo_read_buf(const char *buf, size_t len, const char *fname, enum ffr_format fmt,
			   struct diag_list *dl)
{
	if (fmt == FFR_FMT_AUTO)
		fmt = ffr_detect_format(buf, len);
	switch (fmt) {
	case FFR_FMT_IBND:
		return ibnd_read(buf, len, fname, dl);
	case FFR_FMT_IBND_PORTS:
		return ibnd_ports_read(buf, len, fname, dl);
	case FFR_FMT_NET:
		return net_read(buf, len, fname, dl);
	case FFR_FMT_LST:
		return lst_read(buf, len, fname, dl);
	case FFR_FMT_AUTO:
		no_format(dl, fname, "topology");
		break;
	default:
		diag_add(dl, DIAG_ERROR, fname, 0, 0, "%s is a forwarding-table format, not a topology",
			 ffr_format_name(fmt));
		break;
	}
	errno = EINVAL;
	return NULL;
}

enum ffr_format ffr_detect_topo_format(const char *path, const char *buf, size_t len)
{
	enum ffr_format f = ffr_detect_format(buf, len);
	size_t n = strlen(path);

	/* an ibnetdiscover file that names itself .net is read as ibsim reads it */
	if (f == FFR_FMT_IBND && n > 4 && !strcmp(path + n - 4, ".net"))
		f = FFR_FMT_NET;
	return f;
}

struct topo *topo_read_file(const char *path, enum ffr_format fmt, struct diag_list *dl)
{
	struct topo *t;
	char *buf;
	size_t len;
	int rc = ffr_load_file(path, &buf, &len, dl);

	if (rc) {
		errno = -rc;
		return NULL;
	}
	if (fmt == FFR_FMT_AUTO)
		fmt = ffr_detect_topo_format(path, buf, len);
	t = topo_read_buf(buf, len, path, fmt, dl);
	free(buf);
	return t;
}

struct lft *lft_read_buf(const char *buf, size_t len, const char *fname, enum ffr_format fmt,
			 const struct topo *t, struct diag_list *dl)
{
	if (fmt == FFR_FMT_AUTO)
		fmt = ffr_detect_format(buf, len);
	switch (fmt) {
	case FFR_FMT_OSM_LFTS:
		return osm_lfts_read(buf, len, fname, t, dl);
	case FFR_FMT_FDBS:
		return fdbs_read(buf, len, fname, t, dl);
	case FFR_FMT_IBROUTE:
		return ibroute_read(buf, len, fname, t, dl);
	case FFR_FMT_LFTB:
		return lft_read_bin_buf((const uint8_t *)buf, len, fname, t, dl);
	case FFR_FMT_AUTO:
		no_format(dl, fname, "forwarding-table");
		break;
	default:
		diag_add(dl, DIAG_ERROR, fname, 0, 0, "%s is a topology format, not forwarding tables",
			 ffr_format_name(fmt));
		break;
	}
	errno = EINVAL;
	return NULL;
}

/* Whether the file at @path starts as ffroute.lftb does (binary: not for ffr_load_file()). */
static bool is_lftb(const char *path)
{
	char head[16];
	FILE *fp = fopen(path, "rb");
	size_t n;

	if (!fp)
		return false;
	n = fread(head, 1, sizeof(head), fp);
	fclose(fp);
	return lft_bin_head(head, n);
}

struct lft *lft_read_file(const char *path, enum ffr_format fmt, const struct topo *t,
			  struct diag_list *dl)
{
	struct lft *l;
	char *buf;
	size_t len;
	int rc;

	if (fmt == FFR_FMT_LFTB || (fmt == FFR_FMT_AUTO && is_lftb(path)))
		return lft_read_bin(path, t, dl);
	rc = ffr_load_file(path, &buf, &len, dl);

	if (rc) {
		errno = -rc;
		return NULL;
	}
	l = lft_read_buf(buf, len, path, fmt, t, dl);
	free(buf);
	return l;
}
