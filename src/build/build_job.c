/* build_job.c — see job.h. */
#include "build/job.h"

#include "evidence/paths.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

/* The compiler's environment: ours, with messages in the C locale so logs
 * and error lines read the same on every host. */
static char **compiler_environ(void)
{
	static char **env;
	if (env)
		return env;
	size_t n = 0;
	while (environ && environ[n])
		n++;
	env = xcalloc(n + 2, sizeof *env);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!str_starts_with(environ[i], "LC_ALL=") &&
		    !str_starts_with(environ[i], "LANGUAGE="))
			env[k++] = environ[i];
	env[k++] = "LC_ALL=C";
	return env;
}

static char **argv_array(const struct strlist *sl)
{
	char **a = xcalloc(sl->n + 1, sizeof *a);
	for (size_t i = 0; i < sl->n; i++)
		a[i] = sl->items[i];
	return a;
}

static void fail_start(struct job *j, const char *what, int err)
{
	j->finished = 1;
	j->exit_code = 127;
	free(j->output);
	j->output = xasprintf("ngcc-perf: cannot run '%s': %s: %s\n",
			      j->argv.n ? j->argv.items[0] : "", what, strerror(err));
}

int job_start(struct job *j)
{
	posix_spawn_file_actions_t fa;
	int rc;

	j->pid = -1;
	j->pidfd = -1;
	j->started = 1;
	j->finished = 0;
	j->out_fd = memfd_create("ngcc-build-output", MFD_CLOEXEC);
	if (j->out_fd < 0) {
		fail_start(j, "memfd_create", errno);
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, j->out_fd, 1);
	posix_spawn_file_actions_adddup2(&fa, j->out_fd, 2);
	if (j->cwd)
		posix_spawn_file_actions_addchdir_np(&fa, j->cwd);
	char **argv = argv_array(&j->argv);
	rc = posix_spawnp(&j->pid, argv[0], &fa, NULL, argv, compiler_environ());
	posix_spawn_file_actions_destroy(&fa);
	free(argv);
	if (rc) {
		close(j->out_fd);
		j->out_fd = -1;
		fail_start(j, "posix_spawnp", rc);
		return -1;
	}
	j->pidfd = open_pidfd(j->pid);
	return 0;
}

static void read_output(struct job *j)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[8192];
	off_t off = 0;
	ssize_t n;

	while ((n = pread(j->out_fd, buf, sizeof buf, off)) > 0) {
		sb_add(&sb, buf, (size_t)n);
		off += n;
	}
	free(j->output);
	j->output = sb_detach(&sb);
}

/* Reap j (it has ended or we block until it does). */
static void reap(struct job *j)
{
	int status = 0;
	pid_t got;
	while ((got = waitpid(j->pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (got < 0) /* e.g. SIGCHLD ignored: never take that for success */
		j->exit_code = 255;
	else if (WIFEXITED(status))
		j->exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		j->exit_code = 128 + WTERMSIG(status);
	else
		j->exit_code = 255;
	j->finished = 1;
	read_output(j);
	close(j->out_fd);
	j->out_fd = -1;
	if (j->pidfd >= 0)
		close(j->pidfd);
	j->pidfd = -1;
}

struct job *job_wait_any(struct job **running, size_t *n)
{
	struct pollfd *pfd = xcalloc(*n ? *n : 1, sizeof *pfd);
	struct job **who = xcalloc(*n ? *n : 1, sizeof *who);
	struct job *done = NULL;
	size_t k = 0;

	for (size_t i = 0; i < *n; i++) {
		struct job *j = running[i];
		if (!j || !j->started || j->finished)
			continue;
		if (j->pidfd < 0) {
			/* No pidfd: block on this one; still correct, less eager. */
			reap(j);
			done = j;
			goto out;
		}
		pfd[k].fd = j->pidfd;
		pfd[k].events = POLLIN;
		who[k++] = j;
	}
	while (k && !done) {
		if (poll(pfd, k, -1) < 0) {
			if (errno == EINTR)
				continue;
			reap(who[0]);
			done = who[0];
			break;
		}
		for (size_t i = 0; i < k; i++)
			if (pfd[i].revents) {
				reap(who[i]);
				done = who[i];
				break;
			}
	}
out:
	for (size_t i = 0; done && i < *n; i++)
		if (running[i] == done) {
			running[i] = running[--*n];
			break;
		}
	free(pfd);
	free(who);
	return done;
}

int job_run_sync(struct job *j)
{
	if (job_start(j))
		return j->exit_code;
	reap(j);
	return j->exit_code;
}

void job_release(struct job *j)
{
	if (j->out_fd >= 0 && j->started && !j->finished) {
		kill(j->pid, SIGKILL);
		reap(j);
	}
	sl_free(&j->argv);
	free(j->output);
	j->output = NULL;
}

static int needs_quotes(const char *s)
{
	if (!*s)
		return 1;
	for (; *s; s++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789-_./=+,:@%", *s) && !((unsigned char)*s & 0x80))
			return 1;
	return 0;
}

char *argv_render(const struct strlist *argv)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < argv->n; i++) {
		const char *a = argv->items[i];
		if (i)
			sb_addc(&sb, ' ');
		if (!needs_quotes(a)) {
			sb_adds(&sb, a);
			continue;
		}
		sb_addc(&sb, '\'');
		for (; *a; a++)
			if (*a == '\'')
				sb_adds(&sb, "'\\''");
			else
				sb_addc(&sb, *a);
		sb_addc(&sb, '\'');
	}
	return sb_detach(&sb);
}

json_t *argv_recorded(const struct strlist *argv)
{
	json_t *a = json_array();
	for (size_t i = 0; i < argv->n; i++) {
		char *s = path_hide_ours(argv->items[i], NULL, NULL);
		json_array_append_new(a, json_string(s));
		free(s);
	}
	return a;
}
