/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lft_load.h - binding of parsed forwarding-table entries to a fabric
 * (internal; shared by the opensm-lfts, .fdbs and ibroute readers).
 *
 * A reader calls lft_loader_switch() at each switch header (by GUID) and
 * lft_loader_entry() per entry; lft_loader_finish() sizes the table to the
 * larger of the fabric's and the dump's highest LID and fills it.
 * Checks: unknown switch GUID, LID 0 / multicast LIDs, port beyond the
 * switch radix; a switch listed twice is a warning (later entries win).
 */
#ifndef FFROUTE_LFT_LOAD_H
#define FFROUTE_LFT_LOAD_H

#include <stdint.h>

#include <ffroute/diag.h>
#include <ffroute/lft.h>
#include <ffroute/topo.h>

struct lft_loader;

struct lft_loader *lft_loader_new(const struct topo *t, struct diag_list *dl, const char *fname);
/**
 * lft_loader_switch - start the table of switch @guid
 * Return: switch ordinal (>= 0), or -ENOENT (unknown or not a switch; the
 * error is recorded and the caller skips the block's entries).
 */
int lft_loader_switch(struct lft_loader *ld, uint64_t guid, unsigned line, unsigned col);
/**
 * lft_loader_entry - @lid of switch @sw goes out @port (LFT_NONE = no route)
 * @dest_guid: destination port GUID named by the dump, or 0; when the
 * fabric gives that port another LID the entry is remapped to it.
 * Return: 0 or -EINVAL (recorded), -ENOMEM.
 */
int lft_loader_entry(struct lft_loader *ld, int sw, uint32_t lid, unsigned port,
		     uint64_t dest_guid, unsigned line, unsigned col);
/** lft_loader_finish - build the table; NULL (errno EINVAL) if any error was recorded */
struct lft *lft_loader_finish(struct lft_loader *ld);
/** lft_loader_free - discard without building */
void lft_loader_free(struct lft_loader *ld);

#endif
