/*
 * finding.h — turn what a check run left behind into findings of the check
 * record (evidence/check_json.h): the check program's own failed checks,
 * valgrind errors and fatal signals, a sanitizer report, a crash.
 *
 * Each finding gets the operation and call it happened in (from the call
 * context the check program published, driver/check/watch.h), a location
 * (the first stack frame inside the exercised library, as a workspace path
 * such as candidates/<ID>/source/…/poly.c and a line), the stack, and a
 * minimal reproduction: the same command replaying only that round.
 * Paths outside the workspace and ngcc-perf are reduced to their base
 * name, so a record never holds an absolute path.
 */
#ifndef NGCC_CHECK_FINDING_H
#define NGCC_CHECK_FINDING_H

#include <jansson.h>

#include "check/sanrep.h"
#include "check/vgxml.h"

struct find_ctx {
	const char *workspace;       /* absolute, as the compiler saw it */
	const char *library_abs;     /* the exercised library */
	const json_t *command;       /* the command as recorded */
	int consttime;               /* memcheck errors are secret dependencies */
};

/* dir/file as a record shows it (dir may be NULL). */
char *finding_shown_path(const char *workspace, const char *dir, const char *file);

/* A failed check reported by the check program (its "findings" entry). */
json_t *finding_from_child(const struct find_ctx *c, const json_t *child);
/* A valgrind error. */
json_t *finding_from_vg_error(const struct find_ctx *c, const struct vg_error *e);
/* The signal that ended the program under valgrind. */
json_t *finding_from_vg_fatal(const struct find_ctx *c, const struct vg_fatal *f);
/* The sanitizer report; context is the call-context page (or NULL). */
json_t *finding_from_san(const struct find_ctx *c, const struct san_report *s,
			 const char *context);
/* The check program died without a report (how: "killed by signal 11
 * (SIGSEGV)"); context as above. */
json_t *finding_from_crash(const struct find_ctx *c, const char *how, const char *context);
/* Processes the library left running, which the supervisor killed: a
 * finding of no particular operation. */
json_t *finding_from_strays(const struct find_ctx *c, int killed);

/* The command replaying one round: the recorded command without the
 * machine-readable output options, with --first-round round --rounds 1. */
json_t *finding_repro_command(const json_t *command, long round);

#endif
