/*
 * variant_view.h — a parameter set's builds side by side (issue #29;
 * docs/report-format.md §5.9 A.14 and §6 "Fastest implementation"): the
 * reference build of a variant, the speed-up of a variant over it, the
 * fastest build per operation, and what became of a variant that was not
 * measured.  Pages, the summary CSV and the site read these, so they all
 * name the same build fastest.
 *
 * Speed-up of a build for an operation: the reference's mean cycles over
 * the build's (above 1: faster than the reference), both from complete
 * records.  Fastest build for an operation: the lowest mean cycles among
 * the reference and the variants whose KAT is PASS and whose output is not
 * recorded as differing from the reference's (a variant whose output
 * differs is never fastest), each with a
 * complete record; on a tie the earlier build in page order (reference
 * first).
 */
#ifndef NGCC_MODEL_VARIANT_VIEW_H
#define NGCC_MODEL_VARIANT_VIEW_H

#include "model/dataset.h"

/* Mean cycles of the operation's complete record: 1 with *cycles, else 0. */
int ds_op_cycles(const struct ds_instance *in, const char *op, double *cycles);
/* The reference build of in's parameter set (in itself for a reference
 * build), NULL when the candidate has none. */
const struct ds_instance *ds_reference_of(const struct ds_candidate *c,
					  const struct ds_instance *in);
/* 1 when the candidate has a build other than the reference. */
int ds_candidate_has_variants(const struct ds_candidate *c);
/* 1 when a variant (not the reference) of the dataset has a timing record. */
int ds_variants_measured(const struct dataset *ds);
/* Speed-up of in over its reference for op: 1 with *speedup, else 0
 * (either record missing, not complete or without cycles). */
int ds_speedup(const struct ds_candidate *c, const struct ds_instance *in, const char *op,
	       double *speedup);
/* The fastest build of ref's parameter set for op (see above), NULL when
 * none has a complete record. */
const struct ds_instance *ds_fastest_build(const struct ds_candidate *c,
					   const struct ds_instance *ref, const char *op);
/* The KAT gate's comparison of a variant with its reference (build.json
 * "kat_vs_reference": "same", "differs", "not compared", "no reference"),
 * NULL when not recorded (the reference itself, older evidence). */
const char *ds_kat_vs_reference(const struct ds_instance *in);
/* Why a build has no timing record, in words for the pages (malloc'd),
 * or NULL when it has one: "not built (BUILDFAIL)", "not run:
 * UNSUPPORTED_CPU (…)", "not timed: KAT output differs from its
 * reference's", "not timed: KAT MISMATCH (…)", "not timed: KAT <STATUS>",
 * "not measured in this run". */
char *ds_variant_not_run(const struct ds_instance *in);

#endif
