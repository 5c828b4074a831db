// SPDX-License-Identifier: BSD-2-Clause
/*
 * ffroute.c - main() of the ffroute CLI: git-style subcommand dispatch
 * ("ffroute [--version] [--help] COMMAND [ARGS]", "ffroute help COMMAND",
 * "ffroute COMMAND --help") and the helpers every subcommand shares
 * (usage errors, format options); loading files is cli_load.c.
 *
 * The command table is const data; options live in per-command structs.
 * Exit status: 0 ok, 1 findings, 2 bad input or usage (see cli.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <ffroute/class.h>

#include "config.h"
#include "cli.h"

/* One line per subcommand: name, summary, help text, entry point. */
static const struct cli_cmd commands[] = {
	{ "info", "describe a fabric: node, link, radix, speed and LID counts",
	  cmd_info_help, cmd_info },
	{ "convert", "convert a topology or forwarding tables to another format",
	  cmd_convert_help, cmd_convert },
	{ "cmp", "tell whether two topology files describe the same fabric",
	  cmd_cmp_help, cmd_cmp },
	{ "fabric", "generate a reference fabric (frame, ff2, multiframe, rail, fattree, hetero)",
	  cmd_fabric_help, cmd_fabric },
	{ "check", "validate a fabric's routing: correctness, deadlock, balance, traffic",
	  cmd_check_help, cmd_check },
	{ "diff", "compare two routings of one fabric side by side",
	  cmd_diff_help, cmd_diff },
	{ "classify", "what every node and port is: levels, zones, rails, roles, hosts",
	  cmd_classify_help, cmd_classify },
	{ "route", "compute forwarding tables (and SLs/VLs) for a fabric",
	  cmd_route_help, cmd_route },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct cli_cmd *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void main_usage(FILE *fp)
{
	fprintf(fp,
		"usage: ffroute [--version] [--help] COMMAND [ARGS]\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(fp, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(fp,
		"\n"
		"Run 'ffroute help COMMAND' or 'ffroute COMMAND --help' for the options\n"
		"of one command; see ffroute(1).\n"
		"Exit status: 0 ok, 1 findings (e.g. cmp found a difference), "
		"2 bad input or usage.\n");
}

void cli_help(const struct cli_cmd *cmd, FILE *fp)
{
	fputs(cmd->help, fp);
}

/* The first line of a help text is its usage line. */
static void print_usage_line(const struct cli_cmd *cmd, FILE *fp)
{
	const char *nl = strchr(cmd->help, '\n');
	int n = nl ? (int)(nl - cmd->help) : (int)strlen(cmd->help);

	fprintf(fp, "%.*s\n", n, cmd->help);
	fprintf(fp, "Try 'ffroute %s --help' for more information.\n", cmd->name);
}

int cli_usage_error(const struct cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ffroute %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	print_usage_line(cmd, stderr);
	return CLI_ERROR;
}

int cli_getopt_error(const struct cli_cmd *cmd, int optc, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "?";

	if (optc == ':')
		return cli_usage_error(cmd, "option '%s' needs an argument", arg);
	if (optopt && !(arg[0] == '-' && arg[1] == '-'))
		return cli_usage_error(cmd, "unknown option '-%c'", optopt);
	return cli_usage_error(cmd, "unknown option '%s'", arg);
}

void cli_reset_getopt(void)
{
	optind = 0;	/* glibc: 0 also resets its internal state */
	opterr = 0;
	optopt = 0;
}

int cli_parse_format(const struct cli_cmd *cmd, const char *opt, const char *arg,
		     enum cli_fmt_kind kind, enum ffr_format *out)
{
	enum ffr_format f = ffr_format_parse(arg);

	if (!strcmp(arg, "auto")) {
		*out = FFR_FMT_AUTO;
		return 0;
	}
	if (f == FFR_FMT_AUTO)
		return cli_usage_error(cmd, "%s: unknown format '%s'", opt, arg);
	if (kind == CLI_FMT_TOPO && ffr_format_is_lft(f))
		return cli_usage_error(cmd, "%s: '%s' is a forwarding-table format, "
				       "not a topology format", opt, arg);
	if (kind == CLI_FMT_LFT && !ffr_format_is_lft(f))
		return cli_usage_error(cmd, "%s: '%s' is a topology format, "
				       "not a forwarding-table format", opt, arg);
	*out = f;
	return 0;
}

/* "ffroute help [COMMAND]" */
static int help_command(int argc, char **argv)
{
	const struct cli_cmd *cmd;

	if (argc < 2) {
		main_usage(stdout);
		return CLI_OK;
	}
	if (argc > 2) {
		fprintf(stderr, "ffroute help: too many arguments\n");
		return CLI_ERROR;
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		fprintf(stderr, "ffroute help: '%s' is not an ffroute command\n", argv[1]);
		return CLI_ERROR;
	}
	cli_help(cmd, stdout);
	return CLI_OK;
}

/* Exit status @rc, unless standard output could not be written (a full disk, /dev/full). */
static int finish(int rc)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "ffroute: error writing the output: %s\n", strerror(errno ? errno : EIO));
		return CLI_ERROR;
	}
	return rc;
}

static int run_main(int argc, char **argv)
{
	const struct cli_cmd *cmd;
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-V")) {
			printf("ffroute %s (git %s)\n", PACKAGE_VERSION, FFROUTE_GIT);
			return CLI_OK;
		}
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			main_usage(stdout);
			return CLI_OK;
		}
		fprintf(stderr, "ffroute: unknown option '%s'\n", argv[i]);
		main_usage(stderr);
		return CLI_ERROR;
	}
	if (i >= argc) {
		main_usage(stderr);
		return CLI_ERROR;
	}
	if (!strcmp(argv[i], "help"))
		return help_command(argc - i, argv + i);
	cmd = find_command(argv[i]);
	if (!cmd) {
		fprintf(stderr, "ffroute: '%s' is not an ffroute command; "
			"see 'ffroute --help'\n", argv[i]);
		return CLI_ERROR;
	}
	cli_reset_getopt();
	return cmd->run(cmd, argc - i, argv + i);
}

int main(int argc, char **argv)
{
	return finish(run_main(argc, argv));
}
