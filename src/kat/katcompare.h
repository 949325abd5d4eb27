/*
 * katcompare.h — comparing generated KAT text with the submitted reference
 * (iccs-api.md §5): canonical form and digest, `kat.sha256` manifest
 * entries, and line-by-line comparison with a reference file.
 */
#ifndef NGCC_KATCOMPARE_H
#define NGCC_KATCOMPARE_H

#include <stddef.h>

#include "kat/katgen.h"

/* A manifest mode: "strict" or "nolen", optionally ":N". */
struct kat_mode {
	int nolen;   /* drop lines whose key ends in _Len */
	int records; /* 0 = every record, else only the first N */
};

/* 0, or -1 if `s` is not a mode. */
int kat_mode_parse(const char *s, struct kat_mode *mode);
/* "strict", "nolen:3", ... (malloc'd) */
char *kat_mode_format(const struct kat_mode *mode);

/* Canonical form (§5) of text, appended to out. */
void kat_canonical(const char *text, size_t len, const struct kat_mode *mode,
		   struct strbuf *out);
/* SHA-256 of the canonical form, lowercase hex. */
void kat_canonical_digest(const char *text, size_t len,
			  const struct kat_mode *mode, char hex[65]);

/* Whether s[0..n) is a SHA-256 digest in hex (64 digits, either case). */
int kat_is_sha256_hex(const char *s, size_t n);

/* Number of records ("Count" lines) in text. */
int kat_count_records(const char *text, size_t len);

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

/*
 * Compare generated text with a reference after canonicalisation; a
 * reference `_Len` line with an empty value matches any value.  Returns
 * KAT_PASS or KAT_MISMATCH with *detail (malloc'd) naming the first
 * differing Count and field.
 */
enum kat_status kat_compare_reference(const char *generated, size_t glen,
				      const char *reference, size_t rlen,
				      char **detail);

/* Compare the canonical digest of generated text with a manifest entry. */
enum kat_status kat_compare_digest(const char *generated, size_t glen,
				   const struct kat_manifest_entry *entry,
				   char **detail);

#endif
