/*
 * history.c — see history.h.
 */
#include "site/history.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "package/discover.h"
#include "package/pkgdigest.h"
#include "report/history_page.h"
#include "util/fsutil.h"
#include "util/untrusted.h"

/* site_path (history/<ID>/<rel>) read below the dataset, never through a
 * link: a dataset is input we did not write (docs/security.md). */
static int add_file(struct site_files *to, const char *dataset_dir, const char *site_path,
		    char **err)
{
	char *data = NULL;
	size_t len;
	if (root_read_file(dataset_dir, site_path, &data, &len)) {
		*err = xasprintf("%s/%s: cannot read: %s", dataset_dir, site_path, io_strerror(errno));
		return -1;
	}
	site_files_add(to, site_path, data, len);
	return 0;
}

/* One candidate's pages; *listed set when it has a page. */
static int candidate(const char *dataset_dir, const char *cand, struct site_files *md,
		     struct site_files *files, int *listed, char **err)
{
	char *hist = path_joinf(dataset_dir, "%s/%s", HISTORY_DIR, cand);
	struct history_view v;
	struct strlist all = STRLIST_INIT;
	int rc = history_scan(hist, cand, &v, err);
	*listed = !rc && v.log.n >= 2;
	if (*listed) {
		char *page = history_index_md(&v, "../../"), *p = xasprintf("history/%s/index.md", cand);
		site_files_add_str(md, p, page);
		free(p);
		free(page);
		tree_list_files(hist, "", &all);
	}
	for (size_t i = 0; i < all.n && !rc; i++) {
		const char *rel = all.items[i];
		char *site_path = xasprintf("history/%s/%s", cand, rel);
		int archived = strchr(rel, '/') != NULL;
		if (str_starts_with(rel, "changes-") && str_ends_with(rel, ".md"))
			rc = add_file(md, dataset_dir, site_path, err);
		else if (archived && str_ends_with(rel, ".md"))
			rc = add_file(md, dataset_dir, site_path, err);
		else if (archived)
			rc = add_file(files, dataset_dir, site_path, err);
		free(site_path);
	}
	sl_free(&all);
	history_view_free(&v);
	free(hist);
	return rc;
}

int site_history_inputs(const char *dataset_dir, struct site_files *md, struct site_files *files,
			char **err)
{
	struct strlist cands = STRLIST_INIT;
	struct strbuf list = STRBUF_INIT;
	char *dir = path_join(dataset_dir, HISTORY_DIR);
	int rc = 0;
	dir_list(dir, DIR_PICK_DIRS, &cands);
	for (size_t i = 0; i < cands.n && !rc; i++) {
		int listed = 0;
		char *rel = path_join(HISTORY_DIR, cands.items[i]);
		int ours = valid_candidate_id(cands.items[i]) && root_kind(dataset_dir, rel) == 'd';
		free(rel);
		if (!ours)
			continue; /* validate names it */
		rc = candidate(dataset_dir, cands.items[i], md, files, &listed, err);
		if (listed)
			sb_addf(&list, "- [%s](history/%s/index.md)\n", cands.items[i], cands.items[i]);
	}
	if (!rc && list.len) {
		char *page = xasprintf("[Performance measurements](index.md) \xe2\x80\xba Package versions\n\n"
				       "# Package versions\n\nThe candidates with more than one package "
				       "version, each with its change history: every version's package "
				       "and pages, and what changed from one to the next.\n\n%s",
				       list.buf);
		site_files_add_str(md, "history.md", page);
		free(page);
	}
	sb_free(&list);
	sl_free(&cands);
	free(dir);
	return rc;
}
