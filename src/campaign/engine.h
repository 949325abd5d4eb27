/*
 * engine.h — the measuring phases' shared machinery (calibrate, measure;
 * method §2.3–§2.5, §4, §11.2, §13): run directory and campaign.json,
 * host check and refusal, environment equality (R10), the benchmark CPU's
 * host-wide lock, the list of units (instance × operation) and running the
 * timing driver.  Candidate code only ever runs in the driver processes.
 */
#ifndef NGCC_ENGINE_H
#define NGCC_ENGINE_H

#include <jansson.h>
#include <stdio.h>

#include "method/plan.h"
#include "campaign/progress.h"
#include "proc/spawn.h"
#include "host/counter.h"
#include "host/hostcheck.h"
#include "util/util.h"

#define CALIBRATION_KIND "calibration"
#define CALIBRATION_VERSION 1
#define CALIBRATION_TIMEOUT_S (6 * 3600.0)
#define DRIVER_NAME "ngcc-perf-driver"
#define DRIVER_SHOWN "<ngcc-perf>/bin/" DRIVER_NAME

struct engine_opts {
	const char *workspace;      /* absolute */
	const char *run;            /* as given (relative to the workspace) */
	int cpu;                    /* -1: highest allowed */
	struct planning planning;
	struct host_override ovr;
	int redo_stale;
	double max_timeout_s;       /* > 0: cap every hard timeout (tests) */
	int counter_fallback;       /* drivers use the fallback counter */
	int tty;
	struct strlist ids;         /* candidates to include; empty: all built */
};

/* One instance × operation. */
struct unit {
	char *cand, *label, *op, *stem;
	char *library;              /* workspace-relative */
	char *library_sha256;       /* of the file now */
	json_t *inst;               /* build.json entry (owned reference) */
	/* calibration */
	int calibrated;             /* a complete calibration is available */
	double t1_s, setup_s;
	json_t *calib_process;      /* its process entry (owned), or NULL */
	char *calib_error;          /* why there is none */
	struct plan plan;
	int unit_index;
};

struct engine {
	struct engine_opts o;
	const char *phase;          /* "calibrate" or "measure" */
	char *run;                  /* absolute */
	char *driver;               /* absolute path of the driver */
	int cpu;
	int cpu_lock_fd;
	int run_lock_fd;            /* one measuring worker per run directory */
	struct counter counter;
	struct strlist problems;    /* host problems (and environment changes) */
	json_t *host_state;         /* record "host" object */
	json_t *env;                /* environment at phase start */
	json_t *env_ref;            /* first complete record's, or NULL */
	int env_ref_same_cpu;       /* it was taken on our CPU */
	double ref_clock_hz;
	size_t phase_index;
	struct unit *units;
	size_t n_units;
	struct strlist not_timed;   /* "<ID>/<label>: <why>" */
	struct progress progress;
	int refused;                /* an environment change stopped the phase */
};

/* Set up a measuring phase: run directory, host check (refusal → returns
 * EXIT_USAGE), CPU lock, campaign.json (planning, host checks, overrides,
 * phase entry), environment and its equality, the list of units.
 * Returns EXIT_OK or the exit code to give up with. */
int engine_begin(struct engine *e, const struct engine_opts *o, const char *phase);
/* Close the phase entry with exit_code and record the end environment. */
void engine_end(struct engine *e, int exit_code);
void engine_free(struct engine *e);

/* Run the driver once.  trials/iters/warmups as for the driver; the
 * process entry is returned (never NULL). */
json_t *engine_run_driver(struct engine *e, const struct unit *u, int trials,
			  long iters, int warmups, double timeout_s, int attempt);

/* Calibrate every unit lacking a complete calibration (resuming), and load
 * t1 and S of all.  Returns the number of units without a calibration. */
int engine_calibrate(struct engine *e);

/* Measure every unit (resuming).  Returns EXIT_OK when every record is
 * complete, EXIT_FAILED otherwise, EXIT_USAGE on refusal. */
int engine_measure(struct engine *e);

/* R10 before a record write: 0 when the environment is still equal (or
 * the difference is overridden and recorded), -1 to refuse. */
int engine_env_still_equal(struct engine *e);

/* The --run directory: as given when absolute, else joined to the
 * workspace (not made canonical); caller frees.  o->run must be set. */
char *engine_run_dir(const struct engine_opts *o);

/* u's complete timing record (records/) of the library as it is now, or
 * NULL: the memory and profile passes work only from such a record. */
json_t *engine_timing_record(const struct engine *e, const struct unit *u);

/* Append s (taken over) to a child program's argv and to its command as
 * recorded (shown). */
void engine_push_arg(struct strlist *argv, json_t *shown, char *s);

/* Options shared by calibrate, measure and campaign. */
void engine_opts_init(struct engine_opts *o, const char *workspace, int tty);
void engine_opts_free(struct engine_opts *o);
/* getopt_long table entries and their handling; returns 1 if the option
 * was one of ours, 0 if not, -1 on a bad value (message printed). */
#define ENGINE_LONG_OPTIONS \
	{ "run", required_argument, NULL, 'r' }, \
	{ "cpu", required_argument, NULL, 'c' }, \
	{ "trials", required_argument, NULL, 1001 }, \
	{ "trial-target", required_argument, NULL, 1002 }, \
	{ "op-budget", required_argument, NULL, 1003 }, \
	{ "allow-unfixed-host", optional_argument, NULL, 1004 }, \
	{ "redo-stale", no_argument, NULL, 1005 }, \
	{ "max-timeout", required_argument, NULL, 1006 }, \
	{ "counter", required_argument, NULL, 1007 }
int engine_opt(struct engine_opts *o, int c, const char *arg);
extern const char engine_options_help[];
/* Parse the command line of calibrate/measure (options, then candidate
 * ids).  Returns -1 after --help, 0 to go on, or an exit code. */
int engine_parse_cli(int argc, char **argv, struct engine_opts *o,
		     void (*usage)(FILE *));

#endif
