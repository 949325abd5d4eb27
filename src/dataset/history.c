/*
 * history.c — see history.h: the dataset's history/ folder written by
 * `publish` and checked by `validate`.
 */
#include "dataset/history.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset/changes_cmd.h"
#include "model/dataset.h"
#include "package/discover.h"
#include "package/pkgdigest.h"
#include "package/versions.h"
#include "report/changes.h"
#include "report/history_page.h"
#include "util/atomic.h"
#include "util/fsutil.h"
#include "util/untrusted.h"

static int write_text(const char *path, const char *text)
{
	char *dir = path_dirname(path);
	int rc = mkdir_p(dir, 0755) || atomic_write(path, text, strlen(text)) ? -1 : 0;
	if (rc)
		ngcc_error("cannot write %s: %s", path, strerror(errno));
	free(dir);
	return rc;
}

/* ---- archiving the pages of a version ------------------------------------------- */

/* dataset/reports/<sys>/charts/<cand>-* into dst/charts/. */
static int archive_charts(const struct history_publish *h, const char *cand, const char *dst)
{
	char *charts = path_joinf(h->dataset, "reports/%s/charts", h->sys);
	char *prefix = xasprintf("%s-", cand);
	struct strlist files = STRLIST_INIT;
	int rc = 0;
	dir_list(charts, DIR_PICK_FILES, &files);
	for (size_t i = 0; i < files.n && !rc; i++) {
		if (!str_starts_with(files.items[i], prefix))
			continue;
		char *from = path_join(charts, files.items[i]);
		char *to = path_joinf(dst, "charts/%s", files.items[i]), *dir = path_dirname(to);
		rc = mkdir_p(dir, 0755) || copy_file(from, to) ? -1 : 0;
		if (rc)
			ngcc_error("cannot copy %s to %s: %s", from, to, strerror(errno));
		free(dir);
		free(to);
		free(from);
	}
	sl_free(&files);
	free(prefix);
	free(charts);
	return rc;
}

/* The page of cand shown as version `version` in the dataset being
 * replaced, into hist/<version>/<sys>/. */
static int archive_page(const struct history_publish *h, const char *cand, const char *hist,
			int version)
{
	char *page = path_joinf(h->dataset, "reports/%s/%s.md", h->sys, cand);
	char *page_rel = xasprintf("reports/%s/%s.md", h->sys, cand);
	char *dst = path_joinf(hist, "%d/%s", version, h->sys), *data = NULL;
	size_t len;
	int rc = 0;
	if (path_is_file(page)) {
		if (root_read_file(h->dataset, page_rel, &data, &len)) {
			ngcc_error("cannot read %s: %s", page, io_strerror(errno));
			rc = -1;
		} else {
			char *md = history_archive_page(data, len, cand, version, h->sys);
			char *to = path_joinf(dst, "%s.md", cand);
			rm_rf(dst);
			rc = write_text(to, md) || archive_charts(h, cand, dst);
			free(to);
			free(md);
		}
	}
	free(data);
	free(dst);
	free(page_rel);
	free(page);
	return rc;
}

/* ---- what changed ---------------------------------------------------------------------- */

/* The replaced dataset and the new tree on this system, loaded once for
 * every candidate whose timing is compared (timing_md). */
struct timing_sides {
	int tried, loaded;
	struct dataset old, now;
	char *err;
};

static int load_sides(const struct history_publish *h, struct timing_sides *t)
{
	if (!t->tried) {
		t->tried = 1;
		if (dataset_load_published(&t->old, h->dataset, h->sys, &t->err) == 0) {
			if (dataset_load_published(&t->now, h->tmp, h->sys, &t->err) == 0)
				t->loaded = 1;
			else
				dataset_free(&t->old);
		}
	}
	return t->loaded ? 0 : -1;
}

static void timing_sides_free(struct timing_sides *t)
{
	if (t->loaded) {
		dataset_free(&t->old);
		dataset_free(&t->now);
	}
	free(t->err);
}

/* The timing comparison of cand between the replaced dataset (version a)
 * and the new tree (version b) on this system, or NULL. */
static char *timing_md(const struct history_publish *h, struct timing_sides *t,
		       const char *cand, int a, int b)
{
	char *err = NULL, *md = NULL;
	int regression = 0;
	if (load_sides(h, t) == 0)
		md = changes_compare_md(&t->old, &t->now, cand, a, b, 0.05, &regression, &err);
	if (!md)
		ngcc_warning("publish: no timing comparison of %s versions %d and %d: %s", cand, a,
			     b, err ? err : t->err ? t->err : "?");
	free(err);
	return md;
}

static void write_changes(const struct history_publish *h, const char *cand, const char *hist,
			  int a, int b, const char *timing)
{
	struct strbuf md = STRBUF_INIT;
	char *err = NULL;
	char *none = xasprintf("Not compared: this dataset did not hold the measurements of "
			       "version %d when those of version %d were published on system %s "
			       "(`ngcc-perf changes %s --a A --b B` compares two measurements).",
			       a, b, h->sys, cand);
	struct changes_input in = { h->workspace, cand, a, b, timing, none };
	char *path = path_joinf(hist, "changes-%d-%d.md", a, b);
	if (changes_render(&in, &md, &err))
		ngcc_warning("publish: no what-changed page of %s versions %d to %d: %s", cand, a,
			     b, err ? err : "?");
	else
		write_text(path, md.buf);
	free(path);
	free(none);
	free(err);
	sb_free(&md);
}

/* ---- one candidate ----------------------------------------------------------------- */

static int write_index_and_sums(const char *hist, const char *cand)
{
	struct history_view v;
	char *err = NULL, *listing = NULL;
	size_t n;
	int rc = history_scan(hist, cand, &v, &err);
	if (rc) {
		ngcc_error("%s", err);
	} else {
		char *md = history_index_md(&v, "../../reports/");
		char *path = path_join(hist, "index.md");
		rc = write_text(path, md);
		free(path);
		free(md);
	}
	char *sums = path_join(hist, HISTORY_SUMS);
	rm_rf(sums);
	if (!rc && package_listing(hist, &listing, &n, &err)) {
		ngcc_error("%s", err);
		rc = -1;
	}
	if (!rc)
		rc = write_text(sums, listing);
	free(sums);
	free(listing);
	free(err);
	history_view_free(&v);
	return rc;
}

/* history/<cand>/ of the new tree: carried over, updated for this system. */
static int publish_candidate(const struct history_publish *h, struct timing_sides *t,
			     const char *cand)
{
	char *old = path_joinf(h->dataset, "%s/%s", HISTORY_DIR, cand);
	char *hist = path_joinf(h->tmp, "%s/%s", HISTORY_DIR, cand);
	char *cand_dir = path_joinf(h->workspace, "candidates/%s", cand);
	char *conf = path_join(cand_dir, VERSIONS_CONF), *err = NULL;
	struct version_log log = { 0 };
	struct history_view v;
	int in_run = sl_contains(h->cands, cand) && path_is_file(conf), rc = 0;
	memset(&v, 0, sizeof v);
	if (in_run && versions_load(cand_dir, &log, &err)) {
		ngcc_warning("publish: %s: %s; its change history is not updated", cand, err);
		in_run = 0;
	}
	if (path_is_dir(old) && (tree_copy(old, hist) || history_scan(hist, cand, &v, &err))) {
		ngcc_error("cannot carry %s over: %s", old, err ? err : strerror(errno));
		rc = -1;
	}
	int now = in_run ? versions_current(&log)->number : 0;
	int built = in_run ? version_of_build(h->workspace, cand, &log) : 0;
	if (in_run && built && built != now) {
		/* a newer package was added after the run's build: the pages are
		 * of the version that was built */
		ngcc_warning("publish: %s: version %d was added after the build this run "
			     "measured; its pages are recorded as version %d's", cand, now, built);
		now = built;
	}
	int shown = rc ? 0 : history_shown(&v, h->sys);
	if (!rc && shown && shown != now)
		rc = archive_page(h, cand, hist, shown);
	if (!rc && in_run) {
		char *to = path_join(hist, VERSIONS_CONF);
		rc = mkdir_p(hist, 0755) || copy_file(conf, to) ? -1 : 0;
		free(to);
		if (shown && shown < now) {
			char *md = timing_md(h, t, cand, shown, now);
			write_changes(h, cand, hist, shown, now, md);
			free(md);
		}
		for (int k = 2; k <= now && !rc; k++) {
			char *p = path_joinf(hist, "changes-%d-%d.md", k - 1, k);
			if (!path_exists(p))
				write_changes(h, cand, hist, k - 1, k, NULL);
			free(p);
		}
	}
	if (!rc && (in_run || shown)) {
		if (in_run)
			history_set_shown(&v, h->sys, now);
		else
			history_unset_shown(&v, h->sys);
		char *pc = history_pages_conf(&v), *path = path_join(hist, HISTORY_PAGES_CONF);
		rc = write_text(path, pc);
		free(path);
		free(pc);
	}
	if (!rc && path_is_dir(hist))
		rc = write_index_and_sums(hist, cand);
	history_view_free(&v);
	versions_free(&log);
	free(err);
	free(conf);
	free(cand_dir);
	free(hist);
	free(old);
	return rc;
}

int history_publish_tree(const struct history_publish *h)
{
	struct strlist cands = STRLIST_INIT;
	char *old = path_join(h->dataset, HISTORY_DIR);
	dir_list(old, DIR_PICK_DIRS, &cands);
	for (size_t i = 0; i < h->cands->n; i++)
		if (!sl_contains(&cands, h->cands->items[i]))
			sl_push(&cands, h->cands->items[i]);
	struct timing_sides t;
	memset(&t, 0, sizeof t);
	int rc = 0;
	for (size_t i = 0; i < cands.n && !rc; i++)
		rc = publish_candidate(h, &t, cands.items[i]);
	timing_sides_free(&t);
	sl_free(&cands);
	free(old);
	return rc;
}

/* ---- validate ------------------------------------------------------------------------ */

/* rel: history/<ID>, as messages name it. */
static void check_sums(const char *hist, const char *rel, struct strlist *problems)
{
	char *sums = path_join(hist, HISTORY_SUMS), *want = NULL, *have = NULL, *err = NULL;
	size_t len, n;
	if (read_file(sums, &want, &len)) {
		sl_push_owned(problems, xasprintf("%s/%s: cannot read: %s", rel, HISTORY_SUMS,
						  io_strerror(errno)));
	} else if (package_listing(hist, &have, &n, &err)) {
		sl_push_owned(problems, err);
		err = NULL;
	} else {
		/* the listing of the folder holds SHA256SUMS itself: drop its line */
		struct strlist paths = STRLIST_INIT, digests = STRLIST_INIT;
		struct strbuf sb = STRBUF_INIT;
		package_listing_parse(have, &paths, &digests);
		for (size_t i = 0; i < paths.n; i++)
			if (strcmp(paths.items[i], HISTORY_SUMS))
				sb_addf(&sb, "%s  %s\n", digests.items[i], paths.items[i]);
		if (strcmp(sb.buf ? sb.buf : "", want))
			sl_push_owned(problems, xasprintf("%s/%s: the files of %s/ differ from it (a "
							  "file changed, added or removed)", rel,
							  HISTORY_SUMS, rel));
		sb_free(&sb);
		sl_free(&paths);
		sl_free(&digests);
	}
	free(err);
	free(have);
	free(want);
	free(sums);
}

static void check_candidate(const char *dataset, const char *cand, struct strlist *problems)
{
	char *hist = path_joinf(dataset, "%s/%s", HISTORY_DIR, cand), *err = NULL;
	char *rel = xasprintf("%s/%s", HISTORY_DIR, cand);
	struct history_view v;
	if (history_scan(hist, cand, &v, &err)) {
		sl_push_owned(problems, err);
		history_view_free(&v);
		free(rel);
		free(hist);
		return;
	}
	check_sums(hist, rel, problems);
	char *want = history_index_md(&v, "../../reports/"), *have = NULL;
	char *index = path_join(hist, "index.md");
	size_t len;
	if (read_file(index, &have, &len) || strcmp(have, want))
		sl_push_owned(problems, xasprintf("%s/index.md: not the history page its folder "
						  "renders", rel));
	for (size_t i = 0; i < v.shown_sys.n; i++) {
		char *page = path_joinf(dataset, "reports/%s/%s.md", v.shown_sys.items[i], cand);
		if (!path_is_file(page))
			sl_push_owned(problems, xasprintf("%s/%s: names %s as showing version %d, "
							  "but reports/%s/%s.md is missing", rel,
							  HISTORY_PAGES_CONF, v.shown_sys.items[i],
							  v.shown_version[i], v.shown_sys.items[i], cand));
		free(page);
	}
	free(index);
	free(have);
	free(want);
	history_view_free(&v);
	free(rel);
	free(hist);
}

size_t history_validate(const char *dataset, struct strlist *problems)
{
	size_t before = problems->n;
	struct strlist cands = STRLIST_INIT;
	char *dir = path_join(dataset, HISTORY_DIR);
	dir_list(dir, DIR_PICK_DIRS, &cands);
	for (size_t i = 0; i < cands.n; i++) {
		char *rel = path_join(HISTORY_DIR, cands.items[i]);
		if (!valid_candidate_id(cands.items[i]) || root_kind(dataset, rel) != 'd')
			sl_push_owned(problems, xasprintf("%s: not a candidate's history folder (an "
							  "id is [A-Za-z0-9._-]+; links are refused)",
							  rel));
		else
			check_candidate(dataset, cands.items[i], problems);
		free(rel);
	}
	sl_free(&cands);
	free(dir);
	return problems->n - before;
}
