/*
 * cli.h — subcommands of bin/ngcc-perf.  main.c parses the global options
 * (-C DIR, --help, --version) and calls one cmd_<name>() with the remaining
 * arguments (argv[0] is the subcommand name), getopt_long style.
 */
#ifndef NGCC_CLI_H
#define NGCC_CLI_H

#include "util/util.h"

struct cli_ctx {
	const char *workspace; /* absolute path of the workspace (-C) */
	int tty;               /* stderr is a terminal: show progress */
};

/* path inside the workspace: ws_path(ctx, "build/%s", id) */
char *ws_path(const struct cli_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Resolve a user-given path like git -C: relative to the workspace. */
char *ws_resolve(const struct cli_ctx *ctx, const char *user_path);

/* "SELECTOR..." explained, for the --help of every command that takes
 * instance selectors (build/select.h; defined in engine_cli.c). */
extern const char selector_help[];

int cmd_selftest(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_add(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_build(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_kat(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_check(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_check_host(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_calibrate(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_measure(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_campaign(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_baseline(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_profile(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_report(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_publish(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_validate(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_site(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_merge(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_launch(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_plan(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_status(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_compare(int argc, char **argv, const struct cli_ctx *ctx);
int cmd_changes(int argc, char **argv, const struct cli_ctx *ctx);

#endif
