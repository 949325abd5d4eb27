/*
 * validate.h — `ngcc-perf validate DATASET` (docs/method.md §12): check a published
 * dataset from its files alone.  For each data/<SYS>/:
 *
 *  1. campaign.json's system_id names the folder (and systems.csv when the
 *     dataset has one); every JSON file has a known schema version and no
 *     absolute path;
 *  2. KAT logs exist, their SHA-256 is build.json's kat_log_sha256 and
 *     their last line is a RESULT with build.json's status; records'
 *     library digests match build.json;
 *  3. every record's instance is in build.json; complete records have the
 *     planned trial count, `trials` equal to the processes' trials in
 *     order, N = Σ calls, an environment equal to the others' (R10 keys),
 *     and every §7 statistic recomputed from the raw trials (integers
 *     exactly, doubles to 1e-12 relative); unfixed-host records only with
 *     --publish-unfixed (given here, or recorded in publish.json);
 *  4. profile shares, calls per operation and corrected shares recomputed
 *     from `calls` and `total`;
 *  5. every page under reports/ regenerated in memory and byte-identical.
 *
 * Each problem is one line `PROBLEM <path>: <what>` (path relative to the
 * dataset), then the summary line of docs/method.md §12.
 */
#ifndef NGCC_VALIDATE_H
#define NGCC_VALIDATE_H

#include <stddef.h>
#include <stdio.h>

struct validate_opts {
	int publish_unfixed;   /* accept records measured on an unfixed host */
	FILE *out;             /* PROBLEM lines and the summary (stdout) */
};

struct validate_counts {
	size_t records, profiles, kat_logs;
	size_t problems;       /* evidence problems */
	size_t mismatches;     /* report pages that differ, are missing or extra */
};

/* Returns 0 (no problem), 1 (problems or mismatches) or 3 (DATASET is not
 * a dataset: no data/<SYS>/ folder).  counts may be NULL. */
int validate_dataset(const char *dataset, const struct validate_opts *o,
		     struct validate_counts *counts);

/* Doubles agree to 1e-12 relative (exactly equal values always agree). */
int validate_close(double a, double b);

#endif
