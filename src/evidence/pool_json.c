/* pool_json.c — see pool_json.h: the pool record's derived figures, its
 * table of fields and its resume rule. */
#include "evidence/pool_json.h"
#include "evidence/check.h"
#include "evidence/json.h"
#include "method/seeds.h"
#include "stats/stats.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pool_flag(double ratio, double threshold)
{
	return ratio > threshold;
}

/* ---- statistics ------------------------------------------------------------ */

struct pool_stats {
	size_t n;               /* inputs */
	double *median;         /* per input, ns per call */
	double min, max, ratio; /* ratio < 0: none */
};

/* The median ns per call of one input's batches; -1 when they are not a
 * non-empty array of non-negative integers. */
static double input_median(const json_t *input, long long calls)
{
	const json_t *a = json_object_get(input, "batch_ns");
	size_t n = json_array_size(a), i;
	json_t *v;
	if (!n || calls < 1)
		return -1;
	double *x = xcalloc(n, sizeof *x);
	json_array_foreach(a, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0) {
			free(x);
			return -1;
		}
		x[i] = (double)json_integer_value(v) / (double)calls;
	}
	double m = stats_median(x, n);
	free(x);
	return m;
}

/* From rec's per_input batches; -1 when they are malformed. */
static int compute_stats(const json_t *rec, struct pool_stats *s)
{
	const json_t *inputs = json_object_get(rec, "per_input");
	long long calls = jget_int(json_object_get(rec, "plan"), "calls_per_batch", 0);
	size_t i;
	json_t *in;
	memset(s, 0, sizeof *s);
	s->ratio = -1;
	if (!json_is_array(inputs))
		return -1;
	s->n = json_array_size(inputs);
	s->median = xcalloc(s->n ? s->n : 1, sizeof *s->median);
	json_array_foreach(inputs, i, in) {
		s->median[i] = input_median(in, calls);
		if (s->median[i] < 0)
			return -1;
		if (!i || s->median[i] < s->min)
			s->min = s->median[i];
		if (!i || s->median[i] > s->max)
			s->max = s->median[i];
	}
	if (s->n && s->min > 0)
		s->ratio = s->max / s->min;
	return 0;
}

static json_t *real_or_null(int have, double v)
{
	return have ? json_real(v) : json_null();
}

void pool_derive(json_t *rec)
{
	struct pool_stats s;
	int ok = !compute_stats(rec, &s) && s.n;
	const json_t *inputs = json_object_get(rec, "per_input");
	size_t i;
	json_t *in;
	json_array_foreach(inputs, i, in)
		json_object_set_new(in, "median_ns_per_call",
				    real_or_null(ok, ok ? s.median[i] : 0));
	json_object_set_new(rec, "median_ns_per_call_min", real_or_null(ok, s.min));
	json_object_set_new(rec, "median_ns_per_call_max", real_or_null(ok, s.max));
	json_object_set_new(rec, "input_ratio", real_or_null(ok && s.ratio >= 0, s.ratio));
	json_object_set_new(rec, "ratio_threshold", json_real(POOL_FLAG_RATIO));
	json_object_set_new(rec, "input_dependent",
			    json_boolean(ok && s.ratio >= 0 && pool_flag(s.ratio, POOL_FLAG_RATIO)));
	free(s.median);
}

/* v is null when !have, else a number within 1e-9 relative of want. */
static int same_real(const json_t *v, int have, double want)
{
	if (!have)
		return json_is_null(v);
	return json_is_number(v) && fabs(json_number_value(v) - want) <= 1e-9 * (1 + fabs(want));
}

static int check_inputs(const json_t *rec, const struct pool_stats *s, int ok, char **why)
{
	size_t i;
	json_t *in;
	json_array_foreach(json_object_get(rec, "per_input"), i, in) {
		char hex[2 * SEED_BYTES + 1];
		long long k = jget_int(in, "input", -1);
		if (k != (long long)i) {
			*why = xasprintf("per_input[%zu] is input %lld", i, k);
			return -1;
		}
		seed_indexed_hex((unsigned)i, hex);
		if (strcmp(jget_str(in, "seed_hex", ""), hex)) {
			*why = xasprintf("per_input[%zu].seed_hex is not the seed of input %zu "
					 "(00..2e, 0x30 + %zu)", i, i, i);
			return -1;
		}
		if (!same_real(json_object_get(in, "median_ns_per_call"), ok, ok ? s->median[i] : 0)) {
			*why = xasprintf("per_input[%zu].median_ns_per_call is not the median of its "
					 "batches (%.17g)", i, ok ? s->median[i] : 0);
			return -1;
		}
	}
	return 0;
}

int pool_recompute_check(const json_t *rec, char **why)
{
	struct pool_stats s;
	int rc = -1;
	if (compute_stats(rec, &s)) {
		*why = xstrdup("per_input batches missing or not counts of nanoseconds");
		free(s.median);
		return -1;
	}
	int ok = s.n > 0, have_ratio = ok && s.ratio >= 0;
	int flag = have_ratio && pool_flag(s.ratio, POOL_FLAG_RATIO);
	const json_t *t = json_object_get(rec, "ratio_threshold");
	if (check_inputs(rec, &s, ok, why))
		goto out;
	if (!same_real(json_object_get(rec, "median_ns_per_call_min"), ok, s.min))
		*why = xasprintf("median_ns_per_call_min is not the least input median (%.17g)", s.min);
	else if (!same_real(json_object_get(rec, "median_ns_per_call_max"), ok, s.max))
		*why = xasprintf("median_ns_per_call_max is not the largest input median (%.17g)", s.max);
	else if (!same_real(json_object_get(rec, "input_ratio"), have_ratio, s.ratio))
		*why = xasprintf("input_ratio is not max/min of the input medians (%.17g)", s.ratio);
	else if (!json_is_number(t) || json_number_value(t) != POOL_FLAG_RATIO)
		*why = xasprintf("ratio_threshold is not this method's %g", POOL_FLAG_RATIO);
	else if (json_is_true(json_object_get(rec, "input_dependent")) != flag)
		*why = xasprintf("input_dependent is %s, but the ratio %.4g %s the threshold %g",
				 flag ? "false" : "true", s.ratio, flag ? "exceeds" : "does not exceed",
				 POOL_FLAG_RATIO);
	else
		rc = 0;
out:
	free(s.median);
	return rc;
}

/* ---- the fields a reader relies on ----------------------------------------- */

static const char *const pool_seed_modes[] = { "per-input", NULL };
static const char *const pool_input_modes[] = { "pool", NULL };

static const struct field_rule pool_rules[] = {
	FIELD("status", J_STR), FIELD_OPT("status_detail", J_STR | J_NULL),
	FIELD("candidate", J_STR), FIELD("label", J_STR), FIELD("operation", J_STR),
	FIELD("op_key", J_STR),
	FIELD("library_sha256", J_STR),
	FIELD("plan", J_OBJ),
	FIELD_NUM("plan.pool_size", J_INT, 1, 64),
	FIELD_NUM("plan.rounds", J_INT, 1, 1e6),
	FIELD_NUM("plan.calls_per_batch", J_INT, 1, MAX_COUNT),
	FIELD_WORD("seed.mode", J_STR, pool_seed_modes),
	FIELD_WORD("inputs.mode", J_STR, pool_input_modes),
	FIELD_NUM_OPT("cpu", J_INT | J_NULL, 0, 1 << 20),
	FIELD("per_input", J_ARR),
	FIELD_NUM("per_input[].input", J_INT, 0, 63),
	FIELD("per_input[].seed_hex", J_STR),
	FIELD("per_input[].batch_ns", J_ARR),
	FIELD_NUM("per_input[].batch_ns[]", J_INT, 0, MAX_COUNT),
	FIELD_OPT("per_input[].batch_cycles", J_ARR),
	FIELD_NUM_OPT("per_input[].batch_cycles[]", J_INT | J_NULL, 0, MAX_CYCLES),
	FIELD_NUM_OPT("per_input[].preempted_batches_redone", J_INT, 0, MAX_COUNT),
	FIELD_NUM("per_input[].median_ns_per_call", J_NUM | J_NULL, 0, MAX_COUNT),
	FIELD_NUM("median_ns_per_call_min", J_NUM | J_NULL, 0, MAX_COUNT),
	FIELD_NUM("median_ns_per_call_max", J_NUM | J_NULL, 0, MAX_COUNT),
	FIELD_NUM("input_ratio", J_NUM | J_NULL, 1, MAX_COUNT),
	FIELD_NUM("ratio_threshold", J_NUM, 1, 100),
	FIELD("input_dependent", J_BOOL),
	FIELD_NUM_OPT("process." STRAYS_KILLED_KEY, J_INT | J_NULL, 0, MAX_COUNT),
};

int pool_check(const json_t *doc, char **why)
{
	return EVIDENCE_CHECK(doc, POOL_KIND, POOL_VERSION, pool_rules, why);
}

/* Made from the same library with a pool of the same size. */
static int pool_match(const json_t *doc, const void *ctx, char **why)
{
	const struct pool_fp *fp = ctx;
	if (!unit_match_library(doc, fp->library_sha256, why))
		return 0;
	long long have = jget_int(json_object_get(doc, "plan"), "pool_size", -1);
	if (have != fp->pool_size) {
		*why = xasprintf("made with a pool of %lld inputs, now %ld", have, fp->pool_size);
		return 0;
	}
	return 1;
}

const struct unit_format pool_format = {
	POOL_KIND, POOL_VERSION, "pool record", pool_match, pool_check
};
