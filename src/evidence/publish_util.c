/* publish_util.c — see publish_util.h. */
#include "evidence/publish_util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "evidence/atomic.h"
#include "evidence/fsutil.h"
#include "evidence/json.h"
#include "report/report.h"

/* ---- trees ------------------------------------------------------------- */

static void list_names(const char *dir, struct strlist *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			sl_push(out, e->d_name);
	closedir(d);
	sl_sort(out);
}

void tree_list_files(const char *root, const char *rel, struct strlist *out)
{
	char *dir = *rel ? path_join(root, rel) : xstrdup(root);
	struct strlist names = STRLIST_INIT;
	list_names(dir, &names);
	for (size_t i = 0; i < names.n; i++) {
		char *sub = *rel ? path_join(rel, names.items[i]) : xstrdup(names.items[i]);
		char *full = path_join(root, sub);
		struct stat st;
		if (!lstat(full, &st) && S_ISDIR(st.st_mode))
			tree_list_files(root, sub, out);
		else if (!lstat(full, &st) && S_ISREG(st.st_mode))
			sl_push(out, sub);
		free(full);
		free(sub);
	}
	sl_free(&names);
	free(dir);
}

int tree_copy(const char *src, const char *dst)
{
	struct strlist files = STRLIST_INIT;
	int rc = mkdir_p(dst, 0755);
	tree_list_files(src, "", &files);
	for (size_t i = 0; i < files.n && !rc; i++) {
		char *from = path_join(src, files.items[i]);
		char *to = path_join(dst, files.items[i]);
		char *dir = path_dirname(to);
		char *data = NULL;
		size_t len = 0;
		rc = mkdir_p(dir, 0755);
		if (!rc)
			rc = read_file(from, &data, &len);
		if (!rc)
			rc = atomic_write(to, data, len);
		free(data);
		free(dir);
		free(to);
		free(from);
	}
	sl_free(&files);
	return rc;
}

int split_stem_op(const char *name, char **stem, char **op)
{
	const char *sep = NULL;
	if (!str_ends_with(name, ".json"))
		return -1;
	for (const char *p = name; (p = strstr(p, "__")); p++)
		sep = p;
	if (!sep || sep == name || strlen(sep + 2) <= 5)
		return -1;
	*stem = xstrndup(name, (size_t)(sep - name));
	*op = xstrndup(sep + 2, strlen(sep + 2) - 5);
	return 0;
}

/* ---- absolute paths ------------------------------------------------------ */

static int is_absolute_text(const char *s, const char *const *needles)
{
	if (s[0] == '/')
		return 1;
	for (size_t i = 0; needles && needles[i]; i++)
		if (strlen(needles[i]) > 1 && strstr(s, needles[i]))
			return 1;
	return 0;
}

static char *shorten(const char *s)
{
	return strlen(s) > 80 ? xasprintf("%.77s...", s) : xstrdup(s);
}

static int find_abs(const json_t *j, const char *const *needles, struct strbuf *path,
		    char **where)
{
	size_t mark = path->len;
	int found = 0;
	if (json_is_string(j) && is_absolute_text(json_string_value(j), needles)) {
		char *v = shorten(json_string_value(j));
		*where = xasprintf("%s: \"%s\"", path->len ? path->buf : "(top)", v);
		free(v);
		return 1;
	}
	if (json_is_object(j)) {
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)j, k, v) {
			sb_addf(path, "%s%s", mark ? "." : "", k);
			found = find_abs(v, needles, path, where);
			path->len = mark;
			path->buf[mark] = '\0';
			if (found)
				return 1;
		}
	} else if (json_is_array(j)) {
		size_t i;
		json_t *v;
		json_array_foreach(j, i, v) {
			sb_addf(path, "[%zu]", i);
			found = find_abs(v, needles, path, where);
			path->len = mark;
			path->buf[mark] = '\0';
			if (found)
				return 1;
		}
	}
	return 0;
}

int json_find_absolute(const json_t *j, const char *const *needles, char **where)
{
	struct strbuf path = STRBUF_INIT;
	sb_adds(&path, "");
	int found = find_abs(j, needles, &path, where);
	sb_free(&path);
	return found;
}

/* ---- schemas --------------------------------------------------------------- */

/* Every evidence kind a published dataset may hold, with the version this
 * tool reads (method §11.1: readers reject unknown versions). */
static const struct {
	const char *kind;
	int version;
} known_schemas[] = {
	{ "campaign", 1 }, { "build", 1 }, { "record", 1 }, { "profile", 1 },
	{ "survey", 1 }, { "relink-failed", 1 }, { "publish", 1 },
	{ "size-audit", 1 }, { "memory", 1 }, { "samples", 1 }, { "pool", 1 },
	{ "calibration", 1 },
};

int schema_known(const json_t *j, char **why)
{
	const char *s = jget_str(j, "schema", NULL);
	char kind[64];
	int version, used = 0;
	if (!s) {
		*why = xstrdup("no \"schema\" string");
		return -1;
	}
	if (sscanf(s, "ngcc-perf/%63[a-z0-9_-]/%d%n", kind, &version, &used) != 2 ||
	    (size_t)used != strlen(s)) {
		*why = xasprintf("schema \"%s\" is not ngcc-perf/<kind>/<version>", s);
		return -1;
	}
	for (size_t i = 0; i < sizeof known_schemas / sizeof *known_schemas; i++) {
		if (strcmp(known_schemas[i].kind, kind))
			continue;
		if (known_schemas[i].version == version)
			return 0;
		*why = xasprintf("unknown schema version \"%s\" (this tool reads "
				 "ngcc-perf/%s/%d)", s, kind, known_schemas[i].version);
		return -1;
	}
	*why = xasprintf("unknown schema kind \"%s\"", s);
	return -1;
}

/* ---- systems and pages ------------------------------------------------------- */

void dataset_systems(const char *dataset_dir, struct strlist *out)
{
	char *data = path_join(dataset_dir, "data");
	dir_list(data, DIR_PICK_DIRS, out);
	free(data);
}

int pages_render_dataset(const char *dataset_dir, struct rendered_pages *out, char **err)
{
	struct report_out r;
	out->v = NULL;
	out->n = 0;
	if (report_render_published(dataset_dir, &r, err)) {
		report_out_free(&r);
		return -1;
	}
	out->v = xcalloc(r.n ? r.n : 1, sizeof *out->v);
	for (size_t i = 0; i < r.n; i++)
		out->v[i] = (struct rendered_page){ r.f[i].path, r.f[i].data, r.f[i].len };
	out->n = r.n;
	free(r.f);   /* the strings now belong to out */
	return 0;
}

void pages_free(struct rendered_pages *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].path);
		free(p->v[i].data);
	}
	free(p->v);
	p->v = NULL;
	p->n = 0;
}
