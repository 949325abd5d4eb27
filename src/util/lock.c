/* lock.c — see lock.h. */
#include "util/lock.h"
#include "util/interrupt.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

int lock_path(const char *path, int exclusive, int wait)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		return -1;
	int op = (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB);
	while (flock(fd, op)) {
		if (errno == EINTR && !interrupt_pending())
			continue;
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

void lock_release(int fd)
{
	if (fd >= 0)
		close(fd); /* closing drops the flock */
}

/* Our command line, arguments joined by spaces (at most `cap` bytes). */
static char *own_command(size_t cap)
{
	char *raw = NULL;
	size_t len = 0;
	if (read_file("/proc/self/cmdline", &raw, &len) || !len) {
		free(raw);
		return xstrdup("?");
	}
	for (size_t i = 0; i + 1 < len; i++)
		if (!raw[i])
			raw[i] = ' ';
	if (strlen(raw) > cap)
		strcpy(raw + cap - 3, "...");
	return raw;
}

/* The holder writes who it is into the lock file, for the message of a
 * process that finds the CPU busy.  Best effort: the lock itself is the
 * flock, not this text. */
static void write_holder(int fd)
{
	char *cmd = own_command(300);
	char *text = xasprintf("%ld %s\n", (long)getpid(), cmd);
	if (ftruncate(fd, 0) == 0 && pwrite(fd, text, strlen(text), 0) < 0)
		errno = 0;
	free(text);
	free(cmd);
}

char *lock_holder(const char *path)
{
	char *text = NULL;
	size_t len = 0;
	if (read_file(path, &text, &len) || !len) {
		free(text);
		return NULL;
	}
	text[strcspn(text, "\n")] = '\0';
	char *end = NULL;
	long pid = strtol(text, &end, 10);
	char *proc = xasprintf("/proc/%ld", pid);
	char *who = NULL;
	if (pid > 0 && end && *end == ' ' && path_is_dir(proc))
		who = xasprintf("pid %ld: %s", pid, end + 1);
	free(proc);
	free(text);
	return who;
}

char *lock_cpu_path(int cpu)
{
	const char *dir = getenv("NGCC_PERF_LOCK_DIR");
	return xasprintf("%s/ngcc-perf-cpu%d.lock", dir && *dir ? dir : "/tmp", cpu);
}

int lock_cpu(int cpu, int wait, char **path)
{
	*path = lock_cpu_path(cpu);
	int fd = lock_path(*path, 1, wait);
	if (fd >= 0)
		write_holder(fd);
	return fd;
}
