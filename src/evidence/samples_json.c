/* samples_json.c — see samples_json.h: the sample record's derived figures
 * and its table of fields (docs/method.md §7.2, §14 R11). */
#include "evidence/samples_json.h"
#include "evidence/check.h"
#include "evidence/json.h"
#include "method/sampling.h"
#include "stats/robust.h"
#include "stats/stats.h"
#include "util/util.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the raw fields ---------------------------------------------------------- */

struct raw {
	long long batch, brackets;
	double subtracted_ns;
	const json_t *ns;
	size_t n;
};

/* -1 (and *why when why is not NULL) when the raw fields cannot give
 * per-call figures. */
static int read_raw(const json_t *rec, struct raw *r, char **why)
{
	const json_t *sub = json_object_get(rec, "overhead_subtracted_ns");
	r->batch = jget_int(rec, "batch", -1);
	r->brackets = jget_int(rec, "brackets_per_sample", -1);
	r->subtracted_ns = json_is_number(sub) ? json_number_value(sub) : -1;
	r->ns = json_object_get(rec, "batch_ns");
	r->n = json_array_size(r->ns);
	const char *bad = r->batch < 1 ? "batch is not a whole number of calls ≥ 1" :
			  r->brackets < 1 ? "brackets_per_sample is not ≥ 1" :
			  !(r->subtracted_ns >= 0) ? "overhead_subtracted_ns is not a number ≥ 0" :
			  !json_is_array(r->ns) ? "batch_ns is not an array" : NULL;
	for (size_t i = 0; !bad && i < r->n; i++) {
		const json_t *v = json_array_get(r->ns, i);
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			bad = "batch_ns holds something other than whole nanoseconds";
	}
	if (bad && why)
		*why = xstrdup(bad);
	return bad ? -1 : 0;
}

double *samples_per_call_seconds(const json_t *rec, size_t *n)
{
	struct raw r;
	*n = 0;
	if (read_raw(rec, &r, NULL))
		return NULL;
	double *v = xmalloc((r.n ? r.n : 1) * sizeof *v);
	for (size_t i = 0; i < r.n; i++)
		v[i] = ((double)json_integer_value(json_array_get(r.ns, i)) - r.subtracted_ns) /
		       (double)r.batch / 1e9;
	*n = r.n;
	return v;
}

/* overhead_subtracted_ns / median of batch_ns; < 0 when there is none. */
static double overhead_share(const struct raw *r)
{
	if (!r->n)
		return -1;
	double *s = xmalloc(r->n * sizeof *s);
	for (size_t i = 0; i < r->n; i++)
		s[i] = (double)json_integer_value(json_array_get(r->ns, i));
	double med = stats_median(s, r->n);
	free(s);
	return med > 0 ? r->subtracted_ns / med : -1;
}

/* ---- derived figures ------------------------------------------------------------ */

static uint64_t seed_of(const json_t *rec)
{
	return robust_bootstrap_seed(jget_str(rec, "candidate", ""), jget_str(rec, "label", ""),
				     jget_str(rec, "op_key", jget_str(rec, "operation", "")));
}

static json_t *robust_json(const struct robust_stats *s)
{
	char seed[17];
	snprintf(seed, sizeof seed, "%016" PRIx64, s->bootstrap_seed);
	json_t *j = json_object();
	json_object_set_new(j, "n", json_integer((json_int_t)s->n));
	json_object_set_new(j, "median_s", json_real(s->median));
	json_object_set_new(j, "iqm_s", json_real(s->iqm));
	json_object_set_new(j, "p1_s", json_real(s->p1));
	json_object_set_new(j, "p5_s", json_real(s->p5));
	json_object_set_new(j, "p25_s", json_real(s->p25));
	json_object_set_new(j, "p75_s", json_real(s->p75));
	json_object_set_new(j, "p95_s", json_real(s->p95));
	json_object_set_new(j, "p99_s", json_real(s->p99));
	json_object_set_new(j, "mad_s", json_real(s->mad));
	json_object_set_new(j, "outliers", json_integer((json_int_t)s->outliers));
	json_object_set_new(j, "ci95_low_s", json_real(s->ci95_low));
	json_object_set_new(j, "ci95_high_s", json_real(s->ci95_high));
	json_object_set_new(j, "bootstrap_seed", json_string(seed));
	return j;
}

/* robust as it should be, or json_null() without samples. */
static json_t *robust_of(const json_t *rec)
{
	size_t n;
	double *v = samples_per_call_seconds(rec, &n);
	json_t *j = json_null();
	if (v && n) {
		struct robust_stats s;
		robust_compute(v, n, seed_of(rec), &s);
		j = robust_json(&s);
	}
	free(v);
	return j;
}

static json_t *share_of(const json_t *rec)
{
	struct raw r;
	double s = read_raw(rec, &r, NULL) ? -1 : overhead_share(&r);
	return s < 0 ? json_null() : json_real(s);
}

void samples_derive(json_t *rec)
{
	json_object_set_new(rec, "overhead_share", share_of(rec));
	json_object_set_new(rec, "robust", robust_of(rec));
}

/* ---- validation ------------------------------------------------------------------ */

static int same_double(const json_t *have, const json_t *want)
{
	if (json_is_null(want))
		return json_is_null(have);
	if (!json_is_number(have))
		return 0;
	double a = json_number_value(have), b = json_number_value(want);
	return a == b || fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
}

static int same_value(const json_t *have, double want)
{
	json_t *w = json_real(want);
	int ok = same_double(have, w);
	json_decref(w);
	return ok;
}

/* The first field of robust that differs from its recomputation, or NULL. */
static const char *robust_differs(const json_t *have, const json_t *want)
{
	const char *key;
	json_t *w;
	if (json_is_null(want))
		return json_is_null(have) ? NULL : "robust";
	if (!json_is_object(have))
		return "robust";
	json_object_foreach((json_t *)want, key, w) {
		const json_t *h = json_object_get(have, key);
		int ok = json_is_real(w) ? same_double(h, w) : h && json_equal((json_t *)h, w);
		if (!ok)
			return key;
	}
	return NULL;
}

static int whole_record(const json_t *rec, const struct raw *r, char **why)
{
	long long planned = jget_int(json_object_get(rec, "plan"), "samples", -1);
	const json_t *cyc = json_object_get(rec, "batch_cycles");
	const json_t *counter = json_object_get(rec, "counter");
	const json_t *oh = json_object_get(counter, "overhead_ns_median");
	double want_sub = json_is_number(oh) ? (double)r->brackets * json_number_value(oh) : 0;
	if ((!strcmp(jget_str(rec, "status", ""), "complete") && (long long)r->n != planned) ||
	    (long long)r->n > planned)
		*why = xasprintf("batch_ns has %zu sample(s), the plan %lld: truncated or altered",
				 r->n, planned);
	else if (json_array_size(cyc) && json_array_size(cyc) != r->n)
		*why = xasprintf("batch_cycles has %zu entries, batch_ns %zu",
				 json_array_size(cyc), r->n);
	else if (!same_value(json_object_get(rec, "overhead_subtracted_ns"), want_sub))
		*why = xasprintf("overhead_subtracted_ns is not %lld × counter.overhead_ns_median "
				 "(%.17g)", r->brackets, want_sub);
	else
		return 0;
	return -1;
}

int samples_recompute_check(const json_t *rec, char **why)
{
	struct raw r;
	if (read_raw(rec, &r, why))
		return -1;
	if (whole_record(rec, &r, why))
		return -1;
	json_t *share = share_of(rec);
	json_t *robust = robust_of(rec);
	const char *bad = NULL;
	if (!same_double(json_object_get(rec, "overhead_share"), share))
		*why = xstrdup("overhead_share is not overhead_subtracted_ns over the median of "
			       "batch_ns");
	else if ((bad = robust_differs(json_object_get(rec, "robust"), robust)))
		*why = xasprintf("robust.%s differs from its recomputation of batch_ns", bad);
	int rc = *why ? -1 : 0;
	json_decref(share);
	json_decref(robust);
	return rc;
}

/* ---- the fields a reader relies on ------------------------------------------------ */

static const struct field_rule samples_rules[] = {
	FIELD("status", J_STR), FIELD_OPT("status_detail", J_STR | J_NULL),
	FIELD("candidate", J_STR), FIELD("label", J_STR), FIELD("operation", J_STR),
	FIELD("op_key", J_STR),
	FIELD_NUM_OPT("cpu", J_INT | J_NULL, 0, 1 << 20),
	FIELD("plan", J_OBJ),
	FIELD_NUM("plan.samples", J_INT, 1, SAMPLING_SAMPLES_MAX),
	FIELD_NUM_OPT("plan.call_ns", J_NUM | J_NULL, 0, MAX_SECONDS * 1e9),
	FIELD_NUM_OPT("plan.t1_s", J_NUM | J_NULL, 0, MAX_SECONDS),
	FIELD("library_sha256", J_STR),
	FIELD("process", J_OBJ),
	FIELD_NUM_OPT("process.wall_s", J_NUM | J_NULL, 0, MAX_SECONDS),
	FIELD_NUM_OPT("process." STRAYS_KILLED_KEY, J_INT | J_NULL, 0, MAX_COUNT),
	FIELD("timing_record", J_STR),
	FIELD_NUM("batch", J_INT, 1, MAX_COUNT),
	FIELD_NUM("brackets_per_sample", J_INT, 1, MAX_COUNT),
	FIELD_NUM("overhead_subtracted_ns", J_NUM, 0, MAX_SECONDS * 1e9),
	FIELD("batch_ns", J_ARR),
	FIELD_NUM("batch_ns[]", J_INT, 0, MAX_SECONDS * 1e9),
	FIELD("batch_cycles", J_ARR),
	FIELD_NUM_OPT("batch_cycles[]", J_INT, 0, MAX_CYCLES),
	FIELD_NUM_OPT("overhead_share", J_NUM | J_NULL, 0, MAX_COUNT),
	FIELD("robust", J_OBJ | J_NULL),
	FIELD_NUM_OPT("robust.n", J_INT, 1, SAMPLING_SAMPLES_MAX),
	FIELD_NUM_OPT("robust.median_s", J_NUM, -MAX_SECONDS, MAX_SECONDS),
	FIELD_NUM_OPT("robust.iqm_s", J_NUM, -MAX_SECONDS, MAX_SECONDS),
	FIELD_NUM_OPT("robust.p5_s", J_NUM, -MAX_SECONDS, MAX_SECONDS),
	FIELD_NUM_OPT("robust.p95_s", J_NUM, -MAX_SECONDS, MAX_SECONDS),
	FIELD_NUM_OPT("robust.ci95_low_s", J_NUM, -MAX_SECONDS, MAX_SECONDS),
	FIELD_NUM_OPT("robust.ci95_high_s", J_NUM, -MAX_SECONDS, MAX_SECONDS),
	FIELD_NUM_OPT("robust.outliers", J_INT, 0, 1e7),
	FIELD_OPT("robust.bootstrap_seed", J_STR),
};

int samples_check(const json_t *doc, char **why)
{
	return EVIDENCE_CHECK(doc, SAMPLES_KIND, SAMPLES_VERSION, samples_rules, why);
}

const struct unit_format samples_format = {
	SAMPLES_KIND, SAMPLES_VERSION, "sample record", unit_match_library, samples_check
};
