/*
 * untrusted.h — reading input someone else wrote (docs/security.md):
 * files below a root folder opened without leaving it and without
 * following a symbolic link, only regular files read, never blocking on a
 * FIFO or device, sizes bounded; and text from such input made safe to
 * print on a terminal or in a log line.
 *
 * read_file() (util.h) already refuses what is not a regular file and what
 * is larger than READ_FILE_MAX; the functions here add the root.
 */
#ifndef NGCC_UTIL_UNTRUSTED_H
#define NGCC_UTIL_UNTRUSTED_H

#include <stddef.h>

#include "util/util.h"

/* strerror() that also names the refusals of this file: not a regular
 * file, too large (EFBIG), outside its root (EXDEV), a symbolic link
 * (ELOOP). */
const char *io_strerror(int e);

/*
 * Open rel below the folder open as rootfd (or named root) with flags
 * (O_RDONLY, ...; O_CLOEXEC and O_NOCTTY are added).  rel must stay below
 * the root: no absolute path, no ".." that climbs out, and no symbolic
 * link anywhere in rel (the root itself may be reached through links: that
 * is the caller's choice).  -1 with errno: EXDEV for a path that leaves
 * the root, ELOOP for a link.
 *
 * root_openat() uses openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) and,
 * where the kernel lacks it (before Linux 5.6), root_openat_walk(): one
 * component at a time with O_NOFOLLOW.  Both are exported for the tests.
 */
int root_openat(int rootfd, const char *rel, int flags);
int root_openat_walk(int rootfd, const char *rel, int flags);
int root_open(const char *root, const char *rel, int flags);

/* read_file() of rel below root, with root_open()'s rules. */
int root_read_file(const char *root, const char *rel, char **data, size_t *len);
/* The same for a path spelt root/rel (as path_join(root, rel) makes it):
 * EXDEV when path does not start with root. */
int read_file_below(const char *root, const char *path, char **data, size_t *len);
/* root_open() of such a path for reading (O_NONBLOCK); -1 with errno. */
int open_below(const char *root, const char *path);

/* What rel below root is, without following links: 'f' a regular file,
 * 'd' a folder, 'l' a symbolic link, 'o' anything else, 0 when it does not
 * exist or cannot be reached from root without a link. */
int root_kind(const char *root, const char *rel);


/*
 * Text from a candidate or a package, made safe for a terminal and for one
 * log line: control characters (C0 but tab, DEL, C1) and bytes that are not
 * UTF-8 become \xHH; at most max bytes of s are shown (0: no limit), then
 * "…(N bytes more)".  Valid UTF-8 (Chinese path names) stays as it is, and
 * so does the output: escaping twice changes nothing more.
 */
void sb_add_printable(struct strbuf *sb, const char *s, size_t len, size_t max);
char *str_printable(const char *s, size_t max);
/* The same line by line: line breaks are kept, each line is escaped and
 * cut at max bytes (compiler output quoting candidate sources). */
char *str_printable_lines(const char *s, size_t max);
/* 3 if s starts with a UTF-8 byte-order mark (EF BB BF), else 0: text
 * files we read (candidate.conf, kat.sha256, KAT files) skip it, JSON
 * evidence refuses it (docs/security.md). */
size_t utf8_bom_len(const char *s, size_t len);
/* 1 if s has a byte sb_add_printable would escape. */
int str_has_control(const char *s, size_t len);

#endif
