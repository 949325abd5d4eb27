/* report_write.c — see report_write.h. */
#include "report/report_write.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "build/select.h"
#include "model/dataset.h"
#include "model/size_audit.h"
#include "report/report.h"
#include "util/atomic.h"
#include "util/util.h"

char *report_default_out(const char *run)
{
	return path_join(run, "reports");
}

/* ---- the output folder: whose pages it holds ------------------------------------- */

/* a is b or lies below it (both absolute and normalised). */
static int path_within(const char *a, const char *b)
{
	size_t n = strlen(b);
	return !strncmp(a, b, n) && (a[n] == '\0' || a[n] == '/' || (n == 1 && b[0] == '/'));
}

int report_dir_is_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int empty = 1;
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = 0;
	if (d)
		closedir(d);
	return empty;
}

/* The run a marker names ("run <path>\n"), NULL when there is no marker
 * or it is not ours.  Caller frees. */
static char *marker_run(const char *out)
{
	char *path = path_join(out, REPORT_MARKER), *data = NULL, *run = NULL;
	size_t len;
	if (!read_file(path, &data, &len) && str_starts_with(data, "run /")) {
		data[strcspn(data, "\n")] = '\0';
		run = xstrdup(data + 4);
	}
	free(data);
	free(path);
	return run;
}

/* The run's identity: its real path (symbolic links resolved), so that
 * two spellings of one run are the same run. */
static char *run_identity(const char *run)
{
	char buf[PATH_MAX];
	return xstrdup(realpath(run, buf) ? buf : run);
}

/*
 * May the pages of run go into out?  Yes into a new or empty folder, and
 * into one holding this run's pages (they are replaced: the folder is
 * emptied first, so no page of a candidate gone from the run survives).
 * Pages of another run, or files that are not pages of ours, are
 * overwritten only with force (another run's tree is replaced, anything
 * else written over).  The run's own <run>/reports holds its pages even
 * when its marker names another path: the run was moved or copied.  Never
 * a folder holding the workspace or the run.
 */
static int claim_out_dir(const char *workspace, const char *run, const char *out, int force)
{
	struct stat st;
	if (path_within(workspace, out) || path_within(run, out)) {
		ngcc_error("the output folder %s would hold the workspace or the run %s; give "
			   "another --out (the default is <run>/reports)", out, run);
		return EXIT_USAGE;
	}
	if (!lstat(out, &st) && !S_ISDIR(st.st_mode)) {
		ngcc_error("%s exists and is not a folder; give another --out", out);
		return EXIT_USAGE;
	}
	if (!path_is_dir(out) || report_dir_is_empty(out))
		return EXIT_OK;
	char *theirs = marker_run(out), *ours = run_identity(run), *own = report_default_out(run);
	int rc = EXIT_OK;
	if (theirs && strcmp(theirs, ours) && strcmp(out, own) && !force) {
		ngcc_error("%s holds the pages of another run (%s); writing the pages of %s there "
			   "would overwrite them: give another --out (the default, <run>/reports, "
			   "is the run's own), or --force to replace them", out, theirs, run);
		rc = EXIT_USAGE;
	} else if (!theirs && !force) {
		ngcc_error("%s is not empty and holds no pages of `ngcc-perf report` (no %s): "
			   "its files may be pages of another run or not pages at all; give a new "
			   "or empty --out (the default is <run>/reports), or --force to write over "
			   "them", out, REPORT_MARKER);
		rc = EXIT_USAGE;
	} else if (theirs && rm_rf(out)) {
		ngcc_error("%s: cannot remove the previous pages: %s", out, strerror(errno));
		rc = EXIT_SYSTEM;
	}
	free(theirs);
	free(ours);
	free(own);
	return rc;
}

static int write_marker(const char *out, const char *run)
{
	char *path = path_join(out, REPORT_MARKER), *ours = run_identity(run);
	char *text = xasprintf("run %s\n", ours);
	int rc = mkdir_p(out, 0755) || atomic_write(path, text, strlen(text));
	if (rc)
		ngcc_error("cannot write %s: %s; check the output folder", path, strerror(errno));
	free(text);
	free(ours);
	free(path);
	return rc ? EXIT_SYSTEM : EXIT_OK;
}

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

static int selected_instance(void *ctx, const char *cand, const char *label, const char *stem)
{
	return selection_has_instance(ctx, cand, label) || selection_has_instance(ctx, cand, stem);
}

static int selected_op(void *ctx, const char *op)
{
	return selection_has_op(ctx, op);
}

/* After the size audit (of the whole run): only what sel selects. */
static int keep_selection(struct dataset *ds, const struct selection *sel, const char *run)
{
	if (!sel || selection_is_all(sel))
		return EXIT_OK;
	struct ds_keep k = { selected_instance, sel->ops.n ? selected_op : NULL, (void *)sel };
	dataset_keep(ds, &k);
	for (size_t i = 0; i < ds->n_cand; i++)
		for (size_t j = 0; j < ds->cand[i].n_inst; j++)
			if (ds->cand[i].inst[j].n_rec || ds->cand[i].inst[j].n_prof)
				return EXIT_OK;
	char *what = selection_describe(sel);
	ngcc_error("%s: nothing to report for %s: no timing record or profile of it in the run; "
		   "measure it first (`ngcc-perf measure SELECTOR --run %s`)", run, what, run);
	free(what);
	return EXIT_INPUT;
}

int report_write_run(const char *workspace, const char *run, const char *out_arg,
		     const char *system, int force, const struct selection *sel, FILE *list,
		     struct report_written *done)
{
	char *out_dir = out_arg ? xstrdup(out_arg) : report_default_out(run);
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
		rc = keep_selection(&ds, sel, run);
	if (rc == EXIT_OK)
		warn_not_profiled(&ds, run);
	if (rc == EXIT_OK)
		rc = claim_out_dir(workspace, run, out_dir, force);
	if (rc == EXIT_OK) {
		struct report_out pages;
		report_render(&ds, 1, &pages);
		rc = write_marker(out_dir, run);
		if (rc == EXIT_OK)
			rc = write_pages(out_dir, &pages, list);
		if (rc == EXIT_OK && list)
			fprintf(list, "note: the pages name evidence by its path in a published "
				"dataset (data/%s/...); until `ngcc-perf publish --run %s` the "
				"records and profiles are in %s and the KAT logs in build/<ID>/kat/\n",
				ds.system_id, run, run);
		if (rc == EXIT_OK && done) {
			done->system_id = xstrdup(ds.system_id);
			done->n_pages = pages.n;
			done->out_dir = xstrdup(out_dir);
		}
		report_out_free(&pages);
	}
	dataset_free(&ds);
	free(err);
	free(out_dir);
	return rc;
}

void report_written_free(struct report_written *done)
{
	free(done->system_id);
	free(done->out_dir);
	memset(done, 0, sizeof *done);
}
