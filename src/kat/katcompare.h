/*
 * katcompare.h — comparing generated KAT text with the submitted reference
 * (docs/iccs.md §5): canonical form and digest, comparison with a
 * `kat.sha256` entry (package/manifest.h) or line by line with a reference
 * file.
 */
#ifndef NGCC_KATCOMPARE_H
#define NGCC_KATCOMPARE_H

#include <stddef.h>

#include "kat/katgen.h"
#include "package/manifest.h"

/* Canonical form (§5) of text, appended to out. */
void kat_canonical(const char *text, size_t len, const struct kat_mode *mode,
		   struct strbuf *out);
/* SHA-256 of the canonical form, lowercase hex. */
void kat_canonical_digest(const char *text, size_t len,
			  const struct kat_mode *mode, char hex[65]);


/* Number of records ("Count" lines) in text. */
int kat_count_records(const char *text, size_t len);

/*
 * Compare generated text with a reference after canonicalisation; a
 * reference `_Len` line with an empty value matches any value.  Returns
 * KAT_PASS or KAT_MISMATCH with *detail (malloc'd) naming the first
 * differing Count and field.  cut_replay: the replay was asked for fewer
 * records than the official driver writes (a timeout recheck), so only
 * the records it made are compared; otherwise a reference with more
 * records than the replay made is a mismatch (records the official driver
 * never writes).
 */
enum kat_status kat_compare_reference(const char *generated, size_t glen,
				      const char *reference, size_t rlen, int cut_replay,
				      char **detail);

/*
 * The same for a hash KAT file or a baseline self-test, which have no
 * Count lines: records start at `Msg_Len =`, and *detail names the first
 * differing record and field.
 */
enum kat_status kat_compare_hash_reference(const char *generated, size_t glen,
					   const char *reference, size_t rlen, char **detail);

/* Whether the detail of a MISMATCH from the comparisons above puts the
 * fault in the reference file (no record, cut short, ending before the
 * generated text): no rebuild with other flags can change that, so the
 * gate does not fall back to other flags for it. */
int kat_detail_blames_reference(const char *detail);

/* Compare the canonical digest of generated text with a manifest entry. */
enum kat_status kat_compare_digest(const char *generated, size_t glen,
				   const struct kat_manifest_entry *entry,
				   char **detail);

#endif
