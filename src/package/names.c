/*
 * names.c — candidate names from package names: the algorithm name shown in
 * reports (editable later in candidate.conf) and the default candidate id.
 */
#include "package/discover.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

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
		"final", NULL
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
