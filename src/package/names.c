/*
 * names.c — candidate names: the algorithm name shown in reports (editable
 * later in candidate.conf), taken from what the package itself says, and
 * the default candidate id from the package name.
 */
#include "package/discover.h"
#include "util/fsutil.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void strip_suffix_ci(char *s, const char *suffix)
{
	if (str_ends_with_ci(s, suffix))
		s[strlen(s) - strlen(suffix)] = '\0';
}

static char *package_stem(const char *name)
{
	char *full = xstrdup(name);
	size_t n = strlen(full);
	while (n > 1 && full[n - 1] == '/')
		full[--n] = '\0';
	char *s = xstrdup(path_basename(full));
	free(full);
	static const char *const exts[] = {
		".tar.gz", ".tar.bz2", ".tar.xz", ".tgz", ".tar", ".zip", ".rar", ".7z", NULL
	};
	for (const char *const *e = exts; *e; e++)
		strip_suffix_ci(s, *e);
	return s;
}

/* Drop a trailing version such as "v1", "V1.2" or "1.0", but not a
 * parameter number such as the 128 of "Toy-1-128". */
static void strip_version(char *s)
{
	size_t n = strlen(s);
	size_t i = n;
	int dot = 0;
	while (i && (isdigit((unsigned char)s[i - 1]) || s[i - 1] == '.'))
		dot |= s[--i] == '.';
	int v = i < n && i && (s[i - 1] == 'v' || s[i - 1] == 'V');
	if (v)
		i--;
	if (i < n && (v || dot) && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '_' || s[i - 1] == '-'))
		s[i] = '\0';
}

static void trim_separators(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '_' || s[n - 1] == '-' || s[n - 1] == '.'))
		s[--n] = '\0';
}

char *algorithm_from_package_name(const char *name)
{
	char *s = package_stem(name);
	static const char *const words[] = {
		"submission package", "submission", "package", "ngcc", "round1", "round 1",
		"final", "提交材料", "提交包", "提交", NULL
	};
	for (int pass = 0; pass < 3; pass++) {
		trim_separators(s);
		strip_version(s);
		trim_separators(s);
		for (const char *const *w = words; *w; w++)
			strip_suffix_ci(s, *w);
	}
	trim_separators(s);
	if (!*s) {
		free(s);
		return package_stem(name);
	}
	return s;
}

/* ---- the name the package declares ---------------------------------------- */

#define NAME_MAX_LEN 64
#define DECL_MAX_LINES 200

/* "Algorithm name: X", "Name of the algorithm: X", "算法名称：X" (any case,
 * comment leaders allowed): X trimmed, or NULL. */
static char *declared_in_line(const char *line)
{
	static const char *const keys[] = {
		"algorithm name", "name of the algorithm", "算法名称", "算法名", NULL
	};
	while (*line == ' ' || *line == '\t' || *line == '*' || *line == '/' || *line == '#')
		line++;
	for (const char *const *k = keys; *k; k++) {
		size_t n = strlen(*k);
		if (strncasecmp(line, *k, n))
			continue;
		const char *v = line + n;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v == ':')
			v++;
		else if (!strncmp(v, "：", strlen("：")))
			v += strlen("：");
		else
			continue;
		while (*v == ' ' || *v == '\t')
			v++;
		size_t len = strcspn(v, "\r\n");
		while (len && (v[len - 1] == ' ' || v[len - 1] == '\t' || v[len - 1] == '.' ||
			       v[len - 1] == '/' || v[len - 1] == '*'))
			len--;
		if (len && len <= NAME_MAX_LEN)
			return xstrndup(v, len);
	}
	return NULL;
}

static char *declared_in_file(const char *path)
{
	char *text = NULL;
	size_t len;
	if (read_file(path, &text, &len))
		return NULL;
	char *found = NULL;
	int lines = 0;
	for (char *line = text; line && *line && !found && lines++ < DECL_MAX_LINES;) {
		found = declared_in_line(line);
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	free(text);
	return found;
}

static int readme_like(const char *name)
{
	return !strncasecmp(name, "readme", 6) || str_ends_with_ci(name, ".txt") ||
	       str_ends_with_ci(name, ".md");
}

/* README-like files of dir (and of its folders when depth > 0). */
static char *declared_in_dir(const char *root, const char *rel, int depth, char **where)
{
	char *dir = *rel ? path_join(root, rel) : xstrdup(root);
	struct strlist files = STRLIST_INIT, dirs = STRLIST_INIT;
	dir_list(dir, DIR_PICK_FILES, &files);
	if (depth > 0)
		dir_list(dir, DIR_PICK_DIRS, &dirs);
	char *found = NULL;
	for (size_t i = 0; i < files.n && !found; i++) {
		if (!readme_like(files.items[i]))
			continue;
		char *path = path_join(dir, files.items[i]);
		if ((found = declared_in_file(path)))
			*where = *rel ? path_join(rel, files.items[i]) : xstrdup(files.items[i]);
		free(path);
	}
	for (size_t i = 0; i < dirs.n && !found; i++) {
		char *sub = *rel ? path_join(rel, dirs.items[i]) : xstrdup(dirs.items[i]);
		found = declared_in_dir(root, sub, depth - 1, where);
		free(sub);
	}
	sl_free(&files);
	sl_free(&dirs);
	free(dir);
	return found;
}

/* The instances' API headers: a header comment may name the algorithm. */
static char *declared_in_headers(const char *root, const struct discovery *d, char **where)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct found_instance *in = &d->inst[i];
		if (!in->api_header)
			continue;
		char *rel = path_join(in->source_dir, in->api_header);
		char *path = path_join(root, rel);
		char *found = declared_in_file(path);
		free(path);
		if (found) {
			*where = rel;
			return found;
		}
		free(rel);
	}
	return NULL;
}

/* The instance folders' common stem: "ExampleKEM" of ExampleKEM-128 and
 * ExampleKEM-256, "Toy" of Toy-1-128; NULL when they share none. */
static char *label_stem(const struct discovery *d)
{
	char *stem = NULL;
	for (size_t i = 0; i < d->n; i++) {
		const char *l = d->inst[i].label;
		size_t n = strcspn(l, "+");
		if (!stem) {
			stem = xstrndup(l, n);
			continue;
		}
		size_t k = 0;
		while (k < n && stem[k] && stem[k] == l[k])
			k++;
		stem[k] = '\0';
	}
	if (!stem)
		return NULL;
	/* drop parameter numbers and separators: Toy-1-128 -> Toy, lwekem1 (of
	 * lwekem128 and lwekem192) -> lwekem */
	size_t n = strlen(stem);
	for (;;) {
		size_t k = n;
		while (k && isdigit((unsigned char)stem[k - 1]))
			k--;
		while (k && strchr("-_ .", stem[k - 1]))
			k--;
		if (k == n)
			break;
		n = k;
	}
	stem[n] = '\0';
	int letter = 0;
	for (const char *p = stem; *p; p++)
		letter |= isalpha((unsigned char)*p);
	if (!letter || n < 2) {
		free(stem);
		return NULL;
	}
	return stem;
}

/* Lowercase ASCII letters and digits only: "Example KEM 提交" -> "examplekem". */
static char *name_key(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	for (; *s; s++)
		if (isalnum((unsigned char)*s) && (unsigned char)*s < 0x80)
			sb_addc(&sb, (char)tolower((unsigned char)*s));
	return sb_detach(&sb);
}

/* A plain name: ASCII letters, digits, '-', '_', '.' and nothing else. */
static int plain_name(const char *s)
{
	for (; *s; s++)
		if (!(isalnum((unsigned char)*s) && (unsigned char)*s < 0x80) && !strchr("-_.", *s))
			return 0;
	return 1;
}

char *algorithm_name(const char *package, const char *root, const struct discovery *d,
		     char **source)
{
	char *where = NULL, *name = declared_in_dir(root, "", 2, &where);
	if (!name)
		name = declared_in_headers(root, d, &where);
	if (name) {
		*source = xasprintf("\"%s\" line of %s", "Algorithm name", where);
		free(where);
		return name;
	}
	char *pkg = algorithm_from_package_name(package);
	char *stem = label_stem(d);
	if (!stem) {
		*source = xstrdup("the package name");
		return pkg;
	}
	char *kp = name_key(pkg), *ks = name_key(stem);
	/* The package name wins when it says more than the folders (ToyKEM
	 * over Toy-1-128) or the same more plainly (LWEKEM over lwekem128);
	 * the folders when the package was renamed (Example KEM 提交). */
	int pkg_wins = *ks && strstr(kp, ks) && (strcmp(kp, ks) || plain_name(pkg));
	free(kp);
	free(ks);
	if (pkg_wins) {
		free(stem);
		*source = xstrdup("the package name");
		return pkg;
	}
	free(pkg);
	*source = xstrdup("the instance folder names");
	return stem;
}

char *slug_from_package_name(const char *name)
{
	char *stem = package_stem(name);
	struct strbuf sb = STRBUF_INIT;
	int dash = 0;
	for (const char *p = stem; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (isalnum(c) && c < 0x80) {
			if (dash && sb.len)
				sb_addc(&sb, '-');
			sb_addc(&sb, (char)tolower(c));
			dash = 0;
		} else {
			dash = 1;
		}
	}
	free(stem);
	if (!sb.len)
		sb_adds(&sb, "candidate");
	return sb_detach(&sb);
}

int valid_candidate_id(const char *id)
{
	if (!id || !*id || *id == '.' || strlen(id) > 100)
		return 0;
	for (const char *p = id; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '.' && *p != '_' && *p != '-')
			return 0;
	return 1;
}
