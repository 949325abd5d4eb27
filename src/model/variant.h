/*
 * variant.h — the implementation variants of a parameter set as pages name
 * them (issue #29; docs/report-format.md §5, "Implementation variants"):
 * the candidate.conf variant, the suffix its builds add to the label in
 * file stems (`lib<label>+avx2.so`, `records/<cand>/<label>+avx2__enc.json`),
 * the tag of its instance cell (`` `NTRE-128` (AVX2) ``) and its words on
 * the "Implementation versions measured" line.  The table's order is the
 * page order: reference first, so a reference row precedes its twins.
 */
#ifndef NGCC_MODEL_VARIANT_H
#define NGCC_MODEL_VARIANT_H

#include <stddef.h>

struct ds_variant {
	const char *name;     /* candidate.conf: reference, optimized-avx2, ... */
	const char *suffix;   /* file-stem suffix: "" for the reference, "+avx2", ... */
	const char *tag;      /* instance-cell tag: NULL for the reference, "AVX2", ... */
	const char *version;  /* "reference", "optimized (AVX2)", ..., "additional" */
};

extern const struct ds_variant ds_variants[];
extern const size_t n_ds_variants;
/* ds_variants[0]: the reference build. */
#define DS_REFERENCE (&ds_variants[0])

/* The variant a file stem names and its base label (malloc'd): a stem
 * ending in a known suffix (`NTRE-128+avx2`) is that variant's build of
 * the label before it; any other stem is a reference build of itself. */
const struct ds_variant *ds_variant_of_stem(const char *stem, char **label);
/* By candidate.conf name; NULL when unknown. */
const struct ds_variant *ds_variant_find(const char *name);
/* "NTRE-128 (AVX2)": the label, then " (<tag>)" for a variant other than
 * the reference (charts, plain-text cells).  Caller frees. */
char *ds_variant_display(const char *label, const struct ds_variant *v);
/* Page order: 0 for the reference, then the table's order. */
int ds_variant_rank(const struct ds_variant *v);

#endif
