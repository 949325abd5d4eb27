/* memory_json.c — see memory_json.h: the memory record's derived figures
 * and its table of fields. */
#include "evidence/memory_json.h"
#include "evidence/check.h"
#include "evidence/json.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- statistics ----------------------------------------------------------- */

struct mem_stats {
	long long calls;
	long long stack_max, heap_max;  /* -1: none */
	double allocs_mean;             /* < 0: none */
};

static int int_array(const json_t *a, long long *max, double *sum, size_t *n)
{
	size_t i;
	json_t *v;
	*max = -1;
	*sum = 0;
	*n = json_array_size(a);
	json_array_foreach(a, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return -1;
		long long x = json_integer_value(v);
		if (x > *max)
			*max = x;
		*sum += (double)x;
	}
	return json_is_array(a) ? 0 : -1;
}

/* From rec's per_call arrays; -1 when they are malformed or unequal. */
static int compute_stats(const json_t *rec, struct mem_stats *s)
{
	const json_t *pc = json_object_get(rec, "per_call");
	long long amax;
	double ssum, hsum, asum;
	size_t ns, nh, na;
	if (int_array(json_object_get(pc, "stack_peak_bytes"), &s->stack_max, &ssum, &ns) ||
	    int_array(json_object_get(pc, "heap_peak_bytes"), &s->heap_max, &hsum, &nh) ||
	    int_array(json_object_get(pc, "allocations"), &amax, &asum, &na) ||
	    ns != nh || ns != na)
		return -1;
	s->calls = (long long)ns;
	s->allocs_mean = ns ? asum / (double)ns : -1;
	return 0;
}

static json_t *int_or_null(long long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

/* {count, min, mean, max} of an array of byte counts; NULL when it is not
 * one (or empty). */
static json_t *length_summary(const json_t *a)
{
	long long mx, mn = -1;
	double sum;
	size_t n, i;
	json_t *v;
	if (int_array(a, &mx, &sum, &n) || !n)
		return NULL;
	json_array_foreach(a, i, v)
		if (mn < 0 || json_integer_value(v) < mn)
			mn = json_integer_value(v);
	return json_pack("{sIsIsfsI}", "count", (json_int_t)n, "min", (json_int_t)mn,
			 "mean", sum / (double)n, "max", (json_int_t)mx);
}

/* observed.<object> from observed_lengths.<object>_bytes; NULL when rec
 * has no observed_lengths. */
static json_t *observed_from_lengths(const json_t *rec)
{
	const json_t *ol = json_object_get(rec, "observed_lengths");
	if (!json_is_object(ol))
		return NULL;
	json_t *obs = json_object();
	const char *key;
	json_t *a;
	json_object_foreach((json_t *)ol, key, a) {
		size_t kl = strlen(key);
		json_t *sum = length_summary(a);
		if (!sum || kl <= 6 || strcmp(key + kl - 6, "_bytes")) {
			json_decref(sum);
			continue;
		}
		char *obj = xstrndup(key, kl - 6);
		json_object_set_new(obs, obj, sum);
		free(obj);
	}
	return obs;
}

void memory_derive(json_t *rec)
{
	struct mem_stats s = { 0, -1, -1, -1 };
	if (compute_stats(rec, &s))
		s = (struct mem_stats){ 0, -1, -1, -1 };
	json_object_set_new(rec, "calls", json_integer(s.calls));
	json_object_set_new(rec, "stack_peak_bytes", int_or_null(s.stack_max));
	json_object_set_new(rec, "heap_peak_bytes", int_or_null(s.heap_max));
	json_object_set_new(rec, "allocations_per_call",
			    s.allocs_mean < 0 ? json_null() : json_real(s.allocs_mean));
	json_t *obs = observed_from_lengths(rec);
	if (obs)
		json_object_set_new(rec, "observed", obs);
}

/* observed agrees with observed_lengths (both absent in records that
 * observe nothing more). */
static int observed_check(const json_t *rec, char **why)
{
	json_t *want = observed_from_lengths(rec);
	const json_t *have = json_object_get(rec, "observed");
	int ok = want ? have && json_equal(want, (json_t *)have) : !have;
	json_decref(want);
	if (!ok)
		*why = xstrdup("observed is not the count, min, mean and max of observed_lengths");
	return ok ? 0 : -1;
}

static int same_int(const json_t *v, long long want)
{
	return want < 0 ? json_is_null(v) : json_is_integer(v) && json_integer_value(v) == want;
}

int memory_recompute_check(const json_t *rec, char **why)
{
	struct mem_stats s;
	if (compute_stats(rec, &s)) {
		*why = xstrdup("per_call arrays missing, unequal in length or not byte counts");
		return -1;
	}
	const json_t *mean = json_object_get(rec, "allocations_per_call");
	int mean_ok = s.allocs_mean < 0 ? json_is_null(mean) :
		      json_is_number(mean) &&
		      fabs(json_number_value(mean) - s.allocs_mean) <= 1e-9 * (1 + s.allocs_mean);
	if (!same_int(json_object_get(rec, "calls"), s.calls))
		*why = xasprintf("calls is not the number of per_call entries (%lld)", s.calls);
	else if (!same_int(json_object_get(rec, "stack_peak_bytes"), s.stack_max))
		*why = xasprintf("stack_peak_bytes is not the maximum of per_call (%lld)", s.stack_max);
	else if (!same_int(json_object_get(rec, "heap_peak_bytes"), s.heap_max))
		*why = xasprintf("heap_peak_bytes is not the maximum of per_call (%lld)", s.heap_max);
	else if (!mean_ok)
		*why = xasprintf("allocations_per_call is not the mean of per_call (%.17g)", s.allocs_mean);
	else
		return observed_check(rec, why);
	return -1;
}

/* ---- the fields a reader relies on ----------------------------------------- */

static const struct field_rule memory_rules[] = {
	FIELD("status", J_STR), FIELD_OPT("status_detail", J_STR | J_NULL),
	FIELD("candidate", J_STR), FIELD("label", J_STR), FIELD("operation", J_STR),
	FIELD_OPT("op_key", J_STR),
	FIELD_NUM_OPT("cpu", J_INT | J_NULL, 0, 1 << 20),
	FIELD_NUM_OPT("calls", J_INT | J_NULL, 0, MAX_COUNT),
	FIELD_NUM_OPT("stack_peak_bytes", J_INT | J_NULL, 0, MAX_BYTES),
	FIELD_NUM_OPT("heap_peak_bytes", J_INT | J_NULL, 0, MAX_BYTES),
	FIELD_NUM_OPT("allocations_per_call", J_NUM | J_NULL, 0, MAX_COUNT),
	FIELD_OPT("per_call", J_OBJ | J_NULL),
	FIELD_NUM_OPT("per_call.stack_peak_bytes[]", J_INT, 0, MAX_BYTES),
	FIELD_NUM_OPT("per_call.heap_peak_bytes[]", J_INT, 0, MAX_BYTES),
	FIELD_NUM_OPT("per_call.allocations[]", J_INT, 0, MAX_COUNT),
	FIELD_NUM_OPT("loaded_rss_bytes", J_INT | J_NULL, 0, MAX_BYTES),
	FIELD_NUM_OPT("baseline_rss_bytes", J_INT | J_NULL, 0, MAX_BYTES),
	FIELD_NUM_OPT("op_peak_rss_bytes", J_INT | J_NULL, 0, MAX_BYTES),
	FIELD_NUM_OPT("empty_stack_bytes", J_INT | J_NULL, 0, MAX_BYTES),
	FIELD_NUM_OPT("stack_bytes", J_INT | J_NULL, 0, MAX_BYTES),
	FIELD_OPT("stack_scan", J_STR | J_NULL),
	FIELD_NUM_OPT("process." STRAYS_KILLED_KEY, J_INT | J_NULL, 0, MAX_COUNT),
};

int memory_check(const json_t *doc, char **why)
{
	return EVIDENCE_CHECK(doc, MEMORY_KIND, MEMORY_VERSION, memory_rules, why);
}

const struct unit_format memory_format = {
	MEMORY_KIND, MEMORY_VERSION, "memory record", unit_match_library, memory_check
};
