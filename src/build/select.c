/*
 * select.c — instance selectors (see select.h): resolving what the user
 * typed against the candidate.conf files of the workspace, once, for every
 * phase.
 */
#include "build/select.h"
#include "build/build.h"
#include "method/types.h"
#include "package/conf.h"
#include "util/fsutil.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void selection_init(struct selection *s)
{
	memset(s, 0, sizeof *s);
}

void selection_free(struct selection *s)
{
	sl_free(&s->patterns);
	sl_free(&s->ops);
	sl_free(&s->ids);
	sl_free(&s->keys);
	memset(s, 0, sizeof *s);
}

void selection_add(struct selection *s, const char *pattern)
{
	if (!sl_contains(&s->patterns, pattern))
		sl_push(&s->patterns, pattern);
}

void selection_add_op(struct selection *s, const char *op)
{
	if (!sl_contains(&s->ops, op))
		sl_push(&s->ops, op);
}

int selection_is_all(const struct selection *s)
{
	return !s->patterns.n && !s->ops.n;
}

/* One instance of the workspace as selectors see it. */
struct known {
	char *id, *label, *stem, *type;
	int enabled;
};

struct inventory {
	struct known *k;
	size_t n;
	struct strlist ids;
	struct strlist broken;      /* "ID" then its conf error, in pairs */
};

static void inventory_free(struct inventory *inv)
{
	for (size_t i = 0; i < inv->n; i++) {
		free(inv->k[i].id);
		free(inv->k[i].label);
		free(inv->k[i].stem);
		free(inv->k[i].type);
	}
	free(inv->k);
	sl_free(&inv->ids);
	sl_free(&inv->broken);
}

static int inventory_read(struct inventory *inv, const char *workspace, const struct selection *s)
{
	char *dir = path_join(workspace, "candidates");
	memset(inv, 0, sizeof *inv);
	dir_list_having(dir, "candidate.conf", &inv->ids);
	free(dir);
	sl_sort(&inv->ids);
	if (!inv->ids.n) {
		if (s->patterns.n)
			ngcc_error("selector '%s' matches no candidate: workspace %s has none (no "
				   "candidates/<ID>/candidate.conf); add one with `ngcc-perf add "
				   "PACKAGE`", s->patterns.items[0], workspace);
		else
			ngcc_error("workspace %s has no candidates (no candidates/<ID>/candidate.conf); "
				   "add one with `ngcc-perf add PACKAGE`", workspace);
		return EXIT_INPUT;
	}
	for (size_t i = 0; i < inv->ids.n; i++) {
		const char *id = inv->ids.items[i];
		char *path = path_joinf(workspace, "candidates/%s/candidate.conf", id), *err = NULL;
		struct candidate_conf c;
		if (conf_read(path, &c, &err)) {
			/* an error only if a selector names this candidate */
			sl_push(&inv->broken, id);
			sl_push_owned(&inv->broken, err ? err : xstrdup(path));
			free(path);
			continue;
		}
		free(path);
		inv->k = xrealloc(inv->k, (inv->n + c.n_inst) * sizeof *inv->k);
		for (size_t j = 0; j < c.n_inst; j++) {
			const struct instance_conf *ic = &c.inst[j];
			const char *type = ic->type ? ic->type : c.type;
			inv->k[inv->n++] = (struct known){ xstrdup(id), xstrdup(ic->label), build_stem(ic),
							   xstrdup(type ? type : "kem"), ic->enabled };
		}
		conf_free(&c);
	}
	return 0;
}

static int is_glob(const char *p)
{
	return strpbrk(p, "*?[") != NULL;
}

static int name_matches(const char *pattern, const struct known *k)
{
	return !fnmatch(pattern, k->label, 0) || !fnmatch(pattern, k->stem, 0);
}

static void select_known(struct selection *s, const struct known *k)
{
	char *key = xasprintf("%s/%s", k->id, k->stem);
	if (sl_contains(&s->keys, key)) {
		free(key);
		return;
	}
	sl_push_owned(&s->keys, key);
	if (strcmp(k->label, k->stem))
		sl_push_owned(&s->keys, xasprintf("%s/%s", k->id, k->label));
	if (!sl_contains(&s->ids, k->id))
		sl_push(&s->ids, k->id);
	s->n_instances++;
}

/* A selector whose candidate part matches a candidate with an unreadable
 * candidate.conf: its error, as the phases always gave it. */
static int check_broken(const struct inventory *inv, const char *p)
{
	const char *slash = strchr(p, '/');
	char *idpat = slash ? xstrndup(p, (size_t)(slash - p)) : xstrdup(p);
	int rc = 0;
	for (size_t i = 0; i + 1 < inv->broken.n && !rc; i += 2) {
		if (fnmatch(idpat, inv->broken.items[i], 0))
			continue;
		if (is_glob(idpat)) {
			/* a pattern does not name it: leave it out, visibly */
			ngcc_warning("selector '%s' leaves out candidate %s: %s", p,
				     inv->broken.items[i], inv->broken.items[i + 1]);
			continue;
		}
		ngcc_error("%s (fix the file, or re-add the candidate)", inv->broken.items[i + 1]);
		rc = EXIT_INPUT;
	}
	free(idpat);
	return rc;
}

/* "ID/LABEL": both parts may be globs. */
static size_t match_qualified(struct selection *s, const struct inventory *inv, const char *p)
{
	const char *slash = strchr(p, '/');
	char *idpat = xstrndup(p, (size_t)(slash - p));
	size_t n = 0;
	for (size_t i = 0; i < inv->n; i++)
		if (!fnmatch(idpat, inv->k[i].id, 0) && name_matches(slash + 1, &inv->k[i])) {
			select_known(s, &inv->k[i]);
			n++;
		}
	free(idpat);
	return n;
}

/* A bare word: candidate ids first; else labels, which a literal label
 * must name in one candidate only.  Returns the number of instances
 * selected, or (size_t)-1 after an ambiguity error. */
static size_t match_bare(struct selection *s, const struct inventory *inv, const char *p)
{
	size_t n = 0;
	for (size_t i = 0; i < inv->n; i++)
		if (!fnmatch(p, inv->k[i].id, 0)) {
			select_known(s, &inv->k[i]);
			n++;
		}
	if (n)
		return n;
	struct strlist owners = STRLIST_INIT;
	for (size_t i = 0; i < inv->n; i++)
		if (name_matches(p, &inv->k[i]) && !sl_contains(&owners, inv->k[i].id))
			sl_push(&owners, inv->k[i].id);
	if (owners.n > 1 && !is_glob(p)) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < owners.n; i++)
			sb_addf(&sb, "%s%s/%s", i ? ", " : "", owners.items[i], p);
		ngcc_error("selector '%s' is ambiguous: %zu candidates have an instance of that label "
			   "(%s); name one as ID/LABEL", p, owners.n, sb.buf);
		sb_free(&sb);
		sl_free(&owners);
		return (size_t)-1;
	}
	sl_free(&owners);
	for (size_t i = 0; i < inv->n; i++)
		if (name_matches(p, &inv->k[i])) {
			select_known(s, &inv->k[i]);
			n++;
		}
	return n;
}

/* "ID: label, label (disabled); ID: ..." for the error after a selector
 * that matched nothing. */
static char *inventory_text(const struct inventory *inv)
{
	struct strbuf sb = STRBUF_INIT;
	const char *prev = NULL;
	for (size_t i = 0; i < inv->n; i++) {
		const struct known *k = &inv->k[i];
		if (!prev || strcmp(prev, k->id))
			sb_addf(&sb, "%s%s: ", prev ? "; " : "", k->id);
		else
			sb_addf(&sb, ", ");
		sb_addf(&sb, "%s%s", k->stem, k->enabled ? "" : " (enabled = no)");
		prev = k->id;
	}
	for (size_t i = 0; i < inv->ids.n; i++) {
		int has = 0;
		for (size_t j = 0; j < inv->n && !has; j++)
			has = !strcmp(inv->k[j].id, inv->ids.items[i]);
		if (!has)
			sb_addf(&sb, "%s%s: %s", sb.len ? "; " : "", inv->ids.items[i],
				sl_contains(&inv->broken, inv->ids.items[i]) ?
				"unreadable candidate.conf" : "no instances");
	}
	return sb_detach(&sb);
}

/* The operations the selected instances have (a KEX's passes as the
 * family "pass<N>"). */
static void selected_ops(const struct selection *s, const struct inventory *inv,
			 struct strlist *ops)
{
	for (size_t i = 0; i < inv->n; i++) {
		const struct known *k = &inv->k[i];
		char *key = xasprintf("%s/%s", k->id, k->stem);
		const struct cand_type *t = cand_type_find(k->type);
		if (sl_contains(&s->keys, key) && t && t->timed_ops)
			for (const char *const *op = t->timed_ops; *op; op++)
				if (!sl_contains(ops, *op))
					sl_push(ops, *op);
		free(key);
	}
}

/* family "pass<N>": name is "pass" and one or more digits */
static int family_member(const char *family, const char *name)
{
	size_t n = strlen(family);
	if (n < 3 || strcmp(family + n - 3, "<N>") || strncmp(family, name, n - 3))
		return 0;
	const char *d = name + n - 3;
	if (!*d)
		return 0;
	while (isdigit((unsigned char)*d))
		d++;
	return !*d;
}

/* A pattern against an operation, either of which may be a numbered family
 * ("pass<N>" stands for pass1, pass2, ...): "pass*", "pass2" and "pass<N>"
 * all select a KEX's passes. */
static int op_pattern_matches(const char *pattern, const char *op)
{
	if (!fnmatch(pattern, op, 0) || family_member(pattern, op) || family_member(op, pattern))
		return 1;
	size_t n = strlen(op);
	if (n > 3 && !strcmp(op + n - 3, "<N>")) {
		char *sample = xasprintf("%.*s1", (int)(n - 3), op);
		int m = !fnmatch(pattern, sample, 0);
		free(sample);
		return m;
	}
	return 0;
}

static int check_ops(const struct selection *s, const struct inventory *inv)
{
	struct strlist have = STRLIST_INIT;
	int rc = 0;
	selected_ops(s, inv, &have);
	for (size_t i = 0; i < s->ops.n && !rc; i++) {
		int hit = 0;
		for (size_t j = 0; j < have.n && !hit; j++)
			hit = op_pattern_matches(s->ops.items[i], have.items[j]);
		if (!hit) {
			struct strbuf sb = STRBUF_INIT;
			for (size_t j = 0; j < have.n; j++)
				sb_addf(&sb, "%s%s", j ? ", " : "", have.items[j]);
			ngcc_error("--op %s matches no operation of the selected instances; they have: %s",
				   s->ops.items[i], have.n ? sb.buf : "none (no timed type)");
			sb_free(&sb);
			rc = EXIT_USAGE;
		}
	}
	sl_free(&have);
	return rc;
}

int selection_resolve(struct selection *s, const char *workspace)
{
	struct inventory inv;
	sl_free(&s->ids);
	sl_free(&s->keys);
	s->n_instances = 0;
	int rc = inventory_read(&inv, workspace, s);
	s->n_available = inv.n;
	for (size_t i = 0; i < s->patterns.n && !rc; i++) {
		const char *p = s->patterns.items[i];
		if ((rc = check_broken(&inv, p)))
			break;
		size_t n = strchr(p, '/') ? match_qualified(s, &inv, p) : match_bare(s, &inv, p);
		if (n == (size_t)-1) {
			rc = EXIT_USAGE;
		} else if (n == 0) {
			char *have = inventory_text(&inv);
			char *conf = strchr(p, '/') || is_glob(p) ? xstrdup("") :
				     xasprintf(" (no candidates/%s/candidate.conf)", p);
			ngcc_error("selector '%s' matches no candidate or instance of workspace %s%s; "
				   "it has %s", p, workspace, conf, have);
			free(conf);
			free(have);
			/* as an unknown candidate id always was: bad workspace input */
			rc = EXIT_INPUT;
		}
	}
	if (!rc && !s->patterns.n)
		for (size_t i = 0; i < inv.n; i++)
			select_known(s, &inv.k[i]);
	if (!rc)
		rc = check_ops(s, &inv);
	sl_sort(&s->ids);
	s->resolved = !rc;
	inventory_free(&inv);
	return rc;
}

int selection_from_ids(struct selection *s, const struct strlist *selectors,
		       const char *workspace, struct strlist *ids)
{
	selection_init(s);
	if (!selectors->n)
		return 0;
	for (size_t i = 0; i < selectors->n; i++)
		selection_add(s, selectors->items[i]);
	int rc = selection_resolve(s, workspace);
	for (size_t i = 0; !rc && ids && i < s->ids.n; i++)
		sl_push(ids, s->ids.items[i]);
	return rc;
}

int selection_has_instance(const struct selection *s, const char *id, const char *name)
{
	if (!s->patterns.n)
		return 1;
	char *key = xasprintf("%s/%s", id, name);
	int in = sl_contains(&s->keys, key);
	free(key);
	return in;
}

int selection_has_op(const struct selection *s, const char *op)
{
	if (!s->ops.n)
		return 1;
	for (size_t i = 0; i < s->ops.n; i++)
		if (op_pattern_matches(s->ops.items[i], op))
			return 1;
	return 0;
}

char *selection_describe(const struct selection *s)
{
	struct strbuf sb = STRBUF_INIT;
	if (!s->patterns.n)
		sb_addf(&sb, "every instance");
	for (size_t i = 0; i < s->patterns.n; i++)
		sb_addf(&sb, "%s%s", i ? " " : "", s->patterns.items[i]);
	if (s->resolved && s->patterns.n)
		sb_addf(&sb, " (%zu of %zu instances)", s->n_instances, s->n_available);
	if (s->ops.n) {
		sb_addf(&sb, "; operations");
		for (size_t i = 0; i < s->ops.n; i++)
			sb_addf(&sb, "%s%s", i ? ", " : " ", s->ops.items[i]);
	}
	return sb_detach(&sb);
}

struct stage_conf *stage_confs_read(const char *workspace, const struct strlist *ids)
{
	struct stage_conf *v = xcalloc(ids->n ? ids->n : 1, sizeof *v);
	for (size_t i = 0; i < ids->n; i++) {
		char *p = path_joinf(workspace, "candidates/%s/candidate.conf", ids->items[i]);
		v[i].ok = conf_read(p, &v[i].conf, &v[i].err) == 0;
		free(p);
	}
	return v;
}

void stage_confs_free(struct stage_conf *confs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		conf_free(&confs[i].conf);
		free(confs[i].err);
	}
	free(confs);
}
