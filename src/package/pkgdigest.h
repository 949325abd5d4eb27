/*
 * pkgdigest.h — the digest that identifies a package version
 * (docs/usage.md, "Package versions").
 *
 * The *file listing* of a package is one line per regular file of the
 * package as `add` brought it in (candidates/<ID>/source/ before any
 * --patch), in byte order of the path:
 *
 *   <SHA-256 of the file, 64 lowercase hex>  <path relative to source/>\n
 *
 * (two spaces: the format of sha256sum(1)).  The *package digest* is the
 * SHA-256 of that listing.  A folder and an archive of the same files have
 * the same digest (file times, modes and the archive's own bytes do not
 * count); any change to a file's bytes or name changes it.  `add` keeps
 * the listing as candidates/<ID>/package.sha256.
 */
#ifndef NGCC_PKGDIGEST_H
#define NGCC_PKGDIGEST_H

#include <stddef.h>

#include "util/util.h"

#define PACKAGE_LISTING "package.sha256"

/* The listing of the tree below root into *listing (malloc'd) and the
 * number of files into *n_files.  0, or -1 with *err (malloc'd) naming the
 * file that could not be read. */
int package_listing(const char *root, char **listing, size_t *n_files, char **err);

/* The package digest of a listing. */
void package_digest(const char *listing, char hex[65]);

/* Split a listing into its paths and digests (parallel lists, in the
 * listing's order).  0, or -1 at the first line that is not
 * "<64 hex>  <path>". */
int package_listing_parse(const char *listing, struct strlist *paths, struct strlist *digests);

#endif
