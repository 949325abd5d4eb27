/*
 * report_write.h — the `report` step shared by `report` and `campaign`:
 * load a run directory with its workspace's build/ and catalogs, write the
 * run's size audit (<run>/size_audit.json, model/size_audit.h) and
 * every Markdown page (report.h) atomically under an output folder, by
 * default the run's own <run>/reports/.
 */
#ifndef NGCC_REPORT_WRITE_H
#define NGCC_REPORT_WRITE_H

#include <stdio.h>

struct report_written {
	char *system_id;   /* the system rendered (malloc'd) */
	size_t n_pages;
	char *out_dir;     /* where the pages went (malloc'd) */
};

/* The file in a page folder naming the run its pages were rendered from
 * ("run <real path of the run>\n"), so that the pages of one run are never
 * silently overwritten with another's. */
#define REPORT_MARKER ".ngcc-perf-report"

/* 1 if dir holds no entry but "." and ".." (dot files count), or cannot be
 * opened; also the site's check of its output folder. */
int report_dir_is_empty(const char *dir);

/* The default page folder of a run: <run>/reports.  Caller frees. */
char *report_default_out(const char *run);

/*
 * workspace, run and out_dir are absolute; out_dir NULL is the run's
 * default (report_default_out); system is the --system override or NULL.
 * The folder must be new, empty or hold this run's pages (which are
 * replaced); pages of another run or foreign files are overwritten only
 * with force.  Each page path is printed to list unless it is NULL.
 * Returns an ngcc_exit code: 0 written; 2 the folder holds another run's
 * pages or foreign files (without force) or would hold the workspace or
 * the run; 3 missing or corrupt run data, or a bad size catalog; 4 a file
 * cannot be written.  *done (may be NULL) is filled on success; free it
 * with report_written_free().  sel (may be NULL: everything) renders the
 * selected instances and operations only (build/select.h, resolved); the
 * run's size_audit.json is still written for the whole run.
 */
struct selection;
int report_write_run(const char *workspace, const char *run, const char *out_dir,
		     const char *system, int force, const struct selection *sel, FILE *list,
		     struct report_written *done);
void report_written_free(struct report_written *done);

#endif
