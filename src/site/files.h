/*
 * files.h — a site is a list of files (path relative to the site root,
 * bytes), built in memory, then written out in one go; every local link of
 * its HTML and SVG files must name one of them.
 */
#ifndef NGCC_SITE_FILES_H
#define NGCC_SITE_FILES_H

#include <stddef.h>

#include "util/util.h"

struct site_file {
	char *path;      /* relative, '/' separated */
	char *data;
	size_t len;
};

struct site_files {
	struct site_file *v;
	size_t n;
};

/* Add a file; takes ownership of data.  A second file with the same path
 * replaces the first. */
void site_files_add(struct site_files *f, const char *path, char *data, size_t len);
void site_files_add_str(struct site_files *f, const char *path, const char *text);
const struct site_file *site_files_find(const struct site_files *f, const char *path);
void site_files_sort(struct site_files *f);   /* by path, byte order */
void site_files_free(struct site_files *f);

/* "../" repeated for each directory level of path. */
char *site_root_of(const char *path);

/* Write the files below dir (created; a previous site there, recognised by
 * its marker file, is removed first; any other non-empty dir is refused).
 * 0, or with *err: EXIT_USAGE when dir is refused, EXIT_SYSTEM when a file
 * cannot be removed or written. */
int site_write(const struct site_files *f, const char *dir, char **err);
#define SITE_MARKER ".ngcc-perf-site"

/* Every local href/src of every HTML and SVG file must name a file of the
 * site (query and fragment ignored).  Returns the number of dangling
 * links; each is appended to problems as "<page>: <link>". */
size_t site_check_links(const struct site_files *f, struct strlist *problems);

#endif
