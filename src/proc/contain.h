/*
 * contain.h — what spawn.c and the supervisor ngcc-perf-contain
 * (driver/contain_main.c) agree on.  A child program that loads candidate
 * code is not started directly: spawn starts the supervisor, which makes
 * itself the child subreaper (prctl PR_SET_CHILD_SUBREAPER), starts the
 * program, and when the program has ended (or on SIGTERM: our timeout or
 * interrupt) kills every process still below it, including those that
 * left the process group or the session with setsid().  Orphans of the
 * program are re-parented to the supervisor, not to us, so with several
 * children running at once each stray is counted against the child that
 * left it.
 *
 * The supervisor's command line: CONTAIN_PROGRAM NPROC PROGRAM ARGV0 ARGS...
 * NPROC is the program's RLIMIT_NPROC (0: none): it is set in the program
 * after the supervisor's own fork, which the limit (it counts all of the
 * user's processes) must not refuse.
 * Its descriptors: 0..3 as the program gets them; CONTAIN_STATUS_FD the
 * exec-status pipe, left open across the supervisor's exec so that it
 * reports the program's exec (a pair of ints {step, errno}, nothing on
 * success); CONTAIN_REPORT_FD a pipe for one line "killed N\n" written
 * before it exits (N processes it had to kill besides the program).  It
 * exits as the program did (the same code, or the same signal).
 */
#ifndef NGCC_PROC_CONTAIN_H
#define NGCC_PROC_CONTAIN_H

#define CONTAIN_PROGRAM "ngcc-perf-contain"
#define CONTAIN_STATUS_FD 4
#define CONTAIN_REPORT_FD 5

/* Steps reported through the exec-status pipe. */
enum spawn_step {
	STEP_SETUP_FDS = 1,
	STEP_CHDIR,
	STEP_AFFINITY,
	STEP_RLIMIT,
	STEP_EXEC,
	STEP_PARENT_GONE,
	STEP_CONTAIN,        /* the supervisor could not start the program */
};

#endif
