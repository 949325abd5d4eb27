/*
 * hostfs.c — host facts from /sys, /proc and /etc behind one root prefix
 * (tests use a fake tree), cpulist parsing, /proc/cpuinfo fields and the
 * first line of a tool's --version output.
 */
#include "host/hostfs.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/util.h"

#define HOSTFS_MAX_FILE (1 << 20)

static char *hostfs_root;

void hostfs_set_root(const char *root)
{
	free(hostfs_root);
	hostfs_root = root && *root ? xstrdup(root) : NULL;
}

char *hostfs_path(const char *abs_path)
{
	return xasprintf("%s%s", hostfs_root ? hostfs_root : "", abs_path);
}

/* sysfs files report a size of 4096 whatever they hold, so read until EOF
 * instead of trusting st_size. */
static char *read_fd_all(int fd)
{
	struct strbuf sb = STRBUF_INIT;
	char chunk[4096];
	ssize_t n;

	while ((n = read(fd, chunk, sizeof(chunk))) > 0) {
		sb_add(&sb, chunk, (size_t)n);
		if (sb.len > HOSTFS_MAX_FILE)
			break;
	}
	if (n < 0) {
		sb_free(&sb);
		return NULL;
	}
	return sb_detach(&sb);
}

/* Trim blanks, keeping the block's start so it can still be freed. */
static void trim_in_place(char *s)
{
	char *t = str_trim(s);

	memmove(s, t, strlen(t) + 1);
}

char *hostfs_read(const char *abs_path)
{
	char *path = hostfs_path(abs_path), *data;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	free(path);
	if (fd < 0)
		return NULL;
	data = read_fd_all(fd);
	close(fd);
	return data;
}

char *hostfs_line(const char *fmt, ...)
{
	va_list ap;
	char *abs, *data, *nl;

	va_start(ap, fmt);
	abs = xvasprintf(fmt, ap);
	va_end(ap);
	data = hostfs_read(abs);
	free(abs);
	if (!data)
		return NULL;
	nl = strchr(data, '\n');
	if (nl)
		*nl = '\0';
	trim_in_place(data);
	return data;
}

int hostfs_exists(const char *fmt, ...)
{
	va_list ap;
	char *abs, *path;
	struct stat st;
	int ok;

	va_start(ap, fmt);
	abs = xvasprintf(fmt, ap);
	va_end(ap);
	path = hostfs_path(abs);
	ok = stat(path, &st) == 0;
	free(abs);
	free(path);
	return ok;
}

/* Walk "a-b,c" ranges; calls back per range.  -1 on a syntax error. */
static int cpulist_walk(const char *list, void (*range)(long lo, long hi, void *ctx), void *ctx)
{
	const char *p = list;
	char *end;
	long lo, hi;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return 0;
	for (;;) {
		if (!isdigit((unsigned char)*p))
			return -1;
		lo = hi = strtol(p, &end, 10);
		p = end;
		if (*p == '-') {
			if (!isdigit((unsigned char)p[1]))
				return -1;
			hi = strtol(p + 1, &end, 10);
			p = end;
		}
		if (hi < lo)
			return -1;
		range(lo, hi, ctx);
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			return 0;
		if (*p++ != ',')
			return -1;
	}
}

struct cpulist_query {
	long cpu;
	long count;
	int found;
};

static void cpulist_note(long lo, long hi, void *ctx)
{
	struct cpulist_query *q = ctx;

	q->count += hi - lo + 1;
	if (q->cpu >= lo && q->cpu <= hi)
		q->found = 1;
}

int cpulist_contains(const char *list, int cpu)
{
	struct cpulist_query q = { cpu, 0, 0 };

	if (cpulist_walk(list, cpulist_note, &q) < 0)
		return -1;
	return q.found;
}

int cpulist_count(const char *list)
{
	struct cpulist_query q = { -1, 0, 0 };

	if (cpulist_walk(list, cpulist_note, &q) < 0)
		return -1;
	return (int)q.count;
}

/* Split "key\t: value" into trimmed key and value; 0 if the line has one. */
static int cpuinfo_split(char *line, char **key, char **value)
{
	char *colon = strchr(line, ':');

	if (!colon)
		return -1;
	*colon = '\0';
	*key = str_trim(line);
	*value = str_trim(colon + 1);
	return 0;
}

char *cpuinfo_field(int cpu, const char *key)
{
	char *data = hostfs_read("/proc/cpuinfo"), *line, *save = NULL;
	char *k, *v, *mine = NULL, *any = NULL;
	long current = -1;

	if (!data)
		return NULL;
	for (line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (cpuinfo_split(line, &k, &v) < 0)
			continue;
		if (!strcmp(k, "processor")) {
			current = strtol(v, NULL, 10);
			continue;
		}
		if (strcmp(k, key))
			continue;
		if (current == cpu && !mine)
			mine = v;
		if (!any)
			any = v;
	}
	v = mine ? mine : any;
	v = v ? xstrdup(v) : NULL;
	free(data);
	return v;
}

static void exec_version_child(int out_fd, const char *prog, const char *arg)
{
	int null_fd = open("/dev/null", O_RDWR);

	if (null_fd >= 0) {
		dup2(null_fd, STDIN_FILENO);
		dup2(null_fd, STDERR_FILENO);
	}
	dup2(out_fd, STDOUT_FILENO);
	execlp(prog, prog, arg, (char *)NULL);
	_exit(127);
}

char *first_line_of_command(const char *prog, const char *arg)
{
	int fds[2], status;
	pid_t pid;
	char *out, *nl;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return NULL;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	if (pid == 0)
		exec_version_child(fds[1], prog, arg);
	close(fds[1]);
	out = read_fd_all(fds[0]);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			free(out);
			return NULL;
		}
	}
	if (!out || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || !*out) {
		free(out);
		return NULL;
	}
	nl = strchr(out, '\n');
	if (nl)
		*nl = '\0';
	trim_in_place(out);
	return out;
}
