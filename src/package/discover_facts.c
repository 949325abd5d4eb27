/*
 * discover_facts.c — the package's own build files applied to each of its
 * parameter sets (docs/iccs.md §6.4): the Makefile and CMakeLists.txt
 * facts (package/buildfacts.h) of the instance folder and its ancestors,
 * which of their defines a parameter set gets (its own target's, and those
 * its code uses for their value; never a switch only tested by #ifdef), the
 * libraries and include folders, where each came from; and
 * ALGORITHM_INSTANCE when the headers define it under #if per parameter set.
 */
#include "package/discover_int.h"

#include "package/cscan.h"
#include "package/discover.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- ALGORITHM_INSTANCE under #if ---- */

/* The value of macro `name` among -D defines ("1" for a bare NAME), or NULL. */
static const char *define_value(const struct strlist *defines, const char *name, size_t len)
{
	for (size_t i = 0; i < defines->n; i++) {
		const char *d = defines->items[i];
		if (!strncmp(d, name, len) && (d[len] == '=' || !d[len]))
			return d[len] == '=' ? d + len + 1 : "1";
	}
	return NULL;
}

/* A condition as packages write them to pick a parameter set: NAME,
 * NAME == N, NAME != N, defined(NAME), defined NAME, !defined(NAME), with
 * NAME's value from the defines (absent: 0).  1 true, 0 false, -1 another
 * form (not decided here). */
static int eval_condition(const char *c, const struct strlist *defines)
{
	while (*c == ' ' || *c == '	' || *c == '(')
		c++;
	int neg = 0;
	if (*c == '!') {
		neg = 1;
		c++;
	}
	int defined_test = !strncmp(c, "defined", 7) && !isalnum((unsigned char)c[7]) && c[7] != '_';
	if (defined_test)
		c += 7;
	while (*c == ' ' || *c == '	' || *c == '(')
		c++;
	const char *name = c;
	while (isalnum((unsigned char)*c) || *c == '_')
		c++;
	size_t len = (size_t)(c - name);
	if (!len)
		return -1;
	const char *v = define_value(defines, name, len);
	while (*c == ' ' || *c == '	' || *c == ')')
		c++;
	if (defined_test) {
		if (*c && *c != '\r')
			return -1;
		return (v != NULL) != neg;
	}
	long have = v ? strtol(v, NULL, 0) : 0;
	int truth;
	if (!*c || *c == '\r')
		truth = have != 0;
	else if ((c[0] == '=' || c[0] == '!') && c[1] == '=') {
		char *end;
		long want = strtol(c + 2, &end, 0);
		while (*end == ' ' || *end == '\t' || *end == ')' || *end == '\r')
			end++;
		if (*end || end == c + 2)
			return -1;
		truth = c[0] == '=' ? have == want : have != want;
	} else {
		return -1;
	}
	return truth != neg;
}

/* The `#define ALGORITHM_INSTANCE "..."` that the defines select when the
 * text defines it more than once under #if/#elif/#ifdef.  *count: how
 * many definitions there are; NULL when none is selected or a condition
 * is of another form. */
static char *selected_instance_macro(const char *text, const struct strlist *defines, int *count)
{
	enum { MAX_DEPTH = 32 };
	int active[MAX_DEPTH], taken[MAX_DEPTH], depth = 0, unknown = 0;
	char *found = NULL;
	*count = 0;
	for (const char *p = text, *q; (q = dsc_next_directive(&p));) {
		int outer = depth == 0 || active[depth - 1];
		char *line = xstrndup(q, strcspn(q, "\n"));
		if (!strncmp(line, "ifdef", 5) || !strncmp(line, "ifndef", 6) || !strncmp(line, "if", 2)) {
			int r, ifdef = !strncmp(line, "ifdef", 5), ifndef = !strncmp(line, "ifndef", 6);
			if (ifdef || ifndef) {
				const char *name = line + (ifdef ? 5 : 6);
				name += strspn(name, " \t");
				int set = define_value(defines, name, strcspn(name, " \t\r")) != NULL;
				r = ifdef ? set : !set;
			} else {
				r = eval_condition(line + 2, defines);
			}
			unknown |= r < 0;
			if (depth < MAX_DEPTH) {
				active[depth] = outer && r == 1;
				taken[depth] = r == 1;
				depth++;
			}
		} else if (!strncmp(line, "elif", 4) && depth) {
			int r = eval_condition(line + 4, defines);
			unknown |= r < 0;
			int up = depth < 2 || active[depth - 2];
			active[depth - 1] = up && !taken[depth - 1] && r == 1;
			taken[depth - 1] |= r == 1;
		} else if (!strncmp(line, "else", 4) && depth) {
			int up = depth < 2 || active[depth - 2];
			active[depth - 1] = up && !taken[depth - 1];
			taken[depth - 1] = 1;
		} else if (!strncmp(line, "endif", 5) && depth) {
			depth--;
		} else if (!strncmp(line, "define", 6)) {
			char *hash = xasprintf("#%s", line);
			char *v = dsc_parse_instance_macro(hash);
			free(hash);
			if (v) {
				(*count)++;
				if (outer && !found)
					found = v;
				else
					free(v);
			}
		}
		free(line);
	}
	if (unknown) {
		free(found);
		return NULL;
	}
	return found;
}

/* ALGORITHM_INSTANCE again when the headers define it several times under
 * #if: the definition this parameter set's defines select. */
void dsc_instance_macro_by_defines(struct inst_builder *b)
{
	struct found_instance *fi = b->fi;
	for (size_t i = 0; i <= fi->headers.n; i++) {
		const char *rel = i == 0 ? fi->api_header : fi->headers.items[i - 1];
		if (!rel || (i > 0 && fi->api_header && !strcmp(rel, fi->api_header)))
			continue;
		char *text = dsc_read_rel(b, rel);
		int count = 0;
		char *v = text ? selected_instance_macro(text, &fi->defines, &count) : NULL;
		free(text);
		if (count < 2) {
			free(v);
			continue;
		}
		if (v) {
			dsc_why(fi, "ALGORITHM_INSTANCE is defined %d times under #if in %s; these defines "
			    "select \"%s\"", count, rel, v);
			free(fi->instance);
			fi->instance = v;
			fi->placeholder = !strcmp(v, "AlgorithmInstance");
		} else {
			dsc_why(fi, "ALGORITHM_INSTANCE is defined %d times under #if in %s and these "
			    "defines select none of them (or a condition too complex to read): "
			    "taken as \"%s\", the first", count, rel, fi->instance ? fi->instance : "");
		}
		return;
	}
}

/* ---- build facts ---- */

/* The folders whose Makefile or CMakeLists.txt speak for an instance: its
 * own and its ancestors up to the implementation folder
 * (Reference_Implementation/), nearest first. */
static void build_file_dirs(const char *source_dir, struct strlist *out)
{
	char *d = xstrdup(source_dir);
	for (;;) {
		sl_push(out, d);
		if (!strcmp(d, ".") || dsc_container_like(path_basename(d)))
			break;
		char *up = path_dirname(d);
		free(d);
		d = up;
	}
	free(d);
}

void dsc_read_build_facts(const struct scan *sc, const char *source_dir, struct build_facts *bf,
			  struct found_instance *fi)
{
	struct strlist dirs = STRLIST_INIT;
	build_file_dirs(source_dir, &dirs);
	for (size_t i = 0; i < dirs.n; i++)
		for (size_t k = 0; k < sc->all.n; k++) {
			const char *rel = sc->all.items[k];
			const char *inner = dsc_inside(rel, dirs.items[i]);
			if (!inner || strchr(inner, '/') || !build_file_name(inner))
				continue;
			char *abs = path_join(sc->root, rel);
			char *text = dsc_read_small(abs);
			free(abs);
			if (!text)
				continue;
			build_facts_parse(rel, text, bf);
			dsc_why(fi, "read build facts (never run) from %s", rel);
			free(text);
		}
	sl_free(&dirs);
}

/* The folder of the build file an origin "<file>:<line>" names. */
static char *origin_dir(const char *origin)
{
	const char *colon = strrchr(origin, ':');
	char *file = colon ? xstrndup(origin, (size_t)(colon - origin)) : xstrdup(origin);
	char *dir = path_dirname(file);
	free(file);
	return dir;
}

/* Does any file of the instance (sources, headers, included sources) say yes to the
 * question (cscan_uses_value: uses the macro for its value; cscan_mentions:
 * names it at all)? */
static int instance_any(const struct inst_builder *b, const char *macro,
			int (*ask)(const char *text, const char *name))
{
	const struct strlist *lists[] = { &b->fi->sources, &b->fi->headers };
	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; i < lists[l]->n; i++) {
			char *text = dsc_read_rel(b, lists[l]->items[i]);
			int yes = text && ask(text, macro);
			free(text);
			if (yes)
				return 1;
		}
	return 0;
}

static void record_fact(struct found_instance *fi, const char *what, const struct build_fact *f,
			const char *how)
{
	char *v = dsc_printable(f->value), *o = dsc_printable(f->origin);
	sl_push_owned(&fi->facts, xasprintf("%s %s: %s%s", what, v, o, how));
	free(v);
	free(o);
}

/* Apply one fact.  forced: it selects this parameter set (a per-target
 * define), so it is set even when only #ifdef tests it. */
static void apply_fact(struct inst_builder *b, const struct build_fact *f, int forced,
		       const char *scope)
{
	struct found_instance *fi = b->fi;
	if (f->kind == FACT_LIB) {
		if (!sl_contains(&fi->libs, f->value)) {
			sl_push(&fi->libs, f->value);
			record_fact(fi, "lib", f, scope);
		}
		return;
	}
	if (f->kind == FACT_INCLUDE) {
		char *odir = origin_dir(f->origin);
		char *joined = f->value[0] == '/' ? NULL : path_join(odir, f->value);
		char *norm = joined ? path_relative(".", joined) : NULL;
		char *abs = norm ? path_join(b->root, norm) : NULL;
		if (!norm || !strncmp(norm, "..", 2) || !path_is_dir(abs)) {
			char *v = dsc_printable(f->value), *o = dsc_printable(f->origin);
			dsc_why(fi, "include folder %s (%s): not in the package, ignored", v, o);
			free(v);
			free(o);
		} else {
			char *mine = path_relative(fi->source_dir, norm);
			if (!sl_contains(&fi->include_dirs, mine)) {
				sl_push(&fi->include_dirs, mine);
				record_fact(fi, "include", f, scope);
			}
			free(mine);
		}
		free(abs);
		free(norm);
		free(joined);
		free(odir);
		return;
	}
	if (sl_contains(&fi->defines, f->value))
		return;
	char *macro = fact_macro_name(f->value);
	forced = forced && instance_any(b, macro, cscan_mentions);
	if (!forced && !instance_any(b, macro, cscan_uses_value)) {
		char *v = dsc_printable(f->value), *o = dsc_printable(f->origin);
		dsc_why(fi, "define %s (%s): not set: the instance's code %s", v, o,
		    "never uses its value (a switch only tested by #ifdef or defined(), or unused)");
		free(v);
		free(o);
	} else {
		sl_push(&fi->defines, f->value);
		record_fact(fi, "define", f, scope);
	}
	free(macro);
}

static int rule_names_file(const struct build_rule *r, const char *file)
{
	for (size_t i = 0; i < r->files.n; i++)
		if (!strcmp(path_basename(r->files.items[i]), path_basename(file)))
			return 1;
	return 0;
}

static int rule_defines(const struct build_rule *r)
{
	for (size_t i = 0; i < r->n_facts; i++)
		if (r->facts[i].kind == FACT_DEFINE)
			return 1;
	return 0;
}

static int rule_has_fact(const struct build_rule *r, const struct build_fact *f)
{
	for (size_t i = 0; i < r->n_facts; i++)
		if (r->facts[i].kind == f->kind && !strcmp(r->facts[i].value, f->value))
			return 1;
	return 0;
}

/* Does the rule state a define that not every other link rule states too
 * and that the instance's code names?  Only such a define can tell
 * parameter sets apart (-DKAT on one target and -DNDEBUG on another do not). */
static int rule_selects(const struct inst_builder *b, const struct build_facts *bf,
			const struct build_rule *r)
{
	for (size_t i = 0; i < r->n_facts; i++) {
		const struct build_fact *f = &r->facts[i];
		if (f->kind != FACT_DEFINE)
			continue;
		int everywhere = 1;
		for (size_t k = 0; k < bf->n_rules && everywhere; k++)
			if (!bf->rules[k].compile_only && rule_defines(&bf->rules[k]))
				everywhere = rule_has_fact(&bf->rules[k], f);
		char *macro = fact_macro_name(f->value);
		int named = !everywhere && instance_any(b, macro, cscan_mentions);
		free(macro);
		if (named)
			return 1;
	}
	return 0;
}

/* The link rules whose defines select a parameter set. */
size_t dsc_target_rules(const struct inst_builder *b, const struct build_facts *bf,
			const struct build_rule **out)
{
	size_t n = 0;
	for (size_t i = 0; i < bf->n_rules; i++)
		if (!bf->rules[i].compile_only && rule_defines(&bf->rules[i]) &&
		    rule_selects(b, bf, &bf->rules[i]))
			out[n++] = &bf->rules[i];
	return n;
}

static int same_defines(const struct build_rule *a, const struct build_rule *b)
{
	for (size_t i = 0; i < a->n_facts; i++)
		if (a->facts[i].kind == FACT_DEFINE && !rule_has_fact(b, &a->facts[i]))
			return 0;
	for (size_t i = 0; i < b->n_facts; i++)
		if (b->facts[i].kind == FACT_DEFINE && !rule_has_fact(a, &b->facts[i]))
			return 0;
	return 1;
}

/* Apply the facts of the build files to one parameter set.  level_file:
 * its own source (file-per-level), target: its own build target
 * (target-per-level), both NULL for a lone instance. */
void dsc_apply_build_facts(struct inst_builder *b, const struct build_facts *bf,
			   const char *level_file, const struct build_rule *target)
{
	for (size_t i = 0; i < bf->n_global; i++)
		apply_fact(b, &bf->global[i], 0, "");
	for (size_t r = 0; r < bf->n_rules; r++) {
		const struct build_rule *rule = &bf->rules[r];
		int mine = rule == target || (level_file && rule_names_file(rule, level_file));
		char *scope = NULL;
		if (mine)
			scope = xasprintf(" (target %s, this parameter set's)", rule->target);
		else if (rule->compile_only) {
			int compiled = 0;
			for (size_t k = 0; k < rule->files.n && !compiled; k++)
				for (size_t s = 0; s < b->fi->sources.n && !compiled; s++)
					compiled = !strcmp(path_basename(rule->files.items[k]),
							   path_basename(b->fi->sources.items[s]));
			if (!compiled)
				continue;
			scope = xasprintf(" (stated for compiling %s; set for the whole instance)",
					  rule->files.n ? rule->files.items[0] : rule->target);
		} else if (target || (level_file && rule_defines(rule))) {
			continue; /* another parameter set's target */
		} else {
			scope = xasprintf(" (target %s)", rule->target);
		}
		for (size_t i = 0; i < rule->n_facts; i++)
			apply_fact(b, &rule->facts[i], mine && rule->facts[i].kind == FACT_DEFINE, scope);
		free(scope);
	}
}

/* Do the link targets select parameter sets: two or more, each with
 * defines of its own, no two alike? */
int dsc_targets_split(const struct build_rule **targets, size_t n)
{
	if (n < 2)
		return 0;
	for (size_t i = 1; i < n; i++)
		for (size_t k = 0; k < i; k++)
			if (same_defines(targets[i], targets[k]))
				return 0;
	return 1;
}

