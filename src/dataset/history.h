/*
 * history.h — the change history of a published dataset
 * (report/history_page.h has the layout): `publish` keeps the pages of a
 * candidate's older package version when a run of a newer one (or none)
 * takes its place on a system, writes what changed between the versions
 * (report/changes.h, with the timing comparison of the two published
 * measurements when the dataset held the older one) and the history page;
 * `validate` checks the folder.
 */
#ifndef NGCC_DATASET_HISTORY_H
#define NGCC_DATASET_HISTORY_H

#include "util/util.h"

struct history_publish {
	const char *workspace;        /* absolute */
	const char *dataset;          /* the dataset being replaced (may not exist) */
	const char *tmp;              /* the new tree, data/ and reports/ written */
	const char *sys;              /* the system being published */
	const struct strlist *cands;  /* the run's candidates */
};

/* Write tmp/history/.  0, or -1 with the error printed. */
int history_publish_tree(const struct history_publish *h);

/* Check dataset/history/: each candidate's folder reads, its SHA256SUMS
 * matches every file, its history page is what its files render, and each
 * current page it names exists.  Problems are appended; returns their
 * number. */
size_t history_validate(const char *dataset, struct strlist *problems);

#endif
