/*
 * campaign.h — `campaign` (docs/method.md §2): the whole chain for a list of
 * packages or candidate ids — host check, add, build, kat, optionally the
 * checks, measure (with its calibration), the memory pass, profile and
 * report — in one process,
 * each stage called in turn and recorded as a phase of the run.
 */
#ifndef NGCC_PIPELINE_CAMPAIGN_H
#define NGCC_PIPELINE_CAMPAIGN_H

#include "campaign/engine.h"
#include "util/util.h"

struct campaign_request {
	struct engine_opts o;    /* the measuring options; o.run is required */
	struct strlist args;     /* package paths (added unless present) or candidate ids */
	const char *pages_out;   /* folder of the pages, absolute; NULL: <run>/reports */
	int memory_pass;         /* run the memory pass after measure */
	int no_repeat;           /* --no-repeat: no repeatability sample (campaign/repeat.h) */
	int check;               /* run `check` after kat */
	long check_rounds;       /* its round trips; 0: the default */
	struct strlist skip_kat_files; /* hash KAT files not to run (kat --skip-kat-file) */
	/* The ICCS baseline (candidate iccs, docs/method.md §10.7) is generated,
	 * built, self-tested and measured with the others: -1 when a hash
	 * candidate is among them, 1 always, 0 never. */
	int baseline;
};

/*
 * Run the chain.  Returns the worst exit code of its phases: 0 only when
 * every KAT passed, every record and profile is complete and the pages
 * were written; a refusal (2) or an error of our own while measuring stops
 * the chain before profile and report.
 */
int campaign_run(struct campaign_request *r);

#endif
