/*
 * merge.h — join the run directories of one system's shards into one run
 * (`ngcc-perf merge RUN... --into RUN`, docs/method.md §13) that reports,
 * publishes and validates like a run measured in one go.
 *
 * Refused, with every offending file named: runs of different systems or
 * environments (the R10 keys, across CPUs); a mix of fixed and unfixed host
 * states; different planning constants or measuring options; shards of
 * different assignments (digest) or the same shard twice; evidence of one
 * instance made from different libraries (SHA-256); and the same evidence
 * file (record, calibration, memory, profile, attempt) in two runs.
 *
 * Every evidence file is copied unchanged under the same relative path,
 * but for a candidate's survey (profile/<ID>/survey.json), which each shard
 * wrote for the instances it profiled: those are joined and the verdict
 * recomputed over all of them; campaign.json is joined (earliest start, latest end, host checks,
 * overrides, phases and background probes of every shard, their CPUs,
 * notes); locks, temporary files and size_audit.json (which `report`
 * rewrites) are not copied.  The merged run is assembled in a temporary
 * sibling of --into and renamed into place, so --into never holds half a
 * merge.  --into must not exist, or be an empty directory, or (replace)
 * an earlier merge, which is removed once the new one is in place.
 */
#ifndef NGCC_MERGE_H
#define NGCC_MERGE_H

#include <stddef.h>

#include "util/util.h"

/* runs and into are absolute or relative to the current directory.
 * Returns EXIT_OK, EXIT_USAGE for a refusal (problems printed, one per
 * line), EXIT_INPUT for an unreadable run, EXIT_SYSTEM on I/O errors. */
int run_merge(const char *const *runs, size_t n_runs, const char *into, int replace);

/*
 * A merge killed between its renames leaves <into>.merge.tmp.<pid> (the
 * new run, perhaps half assembled) and <into>.merge.old.<pid> (the earlier
 * merge it was replacing).  The next merge into the same place finds those
 * whose process is gone: an old one goes back to --into when --into is
 * missing (the earlier merge was complete), everything else is removed,
 * each step said on stderr.  This appends their paths (old ones to old,
 * the others to tmp), for `status` to name them.
 */
void merge_leftovers(const char *into, struct strlist *old, struct strlist *tmp);

#endif
