/* util.c — see util.h. */
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *progname = "ngcc-perf";

void ngcc_set_progname(const char *name) { progname = name; }

static void vmessage(const char *kind, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s: ", progname, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void ngcc_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("error", fmt, ap);
	va_end(ap);
}

void ngcc_warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("warning", fmt, ap);
	va_end(ap);
}

void ngcc_die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage("error", fmt, ap);
	va_end(ap);
	exit(code);
}

static void *check_alloc(void *p)
{
	if (!p) {
		fprintf(stderr, "%s: error: out of memory\n", progname);
		exit(EXIT_SYSTEM);
	}
	return p;
}

void *xmalloc(size_t n) { return check_alloc(malloc(n ? n : 1)); }
void *xcalloc(size_t n, size_t size) { return check_alloc(calloc(n ? n : 1, size ? size : 1)); }
void *xrealloc(void *p, size_t n) { return check_alloc(realloc(p, n ? n : 1)); }
char *xstrdup(const char *s) { return check_alloc(strdup(s)); }
char *xstrndup(const char *s, size_t n) { return check_alloc(strndup(s, n)); }

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0)
		check_alloc(NULL);
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

/* ---- strbuf ---- */

static void sb_grow(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->cap)
		return;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < sb->len + extra + 1)
		cap *= 2;
	sb->buf = xrealloc(sb->buf, cap);
	sb->cap = cap;
}

void sb_add(struct strbuf *sb, const void *data, size_t len)
{
	sb_grow(sb, len);
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void sb_adds(struct strbuf *sb, const char *s) { sb_add(sb, s, strlen(s)); }
void sb_addc(struct strbuf *sb, char c) { sb_add(sb, &c, 1); }

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	sb_adds(sb, s);
	free(s);
}

char *sb_detach(struct strbuf *sb)
{
	if (!sb->buf)
		sb_grow(sb, 0), sb->buf[0] = '\0';
	char *s = sb->buf;
	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return s;
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void sb_free(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

/* ---- strlist ---- */

void sl_push_owned(struct strlist *sl, char *s)
{
	if (sl->n == sl->cap) {
		sl->cap = sl->cap ? sl->cap * 2 : 8;
		sl->items = xrealloc(sl->items, sl->cap * sizeof(*sl->items));
	}
	sl->items[sl->n++] = s;
}

void sl_push(struct strlist *sl, const char *s) { sl_push_owned(sl, xstrdup(s)); }

int sl_contains(const struct strlist *sl, const char *s)
{
	for (size_t i = 0; i < sl->n; i++)
		if (!strcmp(sl->items[i], s))
			return 1;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void sl_sort(struct strlist *sl)
{
	if (sl->n > 1)
		qsort(sl->items, sl->n, sizeof(*sl->items), cmp_str);
}

void sl_free(struct strlist *sl)
{
	for (size_t i = 0; i < sl->n; i++)
		free(sl->items[i]);
	free(sl->items);
	sl->items = NULL;
	sl->n = sl->cap = 0;
}

/* ---- paths ---- */

char *path_join(const char *a, const char *b)
{
	if (!a || !*a)
		return xstrdup(b);
	if (!b || !*b)
		return xstrdup(a);
	size_t la = strlen(a);
	return xasprintf("%s%s%s", a, a[la - 1] == '/' ? "" : "/", b);
}

char *path_joinf(const char *dir, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *rel = xvasprintf(fmt, ap);
	va_end(ap);
	char *p = path_join(dir, rel);
	free(rel);
	return p;
}

char *path_dirname(const char *p)
{
	const char *slash = strrchr(p, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == p)
		return xstrdup("/");
	return xstrndup(p, (size_t)(slash - p));
}

const char *path_basename(const char *p)
{
	const char *slash = strrchr(p, '/');
	return slash ? slash + 1 : p;
}

int path_exists(const char *p)
{
	struct stat st;
	return lstat(p, &st) == 0;
}

int path_is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int path_is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int mkdir_p(const char *path, mode_t mode)
{
	char *tmp = xstrdup(path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) && errno != EEXIST) {
			free(tmp);
			return -1;
		}
		*p = '/';
	}
	int rc = mkdir(tmp, mode);
	free(tmp);
	if (rc && errno == EEXIST && path_is_dir(path))
		return 0;
	return rc;
}

int rm_rf(const char *path)
{
	struct stat st;
	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *e;
	int rc = 0;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *child = path_join(path, e->d_name);
		if (rm_rf(child))
			rc = -1;
		free(child);
	}
	closedir(d);
	if (rmdir(path))
		rc = -1;
	return rc;
}

/* Split a normalised path into components. */
static void split_path(const char *p, struct strlist *out)
{
	const char *s = p;
	while (*s) {
		while (*s == '/')
			s++;
		const char *e = s;
		while (*e && *e != '/')
			e++;
		if (e > s) {
			char *part = xstrndup(s, (size_t)(e - s));
			if (!strcmp(part, ".")) {
				free(part);
			} else if (!strcmp(part, "..") && out->n &&
				   strcmp(out->items[out->n - 1], "..")) {
				free(part);
				free(out->items[--out->n]);
			} else {
				sl_push_owned(out, part);
			}
		}
		s = e;
	}
}

char *path_resolve(const char *base, const char *p)
{
	if (p[0] == '/')
		return xstrdup(p);
	char *joined = path_join(base, p);
	char *abs = path_absolute(joined);
	free(joined);
	return abs;
}

char *path_absolute(const char *p)
{
	char *joined;
	if (p[0] == '/') {
		joined = xstrdup(p);
	} else {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof cwd))
			return xstrdup(p);
		joined = path_join(cwd, p);
	}
	struct strlist parts = STRLIST_INIT;
	split_path(joined, &parts);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < parts.n; i++) {
		if (!strcmp(parts.items[i], ".."))
			continue; /* above the root */
		sb_addc(&sb, '/');
		sb_adds(&sb, parts.items[i]);
	}
	if (!sb.len)
		sb_addc(&sb, '/');
	sl_free(&parts);
	free(joined);
	return sb_detach(&sb);
}

char *path_relative(const char *base, const char *p)
{
	char *ab = path_absolute(base), *ap = path_absolute(p);
	struct strlist b = STRLIST_INIT, t = STRLIST_INIT;
	split_path(ab, &b);
	split_path(ap, &t);
	size_t i = 0;
	while (i < b.n && i < t.n && !strcmp(b.items[i], t.items[i]))
		i++;
	struct strbuf sb = STRBUF_INIT;
	for (size_t k = i; k < b.n; k++)
		sb_adds(&sb, sb.len ? "/.." : "..");
	for (size_t k = i; k < t.n; k++) {
		if (sb.len)
			sb_addc(&sb, '/');
		sb_adds(&sb, t.items[k]);
	}
	if (!sb.len)
		sb_addc(&sb, '.');
	sl_free(&b);
	sl_free(&t);
	free(ab);
	free(ap);
	return sb_detach(&sb);
}

/* ---- files ---- */

int fd_read_regular(int fd, size_t max, char **data, size_t *len)
{
	struct stat st;
	if (fstat(fd, &st))
		return -1;
	if (!S_ISREG(st.st_mode)) {
		errno = ENOTREGULAR;
		return -1;
	}
	if ((unsigned long long)st.st_size > max) {
		errno = EFBIG;
		return -1;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0 && !(fl & O_NONBLOCK))
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || sb.len + (size_t)n > max) {
			int e = n < 0 ? errno : EFBIG; /* a file that grew while read */
			sb_free(&sb);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		sb_add(&sb, buf, (size_t)n);
	}
	if (len)
		*len = sb.len;
	*data = sb_detach(&sb);
	return 0;
}

int read_file(const char *path, char **data, size_t *len)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer (docs/security.md) */
	return read_file_fd(open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK), data, len);
}

int read_file_fd(int fd, char **data, size_t *len)
{
	if (fd < 0)
		return -1;
	int rc = fd_read_regular(fd, READ_FILE_MAX, data, len);
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (write_full(fd, data, len)) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

int copy_file(const char *src, const char *dst)
{
	char *data;
	size_t len;
	if (read_file(src, &data, &len))
		return -1;
	int rc = write_file(dst, data, len);
	free(data);
	return rc;
}

/* ---- time ---- */

double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void utc_now_iso(char out[32])
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- strings ---- */

char *str_trim(char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
		s[--n] = '\0';
	return s;
}

int str_starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int str_ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !memcmp(s + a - b, suffix, b);
}

int str_ends_with_ci(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcasecmp(s + a - b, suffix);
}

/* ---- markup ---- */

void html_escape(struct strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': sb_adds(sb, "&amp;"); break;
		case '<': sb_adds(sb, "&lt;"); break;
		case '>': sb_adds(sb, "&gt;"); break;
		case '"': sb_adds(sb, "&quot;"); break;
		default: sb_addc(sb, *s);
		}
	}
}

char *sh_quote(const char *s)
{
	int plain = *s != 0;
	for (const char *p = s; *p && plain; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			       "0123456789_-+=/.,:@%", *p) != NULL;
	if (plain)
		return xstrdup(s);
	struct strbuf sb = STRBUF_INIT;
	sb_addc(&sb, '\'');
	for (const char *p = s; *p; p++) {
		if (*p == '\'')
			sb_adds(&sb, "'\\''");
		else
			sb_addc(&sb, *p);
	}
	sb_addc(&sb, '\'');
	return sb_detach(&sb);
}
