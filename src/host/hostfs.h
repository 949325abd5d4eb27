/*
 * hostfs.h — reading the host's /sys, /proc and /etc facts through one
 * root prefix, so tests can point every read at a fake tree under /tmp.
 */
#ifndef NGCC_HOST_HOSTFS_H
#define NGCC_HOST_HOSTFS_H

#include <stddef.h>

/* Prefix for every absolute path below ("" = the real host).  For tests
 * only; NULL restores the real host.  The string is copied. */
void hostfs_set_root(const char *root);
/* root + abs_path; caller frees. */
char *hostfs_path(const char *abs_path);

/* Whole file (NUL-terminated, at most 1 MiB) or NULL if absent/unreadable. */
char *hostfs_read(const char *abs_path);
/* First line, blanks trimmed, or NULL.  printf-style path. */
char *hostfs_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int hostfs_exists(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "0-3,8,10-11" contains cpu?  -1 if the list does not parse. */
int cpulist_contains(const char *list, int cpu);
/* Number of CPUs in the list, -1 if it does not parse. */
int cpulist_count(const char *list);

/* The "key : value" field of /proc/cpuinfo's block for `cpu` (or the
 * first block carrying the key when the blocks lack it, as on some arm
 * kernels).  NULL if absent. */
char *cpuinfo_field(int cpu, const char *key);

/* First line of `prog arg` stdout (run with fork/exec, no shell), NULL if
 * it cannot run. */
char *first_line_of_command(const char *prog, const char *arg);

#endif
