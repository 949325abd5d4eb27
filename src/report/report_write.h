/*
 * report_write.h — the `report` step shared by `report` and `campaign`:
 * load a run directory with its workspace's build/ and catalogs, write the
 * run's size audit (<run>/size_audit.json, model/size_audit.h) and
 * every Markdown page (report.h) atomically under an output folder.
 */
#ifndef NGCC_REPORT_WRITE_H
#define NGCC_REPORT_WRITE_H

#include <stdio.h>

struct report_written {
	char *system_id;   /* the system rendered (malloc'd) */
	size_t n_pages;
};

/*
 * workspace, run and out_dir are absolute; system is the --system override
 * or NULL.  Each page path is printed to list unless it is NULL.  Returns
 * an ngcc_exit code: 0 written; 3 missing or corrupt run data, or a bad
 * size catalog; 4 a file cannot be written.  *done (may be NULL) is filled
 * on success; free it with report_written_free().
 */
int report_write_run(const char *workspace, const char *run, const char *out_dir,
		     const char *system, FILE *list, struct report_written *done);
void report_written_free(struct report_written *done);

#endif
