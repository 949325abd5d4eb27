/*
 * run.h — one check of one instance: the command (the check program, under
 * valgrind for memcheck and consttime), the child process with its limits
 * and hard timeout, and the record built from its result, the valgrind
 * XML or sanitizer report and the call-context page (check.h).
 */
#ifndef NGCC_CHECK_RUN_H
#define NGCC_CHECK_RUN_H

#include <jansson.h>

#include "build/twin.h"
#include "check/opts.h"
#include "evidence/check_json.h"

struct check_target {
	const char *workspace;           /* absolute */
	const char *cand, *label, *stem, *instance, *type, *variant;
	const char *timed_library;       /* workspace-relative */
	char timed_sha[65];
	const char *compiler;            /* build.json "compiler", or NULL */
	const struct twin_set *twins;    /* NULL when no twin was needed */
	const char *supp;                /* candidates/<ID>/check.supp when it exists */
	char supp_sha[65];
	const char *no_valgrind;         /* why valgrind cannot run its code (AVX-512
					    instructions), or NULL */
};

/* The library a check exercises (workspace-relative) and its SHA-256, or
 * NULL with *why when its twin did not build. */
const char *check_library(const struct check_target *t, enum check_id id, const char **sha,
			  const char **why);
/* The rounds a check plans. */
long check_rounds(const struct check_opts *o, enum check_id id);
/* Does the check read the suppressions file? */
int check_uses_suppressions(enum check_id id);

/* Run check id on t and return its record (never NULL). */
json_t *check_run(const struct check_target *t, enum check_id id, const struct check_opts *o);

#endif
