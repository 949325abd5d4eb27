/*
 * baseline_view.h — the ICCS baseline as the pages see it (docs/method.md
 * §10.7, docs/report-format.md §6): the instances of candidate `iccs` in
 * page order (sm3hash, pseudohash by width, pseudoXOF by width; our
 * runtime's first, then each package copy), and a hash's cycles as a
 * multiple of our pseudoXOF at the same output width and message length.
 */
#ifndef NGCC_MODEL_BASELINE_VIEW_H
#define NGCC_MODEL_BASELINE_VIEW_H

#include "method/baseline.h"
#include "model/dataset.h"

/* The baseline candidate, or NULL. */
const struct ds_candidate *ds_baseline(const struct dataset *ds);
/* 1 for the baseline candidate. */
int ds_is_baseline(const struct ds_candidate *c);

struct baseline_row {
	const struct ds_instance *in;
	struct baseline_label id;
};
/* The baseline's instances in page order (malloc'd array, *n set); labels
 * that are not baseline labels are left out. */
struct baseline_row *ds_baseline_rows(const struct dataset *ds, size_t *n);

/* Mean cycles of hash_<L> of an instance: 1 with *cycles when its record
 * is complete and has cycles, else 0. */
int ds_hash_cycles(const struct ds_instance *in, unsigned long long L, double *cycles);
/* The digest bits of a hash instance (its records' sizes), 0 if unknown. */
int ds_hash_digest_bits(const struct ds_instance *in);
/* Our pseudoXOF-<bits> instance, or NULL. */
const struct ds_instance *ds_baseline_xof(const struct dataset *ds, int bits);
/* in's cycles over our pseudoXOF's at its digest width and message length
 * L: 1 with *ratio (and *xof_cycles) when both are measured, else 0. */
int ds_hash_ratio(const struct dataset *ds, const struct ds_instance *in,
		  unsigned long long L, double *ratio, double *xof_cycles);

#endif
