/*
 * estimate.h — how long the measuring phases of a campaign will take
 * (`ngcc-perf plan`, docs/method.md §2 and §4): per unit (instance × operation)
 * the §4.2 plan and the seconds of calibration, measure, memory pass and
 * profile still to do; per instance their sum; and the wall time on 1…N
 * benchmark CPUs with the §13 shard assignment.
 *
 * t1 and S come from the run's calibrations, else from prior datasets'
 * records (their plan's t1_s and setup_s, replanned under this run's
 * constants), else they are unknown and the instance counts
 * SHARD_UNKNOWN_COST_S as in the shard assignment.  Per driver process the
 * cost is its plan (which already holds S, the process's whole set-up);
 * per unit and per phase the orchestrator's own work adds the constants
 * of struct est_model, which `plan` prints with its figures.  Disturbed
 * retries are counted as none (the background allowance makes them rare).
 * Build and KAT run once before any shard and are not estimated.
 */
#ifndef NGCC_ESTIMATE_H
#define NGCC_ESTIMATE_H

#include <jansson.h>
#include <regex.h>
#include <stddef.h>
#include <stdio.h>

#include "method/plan.h"

enum est_source { EST_CALIBRATION, EST_PRIOR, EST_UNKNOWN };

/* Per-process, per-unit and per-phase costs of the orchestrator. */
struct est_model {
	double unit_overhead_s;    /* per unit and phase: bookkeeping, record write, R10 check */
	double phase_overhead_s;   /* per measuring phase and shard: host check, environment, locks */
	double background_s;       /* the once-per-run background probe */
	double profile_tick_s;     /* the profile driver's tick-rate calibration */
	double profile_instance_s; /* per profiled instance: instrumented relink and survey scan */
	double memory_call_s;      /* per memory-pass call: painting and scanning its stack */
	int memory_pass, profile;  /* which passes follow measure */
	int input_pool;            /* R2: the pool pass inside measure (inputs; 0: none) */
	int sampling;              /* R11: the sampling pass after measure */
	double bracket_ns;         /* R11: assumed empty-bracket cost, which sets a sample's batch */
};
void est_model_defaults(struct est_model *m);

struct est_unit {
	/* input */
	char *cand, *label, *op;
	enum est_source source;
	double t1_s, setup_s;       /* when the source is not EST_UNKNOWN */
	int need_calibrate, need_measure, need_memory, need_profile;
	/* output */
	struct plan plan;
	double calibrate_s, measure_s, memory_s, profile_s;
	double total_s;
};

struct est_instance {
	char *key;                  /* "<cand>/<label>" */
	double total_s;
	int unknown;                /* some unit had no figures */
	int relinked;               /* its profile relink is counted */
	int deferred;               /* matches --defer */
};

struct estimate {
	struct planning planning;
	struct est_model model;
	struct est_unit *units;
	size_t n_units;
	struct est_instance *instances;
	size_t n_instances;
	int max_cpus;
	double *wall_s;             /* [k] for k = 1..max_cpus benchmark CPUs */
	double deferred_s;          /* the deferred worker's wall time (0: none) */
	char **dominating;          /* instance keys longer than the balanced share on max_cpus */
	size_t n_dominating;
	/* which phases have work left: each costs a worker its phase overhead,
	 * and the measure phase the background probe; none: nothing is left */
	int work_measure, work_memory, work_profile;
};

/* Add a unit (strings copied), every phase still to do; the caller may
 * clear need_* through the returned pointer (valid until the next add).
 * The figures are filled by est_compute. */
struct est_unit *est_add_unit(struct estimate *est, const char *cand, const char *label,
			      const char *op, enum est_source source, double t1_s, double setup_s);

void est_init(struct estimate *est, const struct planning *p, const struct est_model *m);
/* Compute every unit, instance and the totals on 1..max_cpus CPUs (defer
 * may be NULL). */
void est_compute(struct estimate *est, int max_cpus, const regex_t *defer);
void est_free(struct estimate *est);

/* The JSON document of `plan --json` ("ngcc-perf/plan/1") and the
 * readable table (top: how many of the most expensive operations are
 * listed). */
json_t *est_json(const struct estimate *est);
void est_print(const struct estimate *est, FILE *out, size_t top);

#endif
