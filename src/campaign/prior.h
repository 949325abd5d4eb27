/*
 * prior.h — what earlier campaigns tell about the cost of this one
 * (docs/method.md §4 planning, §13 shard costs): the timing records of published
 * datasets (`<dataset>/data/<SYS>/records/`) or of run directories
 * (`<run>/records/`) given with --prior.
 *
 * Per unit (<cand>/<label>/<op>) the calibration figures t1 and S the
 * record was planned with, so a plan can be recomputed under this run's
 * planning constants; per instance (<cand>/<label>) the Σ of the processes'
 * wall_s over every record of the instance in every dataset given, the
 * shard assignment's prior cost.  Only complete records count.
 */
#ifndef NGCC_PRIOR_H
#define NGCC_PRIOR_H

#include <stddef.h>

struct prior_unit {
	char *key;          /* "<cand>/<label>/<op>" */
	double t1_s, setup_s;
	char *source;       /* the record's path, for messages */
};

struct prior_instance {
	char *key;          /* "<cand>/<label>" */
	double wall_s;      /* Σ over records and datasets */
};

struct prior {
	struct prior_unit *units;
	size_t n_units;
	struct prior_instance *instances;
	size_t n_instances;
	size_t n_records;   /* complete records read */
};

/* Read the records under each path (a published dataset or a run
 * directory).  The first path holding a unit gives its t1 and S.  Returns
 * 0, or -1 with *err (malloc'd) naming a path that holds no records or a
 * record that cannot be read. */
int prior_load(const char *const *paths, size_t n_paths, struct prior *out, char **err);
void prior_free(struct prior *p);

/* Lookups; NULL when absent. */
const struct prior_unit *prior_find_unit(const struct prior *p, const char *cand,
					 const char *label, const char *op);
/* Σ wall_s of the instance, or -1 when no dataset holds it. */
double prior_instance_wall(const struct prior *p, const char *cand, const char *label);

#endif
