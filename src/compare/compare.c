/*
 * compare.c — two loaded datasets compared (compare.h): the rows of time and
 * cycles per call with their bootstrap intervals and verdicts, the other
 * figures (sizes, KAT status, hash and DRNG shares), what only one side
 * has, and every setting that differs between the sides.
 */
#include "compare/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/json.h"
#include "evidence/record.h"
#include "stats/robust.h"
#include "stats/stats.h"

const char *cmp_verdict_word(enum cmp_verdict v)
{
	switch (v) {
	case CMP_REGRESSION: return "regression";
	case CMP_IMPROVEMENT: return "improvement";
	case CMP_NA: return "not compared";
	default: return "no significant change";
	}
}

/* ---- growing the result -------------------------------------------------- */

static struct cmp_row *new_row(struct cmp_result *r)
{
	r->rows = xrealloc(r->rows, (r->n_rows + 1) * sizeof *r->rows);
	struct cmp_row *row = &r->rows[r->n_rows++];
	memset(row, 0, sizeof *row);
	return row;
}

static void add_fact(struct cmp_result *r, const char *cand, const char *stem, const char *op,
		     const char *what, char *a, char *b)
{
	r->facts = xrealloc(r->facts, (r->n_facts + 1) * sizeof *r->facts);
	struct cmp_fact *f = &r->facts[r->n_facts++];
	f->cand = xstrdup(cand);
	f->stem = xstrdup(stem);
	f->op = op ? xstrdup(op) : NULL;
	f->what = xstrdup(what);
	f->a = a;
	f->b = b;
	f->differs = strcmp(a, b) != 0;
}

static void add_mismatch(struct cmp_result *r, const char *what, char *a, char *b)
{
	r->mism = xrealloc(r->mism, (r->n_mism + 1) * sizeof *r->mism);
	r->mism[r->n_mism++] = (struct cmp_mismatch){ xstrdup(what), a, b };
}

/* A JSON value as text: strings as they are, null/absent as "–", others
 * compact JSON.  Malloc'd. */
static char *value_text(const json_t *v)
{
	if (!v || json_is_null(v))
		return xstrdup("\xe2\x80\x93");
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS |
			     JSON_REAL_PRECISION(12));
	char *out = xstrdup(s ? s : "?");
	free(s);
	return out;
}

/* Adds a mismatch when the two values differ (json_equal). */
static void compare_value(struct cmp_result *r, const char *what, const json_t *a,
			  const json_t *b)
{
	int na = !a || json_is_null(a), nb = !b || json_is_null(b);
	if ((na && nb) || (a && b && json_equal(a, b)))
		return;
	add_mismatch(r, what, value_text(a), value_text(b));
}

/* Every key of either object (a's order, then b's others) compared. */
static void compare_object(struct cmp_result *r, const char *prefix, const json_t *a,
			   const json_t *b, const char *const *skip)
{
	struct strlist keys = STRLIST_INIT;
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)a, k, v)
		sl_push(&keys, k);
	json_object_foreach((json_t *)b, k, v)
		if (!sl_contains(&keys, k))
			sl_push(&keys, k);
	for (size_t i = 0; i < keys.n; i++) {
		int skipped = 0;
		for (size_t s = 0; skip && skip[s]; s++)
			skipped |= !strcmp(skip[s], keys.items[i]);
		if (skipped)
			continue;
		char *what = xasprintf("%s%s", prefix, keys.items[i]);
		compare_value(r, what, json_object_get(a, keys.items[i]),
			      json_object_get(b, keys.items[i]));
		free(what);
	}
	sl_free(&keys);
}

/* ---- settings ------------------------------------------------------------ */

/* The environment fields that decide whether two runs' times are comparable. */
static const char *const env_keys[] = {
	"hostname", "architecture", "cpu_model", "machine", "microcode", "virtualized",
	"logical_cpus_online", "memory_total_kib", "os", "kernel", "compiler", "build_tool",
	"perf_event_paranoid", "cpufreq_governor", "cpufreq_driver", "cpufreq_min_khz",
	"cpufreq_max_khz", "intel_pstate_no_turbo", "cpufreq_boost", "smt_control",
	"core_clock_mhz", "isolcpus", "nohz_full", "deepest_cstate", "thp", "aslr", NULL,
};

static void compare_settings(struct cmp_result *r, const struct dataset *a,
			     const struct dataset *b)
{
	const json_t *ca = a->campaign, *cb = b->campaign;
	json_t *ia = json_string(a->system_id ? a->system_id : "");
	json_t *ib = json_string(b->system_id ? b->system_id : "");
	compare_value(r, "system id", ia, ib);
	json_decref(ia);
	json_decref(ib);
	const json_t *ea = ds_environment(a), *eb = ds_environment(b);
	for (size_t i = 0; env_keys[i]; i++) {
		char *what = xasprintf("environment.%s", env_keys[i]);
		compare_value(r, what, json_object_get(ea, env_keys[i]),
			      json_object_get(eb, env_keys[i]));
		free(what);
	}
	compare_value(r, "environment.counter.name",
		      json_object_get(json_object_get(ea, "counter"), "name"),
		      json_object_get(json_object_get(eb, "counter"), "name"));
	compare_object(r, "tool.", json_object_get(ca, "tool"), json_object_get(cb, "tool"), NULL);
	compare_object(r, "planning.", json_object_get(ca, "planning"),
		       json_object_get(cb, "planning"), NULL);
	static const char *const skip_opts[] = { "candidates", NULL };
	compare_object(r, "options.", json_object_get(ca, "options"),
		       json_object_get(cb, "options"), skip_opts);
	compare_object(r, "arch_config.", json_object_get(ca, "arch_config"),
		       json_object_get(cb, "arch_config"), NULL);
	compare_value(r, "host_problems", json_object_get(ca, "host_problems"),
		      json_object_get(cb, "host_problems"));
}

/* ---- bootstrap ----------------------------------------------------------- */

/* Mean per call (ns or cycles) of n draws from t. */
static double draw_mean(const struct trial *t, size_t n, int cycles, uint64_t *state)
{
	double sum = 0, calls = 0;
	for (size_t i = 0; i < n; i++) {
		const struct trial *x = &t[splitmix64_next(state) % n];
		sum += (double)(cycles ? x->cycles : x->ns);
		calls += (double)x->calls;
	}
	return calls > 0 ? sum / calls : 0;
}

/* The 95 % percentile interval of B/A over R resamples (compare.h). */
static void bootstrap_ratio(const struct trial *ta, size_t na, const struct trial *tb, size_t nb,
			    int cycles, unsigned resamples, uint64_t seed, double *lo, double *hi)
{
	double *ratios = xcalloc(resamples, sizeof *ratios);
	uint64_t state = seed;
	size_t n = 0;
	for (unsigned k = 0; k < resamples; k++) {
		double ma = draw_mean(ta, na, cycles, &state);
		double mb = draw_mean(tb, nb, cycles, &state);
		if (ma > 0)
			ratios[n++] = mb / ma;
	}
	stats_sort(ratios, n);
	*lo = n ? robust_percentile_sorted(ratios, n, 0.025) : NAN;
	*hi = n ? robust_percentile_sorted(ratios, n, 0.975) : NAN;
	free(ratios);
}

static size_t record_trials(const struct ds_record *rec, struct trial **t)
{
	return record_flatten_trials(json_object_get(rec->j, "processes"), t);
}

static enum cmp_verdict verdict_of(const struct cmp_ratio *x, double threshold)
{
	if (!x->valid)
		return CMP_NA;
	if (x->lo > 1 + threshold)
		return CMP_REGRESSION;
	if (x->hi < 1 - threshold)
		return CMP_IMPROVEMENT;
	return CMP_SAME;
}

/*
 * EXTENSION POINT — per-call samples (issue 28 item 1, samples/, format
 * ngcc-perf/samples/1): when both sides hold the samples of a unit, the
 * interval could be drawn from them instead of the trials (many more
 * values, the same resampling scheme).  Not done: the interval is always a
 * bootstrap over the trials, which every record has, and every output says
 * so (cmp_method_sentence); a sample-based interval must say which it used
 * per row.
 */
static void compare_records(struct cmp_result *r, struct cmp_row *row, const struct ds_record *ra,
			    const struct ds_record *rb)
{
	if (!ds_record_complete(ra) || !ds_record_complete(rb)) {
		row->verdict = CMP_NA;
		row->note = xasprintf("record not complete in %s",
				      !ds_record_complete(ra) ? r->opts.name_a : r->opts.name_b);
		return;
	}
	struct trial *ta = NULL, *tb = NULL;
	size_t na = record_trials(ra, &ta), nb = record_trials(rb, &tb);
	row->trials_a = na;
	row->trials_b = nb;
	if (!na || !nb) {
		row->verdict = CMP_NA;
		row->note = xstrdup("a record holds no trials");
		free(ta);
		free(tb);
		return;
	}
	struct timing_stats sa, sb;
	stats_compute(ta, na, &sa);
	stats_compute(tb, nb, &sb);
	uint64_t seed = robust_bootstrap_seed(row->cand, row->stem, row->op) ^ r->opts.seed;
	if (sa.mean_seconds > 0) {
		row->time = (struct cmp_ratio){ 1, sa.mean_seconds, sb.mean_seconds,
						sb.mean_seconds / sa.mean_seconds, 0, 0 };
		bootstrap_ratio(ta, na, tb, nb, 0, r->opts.resamples, seed, &row->time.lo,
				&row->time.hi);
	}
	if (sa.has_mean_cycles && sb.has_mean_cycles && sa.mean_cycles > 0) {
		row->cycles = (struct cmp_ratio){ 1, sa.mean_cycles, sb.mean_cycles,
						  sb.mean_cycles / sa.mean_cycles, 0, 0 };
		bootstrap_ratio(ta, na, tb, nb, 1, r->opts.resamples, seed, &row->cycles.lo,
				&row->cycles.hi);
	}
	row->verdict = verdict_of(&row->time, r->opts.threshold);
	if (row->verdict == CMP_NA)
		row->note = xstrdup("no time in the trials of A");
	free(ta);
	free(tb);
}

/* ---- other figures ------------------------------------------------------- */

/* The sizes object of the instance's first complete record, or NULL. */
static const json_t *instance_sizes(const struct ds_instance *in)
{
	for (size_t i = 0; i < in->n_rec; i++)
		if (ds_record_complete(&in->rec[i]))
			return json_object_get(in->rec[i].j, "sizes");
	return NULL;
}

static void compare_sizes(struct cmp_result *r, const char *cand, const struct ds_instance *a,
			  const struct ds_instance *b)
{
	const json_t *sa = instance_sizes(a), *sb = instance_sizes(b);
	if (!sa || !sb)
		return;
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)sa, k, v) {
		if (!json_is_integer(v) && !json_is_integer(json_object_get(sb, k)))
			continue;
		add_fact(r, cand, a->stem, NULL, k, value_text(v), value_text(json_object_get(sb, k)));
	}
}

static void compare_kat(struct cmp_result *r, const char *cand, const struct ds_instance *a,
			const struct ds_instance *b)
{
	add_fact(r, cand, a->stem, NULL, "KAT", xstrdup(a->kat_status ? a->kat_status : "?"),
		 xstrdup(b->kat_status ? b->kat_status : "?"));
}

static char *share_text(const struct ds_profile *p, const char *key)
{
	if (!p || !ds_profile_complete(p))
		return xstrdup("\xe2\x80\x93");
	const json_t *v = json_object_get(p->j, key);
	if (!json_is_number(v))
		return xstrdup(strcmp(key, "drng_share") ? "\xe2\x80\x93" : "0.0 %");
	return xasprintf("%.1f %%", 100 * json_number_value(v));
}

static void compare_shares(struct cmp_result *r, const char *cand, const struct ds_instance *a,
			   const struct ds_instance *b, const char *op)
{
	const struct ds_profile *pa = ds_find_profile(a, op), *pb = ds_find_profile(b, op);
	if (!pa && !pb)
		return;
	add_fact(r, cand, a->stem, op, "hash share", share_text(pa, "hash_share"),
		 share_text(pb, "hash_share"));
	add_fact(r, cand, a->stem, op, "DRNG share", share_text(pa, "drng_share"),
		 share_text(pb, "drng_share"));
}

/* ---- matching the two sides ---------------------------------------------- */

static const struct ds_candidate *find_cand(const struct dataset *ds, const char *id)
{
	for (size_t i = 0; i < ds->n_cand; i++)
		if (!strcmp(ds->cand[i].id, id))
			return &ds->cand[i];
	return NULL;
}

static const struct ds_instance *find_inst(const struct ds_candidate *c, const char *stem)
{
	for (size_t i = 0; c && i < c->n_inst; i++)
		if (!strcmp(c->inst[i].stem, stem))
			return &c->inst[i];
	return NULL;
}

/* The id on the other side of candidate id of side a_side (1: A). */
static const char *other_id(const struct cmp_opts *o, const char *id, int a_side)
{
	const char *from = a_side ? o->map_a : o->map_b, *to = a_side ? o->map_b : o->map_a;
	if (from && to && !strcmp(id, from))
		return to;
	if (from && to && !strcmp(id, to))
		return NULL;   /* mapped away: its namesake is not its match */
	return id;
}

static const struct ds_candidate *match_cand(const struct dataset *other,
					     const struct cmp_opts *o, const char *id, int a_side)
{
	const char *want = other_id(o, id, a_side);
	return want ? find_cand(other, want) : NULL;
}

/* The candidate filter, by A's id. */
static int wanted(const struct cmp_opts *o, const char *id, int a_side)
{
	const char *a_id = a_side ? id : other_id(o, id, 0);
	return !o->only_candidate || (a_id && !strcmp(o->only_candidate, a_id));
}

/* What x has that y lacks, into only. */
static void one_side(const struct dataset *x, const struct dataset *y, const struct cmp_opts *o,
		     int x_is_a, struct strlist *only)
{
	for (size_t i = 0; i < x->n_cand; i++) {
		const struct ds_candidate *c = &x->cand[i], *cy = match_cand(y, o, c->id, x_is_a);
		if (!wanted(o, c->id, x_is_a))
			continue;
		if (!cy) {
			sl_push(only, c->id);
			continue;
		}
		for (size_t k = 0; k < c->n_inst; k++) {
			const struct ds_instance *in = &c->inst[k], *iy = find_inst(cy, in->stem);
			if (!iy) {
				sl_push_owned(only, xasprintf("%s/%s", c->id, in->stem));
				continue;
			}
			for (size_t j = 0; j < in->n_rec; j++)
				if (!ds_find_record(iy, in->rec[j].op))
					sl_push_owned(only, xasprintf("%s/%s %s", c->id, in->stem,
								      in->rec[j].op));
		}
	}
}

static void compare_instance(struct cmp_result *r, const char *cand, const struct ds_instance *a,
			     const struct ds_instance *b)
{
	compare_kat(r, cand, a, b);
	compare_sizes(r, cand, a, b);
	for (size_t j = 0; j < a->n_rec; j++) {
		const struct ds_record *ra = &a->rec[j], *rb = ds_find_record(b, ra->op);
		if (!rb)
			continue;
		struct cmp_row *row = new_row(r);
		row->cand = xstrdup(cand);
		row->stem = xstrdup(a->stem);
		row->op = xstrdup(ra->op);
		compare_records(r, row, ra, rb);
		char *what = xasprintf("build_flags of %s/%s %s", cand, a->stem, ra->op);
		compare_value(r, what, json_object_get(ra->j, "build_flags"),
			      json_object_get(rb->j, "build_flags"));
		free(what);
		compare_shares(r, cand, a, b, ra->op);
	}
}

int cmp_compute(const struct dataset *a, const struct dataset *b, const struct cmp_opts *o,
		struct cmp_result *out, char **err)
{
	memset(out, 0, sizeof *out);
	if (!(o->threshold >= 0 && o->threshold < 1)) {
		*err = xasprintf("threshold %g is outside [0, 1) (a fraction: 0.05 is 5 %%)",
				 o->threshold);
		return -1;
	}
	if (o->resamples < 100 || o->resamples > CMP_MAX_RESAMPLES) {
		*err = xasprintf("%u resamples: give 100 to %u", o->resamples, CMP_MAX_RESAMPLES);
		return -1;
	}
	if (!o->map_a != !o->map_b) {
		*err = xstrdup("a candidate map needs both ids (A's and B's)");
		return -1;
	}
	out->opts = *o;
	if (o->map_a && strcmp(o->map_a, o->map_b))
		add_mismatch(out, "candidate (mapped)", xstrdup(o->map_a), xstrdup(o->map_b));
	compare_settings(out, a, b);
	for (size_t i = 0; i < a->n_cand; i++) {
		const struct ds_candidate *ca = &a->cand[i], *cb = match_cand(b, o, ca->id, 1);
		if (!cb || !wanted(o, ca->id, 1))
			continue;
		for (size_t k = 0; k < ca->n_inst; k++) {
			const struct ds_instance *ib = find_inst(cb, ca->inst[k].stem);
			if (ib)
				compare_instance(out, ca->id, &ca->inst[k], ib);
		}
	}
	one_side(a, b, o, 1, &out->only_a);
	one_side(b, a, o, 0, &out->only_b);
	for (size_t i = 0; i < out->n_rows; i++)
		switch (out->rows[i].verdict) {
		case CMP_REGRESSION: out->n_regression++; break;
		case CMP_IMPROVEMENT: out->n_improvement++; break;
		case CMP_NA: out->n_na++; break;
		default: out->n_same++; break;
		}
	return 0;
}

int cmp_exit_status(const struct cmp_result *r)
{
	return r->n_regression > 0;
}

void cmp_free(struct cmp_result *r)
{
	for (size_t i = 0; i < r->n_rows; i++) {
		free(r->rows[i].cand);
		free(r->rows[i].stem);
		free(r->rows[i].op);
		free(r->rows[i].note);
	}
	for (size_t i = 0; i < r->n_facts; i++) {
		struct cmp_fact *f = &r->facts[i];
		free(f->cand);
		free(f->stem);
		free(f->op);
		free(f->what);
		free(f->a);
		free(f->b);
	}
	for (size_t i = 0; i < r->n_mism; i++) {
		free(r->mism[i].what);
		free(r->mism[i].a);
		free(r->mism[i].b);
	}
	free(r->rows);
	free(r->facts);
	free(r->mism);
	sl_free(&r->only_a);
	sl_free(&r->only_b);
	memset(r, 0, sizeof *r);
}
