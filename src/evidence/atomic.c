/* atomic.c — see atomic.h. */
#include "evidence/atomic.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void fsync_dir_of(const char *path)
{
	char *dir = path_dirname(path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

int atomic_write(const char *path, const void *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	if (write_all(fd, data, len) || fsync(fd)) {
		int e = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		errno = e;
		return -1;
	}
	close(fd);
	if (rename(tmp, path)) {
		int e = errno;
		unlink(tmp);
		free(tmp);
		errno = e;
		return -1;
	}
	free(tmp);
	fsync_dir_of(path);
	return 0;
}

void atomic_sweep_stale(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *mark = strstr(e->d_name, ".tmp.");
		if (!mark)
			continue;
		char *end;
		long pid = strtol(mark + 5, &end, 10);
		if (*end || pid <= 0)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno == EPERM)
			continue; /* writer still alive */
		char *p = path_join(dir, e->d_name);
		unlink(p);
		free(p);
	}
	closedir(d);
}
