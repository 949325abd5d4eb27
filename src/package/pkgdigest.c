/*
 * pkgdigest.c — see pkgdigest.h: the file listing of an imported package
 * and its digest.
 */
#include "package/pkgdigest.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "util/untrusted.h"

int package_listing(const char *root, char **listing, size_t *n_files, char **err)
{
	struct strlist files = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;
	/* Links and special files are not files of a package (`add` skipped
	 * them). */
	tree_list_all_files(root, "", &files);
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
