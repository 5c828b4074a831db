/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * io.h - readers and writers of fabric and forwarding-table formats.
 *
 * Readers take the whole input as a buffer (files are loaded with
 * ffr_load_file()), report problems as file:line:col diagnostics into a
 * struct diag_list, keep going to report several, and return NULL when any
 * error was found.  They never print and never exit.
 *
 * LFT readers bind tables to a fabric by switch GUID (never by LID); when a
 * dump names the destination port GUID, the LID is remapped to the LID that
 * port holds in the fabric.
 *
 * RETURN VALUE: int functions return 0 or -errno; constructors return NULL
 * with errno set (EINVAL: errors in the input, see the diag list).
 */
#ifndef FFROUTE_IO_H
#define FFROUTE_IO_H

#include <stddef.h>
#include <stdio.h>

#include <ffroute/diag.h>
#include <ffroute/lft.h>
#include <ffroute/topo.h>

struct route_slot;

enum ffr_format {
	FFR_FMT_AUTO = 0,
	/* topologies */
	FFR_FMT_IBND,		/* ibnetdiscover (default and -g) */
	FFR_FMT_IBND_PORTS,	/* ibnetdiscover -p */
	FFR_FMT_NET,		/* ibsim .net */
	FFR_FMT_LST,		/* opensm-subnet.lst, ibdiagnet(2) .lst */
	/* forwarding tables */
	FFR_FMT_OSM_LFTS,	/* opensm-lfts.dump */
	FFR_FMT_FDBS,		/* opensm.fdbs, ibdiagnet v1/v2 .fdbs */
	FFR_FMT_IBROUTE,	/* ibroute / dump_lfts(.sh) */
	FFR_FMT_LFTB,		/* ffroute.lftb: ffroute's own, a byte per entry */
	FFR_FMT_COUNT
};

/* Largest input accepted (bytes). */
#define FFR_MAX_INPUT (4095u * 1024u * 1024u)

/** ffr_format_name - short name ("ibnetdiscover", "net", "lst", ...) */
const char *ffr_format_name(enum ffr_format f);
/** ffr_format_parse - inverse of ffr_format_name; FFR_FMT_AUTO if unknown */
enum ffr_format ffr_format_parse(const char *name);
/** ffr_format_is_lft - true for the forwarding-table formats */
int ffr_format_is_lft(enum ffr_format f);
/** ffr_detect_format - guess a format from the first lines; FFR_FMT_AUTO if none */
enum ffr_format ffr_detect_format(const char *buf, size_t len);
/** ffr_detect_topo_format - the same for a topology file named @path: an
 *  ibnetdiscover file named *.net is read as ibsim reads it (net) */
enum ffr_format ffr_detect_topo_format(const char *path, const char *buf, size_t len);

/**
 * ffr_load_file - read a whole file into a NUL-terminated buffer
 * Errors (missing, unreadable, too big, a directory) are recorded in @dl.
 * Return: 0 or -errno.  *buf is malloc'd; free() it.
 */
int ffr_load_file(const char *path, char **buf, size_t *len, struct diag_list *dl);

/* ---- topology readers -------------------------------------------------- */

struct topo *ibnd_read(const char *buf, size_t len, const char *fname, struct diag_list *dl);
struct topo *ibnd_ports_read(const char *buf, size_t len, const char *fname, struct diag_list *dl);
struct topo *net_read(const char *buf, size_t len, const char *fname, struct diag_list *dl);
struct topo *lst_read(const char *buf, size_t len, const char *fname, struct diag_list *dl);

/** topo_read_buf - read a topology in format @fmt (FFR_FMT_AUTO detects) */
struct topo *topo_read_buf(const char *buf, size_t len, const char *fname,
			   enum ffr_format fmt, struct diag_list *dl);
/** topo_read_file - ffr_load_file() + topo_read_buf() */
struct topo *topo_read_file(const char *path, enum ffr_format fmt, struct diag_list *dl);

/**
 * dbcsv_apply_speeds - set active link widths and speeds of @t's ports from
 * an ibdiagnet2.db_csv file (PORTS / EXTENDED_PORT_INFO sections; columns
 * mapped by header name).  The .lst SPD field carries only the legacy
 * speed, so this is how ibdiagnet2 inputs get FDR..NDR right.  Ports not
 * in @t are warnings.  Return: 0 or -errno (-EINVAL: errors recorded in @dl).
 */
int dbcsv_apply_speeds(struct topo *t, const char *buf, size_t len, const char *fname,
		       struct diag_list *dl);

/* ---- forwarding-table readers ------------------------------------------ */

struct lft *osm_lfts_read(const char *buf, size_t len, const char *fname,
			  const struct topo *t, struct diag_list *dl);
struct lft *fdbs_read(const char *buf, size_t len, const char *fname,
		      const struct topo *t, struct diag_list *dl);
struct lft *ibroute_read(const char *buf, size_t len, const char *fname,
			 const struct topo *t, struct diag_list *dl);

/** lft_read_buf - read forwarding tables for fabric @t (FFR_FMT_AUTO detects) */
struct lft *lft_read_buf(const char *buf, size_t len, const char *fname,
			 enum ffr_format fmt, const struct topo *t, struct diag_list *dl);
/** lft_read_file - ffr_load_file() + lft_read_buf() */
struct lft *lft_read_file(const char *path, enum ffr_format fmt, const struct topo *t,
			  struct diag_list *dl);

/* ---- writers (deterministic; return 0 or -EIO) -------------------------- */

/** topo_write_net - ibsim .net that ibsim 0.10 loads, GUIDs kept */
int topo_write_net(const struct topo *t, FILE *fp);
/** What .net cannot carry: CA port GUIDs other than node GUID + port (and
 *  how many of the derived ones ibsim would give twice, or that are another
 *  node's GUID), unknown system GUIDs (ibsim uses the node GUID), links
 *  faster than HDR or of unknown width/speed, NodeDescriptions
 *  empty/long/quoted. */
struct topo_net_losses {
	unsigned guids, clashes, nclashes, sysguids, fast, unknown, desc;
};
struct topo_net_losses topo_net_losses(const struct topo *t);
/** topo_write_ibnd - ibnetdiscover-style topology */
int topo_write_ibnd(const struct topo *t, FILE *fp);
/** lft_write_osm - opensm-lfts.dump (loadable by OpenSM's file engine) */
int lft_write_osm(const struct topo *t, const struct lft *l, FILE *fp);
/**
 * lft_write_osm_how - the same, or @compact: each row "0xLLLL PPP" alone,
 * without the destination's type, port GUID and description (OpenSM's
 * file engine loads it, each LID as written)
 */
int lft_write_osm_how(const struct topo *t, const struct lft *l, bool compact, FILE *fp);
/** lft_write_ibroute - dump_lfts/ibroute-style dump */
int lft_write_ibroute(const struct topo *t, const struct lft *l, FILE *fp);
/** lft_write_bin - ffroute.lftb, one byte per entry (io_lftbin.c) */
int lft_write_bin(const struct topo *t, const struct lft *l, FILE *fp);
/** lft_read_bin - read ffroute.lftb for @t; NULL with "path: error: ..." in @dl */
struct lft *lft_read_bin(const char *path, const struct topo *t, struct diag_list *dl);
/**
 * lft_bin_head - whether @buf[0..len) starts as ffroute.lftb does (its
 * magic name, any version: lft_read_bin() says which it reads)
 */
bool lft_bin_head(const char *buf, size_t len);
/** lft_read_bin_buf - the same from @len bytes at @buf (@fname names them) */
struct lft *lft_read_bin_buf(const uint8_t *buf, size_t len, const char *fname,
			     const struct topo *t, struct diag_list *dl);
/** slots_write - ffroute.slots: the places of route_slots() (io_slots.c) */
int slots_write(const struct route_slot *s, uint32_t n, FILE *fp);
/** slots_read - read ffroute.slots; errors file:line:col into @dl; free *@out */
int slots_read(const char *buf, size_t len, const char *fname, struct route_slot **out,
	       uint32_t *nout, struct diag_list *dl);

/**
 * sl_write - ffroute.sl: source group of every node and SL per (group, LID);
 * @lfts is lft_digest() of the LFTs the SLs were computed with.
 */
struct chk_sl_classes;
int sl_write(const struct topo *t, const uint8_t *sl, const uint32_t *group, uint32_t ngroups,
	     const struct chk_sl_classes *tcs, uint64_t lfts, FILE *fp);
struct chk_vlx;
/** sl2vl_write - opensm-sl2vl.dump: base row per cabled out-port, then the rows of @x */
int sl2vl_write(const struct topo *t, const uint8_t *sl2vl, const struct chk_vlx *x, FILE *fp);

/**
 * sl_read - read an ffroute.sl dump for @t: *sl [ngroups * (max_lid + 1)],
 * *group [nnodes] (malloc'd), its traffic classes into @tcs (may be NULL;
 * n 0 without class lines), *lfts the digest of its LFTs (0: not given,
 * with a warning).  Return: 0, -EINVAL (errors in @dl), -ENOMEM.
 */
int sl_read(const char *buf, size_t len, const char *fname, const struct topo *t,
	    uint8_t **sl, uint32_t **group, uint32_t *ngroups, struct chk_sl_classes *tcs,
	    uint64_t *lfts, struct diag_list *dl);

struct route_tclass;
/**
 * tclass_read - traffic classes, one "class NAME sl N [weight W] [roles
 * R,..] [high] [default]" line each (ffroute.conf's syntax; '#' comments)
 * into @tc (room for CHK_TC_MAX).  Return: 0, or -EINVAL (errors in @dl,
 * file:line:col).
 */
int tclass_read(const char *buf, size_t len, const char *fname, struct route_tclass *tc,
		unsigned *n, struct diag_list *dl);

#endif
