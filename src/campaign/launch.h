/*
 * launch.h — scripts that run a sharded campaign on existing job engines
 * (`ngcc-perf launch parallel|slurm`, docs/method.md §13): GNU parallel on this
 * machine's benchmark CPUs (or on several machines with --sshlogin, each
 * its own system), or a Slurm job array.  ngcc-perf schedules nothing
 * itself; the engines start the shards and the scripts only chain our
 * commands:
 *
 *   1. build and kat once (exit 1, "some check failed", goes on: instances
 *      whose KAT did not pass are still timed and marked);
 *   2. per shard k of n, into its own run directory <RUN>.shards/shard-<k>:
 *      measure (calibrating first, then the memory pass) and profile with
 *      --shard k/n; with --defer, one more worker measures the deferred
 *      instances (--deferred-only) into <RUN>.shards/deferred;
 *   3. merge the shard runs into <RUN>, then `status`, and `report` only
 *      when status says the run is settled.
 *
 * Each shard takes its benchmark CPU from --cpus, or the highest allowed
 * CPU whose host-wide lock is free (--cpu auto), which is how Slurm tasks
 * confined to a CPU set find theirs.
 */
#ifndef NGCC_LAUNCH_H
#define NGCC_LAUNCH_H

#include "util/util.h"

enum launch_engine { LAUNCH_PARALLEL, LAUNCH_SLURM };

struct launch_opts {
	enum launch_engine engine;
	const char *ngcc;            /* absolute path of the ngcc-perf program */
	const char *workspace;       /* absolute */
	const char *run;             /* the merged run, as given to --run */
	int shards;
	struct strlist cpus;         /* one benchmark CPU per shard; empty: auto */
	const char *defer;           /* regular expression, or NULL */
	const char *deferred_cpu;    /* NULL: auto */
	struct strlist ids;          /* candidate ids (empty: every built one) */
	struct strlist pass;         /* options for measure and profile (planning,
				      * host override, --prior, --counter, ...) */
	int memory_pass;
	int sampling;                /* 0: measure --no-sampling (campaign/sampling.h) */
	int repeat;                  /* the final job times a sample again (campaign/repeat.h) */
	/* parallel */
	const char *sshlogin;        /* NULL: this machine only */
	/* slurm */
	const char *partition, *nodelist, *time_limit;
	struct strlist sbatch_extra; /* more #SBATCH options, verbatim */
};

void launch_opts_init(struct launch_opts *o);
void launch_opts_free(struct launch_opts *o);

/* Write the scripts into dir (created): parallel → run-parallel.sh;
 * slurm → prep.sbatch, shards.sbatch, deferred.sbatch (with --defer),
 * final.sbatch and submit.sh.  Their paths are appended to written.
 * 0, or -1 with a message (LAUNCH_REFUSED: see launch_check()). */
#define LAUNCH_REFUSED (-2)
int launch_write(const struct launch_opts *o, const char *dir, struct strlist *written);
/* What launch_write() refuses before writing anything (LAUNCH_REFUSED, a
 * usage error): a run name that breaks the path-name rule
 * (evidence/names.h: a line break, '/', a leading '.'), and for Slurm a
 * line break in anything written into an #SBATCH line or a backslash in
 * the scripts' folder.  Spaces, quotes, ';' and '$' are quoted for the
 * shell and for sbatch instead.  0, or -1 with each problem said. */
int launch_check(const struct launch_opts *o, const char *dir);
/* s as one value of an #SBATCH line, in double quotes (caller frees). */
char *sbatch_quote(const char *s);

#endif
