/* engine.c — see engine.h: phase set-up, units, the driver, R10. */
#include "campaign/engine.h"
#include "campaign/cpus.h"
#include "campaign/rundir.h"
#include "evidence/build_json.h"
#include "evidence/campaign_json.h"
#include "evidence/json.h"
#include "evidence/names.h"
#include "evidence/record.h"
#include "host/cpufeat.h"
#include "host/env.h"
#include "kat/katlog.h"
#include "method/types.h"
#include "package/conf.h"
#include "proc/command.h"
#include "util/fsutil.h"
#include "util/interrupt.h"
#include "util/lock.h"
#include "util/numparse.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <regex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- options ------------------------------------------------------------- */

/* --input-pool's default: ENGINE_INPUT_POOL_DEFAULT, or the environment's
 * NGCC_PERF_INPUT_POOL (the test suite's 0); the value used is recorded in
 * campaign.json either way. */
static int engine_input_pool_default(void)
{
	const char *v = getenv(ENGINE_INPUT_POOL_ENV);
	int n;
	if (!v || !*v)
		return ENGINE_INPUT_POOL_DEFAULT;
	if (parse_whole_int(v, 0, ENGINE_INPUT_POOL_MAX, &n)) {
		ngcc_warning("%s=%s is not a whole number from 0 to %d; using %d", ENGINE_INPUT_POOL_ENV,
			     v, ENGINE_INPUT_POOL_MAX, ENGINE_INPUT_POOL_DEFAULT);
		return ENGINE_INPUT_POOL_DEFAULT;
	}
	return n;
}

void engine_opts_init(struct engine_opts *o, const char *workspace, int tty)
{
	memset(o, 0, sizeof *o);
	o->workspace = workspace;
	o->cpu = -1;
	o->tty = tty;
	o->input_pool = engine_input_pool_default();
	planning_defaults(&o->planning);
}

void engine_opts_free(struct engine_opts *o)
{
	host_override_free(&o->ovr);
	sl_free(&o->ids);
	sl_free(&o->ops);
	sl_free(&o->priors);
}

/* ---- units ------------------------------------------------------------------ */

static const char *const measurable_not_passed[] = {
	"MISMATCH", "NOKAT", "PARTIAL", "CRYPTOFAIL", "TIMEOUT", "OVERFLOW",
};

/* Method §2.2: which KAT statuses are timed. */
static int kat_measurable(const json_t *inst, char **why)
{
	const char *kat = jget_str(inst, "kat", NULL);
	if (jget_bool(inst, "excluded", 0)) {
		*why = xstrdup("excluded by kat_issues.csv");
		return 0;
	}
	if (!kat) {
		*why = xstrdup("no KAT result (run `ngcc-perf kat` first)");
		return 0;
	}
	if (!strcmp(kat, "UNSUPPORTED_CPU")) {
		const char *b = jget_str(inst, "build_error", NULL);
		*why = b ? xasprintf("UNSUPPORTED_CPU: %s", b)
			 : xstrdup("UNSUPPORTED_CPU: the host of `kat` lacked the CPU features it needs; "
				   "rerun `ngcc-perf kat` on a host that has them");
		return 0;
	}
	if (!strcmp(kat, "PASS"))
		return 1;
	/* every variant beside the reference: PASS only (docs/method.md §2.2) */
	int variant_opt = variant_is_alternative(jget_str(inst, "variant", ""));
	for (size_t i = 0; i < sizeof measurable_not_passed / sizeof *measurable_not_passed; i++)
		if (!strcmp(kat, measurable_not_passed[i]) && !variant_opt)
			return 1;
	*why = xasprintf("KAT %s is never timed%s", kat,
			 variant_opt ? " for optimized and additional builds (PASS only)" : "");
	return 0;
}

struct kat_issue_match {
	const char *path, *cand, *label;
	char *cause;
};

static int match_kat_issue_row(char *f[SEMI_FIELDS], void *ctx)
{
	struct kat_issue_match *m = ctx;
	if (!f[2] || strcmp(str_trim(f[0]), m->cand) || strcmp(str_trim(f[2]), "exclude"))
		return 0;
	regex_t re;
	if (regcomp(&re, str_trim(f[1]), REG_EXTENDED | REG_NOSUB)) {
		ngcc_warning("%s: invalid Label expression '%s' for %s; row ignored", m->path, f[1],
			     m->cand);
		return 0;
	}
	if (!regexec(&re, m->label, 0, NULL, 0))
		m->cause = xstrdup(f[3] ? str_trim(f[3]) : "no cause given");
	regfree(&re);
	return m->cause != NULL;
}

/* kat_issues.csv (docs/method.md §2.2): `ID;Label;Action;Cause`, Label a regular
 * expression found anywhere in the label; Action `exclude` is never timed.
 * Returns the cause (malloc'd) of the first matching exclude row, or NULL. */
static char *kat_issue_exclusion(const char *ws, const char *cand, const char *label)
{
	char *path = path_join(ws, "kat_issues.csv");
	struct kat_issue_match m = { path, cand, label, NULL };
	semicolon_rows(path, match_kat_issue_row, &m);
	free(path);
	return m.cause;
}

/* The instance's type and enabled setting in its candidate's conf (NULL:
 * the conf could not be read). */
static char *instance_type(struct candidate_conf *conf, const char *label, int *enabled)
{
	if (!conf)
		return NULL;
	struct instance_conf *ic = conf_find_instance(conf, label);
	const char *t = ic && ic->type ? ic->type : conf->type;
	*enabled = !ic || ic->enabled;
	return t ? xstrdup(t) : NULL;
}

static void add_unit(struct engine *e, const char *cand, const char *label,
		     const char *op, json_t *inst, const char *lib, const char *sha)
{
	if (!selection_has_op(&e->sel, op))
		return;
	e->units = xrealloc(e->units, (e->n_units + 1) * sizeof *e->units);
	struct unit *u = &e->units[e->n_units++];
	memset(u, 0, sizeof *u);
	u->cand = xstrdup(cand);
	u->label = xstrdup(label);
	u->op = xstrdup(op);
	u->stem = rundir_stem(label, op);
	u->library = xstrdup(lib);
	u->library_sha256 = xstrdup(sha);
	u->inst = json_incref(inst);
}

/* The instance's pass count as its KAT run read it from the library
 * (`passes` line of the KAT log); 0 when unknown. */
static long instance_passes(const char *ws, const json_t *inst)
{
	const char *rel = jget_str(inst, "kat_log", NULL);
	char *path = rel ? path_join(ws, rel) : NULL, *text = NULL;
	long n = 0;
	if (path && !read_file(path, &text, NULL)) {
		char *v = katlog_header_value(text, "passes");
		n = v ? strtol(v, NULL, 10) : 0;
		free(v);
	}
	free(text);
	free(path);
	return n;
}

/* pass1 … pass<P>, P the instance's own count of passes. */
static void add_pass_units(struct engine *e, const char *cand, json_t *inst,
			   const char *lib, const char *sha)
{
	const char *label = jget_str(inst, "label", NULL);
	long n = instance_passes(e->o.workspace, inst);
	if (n < 1 || n > CAND_MAX_PASSES) {
		sl_push_owned(&e->not_timed, xasprintf(
			"%s/%s: its passes are not timed: the KAT log gives no pass count from 1 to %d "
			"(rerun `ngcc-perf kat %s`)", cand, label, CAND_MAX_PASSES, cand));
		return;
	}
	for (long k = 1; k <= n; k++) {
		char key[16];
		snprintf(key, sizeof key, "pass%ld", k);
		add_unit(e, cand, label, key, inst, lib, sha);
	}
}

/* The type's timed operations; a numbered family is expanded here, per
 * instance (the KEX's pass<N>). */
static void add_type_units(struct engine *e, const char *cand, json_t *inst,
			   const struct cand_type *t, const char *lib, const char *sha)
{
	for (const char *const *op = t->timed_ops; *op; op++)
		if (!strcmp(*op, "pass<N>"))
			add_pass_units(e, cand, inst, lib, sha);
		else
			add_unit(e, cand, jget_str(inst, "label", NULL), *op, inst, lib, sha);
}

/* Checked again here, not only by `kat`: the host that measures may not be
 * the one that built and tested.  NULL, or why not (malloc'd). */
static char *cpu_refusal(struct candidate_conf *conf, const char *label)
{
	struct instance_conf *ic = conf ? conf_find_instance(conf, label) : NULL;
	char *why = ic ? host_cpu_refusal(host_cpu(), conf_cpu_ext(ic)) : NULL;
	if (!why)
		return NULL;
	char *s = xasprintf("UNSUPPORTED_CPU: %s", why);
	free(why);
	return s;
}

static void add_instance(struct engine *e, const char *cand, struct candidate_conf *conf,
			 json_t *inst)
{
	const char *label = jget_str(inst, "label", NULL);
	const char *lib = jget_str(inst, "library", NULL);
	char *why = NULL, *type = NULL;
	if (label && !lib && !strcmp(jget_str(inst, "kat", ""), "UNSUPPORTED_CPU") &&
	    selection_has_instance(&e->sel, cand, label)) {
		kat_measurable(inst, &why);
		sl_push_owned(&e->not_timed, xasprintf("%s/%s: %s", cand, label, why));
		e->not_timed_cpu++;
		free(why);
		return;
	}
	if (!label || !lib) {
		sl_push_owned(&e->not_timed, xasprintf("%s/?: build.json entry without label or library", cand));
		return;
	}
	if (!selection_has_instance(&e->sel, cand, label))
		return;
	/* No candidate.conf to say otherwise: a KEM, as the first pipeline was. */
	int enabled = 1;
	type = instance_type(conf, label, &enabled);
	if (!enabled) {
		/* build no longer touches it, so its library may be an old one */
		sl_push_owned(&e->not_timed, xasprintf("%s/%s: skipped: enabled = no in "
						       "candidates/%s/candidate.conf", cand, label, cand));
		free(type);
		return;
	}
	if ((why = cpu_refusal(conf, label)) || !kat_measurable(inst, &why)) {
		e->not_timed_cpu += str_starts_with(why, "UNSUPPORTED_CPU:");
		sl_push_owned(&e->not_timed, xasprintf("%s/%s: %s", cand, label, why));
		free(why);
		free(type);
		return;
	}
	char *issue = kat_issue_exclusion(e->o.workspace, cand, label);
	if (issue) {
		sl_push_owned(&e->not_timed, xasprintf("%s/%s: excluded by kat_issues.csv (%s)",
						       cand, label, issue));
		free(issue);
		free(type);
		return;
	}
	const struct cand_type *t = cand_type_find(type ? type : "kem");
	if (!cand_type_supported(t)) {
		sl_push_owned(&e->not_timed, xasprintf("%s/%s: type %s is not measured yet",
						       cand, label, type));
		free(type);
		return;
	}
	free(type);
	char *abs = path_join(e->o.workspace, lib);
	char sha[65];
	if (sha256_file_hex(abs, sha)) {
		sl_push_owned(&e->not_timed, xasprintf("%s/%s: library %s is missing; rebuild it with `ngcc-perf build %s`",
						       cand, label, lib, cand));
		free(abs);
		return;
	}
	const char *recorded = jget_str(inst, "library_sha256", NULL);
	if (recorded && strcmp(recorded, sha))
		ngcc_warning("%s changed since build.json was written (sha256 %.12s…, now %.12s…); "
			     "rerun `ngcc-perf build %s` and `kat` to re-check it", lib, recorded, sha, cand);
	free(abs);
	add_type_units(e, cand, inst, t, lib, sha);
}

/* "candidates: a, b" or how to add one: the hint after a wrong id. */
static char *workspace_candidates(const char *ws)
{
	struct strlist ids = STRLIST_INIT;
	char *dir = path_join(ws, "candidates");
	dir_list_having(dir, "candidate.conf", &ids);
	free(dir);
	struct strbuf sb = STRBUF_INIT;
	if (!ids.n)
		sb_addf(&sb, "it has none; add one with `ngcc-perf add PACKAGE`");
	for (size_t i = 0; i < ids.n; i++)
		sb_addf(&sb, "%s%s", i ? ", " : "its candidates: ", ids.items[i]);
	sl_free(&ids);
	return sb_detach(&sb);
}

static int add_candidate(struct engine *e, const char *cand)
{
	char *err = NULL;
	char *conf = path_joinf(e->o.workspace, "candidates/%s/candidate.conf", cand);
	int added = path_exists(conf);
	free(conf);
	if (!added) {
		char *have = workspace_candidates(e->o.workspace);
		ngcc_error("%s: no such candidate in workspace %s (%s)", cand, e->o.workspace, have);
		free(have);
		return -1;
	}
	char *bj = build_json_path(e->o.workspace, cand);
	if (!path_exists(bj)) {
		ngcc_error("%s does not exist: candidate %s is not built; run `ngcc-perf build %s` and `ngcc-perf kat %s`",
			   bj, cand, cand, cand);
		free(bj);
		return -1;
	}
	free(bj);
	json_t *doc = build_json_load(e->o.workspace, cand, &err);
	if (!doc) {
		ngcc_error("%s", err ? err : "cannot read build.json");
		free(err);
		return -1;
	}
	struct strlist keys = STRLIST_INIT;
	const char *key;
	json_t *inst;
	json_object_foreach(json_object_get(doc, "instances"), key, inst)
		sl_push(&keys, key);
	sl_sort(&keys);
	/* read once for every instance of the candidate */
	char *path = path_joinf(e->o.workspace, "candidates/%s/candidate.conf", cand), *why = NULL;
	struct candidate_conf cc;
	int have_conf = !conf_read(path, &cc, &why);
	for (size_t i = 0; i < keys.n; i++)
		add_instance(e, cand, have_conf ? &cc : NULL,
			     json_object_get(json_object_get(doc, "instances"), keys.items[i]));
	conf_free(&cc);
	free(why);
	free(path);
	sl_free(&keys);
	json_decref(doc);
	return 0;
}

/* No unit at all: say why and what to do instead of measuring nothing. */
static void nothing_to_do(const struct engine *e)
{
	const char *ws = e->o.workspace;
	struct strlist added = STRLIST_INIT;
	char *cdir = path_join(ws, "candidates");
	dir_list_having(cdir, "candidate.conf", &added);
	for (size_t i = 0; i < e->not_timed.n; i++)
		fprintf(stderr, "not timed: %s\n", e->not_timed.items[i]);
	if (e->not_timed.n)
		ngcc_error("%s: nothing to do: none of the %zu built instance(s) can be timed "
			   "(reasons above)", e->phase, e->not_timed.n);
	else if (!added.n)
		ngcc_error("%s: nothing to do: workspace %s has no candidates; add a package with "
			   "`ngcc-perf add PACKAGE`, then `build` and `kat` it (or check -C)",
			   e->phase, ws);
	else
		ngcc_error("%s: nothing to do: no candidate of workspace %s is built (%zu added); "
			   "run `ngcc-perf build` and `ngcc-perf kat` first", e->phase, ws, added.n);
	sl_free(&added);
	free(cdir);
}

/* The selectors and --op values, checked against the workspace. */
static int resolve_selection(struct engine *e)
{
	selection_init(&e->sel);
	for (size_t i = 0; i < e->o.ids.n; i++)
		selection_add(&e->sel, e->o.ids.items[i]);
	for (size_t i = 0; i < e->o.ops.n; i++)
		selection_add_op(&e->sel, e->o.ops.items[i]);
	if (selection_is_all(&e->sel))
		return 0;
	int rc = selection_resolve(&e->sel, e->o.workspace);
	e->usage_error = rc == EXIT_USAGE;
	return rc ? -1 : 0;
}

static int list_units(struct engine *e)
{
	struct strlist ids = STRLIST_INIT;
	if (resolve_selection(e))
		return -1;
	if (e->o.ids.n) {
		for (size_t i = 0; i < e->sel.ids.n; i++)
			sl_push(&ids, e->sel.ids.items[i]);
	} else {
		/* build/<id>/build.json, as build_json_path() names it */
		char *dir = path_join(e->o.workspace, "build");
		dir_list_having(dir, "build.json", &ids);
		free(dir);
	}
	int rc = 0;
	for (size_t i = 0; i < ids.n && !rc; i++)
		rc = add_candidate(e, ids.items[i]);
	sl_free(&ids);
	if (!rc && !e->n_units) {
		nothing_to_do(e);
		rc = -1;
	}
	return rc;
}

/* ---- environment (R10) ---------------------------------------------------- */

/* The environment of the first complete record (by started_utc), preferring
 * records on our CPU.  *same_cpu tells which. */
static json_t *first_complete_env(const char *run, int cpu, int *same_cpu)
{
	char *recdir = path_join(run, "records");
	DIR *d = opendir(recdir);
	struct dirent *c;
	json_t *best = NULL;
	char best_utc[40] = "";
	int best_same = 0;
	while (d && (c = readdir(d))) {
		if (c->d_name[0] == '.')
			continue;
		char *cdir = path_join(recdir, c->d_name);
		DIR *cd = opendir(cdir);
		struct dirent *f;
		while (cd && (f = readdir(cd))) {
			if (!str_ends_with(f->d_name, ".json"))
				continue;
			char *p = path_join(cdir, f->d_name);
			json_t *r = evidence_load(p, NULL);
			char *why = NULL;
			free(p);
			int bad = r && record_check(r, &why);
			free(why);
			if (!r || bad || strcmp(jget_str(r, "status", ""), "complete") ||
			    !json_is_object(json_object_get(r, "environment"))) {
				json_decref(r);
				continue;
			}
			int same = jget_int(r, "cpu", -1) == cpu;
			const char *utc = jget_str(r, "started_utc", "");
			if (!best || (same && !best_same) ||
			    (same == best_same && strcmp(utc, best_utc) < 0)) {
				json_decref(best);
				best = json_incref(json_object_get(r, "environment"));
				snprintf(best_utc, sizeof best_utc, "%s", utc);
				best_same = same;
			}
			json_decref(r);
		}
		if (cd)
			closedir(cd);
		free(cdir);
	}
	if (d)
		closedir(d);
	free(recdir);
	*same_cpu = best_same;
	return best;
}

/* Compare env with the reference; differences go to diffs.  skip_clock:
 * ignore the probed clock (a quick capture has none). */
static int env_matches(const json_t *ref, const json_t *env, int same_cpu, int skip_clock,
		       struct strlist *diffs)
{
	struct strlist all = STRLIST_INIT;
	env_equal(ref, env, same_cpu, &all);
	for (size_t i = 0; i < all.n; i++)
		if (!skip_clock || !str_starts_with(all.items[i], "core_clock"))
			sl_push(diffs, all.items[i]);
	sl_free(&all);
	return diffs->n == 0;
}

struct override_ctx {
	const char *phase;
	int cpu;
	const struct host_override *ovr;
	const struct strlist *problems;
};

static int add_override_cb(json_t *doc, void *vctx)
{
	struct override_ctx *c = vctx;
	json_t *probs = json_array();
	for (size_t i = 0; i < c->problems->n; i++)
		json_array_append_new(probs, json_string(c->problems->items[i]));
	campaign_add_host_problems(doc, probs);
	json_decref(probs);
	campaign_add_override(doc, host_override_entry(c->phase, c->cpu, NULL, c->ovr, c->problems));
	return 0;
}

/* A changed environment: refuse, or record the override. */
static int env_difference(struct engine *e, const struct strlist *diffs)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < diffs->n; i++)
		sb_addf(&sb, "%s%s", i ? "; " : "", diffs->items[i]);
	char *list = sb_detach(&sb);
	if (!e->o.ovr.allowed) {
		ngcc_error("%s: the environment differs from the run's first complete record (%s) "
			   "in %s: %s; restore it, use another --run, or pass --allow-unfixed-host=REASON",
			   e->phase, e->run, "R10 keys", list);
		free(list);
		return -1;
	}
	char *problem = xasprintf("environment changed since the first complete record: %s", list);
	free(list);
	if (!sl_contains(&e->problems, problem)) {
		sl_push(&e->problems, problem);
		struct strlist one = STRLIST_INIT;
		sl_push(&one, problem);
		struct override_ctx c = { e->phase, e->cpu, &e->o.ovr, &one };
		campaign_update(e->o.workspace, e->run, add_override_cb, &c);
		sl_free(&one);
		json_decref(e->host_state);
		e->host_state = host_state_json(&e->problems, &e->o.ovr);
		ngcc_warning("%s (override: %s); recorded", problem,
			     e->o.ovr.reason ? e->o.ovr.reason : HOST_OVERRIDE_NO_REASON);
	}
	free(problem);
	return 0;
}

int engine_env_still_equal(struct engine *e)
{
	const struct env_opts quick = { 0, 0, 0 };
	json_t *now = env_capture_opts(e->cpu, &e->counter, &quick);
	struct strlist diffs = STRLIST_INIT;
	/* Without an earlier complete record, the first one this phase writes
	 * carries e->env: compare with that. */
	const json_t *ref = e->env_ref ? e->env_ref : e->env;
	int same_cpu = e->env_ref ? e->env_ref_same_cpu : 1;
	int rc = env_matches(ref, now, same_cpu, 1, &diffs) ? 0 : env_difference(e, &diffs);
	sl_free(&diffs);
	json_decref(now);
	if (rc)
		e->refused = 1;
	return rc;
}

/* ---- phase set-up --------------------------------------------------------- */

/* options.candidates: the ids the run was asked for, null for "every built
 * candidate"; kept as the union over its phases. */
static void record_candidates(json_t *doc, const struct strlist *ids)
{
	json_t *opts = json_object_get(doc, "options");
	json_t *have = json_object_get(opts, "candidates");
	if (!ids->n || (have && json_is_null(have))) {
		campaign_set_option(doc, "candidates", json_null());
		return;
	}
	json_t *list = json_is_array(have) ? json_deep_copy(have) : json_array();
	for (size_t i = 0; i < ids->n; i++) {
		size_t k;
		json_t *v;
		int seen = 0;
		json_array_foreach(list, k, v)
			seen |= !strcmp(json_string_value(v), ids->items[i]);
		if (!seen)
			json_array_append_new(list, json_string(ids->items[i]));
	}
	campaign_set_option(doc, "candidates", list);
}

/* Whether the selection leaves out part of a candidate it names: an
 * instance selector that is not a candidate id, or --op. */
static int selection_narrower(const struct selection *sel)
{
	if (sel->ops.n)
		return 1;
	for (size_t i = 0; i < sel->patterns.n; i++)
		if (!sl_contains(&sel->ids, sel->patterns.items[i]))
			return 1;
	return 0;
}

static json_t *strlist_array(const struct strlist *l)
{
	json_t *a = json_array();
	for (size_t i = 0; i < l->n; i++)
		json_array_append_new(a, json_string(l->items[i]));
	return a;
}

/* options.selections: what the phases of a run were asked for when some
 * of them took part of a candidate only (instance selectors, --op), one
 * entry {instances, operations} per distinct selection; a unit of the
 * run's candidates no entry covers is "not selected" (status, publish).
 * Absent: every unit of the candidates is selected, as it is once any
 * phase ran on every instance (fresh: the run had no phase before). */
static void record_selection(json_t *doc, const struct selection *sel, int fresh)
{
	json_t *opts = json_object_get(doc, "options");
	json_t *have = json_object_get(opts, "selections");
	if (!sel->patterns.n && !sel->ops.n) {
		json_object_del(opts, "selections");
		return;
	}
	if (!json_is_array(have) && (!fresh || !selection_narrower(sel)))
		return;
	json_t *entry = json_pack("{soso}", "instances", strlist_array(&sel->patterns),
				  "operations", sel->ops.n ? strlist_array(&sel->ops) : json_null());
	json_t *list = json_is_array(have) ? json_deep_copy(have) : json_array();
	size_t i;
	json_t *v;
	int seen = 0;
	json_array_foreach(list, i, v)
		seen |= json_equal(v, entry);
	if (!seen)
		json_array_append(list, entry);
	json_decref(entry);
	campaign_set_option(doc, "selections", list);
}

struct begin_ctx {
	struct engine *e;
	json_t *problems;   /* array */
	char *refusal;
};

static int begin_cb(json_t *doc, void *vctx)
{
	struct begin_ctx *c = vctx;
	struct engine *e = c->e;
	if (!campaign_planning_check(doc, &e->o.planning, &c->refusal))
		return 1;
	if (engine_shards_check(e, doc, &c->refusal))
		return 1;
	if (json_is_null(json_object_get(doc, "environment_at_start")))
		campaign_set_environment(doc, "environment_at_start", e->env);
	json_t *shard = engine_shard_label(e);
	campaign_add_host_check(doc, e->phase, e->cpu, json_deep_copy(c->problems));
	json_object_set(json_array_get(json_object_get(doc, "host_checks"),
				       json_array_size(json_object_get(doc, "host_checks")) - 1), "shard", shard);
	campaign_add_host_problems(doc, c->problems);
	if (e->o.ovr.allowed && json_array_size(c->problems))
		campaign_add_override(doc, host_override_entry(e->phase, e->cpu, json_string_value(shard),
							       &e->o.ovr, &e->problems));
	json_t *opts = json_object_get(doc, "options");
	json_object_set_new(opts, "counter", json_string(e->o.counter_fallback ? "fallback" : "auto"));
	if (e->o.max_timeout_s > 0)
		json_object_set_new(opts, "max_timeout_s", json_real(e->o.max_timeout_s));
	int fresh = json_array_size(json_object_get(doc, "phases")) == 0;
	record_candidates(doc, e->o.ids.n ? &e->sel.ids : &e->o.ids);
	record_selection(doc, &e->sel, fresh);
	e->phase_index = campaign_phase_begin(doc, e->phase);
	json_object_set(json_array_get(json_object_get(doc, "phases"), e->phase_index), "shard", shard);
	json_decref(shard);
	return 0;
}

static int check_host(struct engine *e)
{
	json_t *facts = NULL;
	host_check(e->cpu, &e->problems, &facts);
	json_decref(facts);
	return host_gate(e->phase, e->cpu, &e->problems, &e->o.ovr);
}

/* One measuring process per benchmark CPU, host-wide: wait for a busy one
 * (another run measuring there) rather than measure concurrently. */
static int take_cpu(struct engine *e)
{
	int want = e->o.cpu >= 0 || e->o.cpu == CPU_AUTO ? e->o.cpu : host_default_cpu();
	e->cpu_lock_fd = cpus_take_benchmark(want, e->phase, &e->cpu);
	return e->cpu_lock_fd < 0 ? -1 : 0;
}

/* Shards are not supported yet: one calibrate/measure worker per run. */
static int take_run(struct engine *e)
{
	char *locks = path_join(e->run, "locks");
	char *path = path_join(locks, "worker.lock");
	int rc = 0;
	if (mkdir_p(locks, 0755)) {
		ngcc_error("cannot create %s: %s", locks, strerror(errno));
		rc = -1;
	} else if ((e->run_lock_fd = lock_path(path, 1, 0)) < 0) {
		ngcc_error("%s: another calibrate or measure is working on %s (lock %s); "
			   "wait for it to finish", e->phase, e->run, path);
		rc = -1;
	}
	free(path);
	free(locks);
	return rc;
}

void env_carry_free(struct env_carry *c)
{
	json_decref(c->env);
	c->env = NULL;
}

/* The previous phase's end environment when it was taken for this CPU and
 * counter, else NULL. */
static json_t *carried_environment(const struct engine *e)
{
	const struct env_carry *c = e->o.carry;
	if (c && c->env && c->cpu == e->cpu && c->counter_fallback == e->o.counter_fallback)
		return c->env;
	return NULL;
}

/* The counter's name and rate as env recorded them, or NULL. */
static const struct counter_rate *environment_rate(const json_t *env, struct counter_rate *r)
{
	const json_t *c = json_object_get(env, "counter");
	const char *name = jget_str(c, "name", "");
	double hz = jget_real(c, "hz", 0);
	if (!*name || strlen(name) >= sizeof r->name || !(hz > 0))
		return NULL;
	strcpy(r->name, name);
	r->hz = hz;
	return r;
}

/* The phase's counter, calibrated once: its rate goes to every driver
 * process (engine_counter_rate_arg).  A phase starting from the carried
 * environment takes the rate recorded there, so that the phases of one
 * command, their records and that environment all show one rate. */
static int open_environment(struct engine *e)
{
	json_t *carried = carried_environment(e);
	struct counter_rate rate;
	counter_open_given(&e->counter, e->o.counter_fallback,
			   carried ? environment_rate(carried, &rate) : NULL);
	e->env = carried ? json_incref(carried) : env_capture(e->cpu, &e->counter);
	e->ref_clock_hz = env_reference_clock_hz(e->env);
	e->env_ref = first_complete_env(e->run, e->cpu, &e->env_ref_same_cpu);
	if (!e->env_ref)
		return 0;
	struct strlist diffs = STRLIST_INIT;
	int rc = env_matches(e->env_ref, e->env, e->env_ref_same_cpu, 0, &diffs) ? 0 :
		 env_difference(e, &diffs);
	sl_free(&diffs);
	return rc;
}

void tally_cut(struct tally *t, const struct unit *u)
{
	if (!t->cut)
		t->cut = xasprintf("%s %s %s", u->cand, u->label, u->op);
}

int engine_summary(const struct engine *e, struct tally *t, const char *noun,
		   const char *made_word, int rc)
{
	int sig = interrupt_pending();
	if (sig) {
		fprintf(stderr, "%s: interrupted by %s%s%s%s%s%s\n", e->phase, interrupt_name(sig),
			t->cut ? " during " : "", t->cut ? t->cut : "",
			t->cut ? "; its child was stopped and no " : "", t->cut ? noun : "",
			t->cut ? " of it was written" : "");
		fprintf(stderr, "%s: kept %d complete %s(s) in %s (%d from before, %d %s now); "
			"%d unit(s) not done%s will be done when the same command runs again\n",
			e->phase, t->kept + t->made, noun, e->run, t->kept, t->made, made_word,
			t->left, t->failed ? " and the failed ones" : "");
	}
	fprintf(stderr, "%s: %d kept, %d %s, %d failed", e->phase, t->kept, t->made, made_word,
		t->failed);
	if (sig)
		fprintf(stderr, ", %d left (interrupted)", t->left);
	if (e->not_timed.n)
		fprintf(stderr, "; %zu instance(s) not timed", e->not_timed.n);
	fprintf(stderr, "; run %s\n", e->run);
	free(t->cut);
	t->cut = NULL;
	return sig ? EXIT_INTERRUPTED : rc;
}

int engine_begin(struct engine *e, const struct engine_opts *o, const char *phase)
{
	memset(e, 0, sizeof *e);
	/* Ctrl-C from here on stops the phase cleanly (util/interrupt.h). */
	interrupt_catch();
	e->o = *o;
	e->phase = phase;
	e->cpu_lock_fd = -1;
	e->run_lock_fd = -1;
	if (!o->run) {
		ngcc_error("%s needs --run DIR (the run directory, created if missing)", phase);
		return EXIT_USAGE;
	}
	char *joined = engine_run_dir(o);
	e->run = path_absolute(joined);
	free(joined);
	/* The run's name becomes its run_id and the name of its folder. */
	char *problem = path_name_problem("the run name", path_basename(e->run));
	if (problem) {
		ngcc_error("%s: %s; give --run another name", phase, problem);
		free(problem);
		return EXIT_USAGE;
	}
	e->driver = ngcc_program(DRIVER_NAME);
	if (!path_is_file(e->driver)) {
		ngcc_error("the timing driver %s is missing; run `make` in the ngcc-perf tree", e->driver);
		return EXIT_SYSTEM;
	}
	/* What there is to do first: nothing to do is an error, and it leaves
	 * no run directory behind.  Then the CPU: --cpu auto decides which one
	 * the host check is of. */
	if (list_units(e))
		return e->usage_error ? EXIT_USAGE : EXIT_INPUT;
	if (engine_select_shard(e))
		return EXIT_USAGE;
	if (take_cpu(e))
		return interrupt_pending() ? EXIT_INTERRUPTED : EXIT_USAGE;
	if (check_host(e))
		return EXIT_USAGE;
	cpus_pin_housekeeping(e->cpu);
	if (rundir_refuse_unusual(e->run, phase))
		return EXIT_INPUT;
	if (take_run(e))
		return EXIT_USAGE;
	if (rundir_prepare(e->run))
		return EXIT_SYSTEM;
	e->host_state = host_state_json(&e->problems, &e->o.ovr);
	if (open_environment(e))
		return EXIT_USAGE;
	struct begin_ctx c = { e, json_array(), NULL };
	for (size_t i = 0; i < e->problems.n; i++)
		json_array_append_new(c.problems, json_string(e->problems.items[i]));
	int rc = campaign_update(o->workspace, e->run, begin_cb, &c);
	json_decref(c.problems);
	if (rc) {
		if (c.refusal)
			ngcc_error("%s: %s; resume %s with the options it was started with "
				   "(planning, --shard, --defer, --prior), or use another --run",
				   phase, c.refusal, e->run);
		free(c.refusal);
		return rc > 0 ? EXIT_USAGE : rc == CAMPAIGN_CORRUPT ? EXIT_INPUT : EXIT_SYSTEM;
	}
	for (size_t i = 0; i < e->not_timed.n; i++)
		fprintf(stderr, "not timed: %s\n", e->not_timed.items[i]);
	return EXIT_OK;
}

int engine_list_only(struct engine *e, const struct engine_opts *o, const char *phase)
{
	memset(e, 0, sizeof *e);
	e->o = *o;
	e->phase = phase;
	e->cpu_lock_fd = -1;
	e->run_lock_fd = -1;
	e->cpu = -1;
	if (o->run) {
		char *joined = engine_run_dir(o);
		e->run = path_absolute(joined);
		free(joined);
	}
	if (!list_units(e))
		return EXIT_OK;
	return e->usage_error ? EXIT_USAGE : EXIT_INPUT;
}

struct end_ctx {
	struct engine *e;
	int exit_code;
	json_t *env;        /* environment at the end */
};

static int end_cb(json_t *doc, void *vctx)
{
	struct end_ctx *c = vctx;
	campaign_phase_end(doc, c->e->phase_index, c->exit_code);
	campaign_set_environment(doc, "environment_at_end", c->env);
	for (size_t i = 0; i < c->e->not_timed.n; i++) {
		char *note = xasprintf("not timed: %s", c->e->not_timed.items[i]);
		campaign_add_note(doc, note);
		free(note);
	}
	return 0;
}

void engine_end(struct engine *e, int exit_code)
{
	/* The full capture takes about 1.1 s: not while holding the
	 * campaign.json lock. */
	struct end_ctx c = { e, exit_code, env_capture(e->cpu, &e->counter) };
	campaign_update(e->o.workspace, e->run, end_cb, &c);
	struct env_carry *carry = e->o.carry;
	if (carry) {
		json_decref(carry->env);
		carry->env = json_incref(c.env);
		carry->cpu = e->cpu;
		carry->counter_fallback = e->o.counter_fallback;
	}
	json_decref(c.env);
}

void engine_unit_free(struct unit *u)
{
	free(u->cand);
	free(u->label);
	free(u->op);
	free(u->stem);
	free(u->library);
	free(u->library_sha256);
	free(u->calib_error);
	json_decref(u->inst);
	json_decref(u->calib_process);
}

void engine_free(struct engine *e)
{
	for (size_t i = 0; i < e->n_units; i++)
		engine_unit_free(&e->units[i]);
	free(e->units);
	if (e->assigned)
		shard_assignment_free(&e->assign);
	free(e->run);
	free(e->driver);
	sl_free(&e->problems);
	sl_free(&e->not_timed);
	selection_free(&e->sel);
	json_decref(e->host_state);
	json_decref(e->env);
	json_decref(e->env_ref);
	if (e->counter.name)
		counter_close(&e->counter);
	lock_release(e->cpu_lock_fd);
	lock_release(e->run_lock_fd);
}

char *engine_run_dir(const struct engine_opts *o)
{
	return o->run[0] == '/' ? xstrdup(o->run) : path_join(o->workspace, o->run);
}

json_t *engine_timing_record(const struct engine *e, const struct unit *u)
{
	char *path = rundir_unit_path(e->run, "records", u->cand, u->stem);
	json_t *rec = path_exists(path) ? evidence_load(path, NULL) : NULL;
	free(path);
	char *why = NULL;
	/* a run directory on resume is not trusted: the record's table first */
	if (rec && (record_check(rec, &why) ||
		    strcmp(jget_str(rec, "status", ""), ST_COMPLETE) ||
		    strcmp(jget_str(rec, "library_sha256", ""), u->library_sha256))) {
		json_decref(rec);
		rec = NULL;
	}
	free(why);
	return rec;
}

double engine_timeout(const struct engine *e, double timeout_s)
{
	return e->o.max_timeout_s > 0 && timeout_s > e->o.max_timeout_s ? e->o.max_timeout_s
									 : timeout_s;
}

int engine_spawn(const struct engine *e, const struct child_cmd *cmd, double timeout_s,
		 size_t tail_bytes, struct spawn_res *res)
{
	struct spawn_req req = {
		.cwd = e->o.workspace,
		.cpu = e->cpu,
		.timeout_s = timeout_s,
		.lim = { .as_bytes = 0, .cpu_s = 0, .fsize_bytes = 256ull << 20, .nproc = 0 },
		.want_result = 1,
		.tail_bytes = tail_bytes,
	};
	memset(res, 0, sizeof *res);
	int rc = child_cmd_run(cmd, &req, res);
	if (rc == 0 && res->strays_killed > 0)
		ngcc_warning("%s %s left %d process(es) running after it ended; they were "
			     "killed (recorded as strays_killed)", cmd->argv.items[0],
			     child_cmd_library(cmd), res->strays_killed);
	return rc;
}

void engine_counter_rate_arg(const struct engine *e, struct child_cmd *cmd)
{
	char rate[64];
	if (counter_rate_format(&e->counter, rate, sizeof rate))
		return;
	child_cmd_arg(cmd, "--counter-hz");
	child_cmd_arg(cmd, rate);
}

void engine_timing_args(const struct engine *e, struct child_cmd *cmd)
{
	child_cmd_arg(cmd, "--cpu");
	child_cmd_argf(cmd, "%d", e->cpu);
	if (e->o.counter_fallback) {
		child_cmd_arg(cmd, "--counter");
		child_cmd_arg(cmd, "fallback");
	}
	engine_counter_rate_arg(e, cmd);
}

json_t *engine_run_driver(struct engine *e, const struct unit *u, int trials,
			  long iters, int warmups, double timeout_s, int attempt)
{
	struct child_cmd cmd;
	timeout_s = engine_timeout(e, timeout_s);
	/* The library is relative to the workspace, the driver's working
	 * directory. */
	child_cmd_init(&cmd, DRIVER_NAME);
	child_cmd_arg(&cmd, "--lib");
	child_cmd_arg(&cmd, u->library);
	child_cmd_arg(&cmd, "--op");
	child_cmd_arg(&cmd, u->op);
	child_cmd_arg(&cmd, "--trials");
	child_cmd_argf(&cmd, "%d", trials);
	child_cmd_arg(&cmd, "--iters");
	child_cmd_argf(&cmd, "%ld", iters);
	child_cmd_arg(&cmd, "--warmups");
	child_cmd_argf(&cmd, "%d", warmups);
	engine_timing_args(e, &cmd);
	if (e->trial_seed_next > 0) {
		child_cmd_arg(&cmd, "--trial-seeds");
		child_cmd_argf(&cmd, "%d", e->trial_seed_next - 1);
	}
	struct spawn_res res;
	/* A child that could not even start is a failed process like any
	 * other (spawn_run printed why); res then says "not exited". */
	if (engine_spawn(e, &cmd, timeout_s, 4000, &res)) {
		spawn_res_free(&res);
		memset(&res, 0, sizeof res);
	}
	struct process_run run = { &res, timeout_s, attempt, json_incref(cmd.shown) };
	json_t *entry = record_process_entry(&run);
	spawn_res_free(&res);
	child_cmd_free(&cmd);
	return entry;
}
