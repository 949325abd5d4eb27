/*
 * main.c — bin/ngcc-perf: global options, then one subcommand.
 *
 * Subcommands are declared weak so the table lists only those compiled in:
 * `--help` never advertises a command that does not exist.
 */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*cmd_fn)(int, char **, const struct cli_ctx *);

#pragma weak cmd_selftest
#pragma weak cmd_add
#pragma weak cmd_build
#pragma weak cmd_kat
#pragma weak cmd_check
#pragma weak cmd_check_host
#pragma weak cmd_calibrate
#pragma weak cmd_measure
#pragma weak cmd_campaign
#pragma weak cmd_baseline
#pragma weak cmd_profile
#pragma weak cmd_report
#pragma weak cmd_publish
#pragma weak cmd_validate
#pragma weak cmd_site
#pragma weak cmd_merge
#pragma weak cmd_plan
#pragma weak cmd_status
#pragma weak cmd_launch
#pragma weak cmd_compare
#pragma weak cmd_changes

struct command {
	const char *name;
	cmd_fn fn;
	const char *summary;
	int creates_workspace;  /* may create a missing -C directory */
};

static const struct command commands[] = {
	{ "selftest", cmd_selftest, "check the ICCS runtime against published test vectors", 0 },
	{ "add", cmd_add, "ingest a submission package into the workspace", 1 },
	{ "build", cmd_build, "compile every instance into build/<ID>/lib<label>.so", 0 },
	{ "kat", cmd_kat, "reproduce the submitted Known-Answer Tests", 0 },
	{ "check", cmd_check, "correctness, memory safety and constant time per instance", 0 },
	{ "check-host", cmd_check_host, "report whether the host is fit to measure", 0 },
	{ "calibrate", cmd_calibrate, "time one call per operation (planning input)", 0 },
	{ "measure", cmd_measure, "time every operation in isolated processes", 0 },
	{ "profile", cmd_profile, "share of time in the ICCS hash helpers and the DRNG", 0 },
	{ "baseline", cmd_baseline, "measure the ICCS auxiliary functions as hash instances", 0 },
	{ "report", cmd_report, "render the Markdown pages from a run's evidence", 0 },
	{ "publish", cmd_publish, "copy a run's evidence into a dataset and render its pages", 0 },
	{ "validate", cmd_validate, "recompute a dataset's statistics and regenerate its pages", 0 },
	{ "site", cmd_site, "write the static HTML site of a dataset", 0 },
	{ "campaign", cmd_campaign, "add, build, kat, measure, profile and report in one go", 1 },
	{ "plan", cmd_plan, "estimate the wall time of the measuring phases on 1..N CPUs", 0 },
	{ "status", cmd_status, "every unit of a run directory and its state", 0 },
	{ "launch", cmd_launch, "write GNU parallel or Slurm scripts for a sharded campaign", 0 },
	{ "merge", cmd_merge, "join the run directories of a campaign's shards into one run", 0 },
	{ "compare", cmd_compare, "compare two runs or datasets: ratios, intervals, verdicts", 0 },
	{ "changes", cmd_changes, "what changed between two package versions of a candidate", 0 },
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] <command> [options] [args]\n"
		"       ngcc-perf --help | --version\n"
		"\n"
		"Performance evaluation of NGCC Round 1 submissions (ICCS interface).\n"
		"\n"
		"Global options:\n"
		"  -C DIR       use DIR as the workspace (default: current directory);\n"
		"               only `add` and `campaign` create it when it is missing\n"
		"  -h, --help   show this help; `ngcc-perf <command> --help` for a command\n"
		"  -V, --version  print the version and where our programs and runtime\n"
		"                 sources were found (see ngcc-perf(1), FILES)\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (commands[i].fn)
			fprintf(out, "  %-12s %s\n", commands[i].name, commands[i].summary);
	fprintf(out,
		"\n"
		"Exit codes:\n"
		"  0  success: everything done and passed\n"
		"  1  done, but a check failed (a KAT not PASS, host problems,\n"
		"     failed records, validation problems)\n"
		"  2  usage error, or refusal (e.g. measuring on an unfixed host)\n"
		"  3  bad input: package, workspace, manifest or candidate.conf\n"
		"  4  system error of our own: I/O, memory, process creation\n"
		"  130  interrupted (Ctrl-C, SIGTERM) while measuring; rerun to resume\n");
}

char *ws_path(const struct cli_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *rel = xvasprintf(fmt, ap);
	va_end(ap);
	char *p = path_join(ctx->workspace, rel);
	free(rel);
	return p;
}

char *ws_resolve(const struct cli_ctx *ctx, const char *user_path)
{
	return path_resolve(ctx->workspace, user_path);
}

/* `ngcc-perf CMD --help` works whatever -C says. */
static int wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	return 0;
}

/* The -C directory must exist: a mistyped path is an error, never a fresh
 * empty workspace (where every command would find nothing to do), except
 * for the commands that bring a package in, which say they created it. */
static int open_workspace(const char *workspace, const struct command *cmd, int *created)
{
	*created = 0;
	if (path_is_dir(workspace))
		return EXIT_OK;
	if (path_exists(workspace)) {
		ngcc_error("workspace '%s' (-C) is not a directory", workspace);
		return EXIT_INPUT;
	}
	if (!cmd->creates_workspace) {
		ngcc_error("workspace '%s' (-C) does not exist; check the path (only `add` and "
			   "`campaign` create a workspace: `ngcc-perf -C %s add PACKAGE`)",
			   workspace, workspace);
		return EXIT_INPUT;
	}
	if (mkdir_p(workspace, 0755)) {
		ngcc_error("workspace '%s' does not exist and cannot be created: %s", workspace,
			   strerror(errno));
		return EXIT_INPUT;
	}
	fprintf(stderr, "%s: created the workspace %s\n", cmd->name, workspace);
	*created = 1;
	return EXIT_OK;
}

/* A log file or pipe (GNU parallel, Slurm, `> log 2>&1`) gets whole lines
 * in the order they were printed: stdout would otherwise be written in
 * 4 KiB blocks that cut lines and fall out of step with stderr, and an
 * unbuffered stderr may write one line in several pieces.  A terminal
 * keeps its defaults (stdout is line-buffered there already; progress
 * rewrites its stderr line and flushes it). */
static void line_buffer_logs(void)
{
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, NULL, _IOLBF, 0);
	if (!isatty(STDERR_FILENO))
		setvbuf(stderr, NULL, _IOLBF, 0);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *workspace = ".";
	int c;
	ngcc_set_progname("ngcc-perf");
	line_buffer_logs();
	while ((c = getopt_long(argc, argv, "+C:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'C':
			workspace = optarg;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'V':
			printf("ngcc-perf %s (%s)\n", NGCC_VERSION, NGCC_GIT_COMMIT);
			printf("programs: %s (%s)\n", ngcc_bindir(), ngcc_bindir_origin());
			printf("runtime:  %s/src/runtime (%s)\n", ngcc_home(), ngcc_home_origin());
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *name = argv[optind];
	const struct command *cmd = NULL;
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (commands[i].fn && !strcmp(commands[i].name, name))
			cmd = &commands[i];
	if (!cmd) {
		ngcc_error("unknown command '%s'; see 'ngcc-perf --help'", name);
		return EXIT_USAGE;
	}
	int created = 0;
	if (!wants_help(argc - optind, argv + optind)) {
		int rc = open_workspace(workspace, cmd, &created);
		if (rc)
			return rc;
	}
	struct cli_ctx ctx = {
		.workspace = path_absolute(workspace),
		.tty = isatty(STDERR_FILENO),
	};
	int sub_argc = argc - optind;
	char **sub_argv = argv + optind;
	optind = 0; /* full getopt reset: each command parses argv[0] = its name */
	int rc = cmd->fn(sub_argc, sub_argv, &ctx);
	/* A workspace made for a command that then added nothing goes again. */
	if (created && rc != EXIT_OK && !rmdir(workspace))
		fprintf(stderr, "%s: removed the empty workspace %s again\n", name, workspace);
	free((char *)ctx.workspace);
	return rc;
}
