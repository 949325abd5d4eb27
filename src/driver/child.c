/* child.c — see child.h. */
#include "driver/child.h"

#include "proc/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void child_pin_cpu(const char *prog, int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set))
		fprintf(stderr, "%s: cannot pin to CPU %d: %s\n", prog, cpu, strerror(errno));
}

int child_hide_result_fd(void)
{
	if (fcntl(SPAWN_RESULT_FD, F_GETFD) < 0)
		return -1;
	int fd = fcntl(SPAWN_RESULT_FD, F_DUPFD_CLOEXEC, 64);
	if (fd < 0)
		return SPAWN_RESULT_FD;
	close(SPAWN_RESULT_FD);
	return fd;
}

static void write_all(int fd, const char *s, size_t len)
{
	size_t off = 0;
	while (off < len) {
		ssize_t n = write(fd, s + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		off += (size_t)n;
	}
}

void child_write_result(const char *prog, int fd, const json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	if (!s)
		return;
	if (fd < 0) {
		fprintf(stderr, "%s: fd %d is not open; result not written\n", prog, SPAWN_RESULT_FD);
	} else {
		write_all(fd, s, strlen(s));
		write_all(fd, "\n", 1);
	}
	free(s);
}
