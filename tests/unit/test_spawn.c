/* test_spawn.c — spawn_run() with /bin/sh children. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "proc/cgroup.h"
#include "proc/spawn.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct spawn_req sh_req(const char *script, char **argv_store)
{
	argv_store[0] = "sh";
	argv_store[1] = "-c";
	argv_store[2] = (char *)script;
	argv_store[3] = NULL;
	struct spawn_req req = {
		.path = "/bin/sh",
		.argv = argv_store,
		.cpu = -1,
		.timeout_s = 30,
		.want_result = 1,
	};
	return req;
}

static void run_sh(const char *script, struct spawn_res *res)
{
	char *argv[4];
	struct spawn_req req = sh_req(script, argv);
	assert_int_equal(spawn_run(&req, res), 0);
}

static void test_exit_code(void **state)
{
	(void)state;
	struct spawn_res res;
	run_sh("exit 3", &res);
	assert_true(res.exited);
	assert_int_equal(res.exit_code, 3);
	assert_int_equal(res.term_signal, 0);
	assert_false(res.timed_out);
	char *d = spawn_describe(&res, 30);
	assert_string_equal(d, "exit 3");
	free(d);
	spawn_res_free(&res);
}

static void test_signal(void **state)
{
	(void)state;
	struct spawn_res res;
	run_sh("kill -SEGV $$", &res);
	assert_false(res.exited);
	assert_int_equal(res.term_signal, SIGSEGV);
	char *d = spawn_describe(&res, 30);
	assert_string_equal(d, "killed by signal 11 (SIGSEGV)");
	free(d);
	spawn_res_free(&res);
}

/* A process that was killed may linger as a zombie of whoever adopted it;
 * it is gone for our purposes once it no longer runs. */
static int process_running(pid_t pid)
{
	char path[64], *stat = NULL;
	size_t len;
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if (read_file(path, &stat, &len) != 0)
		return 0;
	const char *paren = strrchr(stat, ')');
	int running = paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
	free(stat);
	return running;
}

static void test_timeout_kills_group(void **state)
{
	(void)state;
	char *argv[4];
	struct spawn_req req = sh_req("sleep 100 & echo $! >&3; sleep 100", argv);
	req.timeout_s = 0.5;
	struct spawn_res res;
	assert_int_equal(spawn_run(&req, &res), 0);
	assert_true(res.timed_out);
	assert_false(res.exited);
	assert_int_equal(res.term_signal, SIGKILL);
	assert_true(res.wall_s < 20); /* not the 100 s of the sleeps */
	pid_t grandchild = (pid_t)atoi(res.result);
	assert_true(grandchild > 1);
	/* SIGKILL delivery to the group is asynchronous: give it a moment. */
	for (int i = 0; i < 200 && process_running(grandchild); i++)
		usleep(10000);
	assert_false(process_running(grandchild));
	char *d = spawn_describe(&res, 900);
	assert_string_equal(d, "timed out after 900 s");
	free(d);
	spawn_res_free(&res);
}

/* The leader exits at once but leaves a grandchild holding stdout: we must
 * return without waiting for it, and kill it. */
static void test_lingering_grandchild_killed(void **state)
{
	(void)state;
	struct spawn_res res;
	run_sh("sleep 100 & echo $! >&3; exit 0", &res);
	assert_true(res.exited);
	assert_int_equal(res.exit_code, 0);
	assert_false(res.timed_out);
	pid_t grandchild = (pid_t)atoi(res.result);
	assert_true(grandchild > 1);
	for (int i = 0; i < 200 && process_running(grandchild); i++)
		usleep(10000);
	assert_false(process_running(grandchild));
	spawn_res_free(&res);
}

static void test_result_fd(void **state)
{
	(void)state;
	struct spawn_res res;
	run_sh("printf 'line 1\\nRESULT x y PASS\\n' >&3; echo out; echo err >&2", &res);
	assert_string_equal(res.result, "line 1\nRESULT x y PASS\n");
	assert_int_equal(res.result_len, strlen(res.result));
	assert_string_equal(res.out_tail, "out\n");
	assert_string_equal(res.err_tail, "err\n");
	spawn_res_free(&res);
}

static void test_no_result_fd_when_not_wanted(void **state)
{
	(void)state;
	char *argv[4];
	struct spawn_req req = sh_req("echo x >&3 && exit 0; exit 9", argv);
	req.want_result = 0;
	struct spawn_res res;
	assert_int_equal(spawn_run(&req, &res), 0);
	assert_int_equal(res.exit_code, 9); /* fd 3 is closed in the child */
	assert_int_equal(res.result_len, 0);
	spawn_res_free(&res);
}

static void test_chatty_child_tail(void **state)
{
	(void)state;
	char *argv[4];
	struct spawn_req req = sh_req(
		"head -c 6000000 /dev/zero | tr '\\000' a; echo END;"
		"head -c 3000000 /dev/zero | tr '\\000' b >&2; echo ERR >&2;"
		"head -c 4000000 /dev/zero | tr '\\000' c >&3; echo RES >&3", argv);
	req.tail_bytes = 100;
	struct spawn_res res;
	assert_int_equal(spawn_run(&req, &res), 0);
	assert_true(res.exited);
	assert_int_equal(res.exit_code, 0);
	assert_int_equal(strlen(res.out_tail), 100);
	assert_true(str_ends_with(res.out_tail, "aaaaEND\n") == 1);
	assert_int_equal(strlen(res.err_tail), 100);
	assert_true(str_ends_with(res.err_tail, "bbbbERR\n") == 1);
	assert_int_equal(res.result_len, 4000000 + 4);
	assert_true(str_ends_with(res.result, "ccccRES\n") == 1);
	spawn_res_free(&res);
}

static void test_rlimits_applied(void **state)
{
	(void)state;
	char *argv[4];
	struct spawn_req req = sh_req("cat /proc/self/limits", argv);
	req.lim.fsize_bytes = 1048576;
	req.lim.cpu_s = 7;
	req.lim.nproc = 64;
	req.tail_bytes = 8192;
	struct spawn_res res;
	assert_int_equal(spawn_run(&req, &res), 0);
	assert_int_equal(res.exit_code, 0);
	assert_non_null(strstr(res.out_tail, "Max file size             1048576              1048576"));
	assert_non_null(strstr(res.out_tail, "Max cpu time              7                    12"));
	assert_non_null(strstr(res.out_tail, "Max processes             64                   64"));
	spawn_res_free(&res);
}

static void test_fsize_limit_enforced(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_spawn.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *argv[4];
	struct spawn_req req = sh_req("head -c 100000 /dev/zero > big; exit 0", argv);
	req.cwd = dir;
	req.lim.fsize_bytes = 4096;
	struct spawn_res res;
	assert_int_equal(spawn_run(&req, &res), 0);
	char *big = path_join(dir, "big");
	char *data = NULL;
	size_t len = 0;
	assert_int_equal(read_file(big, &data, &len), 0);
	assert_int_equal(len, 4096);
	free(data);
	free(big);
	rm_rf(dir);
	spawn_res_free(&res);
}

static void test_stdin_is_devnull_and_fds_closed(void **state)
{
	(void)state;
	/* A descriptor of ours that must not leak into the child. */
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	int leak = fcntl(fileno(tmp), F_DUPFD, 50);
	assert_true(leak >= 50);
	char script[200];
	snprintf(script, sizeof script,
		 "cat; if [ -e /proc/$$/fd/%d ]; then echo leaked; fi; "
		 "[ -e /proc/$$/fd/4 ] && echo fd4; ls /proc/$$/fd",
		 leak);
	struct spawn_res res;
	run_sh(script, &res);
	assert_int_equal(res.exit_code, 0);
	assert_null(strstr(res.out_tail, "leaked"));
	assert_null(strstr(res.out_tail, "fd4"));
	/* ls alone, not in a pipeline: the shell would hold the pipe's
	 * descriptors while ls lists them. */
	assert_string_equal(res.out_tail, "0\n1\n2\n3\n");
	close(leak);
	fclose(tmp);
	spawn_res_free(&res);
}

static void test_cpu_pinning(void **state)
{
	(void)state;
	char *argv[4];
	struct spawn_req req = sh_req("grep Cpus_allowed_list /proc/self/status", argv);
	req.cpu = 0;
	struct spawn_res res;
	assert_int_equal(spawn_run(&req, &res), 0);
	assert_string_equal(res.out_tail, "Cpus_allowed_list:\t0\n");
	spawn_res_free(&res);
}

static void test_exec_failure(void **state)
{
	(void)state;
	char *argv[] = { "nonexistent", NULL };
	struct spawn_req req = {
		.path = "/nonexistent/program",
		.argv = argv,
		.cpu = -1,
		.timeout_s = 5,
	};
	struct spawn_res res;
	assert_int_equal(spawn_run(&req, &res), -1);
	/* Nothing to free, but freeing must be harmless. */
	spawn_res_free(&res);
}

/* An orchestrator killed with SIGKILL leaves no running child behind
 * (PR_SET_PDEATHSIG). */
static void test_parent_death_kills_child(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_spawn.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *pidfile = path_join(dir, "pid");
	char *script = xasprintf("echo $$ > '%s.tmp' && mv '%s.tmp' '%s'; exec sleep 100",
				 pidfile, pidfile, pidfile);
	pid_t middle = fork();
	assert_true(middle >= 0);
	if (middle == 0) {
		struct spawn_res res;
		char *argv[4];
		struct spawn_req req = sh_req(script, argv);
		spawn_run(&req, &res);
		_exit(0);
	}
	char *data = NULL;
	size_t len;
	for (int i = 0; i < 500 && read_file(pidfile, &data, &len) != 0; i++)
		usleep(10000);
	assert_non_null(data);
	pid_t child = (pid_t)atoi(data);
	assert_true(child > 1);
	assert_true(process_running(child));
	kill(middle, SIGKILL);
	waitpid(middle, NULL, 0);
	for (int i = 0; i < 200 && process_running(child); i++)
		usleep(10000);
	assert_false(process_running(child));
	free(data);
	free(script);
	free(pidfile);
	rm_rf(dir);
}

/* ---- under the supervisor (proc/contain.h) ---- */

/* A shell that starts a process in a session of its own (setsid), which
 * writes its pid to fd 3 and keeps running; the shell waits until it is
 * up (its "up" line) and then ends as `tail` says. */
#define ESCAPE_SCRIPT(tail) \
	"{ setsid sh -c 'echo $$ >&3; echo up; exec sleep 100 >/dev/null 2>&1' & } " \
	"| head -n1 >/dev/null; " tail

static const char *supervisor_path(void)
{
	static char *path;
	const char *bin = getenv("NGCC_BIN");
	assert_non_null(bin); /* tests/run-tests sets it */
	if (!path)
		path = xasprintf("%s/ngcc-perf-contain", bin);
	return path;
}

static pid_t wait_gone(pid_t pid)
{
	for (int i = 0; i < 200 && process_running(pid); i++)
		usleep(10000);
	return process_running(pid) ? pid : 0;
}

/* A process that left the group and the session is still killed when the
 * program ends, and counted. */
static void test_supervised_escapee_killed(void **state)
{
	(void)state;
	char *argv[4];
	struct spawn_req req = sh_req(ESCAPE_SCRIPT("exit 7"), argv);
	req.supervisor = supervisor_path();
	struct spawn_res res;
	assert_int_equal(spawn_run(&req, &res), 0);
	assert_true(res.exited);
	assert_int_equal(res.exit_code, 7);
	assert_true(res.contained);
	pid_t escapee = (pid_t)atoi(res.result);
	assert_true(escapee > 1);
	assert_int_equal(wait_gone(escapee), 0);
	assert_int_equal(res.strays_killed, 1);
	spawn_res_free(&res);
}

/* Without a supervisor the same escapee survives (what the supervisor is
 * for); the test kills it itself. */
static void test_unsupervised_escapee_survives(void **state)
{
	(void)state;
	char *argv[4];
	struct spawn_req req = sh_req(ESCAPE_SCRIPT("exit 0"), argv);
	struct spawn_res res;
	assert_int_equal(spawn_run(&req, &res), 0);
	pid_t escapee = (pid_t)atoi(res.result);
	assert_true(escapee > 1);
	assert_true(process_running(escapee));
	assert_false(res.contained);
	assert_int_equal(res.strays_killed, 0);
	kill(escapee, SIGKILL);
	spawn_res_free(&res);
}

/* A clean program: nothing killed, its exit and signal passed on. */
static void test_supervised_clean(void **state)
{
	(void)state;
	char *argv[4];
	struct spawn_req req = sh_req("echo hi >&3; kill -SEGV $$", argv);
	req.supervisor = supervisor_path();
	struct spawn_res res;
	assert_int_equal(spawn_run(&req, &res), 0);
	assert_false(res.exited);
	assert_int_equal(res.term_signal, SIGSEGV);
	assert_string_equal(res.result, "hi\n");
	assert_int_equal(res.strays_killed, 0);
	spawn_res_free(&res);
}

/* The timeout ends the program and the escapee, and says timed out. */
static void test_supervised_timeout(void **state)
{
	(void)state;
	char *argv[4];
	struct spawn_req req = sh_req(ESCAPE_SCRIPT("exec sleep 100"), argv);
	req.supervisor = supervisor_path();
	req.timeout_s = 0.5;
	struct spawn_res res;
	assert_int_equal(spawn_run(&req, &res), 0);
	assert_true(res.timed_out);
	assert_false(res.exited);
	assert_int_equal(res.term_signal, SIGKILL);
	pid_t escapee = (pid_t)atoi(res.result);
	assert_true(escapee > 1);
	assert_int_equal(wait_gone(escapee), 0);
	assert_int_equal(res.strays_killed, 1);
	spawn_res_free(&res);
}

/* A program that cannot be executed is reported as before: spawn_run
 * fails, naming the step. */
static void test_supervised_exec_failure(void **state)
{
	(void)state;
	char *argv[] = { "nonexistent", NULL };
	struct spawn_req req = {
		.path = "/nonexistent/program",
		.argv = argv,
		.cpu = -1,
		.timeout_s = 5,
		.supervisor = supervisor_path(),
	};
	struct spawn_res res;
	assert_int_equal(spawn_run(&req, &res), -1);
	spawn_res_free(&res);
}

/* An orchestrator killed with SIGKILL: the supervisor still kills the
 * escapee (its PR_SET_PDEATHSIG is SIGTERM, which it handles). */
static void test_supervised_parent_death(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_spawn.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *pidfile = path_join(dir, "pid");
	char *script = xasprintf(
		"setsid sh -c 'echo $$ > \"%s.tmp\" && mv \"%s.tmp\" \"%s\"; "
		"exec sleep 100 >/dev/null 2>&1' & exec sleep 100",
		pidfile, pidfile, pidfile);
	pid_t middle = fork();
	assert_true(middle >= 0);
	if (middle == 0) {
		struct spawn_res res;
		char *argv[4];
		struct spawn_req req = sh_req(script, argv);
		req.supervisor = supervisor_path();
		spawn_run(&req, &res);
		_exit(0);
	}
	char *data = NULL;
	size_t len;
	for (int i = 0; i < 500 && read_file(pidfile, &data, &len) != 0; i++)
		usleep(10000);
	assert_non_null(data);
	pid_t escapee = (pid_t)atoi(data);
	assert_true(escapee > 1);
	assert_true(process_running(escapee));
	kill(middle, SIGKILL);
	waitpid(middle, NULL, 0);
	pid_t left = wait_gone(escapee);
	if (left)
		kill(left, SIGKILL);
	assert_int_equal(left, 0);
	cgroup_sweep_stale(); /* the dead orchestrator's empty cgroup */
	free(data);
	free(script);
	free(pidfile);
	rm_rf(dir);
}

/* A candidate that kills its supervisor: the program dies with it, and
 * the escapee it had started is still killed and counted, by the child's
 * cgroup (proc/cgroup.h).  Only where cgroups can be made: elsewhere the
 * supervisor is all there is (docs/security.md). */
static void test_supervisor_killed_cgroup_holds(void **state)
{
	(void)state;
	if (!cgroup_available())
		skip();
	char *argv[4];
	struct spawn_req req = sh_req(ESCAPE_SCRIPT("kill -KILL $PPID; exec sleep 100"), argv);
	req.supervisor = supervisor_path();
	struct spawn_res res;
	assert_int_equal(spawn_run(&req, &res), 0);
	assert_false(res.exited);
	assert_int_equal(res.term_signal, SIGKILL);
	pid_t escapee = (pid_t)atoi(res.result);
	assert_true(escapee > 1);
	pid_t left = wait_gone(escapee);
	if (left)
		kill(left, SIGKILL);
	assert_int_equal(left, 0);
	assert_true(res.strays_killed >= 1);
	spawn_res_free(&res);
}

/* RLIMIT_NPROC counts every process of the user: it is the program's,
 * set after the supervisor's fork, which it must not refuse.  Run as an
 * unprivileged user (root is not held to the limit) that has, with us
 * and the supervisor, more processes than the program may have. */
static void test_supervised_nproc_limit(void **state)
{
	(void)state;
	if (getuid() != 0)
		skip(); /* needs to become another user */
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(2);
		char *argv[4];
		/* shell builtins only: under the limit the program cannot fork */
		struct spawn_req req = sh_req(
			"echo ok >&3; while read -r l; do case $l in 'Max processes'*) "
			"set -- $l; echo $3 >&3;; esac; done </proc/self/limits", argv);
		req.supervisor = supervisor_path();
		req.lim.nproc = 1;
		struct spawn_res res;
		if (spawn_run(&req, &res) != 0)
			_exit(3); /* the supervisor could not start the program */
		_exit(res.result && !strcmp(res.result, "ok\n1\n") ? 0 : 4);
	}
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_describe_fraction(void **state)
{
	(void)state;
	struct spawn_res res = { .timed_out = 1 };
	char *d = spawn_describe(&res, 2.5);
	assert_string_equal(d, "timed out after 2.5 s");
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_code),
		cmocka_unit_test(test_signal),
		cmocka_unit_test(test_timeout_kills_group),
		cmocka_unit_test(test_lingering_grandchild_killed),
		cmocka_unit_test(test_result_fd),
		cmocka_unit_test(test_no_result_fd_when_not_wanted),
		cmocka_unit_test(test_chatty_child_tail),
		cmocka_unit_test(test_rlimits_applied),
		cmocka_unit_test(test_fsize_limit_enforced),
		cmocka_unit_test(test_stdin_is_devnull_and_fds_closed),
		cmocka_unit_test(test_cpu_pinning),
		cmocka_unit_test(test_exec_failure),
		cmocka_unit_test(test_parent_death_kills_child),
		cmocka_unit_test(test_describe_fraction),
		cmocka_unit_test(test_supervised_escapee_killed),
		cmocka_unit_test(test_unsupervised_escapee_survives),
		cmocka_unit_test(test_supervised_clean),
		cmocka_unit_test(test_supervised_timeout),
		cmocka_unit_test(test_supervised_exec_failure),
		cmocka_unit_test(test_supervised_parent_death),
		cmocka_unit_test(test_supervised_nproc_limit),
		cmocka_unit_test(test_supervisor_killed_cgroup_holds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
