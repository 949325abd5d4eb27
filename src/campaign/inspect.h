/*
 * inspect.h — `ngcc-perf plan` and `ngcc-perf status`: the campaign seen
 * from outside, without measuring, checking the host or taking a lock.
 *
 * plan: the workspace's units (as measure would list them), their t1 and
 * S from the run's calibrations (--run), else from --prior datasets, and
 * the estimate of src/campaign/estimate.h on 1..N benchmark CPUs.
 *
 * status: the units a run directory is responsible for — every unit of the
 * candidates it was given (options.candidates), or of its shard under the
 * assignment recorded in campaign.json (shards: n, shard, --defer,
 * --prior; a merged run covers the shards it was merged from) — each with
 * its state (src/campaign/runstatus.h), and the ETA of what is left.
 */
#ifndef NGCC_INSPECT_H
#define NGCC_INSPECT_H

#include "campaign/engine.h"

struct inspect_opts {
	int json;            /* machine-readable output */
	int max_cpus;        /* plan: totals on 1..max_cpus CPUs (0: the allowed CPUs) */
	int memory_pass;     /* plan: the memory pass follows measure */
	int profile;         /* plan: profile follows */
	int sampling;        /* plan: the sampling pass (R11) follows measure */
	size_t top;          /* plan: how many of the most expensive operations */
};

/* EXIT_OK (for status: the run is settled), EXIT_FAILED (status: work is
 * left), EXIT_USAGE, or EXIT_INPUT (no units, no run, unreadable prior). */
int inspect_plan(const struct engine_opts *o, const struct inspect_opts *io);
int inspect_status(const struct engine_opts *o, const struct inspect_opts *io);
/* `status --figures`: the results table of o->run (campaign/results.h).
 * EXIT_OK, or EXIT_INPUT when it is not a run or has no complete record. */
int inspect_figures(const struct engine_opts *o);
/* The units of run (absolute, in workspace) that no phase selected
 * ("<ID>/<label> <op>" into out): what publish refuses to leave out
 * silently.  EXIT_OK or an exit code after a message. */
int inspect_unselected(const char *workspace, const char *run, struct strlist *out);

#endif
