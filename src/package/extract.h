/*
 * extract.h — bring a submission package (folder, .zip, .rar, .7z, .tar*)
 * into the workspace without trusting it: symlinks, hard links and special
 * files are skipped (and noted), entries with '..' components or absolute
 * names are refused, the total size is capped, and nested archives are
 * unpacked in place into a folder named after the archive.  Nothing from the
 * package is ever executed.
 */
#ifndef NGCC_EXTRACT_H
#define NGCC_EXTRACT_H

#include "util/util.h"

#define IMPORT_DEFAULT_MAX_BYTES (4ULL << 30) /* 4 GiB, against zip bombs */
#define IMPORT_DEFAULT_MAX_DEPTH 4            /* archives inside archives */

struct import_opts {
	unsigned long long max_bytes; /* 0: IMPORT_DEFAULT_MAX_BYTES */
	int max_depth;                /* 0: IMPORT_DEFAULT_MAX_DEPTH */
};

struct import_result {
	unsigned long long bytes;  /* regular-file bytes written */
	size_t files;
	size_t nested;             /* nested archives unpacked */
	struct strlist notes;      /* skipped symlinks etc., for the user */
};

enum import_status {
	IMPORT_OK = 0,
	IMPORT_BAD_INPUT = -1,  /* path escape, size cap, unreadable package file */
	IMPORT_SYSTEM = -2,     /* our own I/O failure */
	IMPORT_UNREADABLE = -3, /* not an archive, corrupt, encrypted, empty */
};

/* Does the name end in an archive extension we unpack? */
int package_is_archive(const char *path);

/*
 * Copy folder `src` (its contents) or unpack archive `src` into `dest`
 * (created; must not exist or be empty), then unpack nested archives.
 * On failure *err (malloc'd) says what and where; dest is left for the
 * caller to remove.
 */
enum import_status package_import(const char *src, const char *dest,
				  const struct import_opts *opts,
				  struct import_result *res, char **err);

/* Unpack one archive into dest; shares the byte budget in res. */
enum import_status archive_extract(const char *archive, const char *dest,
				   const struct import_opts *opts,
				   struct import_result *res, char **err);

void import_result_free(struct import_result *res);

#endif
