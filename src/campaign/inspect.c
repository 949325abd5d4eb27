/* inspect.c — see inspect.h: plan and status. */
#include "campaign/inspect.h"
#include "campaign/estimate.h"
#include "campaign/prior.h"
#include "campaign/results.h"
#include "campaign/runstatus.h"
#include "evidence/campaign_json.h"
#include "evidence/json.h"

#include <regex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Only reference builds are profiled (docs/method.md §10.1). */
static int profiled(const struct unit *u)
{
	return !strcmp(jget_str(u->inst, "variant", "reference"), "reference");
}

static int load_priors(const struct strlist *paths, struct prior *pr)
{
	char *err = NULL;
	if (prior_load((const char *const *)paths->items, paths->n, pr, &err)) {
		ngcc_error("%s", err);
		free(err);
		return -1;
	}
	return 0;
}

/* "<ID>/<label>: why" as the engine lists instances it does not time. */
static void add_not_timed(struct run_status *st, const char *line)
{
	const char *slash = strchr(line, '/'), *colon = strstr(line, ": ");
	if (!slash || !colon || colon < slash)
		return;
	char *cand = xstrndup(line, (size_t)(slash - line));
	char *label = xstrndup(slash + 1, (size_t)(colon - slash - 1));
	run_status_add_other(st, cand, label, "*", US_NOT_TIMED, colon + 2);
	free(cand);
	free(label);
}

/* ---- status ---------------------------------------------------------------- */

/* What the run covers, from its campaign.json. */
struct coverage {
	int merged;                  /* a merge of shard runs */
	int shards[SHARD_MAX + 1];   /* [k]: shard k is covered (merged runs) */
	int deferred;                /* the deferred worker's units are covered */
	int unsharded;               /* a run of every unit was merged in */
};

static int covered(const struct engine *e, const struct coverage *c, const struct unit *u)
{
	int shard = engine_unit_shard(e, u);
	if (shard == SHARD_DEFERRED)
		return c->deferred;
	if (c->merged)
		return c->unsharded || (shard <= SHARD_MAX && c->shards[shard]);
	return e->o.shard.n == 0 || shard == e->o.shard.k;
}

/* The run's own selection replaces the options' (status takes only --run). */
static void selection_from_run(const json_t *doc, struct engine_opts *o, struct coverage *c)
{
	const json_t *cands = json_object_get(json_object_get(doc, "options"), "candidates");
	const json_t *sh = json_object_get(doc, "shards");
	const json_t *k = json_object_get(sh, "shard");
	size_t i;
	json_t *v;
	memset(c, 0, sizeof *c);
	json_array_foreach(cands, i, v)
		sl_push(&o->ids, json_string_value(v));
	if (json_is_string(json_object_get(sh, "defer")))
		o->defer = json_string_value(json_object_get(sh, "defer"));
	json_array_foreach(json_object_get(sh, "priors"), i, v)
		sl_push(&o->priors, json_string_value(v));
	long long n = jget_int(sh, "n", 1);
	if (json_is_integer(k) || json_is_array(json_object_get(sh, "merged_from")) || n > 1) {
		o->shard.n = (int)n;
		o->shard.k = json_is_integer(k) ? (int)json_integer_value(k) : 1;
	}
	o->deferred_only = json_is_string(k) && !strcmp(json_string_value(k), "deferred");
	c->deferred = o->deferred_only;
	json_array_foreach(json_object_get(sh, "merged_from"), i, v) {
		const char *label = jget_str(v, "shard", "");
		int kk = atoi(label);
		c->merged = 1;
		if (str_starts_with(label, "deferred"))
			c->deferred = 1;
		else if (!strcmp(label, "unsharded"))
			c->unsharded = c->deferred = 1;
		else if (kk >= 1 && kk <= SHARD_MAX)
			c->shards[kk] = 1;
	}
}

/* options.selections: what the run's phases were asked for when they took
 * part of a candidate only (engine.c record_selection); n == 0: all. */
struct run_selections {
	struct selection *s;
	size_t n;
};

static void selections_from_run(const json_t *doc, const char *ws, struct run_selections *rs)
{
	const json_t *list = json_object_get(json_object_get(doc, "options"), "selections");
	size_t i, k;
	json_t *entry, *v;
	memset(rs, 0, sizeof *rs);
	if (!json_is_array(list) || !json_array_size(list))
		return;
	rs->s = xcalloc(json_array_size(list), sizeof *rs->s);
	json_array_foreach(list, i, entry) {
		struct selection *sel = &rs->s[rs->n++];
		selection_init(sel);
		json_array_foreach(json_object_get(entry, "instances"), k, v)
			selection_add(sel, json_string_value(v));
		json_array_foreach(json_object_get(entry, "operations"), k, v)
			selection_add_op(sel, json_string_value(v));
		if (selection_resolve(sel, ws))
			ngcc_warning("status: the selection %zu of campaign.json options.selections "
				     "no longer matches the workspace (above); its units show as not "
				     "selected", i + 1);
	}
}

static int run_selected(const struct run_selections *rs, const struct unit *u)
{
	if (!rs->n)
		return 1;
	for (size_t i = 0; i < rs->n; i++)
		if (rs->s[i].resolved && selection_has_instance(&rs->s[i], u->cand, u->label) &&
		    selection_has_op(&rs->s[i], u->op))
			return 1;
	return 0;
}

static void run_selections_free(struct run_selections *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		selection_free(&rs->s[i]);
	free(rs->s);
}

static void warn_other_assignment(const struct engine *e, const json_t *doc)
{
	const char *have = jget_str(json_object_get(doc, "shards"), "assignment_digest", NULL);
	if (e->assigned && have && strcmp(have, e->assign.digest))
		ngcc_warning("status: the assignment recorded in %s/campaign.json (%.12s…) is not the one "
			     "the workspace gives now (%.12s…): instances or priors changed since; the "
			     "units below follow the present one", e->run, have, e->assign.digest);
}

static void fill_status(struct run_status *st, const struct engine *e, const struct coverage *c,
			const struct run_selections *rs, size_t *elsewhere)
{
	for (size_t i = 0; i < e->n_units; i++) {
		const struct unit *u = &e->units[i];
		/* A merged run answers for every shard: the units of a shard that
		 * was never merged in are work it still lacks (pending), not
		 * another run's. */
		int mine = covered(e, c, u) ||
			   (c->merged && engine_unit_shard(e, u) != SHARD_DEFERRED);
		if (mine && !run_selected(rs, u))
			run_status_add_other(st, u->cand, u->label, u->op, US_NOT_SELECTED, NULL);
		else if (mine)
			run_status_add(st, u->cand, u->label, u->op, u->library_sha256, profiled(u));
		else if (engine_unit_shard(e, u) == SHARD_DEFERRED)
			run_status_add_other(st, u->cand, u->label, u->op, US_DEFERRED, NULL);
		else
			(*elsewhere)++;
	}
	for (size_t i = 0; i < e->not_timed.n; i++)
		add_not_timed(st, e->not_timed.items[i]);
}

/* The status of o->run into st (opened here; the caller frees it), and
 * how many units belong to other shards.  EXIT_OK or an exit code after a
 * message. */
static int status_collect(const struct engine_opts *o_in, struct run_status *st, size_t *elsewhere)
{
	struct engine_opts o = *o_in;
	struct engine e;
	struct coverage cov;
	struct prior pr;
	char *err = NULL;
	char *run = engine_run_dir(&o), *abs = path_absolute(run);
	free(run);
	*elsewhere = 0;
	int rc = run_status_open(st, abs, &err) ? EXIT_INPUT : EXIT_OK;
	free(abs);
	if (rc) {
		ngcc_error("status: %s", err);
		free(err);
		return rc;
	}
	json_t *doc = campaign_load(st->run, NULL);
	memset(&o.ids, 0, sizeof o.ids);
	memset(&o.ops, 0, sizeof o.ops);
	memset(&o.priors, 0, sizeof o.priors);
	selection_from_run(doc, &o, &cov);
	campaign_planning_read(json_object_get(doc, "planning"), &o.planning);
	rc = engine_list_only(&e, &o, "status");
	/* The assignment reads the priors; without one they are read here. */
	if (!rc && engine_assign(&e, &pr))
		rc = EXIT_INPUT;
	if (!rc && !e.assigned && load_priors(&o.priors, &pr))
		rc = EXIT_INPUT;
	if (!rc) {
		struct est_model m;
		struct run_selections rs;
		est_model_defaults(&m);
		warn_other_assignment(&e, doc);
		selections_from_run(doc, o.workspace, &rs);
		for (size_t i = 0; i < rs.n; i++)
			sl_push_owned(&st->selections, selection_describe(&rs.s[i]));
		fill_status(st, &e, &cov, &rs, elsewhere);
		run_selections_free(&rs);
		run_status_finish(st, &o.planning, &m, &pr);
		prior_free(&pr);
		if (!st->n_units) {
			ngcc_error("status: %s is responsible for no unit (no built candidate matches it)", st->run);
			rc = EXIT_INPUT;
		}
	}
	engine_free(&e);
	json_decref(doc);  /* after the engine: o.defer points into it */
	sl_free(&o.ids);
	sl_free(&o.priors);
	return rc;
}

int inspect_status(const struct engine_opts *o, const struct inspect_opts *io)
{
	if (!o->run) {
		ngcc_error("status needs --run DIR");
		return EXIT_USAGE;
	}
	struct run_status st;
	size_t elsewhere = 0;
	int rc = status_collect(o, &st, &elsewhere);
	if (!rc && io->json) {
		json_t *j = run_status_json(&st);
		json_object_set_new(j, "units_in_other_shards", json_integer((json_int_t)elsewhere));
		char *text = evidence_dumps(j);
		fputs(text, stdout);
		free(text);
		json_decref(j);
	} else if (!rc) {
		run_status_print(&st, stdout);
		if (elsewhere)
			printf("%zu unit(s) belong to other shards of this campaign\n", elsewhere);
	}
	if (!rc)
		rc = st.settled ? EXIT_OK : EXIT_FAILED;
	run_status_free(&st);
	return rc;
}

int inspect_figures(const struct engine_opts *o)
{
	if (!o->run) {
		ngcc_error("status needs --run DIR");
		return EXIT_USAGE;
	}
	char *run = engine_run_dir(o), *abs = path_absolute(run), *cj = path_join(abs, "campaign.json");
	int rc = EXIT_INPUT;
	if (!path_exists(cj))
		ngcc_error("status: %s does not exist: %s is not a run directory (or nothing ran in "
			   "it yet)", cj, abs);
	else if (results_print(o, abs, stdout) > 0)
		rc = EXIT_OK;
	free(cj);
	free(abs);
	free(run);
	return rc;
}

int inspect_unselected(const char *workspace, const char *run, struct strlist *out)
{
	struct engine_opts o;
	struct run_status st;
	size_t elsewhere;
	engine_opts_init(&o, workspace, 0);
	o.run = run;
	int rc = status_collect(&o, &st, &elsewhere);
	for (size_t i = 0; !rc && i < st.n_units; i++)
		if (st.units[i].measure == US_NOT_SELECTED)
			sl_push_owned(out, xasprintf("%s/%s %s", st.units[i].cand, st.units[i].label,
						     st.units[i].op));
	run_status_free(&st);
	engine_opts_free(&o);
	return rc;
}

/* ---- plan ------------------------------------------------------------------ */

static int allowed_cpus(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set))
		return 1;
	return CPU_COUNT(&set);
}

/* Each unit with its figures: the run's calibration, else a prior record,
 * else unknown; what the run already holds costs nothing. */
static void add_units(struct estimate *est, const struct engine *e, struct run_status *st,
		      const struct prior *pr)
{
	for (size_t i = 0; i < e->n_units; i++) {
		const struct unit *u = &e->units[i];
		const struct status_unit *su = NULL;
		if (st) {
			run_status_add(st, u->cand, u->label, u->op, u->library_sha256, profiled(u));
			su = &st->units[st->n_units - 1];
		}
		const struct prior_unit *pu = prior_find_unit(pr, u->cand, u->label, u->op);
		enum est_source src = su && su->calibrated ? EST_CALIBRATION : pu ? EST_PRIOR : EST_UNKNOWN;
		double t1 = src == EST_CALIBRATION ? su->t1_s : pu ? pu->t1_s : 0;
		double S = src == EST_CALIBRATION ? su->setup_s : pu ? pu->setup_s : 0;
		struct est_unit *eu = est_add_unit(est, u->cand, u->label, u->op, src, t1, S);
		eu->need_calibrate = !(su && su->calibrated);
		eu->need_profile = profiled(u);
		if (su) {
			eu->need_measure = su->measure != US_COMPLETE && su->measure != US_GIVEN_UP;
			eu->need_memory = su->memory != US_COMPLETE && su->memory != US_GIVEN_UP;
			eu->need_profile = profiled(u) && su->profile != US_COMPLETE && su->profile != US_GIVEN_UP;
		}
	}
}

int inspect_plan(const struct engine_opts *o_in, const struct inspect_opts *io)
{
	struct engine_opts o = *o_in;
	struct engine e;
	struct prior pr;
	struct run_status st;
	int have_run = 0;
	char *err = NULL;
	if (o.run) {
		char *run = engine_run_dir(&o), *abs = path_absolute(run);
		free(run);
		char *cj = path_join(abs, "campaign.json");
		if (path_exists(cj)) {
			if (run_status_open(&st, abs, &err)) {
				ngcc_error("plan: %s", err);
				free(err);
				free(cj);
				free(abs);
				return EXIT_INPUT;
			}
			have_run = 1;
			json_t *doc = campaign_load(abs, NULL);
			campaign_planning_read(json_object_get(doc, "planning"), &o.planning);
			json_decref(doc);
		}
		free(cj);
		free(abs);
	}
	int rc = engine_list_only(&e, &o, "plan");
	if (!rc && load_priors(&o.priors, &pr))
		rc = EXIT_INPUT;
	if (!rc && !e.n_units) {
		ngcc_error("plan: no unit to measure: build and run the KATs first (`ngcc-perf build`, `ngcc-perf kat`)");
		prior_free(&pr);
		rc = EXIT_INPUT;
	}
	regex_t re;
	if (!rc && o.defer && regcomp(&re, o.defer, REG_EXTENDED | REG_NOSUB)) {
		ngcc_error("plan: --defer '%s' is not an extended regular expression", o.defer);
		prior_free(&pr);
		rc = EXIT_USAGE;
	}
	if (!rc) {
		struct est_model m;
		struct estimate est;
		est_model_defaults(&m);
		m.memory_pass = io->memory_pass;
		m.profile = io->profile;
		m.input_pool = o.input_pool;
		m.sampling = io->sampling;
		est_init(&est, &o.planning, &m);
		add_units(&est, &e, have_run ? &st : NULL, &pr);
		est_compute(&est, io->max_cpus > 0 ? io->max_cpus : allowed_cpus(), o.defer ? &re : NULL);
		if (io->json) {
			json_t *j = est_json(&est);
			char *text = evidence_dumps(j);
			fputs(text, stdout);
			free(text);
			json_decref(j);
		} else {
			est_print(&est, stdout, io->top);
			for (size_t i = 0; i < e.not_timed.n; i++)
				printf("not timed: %s\n", e.not_timed.items[i]);
		}
		est_free(&est);
		prior_free(&pr);
		if (o.defer)
			regfree(&re);
	}
	if (have_run)
		run_status_free(&st);
	engine_free(&e);
	return rc;
}
