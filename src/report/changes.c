/*
 * changes.c — see changes.h: the "what changed" report of two package
 * versions, from the version folders of the workspace.
 */
#include "report/changes.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build/build.h"
#include "kat/katlog.h"
#include "method/natsort.h"
#include "package/conf.h"
#include "package/pkgdigest.h"
#include "util/linediff.h"
#include "util/untrusted.h"

/* One version as the report sees it. */
struct side {
	const struct pkg_version *v;
	char *dir;                  /* its folder: candidate.conf, source/ */
	char *build;                /* its build records, or NULL: not built */
	struct candidate_conf conf;
	int have_conf;
	struct strlist paths, digests;  /* the file listing */
	json_t *build_json;         /* build.json, or NULL */
};

struct ctx {
	const struct changes_input *in;
	char *cand_dir;
	struct version_log log;
	struct side a, b;           /* from, to */
	struct strbuf *md;
};

int changes_versions(const char *workspace, const char *id, struct version_log *log, char **err)
{
	char *cand_dir = path_joinf(workspace, "candidates/%s", id);
	int rc = EXIT_OK;
	if (versions_load(cand_dir, log, err))
		rc = EXIT_INPUT;
	else if (!log->n) {
		*err = xasprintf("no candidate '%s' in %s (no candidates/%s/candidate.conf); add "
				 "one with `ngcc-perf add PACKAGE --id %s`", id, workspace, id, id);
		rc = EXIT_USAGE;
	}
	free(cand_dir);
	return rc;
}

/* ---- loading --------------------------------------------------------------------- */

static int load_side(struct ctx *x, struct side *s, int number, char **err)
{
	s->v = versions_find(&x->log, number);
	if (!s->v) {
		*err = xasprintf("candidate '%s' has no version %d (it has 1 to %d)", x->in->id,
				 number, versions_current(&x->log)->number);
		return EXIT_USAGE;
	}
	s->dir = version_dir(x->cand_dir, &x->log, number);
	s->build = version_build_dir(x->in->workspace, x->in->id, x->cand_dir, &x->log, number);
	char *conf = path_join(s->dir, "candidate.conf"), *listing = NULL;
	int rc = EXIT_OK;
	s->have_conf = conf_read(conf, &s->conf, err) == 0;
	if (!s->have_conf)
		rc = EXIT_INPUT;
	else if (version_listing(x->cand_dir, &x->log, number, &listing, err))
		rc = EXIT_INPUT;
	else if (package_listing_parse(listing, &s->paths, &s->digests)) {
		*err = xasprintf("%s/%s: not a file listing ('<sha256>  <path>' lines); it is "
				 "written by `add`", s->dir, PACKAGE_LISTING);
		rc = EXIT_INPUT;
	}
	if (!rc && s->build) {
		char *json = path_join(s->build, "build.json");
		s->build_json = json_load_file(json, 0, NULL);
		free(json);
	}
	free(listing);
	free(conf);
	return rc;
}

static void side_free(struct side *s)
{
	free(s->dir);
	free(s->build);
	if (s->have_conf)
		conf_free(&s->conf);
	sl_free(&s->paths);
	sl_free(&s->digests);
	json_decref(s->build_json);
}

/* ---- helpers ---------------------------------------------------------------------- */

static const char *digest_of(const struct side *s, const char *path)
{
	for (size_t i = 0; path && i < s->paths.n; i++)
		if (!strcmp(s->paths.items[i], path))
			return s->digests.items[i];
	return NULL;
}

/* A Markdown table cell from text we did not write. */
static char *cell(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	char *p = str_printable(s, 300);
	for (const char *c = p; *c; c++) {
		if (*c == '|' || *c == '`' || *c == '\\')
			sb_addc(&sb, '\\');
		sb_addc(&sb, *c);
	}
	free(p);
	return sb_detach(&sb);
}

static char *short_digest(const char *hex)
{
	return hex ? xasprintf("`%.16s`", hex) : xstrdup("—");
}

/* ---- header ----------------------------------------------------------------------- */

static void header(struct ctx *x)
{
	const struct pkg_version *a = x->a.v, *b = x->b.v;
	char *alg = cell(x->b.conf.algorithm ? x->b.conf.algorithm : x->in->id);
	char *pa = cell(a->package), *pb = cell(b->package);
	sb_addf(x->md, "# What changed: %s (`%s`), version %d → version %d\n\n", alg, x->in->id,
		a->number, b->number);
	sb_addf(x->md, "| | Version %d | Version %d |\n|---|---|---|\n", a->number, b->number);
	sb_addf(x->md, "| Package | %s | %s |\n", pa, pb);
	sb_addf(x->md, "| Added (UTC) | %s | %s |\n", a->added, b->added);
	sb_addf(x->md, "| Package SHA-256 | `%s` | `%s` |\n", a->sha256, b->sha256);
	sb_addf(x->md, "| Files | %zu | %zu |\n", x->a.paths.n, x->b.paths.n);
	sb_addf(x->md, "| Instances | %zu | %zu |\n", x->a.conf.n_inst, x->b.conf.n_inst);
	sb_addf(x->md, "| Built since added | %s | %s |\n\n", x->a.build ? "yes" : "no",
		x->b.build ? "yes" : "no");
	sb_adds(x->md, "The package SHA-256 is the SHA-256 of the package's file listing "
		       "(`package.sha256`: one `<SHA-256>  <path>` line per file, in byte order "
		       "of the path), as `add` brought the package in, before any patch.\n\n");
	free(alg);
	free(pa);
	free(pb);
}

/* ---- instances -------------------------------------------------------------------- */

/* The candidate.conf keys of an instance that differ (package/conf.c's
 * list, without the two the report leaves to the build: own_drng and
 * own_auxfunc). */
static char *conf_changes(const struct instance_conf *a, const struct instance_conf *b)
{
	struct strlist keys = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	conf_instance_differences(a, b, &keys);
	for (size_t i = 0; i < keys.n; i++)
		if (strcmp(keys.items[i], "own_drng") && strcmp(keys.items[i], "own_auxfunc"))
			sb_addf(&sb, "%s`%s`", sb.len ? ", " : "", keys.items[i]);
	sl_free(&keys);
	return sb.len ? sb_detach(&sb) : NULL;
}

/* Labels of both versions: to's order, then those only from has. */
static void all_labels(const struct ctx *x, struct strlist *out)
{
	for (size_t i = 0; i < x->b.conf.n_inst; i++)
		sl_push(out, x->b.conf.inst[i].label);
	for (size_t i = 0; i < x->a.conf.n_inst; i++)
		if (!sl_contains(out, x->a.conf.inst[i].label))
			sl_push(out, x->a.conf.inst[i].label);
	if (out->n > 1)
		qsort(out->items, out->n, sizeof *out->items, natural_qsort_cmp);
}

static void instances(struct ctx *x, const struct strlist *labels)
{
	size_t added = 0, removed = 0;
	struct strbuf rows = STRBUF_INIT;
	for (size_t i = 0; i < labels->n; i++) {
		const struct instance_conf *a = conf_find_instance(&x->a.conf, labels->items[i]);
		const struct instance_conf *b = conf_find_instance(&x->b.conf, labels->items[i]);
		char *label = cell(labels->items[i]), *diff = a && b ? conf_changes(a, b) : NULL;
		added += !a;
		removed += !b;
		sb_addf(&rows, "| `%s` | %s | %s | %s |\n", label,
			a ? (a->enabled ? "yes" : "disabled") : "—",
			b ? (b->enabled ? "yes" : "disabled") : "—",
			!a ? "added" : !b ? "removed" : diff ? diff : "same candidate.conf entries");
		free(diff);
		free(label);
	}
	sb_adds(x->md, "## Instances\n\n");
	sb_addf(x->md, "%zu instance(s) added, %zu removed.\n\n", added, removed);
	sb_addf(x->md, "| Instance | Version %d | Version %d | Change |\n|---|---|---|---|\n%s\n",
		x->a.v->number, x->b.v->number, rows.buf ? rows.buf : "");
	sb_free(&rows);
}

/* ---- files ------------------------------------------------------------------------ */

struct file_totals {
	size_t changed, added, removed, plus, minus;
};

static char *read_text(const struct side *s, const char *path, size_t *len)
{
	char *p = path_joinf(s->dir, "source/%s", path), *data = NULL;
	if (read_file(p, &data, len))
		data = NULL;
	free(p);
	return data;
}

/* One row: counts from the files in source/ (a patched file counts with its
 * patch: the listing is of the package, the line counts of what is built). */
static void file_row(struct ctx *x, struct strbuf *rows, struct file_totals *t,
		     const char *path, int in_a, int in_b)
{
	size_t la = 0, lb = 0;
	char *da = in_a ? read_text(&x->a, path, &la) : xstrdup("");
	char *db = in_b ? read_text(&x->b, path, &lb) : xstrdup("");
	char *name = cell(path);
	const char *what = !in_a ? "added" : !in_b ? "removed" : "changed";
	if (!da || !db || text_is_binary(da, la) || text_is_binary(db, lb)) {
		sb_addf(rows, "| `%s` | %s | %s | %s |\n", name, what, !da || !db ? "unread" : "binary",
			!da || !db ? "unread" : "binary");
	} else {
		struct line_counts c;
		line_diff_count(da, la, db, lb, 0, &c);
		t->plus += c.added;
		t->minus += c.removed;
		sb_addf(rows, "| `%s` | %s | %zu%s | %zu%s |\n", name, what, c.added,
			c.approximate ? " (approx.)" : "", c.removed, c.approximate ? " (approx.)" : "");
	}
	t->changed += in_a && in_b;
	t->added += !in_a;
	t->removed += !in_b;
	free(name);
	free(da);
	free(db);
}

static void files(struct ctx *x)
{
	struct strbuf rows = STRBUF_INIT;
	struct file_totals t = { 0 };
	size_t i = 0, k = 0;
	const struct strlist *pa = &x->a.paths, *pb = &x->b.paths;
	while (i < pa->n || k < pb->n) {
		int c = i >= pa->n ? 1 : k >= pb->n ? -1 : strcmp(pa->items[i], pb->items[k]);
		if (c < 0) {
			file_row(x, &rows, &t, pa->items[i++], 1, 0);
		} else if (c > 0) {
			file_row(x, &rows, &t, pb->items[k++], 0, 1);
		} else {
			if (strcmp(x->a.digests.items[i], x->b.digests.items[k]))
				file_row(x, &rows, &t, pa->items[i], 1, 1);
			i++, k++;
		}
	}
	sb_adds(x->md, "## Files\n\n");
	if (!rows.len) {
		sb_adds(x->md, "No file differs.\n\n");
		return;
	}
	sb_addf(x->md, "%zu file(s) changed, %zu added, %zu removed; %zu line(s) added and %zu "
		       "removed in text files.\n\n", t.changed, t.added, t.removed, t.plus, t.minus);
	sb_addf(x->md, "| File | Change | Lines added | Lines removed |\n|---|---|--:|--:|\n%s\n",
		rows.buf);
	sb_adds(x->md, "Line counts are those of a shortest line-by-line edit script between "
		       "the two files (computed by ngcc-perf).\n\n");
	sb_free(&rows);
}

/* ---- KAT digests and sizes -------------------------------------------------------- */

/* The value of a `key = value` line of a KAT log (malloc'd), or NULL. */
static char *log_value(const char *log, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = log; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, key, n) && !strncmp(p + n, " = ", 3)) {
			const char *v = p + n + 3;
			return xstrndup(v, strcspn(v, "\n"));
		}
	}
	return NULL;
}

/* The KAT log of an instance of a built version (malloc'd), or NULL. */
static char *kat_log(const struct side *s, const struct instance_conf *ic)
{
	if (!s->build || !ic)
		return NULL;
	char *stem = build_stem(ic), *data = NULL;
	char *p = path_joinf(s->build, "kat/%s.log", stem);
	size_t len;
	if (read_file(p, &data, &len))
		data = NULL;
	free(p);
	free(stem);
	return data;
}

static void kat_row(struct strbuf *rows, const char *label, const char *what,
		    const char *va, const char *vb, int digest)
{
	char *ca = digest ? short_digest(va) : xstrdup(va ? va : "—");
	char *cb = digest ? short_digest(vb) : xstrdup(vb ? vb : "—");
	sb_addf(rows, "| `%s` | %s | %s | %s | %s |\n", label, what, ca, cb,
		!va || !vb ? "—" : strcmp(va, vb) ? "**changed**" : "same");
	free(ca);
	free(cb);
}

/* The submitted KAT file(s) of an instance: its kat_reference, or a hash
 * instance's kat_file lines. */
static void submitted_kat(const struct ctx *x, const char *label, struct strbuf *rows)
{
	const struct instance_conf *a = conf_find_instance((struct candidate_conf *)&x->a.conf, label);
	const struct instance_conf *b = conf_find_instance((struct candidate_conf *)&x->b.conf, label);
	struct strlist files = STRLIST_INIT;
	const struct instance_conf *both[2] = { a, b };
	for (int s = 0; s < 2; s++) {
		const struct instance_conf *ic = both[s];
		if (ic && ic->kat_reference && !sl_contains(&files, ic->kat_reference))
			sl_push(&files, ic->kat_reference);
		for (size_t i = 0; ic && i < ic->kat_files.n; i++)
			if (!sl_contains(&files, ic->kat_files.items[i]))
				sl_push(&files, ic->kat_files.items[i]);
	}
	for (size_t i = 0; i < files.n; i++) {
		char *name = cell(path_basename(files.items[i]));
		char *what = xasprintf("submitted `%s`", name), *l = cell(label);
		kat_row(rows, l, what, a ? digest_of(&x->a, files.items[i]) : NULL,
			b ? digest_of(&x->b, files.items[i]) : NULL, 1);
		free(l);
		free(what);
		free(name);
	}
	sl_free(&files);
}

static void reproduced_kat(const struct ctx *x, const char *label, struct strbuf *rows)
{
	const struct instance_conf *a = conf_find_instance((struct candidate_conf *)&x->a.conf, label);
	const struct instance_conf *b = conf_find_instance((struct candidate_conf *)&x->b.conf, label);
	char *la = kat_log(&x->a, a), *lb = kat_log(&x->b, b);
	char *l = cell(label);
	if (la || lb) {
		char *ga = la ? log_value(la, "generated_sha256") : NULL;
		char *gb = lb ? log_value(lb, "generated_sha256") : NULL;
		char *sa = NULL, *sb = NULL, *da = NULL, *db = NULL;
		if (la)
			katlog_last_result(la, &sa, &da);
		if (lb)
			katlog_last_result(lb, &sb, &db);
		kat_row(rows, l, "reproduced by ngcc-perf", ga, gb, 1);
		kat_row(rows, l, "KAT result", sa, sb, 0);
		free(ga);
		free(gb);
		free(sa);
		free(sb);
		free(da);
		free(db);
	}
	free(l);
	free(la);
	free(lb);
}

/* kat.sha256 lines of each version (KAT manifests given to add). */
static void manifest_rows(const struct ctx *x, struct strbuf *rows)
{
	char *pa = path_join(x->a.dir, "kat.sha256"), *pb = path_join(x->b.dir, "kat.sha256");
	char *ma = NULL, *mb = NULL, *ha = NULL, *hb = NULL;
	size_t len;
	char hex[65];
	if (!read_file(pa, &ma, &len)) {
		sha256_hex(ma, len, hex);
		ha = xstrdup(hex);
	}
	if (!read_file(pb, &mb, &len)) {
		sha256_hex(mb, len, hex);
		hb = xstrdup(hex);
	}
	if (ha || hb)
		kat_row(rows, "(all)", "`kat.sha256` given to add", ha, hb, 1);
	free(ha);
	free(hb);
	free(ma);
	free(mb);
	free(pa);
	free(pb);
}

static void kat_digests(struct ctx *x, const struct strlist *labels)
{
	struct strbuf rows = STRBUF_INIT;
	for (size_t i = 0; i < labels->n; i++) {
		submitted_kat(x, labels->items[i], &rows);
		reproduced_kat(x, labels->items[i], &rows);
	}
	manifest_rows(x, &rows);
	sb_adds(x->md, "## KAT digests\n\n");
	sb_adds(x->md, "SHA-256 of each submitted KAT file (first 16 hex digits), and of the "
		       "KAT output ngcc-perf reproduced from each built library (its canonical "
		       "form, `generated_sha256` of the KAT log) with the KAT result.\n\n");
	if (!x->a.build || !x->b.build)
		sb_addf(x->md, "Version %d has not been built since it was added: its reproduced "
			       "KAT output and result are not shown.\n\n",
			!x->a.build ? x->a.v->number : x->b.v->number);
	sb_addf(x->md, "| Instance | What | Version %d | Version %d | Change |\n"
		       "|---|---|---|---|---|\n%s\n", x->a.v->number, x->b.v->number,
		rows.buf ? rows.buf : "");
	sb_free(&rows);
}

/* The `*_bytes = N` lines of a KAT log, in order ("pk_bytes", …). */
static void size_keys(const char *log, struct strlist *keys)
{
	for (const char *p = log; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *eq = strstr(p, " = "), *nl = strchr(p, '\n');
		if (!eq || (nl && eq > nl) || eq - p < 7 || strncmp(eq - 6, "_bytes", 6))
			continue;
		char *k = xstrndup(p, (size_t)(eq - p));
		if (!sl_contains(keys, k) && !strchr(k, ' '))
			sl_push_owned(keys, k);
		else
			free(k);
	}
}

static char *library_bytes(const struct ctx *x, const struct side *s, const struct instance_conf *ic)
{
	if (!s->build_json || !ic)
		return NULL;
	char *stem = build_stem(ic), *key = xasprintf("%s/%s", x->in->id, stem);
	json_t *e = json_object_get(json_object_get(s->build_json, "instances"), key);
	json_t *v = json_object_get(e, "elf_load_bytes");
	char *out = json_is_integer(v) ? xasprintf("%lld", (long long)json_integer_value(v)) : NULL;
	free(key);
	free(stem);
	return out;
}

static void size_rows(const struct ctx *x, const char *label, struct strbuf *rows)
{
	const struct instance_conf *a = conf_find_instance((struct candidate_conf *)&x->a.conf, label);
	const struct instance_conf *b = conf_find_instance((struct candidate_conf *)&x->b.conf, label);
	char *la = kat_log(&x->a, a), *lb = kat_log(&x->b, b), *l = cell(label);
	struct strlist keys = STRLIST_INIT;
	size_keys(la, &keys);
	size_keys(lb, &keys);
	for (size_t k = 0; k < keys.n; k++) {
		char *va = la ? log_value(la, keys.items[k]) : NULL;
		char *vb = lb ? log_value(lb, keys.items[k]) : NULL;
		char *what = xasprintf("`%s`", keys.items[k]);
		kat_row(rows, l, what, va, vb, 0);
		free(what);
		free(va);
		free(vb);
	}
	char *ea = library_bytes(x, &x->a, a), *eb = library_bytes(x, &x->b, b);
	if (ea || eb)
		kat_row(rows, l, "library load bytes", ea, eb, 0);
	free(ea);
	free(eb);
	sl_free(&keys);
	free(l);
	free(la);
	free(lb);
}

static void sizes(struct ctx *x, const struct strlist *labels)
{
	sb_adds(x->md, "## Sizes\n\n");
	if (!x->a.build && !x->b.build) {
		sb_adds(x->md, "Neither version has been built since it was added: no sizes.\n\n");
		return;
	}
	struct strbuf rows = STRBUF_INIT;
	for (size_t i = 0; i < labels->n; i++)
		size_rows(x, labels->items[i], &rows);
	sb_adds(x->md, "Sizes in bytes as each built library reports them (its KAT log) and the "
		       "bytes its ELF segments load (`build.json`).\n\n");
	sb_addf(x->md, "| Instance | Size | Version %d | Version %d | Change |\n"
		       "|---|---|--:|--:|---|\n%s\n", x->a.v->number, x->b.v->number,
		rows.buf ? rows.buf : "");
	sb_free(&rows);
}

static void timing(struct ctx *x)
{
	sb_adds(x->md, "## Timing\n\n");
	if (x->in->timing_md) {
		sb_adds(x->md, x->in->timing_md);
		if (x->md->len && x->md->buf[x->md->len - 1] != '\n')
			sb_addc(x->md, '\n');
		return;
	}
	sb_addf(x->md, "%s\n", x->in->timing_none ? x->in->timing_none
		: "Not compared here: give `ngcc-perf changes` two measurements (runs or "
		  "published datasets, `--a` and `--b`) of the two versions for the comparison "
		  "table of `ngcc-perf compare`.");
}

int changes_render(const struct changes_input *in, struct strbuf *md, char **err)
{
	struct ctx x = { .in = in, .md = md };
	x.cand_dir = path_joinf(in->workspace, "candidates/%s", in->id);
	int rc = changes_versions(in->workspace, in->id, &x.log, err);
	if (!rc && in->from >= in->to) {
		*err = xasprintf("version %d is not older than version %d", in->from, in->to);
		rc = EXIT_USAGE;
	}
	if (!rc)
		rc = load_side(&x, &x.a, in->from, err);
	if (!rc)
		rc = load_side(&x, &x.b, in->to, err);
	if (!rc) {
		struct strlist labels = STRLIST_INIT;
		all_labels(&x, &labels);
		header(&x);
		instances(&x, &labels);
		files(&x);
		kat_digests(&x, &labels);
		sizes(&x, &labels);
		timing(&x);
		sl_free(&labels);
	}
	side_free(&x.a);
	side_free(&x.b);
	versions_free(&x.log);
	free(x.cand_dir);
	return rc;
}
