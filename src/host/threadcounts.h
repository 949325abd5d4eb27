/*
 * threadcounts.h — the calling thread's scheduling counts, read around a
 * timed trial (the timing driver) and around a window of the background
 * probe (host/background.c): involuntary and voluntary context switches,
 * page faults (getrusage RUSAGE_THREAD) and migrations.
 */
#ifndef NGCC_HOST_THREADCOUNTS_H
#define NGCC_HOST_THREADCOUNTS_H

struct thread_counts {
	long invol, vol, minflt, majflt;
	long nr_migrations;   /* -1: the kernel does not expose it */
	int cpu;              /* sched_getcpu() when read */
};

void thread_counts_read(struct thread_counts *c);
/* Migrations between two reads: the scheduler's own count
 * (se.nr_migrations of /proc/thread-self/sched, CONFIG_SCHED_DEBUG) when
 * available, else whether the CPU changed. */
long thread_counts_migrations(const struct thread_counts *a, const struct thread_counts *b);
/* The static name of the migration source this kernel gives. */
const char *thread_counts_migrations_source(void);

#endif
