/*
 * patch.c — apply and record the patches given to `add` (see patch.h).
 *
 * Why not GNU patch: it would be one more program run on untrusted input,
 * and it understands far more than we want to allow (ed scripts, git
 * renames, binary and mode changes, fuzz, symbolic links); keeping it
 * inside the source folder takes options and checks of its own.  A unified
 * diff of text files is a small format: parsed here, every path checked
 * against the source folder before anything is read or written, every hunk
 * matched byte for byte, and the result written only when all hunks of the
 * patch matched.
 */
#include "package/patch.h"

#include "util/atomic.h"
#include "util/untrusted.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the diff ------------------------------------------------------------- */

struct hunk_line {
	char op;              /* ' ', '-' or '+' */
	const char *text;     /* without the op; ends with '\n' unless no_eol */
	size_t len;           /* including the '\n' when there is one */
};

struct hunk {
	long old_start, old_len, new_start, new_len;
	int line;             /* of the @@ header in the patch */
	struct hunk_line *v;
	size_t n;
};

struct file_diff {
	char *path;           /* below the root, normalised */
	int create, remove;
	int line;             /* of the --- header */
	struct hunk *hunks;
	size_t n_hunks;
};

struct diff {
	struct file_diff *files;
	size_t n;
	int git;              /* a "diff --git" header was seen */
};

static void diff_free(struct diff *d)
{
	for (size_t i = 0; i < d->n; i++) {
		for (size_t h = 0; h < d->files[i].n_hunks; h++)
			free(d->files[i].hunks[h].v);
		free(d->files[i].hunks);
		free(d->files[i].path);
	}
	free(d->files);
	memset(d, 0, sizeof *d);
}

/* One line of the patch text: [*p, end of line), *next after its '\n'. */
struct cursor {
	const char *p, *end;
	int line;
};

static int next_line(struct cursor *c, const char **s, size_t *n, size_t *with_nl)
{
	if (c->p >= c->end)
		return 0;
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	*s = c->p;
	*with_nl = nl ? (size_t)(nl - c->p) + 1 : (size_t)(c->end - c->p);
	*n = nl ? (size_t)(nl - c->p) : *with_nl;
	if (*n && (*s)[*n - 1] == '\r')   /* header lines of a CRLF patch */
		(*n)--;
	c->p += *with_nl;
	c->line++;
	return 1;
}

static int starts(const char *s, size_t n, const char *word)
{
	size_t k = strlen(word);
	return n >= k && !memcmp(s, word, k);
}

/* The name of a ---/+++ line: up to a tab (a time stamp follows), quotes
 * refused (git quotes names with unusual bytes). */
static char *header_name(const char *s, size_t n)
{
	const char *tab = memchr(s, '\t', n);
	size_t k = tab ? (size_t)(tab - s) : n;
	while (k && s[k - 1] == ' ')
		k--;
	return xstrndup(s, k);
}

/* rel normalised ("." and empty components dropped), or NULL when it is
 * absolute, climbs with "..", is empty or has a control character. */
static char *safe_relative(const char *name)
{
	if (!*name || name[0] == '/')
		return NULL;
	for (const char *p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f || *p == '\\' || *p == '"')
			return NULL;
	struct strbuf sb = STRBUF_INIT;
	char *copy = xstrdup(name), *save = NULL;
	int bad = 0;
	for (char *part = strtok_r(copy, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
		if (!strcmp(part, "."))
			continue;
		if (!strcmp(part, "..")) {
			bad = 1;
			break;
		}
		sb_addf(&sb, "%s%s", sb.len ? "/" : "", part);
	}
	free(copy);
	if (bad || !sb.len) {
		sb_free(&sb);
		return NULL;
	}
	return sb_detach(&sb);
}

static const char *after_first(const char *p)
{
	const char *s = strchr(p, '/');
	return s ? s + 1 : NULL;
}

/* The path a ---/+++ pair names, with the first folder dropped as patch.h
 * says.  NULL when neither names a file. */
static const char *pick_name(const char *old, const char *new, int git)
{
	int old_null = !strcmp(old, "/dev/null"), new_null = !strcmp(new, "/dev/null");
	const char *name = new_null ? old : new;
	if (old_null && new_null)
		return NULL;
	if (git || ((old_null || new_null) && (str_starts_with(name, "a/") ||
					       str_starts_with(name, "b/"))))
		return after_first(name) ? after_first(name) : name;
	if (old_null || new_null)
		return name;
	const char *ro = after_first(old), *rn = after_first(new);
	if (ro && rn && !strcmp(ro, rn) && strcmp(old, new))
		return rn;
	return name;
}

/* "a[,b]" at *p (b stays as it is when absent): 0 with *p past it, or -1. */
static int parse_start_len(char **p, long *start, long *len)
{
	char *end;
	*start = strtol(*p, &end, 10);
	if (end == *p || *start < 0)
		return -1;
	*p = end;
	if (**p == ',') {
		*len = strtol(*p + 1, &end, 10);
		if (end == *p + 1 || *len < 0)
			return -1;
		*p = end;
	}
	return 0;
}

/* "@@ -a[,b] +c[,d] @@": 0, or -1. */
static int parse_range(const char *s, size_t n, struct hunk *h)
{
	char *buf = xstrndup(s, n), *p = buf + 3;
	int rc = -1;
	h->old_len = h->new_len = 1;
	if (*p++ != '-' || parse_start_len(&p, &h->old_start, &h->old_len))
		goto out;
	if (strncmp(p, " +", 2))
		goto out;
	p += 2;
	if (parse_start_len(&p, &h->new_start, &h->new_len))
		goto out;
	rc = strncmp(p, " @@", 3) ? -1 : 0;
out:
	free(buf);
	return rc;
}

static int perr(char **err, const char *name, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int perr(char **err, const char *name, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *what = xvasprintf(fmt, ap);
	va_end(ap);
	char *shown = str_printable(what, 400);
	*err = line ? xasprintf("patch %s, line %d: %s", name, line, shown)
		    : xasprintf("patch %s: %s", name, shown);
	free(shown);
	free(what);
	return -1;
}

static int ends_line(const struct hunk_line *l)
{
	return l->len && l->text[l->len - 1] == '\n';
}

/* The body of a hunk: its lines until both counts are met. */
static int parse_hunk_body(struct cursor *c, struct hunk *h, const char *name, char **err)
{
	long old_left = h->old_len, new_left = h->new_len;
	const char *s;
	size_t n, with_nl;
	while (old_left > 0 || new_left > 0) {
		if (!next_line(c, &s, &n, &with_nl))
			return perr(err, name, h->line, "the hunk ends early (%ld old and %ld "
				    "new lines missing)", old_left, new_left);
		if (s[0] == '\\') {   /* "\ No newline at end of file" of the line before */
			if (!h->n || !ends_line(&h->v[h->n - 1]))
				return perr(err, name, c->line, "a '\\' line with no line before it");
			h->v[h->n - 1].len--;
			continue;
		}
		/* an empty line is an empty context line whose blank was lost */
		int blank = s[0] == '\n' || (with_nl == 2 && s[0] == '\r' && s[1] == '\n');
		struct hunk_line hl = blank ? (struct hunk_line){ ' ', s, with_nl }
					    : (struct hunk_line){ s[0], s + 1, with_nl - 1 };
		if (hl.op != ' ' && hl.op != '-' && hl.op != '+')
			return perr(err, name, c->line, "a line in a hunk must start with ' ', '-' "
				    "or '+'");
		if ((hl.op != '+' && old_left-- <= 0) || (hl.op != '-' && new_left-- <= 0))
			return perr(err, name, c->line, "more lines than the hunk header (line %d) "
				    "counts", h->line);
		h->v = xrealloc(h->v, (h->n + 1) * sizeof *h->v);
		h->v[h->n++] = hl;
	}
	/* a "\ No newline" marker right after the last line */
	if (c->p < c->end && *c->p == '\\') {
		next_line(c, &s, &n, &with_nl);
		if (h->n && ends_line(&h->v[h->n - 1]))
			h->v[h->n - 1].len--;
	}
	return 0;
}

/* What a patch may not say: renames, copies, binary and mode changes. */
static const char *refused_header(const char *s, size_t n)
{
	static const char *const words[] = {
		"rename from", "rename to", "copy from", "copy to", "GIT binary patch",
		"Binary files", "new file mode 120000", "deleted file mode 120000",
		"old mode", "new mode",
	};
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (starts(s, n, words[i]))
			return words[i];
	return NULL;
}

/* Does a ---/+++ line name no file: /dev/null, or diff -N's empty side
 * dated at the epoch? */
static int absent_side(const char *s, size_t n, const char *name)
{
	const char *tab = memchr(s, '\t', n);
	return !strcmp(name, "/dev/null") ||
	       (tab && starts(tab + 1, n - (size_t)(tab + 1 - s), "1970-01-01"));
}

static int parse_file_header(struct cursor *c, const char *minus, size_t mn, struct diff *d,
			     const char *name, char **err)
{
	const char *s;
	size_t n, with_nl;
	int line = c->line;
	if (!next_line(c, &s, &n, &with_nl) || !starts(s, n, "+++ "))
		return perr(err, name, line, "a '---' line not followed by '+++'");
	char *old = header_name(minus + 4, mn - 4), *new = header_name(s + 4, n - 4);
	const char *picked = pick_name(old, new, d->git);
	char *rel = picked ? safe_relative(picked) : NULL;
	int rc = 0;
	if (!rel) {
		rc = perr(err, name, line, "'%s' is not a path below the package's top (absolute, "
			  "with '..', empty or quoted names are refused)", picked ? picked : old);
	} else {
		d->files = xrealloc(d->files, (d->n + 1) * sizeof *d->files);
		d->files[d->n++] = (struct file_diff){ rel, absent_side(minus, mn, old),
						       absent_side(s, n, new), line, NULL, 0 };
	}
	free(old);
	free(new);
	return rc;
}

static int parse_diff(const char *text, size_t len, const char *name, struct diff *d,
		      char **err)
{
	struct cursor c = { text, text + len, 0 };
	const char *s;
	size_t n, with_nl;
	memset(d, 0, sizeof *d);
	if (memchr(text, '\0', len))
		return perr(err, name, 0, "a NUL byte: not a text diff");
	while (next_line(&c, &s, &n, &with_nl)) {
		const char *refused = refused_header(s, n);
		if (refused)
			return perr(err, name, c.line, "'%s': only changes to the text of regular "
				    "files can be applied", refused);
		if (starts(s, n, "diff --git "))
			d->git = 1;
		if (starts(s, n, "--- ")) {
			if (parse_file_header(&c, s, n, d, name, err))
				return -1;
		} else if (starts(s, n, "@@ ")) {
			if (!d->n)
				return perr(err, name, c.line, "a hunk before any '---'/'+++' file names");
			struct file_diff *f = &d->files[d->n - 1];
			f->hunks = xrealloc(f->hunks, (f->n_hunks + 1) * sizeof *f->hunks);
			struct hunk *h = &f->hunks[f->n_hunks++];
			memset(h, 0, sizeof *h);
			h->line = c.line;
			if (parse_range(s, n, h))
				return perr(err, name, c.line, "a malformed hunk header");
			if (parse_hunk_body(&c, h, name, err))
				return -1;
		}
		/* anything else (diff, index, Only in, prose) is commentary */
	}
	if (!d->n)
		return perr(err, name, 0, "no '---'/'+++' file names: not a unified diff");
	for (size_t i = 0; i < d->n; i++)
		if (!d->files[i].n_hunks)
			return perr(err, name, d->files[i].line, "%s has no hunk", d->files[i].path);
	return 0;
}

/* ---- applying ---------------------------------------------------------------- */

/* One file's content while a patch is applied, as lines. */
struct lines {
	char *path;
	const char **v;       /* into the buffers below */
	size_t *len;
	size_t n;
	struct strlist bufs;  /* the file's content and the hunks' copies */
	int exists, removed;
};

static void lines_free(struct lines *l)
{
	free(l->path);
	free(l->v);
	free(l->len);
	sl_free(&l->bufs);
}

static void lines_split(struct lines *l, char *data, size_t len)
{
	sl_push_owned(&l->bufs, data);
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(data + at, '\n', len - at);
		size_t k = nl ? (size_t)(nl - (data + at)) + 1 : len - at;
		l->v = xrealloc(l->v, (l->n + 1) * sizeof *l->v);
		l->len = xrealloc(l->len, (l->n + 1) * sizeof *l->len);
		l->v[l->n] = data + at;
		l->len[l->n++] = k;
		at += k;
	}
}

/* Does the hunk's old side match the lines from pos on? */
static int matches_at(const struct lines *l, const struct hunk *h, size_t pos)
{
	size_t k = pos;
	for (size_t i = 0; i < h->n; i++) {
		if (h->v[i].op == '+')
			continue;
		if (k >= l->n || l->len[k] != h->v[i].len || memcmp(l->v[k], h->v[i].text, h->v[i].len))
			return 0;
		k++;
	}
	return 1;
}

/* Where the hunk applies: at its line, else the nearest exact match. */
static long find_hunk(const struct lines *l, const struct hunk *h)
{
	long want = h->new_len ? h->new_start - 1 : h->new_start;
	long n_old = h->old_len;
	if (want < 0)
		want = 0;
	for (long off = 0; off <= (long)l->n; off++) {
		long at[2] = { want - off, want + off };
		for (int k = 0; k < (off ? 2 : 1); k++)
			if (at[k] >= 0 && at[k] + n_old <= (long)l->n && matches_at(l, h, (size_t)at[k]))
				return at[k];
	}
	return -1;
}

static void replace_lines(struct lines *l, const struct hunk *h, size_t pos)
{
	size_t n_new = (size_t)h->new_len, n_old = (size_t)h->old_len;
	size_t total = l->n - n_old + n_new;
	const char **v = xcalloc(total + 1, sizeof *v);
	size_t *len = xcalloc(total + 1, sizeof *len), k = 0;
	for (size_t i = 0; i < pos; i++, k++) {
		v[k] = l->v[i];
		len[k] = l->len[i];
	}
	for (size_t i = 0; i < h->n; i++)
		if (h->v[i].op != '-') {
			v[k] = h->v[i].text;
			len[k++] = h->v[i].len;
		}
	for (size_t i = pos + n_old; i < l->n; i++, k++) {
		v[k] = l->v[i];
		len[k] = l->len[i];
	}
	free(l->v);
	free(l->len);
	l->v = v;
	l->len = len;
	l->n = total;
}

/* Every proper prefix of rel is a folder or absent, never a link. */
static int parents_ok(const char *root, const char *rel)
{
	char *p = xstrdup(rel);
	int ok = 1;
	for (char *s = strchr(p, '/'); s && ok; s = strchr(s + 1, '/')) {
		*s = '\0';
		/* shorter prefixes are folders, so 0 means "does not exist" */
		int kind = root_kind(root, p);
		ok = kind == 'd' || kind == 0;
		*s = '/';
	}
	free(p);
	return ok;
}

static struct lines *file_state(struct lines **files, size_t *n, const char *root,
				const struct file_diff *f, const char *name, char **err)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*files)[i].path, f->path))
			return &(*files)[i];
	if (!parents_ok(root, f->path)) {
		perr(err, name, f->line, "%s: a folder on its way is a symbolic link or not a "
		     "folder; patches never go through links", f->path);
		return NULL;
	}
	int kind = root_kind(root, f->path);
	if (kind == 'l' || (kind && kind != 'f')) {
		perr(err, name, f->line, "%s is %s; only regular files are patched", f->path,
		     kind == 'l' ? "a symbolic link" : "not a regular file");
		return NULL;
	}
	*files = xrealloc(*files, (*n + 1) * sizeof **files);
	struct lines *l = &(*files)[(*n)++];
	memset(l, 0, sizeof *l);
	l->path = xstrdup(f->path);
	l->exists = kind == 'f';
	if (l->exists) {
		char *data = NULL;
		size_t len = 0;
		if (root_read_file(root, f->path, &data, &len)) {
			perr(err, name, f->line, "cannot read %s: %s", f->path, io_strerror(errno));
			return NULL;
		}
		lines_split(l, data, len);
	}
	return l;
}

static int apply_file(struct lines *l, const struct file_diff *f, const char *name, char **err)
{
	if (f->create && (l->exists || l->n))
		return perr(err, name, f->line, "creates %s, which already exists", f->path);
	if (!f->create && !l->exists)
		return perr(err, name, f->line, "changes %s, which is not in the package", f->path);
	for (size_t i = 0; i < f->n_hunks; i++) {
		const struct hunk *h = &f->hunks[i];
		long at = find_hunk(l, h);
		if (at < 0)
			return perr(err, name, h->line, "hunk %zu of %s (@@ -%ld,%ld +%ld,%ld @@) does "
				    "not apply: its context and removed lines are not in the file "
				    "as they are in the package", i + 1, f->path, h->old_start,
				    h->old_len, h->new_start, h->new_len);
		replace_lines(l, h, (size_t)at);
	}
	if (f->remove) {
		if (l->n)
			return perr(err, name, f->line, "deletes %s but leaves %zu line(s) of it",
				    f->path, l->n);
		l->removed = 1;
	} else {
		l->removed = 0;
		l->exists = 1;
	}
	return 0;
}

static int write_result(const char *root, const struct lines *l, const char *name, char **err)
{
	char *path = path_join(root, l->path);
	int rc = 0;
	if (l->removed) {
		if (unlink(path) && errno != ENOENT)
			rc = perr(err, name, 0, "cannot remove %s: %s", path, strerror(errno)) - 1;
	} else {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < l->n; i++)
			sb_add(&sb, l->v[i], l->len[i]);
		char *dir = path_dirname(path);
		if (mkdir_p(dir, 0755) || atomic_write(path, sb.buf ? sb.buf : "", sb.len))
			rc = perr(err, name, 0, "cannot write %s: %s", path, strerror(errno)) - 1;
		free(dir);
		sb_free(&sb);
	}
	free(path);
	return rc;
}

int patch_apply_text(const char *root, const char *name, const char *text, size_t len,
		     struct strlist *touched, char **err)
{
	struct diff d;
	struct lines *files = NULL;
	size_t n_files = 0;
	int rc = parse_diff(text, len, name, &d, err);
	for (size_t i = 0; i < d.n && !rc; i++) {
		struct lines *l = file_state(&files, &n_files, root, &d.files[i], name, err);
		rc = l ? apply_file(l, &d.files[i], name, err) : -1;
	}
	/* all of the patch applied in memory: now write */
	for (size_t i = 0; i < n_files && !rc; i++)
		rc = write_result(root, &files[i], name, err);
	for (size_t i = 0; i < n_files; i++) {
		if (!rc && touched && !sl_contains(touched, files[i].path))
			sl_push(touched, files[i].path);
		lines_free(&files[i]);
	}
	free(files);
	diff_free(&d);
	return rc;
}

/* ---- recording ---------------------------------------------------------------- */

static int apply_one(const char *source_root, const char *patches_dir, const char *file,
		     struct candidate_conf *c, char **err)
{
	const char *base = path_basename(file);
	char *data = NULL;
	size_t len = 0;
	int rc = -1;
	if (!conf_patch_name_valid(base)) {
		char *shown = str_printable(base, 200);
		*err = xasprintf("patch %s: the file name '%s' may only hold letters, digits, "
				 "'.', '_', '+' and '-' (and not start with '.'); rename it",
				 file, shown);
		free(shown);
		return -1;
	}
	for (size_t i = 0; i < c->n_patches; i++)
		if (!strcmp(c->patches[i].file, base)) {
			*err = xasprintf("patch %s: a patch named %s is already given; each --patch "
					 "needs its own file name", file, base);
			return -1;
		}
	if (read_file(file, &data, &len)) {
		*err = xasprintf("patch %s: cannot read it: %s", file, io_strerror(errno));
		return -1;
	}
	struct patch_conf *p = NULL;
	struct strlist touched = STRLIST_INIT;
	char hex[65];
	if (len > PATCH_MAX_BYTES) {
		*err = xasprintf("patch %s: %zu bytes, more than the %u allowed", file, len,
				 PATCH_MAX_BYTES);
	} else if ((rc = patch_apply_text(source_root, file, data, len, &touched, err)) == 0) {
		rc = -2;
		char *kept = path_join(patches_dir, base);
		if (mkdir_p(patches_dir, 0755) || atomic_write(kept, data, len)) {
			*err = xasprintf("cannot write %s: %s", kept, strerror(errno));
		} else {
			sha256_hex(data, len, hex);
			c->patches = xrealloc(c->patches, (c->n_patches + 1) * sizeof *c->patches);
			p = &c->patches[c->n_patches++];
			memset(p, 0, sizeof *p);
			p->file = xstrdup(base);
			p->sha256 = xstrdup(hex);
			p->touches = touched;
			memset(&touched, 0, sizeof touched);
			rc = 0;
		}
		free(kept);
	}
	sl_free(&touched);
	free(data);
	return rc;
}

int patch_apply_files(const char *source_root, const char *patches_dir,
		      const char *const *files, size_t n, struct candidate_conf *c, char **err)
{
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++)
		rc = apply_one(source_root, patches_dir, files[i], c, err);
	return rc;
}

int patch_verify(const char *workspace, const struct candidate_conf *c, char **err)
{
	for (size_t i = 0; i < c->n_patches; i++) {
		const struct patch_conf *p = &c->patches[i];
		char *rel = xasprintf("candidates/%s/patches/%s", c->id, p->file);
		char *data = NULL, hex[65];
		size_t len = 0;
		int bad = 0;
		if (!conf_patch_name_valid(p->file)) {
			*err = xasprintf("candidates/%s/candidate.conf: [patch %s] is not a plain "
					 "file name", c->id, p->file);
			bad = 1;
		} else if (root_read_file(workspace, rel, &data, &len)) {
			*err = xasprintf("%s: cannot read the recorded patch: %s; add the candidate "
					 "again with its --patch files", rel, io_strerror(errno));
			bad = 1;
		} else if (sha256_hex(data, len, hex), strcmp(hex, p->sha256 ? p->sha256 : "")) {
			*err = xasprintf("%s: SHA-256 %.16s… but candidate.conf records %.16s…; the "
					 "source was patched with the recorded one: add the candidate "
					 "again (--force) with the patch you mean", rel, hex,
					 p->sha256 ? p->sha256 : "(none)");
			bad = 1;
		}
		free(data);
		free(rel);
		if (bad)
			return -1;
	}
	return 0;
}
