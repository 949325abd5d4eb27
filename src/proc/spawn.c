/*
 * spawn.c — see spawn.h.
 *
 * The child is started like vfork: a clone that shares our memory, runs on
 * a stack of its own while we wait, and execs.  Fork would copy our page
 * tables for every child only for exec to throw them away: a campaign
 * starts thousands of children, and under ASan (whose shadow memory is
 * mapped in our address space) that copy and its teardown were a fifth of
 * a test campaign's time.  So between clone and exec the child uses
 * system calls only (no malloc, no stdio, nothing that writes our memory
 * beyond its own stack and errno), with every signal blocked until its
 * handlers are back to the defaults: a handler of ours must never run in
 * it.  An extra close-on-exec pipe tells the parent
 * whether exec succeeded: it reads EOF on success, or the child's errno and
 * the step that failed.  The parent drains stdout, stderr and the result
 * pipe without ever blocking on one of them, notices the child's exit
 * through a pidfd (or a short poll tick where pidfds are missing), kills
 * the whole process group before reaping the leader (so its id cannot have
 * been reused), and only then collects the remaining output.
 *
 * With a supervisor (proc/contain.h) the clone execs the supervisor
 * instead, which starts the program and kills whatever it leaves behind,
 * also processes that left our group with setsid(); a timeout or an
 * interrupt then asks the supervisor to stop (SIGTERM) rather than
 * killing the group, which would kill the supervisor before its sweep.
 * Where the kernel lets us, a supervised child also gets a cgroup of its
 * own (proc/cgroup.h), which it joins before exec and which is killed
 * whole once the supervisor is gone: that holds even what a candidate
 * started after killing its supervisor.
 */
#include "proc/spawn.h"
#include "proc/cgroup.h"
#include "proc/contain.h"
#include "util/interrupt.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define SPAWN_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SPAWN_UNDER_ASAN 1
#endif
#endif
#ifdef SPAWN_UNDER_ASAN
#include <sanitizer/asan_interface.h>
#endif

#define DEFAULT_TAIL 2000
/* The result pipe carries generated KAT text; a candidate could also write
 * to it, so cap what we keep rather than let it exhaust our memory. */
#define RESULT_CAP ((size_t)512 << 20)
/* After the child is gone and its group killed, how long we still wait for
 * the pipes to close (a process that left the group may hold them). */
#define DRAIN_GRACE_S 2.0
/* Poll tick when the kernel has no pidfd_open. */
#define FALLBACK_TICK_MS 20
/* How long a supervisor asked to stop (SIGTERM) may take to kill what it
 * supervises before we kill its whole group ourselves. */
#define CONTAIN_GRACE_S 5.0

static const char *step_name(int step)
{
	switch (step) {
	case STEP_SETUP_FDS: return "setting up file descriptors";
	case STEP_CHDIR: return "changing directory";
	case STEP_AFFINITY: return "pinning to the CPU";
	case STEP_RLIMIT: return "setting resource limits";
	case STEP_EXEC: return "executing";
	case STEP_PARENT_GONE: return "starting (parent exited)";
	case STEP_CONTAIN: return "starting it under " CONTAIN_PROGRAM;
	}
	return "starting";
}

/* ---------------------------------------------------------------- child */

static void child_fail(int status_fd, int step)
{
	int msg[2] = { step, errno };
	ssize_t unused = write(status_fd, msg, sizeof msg);
	(void)unused;
	_exit(127);
}

static int set_limit(int resource, unsigned long long soft,
		     unsigned long long hard)
{
	struct rlimit rl = { .rlim_cur = soft, .rlim_max = hard };
	return setrlimit(resource, &rl);
}

/* supervised: RLIMIT_NPROC is the supervisor's to set, in the program
 * (proc/contain.h) */
static int apply_limits(const struct spawn_limits *lim, int supervised)
{
#ifndef SPAWN_UNDER_ASAN
	/* ASan reserves terabytes of shadow address space up front. */
	if (lim->as_bytes && set_limit(RLIMIT_AS, lim->as_bytes, lim->as_bytes))
		return -1;
#endif
	/* A little headroom above the soft CPU limit: SIGXCPU first, then the
	 * kernel's SIGKILL at the hard limit. */
	if (lim->cpu_s && set_limit(RLIMIT_CPU, lim->cpu_s, lim->cpu_s + 5))
		return -1;
	if (lim->fsize_bytes &&
	    set_limit(RLIMIT_FSIZE, lim->fsize_bytes, lim->fsize_bytes))
		return -1;
	if (lim->nproc && !supervised && set_limit(RLIMIT_NPROC, lim->nproc, lim->nproc))
		return -1;
	return 0;
}

static void close_fds_from(int first)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned)first, ~0U, 0) == 0)
		return;
#endif
	long max = sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > 65536)
		max = 65536;
	for (int fd = first; fd < max; fd++)
		close(fd);
}

/*
 * Place the pipe ends on 0..3 and the status pipe on 4 (and, under the
 * supervisor, its report pipe on 5).  Everything is first moved above 10
 * so that a dup2 never clobbers a descriptor that is still to be moved.
 * The status pipe is closed on exec, except for the supervisor, which
 * reports the program's exec through it (proc/contain.h).
 */
static int arrange_fds(int out_w, int err_w, int res_w, int status_w, int report_w)
{
	int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (devnull < 0)
		return -1;
	int src[6] = { devnull, out_w, err_w, res_w, status_w, report_w };
	for (int i = 0; i < 6; i++) {
		if (src[i] < 0)
			continue;
		src[i] = fcntl(src[i], F_DUPFD_CLOEXEC, 10);
		if (src[i] < 0)
			return -1;
	}
	for (int target = 0; target < 4; target++) {
		if (src[target] < 0)
			continue;
		if (dup2(src[target], target) < 0) /* clears close-on-exec */
			return -1;
	}
	int contained = src[5] >= 0;
	if (dup3(src[4], CONTAIN_STATUS_FD, contained ? 0 : O_CLOEXEC) < 0)
		return -1;
	if (contained && dup2(src[5], CONTAIN_REPORT_FD) < 0)
		return -1;
	if (src[3] < 0)
		close(3);
	close_fds_from(contained ? CONTAIN_REPORT_FD + 1 : CONTAIN_STATUS_FD + 1);
	return CONTAIN_STATUS_FD;
}

/* Every signal arrives blocked (start_child): the handlers go back to
 * the defaults first, and only then is the mask cleared. */
static void reset_signals(void)
{
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* What the child needs: the request, what to exec (the program, or the
 * supervisor and its command line), our pid and its pipe ends. */
struct child_start {
	const struct spawn_req *req;
	const char *exec_path;
	char *const *exec_argv;
	const char *cgroup_procs;  /* join this cgroup (its cgroup.procs), or NULL */
	pid_t parent;
	int out_w, err_w, res_w, status_w, report_w;
};

/* The child, from clone to exec (start_child); never returns. */
static int run_child(void *arg)
{
	const struct child_start *c = arg;
	const struct spawn_req *req = c->req;
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (c->cgroup_procs) {
		/* "0": the writer itself; a refusal leaves the supervisor alone
		 * in charge (the cgroup then stays empty) */
		int fd = open(c->cgroup_procs, O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			ssize_t unused = write(fd, "0", 1);
			(void)unused;
			close(fd);
		}
	}
	/* The parent may have died before prctl: then nobody would reap or
	 * time us out. */
	if (getppid() != c->parent) {
		errno = ESRCH;
		child_fail(c->status_w, STEP_PARENT_GONE);
	}
	reset_signals();
	int status_w = arrange_fds(c->out_w, c->err_w, c->res_w, c->status_w, c->report_w);
	if (status_w < 0)
		_exit(127); /* cannot even report */
	if (req->cwd && chdir(req->cwd) != 0)
		child_fail(status_w, STEP_CHDIR);
	if (req->cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(req->cpu, &set);
		if (sched_setaffinity(0, sizeof set, &set) != 0)
			child_fail(status_w, STEP_AFFINITY);
	}
	if (apply_limits(&req->lim, req->supervisor != NULL) != 0)
		child_fail(status_w, STEP_RLIMIT);
	execv(c->exec_path, c->exec_argv);
	child_fail(status_w, STEP_EXEC);
	_exit(127);
}

/* The child's stack while it sets itself up: one per thread, reused (it is
 * ours again once the child has exec'd or exited).  run_child's frames
 * need a few KiB, more under the sanitizers. */
#define CHILD_STACK_BYTES ((size_t)256 << 10)

/*
 * Start run_child in a clone sharing our memory; we resume when it has
 * exec'd or exited (CLONE_VFORK).  Returns its pid, or -1 with errno.
 */
static pid_t start_child(struct child_start *c)
{
	static _Thread_local unsigned char *stack;
	if (!stack) {
		void *m = mmap(NULL, CHILD_STACK_BYTES, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
		if (m == MAP_FAILED)
			return -1;
		stack = m;
	}
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid_t pid = clone(run_child, stack + CHILD_STACK_BYTES,
			  CLONE_VM | CLONE_VFORK | SIGCHLD, c);
	int err = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
#ifdef SPAWN_UNDER_ASAN
	/* The child's frames never returned: their redzones are still
	 * poisoned in the shadow memory we share. */
	ASAN_UNPOISON_MEMORY_REGION(stack, CHILD_STACK_BYTES);
#endif
	errno = err;
	return pid;
}

/* --------------------------------------------------------------- parent */

/* Keeps the last `keep` bytes of a stream. */
struct tail {
	char *buf;
	size_t len, keep;
};

static void tail_add(struct tail *t, const char *data, size_t n)
{
	if (n >= t->keep) {
		memcpy(t->buf, data + n - t->keep, t->keep);
		t->len = t->keep;
		return;
	}
	if (t->len + n > t->keep) {
		size_t drop = t->len + n - t->keep;
		memmove(t->buf, t->buf + drop, t->len - drop);
		t->len -= drop;
	}
	memcpy(t->buf + t->len, data, n);
	t->len += n;
}

static char *tail_detach(struct tail *t)
{
	char *s = xmalloc(t->len + 1);
	memcpy(s, t->buf, t->len);
	s[t->len] = '\0';
	free(t->buf);
	t->buf = NULL;
	return s;
}

struct stream {
	int fd;               /* -1 once at EOF */
	struct tail *tail;    /* stdout/stderr */
	struct strbuf *whole; /* result pipe */
	const struct spawn_req *req; /* its on_result */
};

/* Read what is available now, a bounded amount so that a child writing
 * without pause cannot keep us from checking the deadline; close the fd at
 * EOF or on error. */
static void stream_read(struct stream *s)
{
	char buf[65536];
	for (int round = 0; round < 16; round++) {
		ssize_t n = read(s->fd, buf, sizeof buf);
		if (n > 0) {
			if (s->tail) {
				tail_add(s->tail, buf, (size_t)n);
				continue;
			}
			if (s->whole->len + (size_t)n <= RESULT_CAP)
				sb_add(s->whole, buf, (size_t)n);
			if (s->req && s->req->on_result)
				s->req->on_result(s->req->on_result_arg, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		close(s->fd); /* EOF, or an error we cannot recover from */
		s->fd = -1;
		return;
	}
}

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd >= 0)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
#else
	(void)pid;
	return -1;
#endif
}

/* Has the child exited?  Leaves it unreaped (a zombie keeps its pid and so
 * its process group id from being reused until we have killed the group). */
static int child_has_exited(pid_t pid)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		if (errno != EINTR)
			return 1; /* ECHILD: nothing left to wait for */
	return si.si_pid == pid;
}

static int poll_timeout_ms(double deadline, int have_pidfd)
{
	int ms = have_pidfd ? -1 : FALLBACK_TICK_MS;
	if (deadline > 0) {
		double left = deadline - mono_now();
		int left_ms = left <= 0 ? 0 : (int)(left * 1000.0) + 1;
		if (ms < 0 || left_ms < ms)
			ms = left_ms;
	}
	return ms;
}

/* Poll the open streams (and the pidfd) once. */
static void poll_once(struct stream *st, int nst, int pidfd, int timeout_ms)
{
	struct pollfd pfd[4];
	int map[4], n = 0;
	for (int i = 0; i < nst; i++) {
		if (st[i].fd < 0)
			continue;
		pfd[n] = (struct pollfd){ .fd = st[i].fd, .events = POLLIN };
		map[n++] = i;
	}
	if (pidfd >= 0) {
		pfd[n] = (struct pollfd){ .fd = pidfd, .events = POLLIN };
		map[n++] = -1;
	}
	if (n == 0) {
		/* Nothing to watch but time (no pidfd, all pipes closed). */
		if (timeout_ms != 0)
			poll(NULL, 0, timeout_ms);
		return;
	}
	if (poll(pfd, (nfds_t)n, timeout_ms) <= 0)
		return; /* timeout or EINTR: the caller re-checks */
	for (int i = 0; i < n; i++)
		if (map[i] >= 0 && pfd[i].revents)
			stream_read(&st[map[i]]);
}

static int streams_open(const struct stream *st, int nst)
{
	for (int i = 0; i < nst; i++)
		if (st[i].fd >= 0)
			return 1;
	return 0;
}

static void reap(pid_t pid, struct spawn_res *res)
{
	int status = 0;
	while (wait4(pid, &status, 0, &res->ru) < 0) {
		if (errno != EINTR) {
			res->exited = 0;
			res->term_signal = SIGKILL;
			return;
		}
	}
	if (WIFEXITED(status)) {
		res->exited = 1;
		res->exit_code = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		res->term_signal = WTERMSIG(status);
	}
}

/* End the child now (timeout or interrupt).  A supervised child is asked
 * to end it all (SIGTERM: it kills the program and everything below it,
 * then reports); the whole group is killed only if it has not gone within
 * CONTAIN_GRACE_S. */
static void stop_child(pid_t pid, int contained, double *backstop)
{
	if (contained) {
		kill(pid, SIGTERM);
		*backstop = mono_now() + CONTAIN_GRACE_S;
		return;
	}
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL); /* in case setpgid had not happened */
}

/*
 * Drain the streams until the child exits (or the deadline, which ends
 * it), then kill the group, reap, and drain what is left.
 */
static void supervise(pid_t pid, const struct spawn_req *req,
		      struct stream *st, int nst, double start,
		      struct child_cgroup *cg, int *cg_left, struct spawn_res *res)
{
	int pidfd = open_pidfd(pid);
	int contained = req->supervisor != NULL;
	double deadline = req->timeout_s > 0 ? start + req->timeout_s : 0;
	double backstop = 0;

	while (!child_has_exited(pid)) {
		if (interrupt_pending() && !res->interrupted) {
			/* Ctrl-C: the child is in its own group and did not get it. */
			res->interrupted = 1;
			stop_child(pid, contained, &backstop);
		}
		if (deadline > 0 && mono_now() >= deadline) {
			res->timed_out = 1;
			stop_child(pid, contained, &backstop);
			deadline = 0;
		}
		if (backstop > 0 && mono_now() >= backstop) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			backstop = 0;
		}
		double next = deadline > 0 && (backstop <= 0 || deadline < backstop) ? deadline
										    : backstop;
		poll_once(st, nst, pidfd, poll_timeout_ms(next, pidfd >= 0));
	}
	kill(-pid, SIGKILL);
	reap(pid, res);
	res->wall_s = mono_now() - start;
	if (pidfd >= 0)
		close(pidfd);
	/* what is left in the child's cgroup once its supervisor is gone */
	*cg_left = cg->dir ? cgroup_kill_remove(cg) : -1;

	double grace_end = mono_now() + DRAIN_GRACE_S;
	while (streams_open(st, nst) && mono_now() < grace_end)
		poll_once(st, nst, -1, poll_timeout_ms(grace_end, 0));
	for (int i = 0; i < nst; i++)
		if (st[i].fd >= 0)
			close(st[i].fd);
}

/* The supervisor's report ("killed N"), read once it has exited: the
 * count, or -1 if it sent none (it was killed). */
static int read_contain_report(int fd)
{
	char buf[64];
	size_t got = 0;
	while (got < sizeof buf - 1) {
		ssize_t n = read(fd, buf + got, sizeof buf - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	int killed;
	if (sscanf(buf, "killed %d", &killed) != 1 || killed < 0)
		return -1;
	return killed;
}

/* What the supervisor killed (-1: it sent no count) and what its cgroup
 * still held after it (-1: no cgroup, or unreadable). */
static int strays_total(int by_supervisor, int in_cgroup)
{
	if (by_supervisor < 0)
		return in_cgroup; /* the supervisor was killed: the cgroup knows */
	return by_supervisor + (in_cgroup > 0 ? in_cgroup : 0);
}

static void close_pair(int p[2])
{
	for (int i = 0; i < 2; i++)
		if (p[i] >= 0)
			close(p[i]);
	p[0] = p[1] = -1;
}

/* Wait for exec: 0 on success, else the step and errno the child sent. */
static int read_exec_status(int fd, int msg[2])
{
	size_t got = 0;
	while (got < sizeof(int[2])) {
		ssize_t n = read(fd, (char *)msg + got, sizeof(int[2]) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got == sizeof(int[2]) ? -1 : 0;
}

static int make_pipes(int out[2], int err[2], int result[2], int status[2],
		      int want_result)
{
	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) ||
	    pipe2(status, O_CLOEXEC))
		return -1;
	if (want_result && pipe2(result, O_CLOEXEC))
		return -1;
	return 0;
}

/* The supervisor's command line: itself, the program's RLIMIT_NPROC, the
 * program, the program's argv (proc/contain.h).  *nproc_text is to be
 * freed with the argv. */
static char **supervisor_argv(const struct spawn_req *req, char **nproc_text)
{
	size_t n = 0;
	while (req->argv[n])
		n++;
	char **argv = xcalloc(n + 4, sizeof *argv);
	*nproc_text = xasprintf("%llu", req->lim.nproc);
	argv[0] = (char *)req->supervisor;
	argv[1] = *nproc_text;
	argv[2] = (char *)req->path;
	for (size_t i = 0; i < n; i++)
		argv[i + 3] = req->argv[i];
	return argv;
}

int spawn_run(const struct spawn_req *req, struct spawn_res *res)
{
	int out[2] = { -1, -1 }, err[2] = { -1, -1 };
	int result[2] = { -1, -1 }, status[2] = { -1, -1 }, report[2] = { -1, -1 };
	char **contain_argv = NULL, *nproc_text = NULL;
	struct child_cgroup cg = { NULL, NULL };
	int cg_left = -1;

	memset(res, 0, sizeof *res);
	if (make_pipes(out, err, result, status, req->want_result) != 0 ||
	    (req->supervisor && pipe2(report, O_CLOEXEC) != 0)) {
		ngcc_error("cannot create pipes to run %s: %s", req->path,
			   strerror(errno));
		goto fail;
	}
	if (req->supervisor) {
		contain_argv = supervisor_argv(req, &nproc_text);
		cgroup_create(&cg);
	}
	pid_t parent = getpid();
	double start = mono_now();
	struct child_start cs = {
		req,
		req->supervisor ? req->supervisor : req->path,
		contain_argv ? contain_argv : req->argv,
		cg.procs,
		parent, out[1], err[1], result[1], status[1], report[1],
	};
	pid_t pid = start_child(&cs);
	free(contain_argv);
	free(nproc_text);
	if (pid < 0) {
		ngcc_error("cannot start a process to run %s: %s", req->path, strerror(errno));
		goto fail;
	}

	/* No setpgid(pid, pid) here: we resume only once the child has made
	 * its own group and exec'd (or failed). */
	close(out[1]);
	close(err[1]);
	close(status[1]);
	if (result[1] >= 0)
		close(result[1]);
	if (report[1] >= 0)
		close(report[1]);
	out[1] = err[1] = status[1] = result[1] = report[1] = -1;

	int msg[2];
	if (read_exec_status(status[0], msg) != 0) {
		kill(-pid, SIGKILL);
		reap(pid, res);
		ngcc_error("cannot run %s: %s failed: %s", req->path,
			   step_name(msg[0]), strerror(msg[1]));
		goto fail;
	}
	close_pair(status);

	size_t keep = req->tail_bytes ? req->tail_bytes : DEFAULT_TAIL;
	struct tail tout = { xmalloc(keep), 0, keep };
	struct tail terr = { xmalloc(keep), 0, keep };
	struct strbuf whole = STRBUF_INIT;
	struct stream st[3] = {
		{ out[0], &tout, NULL, req },
		{ err[0], &terr, NULL, req },
		{ result[0], NULL, &whole, req },
	};
	int nst = req->want_result ? 3 : 2;
	for (int i = 0; i < nst; i++)
		fcntl(st[i].fd, F_SETFL, O_NONBLOCK);

	supervise(pid, req, st, nst, start, &cg, &cg_left, res);
	if (req->supervisor) {
		res->contained = 1;
		res->strays_killed = strays_total(read_contain_report(report[0]), cg_left);
		close_pair(report);
	}

	res->out_tail = tail_detach(&tout);
	res->err_tail = tail_detach(&terr);
	res->result_len = whole.len;
	res->result = sb_detach(&whole);
	return 0;

fail:
	close_pair(out);
	close_pair(err);
	close_pair(result);
	close_pair(status);
	close_pair(report);
	cgroup_kill_remove(&cg);
	memset(res, 0, sizeof *res);
	return -1;
}

void spawn_res_free(struct spawn_res *res)
{
	free(res->result);
	free(res->out_tail);
	free(res->err_tail);
	res->result = res->out_tail = res->err_tail = NULL;
	res->result_len = 0;
}

static char *format_seconds(double s)
{
	if (s == (double)(long long)s)
		return xasprintf("%lld", (long long)s);
	return xasprintf("%.3g", s);
}

static char *describe_end(const struct spawn_res *res, double timeout_s);

char *spawn_describe(const struct spawn_res *res, double timeout_s)
{
	char *how = describe_end(res, timeout_s);
	if (res->strays_killed <= 0)
		return how;
	char *s = xasprintf("%s; %d process(es) it left running killed", how,
			    res->strays_killed);
	free(how);
	return s;
}

static char *describe_end(const struct spawn_res *res, double timeout_s)
{
	if (res->timed_out) {
		char *secs = format_seconds(timeout_s);
		char *s = xasprintf("timed out after %s s", secs);
		free(secs);
		return s;
	}
	if (res->exited)
		return xasprintf("exit %d", res->exit_code);
	if (res->term_signal) {
		const char *abbrev = sigabbrev_np(res->term_signal);
		if (abbrev)
			return xasprintf("killed by signal %d (SIG%s)",
					 res->term_signal, abbrev);
		return xasprintf("killed by signal %d", res->term_signal);
	}
	return xstrdup("ended for an unknown reason");
}
