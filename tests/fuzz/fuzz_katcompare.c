/*
 * fuzz_katcompare.c — libFuzzer target: the KAT comparison of candidate
 * text with a reference (kat/katcompare.c).  The input is split at its
 * first 0xFF byte into generated text and reference; both are compared
 * (as public-key and as hash KATs), canonicalised in every mode and
 * counted, and the detail of a mismatch must be one printable line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kat/katcompare.h"
#include "util/untrusted.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *cut = memchr(data, 0xFF, size);
	size_t glen = cut ? (size_t)(cut - data) : size / 2;
	const char *gen = (const char *)data, *ref = (const char *)data + glen + (cut != NULL);
	size_t rlen = size - glen - (cut != NULL);
	char *detail = NULL;
	/* a recheck's cut replay or a full one, as the input's length says */
	enum kat_status st = kat_compare_reference(gen, glen, ref, rlen, (int)(size & 1), &detail);
	if (st != KAT_PASS && st != KAT_MISMATCH)
		abort();
	if (detail && (strchr(detail, '\n') || str_has_control(detail, strlen(detail))))
		abort(); /* a detail goes into a RESULT line as it is */
	free(detail);
	detail = NULL;
	st = kat_compare_hash_reference(gen, glen, ref, rlen, &detail);   /* hash KATs */
	if (st != KAT_PASS && st != KAT_MISMATCH)
		abort();
	if (detail && (strchr(detail, '\n') || str_has_control(detail, strlen(detail))))
		abort();
	free(detail);
	for (int nolen = 0; nolen < 2; nolen++) {
		struct kat_mode mode = { nolen, (int)(size % 5) };
		char hex[65];
		kat_canonical_digest(gen, glen, &mode, hex);
		if (strlen(hex) != 64)
			abort();
	}
	if (kat_count_records(ref, rlen) < 0)
		abort();
	return 0;
}
