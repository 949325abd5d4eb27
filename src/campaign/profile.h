/*
 * profile.h — the profile phase (docs/method.md §2.3–§2.8 "Profile", §10): for each
 * reference instance of each KEM candidate in the run, the instrumented
 * relink (build/instrumented.h), the primitive survey (build/survey.h),
 * then per operation one bin/ngcc-perf-profile process pinned to the
 * benchmark CPU, writing <run>/profile/<ID>/<label>__<op>.json
 * (evidence/profile_json.h), and finally <run>/profile/<ID>/survey.json.
 *
 * Like measure it refuses an unfixed host (exit 2) unless overridden,
 * records its phase in campaign.json, calibrates operations that have no
 * complete calibration (t1 and S set the iterations and the timeout), and
 * resumes: a complete profile of the same timed and instrumented library
 * is kept; others move to attempts/profile/ and are redone, at most 3
 * attempts.  A refused or failed relink writes
 * <run>/profile/<ID>/<label>__RELINK_FAILED.json instead.
 */
#ifndef NGCC_CAMPAIGN_PROFILE_H
#define NGCC_CAMPAIGN_PROFILE_H

#include "campaign/engine.h"

#define PROFILE_DRIVER_NAME "ngcc-perf-profile"
#define RELINK_FAILED_KIND "relink-failed"
#define RELINK_FAILED_VERSION 1

/*
 * Iterations and warm-ups of the profile driver from t1 and the plan's
 * trial target (docs/method.md §10.3): the profile is about one trial long.
 */
long profile_iterations(double t1_s, double target_s);
int profile_warmups(double t1_s);
/* 3 (iters + warm-ups) t1 + 3 S + 300 s */
double profile_timeout_s(double t1_s, double setup_s, double target_s);

/*
 * Run the phase with the measuring phases' options (workspace, --run,
 * --cpu, --allow-unfixed-host, --max-timeout, --counter, candidate ids;
 * empty ids: every built candidate).  `campaign` calls this after measure.
 * Returns EXIT_OK when every profile is complete, EXIT_FAILED when some
 * profile or relink failed, EXIT_USAGE on refusal, EXIT_INPUT or
 * EXIT_SYSTEM otherwise.
 */
int profile_phase(const struct engine_opts *o);

#endif
