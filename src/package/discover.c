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

#include "host/cpufeat.h"
#include "method/cpuext.h"
#include "method/types.h"
#include "package/buildfacts.h"
#include "package/cpuscan.h"
#include "package/cscan.h"
#include "package/discover_int.h"
#include "util/fsutil.h"
#include "util/untrusted.h"

#include <ctype.h>
#include <stdarg.h>
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
int dsc_container_like(const char *name)
{
	/* also vendor-named trees: "Foo-x86-Optimized_Implementation" */
	return (strcasestr(name, "reference") || strcasestr(name, "optimi") ||
		strcasestr(name, "additional")) && strcasestr(name, "implementation");
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
		"x64", "avx2", "avx", "avx512", "avx-512", "neon", "aarch64", "arm64",
		"portable", "additional", "common", "src", "source", "sources", "include", "inc",
		"api", "code", "implementation", "implementations", NULL
	};
	return name_in(name, generic) || dsc_container_like(name);
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

/* Words of a folder name that say which extension its code is for. */
static int ext_word(const char *w)
{
	static const char *const avx512[] = { "avx512", "avx-512", "avx512f", NULL };
	static const char *const avx2[] = { "avx2", "avx", "haswell", NULL };
	static const char *const neon[] = { "neon", "aarch64", "arm64", "armv8", "arm", NULL };
	if (name_in(w, avx512))
		return CPU_EXT_AVX512;
	if (name_in(w, avx2))
		return CPU_EXT_AVX2;
	if (name_in(w, neon))
		return CPU_EXT_NEON;
	return -1;
}

/* x86 words name no extension of their own but an optimized tree. */
static int arch_word(const char *w)
{
	static const char *const x86[] = { "x86", "x64", "x86_64", "x86-64", "amd64", "intel", NULL };
	return name_in(w, x86) || ext_word(w) >= 0;
}

/* The extension a folder name hints at (the words of "Foo-128-avx2",
 * "avx-512", "x86_64" ...), or -1. */
static int ext_hint_of_name(const char *name)
{
	if (ext_word(name) >= 0)
		return ext_word(name);
	int hint = -1;
	char *copy = xstrdup(name);
	for (char *save = NULL, *w = strtok_r(copy, "-_. ", &save); w; w = strtok_r(NULL, "-_. ", &save))
		if (ext_word(w) >= 0)
			hint = ext_word(w);
	free(copy);
	if (hint < 0 && strcasestr(name, "avx-512"))
		hint = CPU_EXT_AVX512;
	return hint;
}

static int optimized_name(const char *c)
{
	if (strcasestr(c, "optimi") || arch_word(c))
		return 1;
	int any = 0;
	char *copy = xstrdup(c);
	for (char *save = NULL, *w = strtok_r(copy, "-_. ", &save); w; w = strtok_r(NULL, "-_. ", &save))
		any |= ext_word(w) >= 0 && strcasecmp(w, "arm");
	free(copy);
	return any;
}

/* The kind of tree a path is in: "additional" when any folder says so
 * (Additional_Implementation/neon/ stays additional), else "optimized"
 * when any folder is an optimized or architecture tree
 * (Optimized_Implementation/, Foo-x86-Optimized_Implementation/, x86_64/
 * or avx2/ beside ref/, Foo-128-avx2/), else "reference".  *hint: the
 * extension the folder names say, or -1 (the code decides: cpuscan.h). */
static const char *variant_kind_of_path(const char *rel, int *hint)
{
	int additional = 0, optimized = 0;
	if (hint)
		*hint = -1;
	char *copy = xstrdup(rel);
	for (char *save = NULL, *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (strcasestr(c, "additional"))
			additional = 1;
		else if (optimized_name(c))
			optimized = 1;
		if (hint && ext_hint_of_name(c) >= 0)
			*hint = ext_hint_of_name(c);
	}
	free(copy);
	return additional ? "additional" : optimized ? "optimized" : "reference";
}

static const char *variant_of_path(const char *rel)
{
	return variant_kind_of_path(rel, NULL);
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

char *dsc_read_small(const char *path)
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
 * sorted so that results never depend on readdir order; nothing below a
 * __MACOSX folder (an archiver's resource forks). */
static void walk(const char *root, struct strlist *files)
{
	struct strlist all = STRLIST_INIT;
	tree_list_all_files(root, "", &all);
	for (size_t i = 0; i < all.n; i++) {
		const char *p = all.items[i], *m = p;
		while ((m = strstr(m, "__MACOSX")) &&
		       !((m == p || m[-1] == '/') && (m[8] == '/' || !m[8])))
			m += 8;
		if (!m)
			sl_push(files, p);
	}
	sl_free(&all);
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

/* The directive of the next preprocessor line at or after *cursor (the text
 * after '#' and blanks), with *cursor moved past that line; NULL when no
 * line is left. */
const char *dsc_next_directive(const char **cursor)
{
	for (const char *p = *cursor; p && *p;) {
		const char *q = p + strspn(p, " \t");
		const char *nl = strchr(p, '\n');
		p = nl ? nl + 1 : NULL;
		if (*q == '#') {
			*cursor = p;
			return q + 1 + strspn(q + 1, " \t");
		}
	}
	*cursor = NULL;
	return NULL;
}

/* The value of the first `#define <name> <value>` outside comment lines:
 * the rest of its line without a trailing comment or blanks (malloc'd), or
 * NULL.  Lines may end in CRLF; a UTF-8 byte-order mark may precede the
 * first line. */
static char *parse_define(const char *text, const char *name)
{
	size_t nl_name = strlen(name);
	text += utf8_bom_len(text, strnlen(text, 3));
	for (const char *p = text, *q; (q = dsc_next_directive(&p));) {
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
char *dsc_parse_instance_macro(const char *text)
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

/* The part of rel inside folder dir ("." is the package root), or NULL. */
const char *dsc_inside(const char *rel, const char *dir)
{
	if (!strcmp(dir, "."))
		return rel;
	size_t n = strlen(dir);
	return !strncmp(rel, dir, n) && rel[n] == '/' ? rel + n + 1 : NULL;
}

static int under(const char *rel, const char *dir)
{
	return dsc_inside(rel, dir) && strcmp(rel, dir);
}

/* Add the sources and header folders of dir (root-relative) to the
 * instance, written relative to the instance folder (prefix "../common/"
 * for a shared sibling). */
static int any_folder_named(const char *inner, const struct strlist *names)
{
	if (!names || !names->n)
		return 0;
	char *copy = xstrdup(inner);
	int hit = 0;
	char *save = NULL;
	for (char *c = strtok_r(copy, "/", &save), *next; c; c = next) {
		next = strtok_r(NULL, "/", &save);
		if (next && sl_contains(names, c))
			hit = 1;
	}
	free(copy);
	return hit;
}

static void collect_code_skip(struct inst_builder *b, const char *dir, const struct strlist *skip)
{
	char *prefix = path_relative(b->fi->source_dir, dir);
	for (size_t i = 0; i < b->all->n; i++) {
		const char *rel = b->all->items[i];
		const char *inner = dsc_inside(rel, dir);
		if (!inner || any_component_junk(inner) || any_folder_named(inner, skip))
			continue;
		const char *base = path_basename(inner);
		/* normalised: a level folder reached from its parent (common/48 from
		 * common/) is the instance folder itself, not "../48" */
		char *mine = strcmp(prefix, ".") ? path_relative(b->fi->source_dir, rel) : xstrdup(inner);
		if (str_ends_with_ci(base, ".h")) {
			sl_push(&b->fi->headers, mine);
			char *hdir = path_dirname(mine);
			if (!sl_contains(&b->fi->include_dirs, hdir))
				sl_push(&b->fi->include_dirs, hdir);
			free(hdir);
		} else if (is_source_name(base) && excluded_source_name(base)) {
			dsc_why(b->fi, "not compiled: %s (a KAT driver, test or benchmark by its name)", mine);
		} else if (is_source_name(base)) {
			char *text = dsc_read_rel(b, mine);
			if (text && !source_defines_main(text)) {
				sl_push(&b->fi->sources, mine);
				if (!strcasecmp(base, "drng.c"))
					b->fi->own_drng = 1;
				if (!strcasecmp(base, "auxfunc.c"))
					b->fi->own_auxfunc = 1;
			} else {
				dsc_why(b->fi, "not compiled: %s (%s)", mine,
					text ? "defines main(): a program of its own" : "unreadable or too large");
			}
			free(text);
		}
		free(mine);
	}
	free(prefix);
}

static void collect_code(struct inst_builder *b, const char *dir)
{
	collect_code_skip(b, dir, NULL);
}

/* Content hash of what would be compiled: relative names and file hashes. */
static void instance_digest(struct inst_builder *b)
{
	struct strlist lines = STRLIST_INIT;
	const struct strlist *lists[] = { &b->fi->sources, &b->fi->headers };
	for (size_t i = 0; i < b->fi->defines.n; i++)
		sl_push_owned(&lines, xasprintf("-D%s\n", b->fi->defines.items[i]));
	for (size_t i = 0; i < b->fi->libs.n; i++)
		sl_push_owned(&lines, xasprintf("%s\n", b->fi->libs.items[i]));
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
	for (size_t i = 0; i < b->fi->headers.n && !b->fi->instance; i++) {
		char *text = dsc_read_rel(b, b->fi->headers.items[i]);
		b->fi->instance = text ? dsc_parse_instance_macro(text) : NULL;
		free(text);
	}
	b->fi->placeholder = b->fi->instance && !strcmp(b->fi->instance, "AlgorithmInstance");
}

/* The `#define name` of the instance's headers, the API header first. */
static char *define_in_headers(struct inst_builder *b, const char *api_header, const char *name)
{
	char *v = NULL;
	for (size_t i = 0; i <= b->fi->headers.n && !v; i++) {
		const char *rel = i == 0 ? api_header : b->fi->headers.items[i - 1];
		if (!rel || (i > 0 && api_header && !strcmp(rel, api_header)))
			continue;
		char *text = dsc_read_rel(b, rel);
		v = text ? parse_define(text, name) : NULL;
		free(text);
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
	const char *pb = path_basename(parent);
	int parent_is_label = !strcasecmp(pb, label) ||
			      (fi->level && loose_equal(fi->level, pb, strlen(pb)));
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

/* Why kat_score liked a file, in words. */
static const char *kat_reason(const struct found_instance *fi, const char *rel, const char *label)
{
	const char *base = path_basename(rel);
	char *parent = path_dirname(rel);
	const char *pb = path_basename(parent);
	int by_folder = !strcasecmp(pb, label) || (fi->level && loose_equal(fi->level, pb, strlen(pb)));
	free(parent);
	if (fi->instance && strcasestr(base, fi->instance) && !fi->placeholder)
		return "its name ends in ALGORITHM_INSTANCE";
	if (by_folder && fi->placeholder)
		return "ALGORITHM_INSTANCE is the placeholder, and the file's folder is named after "
		       "the parameter set";
	if (by_folder)
		return "its folder is named after the parameter set";
	if (fi->instance && strcasestr(base, fi->instance))
		return "its name ends in ALGORITHM_INSTANCE (the template's placeholder)";
	return "its name is the label";
}

/* The package file that fits the instance best as <prefix>*.txt (NULL). */
static char *best_kat(struct found_instance *fi, const struct strlist *all,
		      const char *prefix)
{
	char *label = folder_label(fi), *found = NULL;
	int best = 0;
	struct strlist ties = STRLIST_INIT;
	for (size_t i = 0; i < all->n; i++) {
		int s = kat_score(fi, all->items[i], label, prefix);
		if (s > best) {
			best = s;
			free(found);
			found = xstrdup(all->items[i]);
			sl_free(&ties);
		} else if (s && s == best) {
			sl_push(&ties, all->items[i]);
		}
	}
	if (found)
		sl_push_owned(&fi->why, xasprintf("KAT file %s: %s%s%s", found, kat_reason(fi, found, label),
						  ties.n ? "; as good a fit, not chosen: " : "",
						  ties.n ? ties.items[0] : ""));
	else
		sl_push_owned(&fi->why, xasprintf("no %s*.txt file fits ALGORITHM_INSTANCE, the label "
						  "or the parameter set's folder", prefix));
	sl_free(&ties);
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
		char *text = dsc_read_small(abs);
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
			h->macro = dsc_parse_instance_macro(text);
		}
		free(text);
	}
}

static int dir_has_sources(const struct strlist *all, const char *dir)
{
	for (size_t i = 0; i < all->n; i++)
		if (dsc_inside(all->items[i], dir) && is_source_name(all->items[i]) &&
		    !any_component_junk(dsc_inside(all->items[i], dir)))
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
		const char *inner = dsc_inside(all->items[i], parent);
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

/* Where an instance's code comes from besides its own folder. */
struct code_plan {
	struct strlist roots;   /* root-relative folders whose code is compiled too */
	struct strlist skip;    /* folder names left out (the other levels) */
	const char *variant;    /* NULL: from the instance folder's path */
	const char *level;      /* the level folder's name, or NULL */
	struct strlist why;
};

static void code_plan_free(struct code_plan *p)
{
	sl_free(&p->roots);
	sl_free(&p->skip);
	sl_free(&p->why);
}

void dsc_why(struct found_instance *fi, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sl_push_owned(&fi->why, xvasprintf(fmt, ap));
	va_end(ap);
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

static void found_free(struct found_instance *fi);

static struct found_instance clone_found(const struct found_instance *src)
{
	struct found_instance c = *src;
	c.label = dup_or_null(src->label);
	c.type = dup_or_null(src->type);
	c.variant = dup_or_null(src->variant);
	c.instance = dup_or_null(src->instance);
	c.source_dir = dup_or_null(src->source_dir);
	c.api_header = dup_or_null(src->api_header);
	c.kat_reference = dup_or_null(src->kat_reference);
	c.digest_expr = dup_or_null(src->digest_expr);
	c.level = dup_or_null(src->level);
	struct strlist *lists[] = { &c.sources, &c.include_dirs, &c.kat_files, &c.headers,
				    &c.defines, &c.libs, &c.facts, &c.why };
	const struct strlist *from[] = { &src->sources, &src->include_dirs, &src->kat_files,
					 &src->headers, &src->defines, &src->libs, &src->facts,
					 &src->why };
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		memset(lists[i], 0, sizeof(*lists[i]));
		copy_list(lists[i], from[i]);
	}
	return c;
}

static void sl_remove(struct strlist *sl, const char *s)
{
	for (size_t i = 0; i < sl->n; i++)
		if (!strcmp(sl->items[i], s)) {
			free(sl->items[i]);
			memmove(&sl->items[i], &sl->items[i + 1], (sl->n - i - 1) * sizeof(char *));
			sl->n--;
			return;
		}
}

/* A value as one printable line (candidate.conf comments, explain lines). */
char *dsc_printable(const char *s)
{
	char *c = xstrdup(s);
	for (char *p = c; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return c;
}

/* ---- the package's own ICCS copies in a library folder (Lib/drng/) ---- */

static size_t common_depth(const char *a, const char *b)
{
	size_t depth = 0, i = 0;
	for (; a[i] && a[i] == b[i]; i++)
		if (a[i] == '/')
			depth++;
	if ((!a[i] && (b[i] == '/' || !b[i])) || (!b[i] && a[i] == '/'))
		depth++;
	return depth;
}

static int inside_instance_dir(const struct scan *sc, const char *folder)
{
	for (size_t i = 0; i < sc->instance_dirs.n; i++)
		if (!strcmp(folder, sc->instance_dirs.items[i]) || under(folder, sc->instance_dirs.items[i]))
			return 1;
	return 0;
}

/* The package's drng.c or auxfunc.c outside every instance folder (a
 * library folder such as Lib/drng/), nearest to the instance first. */
static void find_lib_iccs(struct inst_builder *b, const struct scan *sc)
{
	static const char *const names[] = { "drng.c", "auxfunc.c" };
	for (size_t k = 0; k < 2; k++) {
		if (k == 0 ? b->fi->own_drng : b->fi->own_auxfunc)
			continue;
		char *best = NULL;
		size_t best_depth = 0, ties = 0;
		for (size_t i = 0; i < sc->all.n; i++) {
			const char *rel = sc->all.items[i];
			if (strcasecmp(path_basename(rel), names[k]) || any_component_junk(rel) ||
			    path_in_bundle_ex(rel, 0) != b->fi->in_bundle)
				continue;
			char *folder = path_dirname(rel);
			if (!inside_instance_dir(sc, folder)) {
				size_t depth = common_depth(folder, b->fi->source_dir);
				if (!best || depth > best_depth) {
					free(best);
					best = xstrdup(folder);
					best_depth = depth;
					ties = 0;
				} else if (depth == best_depth) {
					ties++;
				}
			}
			free(folder);
		}
		if (!best)
			continue;
		collect_code(b, best);
		dsc_why(b->fi, "%s: the package's own copy in the library folder '%s'%s", names[k], best,
		    ties ? " (the nearest of several copies; the others are further from the instance)" : "");
		free(best);
	}
}

/* ---- .c files included, not compiled ---- */

/* The package file an `#include "name"` of file `from` (relative to
 * source_dir) reaches: from's own folder first, then the include folders in
 * order.  Relative to source_dir (malloc'd), or NULL. */
static char *resolve_include(const struct inst_builder *b, const char *from, const char *name)
{
	char *dir = path_dirname(from);
	char *cand = strcmp(dir, ".") ? path_join(dir, name) : xstrdup(name);
	free(dir);
	char *abs = path_join(b->abs_dir, cand);
	int ok = path_is_file(abs);
	free(abs);
	for (size_t i = 0; !ok && i < b->fi->include_dirs.n; i++) {
		free(cand);
		const char *inc = b->fi->include_dirs.items[i];
		cand = strcmp(inc, ".") ? path_join(inc, name) : xstrdup(name);
		abs = path_join(b->abs_dir, cand);
		ok = path_is_file(abs);
		free(abs);
	}
	if (!ok) {
		free(cand);
		return NULL;
	}
	char *norm = path_relative(".", cand);
	free(cand);
	return norm;
}

/* The files of one instance folder read so far, relative to its source_dir. */
struct text_cache {
	struct strlist rel;
	char **text;   /* NULL: unreadable or too large */
};

char *dsc_read_rel(const struct inst_builder *b, const char *rel)
{
	struct text_cache *c = b->read;
	size_t i = 0;
	while (i < c->rel.n && strcmp(c->rel.items[i], rel))
		i++;
	if (i == c->rel.n) {
		char *abs = path_join(b->abs_dir, rel);
		c->text = xrealloc(c->text, (i + 1) * sizeof(*c->text));
		c->text[i] = dsc_read_small(abs);
		sl_push(&c->rel, rel);
		free(abs);
	}
	return c->text[i] ? xstrdup(c->text[i]) : NULL;
}

static void text_cache_free(struct text_cache *c)
{
	for (size_t i = 0; i < c->rel.n; i++)
		free(c->text[i]);
	free(c->text);
	sl_free(&c->rel);
}

/* Sources that another source #includes are compiled only through it: take
 * them off the source list (they stay in the digest and the header checks).
 * When two or more sources include the same .c file, each of them is a
 * parameter set of its own (api_128.c: #define ...; #include "api.c"):
 * they are returned in level_files. */
static void drop_included_sources(struct inst_builder *b, struct strlist *level_files,
				  char **shared)
{
	struct strlist included = STRLIST_INIT, by = STRLIST_INIT;
	for (size_t i = 0; i < b->fi->sources.n; i++) {
		char *text = dsc_read_rel(b, b->fi->sources.items[i]);
		struct strlist inc = STRLIST_INIT;
		if (text)
			cscan_quoted_includes(text, &inc);
		for (size_t k = 0; k < inc.n; k++) {
			if (!is_source_name(inc.items[k]))
				continue;
			char *target = resolve_include(b, b->fi->sources.items[i], inc.items[k]);
			if (target) {
				sl_push_owned(&included, target);
				sl_push(&by, b->fi->sources.items[i]);
			}
		}
		sl_free(&inc);
		free(text);
	}
	for (size_t i = 0; i < included.n; i++) {
		const char *t = included.items[i];
		if (!sl_contains(&b->fi->sources, t))
			continue;
		struct strlist who = STRLIST_INIT;
		for (size_t k = 0; k < included.n; k++)
			if (!strcmp(included.items[k], t) && !sl_contains(&who, by.items[k]))
				sl_push(&who, by.items[k]);
		char *text = dsc_read_rel(b, t);
		int guarded = text && cscan_has_error_directive(text);
		free(text);
		struct strbuf names = STRBUF_INIT;
		for (size_t k = 0; k < who.n; k++)
			sb_addf(&names, "%s%s", k ? ", " : "", who.items[k]);
		dsc_why(b->fi, "not compiled on its own: %s (#included by %s%s)", t, names.buf,
		    guarded ? "; it has an #error guard" : "");
		if (who.n >= 2 && !level_files->n) {
			copy_list(level_files, &who);
			*shared = xstrdup(t);
		}
		sb_free(&names);
		sl_free(&who);
		sl_remove(&b->fi->sources, t);
		if (!sl_contains(&b->fi->headers, t))
			sl_push(&b->fi->headers, t);
	}
	sl_free(&included);
	sl_free(&by);
}

/* Sources in one folder that define the same external function cannot be
 * linked together: each is a parameter set (kem257.c, kem769.c beside the
 * shared code).  The first such function decides the group. */
static void duplicate_definitions(struct inst_builder *b, struct strlist *level_files)
{
	size_t n = b->fi->sources.n;
	struct strlist *defs = xcalloc(n ? n : 1, sizeof(*defs));
	for (size_t i = 0; i < n; i++) {
		char *text = dsc_read_rel(b, b->fi->sources.items[i]);
		if (text)
			cscan_defined_functions(text, &defs[i]);
		free(text);
	}
	for (size_t i = 0; i < n && !level_files->n; i++)
		for (size_t f = 0; f < defs[i].n && !level_files->n; f++) {
			const char *fn = defs[i].items[f];
			char *dir_i = path_dirname(b->fi->sources.items[i]);
			struct strlist group = STRLIST_INIT;
			sl_push(&group, b->fi->sources.items[i]);
			for (size_t k = i + 1; k < n; k++) {
				char *dir_k = path_dirname(b->fi->sources.items[k]);
				if (!strcmp(dir_i, dir_k) && sl_contains(&defs[k], fn))
					sl_push(&group, b->fi->sources.items[k]);
				free(dir_k);
			}
			if (group.n >= 2) {
				copy_list(level_files, &group);
				dsc_why(b->fi, "%zu sources define %s(): each is a parameter set of its own",
				    group.n, fn);
			}
			sl_free(&group);
			free(dir_i);
		}
	for (size_t i = 0; i < n; i++)
		sl_free(&defs[i]);
	free(defs);
}

/* The part of a file or target name that tells the parameter sets apart:
 * the stem after the prefix all of them share, cut back to a boundary
 * (api_128.c, api_192.c: 128, 192; kem257.c, kem769.c: 257, 769). */
static char *stem_of(const char *name)
{
	const char *base = path_basename(name);
	const char *dot = strrchr(base, '.');
	return dot && dot != base ? xstrndup(base, (size_t)(dot - base)) : xstrdup(base);
}

static int separator(char c)
{
	return c == '_' || c == '-' || c == '.' || c == ' ';
}

static char *level_token(const struct strlist *names, size_t which)
{
	char *mine = stem_of(names->items[which]);
	size_t common = strlen(mine);
	for (size_t i = 0; i < names->n; i++) {
		char *other = stem_of(names->items[i]);
		size_t k = 0;
		while (k < common && other[k] == mine[k])
			k++;
		common = k;
		free(other);
	}
	while (common && !(separator(mine[common - 1]) ||
			   !!isalpha((unsigned char)mine[common - 1]) != !!isalpha((unsigned char)mine[common])))
		common--;
	const char *t = mine + common;
	while (separator(*t))
		t++;
	char *token = xstrdup(*t ? t : mine);
	free(mine);
	return token;
}

/* ---- an instance ---- */

static char *level_label(const char *base, const char *token, int from_folder)
{
	int has_alpha = 0;
	for (const char *p = token; *p; p++)
		has_alpha |= isalpha((unsigned char)*p) != 0;
	if (from_folder && has_alpha)
		return xstrdup(token);
	return xasprintf("%s-%s", base, token);
}

static void push_found(struct discovery *d, struct found_instance *fi)
{
	d->inst = xrealloc(d->inst, (d->n + 1) * sizeof(*d->inst));
	d->inst[d->n++] = *fi;
}

/* ---- the variant: the tree it is in and the extension its code needs ---- */

static int asm_name(const char *name)
{
	return str_ends_with(name, ".s") || str_ends_with(name, ".S") || str_ends_with_ci(name, ".asm");
}

/* The extension a label's trailing words name ("BiT-128-avx2" beside the
 * reference "BiT-128"): dropped, since the variant tag says it. */
static void strip_ext_words(char *label)
{
	for (;;) {
		char *sep = NULL;
		for (char *p = label; *p; p++)
			if (*p == '-' || *p == '_')
				sep = p;
		if (!sep || sep == label || !(arch_word(sep + 1) || !strcasecmp(sep + 1, "opt") ||
					      !strcasecmp(sep + 1, "optimized")))
			return;
		*sep = '\0';
	}
}

/* fi->variant is the tree's kind (reference, optimized, additional); the
 * code (sources and headers) decides the extension, the folder names only
 * hint.  An optimized tree becomes optimized-<extension>. */
static void decide_variant(struct inst_builder *b)
{
	struct found_instance *fi = b->fi;
	int hint;
	variant_kind_of_path(fi->source_dir, &hint);
	for (size_t i = 0; hint < 0 && i < fi->sources.n; i++) {
		char *p = path_join(fi->source_dir, fi->sources.items[i]);
		variant_kind_of_path(p, &hint);
		free(p);
	}
	struct cpu_evidence ev;
	memset(&ev, 0, sizeof ev);
	const struct strlist *lists[] = { &fi->sources, &fi->headers };
	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; i < lists[l]->n; i++) {
			const char *rel = lists[l]->items[i];
			char *text = dsc_read_rel(b, rel);
			if (text)
				cpuscan_text(&ev, rel, text, asm_name(rel));
			free(text);
		}
	char *why = NULL;
	enum cpu_ext e = cpuscan_decide(&ev, hint, &why);
	cpuscan_free(&ev);
	fi->cpu_ext = (int)e;
	if (!strcmp(fi->variant, "optimized")) {
		free(fi->variant);
		fi->variant = xstrdup(cpu_ext_optimized_variant(e));
	}
	dsc_why(fi, "variant %s: %s tree; CPU extension %s: %s", fi->variant,
		variant_kind_of_path(fi->source_dir, NULL), cpu_ext_name(e), why);
	free(why);
}

/* Name, digest, KAT file and checks of one finished parameter set. */
static void finish_found(const struct scan *sc, struct inst_builder *b,
			 const struct api_header *h, const char *level_base, int level_from_folder)
{
	struct found_instance *fi = b->fi;
	sl_sort(&fi->sources);
	find_instance_macro(b, h->macro);
	dsc_instance_macro_by_defines(b);
	if (!strcmp(fi->type, "hash"))
		find_digest_bits(b);
	instance_digest(b);
	char *label = fi->level
		? level_label(level_base, fi->level, level_from_folder)
		: label_for(fi->source_dir, fi->instance, fi->placeholder, sc->fallback_label);
	decide_variant(b);
	const char *tag = variant_tag(fi->variant);
	if (tag) {
		strip_ext_words(label);
		fi->label = xasprintf("%s+%s", label, tag);
	} else {
		fi->label = xstrdup(label);
	}
	free(label);
	fi->enabled = cand_type_supported(cand_type_find(fi->type));
	find_kat(fi, &sc->all);
	char *err = dsc_ambiguous_header(b, &sc->d->notes);
	if (err && !sc->d->error)
		sc->d->error = err;
	else
		free(err);
	push_found(sc->d, fi);
}

/* What one instance folder's parameter sets share while they are split. */
struct split {
	const struct scan *sc;
	const struct api_header *h;
	struct inst_builder *b;
	const struct found_instance *base;
	const struct build_facts *bf;
	const char *label_base;   /* the folder's label: "<base>-<level>" */
};

/* One parameter set per level file (api_128.c, kem257.c): the others' files
 * left out. */
static void add_by_level_files(const struct split *sp, const struct strlist *files,
			       const char *shared)
{
	for (size_t i = 0; i < files->n; i++) {
		struct found_instance v = clone_found(sp->base);
		sp->b->fi = &v;
		for (size_t k = 0; k < files->n; k++)
			if (k != i)
				sl_remove(&v.sources, files->items[k]);
		free(v.level);
		v.level = level_token(files, i);
		dsc_why(&v, "parameter set '%s': its own source %s%s%s", v.level, files->items[i],
		    shared ? ", which #includes the shared " : "", shared ? shared : "");
		dsc_apply_build_facts(sp->b, sp->bf, files->items[i], NULL);
		finish_found(sp->sc, sp->b, sp->h, sp->label_base, 0);
	}
}

/* One parameter set per build target with defines of its own. */
static void add_by_targets(const struct split *sp, const struct build_rule **targets, size_t n)
{
	struct strlist names = STRLIST_INIT;
	for (size_t i = 0; i < n; i++)
		sl_push(&names, targets[i]->target);
	for (size_t i = 0; i < n; i++) {
		struct found_instance v = clone_found(sp->base);
		sp->b->fi = &v;
		free(v.level);
		v.level = level_token(&names, i);
		dsc_why(&v, "parameter set '%s': build target %s, whose defines differ from the "
		    "other targets'", v.level, targets[i]->target);
		dsc_apply_build_facts(sp->b, sp->bf, NULL, targets[i]);
		finish_found(sp->sc, sp->b, sp->h, sp->label_base, 0);
	}
	sl_free(&names);
}

/* The instance (or instances: one per parameter set) of folder dir, with
 * the code plan says it draws on too. */
static void add_found(const struct scan *sc, const char *dir, const struct code_plan *plan,
		      const struct api_header *h)
{
	struct found_instance base;
	memset(&base, 0, sizeof(base));
	base.source_dir = xstrdup(dir);
	base.type = xstrdup(h->type);
	base.variant = xstrdup(plan->variant ? plan->variant : variant_of_path(dir));
	base.api_header = path_relative(dir, h->rel);
	base.in_bundle = path_in_bundle(dir);
	base.level = dup_or_null(plan->level);
	copy_list(&base.why, &plan->why);
	struct text_cache read = { STRLIST_INIT, NULL };
	struct inst_builder b = { .root = sc->root, .all = &sc->all, .fi = &base, .read = &read };
	b.abs_dir = path_join(sc->root, dir);
	sl_push(&base.include_dirs, ".");
	collect_code_skip(&b, dir, &plan->skip);
	for (size_t i = 0; i < plan->roots.n; i++)
		collect_code_skip(&b, plan->roots.items[i], &plan->skip);
	find_lib_iccs(&b, sc);
	struct strlist level_files = STRLIST_INIT;
	char *shared = NULL;
	drop_included_sources(&b, &level_files, &shared);
	if (!level_files.n)
		duplicate_definitions(&b, &level_files);
	struct build_facts bf = { 0 };
	dsc_read_build_facts(sc, dir, &bf, &base);
	const struct build_rule **targets = xcalloc(bf.n_rules + 1, sizeof(*targets));
	size_t n_targets = dsc_target_rules(&b, &bf, targets);
	char *folder_base = label_for(dir, NULL, 1, sc->fallback_label);
	struct split sp = { sc, h, &b, &base, &bf, folder_base };
	if (level_files.n) {
		add_by_level_files(&sp, &level_files, shared);
	} else if (dsc_targets_split(targets, n_targets)) {
		add_by_targets(&sp, targets, n_targets);
	} else {
		/* one parameter set; a level folder's is named after its parent */
		struct found_instance v = clone_found(&base);
		b.fi = &v;
		dsc_apply_build_facts(&b, &bf, NULL, NULL);
		char *parent = path_dirname(dir);
		char *level_base = label_for(parent, NULL, 1, sc->fallback_label);
		finish_found(sc, &b, h, level_base, 1);
		free(level_base);
		free(parent);
	}
	free(folder_base);
	free(targets);
	build_facts_free(&bf);
	sl_free(&level_files);
	free(shared);
	found_free(&base);
	text_cache_free(&read);
	free(b.abs_dir);
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

/* Is dir a folder of headers only (no source anywhere below it)? */
static int header_only(const struct strlist *all, const char *dir)
{
	return strcmp(dir, ".") && !dir_has_sources(all, dir);
}

/* The parameter set is chosen by include path: dir (common/128/) holds
 * only headers; the code is in its parent (common/) and the parent's
 * siblings (ref/), each of which may hold a folder of the same name
 * (ref/128/parameters.h).  The other levels' folders are left out.  One
 * instance per kind of code sibling (reference, optimized). */
static int add_level_folder(const struct scan *sc, const char *dir, const struct api_header *h,
			    struct strlist *consumed)
{
	const struct strlist *all = &sc->all;
	const char *token = path_basename(dir);
	char *parent = path_dirname(dir), *grand = path_dirname(parent);
	if (!strcmp(parent, ".")) {
		free(parent);
		free(grand);
		return 0; /* a header folder at the top: no code tree around it */
	}
	struct strlist levels = STRLIST_INIT, subs = STRLIST_INIT, sibs = STRLIST_INIT;
	subdirs_with_files(all, parent, &subs);
	for (size_t i = 0; i < subs.n; i++)
		if (strcmp(subs.items[i], dir) && header_only(all, subs.items[i]))
			sl_push(&levels, path_basename(subs.items[i]));
	sl_free(&subs);
	subdirs_with_files(all, grand, &subs);
	for (size_t i = 0; i < subs.n; i++) {
		const char *name = path_basename(subs.items[i]);
		/* a code folder (ref/, avx2/) even when it holds a header
		 * declaring the API too; never another scheme's instance */
		if (strcmp(subs.items[i], parent) && !junk_dir(name) &&
		    dir_has_sources(all, subs.items[i]) &&
		    (generic_dir(name) || !inside_instance_dir(sc, subs.items[i])))
			sl_push(&sibs, subs.items[i]);
	}
	if (!sibs.n && !dir_has_sources(all, parent)) {
		sl_free(&levels);
		sl_free(&subs);
		free(parent);
		free(grand);
		return 0; /* no code to draw on */
	}
	/* One instance of the reference kind (with every reference sibling),
	 * then one per optimized or additional sibling (avx2/, avx512/). */
	int any = 0;
	for (size_t v = 0; v <= sibs.n; v++) {
		struct code_plan plan = { .level = token };
		sl_push(&plan.roots, parent);
		const char *kind = v ? variant_of_path(sibs.items[v - 1]) : "reference";
		if (v && !strcmp(kind, "reference")) {
			code_plan_free(&plan);
			continue; /* part of the first */
		}
		for (size_t i = 0; !v && i < sibs.n; i++)
			if (!strcmp(variant_of_path(sibs.items[i]), "reference"))
				sl_push(&plan.roots, sibs.items[i]);
		if (v)
			sl_push(&plan.roots, sibs.items[v - 1]);
		if (plan.roots.n == 1 && sibs.n) {
			code_plan_free(&plan);
			continue; /* no code of this kind */
		}
		plan.variant = kind;
		copy_list(&plan.skip, &levels);
		struct strbuf roots = STRBUF_INIT;
		for (size_t i = 0; i < plan.roots.n; i++) {
			sb_addf(&roots, "%s'%s'", i ? ", " : "", plan.roots.items[i]);
			if (!sl_contains(consumed, plan.roots.items[i]))
				sl_push(consumed, plan.roots.items[i]);
		}
		struct strbuf others = STRBUF_INIT;
		for (size_t i = 0; i < levels.n; i++)
			sb_addf(&others, "%s%s", i ? ", " : "", levels.items[i]);
		sl_push_owned(&plan.why, xasprintf(
			"parameter set '%s' chosen by include path: '%s' holds only headers; code from "
			"%s, with each one's '%s' folder; the other levels' folders left out: %s",
			token, dir, roots.buf, token, levels.n ? others.buf : "none"));
		sb_free(&others);
		sb_free(&roots);
		add_found(sc, dir, &plan, h);
		code_plan_free(&plan);
		any = 1;
	}
	if (!any) {
		struct code_plan plan = { 0 };
		add_found(sc, dir, &plan, h);
	}
	sl_free(&levels);
	sl_free(&subs);
	sl_free(&sibs);
	free(parent);
	free(grand);
	return 1;
}

static void add_for_dir(const struct scan *sc, const char *dir, const struct api_header *h)
{
	const struct strlist *all = &sc->all;
	struct code_plan plan = { 0 };
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
		for (size_t i = 0; i < sibs.n; i++) {
			struct code_plan p = { 0 };
			sl_push(&p.roots, dir);
			sl_push_owned(&p.why, xasprintf("code in '%s' with the API header's shared "
							"folder '%s'", sibs.items[i], dir));
			add_found(sc, sibs.items[i], &p, h);
			code_plan_free(&p);
		}
		if (!sibs.n)
			add_found(sc, dir, &plan, h);
		sl_free(&sibs);
		sl_free(&subs);
		free(parent);
		return;
	}
	char *common = common_sibling(all, dir);
	if (common) {
		sl_push(&plan.roots, common);
		sl_push_owned(&plan.why, xasprintf("code of the shared sibling folder '%s' too", common));
	}
	add_found(sc, dir, &plan, h);
	code_plan_free(&plan);
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
	free(fi->level);
	sl_free(&fi->headers);
	sl_free(&fi->defines);
	sl_free(&fi->libs);
	sl_free(&fi->facts);
	sl_free(&fi->why);
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
		if (same && !fi->in_bundle && !same->in_bundle) {
			sl_push_owned(&d->notes, xasprintf(
				"skipped '%s' ('%s'): its sources, headers and defines are those of "
				"'%s' ('%s'), so it would build the same library; if they are "
				"different parameter sets, discovery missed what tells them apart: "
				"set it in candidate.conf", fi->label, fi->source_dir, same->label,
				same->source_dir));
			found_free(fi);
			continue;
		}
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
		/* a variant's number goes before its tag: Foo-2+additional */
		const char *tag = variant_tag(fi->variant);
		size_t tlen = tag ? strlen(tag) + 1 : 0, llen = strlen(fi->label);
		int tagged = tag && llen > tlen && fi->label[llen - tlen] == '+' &&
			     !strcmp(fi->label + llen - tlen + 1, tag);
		for (int k = 2; clash; k++) {
			char *l = tagged ? xasprintf("%.*s-%d+%s", (int)(llen - tlen), fi->label, k, tag)
					 : xasprintf("%s-%d", fi->label, k);
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
		if (fi->enabled && host_cpu_other_arch(host_cpu(), fi->cpu_ext))
			sl_push_owned(&d->notes, xasprintf("%s: %s code, an %s extension, and this host "
							   "is %s: `build` will record it UNSUPPORTED_CPU "
							   "(set enabled = no to leave it out)", fi->label,
							   cpu_ext_display(fi->cpu_ext),
							   cpu_ext_arch(fi->cpu_ext), host_cpu()->arch));
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

/* Every KAT file of the package's test vectors is claimed by exactly one
 * instance of each variant; anything else is a sign of a wrong guess. */
static void check_kat_claims(struct discovery *d, const struct strlist *all)
{
	for (size_t f = 0; f < all->n; f++) {
		const char *rel = all->items[f];
		if (!starts_ci(path_basename(rel), "KAT_") || !str_ends_with_ci(rel, ".txt") ||
		    !in_test_vectors(rel) || path_in_bundle_ex(rel, 0))
			continue;
		size_t claims = 0;
		for (size_t i = 0; i < d->n; i++) {
			const struct found_instance *fi = &d->inst[i];
			if (!(fi->kat_reference && !strcmp(fi->kat_reference, rel)) &&
			    !sl_contains(&fi->kat_files, rel))
				continue;
			claims++;
			for (size_t k = 0; k < i; k++) {
				const struct found_instance *o = &d->inst[k];
				if (strcmp(o->variant, fi->variant) ||
				    (!(o->kat_reference && !strcmp(o->kat_reference, rel)) &&
				     !sl_contains(&o->kat_files, rel)))
					continue;
				/* two trees of one parameter set (aarch64/ and neon/) */
				if (o->instance && fi->instance && !strcmp(o->instance, fi->instance) &&
				    !o->placeholder)
					continue;
				sl_push_owned(&d->notes, xasprintf(
					"KAT file '%s' is claimed by both '%s' and '%s': at most one "
					"of them can be right (set kat_reference in candidate.conf)",
					rel, o->label, fi->label));
			}
		}
		if (!claims)
			sl_push_owned(&d->notes, xasprintf(
				"KAT file '%s' is claimed by no instance: a parameter set discovery "
				"missed, or a file for another purpose (intermediate values)?", rel));
	}
}

static void explain_list(struct strlist *out, const char *what, const struct strlist *sl)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "  %s (%zu):", what, sl->n);
	for (size_t i = 0; i < sl->n; i++)
		sb_addf(&sb, " %s", sl->items[i]);
	if (!sl->n)
		sb_adds(&sb, " none");
	sl_push_owned(out, sb_detach(&sb));
}

void discovery_explain(const struct found_instance *fi, struct strlist *out)
{
	sl_push_owned(out, xasprintf("instance %s (%s, %s)", fi->label, fi->type, fi->variant));
	sl_push_owned(out, xasprintf("  folder: %s; API header: %s; ALGORITHM_INSTANCE: %s%s",
				     fi->source_dir, fi->api_header ? fi->api_header : "(none)",
				     fi->instance ? fi->instance : "(none)",
				     fi->placeholder ? " (the template's placeholder)" : ""));
	if (fi->level)
		sl_push_owned(out, xasprintf("  parameter set: %s", fi->level));
	explain_list(out, "sources compiled", &fi->sources);
	explain_list(out, "include folders, in order", &fi->include_dirs);
	explain_list(out, "defines", &fi->defines);
	explain_list(out, "libraries", &fi->libs);
	for (size_t i = 0; i < fi->facts.n; i++)
		sl_push_owned(out, xasprintf("  from the build files: %s", fi->facts.items[i]));
	sl_push_owned(out, xasprintf("  ICCS copies: drng %s, auxfunc %s",
				     fi->own_drng ? "the package's" : "ngcc-perf's",
				     fi->own_auxfunc ? "the package's" : "ngcc-perf's"));
	for (size_t i = 0; i < fi->why.n; i++)
		sl_push_owned(out, xasprintf("  why: %s", fi->why.items[i]));
}

size_t discover_package(const char *root, const char *fallback_label, struct discovery *d)
{
	memset(d, 0, sizeof(*d));
	struct scan sc = { .root = root, .fallback_label = fallback_label, .d = d };
	walk(root, &sc.all);
	struct api_header *h = NULL;
	size_t nh = 0;
	find_api_headers(root, &sc.all, &h, &nh);
	struct strlist dirs = STRLIST_INIT, consumed = STRLIST_INIT;
	struct api_header **chosen = NULL;
	group_headers(h, nh, &dirs, &chosen);
	for (size_t i = 0; i < dirs.n; i++)
		if (chosen[i])
			sl_push(&sc.instance_dirs, dirs.items[i]);
	/* Level folders first: the code folders they draw on are theirs. */
	int *level = xcalloc(dirs.n ? dirs.n : 1, sizeof(*level));
	for (size_t i = 0; i < dirs.n; i++)
		if (chosen[i] && header_only(&sc.all, dirs.items[i]) &&
		    strcasecmp(path_basename(dirs.items[i]), "common"))
			level[i] = add_level_folder(&sc, dirs.items[i], chosen[i], &consumed);
	for (size_t i = 0; i < dirs.n; i++) {
		if (!chosen[i] || level[i])
			continue;
		if (sl_contains(&consumed, dirs.items[i])) {
			sl_push_owned(&d->notes, xasprintf("'%s' holds an API header but its code is "
							   "shared by the level folders: not an instance "
							   "of its own", dirs.items[i]));
			continue;
		}
		add_for_dir(&sc, dirs.items[i], chosen[i]);
	}
	dedupe(d);
	if (d->n > 1)
		qsort(d->inst, d->n, sizeof(*d->inst), label_cmp);
	add_notes(d);
	check_kat_claims(d, &sc.all);
	for (size_t i = 0; i < nh; i++) {
		free(h[i].rel);
		free(h[i].macro);
	}
	free(h);
	free(chosen);
	free(level);
	sl_free(&dirs);
	sl_free(&consumed);
	sl_free(&sc.instance_dirs);
	sl_free(&sc.all);
	return d->n;
}

void discovery_free(struct discovery *d)
{
	for (size_t i = 0; i < d->n; i++)
		found_free(&d->inst[i]);
	free(d->inst);
	sl_free(&d->notes);
	free(d->error);
	memset(d, 0, sizeof(*d));
}

void discovery_to_conf(const struct discovery *d, struct candidate_conf *c)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct found_instance *fi = &d->inst[i];
		struct instance_conf *in = conf_add_instance(c, fi->label);
		in->type = xstrdup(fi->type);
		in->variant = xstrdup(fi->variant);
		/* written when the code needs one, so the file says it */
		if (fi->cpu_ext != CPU_EXT_NONE)
			in->cpu_extension = xstrdup(cpu_ext_name(fi->cpu_ext));
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
		copy_list(&in->defines, &fi->defines);
		copy_list(&in->libs, &fi->libs);
		copy_list(&in->origins, &fi->facts);
		in->enabled = fi->enabled && fi->sources.n;
	}
	if (!c->type && d->n)
		c->type = xstrdup(d->inst[0].type);
}
