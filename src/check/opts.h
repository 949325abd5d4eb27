/*
 * opts.h — the options of the check stage (check.h) and its fixed plan:
 * the check programs, the round counts, the timeout and the name of a
 * candidate's suppressions file.  Shared by the stage and the runner of one
 * check (run.h).
 */
#ifndef NGCC_CHECK_OPTS_H
#define NGCC_CHECK_OPTS_H

#include "util/util.h"

#define CHECK_PROGRAM "ngcc-perf-check"
#define CHECK_PROGRAM_ASAN "ngcc-perf-check-asan"
#define CHECK_DEFAULT_ROUNDS 1000
#define CHECK_MEMCHECK_ROUNDS 3
#define CHECK_CONSTTIME_ROUNDS 2
#define CHECK_DEFAULT_TIMEOUT_S 1800.0
#define CHECK_SUPPRESSIONS "check.supp"

struct check_opts {
	const char *workspace;     /* absolute */
	struct strlist ids;        /* candidates; empty: every candidate */
	long rounds;               /* functional and sanitizer round trips */
	double timeout_s;          /* per check process */
	int jobs;                  /* compilers at once for the twins */
	int only;                  /* bit mask of checks (1 << enum check_id); 0: all */
	int redo;                  /* ignore complete records */
	/* Inside a campaign: no instance of a covered type is a note, not
	 * "nothing to do" (the campaign measures them all the same). */
	int none_is_ok;
	int tty;
	/* Set by the stage: under user-mode emulation (host_emulation()),
	 * what runs on what; the sanitizer and valgrind checks are then
	 * recorded as skipped, since neither runs under qemu-user. */
	char *emulated;
};

#endif
