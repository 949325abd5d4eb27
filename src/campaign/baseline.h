/*
 * baseline.h — the ICCS baseline (docs/method.md §10.7): how fast the
 * auxiliary functions themselves are, so that a hash can be read as a
 * multiple of pseudoXOF.  `ngcc-perf baseline` writes the candidate `iccs`
 * into the workspace (a generated package: one hash instance per function
 * and width, for our runtime and for every package copy of auxfunc.c that
 * differs from ours, each with a self-test reference computed with
 * OpenSSL), builds it, self-tests it in the KAT gate and measures it like
 * a hash.  Like every measuring phase it refuses an unfixed host without
 * the override.
 */
#ifndef NGCC_CAMPAIGN_BASELINE_H
#define NGCC_CAMPAIGN_BASELINE_H

#include "campaign/engine.h"

/*
 * Write candidates/iccs/ (candidate.conf and source/) for the workspace
 * as it is now: pseudoXOF at 256 bits and at every digest width of an
 * enabled hash instance, sm3hash-256 and pseudohash-512/768/1024; the same
 * again for each distinct package copy of auxfunc.c.  Prints one line per
 * instance.  Returns an ngcc_exit code.
 */
int baseline_generate(const char *workspace);

/*
 * `baseline`: host check (refusal: EXIT_USAGE), baseline_generate, build,
 * the self-test (KAT gate of `iccs`, default timeout), then
 * measure_command() of `iccs` with o's options (o->ids is replaced).
 * Returns the worst exit code.
 */
int baseline_command(struct engine_opts *o, int memory_pass);

#endif
