/*
 * lock.h — flock(2) locks on close-on-exec descriptors (docs/method.md §11.2, §13):
 * they vanish with the process that holds them, so an orchestrator killed
 * with SIGKILL leaves no stale lock, and no child inherits one.
 */
#ifndef NGCC_LOCK_H
#define NGCC_LOCK_H

/* Open (creating) path and lock it.  exclusive: LOCK_EX, else LOCK_SH.
 * wait: block until granted, else fail at once with errno EWOULDBLOCK.
 * Returns the descriptor, or -1 with errno. */
int lock_path(const char *path, int exclusive, int wait);
void lock_release(int fd);

/* The host-wide lock of benchmark CPU `cpu` (outside any run directory, so
 * separate runs exclude each other): $NGCC_PERF_LOCK_DIR or /tmp, file
 * ngcc-perf-cpu<N>.lock.  *path gets the lock's path (malloc'd) for
 * messages.  wait: block until the CPU is free. */
int lock_cpu(int cpu, int wait, char **path);
/* Who holds the CPU lock at path, as its holder wrote it:
 * "pid 1234: ngcc-perf -C ws measure ...", or NULL when unknown (an old
 * holder, or one no longer running). */
char *lock_holder(const char *path);
/* That lock's path (malloc'd). */
char *lock_cpu_path(int cpu);

#endif
