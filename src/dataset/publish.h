/*
 * publish.h — `ngcc-perf publish` (docs/method.md §2 "Report/publish", §11.1):
 * turn a run directory and its workspace into a self-contained dataset
 *
 *   <dataset>/data/<SYS>/  campaign.json  build.json (the measured
 *                          candidates' entries merged)  publish.json
 *                          size_audit.json  records/ memory/ samples/ pool/
 *                          profile/ (as present)  kat/<cand>/<stem>.log
 *                          katcheck/<cand>/<stem>.log
 *   <dataset>/reports/     the Markdown pages, rendered from the dataset
 *   <dataset>/<catalogs>   systems.csv, survey.conf, …, report.json
 *
 * Calibrations, attempts, locks and build logs are not published.  Paths
 * in the evidence are made relative (workspace and run prefixes dropped,
 * our own tree written as `<ngcc-perf>/…`); if an absolute path remains
 * anywhere, nothing is published.  The new tree is built in a temporary
 * sibling `<dataset>.tmp.<pid>` and swapped in only when complete; other
 * systems' data/<X>/ of an existing dataset are carried over, its pages
 * are rendered again, and anything else in it (site/) is dropped.
 */
#ifndef NGCC_PUBLISH_H
#define NGCC_PUBLISH_H

#include <stdio.h>

#define PUBLISH_KIND "publish"
#define PUBLISH_VERSION 1

struct publish_opts {
	const char *workspace;   /* absolute */
	const char *run;         /* absolute */
	const char *dataset;     /* absolute */
	int publish_unfixed;     /* allow records taken on an unfixed host (R14) */
	const char *defer;       /* POSIX ERE matched anywhere in "<cand>/<stem>", or NULL */
	FILE *out;               /* progress and the summary line (stdout) */
	int allow_partial;       /* publish a run whose phases left units unselected */
};

/*
 * Publish.  Returns an ngcc_exit code: 0 published; 2 refused (unfixed
 * records without publish_unfixed, a bad --defer expression); 3 bad input
 * (no run directory, no campaign.json, corrupt evidence, an absolute path
 * that remains); 4 I/O failure.  On any failure the existing dataset is
 * untouched and the temporary tree is removed.
 */
int publish_dataset(const struct publish_opts *o);

#endif
