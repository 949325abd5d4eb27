/* profile_json.c — see profile_json.h (docs/method.md §10.4–§10.5, §11.6). */
#include "evidence/profile_json.h"

#include "evidence/check.h"
#include "evidence/json.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FNS 16

struct fn_sum {
	const char *name;
	double calls, ticks;
};

static int cmp_fn(const void *a, const void *b)
{
	return strcmp(((const struct fn_sum *)a)->name, ((const struct fn_sum *)b)->name);
}

/* Σ calls and ticks per fn, in byte order of the names; returns the count. */
static size_t sum_by_fn(const json_t *calls, struct fn_sum *out, double *n_all)
{
	size_t n = 0, i;
	json_t *c;
	*n_all = 0;
	json_array_foreach((json_t *)calls, i, c) {
		const char *fn = jget_str(c, "fn", "?");
		size_t k;
		for (k = 0; k < n && strcmp(out[k].name, fn); k++)
			;
		if (k == n) {
			if (n == MAX_FNS)
				continue;
			out[n++] = (struct fn_sum){ fn, 0, 0 };
		}
		out[k].calls += (double)jget_int(c, "calls", 0);
		out[k].ticks += (double)jget_int(c, "ticks", 0);
		*n_all += (double)jget_int(c, "calls", 0);
	}
	qsort(out, n, sizeof *out, cmp_fn);
	return n;
}

static json_t *null_derived(void)
{
	json_t *d = json_object();
	json_object_set_new(d, "share", json_null());
	json_object_set_new(d, "hash_share", json_null());
	json_object_set_new(d, "drng_share", json_null());
	json_object_set_new(d, "calls_per_operation", json_null());
	json_t *c = json_object();
	json_object_set_new(c, "share", json_null());
	json_object_set_new(c, "hash_share", json_null());
	json_object_set_new(d, "corrected", c);
	return d;
}

json_t *profile_derive(const json_t *calls, long long operations, long long total_ticks,
		       long long overflow_calls, double o_in, double o_out)
{
	struct fn_sum f[MAX_FNS];
	double n_all;
	if (operations <= 0 || total_ticks <= 0 || !json_is_array(calls))
		return null_derived();
	size_t n = sum_by_fn(calls, f, &n_all);
	n_all += (double)overflow_calls;
	double total = (double)total_ticks;
	double denom = total - n_all * (o_in + o_out);
	json_t *share = json_object(), *cpo = json_object(), *cshare = json_object();
	double hash = 0, drng = 0, chash = 0;
	for (size_t i = 0; i < n; i++) {
		double s = f[i].ticks / total;
		double cs = denom > 0 ? (f[i].ticks - f[i].calls * o_in) / denom : 0;
		if (cs < 0)
			cs = 0;
		json_object_set_new(share, f[i].name, json_real(s));
		json_object_set_new(cpo, f[i].name, json_real(f[i].calls / (double)operations));
		json_object_set_new(cshare, f[i].name, json_real(cs));
		if (strcmp(f[i].name, "drng")) {
			hash += s;
			chash += cs;
		} else {
			drng = s;
		}
	}
	json_t *d = json_object();
	json_object_set_new(d, "share", share);
	json_object_set_new(d, "hash_share", json_real(hash));
	json_object_set_new(d, "drng_share", json_real(drng));
	json_object_set_new(d, "calls_per_operation", cpo);
	json_t *c = json_object();
	json_object_set_new(c, "share", cshare);
	json_object_set_new(c, "hash_share", json_real(chash));
	json_object_set_new(d, "corrected", c);
	return d;
}

/* ---- check (validate) -------------------------------------------------- */

static int close_enough(double a, double b)
{
	double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
	return fabs(a - b) <= 1e-12 * (scale > 1e-300 ? scale : 1e-300) || a == b;
}

/* Compare two derived values (numbers, nulls or objects of numbers). */
static int same_value(const json_t *want, const json_t *got, const char *path, char **why)
{
	if (json_is_number(want) && json_is_number(got)) {
		if (close_enough(json_number_value(want), json_number_value(got)))
			return 1;
		*why = xasprintf("%s is %.17g, recomputed %.17g", path, json_number_value(got),
				 json_number_value(want));
		return 0;
	}
	if (json_is_object(want) && json_is_object(got)) {
		const char *k;
		json_t *v;
		if (json_object_size(want) != json_object_size(got)) {
			*why = xasprintf("%s has %zu entries, recomputed %zu", path,
					 json_object_size(got), json_object_size(want));
			return 0;
		}
		json_object_foreach((json_t *)want, k, v) {
			char *sub = xasprintf("%s.%s", path, k);
			int ok = same_value(v, json_object_get(got, k), sub, why);
			free(sub);
			if (!ok)
				return 0;
		}
		return 1;
	}
	if (json_is_null(want) && json_is_null(got))
		return 1;
	*why = xasprintf("%s has the wrong type or is missing", path);
	return 0;
}

int profile_check(const json_t *rec, char **why)
{
	const json_t *total = json_object_get(rec, "total");
	const json_t *meta = json_object_get(rec, "meta");
	const json_t *ov = json_object_get(rec, "overhead");
	json_t *d = profile_derive(json_object_get(rec, "calls"), jget_int(total, "operations", 0),
				   jget_int(total, "ticks", 0), jget_int(meta, "overflow_calls", 0),
				   jget_real(ov, "o_in", 0), jget_real(ov, "o_out", 0));
	static const char *const keys[] = {
		"share", "hash_share", "drng_share", "calls_per_operation", "corrected",
	};
	int ok = 1;
	for (size_t i = 0; i < sizeof keys / sizeof *keys && ok; i++)
		ok = same_value(json_object_get(d, keys[i]), json_object_get(rec, keys[i]),
				keys[i], why);
	json_decref(d);
	return ok ? 0 : 1;
}

/* ---- cross-check (R12) -------------------------------------------------- */

/* The wrappers' raw source ("tsc", "cntvct") is the timing counter's
 * ("tsc-fenced", "cntvct") read without the fences. */
static int same_counter(const char *tick_source, const char *timing_counter)
{
	size_t n = tick_source ? strlen(tick_source) : 0;
	return n && !strncmp(tick_source, timing_counter, n) &&
	       (timing_counter[n] == '\0' || timing_counter[n] == '-');
}

json_t *profile_crosscheck(long long operations, long long total_ticks, const char *tick_source,
			   double tick_hz, const json_t *timing)
{
	json_t *x = json_object();
	double per_op = operations > 0 ? (double)total_ticks / (double)operations : 0;
	json_object_set_new(x, "ticks_per_op", operations > 0 ? json_real(per_op) : json_null());
	const json_t *mc = timing ? json_object_get(timing, "mean_cycles") : NULL;
	const json_t *counter = timing ? json_object_get(timing, "counter") : NULL;
	double mean_s = timing ? jget_real(timing, "mean_seconds", 0) : 0;
	json_object_set_new(x, "timing_mean_cycles", json_is_number(mc) ? json_deep_copy(mc) : json_null());
	double ratio = 0;
	const char *basis = NULL;
	if (operations > 0 && json_is_number(mc) && json_number_value(mc) > 0 &&
	    same_counter(tick_source, jget_str(counter, "name", ""))) {
		ratio = per_op / json_number_value(mc);
		basis = "same counter";
	} else if (operations > 0 && mean_s > 0 && tick_hz > 0) {
		/* Different counters (wrappers read reference ticks while the
		 * timing used core cycles): compare the times instead. */
		ratio = per_op / tick_hz / mean_s;
		basis = "seconds (different counters)";
	}
	json_object_set_new(x, "ratio", basis ? json_real(ratio) : json_null());
	json_object_set_new(x, "flagged", json_boolean(basis && fabs(ratio - 1) > PROFILE_CROSSCHECK_LIMIT));
	json_object_set_new(x, "basis", jstr_or_null(basis));
	return x;
}

/* ---- the record -------------------------------------------------------- */

const char *profile_status(int exited_ok, const json_t *result)
{
	const json_t *total = json_object_get(result, "total");
	if (exited_ok && result && !strcmp(jget_str(result, "status", ""), "complete") &&
	    jget_int(total, "operations", 0) > 0 && json_is_integer(json_object_get(total, "ticks")))
		return "complete";
	return "failed";
}

static json_t *copy_or_null(const json_t *v)
{
	return v ? json_deep_copy(v) : json_null();
}

static json_t *meta_json(const json_t *r)
{
	json_t *m = json_object();
	json_object_set_new(m, "tick_source", copy_or_null(json_object_get(r, "tick_source")));
	json_object_set_new(m, "tick_hz", copy_or_null(json_object_get(r, "tick_hz")));
	json_object_set_new(m, "tick_hz_source", copy_or_null(json_object_get(r, "tick_hz_source")));
	json_object_set_new(m, "warmups", copy_or_null(json_object_get(r, "warmups")));
	json_object_set_new(m, "iterations", copy_or_null(json_object_get(r, "iterations")));
	json_object_set_new(m, "overflow_calls", copy_or_null(json_object_get(r, "overflow_calls")));
	return m;
}

static void add_derived(json_t *j, const json_t *r, const struct profile_input *in)
{
	const json_t *total = json_object_get(r, "total");
	const json_t *ov = json_object_get(r, "overhead");
	long long ops = jget_int(total, "operations", 0), ticks = jget_int(total, "ticks", 0);
	json_t *d = profile_derive(json_object_get(r, "calls"), ops, ticks,
				   jget_int(r, "overflow_calls", 0), jget_real(ov, "o_in", 0),
				   jget_real(ov, "o_out", 0));
	json_object_set(j, "share", json_object_get(d, "share"));
	json_object_set(j, "hash_share", json_object_get(d, "hash_share"));
	json_object_set(j, "drng_share", json_object_get(d, "drng_share"));
	json_object_set(j, "calls_per_operation", json_object_get(d, "calls_per_operation"));
	json_object_set_new(j, "overhead", copy_or_null(ov));
	json_object_set(j, "corrected", json_object_get(d, "corrected"));
	json_decref(d);
	json_object_set_new(j, "crosscheck",
			    profile_crosscheck(ops, ticks, jget_str(r, "tick_source", NULL),
					       jget_real(r, "tick_hz", 0), in->timing));
}

json_t *profile_build(const struct profile_input *in)
{
	const json_t *r = in->result;
	const char *status = profile_status(in->exited_ok, r);
	const char *detail = NULL;
	if (strcmp(status, "complete"))
		detail = r && jget_str(r, "error", NULL) ? jget_str(r, "error", NULL)
			 : in->detail ? in->detail : "the profile driver reported no result";
	json_t *j = json_object();
	json_object_set_new(j, "schema", evidence_schema(PROFILE_KIND, PROFILE_VERSION));
	json_object_set_new(j, "status", json_string(status));
	json_object_set_new(j, "status_detail", jstr_or_null(detail));
	json_object_set_new(j, "candidate", json_string(in->candidate));
	json_object_set_new(j, "label", json_string(in->label));
	json_object_set_new(j, "operation", json_string(in->operation));
	json_object_set_new(j, "op_key", json_string(in->operation));
	json_object_set_new(j, "input_bytes", json_null());
	json_object_set_new(j, "library_instrumented", jstr_or_null(in->library_instrumented));
	json_object_set_new(j, "library_instrumented_sha256", jstr_or_null(in->library_instrumented_sha256));
	json_object_set_new(j, "library", jstr_or_null(in->library));
	json_object_set_new(j, "library_sha256", jstr_or_null(in->library_sha256));
	json_object_set_new(j, "wrapped_symbols", copy_or_null(in->wrapped_symbols));
	json_object_set_new(j, "command", copy_or_null(in->command));
	json_object_set_new(j, "stderr_tail", json_string(in->stderr_tail ? in->stderr_tail : ""));
	json_object_set_new(j, STRAYS_KILLED_KEY, evidence_strays_killed(in->process));
	json_object_set_new(j, "meta", meta_json(r));
	json_t *total = json_object_get(r, "total");
	json_object_set_new(j, "total", copy_or_null(total));
	json_object_set_new(j, "calls", r && json_is_array(json_object_get(r, "calls"))
			    ? json_deep_copy(json_object_get(r, "calls")) : json_array());
	add_derived(j, r, in);
	json_object_set_new(j, "coverage", copy_or_null(in->coverage));
	return j;
}

static int profile_match(const json_t *rec, const void *ctx, char **why)
{
	const struct profile_fp *fp = ctx;
	if (!strcmp(jget_str(rec, "library_sha256", ""), fp->library_sha256) &&
	    !strcmp(jget_str(rec, "library_instrumented_sha256", ""), fp->instrumented_sha256))
		return 1;
	*why = xstrdup("made from another library (rebuilt since)");
	return 0;
}

/* ---- the fields a reader relies on ----------------------------------------- */

#define SHARE(name) FIELD_NUM_OPT(name, J_NUM | J_NULL, -1e6, 1e6)

static const struct field_rule profile_rules[] = {
	FIELD("status", J_STR), FIELD_OPT("status_detail", J_STR | J_NULL),
	FIELD("candidate", J_STR), FIELD("label", J_STR), FIELD("operation", J_STR),
	FIELD_OPT("op_key", J_STR),
	FIELD_NUM_OPT("input_bytes", J_INT | J_NULL, 0, MAX_BYTES),
	FIELD_NUM_OPT(STRAYS_KILLED_KEY, J_INT | J_NULL, 0, MAX_COUNT),
	FIELD_OPT("meta", J_OBJ | J_NULL),
	FIELD_NUM_OPT("meta.tick_hz", J_NUM | J_NULL, 0, 1e13),
	FIELD_WORD_OPT("meta.tick_hz_source", J_STR | J_NULL, counter_hz_sources),
	FIELD_NUM_OPT("meta.warmups", J_INT | J_NULL, 0, MAX_COUNT),
	FIELD_NUM_OPT("meta.iterations", J_INT | J_NULL, 0, MAX_COUNT),
	FIELD_NUM_OPT("meta.overflow_calls", J_INT | J_NULL, 0, MAX_COUNT),
	FIELD_OPT("total", J_OBJ | J_NULL),
	FIELD_NUM_OPT("total.operations", J_INT, 0, MAX_COUNT),
	FIELD_NUM_OPT("total.ticks", J_NUM, 0, MAX_CYCLES),
	FIELD_OPT("calls", J_ARR | J_NULL),
	FIELD("calls[].fn", J_STR),
	FIELD_NUM_OPT("calls[].in_bits", J_INT | J_NULL, 0, MAX_BYTES * 8),
	FIELD_NUM_OPT("calls[].out_bits", J_INT | J_NULL, 0, MAX_BYTES * 8),
	FIELD_NUM("calls[].calls", J_INT, 0, MAX_COUNT),
	FIELD_NUM("calls[].ticks", J_NUM, 0, MAX_CYCLES),
	FIELD_OPT("share", J_OBJ | J_NULL), SHARE("share{}"),
	SHARE("hash_share"), SHARE("drng_share"),
	FIELD_OPT("calls_per_operation", J_OBJ | J_NULL),
	FIELD_NUM_OPT("calls_per_operation{}", J_NUM | J_NULL, 0, MAX_COUNT),
	FIELD_OPT("corrected", J_OBJ | J_NULL), SHARE("corrected.share{}"),
	SHARE("corrected.hash_share"),
	FIELD_OPT("crosscheck", J_OBJ | J_NULL),
	FIELD_NUM_OPT("crosscheck.ratio", J_NUM | J_NULL, 0, 1e9),
};

int profile_check_fields(const json_t *doc, char **why)
{
	return EVIDENCE_CHECK(doc, PROFILE_KIND, PROFILE_VERSION, profile_rules, why);
}

const struct unit_format profile_format = { PROFILE_KIND, PROFILE_VERSION, "profile",
					    profile_match, profile_check_fields };
