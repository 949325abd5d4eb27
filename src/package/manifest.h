/*
 * manifest.h — the KAT manifest candidates/<ID>/kat.sha256 (docs/method.md §2.2):
 * lines `<sha256-hex> <strict|nolen>[:N] <label>/<file>` (or a bare file
 * name), `#` comments.  `add --kat-manifest` checks and copies it; the KAT
 * gate and the KAT child look an instance's entry up.
 */
#ifndef NGCC_PACKAGE_MANIFEST_H
#define NGCC_PACKAGE_MANIFEST_H

#include <stddef.h>

#include "util/util.h"

/* A manifest mode: "strict" or "nolen", optionally ":N". */
struct kat_mode {
	int nolen;   /* drop lines whose key ends in _Len */
	int records; /* 0 = every record, else only the first N */
};

/* 0, or -1 if `s` is not a mode. */
int kat_mode_parse(const char *s, struct kat_mode *mode);
/* "strict", "nolen:3", ... (malloc'd) */
char *kat_mode_format(const struct kat_mode *mode);

/* Whether s[0..n) is a SHA-256 digest in hex (64 digits, either case). */
int kat_is_sha256_hex(const char *s, size_t n);

/* One line of a kat.sha256 manifest. */
struct kat_manifest_entry {
	char digest[65];
	struct kat_mode mode;
	char *file; /* as written: "<label>/<file>" or "<file>" */
};

/*
 * Find the entry for instance `label` in manifest text: "<label>/<file>"
 * first, then the bare "<file>", then the only entry under "<label>/".
 * file_name may be NULL (ALGORITHM_INSTANCE unknown).  Returns 1 if found,
 * 0 if not, -1 with *err (malloc'd, "line N: ...") for a malformed line.
 */
int kat_manifest_find(const char *manifest, const char *label,
		      const char *file_name, struct kat_manifest_entry *out,
		      char **err);
void kat_manifest_entry_free(struct kat_manifest_entry *e);

/* The longest label or file name an entry may give (NAME_MAX). */
#define MANIFEST_NAME_MAX 255

/* Check manifest text: no NUL byte, every line well formed, a file listed
 * twice only with the same digest and mode.  labels (may be NULL) gets the
 * labels the entries name, *entries their number.  0, or -1 with *err
 * (malloc'd, "line N: what"). */
int kat_manifest_check_text(const char *data, size_t len, struct strlist *labels,
			    int *entries, char **err);

/* Check the manifest file (kat_manifest_check_text, at least one entry),
 * then copy it verbatim to dst; labels gets the labels its entries name.
 * Returns an ngcc_exit code (errors printed with the file and line). */
int kat_manifest_import(const char *file, const char *dst, struct strlist *labels);

#endif
