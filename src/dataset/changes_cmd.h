/*
 * changes_cmd.h — `ngcc-perf changes ID`: the "what changed" report of two
 * package versions of a candidate (report/changes.h), with the timing
 * comparison of compare/compare.h when two measurements of the versions
 * are given (run directories or published datasets).
 */
#ifndef NGCC_DATASET_CHANGES_CMD_H
#define NGCC_DATASET_CHANGES_CMD_H

#include "model/dataset.h"

struct changes_request {
	const char *workspace;   /* absolute (-C) */
	const char *id;
	int from, to;            /* 0: to the current version, from the one before */
	const char *a, *b;       /* measurements of versions from and to (absolute), or NULL;
				    a run of an older version is read with its kept build
				    records */
	const char *system;      /* the system of a dataset holding several, or NULL */
	double threshold;        /* fraction (compare's --threshold / 100) */
	const char *output;      /* Markdown file (absolute), or NULL: stdout */
};

/* Exit: 0 written; 1 the timing comparison found a regression beyond the
 * threshold; 2 usage (one version only, an unknown version, --a without
 * --b); 3 a version or a measurement missing or unreadable; 4 cannot
 * write. */
int changes_make(const struct changes_request *r);

/* The timing comparison of candidate id between two loaded datasets, as
 * Markdown with headings from ###, named "version FROM" and "version TO"
 * (malloc'd), or NULL with *err.  *regression: 1 when a row is one. */
char *changes_compare_md(const struct dataset *a, const struct dataset *b, const char *id,
			 int from, int to, double threshold, int *regression, char **err);

#endif
