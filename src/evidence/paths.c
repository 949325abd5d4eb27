/* paths.c — see paths.h. */
#include "evidence/paths.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* ---- absolute paths ------------------------------------------------------ */

/* Members whose value is a user's regular expression, not a path:
 * --defer '/ExampleKEM-256$' starts with '/' and names no file.  The
 * needles (our own directories) still apply to them. */
static const char *const pattern_keys[] = { "defer" };

static int is_pattern_key(const char *key)
{
	for (size_t i = 0; i < sizeof pattern_keys / sizeof *pattern_keys; i++)
		if (!strcmp(key, pattern_keys[i]))
			return 1;
	return 0;
}

static int is_absolute_text(const char *s, const char *const *needles, int pattern)
{
	if (s[0] == '/' && !pattern)
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

static int find_abs(const json_t *j, const char *const *needles, int pattern,
		    struct strbuf *path, char **where)
{
	size_t mark = path->len;
	int found = 0;
	if (json_is_string(j) && is_absolute_text(json_string_value(j), needles, pattern)) {
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
			found = find_abs(v, needles, is_pattern_key(k), path, where);
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
			found = find_abs(v, needles, 0, path, where);
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
	int found = find_abs(j, needles, 0, &path, where);
	sb_free(&path);
	return found;
}

/* ---- hiding our own prefixes ---- */

/* The rule whose directory starts at s and ends at a path boundary, the
 * longest one when several do; NULL when none. */
static const struct path_rule *rule_at(const char *s, const struct path_rule *rules, size_t n)
{
	const struct path_rule *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; i < n; i++) {
		const char *from = rules[i].from;
		size_t len = from ? strlen(from) : 0;
		if (len < 2 || len <= best_len || strncmp(s, from, len))
			continue;
		/* A relative spelling needs something below the directory. */
		int boundary = s[len] == '/' || (s[len] == '\0' && *rules[i].to);
		if (boundary) {
			best = &rules[i];
			best_len = len;
		}
	}
	return best;
}

char *path_hide(const char *s, const struct path_rule *rules, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "");
	while (*s) {
		const struct path_rule *r = rule_at(s, rules, n);
		if (!r) {
			sb_addc(&sb, *s++);
			continue;
		}
		s += strlen(r->from);
		sb_adds(&sb, r->to);
		if (!*r->to && *s == '/')
			s++;
	}
	return sb_detach(&sb);
}

char *path_hide_ours(const char *s, const char *workspace, const char *run)
{
	struct path_rule rules[3] = {
		{ run, "" }, { workspace, "" }, { ngcc_home(), NGCC_TREE_TAG },
	};
	return path_hide(s, rules, 3);
}

char *path_unhide_ours(const char *s)
{
	const struct path_rule tag = { NGCC_TREE_TAG, ngcc_home() };
	return path_hide(s, &tag, 1);
}
