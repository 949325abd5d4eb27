/* lock.c — see lock.h. */
#include "util/lock.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>

int lock_path(const char *path, int exclusive, int wait)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		return -1;
	int op = (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB);
	while (flock(fd, op)) {
		if (errno == EINTR)
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

int lock_cpu(int cpu, int wait, char **path)
{
	const char *dir = getenv("NGCC_PERF_LOCK_DIR");
	*path = xasprintf("%s/ngcc-perf-cpu%d.lock", dir && *dir ? dir : "/tmp", cpu);
	return lock_path(*path, 1, wait);
}
