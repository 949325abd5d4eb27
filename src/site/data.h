/*
 * data.h — the data/<SYS>/ downloads of the site (docs/report-format.md §11): the
 * evidence tree of a system, summary.csv, profiles.csv, sizes.csv,
 * dataset.json, schema/ and SHA256SUMS.
 */
#ifndef NGCC_SITE_DATA_H
#define NGCC_SITE_DATA_H

#include <stddef.h>

#include "model/dataset.h"
#include "site/files.h"

/* One measured system: its loaded dataset and where its evidence lives
 * (data/<SYS>/ of a published dataset, or a run directory plus the
 * workspace whose build/<cand>/kat/ logs it refers to). */
struct site_system {
	struct dataset *ds;
	const char *evidence_dir;
	const char *workspace;     /* run mode only, else NULL */
};

/* The data/<SYS>/ downloads other than the evidence copy. */
void site_data_downloads(const struct dataset *ds, const char *prefix, struct site_files *out);
/* The evidence tree of one system below prefix ("data/<SYS>/"). */
int site_copy_evidence(const struct site_system *s, const char *prefix,
		       struct site_files *out, char **err);
/* SHA256SUMS over the files below prefix (which must end in '/'). */
char *site_sha256sums(const struct site_files *f, const char *prefix, size_t *len);

#endif
