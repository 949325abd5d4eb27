/*
 * spawn.h — run one child program (never candidate code in our process):
 * own process group, PR_SET_PDEATHSIG, optional CPU pinning, resource
 * limits, optionally a supervisor that kills every process the child
 * leaves behind (proc/contain.h), a hard timeout that kills the whole group, stdout and stderr
 * drained continuously (only their tail kept) and an optional result pipe
 * on fd 3 whose whole content is returned.
 */
#ifndef NGCC_SPAWN_H
#define NGCC_SPAWN_H

#include <stddef.h>
#include <sys/resource.h>

#define SPAWN_RESULT_FD 3

struct spawn_limits {
	unsigned long long as_bytes;    /* RLIMIT_AS, 0 = unlimited */
	unsigned long long cpu_s;       /* RLIMIT_CPU */
	unsigned long long fsize_bytes; /* RLIMIT_FSIZE */
	unsigned long long nproc;       /* RLIMIT_NPROC */
};

struct spawn_req {
	const char *path;     /* program */
	char *const *argv;    /* NULL-terminated */
	const char *cwd;      /* NULL = inherit */
	int cpu;              /* pin to this CPU before exec; -1 = no pinning */
	double timeout_s;     /* <= 0: none */
	struct spawn_limits lim;
	int want_result;      /* give the child a result pipe as fd 3 */
	size_t tail_bytes;    /* keep this much of stdout/stderr (0 = 2000) */
	/* Optional: called with each piece of the result pipe as it arrives
	 * (pieces need not end at line ends), e.g. to show progress. */
	void (*on_result)(void *arg, const char *data, size_t len);
	void *on_result_arg;
	/* The supervisor to run the program under (ngcc-perf-contain,
	 * proc/contain.h): every child program that loads candidate code
	 * has one, so that nothing it starts outlives it.  NULL: run the
	 * program directly. */
	const char *supervisor;
};

struct spawn_res {
	int exited;           /* normal exit */
	int exit_code;
	int term_signal;      /* signal that ended it, 0 if none */
	int timed_out;        /* killed by our timeout */
	int interrupted;      /* killed because we were interrupted (util/interrupt.h) */
	double wall_s;
	char *result;         /* everything written to fd 3 (NUL-terminated) */
	size_t result_len;
	char *out_tail, *err_tail;
	struct rusage ru;     /* the child's (wait4) */
	int contained;        /* it ran under req->supervisor */
	/* Processes the supervisor had to kill because they were still
	 * running when the program ended (or was ended): 0 normally, -1 if
	 * the supervisor sent no count (it was killed itself). */
	int strays_killed;
};

/* 0 if the child ran (whatever became of it), -1 if it could not start
 * (message printed). */
int spawn_run(const struct spawn_req *req, struct spawn_res *res);
void spawn_res_free(struct spawn_res *res);
/* Human text: "exit 3", "killed by signal 11 (SIGSEGV)", "timed out after 900 s",
 * followed by "; 2 process(es) it left running killed" when the supervisor
 * had to kill processes the child left behind. */
char *spawn_describe(const struct spawn_res *res, double timeout_s);

#endif
