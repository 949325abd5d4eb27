/*
 * runstatus.h — the state of every unit of work in a run directory
 * (`ngcc-perf status --run DIR`, docs/method.md §11.2 and §13): per unit
 * (instance × operation) its timing record's state with attempts and
 * cause, its memory and profile records, and its calibration figures; the
 * totals; and whether the run is settled, i.e. every unit is complete,
 * failed for good (attempts exhausted, or never timed) or deferred — the
 * condition under which a sharded campaign goes on to its report.
 *
 * The states follow the one resume rule of the run directory: a missing
 * file is pending; a complete file of the library as it is now is
 * complete; a complete file of another library is stale (pending again
 * with --redo-stale); any other file is failed, retried until
 * RUNDIR_MAX_ATTEMPTS attempts have been made, then failed for good.
 * Memory records count when options.memory_pass is on, profiles once a
 * profile phase has begun in the run.
 */
#ifndef NGCC_RUNSTATUS_H
#define NGCC_RUNSTATUS_H

#include <jansson.h>
#include <stdio.h>

#include "campaign/estimate.h"
#include "util/util.h"

enum unit_status {
	US_PENDING,      /* not done yet */
	US_COMPLETE,
	US_FAILED,       /* will be retried by the next run of the phase */
	US_GIVEN_UP,     /* failed for good: attempts exhausted */
	US_STALE,        /* complete, but of another library */
	US_DEFERRED,     /* left to the deferred worker (--defer) */
	US_NOT_TIMED,    /* never timed (KAT status, kat_issues.csv, build) */
	US_NOT_SELECTED, /* left out by every phase's instance selectors or --op */
	US_OFF,          /* the pass is not part of this run */
};

struct status_unit {
	char *cand, *label, *op, *library_sha256;
	int profiled;                   /* the profile pass covers this unit */
	enum unit_status measure, memory, profile;
	int attempts;                   /* of the timing record, this one included */
	char *cause;                    /* why it failed or is not timed, or NULL */
	int calibrated;
	double t1_s, setup_s;
};

struct run_status {
	char *run;
	char *system_id;
	char *shard;                    /* "k/n", or NULL for an unsharded run */
	int memory_pass, profile_pass;
	int sampling_pass, input_pool;  /* the run's options.sampling and input_pool (R11, R2) */
	struct status_unit *units;
	size_t n_units;
	size_t counts[US_OFF + 1];      /* of the measure states */
	size_t open_phases;             /* phases begun and not ended (running or killed) */
	double remaining_s;             /* estimated work left (prior figures when given) */
	int settled;
	struct strlist selections;      /* what the phases were asked for, when they took
					 * part of the candidates only (options.selections) */
};

/* Start a status over run (absolute).  Reads campaign.json for the system,
 * the shard and which passes the run makes; 0, or -1 with *err. */
int run_status_open(struct run_status *st, const char *run, char **err);
/* A unit of this run: read its files.  library_sha256 is the library as
 * it is now; profiled: the profile pass covers it. */
void run_status_add(struct run_status *st, const char *cand, const char *label, const char *op,
		    const char *library_sha256, int profiled);
/* A unit this run does not measure (deferred, or never timed with cause). */
void run_status_add_other(struct run_status *st, const char *cand, const char *label,
			  const char *op, enum unit_status why, const char *cause);
/* Totals, settledness and the estimate of what is left (planning and model
 * as the run uses them; prior may be NULL). */
struct prior;
void run_status_finish(struct run_status *st, const struct planning *p,
		       const struct est_model *m, const struct prior *prior);
void run_status_free(struct run_status *st);

const char *unit_status_name(enum unit_status s);
/* "ngcc-perf/status/1" and the readable table. */
json_t *run_status_json(const struct run_status *st);
void run_status_print(const struct run_status *st, FILE *out);

#endif
