/*
 * engine_shard.c — a measuring worker's share of the campaign
 * (docs/method.md §13) and its benchmark CPU's background disturbance
 * (R7, §4.4): which units this shard or the deferred worker measures,
 * what campaign.json records of it, and the probe the disturbed rule
 * allows for.
 */
#include "campaign/engine.h"
#include "campaign/prior.h"
#include "evidence/campaign_json.h"
#include "evidence/json.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sharding(const struct engine_opts *o)
{
	return o->shard.n > 0 || o->defer || o->deferred_only;
}

/* The instance keys of the listed units, once each, and their prior costs. */
static size_t instance_keys(const struct engine *e, const struct prior *pr, char ***keys,
			    double **costs)
{
	size_t n = 0;
	*keys = xcalloc(e->n_units + 1, sizeof **keys);
	*costs = xcalloc(e->n_units + 1, sizeof **costs);
	for (size_t i = 0; i < e->n_units; i++) {
		char *key = xasprintf("%s/%s", e->units[i].cand, e->units[i].label);
		int seen = 0;
		for (size_t j = 0; j < n && !seen; j++)
			seen = !strcmp((*keys)[j], key);
		if (seen) {
			free(key);
			continue;
		}
		(*costs)[n] = prior_instance_wall(pr, e->units[i].cand, e->units[i].label);
		(*keys)[n++] = key;
	}
	return n;
}

int engine_unit_shard(const struct engine *e, const struct unit *u)
{
	if (!e->assigned)
		return 1;
	char *key = xasprintf("%s/%s", u->cand, u->label);
	int shard = shard_of(&e->assign, key);
	free(key);
	return shard;
}

/* Keep the units whose instance is this worker's. */
static void keep_mine(struct engine *e)
{
	size_t w = 0;
	for (size_t i = 0; i < e->n_units; i++) {
		int shard = engine_unit_shard(e, &e->units[i]);
		int mine = e->o.deferred_only ? shard == SHARD_DEFERRED :
			   shard != SHARD_DEFERRED && (e->o.shard.n == 0 || shard == e->o.shard.k);
		if (mine) {
			e->units[w++] = e->units[i];
		} else {
			engine_unit_free(&e->units[i]);
			e->n_elsewhere++;
		}
	}
	e->n_units = w;
}

int engine_assign(struct engine *e, struct prior *priors)
{
	const struct engine_opts *o = &e->o;
	if (priors)
		memset(priors, 0, sizeof *priors);
	if (!sharding(o))
		return 0;
	if (o->deferred_only && !o->defer) {
		ngcc_error("%s: --deferred-only needs --defer REGEX (the instances to measure)", e->phase);
		return -1;
	}
	regex_t re;
	if (o->defer && regcomp(&re, o->defer, REG_EXTENDED | REG_NOSUB)) {
		ngcc_error("%s: --defer '%s' is not an extended regular expression", e->phase, o->defer);
		return -1;
	}
	struct prior pr;
	char *err = NULL;
	if (prior_load((const char *const *)o->priors.items, o->priors.n, &pr, &err)) {
		ngcc_error("%s: %s", e->phase, err);
		free(err);
		if (o->defer)
			regfree(&re);
		return -1;
	}
	char **keys;
	double *costs;
	size_t n = instance_keys(e, &pr, &keys, &costs);
	shard_assign((const char *const *)keys, costs, n, o->shard.n > 0 ? o->shard.n : 1,
		     o->defer ? &re : NULL, &e->assign);
	e->assigned = 1;
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	free(costs);
	if (priors)
		*priors = pr;
	else
		prior_free(&pr);
	if (o->defer)
		regfree(&re);
	return 0;
}

int engine_select_shard(struct engine *e)
{
	if (engine_assign(e, NULL))
		return -1;
	if (!e->assigned)
		return 0;
	keep_mine(e);
	char *name = e->o.deferred_only ? xstrdup("deferred worker") :
		     xasprintf("shard %d/%d", e->o.shard.n ? e->o.shard.k : 1,
			       e->o.shard.n ? e->o.shard.n : 1);
	if (!e->n_units)
		fprintf(stderr, "%s: %s: no instance is assigned to this worker (%zu unit(s) elsewhere); "
			"nothing to measure here\n", e->phase, name, e->n_elsewhere);
	else
		fprintf(stderr, "%s: %s: %zu unit(s) here, %zu left to %s (assignment %.12s…)\n",
			e->phase, name, e->n_units, e->n_elsewhere,
			e->o.deferred_only ? "the shards" : "other shards or the deferred worker",
			e->assign.digest);
	free(name);
	return 0;
}

json_t *engine_shards_json(const struct engine *e)
{
	const struct engine_opts *o = &e->o;
	json_t *sh = json_object();
	json_object_set_new(sh, "n", json_integer(o->shard.n > 0 ? o->shard.n : 1));
	if (o->deferred_only)
		json_object_set_new(sh, "shard", json_string("deferred"));
	else
		json_object_set_new(sh, "shard", o->shard.n > 0 ? json_integer(o->shard.k) : json_null());
	json_object_set_new(sh, "cpus", json_pack("[i]", e->cpu));
	json_object_set_new(sh, "assignment_digest", e->assigned ? json_string(e->assign.digest) : json_null());
	json_object_set_new(sh, "defer", jstr_or_null(o->defer));
	json_t *priors = json_array();
	for (size_t i = 0; i < o->priors.n; i++)
		json_array_append_new(priors, json_string(o->priors.items[i]));
	json_object_set_new(sh, "priors", priors);
	return sh;
}

/* The run keeps the first worker's assignment; a resume must follow it. */
int engine_shards_check(const struct engine *e, json_t *doc, char **why)
{
	json_t *have = json_object_get(doc, "shards");
	/* A merged run keeps what merge recorded: a later measure on it (failed
	 * units again, the repeatability sample of `launch`'s final job) times
	 * no shard's units, and the phase records its own CPU. */
	if (json_is_array(json_object_get(have, "merged_from")))
		return 0;
	json_t *want = engine_shards_json(e);
	int first = !json_is_object(have) || !json_object_get(have, "shard");
	if (!first) {
		const char *keys[] = { "n", "shard", "assignment_digest", "defer", "priors" };
		for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
			json_t *a = json_object_get(have, keys[i]), *b = json_object_get(want, keys[i]);
			if (!a || !json_equal(a, b)) {
				char *sa = a ? json_dumps(a, JSON_ENCODE_ANY) : xstrdup("missing");
				char *sb = json_dumps(b, JSON_ENCODE_ANY);
				*why = xasprintf("this run directory holds shards.%s = %s, this worker has %s "
						 "(another --shard, --defer or --prior, or the instances changed)",
						 keys[i], sa, sb);
				free(sa);
				free(sb);
				json_decref(want);
				return -1;
			}
		}
		/* The CPUs it ran on (--cpu auto may pick another on resume). */
		json_t *cpus = json_object_get(have, "cpus");
		size_t i;
		json_t *c;
		int seen = 0;
		json_array_foreach(cpus, i, c)
			seen |= json_integer_value(c) == e->cpu;
		if (!seen && json_is_array(cpus))
			json_array_append_new(cpus, json_integer(e->cpu));
		json_decref(want);
		return 0;
	}
	json_object_set_new(doc, "shards", want);
	return 0;
}

/* ---- the background probe ------------------------------------------------ */

json_t *engine_shard_label(const struct engine *e)
{
	if (e->o.deferred_only)
		return json_string("deferred");
	if (e->o.shard.n > 0)
		return json_sprintf("%d/%d", e->o.shard.k, e->o.shard.n);
	return json_null();
}

static int find_background(struct engine *e, const json_t *doc)
{
	size_t i;
	json_t *b;
	json_array_foreach(json_object_get(doc, "background"), i, b)
		if (jget_int(b, "cpu", -1) == e->cpu && !background_from_json(b, &e->background))
			return 1;
	return 0;
}

static int add_background_cb(json_t *doc, void *vctx)
{
	struct engine *e = vctx;
	if (find_background(e, doc))
		return 1; /* another phase of the run probed meanwhile: use it */
	json_t *list = json_object_get(doc, "background");
	if (!json_is_array(list)) {
		list = json_array();
		json_object_set_new(doc, "background", list);
	}
	json_t *b = background_json(&e->background);
	json_object_set_new(b, "shard", engine_shard_label(e));
	json_array_append_new(list, b);
	return 0;
}

int engine_background(struct engine *e)
{
	json_t *doc = campaign_load(e->run, NULL);
	int have = doc && find_background(e, doc);
	json_decref(doc);
	if (!have) {
		char *err = NULL;
		if (background_measure(e->cpu, &e->background, &err)) {
			ngcc_error("%s: %s", e->phase, err);
			free(err);
			return -1;
		}
		if (campaign_update(e->o.workspace, e->run, add_background_cb, e) < 0)
			return -1;
		if (e->background.contended)
			fprintf(stderr, "%s: CPU %d is busy: another task took the CPU from the background "
				"probe in %d of %d windows; trials are retried by the plain rule (R7)\n",
				e->phase, e->cpu, e->background.n_windows - e->background.quiet_windows,
				e->background.n_windows);
		else
			fprintf(stderr, "%s: background of CPU %d: %.1f involuntary switch(es)/s, "
				"%.2f migration(s)/s (trials are retried only beyond it)\n", e->phase,
				e->cpu, e->background.invol_per_s_max, e->background.migrations_per_s_max);
	}
	e->have_background = 1;
	return 0;
}
