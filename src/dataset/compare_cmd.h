/*
 * compare_cmd.h — `ngcc-perf compare A B`: load two run directories or
 * published datasets, compare them (compare/compare.h), print the table,
 * write the requested files and return the exit status for CI.
 */
#ifndef NGCC_DATASET_COMPARE_CMD_H
#define NGCC_DATASET_COMPARE_CMD_H

#include "compare/compare.h"

struct compare_request {
	const char *workspace;        /* absolute (-C) */
	const char *a, *b;            /* absolute paths of the two sides */
	const char *system_a, *system_b;   /* --system for each side, or NULL */
	struct cmp_opts opts;         /* name_a/name_b: the arguments as given */
	const char *markdown, *csv;   /* absolute file paths, or NULL */
	const char *out;              /* absolute folder for the page, or NULL */
};

/* A side is a run directory when it holds campaign.json (read with the
 * closest folder above it that holds build/, else the -C workspace), and a
 * published dataset when it holds data/ (its only system, or --system).
 * Returns 0 (no significant regression), 1 (a regression beyond the
 * threshold), 2 (usage: a side with several systems and no --system, a
 * refused --out), 3 (a side missing or corrupt), 4 (cannot write). */
int compare_make(const struct compare_request *r);

/* One side of a comparison, as `compare` and `changes` read it: dir as a
 * run directory (campaign.json: read with workspace, or when nearest with
 * the closest folder above dir holding build/, else workspace) or as a
 * published dataset (data/: system, else its only one).  0, or an exit
 * code with *err (malloc'd). */
int measurement_load(const char *dir, const char *workspace, int nearest, const char *system,
		     struct dataset *ds, char **err);

#endif
