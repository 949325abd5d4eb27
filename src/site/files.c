/* files.c — see files.h: the file list, writing it out, the link check. */
#include "site/files.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/report_write.h"

/* ---- file list ------------------------------------------------------------------ */

void site_files_add(struct site_files *f, const char *path, char *data, size_t len)
{
	for (size_t i = 0; i < f->n; i++) {
		if (!strcmp(f->v[i].path, path)) {
			free(f->v[i].data);
			f->v[i].data = data;
			f->v[i].len = len;
			return;
		}
	}
	f->v = xrealloc(f->v, (f->n + 1) * sizeof *f->v);
	f->v[f->n++] = (struct site_file){ xstrdup(path), data, len };
}

void site_files_add_str(struct site_files *f, const char *path, const char *text)
{
	site_files_add(f, path, xstrdup(text), strlen(text));
}

const struct site_file *site_files_find(const struct site_files *f, const char *path)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].path, path))
			return &f->v[i];
	return NULL;
}

static int file_cmp(const void *a, const void *b)
{
	return strcmp(((const struct site_file *)a)->path, ((const struct site_file *)b)->path);
}

void site_files_sort(struct site_files *f)
{
	if (f->n)
		qsort(f->v, f->n, sizeof *f->v, file_cmp);
}

void site_files_free(struct site_files *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].path);
		free(f->v[i].data);
	}
	free(f->v);
	f->v = NULL;
	f->n = 0;
}

char *site_root_of(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	for (const char *p = path; (p = strchr(p, '/')); p++)
		sb_adds(&sb, "../");
	return sb_detach(&sb);
}

/* ---- writing ------------------------------------------------------------------------------- */

int site_write(const struct site_files *f, const char *dir, char **err)
{
	char *marker = path_join(dir, SITE_MARKER);
	*err = NULL;
	int rc = 0;
	struct stat st;
	if (!lstat(dir, &st) && S_ISLNK(st.st_mode)) {
		/* DS/site as a link into someone else's folder: never written through */
		*err = xasprintf("%s is a symbolic link; the site is written only into a real "
				 "folder: remove the link or give another --out", dir);
		rc = EXIT_USAGE;
	} else if (path_exists(dir) && !path_is_dir(dir)) {
		*err = xasprintf("%s exists and is not a directory; give another --out", dir);
		rc = EXIT_USAGE;
	} else if (path_is_dir(dir) && !report_dir_is_empty(dir) && !path_exists(marker)) {
		*err = xasprintf("%s is not empty and holds no site of ours (no %s); give a new "
				 "or empty --out directory", dir, SITE_MARKER);
		rc = EXIT_USAGE;
	} else if (path_exists(marker) && rm_rf(dir)) {
		*err = xasprintf("%s: cannot remove the previous site: %s", dir, strerror(errno));
		rc = EXIT_SYSTEM;
	}
	free(marker);
	if (rc)
		return rc;
	for (size_t i = 0; i < f->n; i++) {
		char *p = path_join(dir, f->v[i].path), *parent = path_dirname(p);
		if (mkdir_p(parent, 0755) || write_file(p, f->v[i].data, f->v[i].len)) {
			*err = xasprintf("%s: cannot write: %s", p, strerror(errno));
			rc = EXIT_SYSTEM;
		}
		free(parent);
		free(p);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- link check -------------------------------------------------------------------------- */

/* dir + "/" + rel with "." and ".." resolved; NULL when it leaves the root. */
static char *resolve_rel(const char *dir, const char *rel)
{
	struct strlist parts = STRLIST_INIT;
	char *all = *dir ? xasprintf("%s/%s", dir, rel) : xstrdup(rel), *save = NULL;
	int bad = 0;
	for (char *p = strtok_r(all, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
		if (!strcmp(p, "."))
			continue;
		if (!strcmp(p, "..")) {
			if (!parts.n)
				bad = 1;
			else
				free(parts.items[--parts.n]);
			continue;
		}
		sl_push(&parts, p);
	}
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < parts.n; i++)
		sb_addf(&sb, "%s%s", i ? "/" : "", parts.items[i]);
	sl_free(&parts);
	free(all);
	char *out = sb_detach(&sb);
	if (bad) {
		free(out);
		return NULL;
	}
	return out;
}

static void check_attr(const struct site_files *f, const struct site_file *page,
		       const char *attr, struct strlist *problems, size_t *n)
{
	char *dir = strchr(page->path, '/') ? path_dirname(page->path) : xstrdup("");
	char *text = xstrndup(page->data, page->len);
	for (const char *p = text; (p = strstr(p, attr)); ) {
		p += strlen(attr);
		size_t vlen = strcspn(p, "\"");
		char *url = xstrndup(p, vlen);
		p += vlen;
		url[strcspn(url, "?#")] = '\0';
		if (!*url || strchr(url, ':'))
			goto next;
		char *target = url[0] == '/' ? NULL : resolve_rel(dir, url);
		if (!target || !site_files_find(f, target)) {
			sl_push_owned(problems, xasprintf("%s: %s", page->path, url));
			(*n)++;
		}
		free(target);
next:
		free(url);
	}
	free(text);
	free(dir);
}

size_t site_check_links(const struct site_files *f, struct strlist *problems)
{
	size_t n = 0;
	for (size_t i = 0; i < f->n; i++) {
		const struct site_file *page = &f->v[i];
		if (!str_ends_with(page->path, ".html") && !str_ends_with(page->path, ".svg"))
			continue;
		check_attr(f, page, " href=\"", problems, &n);
		check_attr(f, page, " src=\"", problems, &n);
	}
	return n;
}
