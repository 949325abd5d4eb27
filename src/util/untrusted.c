/* untrusted.c — see untrusted.h. */
#include "util/untrusted.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

const char *io_strerror(int e)
{
	switch (e) {
	case ENOTREGULAR:
		return "not a regular file (a FIFO, device, socket or folder is never read)";
	case EFBIG:
		return "larger than the size limit for evidence and package files";
	case EXDEV:
		return "the path leaves its folder";
	case ELOOP:
		return "the path is or passes through a symbolic link (never followed here)";
	default:
		return strerror(e);
	}
}

/* ---- opening below a root ------------------------------------------------------ */

int root_openat_walk(int rootfd, const char *rel, int flags)
{
	if (rel[0] == '/') {
		errno = EXDEV;
		return -1;
	}
	char *copy = xstrdup(rel), *save = NULL;
	int dir = dup(rootfd), fd = -1, opened = 0;
	char *part = strtok_r(copy, "/", &save);
	while (dir >= 0 && part && !opened) {
		char *next = strtok_r(NULL, "/", &save);
		if (!strcmp(part, "..")) {
			errno = EXDEV;
			opened = 1;
		} else if (!next) {
			fd = openat(dir, part, flags | O_NOFOLLOW | O_CLOEXEC |
				    (flags & O_PATH ? 0 : O_NOCTTY));
			opened = 1;
		} else if (strcmp(part, ".")) {
			int sub = openat(dir, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			/* a link where a folder is expected fails with ENOTDIR: say ELOOP */
			struct stat st;
			if (sub < 0 && errno == ENOTDIR &&
			    !fstatat(dir, part, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
				errno = ELOOP;
			int e = errno;
			close(dir);
			errno = e;
			dir = sub;
		}
		part = next;
	}
	if (dir >= 0 && !opened) /* rel was empty or only "." parts: the root itself */
		fd = openat(dir, ".", flags | O_CLOEXEC | (flags & O_PATH ? 0 : O_NOCTTY));
	int e = errno;
	if (dir >= 0)
		close(dir);
	free(copy);
	errno = e;
	return fd;
}

int root_openat(int rootfd, const char *rel, int flags)
{
	static int no_openat2;
	if (!no_openat2) {
		/* openat2 refuses O_PATH with any flag beyond these three */
		int extra = flags & O_PATH ? O_CLOEXEC : O_CLOEXEC | O_NOCTTY;
		struct open_how how = {
			.flags = (unsigned long long)(flags | extra),
			.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
		};
		long fd = syscall(SYS_openat2, rootfd, *rel ? rel : ".", &how, sizeof how);
		if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
			return (int)fd;
		no_openat2 = 1; /* kernel before 5.6, or a seccomp filter refusing it */
	}
	return root_openat_walk(rootfd, rel, flags);
}

int root_open(const char *root, const char *rel, int flags)
{
	int rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -1;
	int fd = root_openat(rootfd, rel, flags);
	int e = errno;
	close(rootfd);
	errno = e;
	return fd;
}

/* ---- reading ----------------------------------------------------------------------- */

int root_read_file(const char *root, const char *rel, char **data, size_t *len)
{
	return read_file_fd(root_open(root, rel, O_RDONLY | O_NONBLOCK), data, len);
}

int read_file_below(const char *root, const char *path, char **data, size_t *len)
{
	return read_file_fd(open_below(root, path), data, len);
}

int open_below(const char *root, const char *path)
{
	size_t n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		n--;
	if (strncmp(path, root, n) || path[n] != '/') {
		errno = EXDEV;
		return -1;
	}
	char *r = xstrndup(root, n);
	const char *rel = path + n;
	while (*rel == '/') /* "root//x" as path_join makes it from "root/" */
		rel++;
	int fd = root_open(r, rel, O_RDONLY | O_NONBLOCK);
	int e = errno;
	free(r);
	errno = e;
	return fd;
}

int root_kind(const char *root, const char *rel)
{
	int fd = root_open(root, rel, O_PATH | O_NOFOLLOW);
	struct stat st;
	int kind = 0;
	if (fd >= 0 && !fstat(fd, &st))
		kind = S_ISREG(st.st_mode) ? 'f' : S_ISDIR(st.st_mode) ? 'd' :
		       S_ISLNK(st.st_mode) ? 'l' : 'o';
	else if (fd < 0 && errno == ELOOP)
		kind = 'l';
	if (fd >= 0)
		close(fd);
	return kind;
}

/* ---- printable text ------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if none;
 * C1 controls (U+0080..U+009F) count as invalid: terminals obey them. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t need;
	unsigned int cp;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		need = 2, cp = s[0] & 0x1F;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		need = 3, cp = s[0] & 0x0F;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		need = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < need)
		return 0;
	for (size_t i = 1; i < need; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if (cp < 0xA0 || (need == 3 && cp < 0x800) || (need == 4 && cp < 0x10000) ||
	    cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return need;
}

static int plain_ascii(unsigned char c)
{
	return (c >= 0x20 && c < 0x7F) || c == '\t';
}

void sb_add_printable(struct strbuf *sb, const char *s, size_t len, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t shown = max && len > max ? max : len, i = 0;
	while (i < shown) {
		size_t u = p[i] >= 0x80 ? utf8_len(p + i, shown - i) : 0;
		if (plain_ascii(p[i])) {
			sb_addc(sb, (char)p[i++]);
		} else if (u) {
			sb_add(sb, p + i, u);
			i += u;
		} else {
			sb_addf(sb, "\\x%02x", p[i++]);
		}
	}
	if (len > shown)
		sb_addf(sb, "…(%zu bytes more)", len - shown);
	if (!sb->buf)
		sb_add(sb, "", 0);
}

char *str_printable(const char *s, size_t max)
{
	struct strbuf sb = STRBUF_INIT;
	sb_add_printable(&sb, s ? s : "", s ? strlen(s) : 0, max);
	return sb_detach(&sb);
}

char *str_printable_lines(const char *s, size_t max)
{
	struct strbuf sb = STRBUF_INIT;
	for (const char *p = s ? s : ""; *p;) {
		size_t n = strcspn(p, "\n");
		sb_add_printable(&sb, p, n, max);
		if (p[n] == '\n')
			sb_addc(&sb, '\n');
		p += n + (p[n] == '\n');
	}
	if (!sb.buf)
		sb_add(&sb, "", 0);
	return sb_detach(&sb);
}

int str_has_control(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < len;) {
		size_t u = p[i] >= 0x80 ? utf8_len(p + i, len - i) : 0;
		if (plain_ascii(p[i]))
			i++;
		else if (u)
			i += u;
		else
			return 1;
	}
	return 0;
}

size_t utf8_bom_len(const char *s, size_t len)
{
	return len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3) ? 3 : 0;
}
