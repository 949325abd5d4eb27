/*
 * atomic.h — every evidence file is written here: <name>.tmp.<pid>, fsync,
 * rename, fsync of the directory, so a reader sees the old file or the new
 * one, never half of one, even if we are killed with SIGKILL.
 */
#ifndef NGCC_ATOMIC_H
#define NGCC_ATOMIC_H

#include <stddef.h>

/* Returns 0, or -1 with errno set (nothing is left behind on failure). */
int atomic_write(const char *path, const void *data, size_t len);

/* Remove "<name>.tmp.<pid>" files in dir whose writer no longer runs. */
void atomic_sweep_stale(const char *dir);

/* Copy the directory tree src to dst (created), every file written
 * atomically.  0, or -1 with errno. */
int tree_copy(const char *src, const char *dst);

#endif
