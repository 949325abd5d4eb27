/* extract.c — see extract.h. */
#include "package/extract.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fsutil.h"
#include "util/untrusted.h"

static const char *const archive_exts[] = {
	".zip", ".rar", ".7z", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", NULL
};

int package_is_archive(const char *path)
{
	for (const char *const *e = archive_exts; *e; e++)
		if (str_ends_with_ci(path, *e))
			return 1;
	return 0;
}

/* "foo.tar.gz" -> "foo": the folder a nested archive is unpacked into. */
static char *strip_archive_ext(const char *name)
{
	size_t best = 0;
	for (const char *const *e = archive_exts; *e; e++)
		if (str_ends_with_ci(name, *e) && strlen(*e) > best)
			best = strlen(*e);
	size_t n = strlen(name) - best;
	return n ? xstrndup(name, n) : xstrdup("archive");
}

static unsigned long long max_bytes(const struct import_opts *o)
{
	return o && o->max_bytes ? o->max_bytes : IMPORT_DEFAULT_MAX_BYTES;
}

static int max_depth(const struct import_opts *o)
{
	return o && o->max_depth ? o->max_depth : IMPORT_DEFAULT_MAX_DEPTH;
}

static enum import_status too_big(const char *where, const struct import_opts *o, char **err)
{
	*err = xasprintf("package exceeds the size limit of %llu bytes at '%s' "
			 "(a zip bomb, or a package far larger than any submission); refusing",
			 max_bytes(o), where);
	return IMPORT_BAD_INPUT;
}

/* Count n more bytes of the package against the size limit, then write
 * them to dst (open as fd). */
static enum import_status store_chunk(int fd, const void *buf, size_t n, const char *dst,
				      const char *rel, const struct import_opts *o,
				      struct import_result *res, char **err)
{
	res->bytes += (unsigned long long)n;
	if (res->bytes > max_bytes(o))
		return too_big(rel, o, err);
	if (write_full(fd, buf, n)) {
		*err = xasprintf("cannot write '%s': %s", dst, strerror(errno));
		return IMPORT_SYSTEM;
	}
	return IMPORT_OK;
}

/* Create a regular file we own; never through a symlink planted earlier. */
static int create_file(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
}

/* A name with a control character (a line break, an escape) cannot be
 * recorded in candidate.conf nor shown safely: such files are skipped with
 * a note.  Bytes >= 0x80 are kept (GBK or UTF-8 Chinese names). */
static int has_control(const char *name)
{
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 1;
	return 0;
}

static void note_control(struct import_result *res, const char *rel, const char *where)
{
	char *shown = str_printable(rel, 200);
	sl_push_owned(&res->notes, xasprintf("skipped '%s'%s%s: its name has a control character "
					     "(line break, escape), which candidate.conf cannot hold",
					     shown, where ? " in " : "", where ? where : ""));
	free(shown);
}

/* ---- folders ---- */

static enum import_status copy_regular(const char *src, const char *dst, const char *rel,
				       const struct import_opts *o, struct import_result *res,
				       char **err)
{
	int in = open(src, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (in < 0) {
		*err = xasprintf("cannot read '%s': %s", src, strerror(errno));
		return IMPORT_BAD_INPUT;
	}
	int out = create_file(dst);
	if (out < 0) {
		*err = xasprintf("cannot create '%s': %s", dst, strerror(errno));
		close(in);
		return IMPORT_SYSTEM;
	}
	enum import_status st = IMPORT_OK;
	char buf[65536];
	for (;;) {
		ssize_t n = read(in, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*err = xasprintf("cannot read '%s': %s", src, strerror(errno));
			st = IMPORT_BAD_INPUT;
			break;
		}
		if (n == 0)
			break;
		st = store_chunk(out, buf, (size_t)n, dst, rel, o, res, err);
		if (st != IMPORT_OK)
			break;
	}
	close(in);
	if (close(out) && st == IMPORT_OK) {
		*err = xasprintf("cannot write '%s': %s", dst, strerror(errno));
		st = IMPORT_SYSTEM;
	}
	if (st == IMPORT_OK)
		res->files++;
	return st;
}

static void list_dir_sorted(const char *dir, struct strlist *names)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			sl_push(names, e->d_name);
	closedir(d);
	sl_sort(names);
}

static enum import_status copy_tree(const char *src, const char *dst, const char *rel,
				    const struct import_opts *o, struct import_result *res,
				    char **err)
{
	if (mkdir_p(dst, 0755)) {
		*err = xasprintf("cannot create '%s': %s", dst, strerror(errno));
		return IMPORT_SYSTEM;
	}
	struct strlist names = STRLIST_INIT;
	list_dir_sorted(src, &names);
	enum import_status st = IMPORT_OK;
	for (size_t i = 0; i < names.n && st == IMPORT_OK; i++) {
		char *s = path_join(src, names.items[i]);
		char *d = path_join(dst, names.items[i]);
		char *r = path_join(rel, names.items[i]);
		struct stat sb;
		if (lstat(s, &sb)) {
			*err = xasprintf("cannot read '%s': %s", s, strerror(errno));
			st = IMPORT_BAD_INPUT;
		} else if (has_control(names.items[i])) {
			note_control(res, r, NULL);
		} else if (S_ISLNK(sb.st_mode)) {
			sl_push_owned(&res->notes, xasprintf("skipped symlink '%s' (symlinks are never followed)", r));
		} else if (S_ISDIR(sb.st_mode)) {
			st = copy_tree(s, d, r, o, res, err);
		} else if (S_ISREG(sb.st_mode)) {
			st = copy_regular(s, d, r, o, res, err);
		} else {
			sl_push_owned(&res->notes, xasprintf("skipped special file '%s'", r));
		}
		free(s);
		free(d);
		free(r);
	}
	sl_free(&names);
	return st;
}

/* ---- archives ---- */

/*
 * Turn an archive entry name into a safe relative path, or explain why not.
 * Backslashes count as separators (archives made on Windows); "." and empty
 * components vanish; ".." and absolute names are refused outright rather
 * than "repaired", because a package that tries them is not trustworthy.
 */
static char *safe_entry_path(const char *name, char **why)
{
	char *copy = xstrdup(name);
	for (char *p = copy; *p; p++)
		if (*p == '\\')
			*p = '/';
	*why = NULL;
	if (copy[0] == '/' || (copy[0] && copy[1] == ':'))
		*why = xasprintf("archive entry '%s' is an absolute path", name);
	struct strbuf sb = STRBUF_INIT;
	for (char *save = NULL, *part = strtok_r(copy, "/", &save); part && !*why;
	     part = strtok_r(NULL, "/", &save)) {
		if (!strcmp(part, "."))
			continue;
		if (!strcmp(part, ".."))
			*why = xasprintf("archive entry '%s' has a '..' component and would land "
					 "outside the package folder", name);
		if (sb.len)
			sb_addc(&sb, '/');
		sb_adds(&sb, part);
	}
	free(copy);
	if (*why) {
		sb_free(&sb);
		return NULL;
	}
	return sb_detach(&sb);
}

static int is_mac_metadata(const char *rel)
{
	return str_starts_with(rel, "__MACOSX/") || !strcmp(rel, "__MACOSX") ||
	       strstr(rel, "/__MACOSX/") != NULL;
}

/* libarchive's reason, or ours when it gives none (a zip cut between
 * entries fails without one). */
static const char *la_error(struct archive *a)
{
	const char *s = archive_error_string(a);
	return s ? s : "the archive ends early or is damaged (libarchive gives no detail)";
}

static enum import_status write_entry_data(struct archive *a, const char *archive_path,
					   const char *dst, const char *rel,
					   const struct import_opts *o,
					   struct import_result *res, char **err)
{
	char *dir = path_dirname(dst);
	int mk = mkdir_p(dir, 0755);
	free(dir);
	int fd = mk ? -1 : create_file(dst);
	if (fd < 0) {
		*err = xasprintf("cannot create '%s' from archive '%s': %s (does the archive hold "
				 "a file and a folder of the same name?)", dst, archive_path, strerror(errno));
		return IMPORT_BAD_INPUT;
	}
	enum import_status st = IMPORT_OK;
	char buf[65536];
	for (;;) {
		la_ssize_t n = archive_read_data(a, buf, sizeof buf);
		if (n < 0) {
			*err = xasprintf("cannot read entry '%s' of '%s': %s", rel, archive_path,
					 la_error(a));
			st = IMPORT_UNREADABLE;
			break;
		}
		if (n == 0)
			break;
		st = store_chunk(fd, buf, (size_t)n, dst, rel, o, res, err);
		if (st != IMPORT_OK)
			break;
	}
	if (close(fd) && st == IMPORT_OK) {
		*err = xasprintf("cannot write '%s': %s", dst, strerror(errno));
		st = IMPORT_SYSTEM;
	}
	if (st == IMPORT_OK)
		res->files++;
	return st;
}

/*
 * A tar ends with at least one 512-byte block of zeros; libarchive reports
 * a tar cut exactly between two entries as a clean end.  Reading the end
 * marker moves the stream by 512 bytes or more (entry padding is less), so
 * a tar whose end consumed less was cut.  before: the stream position
 * before the header read that reported the end.
 */
static int tar_cut_at_boundary(struct archive *a, la_int64_t before)
{
	if ((archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) != ARCHIVE_FORMAT_TAR)
		return 0;
	return archive_filter_bytes(a, 0) - before < 512;
}

static const char *entry_name(struct archive_entry *e)
{
	const char *n = archive_entry_pathname_utf8(e);
	return n ? n : archive_entry_pathname(e);
}

static enum import_status extract_entry(struct archive *a, struct archive_entry *e,
					const char *archive_path, const char *dest,
					const struct import_opts *o, struct import_result *res,
					char **err)
{
	const char *name = entry_name(e);
	if (!name || !*name) {
		sl_push_owned(&res->notes, xasprintf("skipped an unnamed entry of '%s'", archive_path));
		return IMPORT_OK;
	}
	char *why;
	char *rel = safe_entry_path(name, &why);
	if (!rel) {
		*err = xasprintf("%s in '%s'; refusing the whole package", why, archive_path);
		free(why);
		return IMPORT_BAD_INPUT;
	}
	enum import_status st = IMPORT_OK;
	mode_t type = archive_entry_filetype(e);
	char *dst = path_join(dest, rel);
	if (!*rel || is_mac_metadata(rel)) {
		/* the archive's root, or Finder metadata: nothing to keep */
	} else if (has_control(rel)) {
		note_control(res, rel, archive_path);
	} else if (type == AE_IFLNK || archive_entry_hardlink(e)) {
		sl_push_owned(&res->notes, xasprintf("skipped link '%s' in '%s' (links are never followed)",
						     rel, archive_path));
	} else if (type == AE_IFDIR) {
		if (mkdir_p(dst, 0755)) {
			*err = xasprintf("cannot create folder '%s': %s", dst, strerror(errno));
			st = IMPORT_BAD_INPUT;
		}
	} else if (type == AE_IFREG || type == 0) {
		st = write_entry_data(a, archive_path, dst, rel, o, res, err);
	} else {
		sl_push_owned(&res->notes, xasprintf("skipped special entry '%s' in '%s'", rel, archive_path));
	}
	free(dst);
	free(rel);
	return st;
}

enum import_status archive_extract(const char *archive_path, const char *dest,
				   const struct import_opts *o, struct import_result *res,
				   char **err)
{
	struct archive *a = archive_read_new();
	archive_read_support_filter_all(a);
	archive_read_support_format_all(a);
	if (archive_read_open_filename(a, archive_path, 65536) != ARCHIVE_OK) {
		*err = xasprintf("cannot read archive '%s': %s", archive_path, la_error(a));
		archive_read_free(a);
		return IMPORT_UNREADABLE;
	}
	if (mkdir_p(dest, 0755)) {
		*err = xasprintf("cannot create '%s': %s", dest, strerror(errno));
		archive_read_free(a);
		return IMPORT_SYSTEM;
	}
	enum import_status st = IMPORT_OK;
	size_t entries = 0;
	for (;;) {
		struct archive_entry *e;
		la_int64_t before = archive_filter_bytes(a, 0);
		int r = archive_read_next_header(a, &e);
		if (r == ARCHIVE_EOF && entries && tar_cut_at_boundary(a, before)) {
			*err = xasprintf("archive '%s' ends after %zu entries without the tar end "
					 "marker: it was cut short (download it again)",
					 archive_path, entries);
			st = IMPORT_UNREADABLE;
			break;
		}
		if (r == ARCHIVE_EOF)
			break;
		if (r < ARCHIVE_WARN) {
			*err = xasprintf("cannot read archive '%s' (after %zu entries): %s",
					 archive_path, entries, la_error(a));
			st = IMPORT_UNREADABLE;
			break;
		}
		entries++;
		st = extract_entry(a, e, archive_path, dest, o, res, err);
		if (st != IMPORT_OK)
			break;
	}
	if (st == IMPORT_OK && !entries) {
		*err = xasprintf("archive '%s' is empty or not an archive", archive_path);
		st = IMPORT_UNREADABLE;
	}
	archive_read_free(a);
	return st;
}

/* ---- nested archives ---- */

/* Unpack every archive below dir into a sibling folder named after it.
 * A nested archive that cannot be read is noted and left alone (the rest of
 * the package may still be usable, and a .zip may be a data file); a path
 * escape or the size cap is fatal. */
static enum import_status unpack_nested(const char *dir, const char *rel, int depth,
					const struct import_opts *o, struct import_result *res,
					char **err)
{
	struct strlist names = STRLIST_INIT;
	list_dir_sorted(dir, &names);
	enum import_status st = IMPORT_OK;
	for (size_t i = 0; i < names.n && st == IMPORT_OK; i++) {
		char *p = path_join(dir, names.items[i]);
		char *r = path_join(rel, names.items[i]);
		struct stat sb;
		if (!lstat(p, &sb) && S_ISDIR(sb.st_mode)) {
			st = unpack_nested(p, r, depth, o, res, err);
		} else if (!lstat(p, &sb) && S_ISREG(sb.st_mode) && package_is_archive(p)) {
			if (depth >= max_depth(o)) {
				sl_push_owned(&res->notes, xasprintf("nested archive '%s' not unpacked "
								     "(more than %d levels deep)", r, max_depth(o)));
			} else {
				char *base = strip_archive_ext(names.items[i]);
				char *target = path_join(dir, base);
				if (path_exists(target)) {
					free(target);
					target = xasprintf("%s/%s.extracted", dir, base);
				}
				char *rtarget = path_relative(dir, target);
				char *nested_err = NULL;
				if (path_exists(target)) {
					sl_push_owned(&res->notes, xasprintf("nested archive '%s' not unpacked: "
									     "'%s' exists", r, target));
				} else {
					st = archive_extract(p, target, o, res, &nested_err);
					if (st == IMPORT_OK) {
						res->nested++;
						sl_push_owned(&res->notes, xasprintf("unpacked nested archive '%s' "
										     "into '%s/'", r, rtarget));
						char *rsub = path_join(rel, rtarget);
						st = unpack_nested(target, rsub, depth + 1, o, res, err);
						free(rsub);
					} else if (st == IMPORT_UNREADABLE) {
						sl_push_owned(&res->notes, xasprintf("nested archive '%s' not "
										     "unpacked: %s", r, nested_err));
						rm_rf(target);
						st = IMPORT_OK;
					} else {
						*err = nested_err;
						nested_err = NULL;
					}
				}
				free(nested_err);
				free(rtarget);
				free(base);
				free(target);
			}
		}
		free(p);
		free(r);
	}
	sl_free(&names);
	return st;
}

/* Whether dest (not yet created) lies inside the folder src: copying src
 * would then copy its own copy, without end.  dest's nearest existing
 * ancestor decides. */
static int dest_inside(const char *src, const char *dest)
{
	char *at = path_absolute(dest), *real = NULL;
	while (!(real = realpath(at, NULL)) && strcmp(at, "/")) {
		char *up = path_dirname(at);
		free(at);
		at = up;
	}
	char *rs = realpath(src, NULL);
	size_t n = rs ? strlen(rs) : 0;
	int inside = rs && real && !strncmp(real, rs, n) && (real[n] == '/' || !real[n] || n == 1);
	free(rs);
	free(real);
	free(at);
	return inside;
}

enum import_status package_import(const char *src, const char *dest,
				  const struct import_opts *o, struct import_result *res,
				  char **err)
{
	*err = NULL;
	struct stat sb;
	if (stat(src, &sb)) {
		*err = xasprintf("package '%s' not found: %s", src, strerror(errno));
		return IMPORT_BAD_INPUT;
	}
	enum import_status st;
	if (S_ISDIR(sb.st_mode) && dest_inside(src, dest)) {
		*err = xasprintf("package folder '%s' contains the workspace folder '%s' it would be "
				 "copied into; give the package folder itself, or use a workspace "
				 "outside it (-C)", src, dest);
		return IMPORT_BAD_INPUT;
	}
	if (S_ISDIR(sb.st_mode))
		st = copy_tree(src, dest, "", o, res, err);
	else if (S_ISREG(sb.st_mode))
		st = archive_extract(src, dest, o, res, err);
	else {
		*err = xasprintf("package '%s' is neither a folder nor an archive file", src);
		return IMPORT_BAD_INPUT;
	}
	if (st == IMPORT_OK)
		st = unpack_nested(dest, "", 1, o, res, err);
	return st;
}

void import_result_free(struct import_result *res)
{
	sl_free(&res->notes);
	memset(res, 0, sizeof(*res));
}
