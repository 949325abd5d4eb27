/*
 * command.h — the command line of one of our child programs
 * (ngcc-perf-driver, -kat, -profile, -memory, -check, possibly under
 * valgrind): the argv to run and the
 * same words as evidence records them, the program written as
 * <ngcc-perf>/bin/<name> so that no absolute path of this installation is
 * recorded (docs/method.md §11.1).  Every child program is started through here
 * and proc/spawn.h.
 */
#ifndef NGCC_PROC_COMMAND_H
#define NGCC_PROC_COMMAND_H

#include <jansson.h>

#include "proc/spawn.h"
#include "util/util.h"

struct child_cmd {
	char *path;               /* the program (ngcc_program(name)) */
	struct strlist argv;      /* argv[0] is path */
	json_t *shown;            /* as recorded: "<ngcc-perf>/bin/<name>", then the arguments */
};

void child_cmd_init(struct child_cmd *c, const char *name);
/* A child program run under a tool (valgrind): the tool's path, recorded
 * as tool_shown; then the tool's options (child_cmd_arg), then
 * child_cmd_program() and the program's arguments. */
void child_cmd_init_tool(struct child_cmd *c, const char *tool_path, const char *tool_shown);
/* Append our program `name`: its path to run, <ngcc-perf>/bin/<name> as
 * recorded. */
void child_cmd_program(struct child_cmd *c, const char *name);
/* The argument after "--lib", or "" (for messages). */
const char *child_cmd_library(const struct child_cmd *c);
/* Append one argument to both. */
void child_cmd_arg(struct child_cmd *c, const char *arg);
void child_cmd_argf(struct child_cmd *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* spawn_run with req's settings; its path and argv are the command's, run
 * under the supervisor ngcc-perf-contain (proc/contain.h).
 * 0 if the child ran, -1 if it could not start (message printed). */
int child_cmd_run(const struct child_cmd *c, struct spawn_req *req, struct spawn_res *res);
void child_cmd_free(struct child_cmd *c);

#endif
