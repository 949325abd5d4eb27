/*
 * job.h — run the compiler without a shell: posix_spawnp with an argv array,
 * a working directory, stdin from /dev/null and stdout+stderr captured whole
 * (compiler diagnostics go to the build log, so nothing is cut).
 *
 * Only the system compiler and linker run here, never candidate code or
 * anything shipped in a package.  Jobs run in parallel up to a limit; each
 * is waited for by its own pid (pidfd + poll), so children of other parts of
 * the process are never reaped by mistake.
 */
#ifndef NGCC_BUILD_JOB_H
#define NGCC_BUILD_JOB_H

#include <jansson.h>
#include <sys/types.h>

#include "util/util.h"

struct job {
	struct strlist argv;   /* argv[0] is the program, looked up in PATH */
	const char *cwd;       /* NULL: inherit */
	void *owner;           /* caller's cookie */
	/* filled in */
	pid_t pid;
	int pidfd;             /* -1 when pidfd_open is unavailable */
	int out_fd;            /* unlinked temp file holding stdout+stderr */
	int started, finished;
	int exit_code;         /* 0 ok; 127 could not start; 128+sig if killed */
	char *output;          /* captured stdout+stderr, NUL-terminated */
};

/* Start j; 0, or -1 if it could not start (j->finished set, output says why). */
int job_start(struct job *j);
/* Wait until one of the *n started, unfinished jobs ends; returns it (marked
 * finished, output read, taken off running: *n is one less, the last job
 * in its place) or NULL if none is running. */
struct job *job_wait_any(struct job **running, size_t *n);
/* Start and wait for one job. */
int job_run_sync(struct job *j);
void job_release(struct job *j);

/* Render argv for humans (build log): POSIX shell quoting where needed. */
char *argv_render(const struct strlist *argv);
/* argv as evidence records it: each argument with the workspace made
 * relative and our tree written <ngcc-perf> (evidence/paths.h). */
json_t *argv_recorded(const struct strlist *argv);

#endif
