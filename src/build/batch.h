/*
 * batch.h — `build` (docs/method.md §2.1, §11.4): every enabled instance of a list
 * of candidates compiled in one pool of compiler processes, one `BUILD`
 * line per instance in the conf's order, the results recorded in each
 * build/<ID>/build.json.  `build` and `campaign` call it.
 */
#ifndef NGCC_BUILD_BATCH_H
#define NGCC_BUILD_BATCH_H

#include "util/util.h"

struct build_request {
	const char *workspace;   /* absolute */
	struct strlist ids;      /* candidates (repeats ignored); empty: all of the workspace */
	int jobs;                /* compiler processes at once; <= 0: online CPUs */
	int tty;                 /* a progress line on stderr */
};

/* Returns an ngcc_exit code: 0 all built; 1 an instance failed to build
 * (BUILDFAIL); 3 no candidate, or a missing or invalid candidate.conf;
 * 4 a system error. */
int build_candidates(const struct build_request *r);

#endif
