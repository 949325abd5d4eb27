/*
 * util.h — small helpers shared by the orchestrator and the child programs:
 * messages, allocation that dies on failure, string buffers, paths, files,
 * SHA-256 (OpenSSL).  Nothing here runs candidate code.
 */
#ifndef NGCC_UTIL_H
#define NGCC_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Exit codes of every ngcc-perf command (documented in --help). */
enum ngcc_exit {
	EXIT_OK = 0,        /* everything done and passed */
	EXIT_FAILED = 1,    /* done, but a check failed (KAT, host, validate) */
	EXIT_USAGE = 2,     /* bad command line, or refusal (unfixed host) */
	EXIT_INPUT = 3,     /* bad input: package, workspace, manifest, conf */
	EXIT_SYSTEM = 4,    /* I/O, memory or process failure of our own */
	EXIT_INTERRUPTED = 130, /* stopped by SIGINT/SIGTERM; a rerun resumes */
};

/* "ngcc-perf: error: ..." on stderr; the caller decides the exit code. */
void ngcc_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ngcc_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print an error and exit(code). */
void ngcc_die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* Name used in messages ("ngcc-perf", "ngcc-perf-kat", ...). */
void ngcc_set_progname(const char *name);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap);

/* Growable string. */
struct strbuf {
	char *buf;
	size_t len, cap;
};
#define STRBUF_INIT { NULL, 0, 0 }
void sb_add(struct strbuf *sb, const void *data, size_t len);
void sb_adds(struct strbuf *sb, const char *s);
void sb_addc(struct strbuf *sb, char c);
void sb_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *sb_detach(struct strbuf *sb); /* returns buf (never NULL), resets sb */
void sb_reset(struct strbuf *sb);
void sb_free(struct strbuf *sb);

/* The shell word for s: as is when it needs no quoting, else in single
 * quotes (for commands we print for the user to run).  Caller frees. */
char *sh_quote(const char *s);

/* Growable array of owned strings. */
struct strlist {
	char **items;
	size_t n, cap;
};
#define STRLIST_INIT { NULL, 0, 0 }
void sl_push(struct strlist *sl, const char *s);       /* copies s */
void sl_push_owned(struct strlist *sl, char *s);      /* takes s */
int sl_contains(const struct strlist *sl, const char *s);
void sl_sort(struct strlist *sl);                     /* byte order */
void sl_free(struct strlist *sl);

/* Paths. */
char *path_join(const char *a, const char *b);         /* a/b, a may be "" */
/* dir/<printf-formatted relative path> */
char *path_joinf(const char *dir, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *path_dirname(const char *p);
const char *path_basename(const char *p);
int path_exists(const char *p);
int path_is_dir(const char *p);
int path_is_file(const char *p);
int mkdir_p(const char *path, mode_t mode);            /* 0 or -1 (errno) */
int rm_rf(const char *path);                           /* 0 or -1 */
/* "a/b/../c" style relative path from dir `base` to `p` (both absolute or
 * both relative to the same dir).  Returns a new string. */
char *path_relative(const char *base, const char *p);
/* A user-given path like git -C takes it: as given when absolute, else
 * base/p made absolute and normalised.  Returns a new string. */
char *path_resolve(const char *base, const char *p);
/* Absolute, normalised path (no symlink resolution of the last part). */
char *path_absolute(const char *p);

/* Files. */
/* The largest file read_file() reads: evidence, sources, KAT files and
 * manifests are far smaller; anything larger is refused (EFBIG). */
#define READ_FILE_MAX ((size_t)256 << 20)
/* The whole of a regular file, NUL-terminated; 0, or -1 with errno.  A FIFO,
 * device or folder is refused without blocking (untrusted.h: ENOTREGULAR,
 * io_strerror()). */
int read_file(const char *path, char **data, size_t *len);
/* The same from an open descriptor (-1: returns -1, errno kept), which is
 * closed. */
int read_file_fd(int fd, char **data, size_t *len);
/* errno of a read refused because the file is not a regular file (a FIFO,
 * a device, a socket or a folder).  Chosen because no read of a regular
 * file ever sets it. */
#define ENOTREGULAR EMEDIUMTYPE
/* Read everything from fd (a regular file, checked with fstat) up to max
 * bytes; the reads do not block (O_NONBLOCK is set).  0, or -1 with errno
 * (ENOTREGULAR, EFBIG, ...).  data is NUL-terminated. */
int fd_read_regular(int fd, size_t max, char **data, size_t *len);
int write_file(const char *path, const void *data, size_t len); /* not atomic */
/* Write all len bytes to fd, retrying on EINTR; 0, or -1 with errno set. */
int write_full(int fd, const void *buf, size_t len);
int copy_file(const char *src, const char *dst);

/* SHA-256 as lowercase hex (65 bytes with NUL). */
void sha256_hex(const void *data, size_t len, char hex[65]);
int sha256_file_hex(const char *path, char hex[65]);  /* 0/-1 */

/* Installation (locate.c; the lookup order is in docs/usage.md,
 * "Installation"): the folder holding src/runtime, the folder of our child
 * programs, and in words where each was found. */
const char *ngcc_home(void);
const char *ngcc_bindir(void);
const char *ngcc_home_origin(void);
const char *ngcc_bindir_origin(void);
char *ngcc_program(const char *name); /* bindir/name */
/* How evidence names ngcc-perf's own tree (ngcc_home()), so that no
 * absolute path of this installation is recorded (docs/method.md §11.1). */
#define NGCC_TREE_TAG "<ngcc-perf>"
/* The absolute path of the running executable (for scripts that call us
 * again, e.g. `launch`); "" when /proc cannot tell. */
char *ngcc_self(void);

/* Time. */
double mono_now(void);                 /* CLOCK_MONOTONIC seconds */
void utc_now_iso(char out[32]);        /* 2026-09-25T10:02:21Z */

/* HTML/XML-escape s onto sb (&, <, >, "): page text and SVG labels. */
void html_escape(struct strbuf *sb, const char *s);

/* Trim leading and trailing blanks in place; returns s. */
char *str_trim(char *s);
int str_starts_with(const char *s, const char *prefix);
int str_ends_with(const char *s, const char *suffix);
int str_ends_with_ci(const char *s, const char *suffix);

#endif
