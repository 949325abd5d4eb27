/*
 * history_page.c — see history_page.h: a candidate's change-history
 * folder of a dataset read, its history page and archived pages rendered.
 */
#include "report/history_page.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method/natsort.h"
#include "util/fsutil.h"
#include "util/numparse.h"
#include "util/untrusted.h"

void history_view_free(struct history_view *h)
{
	free(h->cand);
	versions_free(&h->log);
	sl_free(&h->shown_sys);
	free(h->shown_version);
	sl_free(&h->archived);
	sl_free(&h->changes);
	memset(h, 0, sizeof *h);
}

int history_shown(const struct history_view *h, const char *sys)
{
	for (size_t i = 0; i < h->shown_sys.n; i++)
		if (!strcmp(h->shown_sys.items[i], sys))
			return h->shown_version[i];
	return 0;
}

void history_set_shown(struct history_view *h, const char *sys, int version)
{
	for (size_t i = 0; i < h->shown_sys.n; i++)
		if (!strcmp(h->shown_sys.items[i], sys)) {
			h->shown_version[i] = version;
			return;
		}
	sl_push(&h->shown_sys, sys);
	h->shown_version = xrealloc(h->shown_version, h->shown_sys.n * sizeof(int));
	h->shown_version[h->shown_sys.n - 1] = version;
}

void history_unset_shown(struct history_view *h, const char *sys)
{
	for (size_t i = 0; i < h->shown_sys.n; i++) {
		if (strcmp(h->shown_sys.items[i], sys))
			continue;
		free(h->shown_sys.items[i]);
		for (size_t k = i + 1; k < h->shown_sys.n; k++) {
			h->shown_sys.items[k - 1] = h->shown_sys.items[k];
			h->shown_version[k - 1] = h->shown_version[k];
		}
		h->shown_sys.n--;
		return;
	}
}

char *history_pages_conf(const struct history_view *h)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "# <system> = <version>: the package version whose pages reports/<system>/ "
		     "shows\n");
	for (size_t i = 0; i < h->shown_sys.n; i++)
		sb_addf(&sb, "%s = %d\n", h->shown_sys.items[i], h->shown_version[i]);
	return sb_detach(&sb);
}

static int read_pages_conf(const char *path, struct history_view *h, char **err)
{
	char *data;
	size_t len;
	if (!path_exists(path))
		return 0;
	if (read_file(path, &data, &len)) {
		*err = xasprintf("%s: cannot read: %s", path, io_strerror(errno));
		return -1;
	}
	int rc = 0, line = 0;
	for (char *p = data, *nl; p && *p && !rc; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		line++;
		char *t = str_trim(p), *eq = strchr(t, '=');
		int v;
		if (!*t || *t == '#')
			continue;
		if (!eq) {
			rc = -1;
		} else {
			*eq = '\0';
			char *sys = str_trim(t);
			rc = !*sys || parse_whole_int(str_trim(eq + 1), 1, 1000000, &v) ? -1 : 0;
			if (!rc)
				history_set_shown(h, sys, v);
		}
		if (rc)
			*err = xasprintf("%s:%d: expected '<system> = <version>'", path, line);
	}
	free(data);
	return rc;
}

static int is_number(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

int history_scan(const char *hist_dir, const char *cand, struct history_view *h, char **err)
{
	struct strlist names = STRLIST_INIT;
	memset(h, 0, sizeof *h);
	h->cand = xstrdup(cand);
	char *conf = path_join(hist_dir, VERSIONS_CONF), *pages = path_join(hist_dir, HISTORY_PAGES_CONF);
	int rc = 0;
	if (!path_is_file(conf)) {
		*err = xasprintf("%s: missing; the history folder is written by `publish`", conf);
		rc = -1;
	} else if (versions_load(hist_dir, &h->log, err) || read_pages_conf(pages, h, err)) {
		rc = -1;
	}
	dir_list(hist_dir, DIR_PICK_FILES, &names);
	for (size_t i = 0; !rc && i < names.n; i++)
		if (str_starts_with(names.items[i], "changes-") && str_ends_with(names.items[i], ".md"))
			sl_push(&h->changes, names.items[i]);
	sl_free(&names);
	dir_list(hist_dir, DIR_PICK_DIRS, &names);
	for (size_t i = 0; !rc && i < names.n; i++) {
		if (!is_number(names.items[i]))
			continue;
		struct strlist sys = STRLIST_INIT;
		char *vdir = path_join(hist_dir, names.items[i]);
		dir_list(vdir, DIR_PICK_DIRS, &sys);
		for (size_t k = 0; k < sys.n; k++)
			sl_push_owned(&h->archived, xasprintf("%s/%s", names.items[i], sys.items[k]));
		sl_free(&sys);
		free(vdir);
	}
	sl_free(&names);
	if (h->archived.n > 1)
		qsort(h->archived.items, h->archived.n, sizeof(char *), natural_qsort_cmp);
	if (h->changes.n > 1)
		qsort(h->changes.items, h->changes.n, sizeof(char *), natural_qsort_cmp);
	free(pages);
	free(conf);
	return rc;
}

/* ---- the history page ------------------------------------------------------------- */

/* A version's pages: the current ones, archived ones, or none kept. */
static void pages_cell(struct strbuf *sb, const struct history_view *h, int number,
		       const char *current_prefix)
{
	int any = 0;
	for (size_t i = 0; i < h->shown_sys.n; i++) {
		if (h->shown_version[i] != number)
			continue;
		sb_addf(sb, "%s[%s (current)](%s%s/%s.md)", any++ ? ", " : "", h->shown_sys.items[i],
			current_prefix, h->shown_sys.items[i], h->cand);
	}
	char *prefix = xasprintf("%d/", number);
	for (size_t i = 0; i < h->archived.n; i++) {
		if (!str_starts_with(h->archived.items[i], prefix))
			continue;
		const char *sys = h->archived.items[i] + strlen(prefix);
		sb_addf(sb, "%s[%s (archived)](%s/%s.md)", any++ ? ", " : "", sys,
			h->archived.items[i], h->cand);
	}
	free(prefix);
	if (!any)
		sb_adds(sb, "not published");
}

static void changes_cell(struct strbuf *sb, const struct history_view *h, int number)
{
	int any = 0;
	for (size_t i = 0; i < h->changes.n; i++) {
		int a, b;
		if (sscanf(h->changes.items[i], "changes-%d-%d.md", &a, &b) != 2 || b != number)
			continue;
		sb_addf(sb, "%s[from version %d](%s)", any++ ? ", " : "", a, h->changes.items[i]);
	}
	if (!any)
		sb_adds(sb, "—");
}

char *history_index_md(const struct history_view *h, const char *current_prefix)
{
	struct strbuf sb = STRBUF_INIT;
	const struct pkg_version *cur = versions_current(&h->log);
	sb_addf(&sb, "# Change history: %s\n\n", h->cand);
	sb_addf(&sb, "Candidate `%s` has %zu package version(s); version %d is the newest one "
		     "known when this dataset was last published.  Each row gives the package "
		     "as added, the pages published for that version (archived pages are kept "
		     "as they were published, with their links to other pages of that "
		     "publication made plain text) and what changed from the version before.\n\n",
		h->cand, h->log.n, cur ? cur->number : 0);
	sb_adds(&sb, "| Version | Added (UTC) | Package | Package SHA-256 | Files | Pages | "
		     "What changed |\n|--:|---|---|---|--:|---|---|\n");
	for (size_t i = h->log.n; i-- > 0;) {
		const struct pkg_version *v = &h->log.v[i];
		char *pkg = str_printable(v->package, 200);
		sb_addf(&sb, "| %d | %s | %s | `%.16s` | %zu | ", v->number, v->added, pkg, v->sha256,
			v->files);
		pages_cell(&sb, h, v->number, current_prefix);
		sb_adds(&sb, " | ");
		changes_cell(&sb, h, v->number);
		sb_adds(&sb, " |\n");
		free(pkg);
	}
	sb_adds(&sb, "\nThe package SHA-256 is the SHA-256 of the package's file listing (one "
		     "`<SHA-256>  <path>` line per file, in byte order of the path).\n");
	return sb_detach(&sb);
}

/* ---- archived pages --------------------------------------------------------------- */

/* End of the link target starting at s (after "]("), or NULL. */
static const char *target_end(const char *s)
{
	int depth = 0;
	for (; *s && *s != '\n'; s++) {
		if (*s == '(')
			depth++;
		else if (*s == ')' && depth-- == 0)
			return s;
	}
	return NULL;
}

/* The "]" closing the "[" at s, on the same line, or NULL. */
static const char *label_end(const char *s)
{
	int depth = 0;
	for (s++; *s && *s != '\n'; s++) {
		if (*s == '\\' && s[1])
			s++;
		else if (*s == '[')
			depth++;
		else if (*s == ']' && depth-- == 0)
			return s;
	}
	return NULL;
}

static int kept_target(const char *t, size_t n)
{
	return (n && t[0] == '#') || (n > 7 && !strncmp(t, "charts/", 7));
}

char *history_archive_page(const char *md, size_t len, const char *cand, int version,
			   const char *sys)
{
	struct strbuf sb = STRBUF_INIT;
	char *text = xstrndup(md, len);
	sb_addf(&sb, "*Archived page of package version %d of `%s` on system %s, as it was "
		     "published; its links to other pages of that publication, which are not "
		     "kept, are plain text.*\n\n", version, cand, sys);
	const char *p = text;
	while (*p) {
		const char *open = strchr(p, '[');
		if (!open) {
			sb_adds(&sb, p);
			break;
		}
		const char *close = label_end(open);
		const char *end = close && close[1] == '(' ? target_end(close + 2) : NULL;
		int image = open > text && open[-1] == '!';
		if (!end || image || kept_target(close + 2, (size_t)(end - close - 2))) {
			sb_add(&sb, p, (size_t)(open - p) + 1);
			p = open + 1;
			continue;
		}
		sb_add(&sb, p, (size_t)(open - p));
		sb_add(&sb, open + 1, (size_t)(close - open - 1));
		p = end + 1;
	}
	free(text);
	return sb_detach(&sb);
}
