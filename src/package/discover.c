/*
 * discover.c — see discover.h.
 *
 * The package layouts seen in practice (docs/iccs.md §6) vary too much for a
 * fixed path pattern, so discovery starts from the ICCS API headers (found
 * by the functions they declare, or by their KEM_/SIG_/KEX_/CryptHash_ name)
 * and works outwards: the header's folder is the instance folder, its
 * ancestors give the variant, its files the sources.  Copies of the same
 * instance (the Chinese self-evaluation bundles) are recognised by content.
 */
#include "package/discover.h"

#include "method/types.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define MAX_SCAN_BYTES (8u << 20) /* a header or source larger than this is not ours to parse */

/* ---- names ---- */

static int name_in(const char *name, const char *const *set)
{
	for (; *set; set++)
		if (!strcasecmp(name, *set))
			return 1;
	return 0;
}

static int starts_ci(const char *s, const char *prefix)
{
	return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

/* "Reference_Implementation", "Optimized Implementations", ... */
static int container_like(const char *name)
{
	return (starts_ci(name, "reference") || starts_ci(name, "optimi") ||
		starts_ci(name, "additional")) && strcasestr(name, "implementation");
}

/* Folders whose content is never compiled: build output, shipped binaries,
 * test and benchmark programs, VCS and archive-tool metadata. */
static int junk_dir(const char *name)
{
	static const char *const junk[] = {
		"build", "bin", "output", "CMakeFiles", ".git", ".svn", "__MACOSX",
		".vs", ".vscode", ".idea", "Debug", "Release", "x64", NULL
	};
	return name_in(name, junk) || starts_ci(name, "test") ||
	       starts_ci(name, "bench") || starts_ci(name, "speed");
}

/* Folder names that say where code sits, not which parameter set it is. */
static int generic_dir(const char *name)
{
	static const char *const generic[] = {
		"ref", "reference", "opt", "optimized", "optimised", "x86_64", "x86-64",
		"avx2", "avx", "common", "src", "source", "sources", "include", "inc",
		"api", "code", "implementation", "implementations", NULL
	};
	return name_in(name, generic) || container_like(name);
}

static int header_subdir(const char *name)
{
	static const char *const sub[] = { "src", "source", "include", "inc", "api", NULL };
	return name_in(name, sub);
}

static int is_source_name(const char *name)
{
	static const char *const exts[] = { ".c", ".cc", ".cpp", ".cxx", ".s", NULL };
	for (const char *const *e = exts; *e; e++)
		if (str_ends_with_ci(name, *e))
			return 1;
	return 0;
}

static int excluded_source_name(const char *name)
{
	return starts_ci(name, "KAT_") || starts_ci(name, "PQCgenKAT") ||
	       starts_ci(name, "test") || starts_ci(name, "bench") || starts_ci(name, "speed");
}

static int bundle_component(const char *c)
{
	return !strcasecmp(c, "others") || !strcasecmp(c, "other") ||
	       strstr(c, "中文") || strstr(c, "资料") || strstr(c, "自评");
}

/* A bundle is a copy outside the official Implementations/ tree (for
 * code) or under Others/ or 中文资料/ (for anything). */
static int path_in_bundle_ex(const char *rel, int code)
{
	char *copy = xstrdup(rel);
	int bundle = 0, official = !code;
	for (char *save = NULL, *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (bundle_component(c))
			bundle = 1;
		if (starts_ci(c, "implementation"))
			official = 1;
	}
	free(copy);
	return bundle || !official;
}

static int path_in_bundle(const char *rel)
{
	return path_in_bundle_ex(rel, 1);
}

static const char *variant_of_path(const char *rel)
{
	const char *v = "reference";
	char *copy = xstrdup(rel);
	for (char *save = NULL, *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (starts_ci(c, "additional"))
			v = "additional";
		else if (starts_ci(c, "optimi") || !strcasecmp(c, "x86_64") ||
			 !strcasecmp(c, "x86-64") || !strcasecmp(c, "avx2"))
			v = "optimized-avx2";
	}
	free(copy);
	return v;
}

/* ---- a tiny C lexer ---- */

/* Calls fn for every identifier outside comments, strings, char literals and
 * preprocessor lines, saying whether '(' follows and whether the previous
 * token was a member access. */
typedef void (*ident_fn)(const char *id, size_t len, int call, int member, void *ctx);

static const char *skip_blank_and_comments(const char *p)
{
	for (;;) {
		while (*p && isspace((unsigned char)*p))
			p++;
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			p = e ? e + 2 : p + strlen(p);
		} else if (p[0] == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				p++;
		} else {
			return p;
		}
	}
}

static const char *skip_quoted(const char *p)
{
	char q = *p++;
	while (*p && *p != q && *p != '\n') {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	return *p == q ? p + 1 : p;
}

static const char *skip_directive(const char *p)
{
	while (*p && *p != '\n') {
		if (*p == '\\' && p[1] == '\n')
			p++;
		else if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			p = e ? e + 1 : p + strlen(p) - 1;
		}
		p++;
	}
	return p;
}

static void scan_identifiers(const char *text, ident_fn fn, void *ctx)
{
	const char *p = text;
	int line_start = 1, member = 0;
	while (*p) {
		char c = *p;
		if (c == '\n') {
			line_start = 1;
			p++;
		} else if (isspace((unsigned char)c)) {
			p++;
		} else if (c == '/' && (p[1] == '*' || p[1] == '/')) {
			p = skip_blank_and_comments(p);
		} else if (c == '#' && line_start) {
			p = skip_directive(p);
		} else if (c == '"' || c == '\'') {
			p = skip_quoted(p);
			line_start = member = 0;
		} else if (isalpha((unsigned char)c) || c == '_') {
			const char *s = p;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			const char *after = skip_blank_and_comments(p);
			fn(s, (size_t)(p - s), *after == '(', member, ctx);
			line_start = member = 0;
		} else {
			member = c == '.' || (c == '>' && p > text && p[-1] == '-');
			line_start = 0;
			p++;
		}
	}
}

struct main_probe {
	int found;
};

static void probe_main(const char *id, size_t len, int call, int member, void *ctx)
{
	if (len == 4 && !memcmp(id, "main", 4) && call && !member)
		((struct main_probe *)ctx)->found = 1;
}

int source_defines_main(const char *text)
{
	struct main_probe m = { 0 };
	scan_identifiers(text, probe_main, &m);
	return m.found;
}

/* Which ICCS API a header declares. */
struct api_probe {
	const char *type;
};

static void probe_api(const char *id, size_t len, int call, int member, void *ctx)
{
	struct api_probe *pr = ctx;
	if (!call || member || pr->type)
		return;
	for (size_t t = 0; t < n_cand_types; t++)
		for (const char *const *fn = cand_types[t].api_functions; *fn; fn++)
			if (strlen(*fn) == len && !memcmp(id, *fn, len))
				pr->type = cand_types[t].name;
}

static const char *type_from_header_name(const char *name)
{
	if (!str_ends_with_ci(name, ".h"))
		return NULL;
	for (size_t t = 0; t < n_cand_types; t++)
		if (starts_ci(name, cand_types[t].header_prefix))
			return cand_types[t].name;
	return NULL;
}

/* ---- files ---- */

static char *read_small(const char *path)
{
	struct stat st;
	char *data = NULL;
	if (stat(path, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size > MAX_SCAN_BYTES)
		return NULL;
	if (read_file(path, &data, NULL))
		return NULL;
	return data;
}

/* Every regular file below root as a root-relative path (symlinks ignored),
 * sorted so that results never depend on readdir order. */
static void walk(const char *root, const char *rel, struct strlist *files)
{
	char *dir = path_join(root, rel);
	DIR *d = opendir(dir);
	if (!d) {
		free(dir);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    !strcmp(e->d_name, "__MACOSX"))
			continue;
		char *r = path_join(rel, e->d_name);
		char *abs = path_join(root, r);
		struct stat st;
		if (!lstat(abs, &st)) {
			if (S_ISDIR(st.st_mode))
				walk(root, r, files);
			else if (S_ISREG(st.st_mode))
				sl_push(files, r);
		}
		free(abs);
		free(r);
	}
	closedir(d);
	free(dir);
	if (!*rel)
		sl_sort(files);
}

static int any_component_junk(const char *rel)
{
	char *copy = xstrdup(rel);
	int junk = 0;
	char *save = NULL;
	char *c = strtok_r(copy, "/", &save);
	while (c) {
		char *next = strtok_r(NULL, "/", &save);
		if (next && junk_dir(c)) /* folders only, not the file name */
			junk = 1;
		c = next;
	}
	free(copy);
	return junk;
}

/* ---- macros: ALGORITHM_INSTANCE, DIGEST_BIT_LENGTH ---- */

/* The value of the first `#define <name> <value>` outside comment lines:
 * the rest of its line without a trailing comment or blanks (malloc'd), or
 * NULL.  Lines may end in CRLF; a UTF-8 byte-order mark may precede the
 * first line. */
static char *parse_define(const char *text, const char *name)
{
	size_t nl_name = strlen(name);
	if (!strncmp(text, "\xEF\xBB\xBF", 3))
		text += 3;
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *q = p;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q++ != '#')
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, "define", 6))
			continue;
		q += 6;
		if (*q != ' ' && *q != '\t')
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, name, nl_name) || (q[nl_name] != ' ' && q[nl_name] != '\t'))
			continue;
		q += nl_name;
		while (*q == ' ' || *q == '\t')
			q++;
		size_t n = strcspn(q, "\r\n");
		const char *c1 = strstr(q, "/*"), *c2 = strstr(q, "//");
		if (c1 && (size_t)(c1 - q) < n)
			n = (size_t)(c1 - q);
		if (c2 && (size_t)(c2 - q) < n)
			n = (size_t)(c2 - q);
		while (n && (q[n - 1] == ' ' || q[n - 1] == '\t'))
			n--;
		return xstrndup(q, n);
	}
	return NULL;
}

/* The first `#define ALGORITHM_INSTANCE "..."` outside comment lines. */
static char *parse_instance_macro(const char *text)
{
	char *v = parse_define(text, "ALGORITHM_INSTANCE");
	char *s = NULL;
	if (v && v[0] == '"') {
		const char *e = strchr(v + 1, '"');
		if (e)
			s = xstrndup(v + 1, (size_t)(e - v - 1));
	}
	free(v);
	return s;
}

static char *instance_macro_in_file(const char *path)
{
	char *text = read_small(path);
	char *v = text ? parse_instance_macro(text) : NULL;
	free(text);
	return v;
}

/* An integer constant as headers write it: 256, (256), 0x100, 256u, 256UL.
 * -1 if v is not one. */
static long integer_constant(const char *v)
{
	char *copy = xstrdup(v), *p = copy, *end = NULL;
	size_t n = strlen(p);
	while (*p == '(' && n >= 2 && p[n - 1] == ')') {
		p[--n] = '\0';
		p++;
		n--;
		while (*p == ' ')
			p++, n--;
		while (n && p[n - 1] == ' ')
			p[--n] = '\0';
	}
	long x = strtol(p, &end, 0);
	while (end && (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L'))
		end++;
	int ok = end && end != p && !*end && x > 0;
	free(copy);
	return ok ? x : -1;
}

static int is_identifier(const char *v)
{
	if (!isalpha((unsigned char)*v) && *v != '_')
		return 0;
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && *v != '_')
			return 0;
	return 1;
}

/* ---- one instance ---- */

struct inst_builder {
	const char *root;
	const struct strlist *all;   /* every file of the package */
	struct found_instance *fi;
	char *abs_dir;               /* root/source_dir */
	struct strlist headers;      /* relative to source_dir */
};

/* The part of rel inside folder dir ("." is the package root), or NULL. */
static const char *inside(const char *rel, const char *dir)
{
	if (!strcmp(dir, "."))
		return rel;
	size_t n = strlen(dir);
	return !strncmp(rel, dir, n) && rel[n] == '/' ? rel + n + 1 : NULL;
}

static int under(const char *rel, const char *dir)
{
	return inside(rel, dir) && strcmp(rel, dir);
}

/* Add the sources and header folders of dir (root-relative) to the
 * instance, written relative to the instance folder (prefix "../common/"
 * for a shared sibling). */
static void collect_code(struct inst_builder *b, const char *dir)
{
	char *prefix = path_relative(b->fi->source_dir, dir);
	for (size_t i = 0; i < b->all->n; i++) {
		const char *rel = b->all->items[i];
		const char *inner = inside(rel, dir);
		if (!inner || any_component_junk(inner))
			continue;
		const char *base = path_basename(inner);
		char *mine = strcmp(prefix, ".") ? path_join(prefix, inner) : xstrdup(inner);
		if (str_ends_with_ci(base, ".h")) {
			sl_push(&b->headers, mine);
			char *hdir = path_dirname(mine);
			if (!sl_contains(&b->fi->include_dirs, hdir))
				sl_push(&b->fi->include_dirs, hdir);
			free(hdir);
		} else if (is_source_name(base) && !excluded_source_name(base)) {
			char *abs = path_join(b->root, rel);
			char *text = read_small(abs);
			if (text && !source_defines_main(text)) {
				sl_push(&b->fi->sources, mine);
				if (!strcasecmp(base, "drng.c"))
					b->fi->own_drng = 1;
				if (!strcasecmp(base, "auxfunc.c"))
					b->fi->own_auxfunc = 1;
			}
			free(text);
			free(abs);
		}
		free(mine);
	}
	free(prefix);
}

/* Content hash of what would be compiled: relative names and file hashes. */
static void instance_digest(struct inst_builder *b)
{
	struct strlist lines = STRLIST_INIT;
	const struct strlist *lists[] = { &b->fi->sources, &b->headers };
	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; i < lists[l]->n; i++) {
			char *abs = path_join(b->abs_dir, lists[l]->items[i]);
			char hex[65] = "unreadable";
			sha256_file_hex(abs, hex);
			sl_push_owned(&lines, xasprintf("%s %s\n", hex, lists[l]->items[i]));
			free(abs);
		}
	sl_sort(&lines);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < lines.n; i++)
		sb_adds(&sb, lines.items[i]);
	sha256_hex(sb.buf ? sb.buf : "", sb.len, b->fi->digest);
	sb_free(&sb);
	sl_free(&lines);
}

/* The API header's macro (already parsed when the header was found), else
 * the first other header's. */
static void find_instance_macro(struct inst_builder *b, const char *api_macro)
{
	b->fi->instance = api_macro ? xstrdup(api_macro) : NULL;
	for (size_t i = 0; i < b->headers.n && !b->fi->instance; i++) {
		char *h = path_join(b->abs_dir, b->headers.items[i]);
		b->fi->instance = instance_macro_in_file(h);
		free(h);
	}
	b->fi->placeholder = b->fi->instance && !strcmp(b->fi->instance, "AlgorithmInstance");
}

/* The `#define name` of the instance's headers, the API header first. */
static char *define_in_headers(struct inst_builder *b, const char *api_header, const char *name)
{
	char *v = NULL;
	for (size_t i = 0; i <= b->headers.n && !v; i++) {
		const char *rel = i == 0 ? api_header : b->headers.items[i - 1];
		if (!rel || (i > 0 && api_header && !strcmp(rel, api_header)))
			continue;
		char *h = path_join(b->abs_dir, rel);
		char *text = read_small(h);
		v = text ? parse_define(text, name) : NULL;
		free(text);
		free(h);
	}
	return v;
}

/* DIGEST_BIT_LENGTH (hash, docs/iccs.md §1.2), defined in the API header or
 * another header of the instance, as a number or as the name of another
 * macro defined there (a few steps of that).  0 when not found. */
static void find_digest_bits(struct inst_builder *b)
{
	char *v = define_in_headers(b, b->fi->api_header, "DIGEST_BIT_LENGTH");
	for (int depth = 0; v && depth < 4 && is_identifier(v); depth++) {
		char *next = define_in_headers(b, b->fi->api_header, v);
		free(v);
		v = next;
	}
	long bits = v ? integer_constant(v) : -1;
	b->fi->digest_bits = bits > 0 && bits <= 65536 ? (int)bits : 0;
	if (v && !b->fi->digest_bits)
		b->fi->digest_expr = xstrdup(v);
	free(v);
}

/* ---- KAT reference ---- */

/* Label and file stem compared without case and with '-' == '_'. */
static int loose_equal(const char *a, const char *b, size_t blen)
{
	if (strlen(a) != blen)
		return 0;
	for (size_t i = 0; i < blen; i++) {
		char x = (char)tolower((unsigned char)a[i]), y = (char)tolower((unsigned char)b[i]);
		if (x == '-')
			x = '_';
		if (y == '-')
			y = '_';
		if (x != y)
			return 0;
	}
	return 1;
}

static int in_test_vectors(const char *rel)
{
	return strcasestr(rel, "test_vector") != NULL || strcasestr(rel, "test vector") != NULL;
}

static char *folder_label(const struct found_instance *fi)
{
	const char *plus = strchr(fi->label, '+');
	return plus ? xstrndup(fi->label, (size_t)(plus - fi->label)) : xstrdup(fi->label);
}

/* How well a <prefix>*.txt file (KAT_KEM_..., KAT_2_12_...) fits the
 * instance; 0 = not at all. */
static int kat_score(const struct found_instance *fi, const char *rel, const char *label,
		     const char *prefix)
{
	const char *base = path_basename(rel);
	if (!starts_ci(base, prefix) || !str_ends_with_ci(base, ".txt"))
		return 0;
	const char *stem = base + strlen(prefix);
	size_t stem_len = strlen(stem) - 4;
	char *parent = path_dirname(rel);
	int parent_is_label = !strcasecmp(path_basename(parent), label);
	free(parent);
	int score = 0;
	if (fi->instance && strlen(fi->instance) == stem_len && !strncmp(stem, fi->instance, stem_len))
		score = 100;
	else if (fi->instance && strlen(fi->instance) == stem_len &&
		 !strncasecmp(stem, fi->instance, stem_len))
		score = 90;
	else if (loose_equal(label, stem, stem_len))
		score = 80;
	else if (parent_is_label)
		score = 60;
	if (!score)
		return 0;
	if (parent_is_label)
		score += 4;
	if (in_test_vectors(rel))
		score += 5;
	if (under(rel, fi->source_dir))
		score += 3;
	if (path_in_bundle_ex(rel, 0))
		score -= 10;
	if (any_component_junk(rel))
		score -= 2;
	return score;
}

/* The package file that fits the instance best as <prefix>*.txt (NULL). */
static char *best_kat(const struct found_instance *fi, const struct strlist *all,
		      const char *prefix)
{
	char *label = folder_label(fi), *found = NULL;
	int best = 0;
	for (size_t i = 0; i < all->n; i++) {
		int s = kat_score(fi, all->items[i], label, prefix);
		if (s > best) {
			best = s;
			free(found);
			found = xstrdup(all->items[i]);
		}
	}
	free(label);
	return found;
}

/* The submitted KAT file, or for a type with several (hash) each of them
 * that the package has. */
static void find_kat(struct found_instance *fi, const struct strlist *all)
{
	const struct cand_type *t = cand_type_find(fi->type);
	if (!t || !t->kat_files) {
		fi->kat_reference = best_kat(fi, all, t ? t->kat_prefix : "KAT_KEM_");
		return;
	}
	for (const char *const *tag = t->kat_files; *tag; tag++) {
		char *prefix = xasprintf("%s_", *tag);
		char *f = best_kat(fi, all, prefix);
		if (f)
			sl_push_owned(&fi->kat_files, f);
		free(prefix);
	}
}

/* ---- finding instance folders ---- */

struct api_header {
	char *rel;        /* root-relative */
	const char *type;
	int named;        /* KEM_*.h style name */
	char *macro;      /* its ALGORITHM_INSTANCE value, or NULL */
};

static int better_header(const struct api_header *a, const struct api_header *b)
{
	if (a->named != b->named)
		return a->named > b->named;
	if (!a->macro != !b->macro)
		return a->macro != NULL;
	return strcmp(a->rel, b->rel) < 0;
}

/* The instance folder of a header: its folder, or the parent of src/include. */
static char *instance_dir_of(const char *header_rel)
{
	char *dir = path_dirname(header_rel);
	while (strcmp(dir, ".") && header_subdir(path_basename(dir))) {
		char *up = path_dirname(dir);
		if (!strcmp(up, ".")) {
			free(up);
			break;
		}
		free(dir);
		dir = up;
	}
	return dir;
}

static void find_api_headers(const char *root, const struct strlist *all, struct api_header **out,
			     size_t *n)
{
	for (size_t i = 0; i < all->n; i++) {
		const char *rel = all->items[i];
		const char *base = path_basename(rel);
		if (!str_ends_with_ci(base, ".h") || any_component_junk(rel) ||
		    !strcasecmp(base, "drng.h") || !strcasecmp(base, "auxfunc.h"))
			continue;
		char *abs = path_join(root, rel);
		char *text = read_small(abs);
		free(abs);
		if (!text)
			continue;
		struct api_probe pr = { 0 };
		scan_identifiers(text, probe_api, &pr);
		const char *by_name = type_from_header_name(base);
		if (pr.type || by_name) {
			*out = xrealloc(*out, (*n + 1) * sizeof(**out));
			struct api_header *h = &(*out)[(*n)++];
			h->rel = xstrdup(rel);
			h->type = pr.type ? pr.type : by_name;
			h->named = by_name != NULL;
			h->macro = parse_instance_macro(text);
		}
		free(text);
	}
}

static int dir_has_sources(const struct strlist *all, const char *dir)
{
	for (size_t i = 0; i < all->n; i++)
		if (inside(all->items[i], dir) && is_source_name(all->items[i]) &&
		    !any_component_junk(inside(all->items[i], dir)))
			return 1;
	return 0;
}

/* The subfolders of parent (root-relative, "." for the root) that hold a
 * file of the package, root-relative and sorted.  Derived from the walk's
 * file list, so discovery lists no folder twice. */
static void subdirs_with_files(const struct strlist *all, const char *parent,
			       struct strlist *out)
{
	for (size_t i = 0; i < all->n; i++) {
		const char *inner = inside(all->items[i], parent);
		const char *slash = inner ? strchr(inner, '/') : NULL;
		if (!slash)
			continue;
		char *name = xstrndup(inner, (size_t)(slash - inner));
		char *sub = strcmp(parent, ".") ? path_join(parent, name) : xstrdup(name);
		if (!sl_contains(out, sub))
			sl_push(out, sub);
		free(sub);
		free(name);
	}
	sl_sort(out);
}

/* The sibling "common" folder of dir, if any (doubled Implementations/ layout).
 * A folder without files would add no code, so only the listed ones count. */
static char *common_sibling(const struct strlist *all, const char *dir)
{
	char *parent = path_dirname(dir);
	struct strlist subs = STRLIST_INIT;
	char *found = NULL;
	subdirs_with_files(all, parent, &subs);
	for (size_t i = 0; i < subs.n && !found; i++) {
		const char *name = path_basename(subs.items[i]);
		if (!strcasecmp(name, "common") && strcmp(name, path_basename(dir)))
			found = xstrdup(subs.items[i]);
	}
	sl_free(&subs);
	free(parent);
	return found;
}

/* Label: the folder name, or for ref/x86_64/common folders the instance
 * macro or the nearest meaningful ancestor. */
static char *label_for(const char *dir, const char *instance, int placeholder,
		       const char *fallback)
{
	if (!strcmp(dir, "."))
		return xstrdup(fallback); /* the package is one instance folder */
	if (!generic_dir(path_basename(dir)))
		return xstrdup(path_basename(dir));
	if (instance && !placeholder && *instance)
		return xstrdup(instance);
	char *d = xstrdup(dir);
	while (strcmp(d, ".") && generic_dir(path_basename(d))) {
		char *up = path_dirname(d);
		free(d);
		d = up;
	}
	char *label = xstrdup(strcmp(d, ".") ? path_basename(d) : fallback);
	free(d);
	return label;
}

struct scan {
	const char *root;
	const char *fallback_label;
	struct strlist all;
};

static void add_found(struct discovery *d, const struct scan *sc,
		      const char *dir, const char *common, const struct api_header *h)
{
	d->inst = xrealloc(d->inst, (d->n + 1) * sizeof(*d->inst));
	struct found_instance *fi = &d->inst[d->n++];
	memset(fi, 0, sizeof(*fi));
	fi->source_dir = xstrdup(dir);
	fi->type = xstrdup(h->type);
	fi->variant = xstrdup(variant_of_path(dir));
	fi->api_header = path_relative(dir, h->rel);
	fi->in_bundle = path_in_bundle(dir);
	struct inst_builder b = { .root = sc->root, .all = &sc->all, .fi = fi };
	b.abs_dir = path_join(sc->root, dir);
	sl_push(&fi->include_dirs, ".");
	collect_code(&b, dir);
	if (common)
		collect_code(&b, common);
	sl_sort(&fi->sources);
	find_instance_macro(&b, h->macro);
	if (!strcmp(fi->type, "hash"))
		find_digest_bits(&b);
	instance_digest(&b);
	char *label = label_for(dir, fi->instance, fi->placeholder, sc->fallback_label);
	if (!strcmp(fi->variant, "optimized-avx2"))
		fi->label = xasprintf("%s+avx2", label);
	else if (!strcmp(fi->variant, "additional"))
		fi->label = xasprintf("%s+additional", label);
	else
		fi->label = xstrdup(label);
	free(label);
	fi->enabled = cand_type_supported(cand_type_find(fi->type)) &&
		      strcmp(fi->variant, "additional");
	find_kat(fi, &sc->all);
	free(b.abs_dir);
	sl_free(&b.headers);
}

/* Map headers to instance folders (one per folder, best header wins) and
 * drop folders nested inside another instance folder. */
static void group_headers(struct api_header *h, size_t n, struct strlist *dirs,
			  struct api_header ***chosen)
{
	*chosen = NULL;
	for (size_t i = 0; i < n; i++) {
		char *dir = instance_dir_of(h[i].rel);
		size_t k;
		for (k = 0; k < dirs->n && strcmp(dirs->items[k], dir); k++)
			;
		if (k == dirs->n) {
			sl_push(dirs, dir);
			*chosen = xrealloc(*chosen, dirs->n * sizeof(**chosen));
			(*chosen)[k] = &h[i];
		} else if (better_header(&h[i], (*chosen)[k])) {
			(*chosen)[k] = &h[i];
		}
		free(dir);
	}
	for (size_t i = 0; i < dirs->n; i++)
		for (size_t j = 0; j < dirs->n; j++)
			if (i != j && (*chosen)[i] && (*chosen)[j] &&
			    under(dirs->items[i], dirs->items[j]))
				(*chosen)[i] = NULL; /* an inner header of instance j */
}

static void add_for_dir(struct discovery *d, const struct scan *sc, const char *dir,
			const struct api_header *h)
{
	const struct strlist *all = &sc->all;
	if (!strcasecmp(path_basename(dir), "common")) {
		/* Shared code with the API header; each code sibling is an instance. */
		char *parent = path_dirname(dir);
		struct strlist subs = STRLIST_INIT, sibs = STRLIST_INIT;
		subdirs_with_files(all, parent, &subs);
		for (size_t i = 0; i < subs.n; i++) {
			const char *name = path_basename(subs.items[i]);
			if (strcasecmp(name, "common") && !junk_dir(name) &&
			    dir_has_sources(all, subs.items[i]))
				sl_push(&sibs, subs.items[i]);
		}
		for (size_t i = 0; i < sibs.n; i++)
			add_found(d, sc, sibs.items[i], dir, h);
		if (!sibs.n)
			add_found(d, sc, dir, NULL, h);
		sl_free(&sibs);
		sl_free(&subs);
		free(parent);
		return;
	}
	char *common = common_sibling(all, dir);
	add_found(d, sc, dir, common, h);
	free(common);
}

/* ---- duplicates and labels ---- */

static int rank_cmp(const void *pa, const void *pb)
{
	const struct found_instance *a = pa, *b = pb;
	if (a->in_bundle != b->in_bundle)
		return a->in_bundle - b->in_bundle;
	return strcmp(a->source_dir, b->source_dir);
}

static void found_free(struct found_instance *fi)
{
	free(fi->label);
	free(fi->type);
	free(fi->variant);
	free(fi->instance);
	free(fi->source_dir);
	free(fi->api_header);
	sl_free(&fi->sources);
	sl_free(&fi->include_dirs);
	free(fi->kat_reference);
	sl_free(&fi->kat_files);
	free(fi->digest_expr);
}

static struct found_instance *find_kept(struct discovery *d, size_t upto, const char *label,
					const char *digest)
{
	for (size_t i = 0; i < upto; i++)
		if ((label && !strcmp(d->inst[i].label, label)) ||
		    (digest && !strcmp(d->inst[i].digest, digest)))
			return &d->inst[i];
	return NULL;
}

static void dedupe(struct discovery *d)
{
	if (d->n > 1)
		qsort(d->inst, d->n, sizeof(*d->inst), rank_cmp);
	size_t kept = 0;
	for (size_t i = 0; i < d->n; i++) {
		struct found_instance *fi = &d->inst[i];
		struct found_instance *same = find_kept(d, kept, NULL, fi->digest);
		/* Identical reference and optimized folders are both real. */
		if (same && !fi->in_bundle && !same->in_bundle && strcmp(same->variant, fi->variant))
			same = NULL;
		struct found_instance *clash = find_kept(d, kept, fi->label, NULL);
		if (same) {
			sl_push_owned(&d->notes, xasprintf("skipped '%s': same sources as '%s'",
							   fi->source_dir, same->source_dir));
			found_free(fi);
			continue;
		}
		if (clash && fi->in_bundle) {
			sl_push_owned(&d->notes, xasprintf("skipped '%s': a bundle copy of '%s' whose "
							   "sources differ (edit candidate.conf to use it)",
							   fi->source_dir, clash->source_dir));
			found_free(fi);
			continue;
		}
		for (int k = 2; clash; k++) {
			char *l = xasprintf("%s-%d", fi->label, k);
			clash = find_kept(d, kept, l, NULL);
			if (!clash) {
				sl_push_owned(&d->notes, xasprintf("'%s' also names '%s'; labelled '%s'",
								   fi->label, fi->source_dir, l));
				free(fi->label);
				fi->label = l;
			} else {
				free(l);
			}
		}
		d->inst[kept++] = *fi;
	}
	d->n = kept;
}

static int label_cmp(const void *pa, const void *pb)
{
	const struct found_instance *a = pa, *b = pb;
	return strcmp(a->label, b->label);
}

static void add_notes(struct discovery *d)
{
	for (size_t i = 0; i < d->n; i++) {
		struct found_instance *fi = &d->inst[i];
		if (!cand_type_supported(cand_type_find(fi->type)))
			sl_push_owned(&d->notes, xasprintf("%s: type %s is recognised but not yet "
							   "supported (enabled = no)", fi->label, fi->type));
		if (!strcmp(fi->variant, "additional"))
			sl_push_owned(&d->notes, xasprintf("%s: additional implementation, not built "
							   "by default (enabled = no)", fi->label));
		if (fi->placeholder)
			sl_push_owned(&d->notes, xasprintf("%s: ALGORITHM_INSTANCE is the template "
							   "placeholder \"AlgorithmInstance\"", fi->label));
		if (!fi->instance)
			sl_push_owned(&d->notes, xasprintf("%s: no #define ALGORITHM_INSTANCE found",
							   fi->label));
		if (!fi->sources.n)
			sl_push_owned(&d->notes, xasprintf("%s: no source files found in '%s'",
							   fi->label, fi->source_dir));
		if (!strcmp(fi->type, "hash") && !fi->digest_bits)
			sl_push_owned(&d->notes, fi->digest_expr
				? xasprintf("%s: DIGEST_BIT_LENGTH is '%s', which is not a number; set "
					    "digest_bits = N in candidate.conf", fi->label, fi->digest_expr)
				: xasprintf("%s: no #define DIGEST_BIT_LENGTH found in its headers; set "
					    "digest_bits = N in candidate.conf", fi->label));
	}
}

size_t discover_package(const char *root, const char *fallback_label, struct discovery *d)
{
	memset(d, 0, sizeof(*d));
	struct scan sc = { .root = root, .fallback_label = fallback_label };
	walk(root, "", &sc.all);
	struct api_header *h = NULL;
	size_t nh = 0;
	find_api_headers(root, &sc.all, &h, &nh);
	struct strlist dirs = STRLIST_INIT;
	struct api_header **chosen = NULL;
	group_headers(h, nh, &dirs, &chosen);
	for (size_t i = 0; i < dirs.n; i++)
		if (chosen[i])
			add_for_dir(d, &sc, dirs.items[i], chosen[i]);
	dedupe(d);
	if (d->n > 1)
		qsort(d->inst, d->n, sizeof(*d->inst), label_cmp);
	add_notes(d);
	for (size_t i = 0; i < nh; i++) {
		free(h[i].rel);
		free(h[i].macro);
	}
	free(h);
	free(chosen);
	sl_free(&dirs);
	sl_free(&sc.all);
	return d->n;
}

void discovery_free(struct discovery *d)
{
	for (size_t i = 0; i < d->n; i++)
		found_free(&d->inst[i]);
	free(d->inst);
	sl_free(&d->notes);
	memset(d, 0, sizeof(*d));
}

static void copy_list(struct strlist *dst, const struct strlist *src)
{
	for (size_t i = 0; i < src->n; i++)
		sl_push(dst, src->items[i]);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void discovery_to_conf(const struct discovery *d, struct candidate_conf *c)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct found_instance *fi = &d->inst[i];
		struct instance_conf *in = conf_add_instance(c, fi->label);
		in->type = xstrdup(fi->type);
		in->variant = xstrdup(fi->variant);
		in->instance = dup_or_null(fi->instance);
		in->source_dir = xstrdup(fi->source_dir);
		in->api_header = dup_or_null(fi->api_header);
		copy_list(&in->sources, &fi->sources);
		copy_list(&in->include_dirs, &fi->include_dirs);
		in->own_drng = fi->own_drng;
		in->own_auxfunc = fi->own_auxfunc;
		in->kat_reference = dup_or_null(fi->kat_reference);
		in->digest_bits = fi->digest_bits;
		copy_list(&in->kat_files, &fi->kat_files);
		in->enabled = fi->enabled && fi->sources.n;
	}
	if (!c->type && d->n)
		c->type = xstrdup(d->inst[0].type);
}
