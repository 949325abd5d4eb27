/* cgroup.c — see cgroup.h. */
#include "proc/cgroup.h"
#include "util/fsutil.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* How long cgroup.kill may take to empty a cgroup. */
#define KILL_WAIT_S 5.0

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static char *base_dir;        /* our cgroup's folder, NULL: cgroups unusable */
static unsigned long next_id;

/* pick() of the first line of path it finds something in (allocated),
 * or NULL. */
static char *first_line(const char *path, char *(*pick)(const char *line))
{
	char *data = NULL;
	size_t len;
	if (read_file(path, &data, &len))
		return NULL;
	char *found = NULL;
	for (char *line = data; line && *line && !found;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		found = pick(line);
		line = nl ? nl + 1 : NULL;
	}
	free(data);
	return found;
}

/* A cgroup2 mount's point, of a line of /proc/self/mountinfo. */
static char *cgroup2_point(const char *line)
{
	/* id parent maj:min root mountpoint options... - fstype source ... */
	char root[512], point[512];
	const char *dash = strstr(line, " - ");
	if (dash && !strncmp(dash + 3, "cgroup2 ", 8) &&
	    sscanf(line, "%*s %*s %*s %511s %511s", root, point) == 2 && !strcmp(root, "/"))
		return xstrdup(point);
	return NULL;
}

/* The path of "0::<path>", a line of /proc/self/cgroup. */
static char *v2_path(const char *line)
{
	return strncmp(line, "0::/", 4) ? NULL : xstrdup(line + 3);
}

/* Can we make a child cgroup with cgroup.kill below dir? */
static int can_make_cgroups(const char *dir)
{
	char *probe = xasprintf("%s/ngcc-perf.%ld.probe", dir, (long)getpid());
	char *kill_file = path_join(probe, "cgroup.kill");
	int ok = mkdir(probe, 0755) == 0;
	if (ok) {
		ok = access(kill_file, W_OK) == 0;
		rmdir(probe);
	}
	free(kill_file);
	free(probe);
	return ok;
}

/* Cgroups of orchestrators that died (SIGKILL) before removing them:
 * whatever is still in them is killed, then they go. */
static void remove_stale(const char *dir)
{
	struct strlist names = STRLIST_INIT;
	dir_list(dir, DIR_PICK_DIRS, &names);
	for (size_t i = 0; i < names.n; i++) {
		long pid;
		unsigned long id;
		char tail;
		if (sscanf(names.items[i], "ngcc-perf.%ld.%lu%c", &pid, &id, &tail) != 2 ||
		    pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		struct child_cgroup cg = { path_join(dir, names.items[i]), NULL };
		cg.procs = path_join(cg.dir, "cgroup.procs");
		cgroup_kill_remove(&cg);
	}
	sl_free(&names);
}

static void probe_cgroups(void)
{
	/* the cgroup2 mount, and our own cgroup below it */
	char *mount = first_line("/proc/self/mountinfo", cgroup2_point);
	char *own = first_line("/proc/self/cgroup", v2_path);
	if (mount && own) {
		char *dir = xasprintf("%s%s", mount, strcmp(own, "/") ? own : "");
		if (can_make_cgroups(dir)) {
			base_dir = dir;
			remove_stale(dir);
		} else {
			free(dir);
		}
	}
	free(mount);
	free(own);
}

void cgroup_sweep_stale(void)
{
	if (cgroup_available())
		remove_stale(base_dir);
}

int cgroup_available(void)
{
	pthread_once(&probe_once, probe_cgroups);
	return base_dir != NULL;
}

int cgroup_create(struct child_cgroup *cg)
{
	memset(cg, 0, sizeof *cg);
	if (!cgroup_available())
		return -1;
	unsigned long id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
	char *dir = xasprintf("%s/ngcc-perf.%ld.%lu", base_dir, (long)getpid(), id);
	if (mkdir(dir, 0755) != 0) {
		free(dir);
		return -1;
	}
	cg->dir = dir;
	cg->procs = path_join(dir, "cgroup.procs");
	return 0;
}

static int count_lines(const char *path)
{
	char *data = NULL;
	size_t len;
	if (read_file(path, &data, &len))
		return -1;
	int n = 0;
	for (size_t i = 0; i < len; i++)
		n += data[i] == '\n';
	free(data);
	return n;
}

static int populated(const char *dir)
{
	char *path = path_join(dir, "cgroup.events"), *data = NULL;
	size_t len;
	int rc = 1;
	if (!read_file(path, &data, &len))
		rc = strstr(data, "populated 0") == NULL;
	else
		rc = 0; /* gone */
	free(data);
	free(path);
	return rc;
}

int cgroup_kill_remove(struct child_cgroup *cg)
{
	if (!cg->dir)
		return 0;
	int n = count_lines(cg->procs);
	char *kill_file = path_join(cg->dir, "cgroup.kill");
	int fd = open(kill_file, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t unused = write(fd, "1", 1);
		(void)unused;
		close(fd);
	}
	free(kill_file);
	double end = mono_now() + KILL_WAIT_S;
	struct timespec tick = { 0, 2000000 };
	while (populated(cg->dir) && mono_now() < end)
		nanosleep(&tick, NULL);
	while (rmdir(cg->dir) != 0 && errno == EBUSY && mono_now() < end)
		nanosleep(&tick, NULL);
	free(cg->dir);
	free(cg->procs);
	cg->dir = cg->procs = NULL;
	return n;
}
