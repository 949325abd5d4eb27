/* atomic.c — see atomic.h. */
#include "util/atomic.h"
#include "util/fsutil.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int atomic_write(const char *path, const void *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	if (write_full(fd, data, len) || fsync(fd)) {
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
	fsync_parent_dir(path);
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

int tree_copy(const char *src, const char *dst)
{
	struct strlist files = STRLIST_INIT;
	int rc = mkdir_p(dst, 0755);
	tree_list_files(src, "", &files);
	for (size_t i = 0; i < files.n && !rc; i++) {
		char *from = path_join(src, files.items[i]);
		char *to = path_join(dst, files.items[i]);
		char *dir = path_dirname(to);
		char *data = NULL;
		size_t len = 0;
		rc = mkdir_p(dir, 0755);
		if (!rc)
			rc = read_file(from, &data, &len);
		if (!rc)
			rc = atomic_write(to, data, len);
		free(data);
		free(dir);
		free(to);
		free(from);
	}
	sl_free(&files);
	return rc;
}
