/* report_write.c — see report_write.h. */
#include "report/report_write.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/dataset.h"
#include "model/size_audit.h"
#include "report/report.h"
#include "util/atomic.h"
#include "util/util.h"

static int write_pages(const char *out_dir, const struct report_out *pages, FILE *list)
{
	for (size_t i = 0; i < pages->n; i++) {
		char *path = path_join(out_dir, pages->f[i].path);
		char *dir = path_dirname(path);
		int rc = mkdir_p(dir, 0755) || atomic_write(path, pages->f[i].data, pages->f[i].len);
		if (rc)
			ngcc_error("cannot write %s: %s; check the output folder", path,
				   strerror(errno));
		else if (list)
			fprintf(list, "%s\n", path);
		free(dir);
		free(path);
		if (rc)
			return EXIT_SYSTEM;
	}
	return EXIT_OK;
}

/* The audit goes into the run, beside the evidence it is computed from. */
static int write_size_audit(const struct dataset *ds, const char *run)
{
	char *path = path_join(run, SIZE_AUDIT_FILE), *err = NULL;
	int rc = EXIT_OK;
	if (size_audit_catalog_check(ds, &err)) {
		ngcc_error("%s; fix the workspace catalog and run report again", err);
		rc = EXIT_INPUT;
	} else if (size_audit_write(ds, path, &err)) {
		ngcc_error("%s", err);
		rc = EXIT_SYSTEM;
	}
	free(err);
	free(path);
	return rc;
}

/* The pages say it; the console says it too, with what to run. */
static void warn_not_profiled(const struct dataset *ds, const char *run)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;
	for (size_t i = 0; i < ds->n_cand; i++)
		if (!ds_candidate_profiled(&ds->cand[i]) && strcmp(ds->cand[i].type, "hash"))
			sb_addf(&sb, "%s%s", n++ ? ", " : "", ds->cand[i].id);
	if (n)
		ngcc_warning("%s not profiled in %s: the pages say \"not profiled in this run\" "
			     "instead of hash and DRNG shares; run `ngcc-perf profile --run %s` and "
			     "report again to add them", sb.buf, run, run);
	sb_free(&sb);
}

int report_write_run(const char *workspace, const char *run, const char *out_dir,
		     const char *system, FILE *list, struct report_written *done)
{
	struct dataset ds;
	char *err = NULL;
	int rc;
	if (done)
		memset(done, 0, sizeof *done);
	if (dataset_load_run(&ds, workspace, run, system, &err)) {
		ngcc_error("%s", err ? err : run);
		rc = EXIT_INPUT;
	} else if (!ds.n_cand) {
		ngcc_error("%s: nothing to report: the run has no timing records or profiles; "
			   "run `ngcc-perf measure --run %s` first (or check --run and -C)", run, run);
		rc = EXIT_INPUT;
	} else {
		rc = write_size_audit(&ds, run);
	}
	if (rc == EXIT_OK)
		warn_not_profiled(&ds, run);
	if (rc == EXIT_OK) {
		struct report_out pages;
		report_render(&ds, 1, &pages);
		rc = write_pages(out_dir, &pages, list);
		if (rc == EXIT_OK && list)
			fprintf(list, "note: the pages name evidence by its path in a published "
				"dataset (data/%s/...); until `ngcc-perf publish --run %s` the "
				"records and profiles are in %s and the KAT logs in build/<ID>/kat/\n",
				ds.system_id, run, run);
		if (rc == EXIT_OK && done) {
			done->system_id = xstrdup(ds.system_id);
			done->n_pages = pages.n;
		}
		report_out_free(&pages);
	}
	dataset_free(&ds);
	free(err);
	return rc;
}

void report_written_free(struct report_written *done)
{
	free(done->system_id);
	memset(done, 0, sizeof *done);
}
