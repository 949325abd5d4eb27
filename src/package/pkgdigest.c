/*
 * pkgdigest.c — see pkgdigest.h: the file listing of an imported package
 * and its digest.
 */
#include "package/pkgdigest.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/untrusted.h"

/* Every regular file below root/rel, dot files included (a package's
 * .gitignore is one of its files); links and special files are not files
 * of a package (`add` skipped them). */
static void walk(const char *root, const char *rel, struct strlist *out)
{
	char *dir = *rel ? path_join(root, rel) : xstrdup(root);
	DIR *d = opendir(dir);
	if (!d) {
		free(dir);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *r = *rel ? path_join(rel, e->d_name) : xstrdup(e->d_name);
		char *p = path_join(root, r);
		struct stat st;
		if (!lstat(p, &st) && S_ISDIR(st.st_mode))
			walk(root, r, out);
		else if (!lstat(p, &st) && S_ISREG(st.st_mode))
			sl_push(out, r);
		free(p);
		free(r);
	}
	closedir(d);
	free(dir);
}

int package_listing(const char *root, char **listing, size_t *n_files, char **err)
{
	struct strlist files = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;
	walk(root, "", &files);
	sl_sort(&files);
	for (size_t i = 0; i < files.n && !rc; i++) {
		char *p = path_join(root, files.items[i]), hex[65];
		if (sha256_file_hex(p, hex)) {
			*err = xasprintf("cannot read '%s': %s", p, io_strerror(errno));
			rc = -1;
		} else {
			sb_addf(&sb, "%s  %s\n", hex, files.items[i]);
		}
		free(p);
	}
	*n_files = files.n;
	*listing = sb_detach(&sb);
	sl_free(&files);
	return rc;
}

void package_digest(const char *listing, char hex[65])
{
	sha256_hex(listing, strlen(listing), hex);
}

static int is_hex64(const char *s)
{
	for (int i = 0; i < 64; i++)
		if (!s[i] || !strchr("0123456789abcdef", s[i]))
			return 0;
	return 1;
}

int package_listing_parse(const char *listing, struct strlist *paths, struct strlist *digests)
{
	const char *s = listing;
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		if (len < 67 || !is_hex64(s) || s[64] != ' ' || s[65] != ' ')
			return -1;
		sl_push_owned(digests, xstrndup(s, 64));
		sl_push_owned(paths, xstrndup(s + 66, len - 66));
		s += len + (nl ? 1 : 0);
	}
	return 0;
}
