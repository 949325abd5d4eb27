/*
 * contain_main.c — ngcc-perf-contain, the supervisor every child program
 * that loads candidate code runs under (protocol in proc/contain.h,
 * docs/security.md "Candidate processes").
 *
 * It is the child subreaper of everything the program starts: a process
 * the candidate forks, detaches with setsid() and orphans is re-parented
 * here rather than to init, where no process group or session would find
 * it again.  When the program has ended, or when we get SIGTERM (the
 * orchestrator's timeout or interrupt, or its death through
 * PR_SET_PDEATHSIG), every process still below us is killed and reaped,
 * and how many there were is reported.  No candidate code runs in this
 * process; it uses libc only.
 */
#include "proc/contain.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* The program, once started: a stop request kills it from the handler,
 * so that no request is lost between a check and a wait. */
static volatile sig_atomic_t program_pid;

static void on_stop(int sig)
{
	(void)sig;
	if (program_pid > 0)
		kill((pid_t)program_pid, SIGKILL);
}

/* SIGTERM, SIGINT and SIGHUP ask us to end it all now: the program is
 * killed, and then everything below us as after a normal end. */
static void catch_stop_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void report_exec_failure(int step)
{
	int msg[2] = { step, errno };
	ssize_t unused = write(CONTAIN_STATUS_FD, msg, sizeof msg);
	(void)unused;
}

/* In the forked child: back to default signals, the program's process
 * limit, then the program. */
static void exec_program(unsigned long long nproc, char **argv)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (nproc) {
		struct rlimit rl = { .rlim_cur = nproc, .rlim_max = nproc };
		if (setrlimit(RLIMIT_NPROC, &rl) != 0) {
			report_exec_failure(STEP_RLIMIT);
			_exit(127);
		}
	}
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execv(argv[0], argv + 1);
	report_exec_failure(STEP_EXEC);
	_exit(127);
}

/* Kill every process whose parent is self, by scanning /proc (each is
 * ours to reap: we are their parent or their subreaper). */
static void kill_children_of(pid_t self)
{
	DIR *d = opendir("/proc");
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		if (*end || pid <= 0 || pid == self)
			continue;
		char path[64], buf[512];
		snprintf(path, sizeof path, "/proc/%ld/stat", pid);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t len = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		/* "pid (comm) state ppid ...": comm may hold anything, so
		 * parse from its last ')'. */
		char *paren = strrchr(buf, ')');
		char state;
		int ppid;
		if (!paren || sscanf(paren + 1, " %c %d", &state, &ppid) != 2)
			continue;
		if (ppid == self && state != 'Z')
			kill((pid_t)pid, SIGKILL);
	}
	closedir(d);
}

/*
 * Kill and reap everything below us until nothing is left: killing a
 * process re-parents its own children to us, so go round until wait
 * reports no children.  Returns how many processes were reaped.
 */
static int kill_descendants(void)
{
	pid_t self = getpid();
	int reaped = 0;
	for (;;) {
		kill_children_of(self);
		int status;
		pid_t p = waitpid(-1, &status, 0);
		if (p > 0) {
			if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
				reaped++;
			continue;
		}
		if (errno == EINTR)
			continue;
		return reaped; /* ECHILD: nothing left */
	}
}

static void send_report(int killed)
{
	char line[64];
	int n = snprintf(line, sizeof line, "killed %d\n", killed);
	ssize_t unused = write(CONTAIN_REPORT_FD, line, (size_t)n);
	(void)unused;
	close(CONTAIN_REPORT_FD);
}

/* End the way the program ended. */
static void exit_like(int status)
{
	if (WIFEXITED(status))
		_exit(WEXITSTATUS(status));
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		/* No core file of ours for the program's crash. */
		prctl(PR_SET_DUMPABLE, 0);
		signal(sig, SIG_DFL);
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
	}
	_exit(127);
}

/* Wait for the program, reaping any orphan that ends meanwhile.  Returns
 * its wait status. */
static int wait_program(pid_t program)
{
	for (;;) {
		int status;
		pid_t p = waitpid(-1, &status, 0);
		if (p == program)
			return status;
		if (p < 0 && errno != EINTR)
			return 0; /* cannot happen: the program is our child */
	}
}

int main(int argc, char **argv)
{
	char *end = NULL;
	unsigned long long nproc = argc >= 4 ? strtoull(argv[1], &end, 10) : 0;
	if (argc < 4 || !end || *end) {
		fprintf(stderr, "%s: run by ngcc-perf only (NPROC PROGRAM ARGV0 ARGS...)\n",
			CONTAIN_PROGRAM);
		return 127;
	}
	catch_stop_signals();
	/* Our parent's death used to kill us outright (spawn armed SIGKILL
	 * before exec); now it asks us to clean up first. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	/* qemu-user (an emulated AArch64 tree, docs/usage.md) answers EINVAL:
	 * it does not implement child subreapers.  The program still runs;
	 * an orphan it leaves then goes to init, where the child's cgroup
	 * (proc/cgroup.c), when there is one, still kills it. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0 && errno != EINVAL) {
		report_exec_failure(STEP_CONTAIN);
		return 127;
	}
	fcntl(CONTAIN_STATUS_FD, F_SETFD, FD_CLOEXEC);
	fcntl(CONTAIN_REPORT_FD, F_SETFD, FD_CLOEXEC);
	/* Stop signals wait until program_pid is set. */
	sigset_t stops, old;
	sigemptyset(&stops);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGHUP);
	sigprocmask(SIG_BLOCK, &stops, &old);
	pid_t program = fork();
	if (program < 0) {
		report_exec_failure(STEP_CONTAIN);
		return 127;
	}
	if (program == 0)
		exec_program(nproc, argv + 2);
	program_pid = program;
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* The program holds the pipes now; only it and what it starts may. */
	close(CONTAIN_STATUS_FD);
	for (int fd = 0; fd <= 3; fd++)
		close(fd);
	int status = wait_program(program);
	int killed = kill_descendants();
	send_report(killed);
	exit_like(status);
	return 127;
}
