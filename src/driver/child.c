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

int child_parse_long(const char *s, long min, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min)
		return -1;
	*out = v;
	return 0;
}

int child_parse_hex(const char *hex, unsigned char *out, size_t max, size_t *len)
{
	size_t n = strlen(hex);
	if (n % 2 || n / 2 > max || n == 0)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned int b;
		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (unsigned char)b;
	}
	*len = n / 2;
	return 0;
}

void child_hex(const unsigned char *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
	out[2 * n] = 0;
}

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
