/*
 * repeat.h — repeatability, measured (campaign/repeat.h): the records of
 * repeat/<ID>/<label>__<op>.json (the timing record format) paired
 * with the run's first records, and the between-run variation they show.
 * Both means are recomputed from the trials (stats_compute), so `validate`
 * recomputes the figures when it regenerates the method page.
 */
#ifndef NGCC_MODEL_REPEAT_H
#define NGCC_MODEL_REPEAT_H

#include <stddef.h>

#include "model/dataset.h"

struct repeat_unit {
	char *cand, *stem, *op;     /* stem: the instance's (label, label+avx2) */
	char *rel;                  /* repeat/<ID>/<stem>__<op>.json */
	double first_s, again_s;    /* mean seconds per call, first and again */
	double ratio;               /* again / first */
};

struct repeat_set {
	struct repeat_unit *u;      /* candidate, instance, operation order */
	size_t n;
	size_t n_candidates;        /* candidates with a unit */
	double median_dev, max_dev; /* of |ratio − 1| */
	char *max_unit;             /* "<ID>/<stem> <op>" of max_dev */
};

/* The repeat records ds loaded (dataset.h: repeat_*), each checked and
 * paired with ds's first record of the unit.  *out is NULL when the
 * evidence has no repeat/ folder.  0, or -1 with *err (malloc'd, names the
 * file) for a file that is not a complete timing record of its name or has
 * no complete first record. */
int repeat_compute(const struct dataset *ds, struct repeat_set **out, char **err);
void repeat_free(struct repeat_set *r);

#endif
