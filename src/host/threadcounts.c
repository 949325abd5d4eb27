/* threadcounts.c — see threadcounts.h. */
#include "host/threadcounts.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define MIGRATIONS_SCHED "se.nr_migrations of /proc/thread-self/sched"
#define MIGRATIONS_CPU "sched_getcpu() before and after each trial (1 if it changed)"

/* The scheduler's own migration count of this thread when the kernel
 * exposes it (CONFIG_SCHED_DEBUG), else -1. */
static long nr_migrations(void)
{
	FILE *f = fopen("/proc/thread-self/sched", "r");
	char line[256];
	long n = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "se.nr_migrations", 16)) {
			char *colon = strchr(line, ':');
			if (colon)
				n = strtol(colon + 1, NULL, 10);
			break;
		}
	fclose(f);
	return n;
}

void thread_counts_read(struct thread_counts *c)
{
	struct rusage r;
	memset(c, 0, sizeof *c);
	c->nr_migrations = nr_migrations();
	c->cpu = sched_getcpu();
	if (getrusage(RUSAGE_THREAD, &r) == 0) {
		c->invol = r.ru_nivcsw;
		c->vol = r.ru_nvcsw;
		c->minflt = r.ru_minflt;
		c->majflt = r.ru_majflt;
	}
}

long thread_counts_migrations(const struct thread_counts *a, const struct thread_counts *b)
{
	if (a->nr_migrations >= 0 && b->nr_migrations >= 0)
		return b->nr_migrations - a->nr_migrations;
	return a->cpu != b->cpu;
}

const char *thread_counts_migrations_source(void)
{
	return nr_migrations() >= 0 ? MIGRATIONS_SCHED : MIGRATIONS_CPU;
}

