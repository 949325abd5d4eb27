/*
 * repeat.h — repeatability, measured (docs/method.md §14, issue 28): at the
 * end of a campaign (or `measure --repeat`) a fixed, deterministic sample
 * of the run's timed units is timed again, in processes of its own, as a
 * second phase, and the records go to <run>/repeat/<ID>/<label>__<op>.json
 * in the timing record format (evidence/record.h).  The pages compare each
 * with its first record (model/repeat.h).
 *
 * The sample: per candidate, its units with a complete record sorted by
 * SHA-256("<ID>/<label>__<op>") (hex, byte order), the first
 * max(1, ceil(n / 20)) of them: about 5 %, at least one per candidate, the
 * same units whatever the order of measuring was.
 *
 * The re-timing is a measuring phase on the run directory <run>/repeat.run/
 * (its own campaign.json, locks and records; the calibrations of the
 * sampled units are copied from the run, so the plan is the same), whose
 * complete records are then copied to <run>/repeat/.  Rerunning resumes it
 * like any phase.
 */
#ifndef NGCC_CAMPAIGN_REPEAT_H
#define NGCC_CAMPAIGN_REPEAT_H

#include "campaign/engine.h"
#include "util/util.h"

#define REPEAT_DIR "repeat"
#define REPEAT_RUN_DIR "repeat.run"
#define REPEAT_SHARE_DIVISOR 20   /* ceil(n / 20): 5 % */

/* The sample of run (absolute): "<ID>/<label>__<op>" in candidate order,
 * then digest order. */
void repeat_sample(const char *run, struct strlist *units);

/* Re-time the sample (o: the options of the measuring phases of the run;
 * o->run the run).  Returns EXIT_OK when every sampled unit has a complete
 * repeat record, EXIT_FAILED when some has not, or the exit code the phase
 * gave up with (EXIT_INPUT when the run has no complete record). */
int repeat_phase(const struct engine_opts *o);

/* The options that switch it: `measure --repeat`, `campaign --no-repeat`. */
#define REPEAT_OPTION "--repeat"
#define REPEAT_NO_OPTION "--no-repeat"
/* Remove every `name` before a `--` from argv; 1 if there was one. */
int repeat_strip_option(int *argc, char **argv, const char *name);

#endif
