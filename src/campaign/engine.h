/*
 * engine.h — the measuring phases' shared machinery (calibrate, measure;
 * docs/method.md §2.3–§2.5, §4, §11.2, §13): run directory and campaign.json,
 * host check and refusal, environment equality (R10), the benchmark CPU's
 * host-wide lock, the list of units (instance × operation) and running the
 * timing driver.  Candidate code only ever runs in the driver processes.
 */
#ifndef NGCC_ENGINE_H
#define NGCC_ENGINE_H

#include <jansson.h>
#include <stdio.h>

#include "build/select.h"
#include "campaign/progress.h"
#include "host/background.h"
#include "method/shard.h"
#include "host/counter.h"
#include "host/hostcheck.h"
#include "method/plan.h"
#include "proc/spawn.h"
#include "util/util.h"

#define CALIBRATION_KIND "calibration"
#define CALIBRATION_VERSION 1
#define CALIBRATION_TIMEOUT_S (6 * 3600.0)
#define DRIVER_NAME "ngcc-perf-driver"
/* R17: a warm calibration's calls, after one warm-up; t1 is their median. */
#define CALIBRATION_WARM_CALLS 3

/*
 * The environment one phase captured at its end, handed to the next phase
 * of the same process.  Taken moments apart on the same CPU with the same
 * counter, one full capture (about 1.1 s) serves as the end of one phase
 * and the start of the next: a campaign captures once per phase.
 */
struct env_carry {
	json_t *env;                /* owned; NULL until a phase has ended */
	int cpu;
	int counter_fallback;
};
void env_carry_free(struct env_carry *c);

struct engine_opts {
	const char *workspace;      /* absolute */
	const char *run;            /* as given (relative to the workspace) */
	int cpu;                    /* -1: highest allowed; CPU_AUTO: highest free */
	struct planning planning;
	struct host_override ovr;
	int redo_stale;
	double max_timeout_s;       /* > 0: cap every hard timeout (tests) */
	int counter_fallback;       /* drivers use the fallback counter */
	int tty;
	struct strlist ids;         /* instance selectors (build/select.h): candidate
	                             * ids, ID/LABEL, labels, globs; empty: all built */
	struct strlist ops;         /* --op: operations to include; empty: all */
	struct env_carry *carry;    /* shared by the phases of one command, or NULL */
	/* docs/method.md §13 */
	struct shard_spec shard;    /* n = 0: not sharded */
	const char *defer;          /* --defer: instances kept out of the shards */
	int deferred_only;          /* --deferred-only: only those */
	struct strlist priors;      /* --prior datasets or runs (shard costs) */
	/* docs/method.md §14 R1 and R2 (campaign/pool.h) */
	int seed_per_trial;         /* --seed-mode per-trial */
	int input_pool;             /* --input-pool P; 0: no pool pass */
	int no_sampling;            /* --no-sampling: no R11 pass (campaign/sampling.h) */
};
#define ENGINE_INPUT_POOL_DEFAULT 16
#define ENGINE_INPUT_POOL_MAX 64    /* driver/pool.h POOL_MAX_INPUTS */
/* Another default for --input-pool (0 turns the pass off): the test
 * suite's way to keep the pass out of the tests that do not need it. */
#define ENGINE_INPUT_POOL_ENV "NGCC_PERF_INPUT_POOL"

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
	size_t not_timed_cpu;       /* of which UNSUPPORTED_CPU: this host's limits,
				     * not the candidate's failure */
	struct selection sel;       /* o.ids and o.ops resolved */
	int usage_error;            /* the selection matched nothing (EXIT_USAGE) */
	struct progress progress;
	int refused;                /* an environment change stopped the phase */
	/* docs/method.md §13: the assignment this worker follows */
	int assigned;
	struct shard_assignment assign;
	size_t n_elsewhere;         /* units left to other shards or the deferred worker */
	/* R7: the background disturbance of the benchmark CPU (measure) */
	int have_background;
	struct background background;
	/* R1: 1 + the trial number the next driver process starts at, or 0
	 * for the fixed seed (set by measure around each process) */
	int trial_seed_next;
};

/* What a phase did with its units, for the summary line every measuring
 * phase prints the same way. */
struct tally {
	int kept;           /* complete and current from an earlier run: kept */
	int made;           /* made complete now */
	int failed;         /* not complete (made now, or attempts exhausted) */
	int left;           /* not done because the phase was interrupted */
	char *cut;          /* "<ID> <label> <op>" the interruption cut short, or NULL */
};
/* "measure: 3 kept, 2 measured, 0 failed; run <run>" on stderr (noun:
 * "record", "calibration", "profile"; made_word: "measured", "calibrated",
 * "profiled"); after an interruption first what was kept and what the
 * same command will redo.  Frees t->cut.  Returns EXIT_INTERRUPTED after
 * an interruption, else rc. */
int engine_summary(const struct engine *e, struct tally *t, const char *noun,
		   const char *made_word, int rc);
/* A signal arrived: note the unit it cut short (once). */
void tally_cut(struct tally *t, const struct unit *u);

/* Set up a measuring phase: run directory, host check (refusal → returns
 * EXIT_USAGE), CPU lock, campaign.json (planning, host checks, overrides,
 * phase entry), environment and its equality, the list of units.
 * Returns EXIT_OK or the exit code to give up with. */
int engine_begin(struct engine *e, const struct engine_opts *o, const char *phase);
/* Close the phase entry with exit_code and record the end environment. */
void engine_end(struct engine *e, int exit_code);
void engine_free(struct engine *e);
void engine_unit_free(struct unit *u);

/* A hard timeout as the phase applies it: capped by --max-timeout. */
double engine_timeout(const struct engine *e, double timeout_s);
/* Run one of our child programs for a unit the way every measuring
 * process runs: in the workspace, pinned to the benchmark CPU, with the
 * given hard timeout, a 256 MiB file-size limit and a result pipe.  0 if
 * it ran, -1 if it could not start (res zeroed first either way). */
struct child_cmd;
int engine_spawn(const struct engine *e, const struct child_cmd *cmd, double timeout_s,
		 size_t tail_bytes, struct spawn_res *res);
/* Append "--counter-hz NAME=HZ", the phase's counter and its calibrated
 * rate, for a timing or profile driver to take instead of calibrating
 * (docs/method.md §6.2); nothing when the phase has no counter. */
void engine_counter_rate_arg(const struct engine *e, struct child_cmd *cmd);
/* Append the timing driver's "--cpu N", "--counter fallback" when the
 * phase asked for it, and the counter rate (engine_counter_rate_arg): the
 * same for the measure, sampling and input-pool passes. */
void engine_timing_args(const struct engine *e, struct child_cmd *cmd);

/* Run the driver once.  trials/iters/warmups as for the driver; the
 * process entry is returned (never NULL). */
json_t *engine_run_driver(struct engine *e, const struct unit *u, int trials,
			  long iters, int warmups, double timeout_s, int attempt);

/* Calibrate every unit lacking a complete calibration (resuming), and load
 * t1 and S of all.  Returns the number of units without a calibration;
 * t (may be NULL) counts what was done.  After an interruption the units
 * not calibrated are left alone (interrupt_pending() says so). */
int engine_calibrate(struct engine *e, struct tally *t);
/* `calibrate`: a phase that only calibrates (summary line on stderr).
 * Returns EXIT_OK when every unit has a calibration, EXIT_FAILED when some
 * has none, or the exit code engine_begin gave up with. */
int calibrate_phase(const struct engine_opts *o);

/* Measure every unit (resuming).  Returns EXIT_OK when every record is
 * complete, EXIT_FAILED otherwise, EXIT_USAGE on refusal. */
int engine_measure(struct engine *e);
/* The measure phase: engine_begin, engine_measure, engine_end.  o->cpu is
 * set to the benchmark CPU used (it is off our affinity afterwards).
 * not_timed_fails: an instance that is not timed fails the phase
 * (campaign).  Returns as engine_measure, or engine_begin's exit code. */
int measure_phase(struct engine_opts *o, int not_timed_fails);
/* `measure`: measure_phase, then the sampling pass (campaign/sampling.h)
 * unless o->no_sampling, then the memory pass (campaign/memory.h) unless
 * memory_pass is 0; the worst of the exit codes. */
int measure_command(struct engine_opts *o, int memory_pass);

/* R10 before a record write: 0 when the environment is still equal (or
 * the difference is overridden and recorded), -1 to refuse. */
int engine_env_still_equal(struct engine *e);

/* The --run directory: as given when absolute, else joined to the
 * workspace (not made canonical); caller frees.  o->run must be set. */
char *engine_run_dir(const struct engine_opts *o);

/* u's complete timing record (records/) of the library as it is now, or
 * NULL: the memory and profile passes work only from such a record. */
json_t *engine_timing_record(const struct engine *e, const struct unit *u);

/* engine_shard.c: keep only this worker's units (--shard, --defer,
 * --deferred-only), the assignment computed over every instance listed;
 * 0, or -1 with a message (an unreadable --prior, a bad expression). */
int engine_select_shard(struct engine *e);
/* The assignment alone (e->assigned stays 0 without sharding options),
 * and the shard of a unit under it (1 when there is none).  priors (may be
 * NULL) receives the --prior records read for the costs once e->assigned
 * is set, for the caller to use and prior_free(); else it is left empty. */
struct prior;
int engine_assign(struct engine *e, struct prior *priors);
int engine_unit_shard(const struct engine *e, const struct unit *u);
/* The units of the workspace for o (candidates, KAT states, build.json),
 * without checking the host or taking any lock: for `plan` and `status`.
 * EXIT_OK or EXIT_INPUT. */
int engine_list_only(struct engine *e, const struct engine_opts *o, const char *phase);
/* campaign.json "shards" for this worker, and the check that a resumed run
 * follows the same assignment (0, or -1 with *why). */
json_t *engine_shards_json(const struct engine *e);
/* "k/n", "deferred" or null: the shard field of host checks and phases. */
json_t *engine_shard_label(const struct engine *e);
int engine_shards_check(const struct engine *e, json_t *doc, char **why);
/* The background probe of this run's benchmark CPU: reused from
 * campaign.json when the run has one for the CPU, else measured and added
 * (method R7).  0, or -1 with a message. */
int engine_background(struct engine *e);


/* Options shared by calibrate, measure, memory, profile and campaign
 * (their command line: cli/engine_cli.c). */
void engine_opts_init(struct engine_opts *o, const char *workspace, int tty);
void engine_opts_free(struct engine_opts *o);

#endif
