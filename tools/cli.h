/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli.h - the subcommands of the ffroute CLI and the helpers they share.
 *
 * ffroute is a git-style front end: main() (ffroute.c) looks the command
 * name up in a const table of struct cli_cmd and calls its run() with the
 * command's own argv (argv[0] = command name).  Adding a subcommand is one
 * table entry in ffroute.c plus its cmd_*() function declared here.
 *
 * Every command parses its options with getopt_long into a local options
 * struct (no global state) and returns an exit status:
 *   CLI_OK (0)        success / "no findings"
 *   CLI_FINDINGS (1)  the command worked and found something (cmp: differ)
 *   CLI_ERROR (2)     bad input or bad usage; diagnostics went to stderr
 *                     as "file:line:col: error: ..." (diag_print)
 */
#ifndef FFROUTE_CLI_H
#define FFROUTE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <ffroute/io.h>
#include <ffroute/topo.h>

enum cli_status { CLI_OK = 0, CLI_FINDINGS = 1, CLI_ERROR = 2 };

/*
 * One subcommand.  @help is the full text printed by "ffroute help NAME"
 * and "ffroute NAME --help"; its first line is the usage line.
 */
struct cli_cmd {
	const char *name;
	const char *summary;
	const char *help;
	int (*run)(const struct cli_cmd *cmd, int argc, char **argv);
};

/* ---- subcommands (cmd_*.c) ---------------------------------------------- */

extern const char cmd_info_help[];
extern const char cmd_convert_help[];
extern const char cmd_cmp_help[];
extern const char cmd_fabric_help[];
extern const char cmd_check_help[];
extern const char cmd_diff_help[];
extern const char cmd_classify_help[];
extern const char cmd_route_help[];

/** cmd_info - "ffroute info": counts, histograms and oddities of a fabric */
int cmd_info(const struct cli_cmd *cmd, int argc, char **argv);
/** cmd_convert - "ffroute convert": topology and LFT format conversion */
int cmd_convert(const struct cli_cmd *cmd, int argc, char **argv);
/** cmd_cmp - "ffroute cmp": do two topology files describe the same fabric */
int cmd_cmp(const struct cli_cmd *cmd, int argc, char **argv);
/** cmd_fabric - "ffroute fabric": generate a reference fabric (frame, ff2, ...) */
int cmd_fabric(const struct cli_cmd *cmd, int argc, char **argv);
/** cmd_check - "ffroute check": validate routing (findings, metrics, reports) */
int cmd_check(const struct cli_cmd *cmd, int argc, char **argv);
/** cmd_diff - "ffroute diff": two routings of one fabric side by side */
int cmd_diff(const struct cli_cmd *cmd, int argc, char **argv);
/** cmd_classify - "ffroute classify": levels, zones, rails, roles of a fabric */
int cmd_classify(const struct cli_cmd *cmd, int argc, char **argv);
/** cmd_route - "ffroute route": compute LFTs, SLs and SL2VL for a fabric */
int cmd_route(const struct cli_cmd *cmd, int argc, char **argv);

/* ---- shared helpers (ffroute.c) ------------------------------------------ */

/** cli_help - print @cmd's help text to @fp */
void cli_help(const struct cli_cmd *cmd, FILE *fp);

/**
 * cli_usage_error - "ffroute NAME: <msg>" plus the usage line on stderr
 * Return: CLI_ERROR, so callers can "return cli_usage_error(...)".
 */
int cli_usage_error(const struct cli_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * cli_getopt_error - report the option getopt_long() rejected
 * @optc: what getopt_long() returned ('?' or ':'); call after it.
 * Return: CLI_ERROR.
 */
int cli_getopt_error(const struct cli_cmd *cmd, int optc, char **argv);

/** cli_reset_getopt - make getopt_long() start over on a fresh argv */
void cli_reset_getopt(void);

/** Which family of formats an option accepts. */
enum cli_fmt_kind { CLI_FMT_TOPO, CLI_FMT_LFT };

/**
 * cli_parse_format - parse a --format/--from/--lft-format value
 * "auto" is accepted and gives FFR_FMT_AUTO.
 * Return: 0, or CLI_ERROR after printing why (unknown name, wrong family).
 */
int cli_parse_format(const struct cli_cmd *cmd, const char *opt, const char *arg,
		     enum cli_fmt_kind kind, enum ffr_format *out);

/**
 * cli_load_topo - read a topology file, print its diagnostics to stderr
 * @fmt: FFR_FMT_AUTO to detect; @used (may be NULL) gets the format read.
 * Warnings are printed even on success.
 * Return: the fabric, or NULL (diagnostics printed).
 */
struct topo *cli_load_topo(const char *path, enum ffr_format fmt, enum ffr_format *used);

/**
 * cli_load_lft - read forwarding tables for @t, printing diagnostics
 * Return: the tables, or NULL (diagnostics printed).
 */
struct lft *cli_load_lft(const char *path, enum ffr_format fmt, const struct topo *t);
/** cli_lft_bound - 0 if @l has a table of @t's switches and @t has LIDs;
 *  else an error in @dl (label: @label) and -EINVAL */
int cli_lft_bound(const struct topo *t, const struct lft *l, const char *label,
		  struct diag_list *dl);

struct cls_overrides;
/** cli_load_slots - read DIR/ffroute.slots (an earlier route's places); 0 or -errno (printed) */
int cli_load_slots(const char *dir, struct route_slot **slots, uint32_t *n);
struct route_out;
/**
 * cli_load_base_sls - a base's SLs (DIR/ffroute.sl, written for @l) into
 * @o, which points at @l; 0, 1 when absent or written for other tables,
 * else -errno (printed)
 */
int cli_load_base_sls(const char *dir, const struct topo *t, const struct lft *l,
		      struct route_out *o);
struct chk_jobs;
/** cli_load_jobs - a jobs file for @t (chk_jobs_read); 0 or -errno (printed) */
int cli_load_jobs(const char *path, const struct topo *t, struct chk_jobs *jobs);
/** cli_load_classes - traffic classes: "default" (the built-in ones) or a file of
 * class lines; 0 or -errno (printed) */
int cli_load_classes(const char *spec, struct route_tclass *tc, unsigned *n);
/** cli_load_overrides - read a classification override file; 0 or -errno (printed) */
int cli_load_overrides(const char *path, struct cls_overrides *ov);
/** warn_overrides - print warnings for overrides that change nothing in @t */
void warn_overrides(const struct topo *t, const struct cls_overrides *ov, const char *path);

/* ---- output files (cli_out.c) -------------------------------------------- */

/*
 * An output that appears whole or not at all ("-" = stdout); special
 * files and hard-linked files are written in place (cli_out.c).
 */
struct cli_out {
	FILE *fp;
	char *tmp;		/* temporary path; NULL: stdout or written in place */
	char *real;		/* the file a symlink pointed to, or NULL */
	const char *path;
};

/** cli_out_open - start writing @path (a temporary file beside it); 0 or -errno */
int cli_out_open(struct cli_out *of, const char *path);
/** cli_out_close - on @ok sync and rename into place, else discard; 0 or -errno */
int cli_out_close(struct cli_out *of, bool ok);
/**
 * cli_out_finish - cli_out_close's first half: sync and close the temporary
 * file (discarded when !@ok or on error); cli_out_commit - its second half:
 * rename it into place on @ok, else discard it.  0 or -errno.
 */
int cli_out_finish(struct cli_out *of, bool ok);
int cli_out_commit(struct cli_out *of, bool ok);

/* ---- text encoding (cli_json.c) ------------------------------------------- */

/** cli_utf8_len - length of the valid UTF-8 sequence at @s (a byte >= 0x80), or 0 */
unsigned cli_utf8_len(const unsigned char *s);
/** cli_json_str - @str as a JSON string; invalid UTF-8 bytes are read as Latin-1 */
void cli_json_str(FILE *fp, const char *str);

#endif
