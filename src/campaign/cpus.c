/* cpus.c — see cpus.h: benchmark CPU locks, --cpu auto, housekeeping. */
#include "campaign/cpus.h"
#include "util/interrupt.h"
#include "util/lock.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

void cpus_allowed(cpu_set_t *set)
{
	static cpu_set_t at_start;
	static int known;
	if (!known) {
		CPU_ZERO(&at_start);
		if (sched_getaffinity(0, sizeof at_start, &at_start))
			CPU_SET(0, &at_start);
		known = 1;
	}
	*set = at_start;
}

/* Is cpu's host-wide lock held by some process (ours included)?  A
 * shared, non-blocking attempt on a fresh descriptor answers without
 * waiting; it is dropped at once. */
static int cpu_lock_held(int cpu)
{
	char *path = lock_cpu_path(cpu);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return 0; /* never locked on this host */
	int held = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
	close(fd);
	return held;
}

void cpus_busy(cpu_set_t *busy)
{
	cpu_set_t allowed;
	cpus_allowed(&allowed);
	CPU_ZERO(busy);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed) && cpu_lock_held(c))
			CPU_SET(c, busy);
}

static int highest(const cpu_set_t *set)
{
	for (int c = CPU_SETSIZE - 1; c >= 0; c--)
		if (CPU_ISSET(c, set))
			return c;
	return -1;
}

/* The highest allowed CPU whose lock we get now; -1 if all are busy. */
static int take_free(int *fd)
{
	cpu_set_t allowed;
	cpus_allowed(&allowed);
	for (int c = CPU_SETSIZE - 1; c >= 0; c--) {
		if (!CPU_ISSET(c, &allowed))
			continue;
		char *path = NULL;
		*fd = lock_cpu(c, 0, &path);
		free(path);
		if (*fd >= 0)
			return c;
	}
	return -1;
}

int cpus_take_benchmark(int cpu, const char *phase, int *taken)
{
	char *path = NULL;
	int fd = -1;
	if (cpu == CPU_AUTO) {
		int c = take_free(&fd);
		if (c >= 0) {
			*taken = c;
			return fd;
		}
		cpu_set_t allowed;
		cpus_allowed(&allowed);
		cpu = highest(&allowed);
		fprintf(stderr, "%s: every allowed CPU is measuring for another process; waiting for CPU %d\n",
			phase, cpu);
	}
	fd = lock_cpu(cpu, 0, &path);
	if (fd < 0 && errno == EWOULDBLOCK) {
		char *who = lock_holder(path);
		fprintf(stderr, "%s: benchmark CPU %d is busy: %s holds %s; waiting for it to "
			"finish (or use --cpu N for another CPU)\n", phase, cpu,
			who ? who : "another measuring process", path);
		free(who);
		free(path);
		fd = lock_cpu(cpu, 1, &path);
	}
	if (fd < 0 && !interrupt_pending())
		ngcc_error("%s: cannot lock benchmark CPU %d (%s: %s); check the lock directory "
			   "($NGCC_PERF_LOCK_DIR or /tmp)", phase, cpu, path, strerror(errno));
	free(path);
	*taken = cpu;
	return fd;
}

void cpus_pin_housekeeping(int bench)
{
	cpu_set_t allowed, busy, set;
	cpus_allowed(&allowed);
	cpus_busy(&busy);
	CPU_XOR(&set, &allowed, &busy);
	CPU_AND(&set, &set, &allowed);
	CPU_CLR(bench, &set);
	if (CPU_COUNT(&set) == 0) {
		set = allowed;
		CPU_CLR(bench, &set);
	}
	if (CPU_COUNT(&set) == 0)
		set = allowed;
	sched_setaffinity(0, sizeof set, &set);
}

json_t *cpus_json(const cpu_set_t *set)
{
	json_t *a = json_array();
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, set))
			json_array_append_new(a, json_integer(c));
	return a;
}
