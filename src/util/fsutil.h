/*
 * fsutil.h — small file-system steps that several writers and readers of
 * the workspace share: a durable rename
 * (fsync of the parent directory), sorted directory listings and the rows
 * of the small `;`-separated tables in the workspace.
 */
#ifndef NGCC_FSUTIL_H
#define NGCC_FSUTIL_H

#include <stddef.h>

#include "util/util.h"

/* fsync the directory holding path, so a rename into it survives a crash;
 * best effort, errors are ignored. */
void fsync_parent_dir(const char *path);

enum dir_pick { DIR_PICK_DIRS, DIR_PICK_FILES };

/* Append the names in dir (no dot files) that are directories or regular
 * files, in byte order.  Returns 0, or -1 with errno set when dir cannot be
 * opened (out is untouched then). */
int dir_list(const char *dir, enum dir_pick pick, struct strlist *out);

/* Append, in byte order, the names of dir's subdirectories that hold the
 * regular file `member` (e.g. "candidate.conf").  0, or -1 with errno set
 * when dir cannot be opened. */
int dir_list_having(const char *dir, const char *member, struct strlist *out);

/* The rows of a small `;`-separated workspace table (systems.csv,
 * kat_issues.csv): blank lines and `#` comments are skipped, each row is
 * split at `;` (empty fields collapse, as strtok does) into at most
 * SEMI_FIELDS fields, missing ones NULL, fields not yet trimmed.  row() is
 * called per row until it returns non-zero.  Returns -1 when the file
 * cannot be read, else the last value row() returned (0 after all rows). */
#define SEMI_FIELDS 4
int semicolon_rows(const char *path, int (*row)(char *f[SEMI_FIELDS], void *ctx), void *ctx);

/* Every regular file below root/rel (rel may be ""), as paths relative to
 * root, in byte order.  Dot files are skipped. */
void tree_list_files(const char *root, const char *rel, struct strlist *out);
/* The same with dot files and dot folders (a package's .gitignore is one
 * of its files).  Each folder is listed in byte order, so the paths are not
 * in byte order as a whole: sl_sort them for that. */
void tree_list_all_files(const char *root, const char *rel, struct strlist *out);
/* The same walk, listing what is neither a regular file nor a folder:
 * symbolic links (never followed), FIFOs, devices, sockets.  A dataset
 * or run directory of ours holds none (docs/security.md). */
void tree_list_unusual(const char *root, const char *rel, struct strlist *out);

#endif
