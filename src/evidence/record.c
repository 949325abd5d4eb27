/* record.c — see record.h. */
#include "evidence/record.h"
#include "evidence/check.h"
#include "evidence/json.h"
#include "method/hashmsg.h"
#include "stats/robust.h"
#include "util/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STDERR_TAIL_CHARS 2000

/* ---- process entries ---------------------------------------------------- */

/* The last STDERR_TAIL_CHARS bytes of what a candidate printed, as a JSON
 * string: never starting inside a UTF-8 sequence, and with every byte of
 * invalid UTF-8 (candidates print anything) replaced by '?'. */
static json_t *tail_json(const char *s)
{
	if (!s)
		return json_string("");
	size_t n = strlen(s);
	const char *p = n > STDERR_TAIL_CHARS ? s + n - STDERR_TAIL_CHARS : s;
	while (*p && ((unsigned char)*p & 0xC0) == 0x80)
		p++;
	json_t *j = json_string(p);
	if (j)
		return j;
	char *copy = xstrdup(p);
	for (char *c = copy; *c; c++)
		if ((unsigned char)*c >= 0x80)
			*c = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

static json_t *driver_result(const struct spawn_res *res)
{
	if (!res->result || !res->result_len)
		return NULL;
	json_error_t je;
	json_t *j = json_loadb(res->result, res->result_len, JSON_DISABLE_EOF_CHECK, &je);
	if (j && evidence_check_schema(j, "driver-result", 1)) {
		json_decref(j);
		return NULL;
	}
	return j;
}

/* The process status: the driver's word, confirmed by how it ended. */
static const char *derive_status(const struct spawn_res *res, double run_timeout,
				 const json_t *dr, char **error)
{
	const char *said = dr ? jget_str(dr, "status", NULL) : NULL;
	const char *derr = dr ? jget_str(dr, "error", NULL) : NULL;
	if (res->timed_out) {
		char *how = spawn_describe(res, run_timeout);
		*error = xasprintf("hard timeout: %s", how ? how : "killed");
		free(how);
		return ST_HARD_TIMEOUT;
	}
	if (!dr) {
		char *how = spawn_describe(res, 0);
		*error = xasprintf("%s without a driver result", how ? how : "ended");
		free(how);
		return ST_FAILED;
	}
	int code = res->exited ? res->exit_code : -1;
	if (said && !strcmp(said, ST_COMPLETE) && code == 0)
		return ST_COMPLETE;
	if (said && !strcmp(said, ST_INVALID) && code == 5) {
		*error = xasprintf("invalid output: %s", derr ? derr : "validation failed");
		return ST_INVALID;
	}
	char *how = spawn_describe(res, 0);
	*error = derr ? xasprintf("%s (%s)", derr, how ? how : "?")
		      : xasprintf("%s, driver said %s", how ? how : "?", said ? said : "nothing");
	free(how);
	if (said && !strcmp(said, ST_PARTIAL) && code == 4)
		return ST_PARTIAL;
	return ST_FAILED;
}

static json_t *copy_or(const json_t *dr, const char *key, json_t *def)
{
	json_t *v = dr ? json_object_get(dr, key) : NULL;
	if (v) {
		json_decref(def);
		return json_deep_copy(v);
	}
	return def;
}

json_t *record_process_entry(const struct process_run *run)
{
	const struct spawn_res *res = run->res;
	json_t *dr = driver_result(res);
	char *error = NULL;
	const char *status = derive_status(res, run->timeout_s, dr, &error);
	json_t *e = json_object();
	json_object_set_new(e, "status", json_string(status));
	json_object_set_new(e, "exit_code", res->exited ? json_integer(res->exit_code) : json_null());
	json_object_set_new(e, "attempt", json_integer(run->attempt));
	json_object_set_new(e, "disturbed_reasons", json_array());
	json_object_set_new(e, "command", run->command ? run->command : json_array());
	json_object_set_new(e, "wall_s", json_real(res->wall_s));
	json_object_set_new(e, "error", jstr_or_null(error));
	json_object_set_new(e, "seed_hex", copy_or(dr, "seed_hex", json_null()));
	if (json_object_get(dr, "trial_seeds_hex")) /* R1 */
		json_object_set_new(e, "trial_seeds_hex", copy_or(dr, "trial_seeds_hex", json_null()));
	json_object_set_new(e, "meta", copy_or(dr, "meta", json_null()));
	json_t *trials = copy_or(dr, "trials", json_array());
	json_object_set_new(e, "trials", trials);
	json_object_set_new(e, "rss", copy_or(dr, "rss", json_null()));
	json_object_set_new(e, "validation", copy_or(dr, "validation", json_null()));
	json_object_set_new(e, "observed", copy_or(dr, "observed", json_null()));
	json_object_set_new(e, "counter", copy_or(dr, "counter", json_null()));
	json_object_set_new(e, "stderr_tail", tail_json(res->err_tail));
	json_object_set_new(e, STRAYS_KILLED_KEY, evidence_strays_killed(res));
	free(error);
	json_decref(dr);
	return e;
}

const char *record_process_status(const json_t *entry)
{
	return jget_str(entry, "status", ST_FAILED);
}

const char *record_process_error(const json_t *entry)
{
	return jget_str(entry, "error", "");
}

/* ---- disturbance (§4.4) ------------------------------------------------- */

static void push_owned(json_t *a, char *s)
{
	json_array_append_new(a, json_string(s));
	free(s);
}

json_t *record_disturbed_reasons(const json_t *entry, const struct disturb_rule *r)
{
	json_t *reasons = json_array();
	const json_t *counter = json_object_get(entry, "counter");
	/* Single KEX steps are exempt from rule (a): their trial time is a
	 * sum of short brackets, not a stretch of busy cycles. */
	/* Processes the candidate left running shared the benchmark CPU
	 * with the trials (they inherit its pinning). */
	long long strays = jget_int(entry, STRAYS_KILLED_KEY, 0);
	if (strays > 0)
		push_owned(reasons, xasprintf(
			"%lld process(es) the candidate started were still running at the "
			"end and were killed", strays));
	int perf = !strcmp(jget_str(counter, "name", ""), "perf-user-cycles") &&
		   strcmp(jget_str(json_object_get(entry, "meta"), "timing_scope", ""), "per_call_step");
	const json_t *trials = json_object_get(entry, "trials");
	size_t i;
	json_t *t;
	json_array_foreach(trials, i, t) {
		long long invol = jget_int(t, "invol_switches", 0);
		long long mig = jget_int(t, "migrations", 0);
		double s = (double)jget_int(t, "ns", 0) / 1e9;
		long long cyc = jget_int(t, "cycles", 0);
		long max_invol = plan_disturbance_allowance(r->max_invol_switches, r->invol_per_s, s);
		long max_mig = plan_disturbance_allowance(0, r->migrations_per_s, s);
		if (invol > max_invol)
			push_owned(reasons, xasprintf(
				"trial %zu: %lld involuntary context switch(es), allowed %ld "
				"(max %d + background %.1f/s over %.3f s)",
				i, invol, max_invol, r->max_invol_switches, r->invol_per_s, s));
		if (mig > max_mig)
			push_owned(reasons, xasprintf(
				"trial %zu: %lld migration(s), allowed %ld (background %.2f/s over %.3f s)",
				i, mig, max_mig, r->migrations_per_s, s));
		if (perf && r->ref_clock_hz > 0 && s > 0.01 && cyc > 0 &&
		    (double)cyc / s < 0.95 * r->ref_clock_hz)
			push_owned(reasons, xasprintf(
				"trial %zu: %.3f GHz effective, below 0.95 x reference %.3f GHz",
				i, (double)cyc / s / 1e9, r->ref_clock_hz / 1e9));
	}
	return reasons;
}

/* ---- trials -------------------------------------------------------------- */

size_t record_flatten_trials(const json_t *processes, struct trial **out)
{
	size_t n = 0, i, j;
	json_t *p, *t;
	json_array_foreach(processes, i, p)
		n += json_array_size(json_object_get(p, "trials"));
	*out = n ? xcalloc(n, sizeof **out) : NULL;
	n = 0;
	json_array_foreach(processes, i, p) {
		json_array_foreach(json_object_get(p, "trials"), j, t) {
			struct trial *tr = &(*out)[n++];
			json_t *c = json_object_get(t, "cycles");
			tr->calls = (uint64_t)jget_int(t, "calls", 0);
			tr->ns = (uint64_t)jget_int(t, "ns", 0);
			tr->has_cycles = json_is_integer(c) && json_integer_value(c) > 0;
			tr->cycles = tr->has_cycles ? (uint64_t)json_integer_value(c) : 0;
		}
	}
	return n;
}

static json_t *flat_trials_json(const json_t *processes)
{
	json_t *a = json_array();
	size_t i, j;
	json_t *p, *t;
	json_array_foreach(processes, i, p)
		json_array_foreach(json_object_get(p, "trials"), j, t)
			json_array_append_new(a, json_deep_copy(t));
	return a;
}

/* ---- status -------------------------------------------------------------- */

const char *record_status(const json_t *processes, int planned_trials)
{
	size_t i, trials = 0;
	json_t *p;
	if (!json_array_size(processes))
		return ST_FAILED;
	json_array_foreach(processes, i, p) {
		const char *s = record_process_status(p);
		trials += json_array_size(json_object_get(p, "trials"));
		if (!strcmp(s, ST_HARD_TIMEOUT) || !strcmp(s, ST_INVALID))
			return s;
		if (strcmp(s, ST_COMPLETE))
			return trials ? ST_PARTIAL : ST_FAILED;
	}
	return (int)trials == planned_trials ? ST_COMPLETE : ST_PARTIAL;
}

/* The first non-complete process's error, prefixed with its position. */
static char *status_detail(const json_t *processes, const char *fallback)
{
	size_t i;
	json_t *p;
	json_array_foreach(processes, i, p)
		if (strcmp(record_process_status(p), ST_COMPLETE))
			return xasprintf("process %zu (attempt %lld): %s", i + 1,
					 jget_int(p, "attempt", 0), record_process_error(p));
	return fallback ? xstrdup(fallback) : NULL;
}

/* ---- pieces --------------------------------------------------------------- */

json_t *record_plan_json(const struct plan *p)
{
	json_t *j = json_object();
	json_object_set_new(j, "trials", json_integer(p->trials));
	json_object_set_new(j, "iterations_per_trial", json_integer(p->iterations_per_trial));
	json_object_set_new(j, "warmups", json_integer(p->warmups));
	json_object_set_new(j, "separate_processes", json_boolean(p->separate_processes));
	json_object_set_new(j, "estimated_s", json_real(p->estimated_s));
	json_object_set_new(j, "timeout_per_process_s", json_real(p->timeout_per_process_s));
	json_object_set_new(j, "t1_s", json_real(p->t1_s));
	json_object_set_new(j, "setup_s", json_real(p->setup_s));
	json_object_set_new(j, "reused_calibration", json_boolean(p->reused_calibration));
	return j;
}

json_t *record_load_average(void)
{
	double l[3];
	if (getloadavg(l, 3) != 3)
		return json_null();
	return json_pack("[fff]", l[0], l[1], l[2]);
}

static json_t *real_or_null(int ok, double v)
{
	return ok && isfinite(v) ? json_real(v) : json_null();
}

/* Sets the statistics keys of r; returns whether the trials are noisy. */
static int add_statistics(json_t *r, const json_t *processes)
{
	struct trial *t;
	size_t n = record_flatten_trials(processes, &t);
	struct timing_stats s;
	int ok = n > 0;
	if (ok)
		stats_compute(t, n, &s);
	else
		memset(&s, 0, sizeof s);
	int cyc = ok && s.has_mean_cycles;
	json_object_set_new(r, "measurements", ok ? json_integer((json_int_t)s.measurements) : json_null());
	json_object_set_new(r, "guide_100_measurements_met", ok ? json_boolean(s.guide_100_measurements_met) : json_null());
	json_object_set_new(r, "mean_seconds", real_or_null(ok, s.mean_seconds));
	json_object_set_new(r, "mean_cycles", real_or_null(cyc, s.mean_cycles));
	json_object_set_new(r, "operations_per_second", real_or_null(ok, s.operations_per_second));
	json_object_set_new(r, "median_trial_seconds", real_or_null(ok, s.median_trial_seconds));
	json_object_set_new(r, "min_trial_seconds", real_or_null(ok, s.min_trial_seconds));
	json_object_set_new(r, "max_trial_seconds", real_or_null(ok, s.max_trial_seconds));
	json_object_set_new(r, "median_trial_cycles", real_or_null(cyc, s.median_trial_cycles));
	json_object_set_new(r, "throughput_MB_per_second", json_null());
	json_t *d = json_object();
	json_object_set_new(d, "sd_trial_seconds", real_or_null(ok, s.sd_trial_seconds));
	json_object_set_new(d, "cv_trial_seconds", real_or_null(ok, s.cv_trial_seconds));
	json_object_set_new(d, "spread_trial_seconds", real_or_null(ok, s.spread_trial_seconds));
	json_object_set_new(d, "sd_trial_cycles", real_or_null(cyc, s.sd_trial_cycles));
	json_object_set_new(d, "cv_trial_cycles", real_or_null(cyc, s.cv_trial_cycles));
	json_object_set_new(d, "spread_trial_cycles", real_or_null(cyc, s.spread_trial_cycles));
	json_object_set_new(r, "dispersion", d);
	free(t);
	return ok && s.noisy;
}

/* §7.1 throughput_MB_per_second of a hash record (L message bytes). */
static void set_throughput(json_t *r, const json_t *processes, unsigned long long L)
{
	struct trial *t;
	size_t n = record_flatten_trials(processes, &t);
	double mbs;
	if (!stats_throughput_mb_per_s(t, n, L, &mbs))
		json_object_set_new(r, "throughput_MB_per_second", json_real(mbs));
	free(t);
}

/* Max over processes of rss.<key> (bytes); null when none has it. */
static json_t *max_rss(const json_t *processes, const char *key)
{
	long long best = -1;
	size_t i;
	json_t *p;
	json_array_foreach(processes, i, p) {
		long long v = jget_int(json_object_get(p, "rss"), key, -1);
		if (v > best)
			best = v;
	}
	return best < 0 ? json_null() : json_integer(best);
}

static void observed_merge(json_t *acc, const json_t *obs)
{
	const char *name;
	json_t *o;
	json_object_foreach((json_t *)obs, name, o) {
		json_t *a = json_object_get(acc, name);
		json_t *mn = json_object_get(o, "min"), *mx = json_object_get(o, "max");
		if (!a || !json_is_integer(mn) || !json_is_integer(mx))
			continue;
		json_t *amn = json_object_get(a, "min"), *amx = json_object_get(a, "max");
		if (!json_is_integer(amn) || json_integer_value(mn) < json_integer_value(amn))
			json_object_set(a, "min", mn);
		if (!json_is_integer(amx) || json_integer_value(mx) > json_integer_value(amx))
			json_object_set(a, "max", mx);
	}
}

/* The first process meta (the API sizes are the same in every process). */
static const json_t *first_meta(const json_t *processes)
{
	size_t i;
	json_t *p;
	json_array_foreach(processes, i, p)
		if (json_is_object(json_object_get(p, "meta")))
			return json_object_get(p, "meta");
	return NULL;
}

/* The objects whose lengths a type's driver observes, in record order
 * (KEX messages m1 … m<passes> follow its fixed objects). */
static void observed_objects(const char *type, const json_t *meta, struct strlist *objs)
{
	static const char *const kem[] = { "pk", "sk", "ct", "ss", NULL };
	static const char *const sig[] = { "pk", "sk", "signature", NULL };
	static const char *const kex[] = { "pk_a", "sk_a", "pk_b", "sk_b", "sta", "stb", "ss", NULL };
	static const char *const hash[] = { NULL };     /* its one length is digest_bytes */
	const char *const *list = !strcmp(type, "sign") ? sig : !strcmp(type, "kex") ? kex :
				  !strcmp(type, "hash") ? hash : kem;
	for (const char *const *o = list; *o; o++)
		sl_push(objs, *o);
	long long passes = !strcmp(type, "kex") ? jget_int(meta, "passes", 0) : 0;
	for (long long k = 1; k <= passes && k <= 16; k++)
		sl_push_owned(objs, xasprintf("m%lld", k));
}

static json_t *api_size(const json_t *meta, const char *key)
{
	const json_t *v = meta ? json_object_get(meta, key) : NULL;
	return json_is_integer(v) ? json_incref((json_t *)v) : json_null();
}

/* §11.5 item 10: the API sizes of the type (null where it has none) and
 * the lengths observed over the processes. */
static json_t *sizes_json(const json_t *processes)
{
	const json_t *meta = first_meta(processes);
	const char *type = jget_str(meta, "type", "kem");
	struct strlist objs = STRLIST_INIT;
	observed_objects(type, meta, &objs);
	json_t *observed = json_object();
	for (size_t k = 0; k < objs.n; k++)
		json_object_set_new(observed, objs.items[k], json_pack("{snsn}", "min", "max"));
	sl_free(&objs);
	size_t i;
	json_t *p;
	json_array_foreach(processes, i, p)
		if (json_is_object(json_object_get(p, "observed")))
			observed_merge(observed, json_object_get(p, "observed"));
	json_t *s = json_object();
	static const char *const api[] = { "pk_bytes", "sk_bytes", "ct_bytes", "ss_bytes",
		"signature_bytes", "digest_bytes" };
	int kem = !strcmp(type, "kem");
	for (int k = 0; k < 6; k++)
		/* a KEM record from before meta.type had every KEM size */
		json_object_set_new(s, api[k], kem && k < 4 && meta ?
				    json_integer(jget_int(meta, api[k], 0)) : api_size(meta, api[k]));
	json_object_set_new(s, "observed", observed);
	return s;
}

/* The largest observed length of obj, else the API's api_key; -1 when
 * neither is known. */
static long long observed_or_api(const json_t *sizes, const json_t *meta, const char *obj,
				 const char *api_key)
{
	const json_t *mx = json_object_get(json_object_get(json_object_get(sizes, "observed"), obj), "max");
	if (json_is_integer(mx))
		return json_integer_value(mx);
	const json_t *a = meta ? json_object_get(meta, api_key) : NULL;
	return json_is_integer(a) ? json_integer_value(a) : -1;
}

static json_t *int_or_null(long long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

/*
 * The key-exchange facts of a KEX record (null for other types): the API's
 * pass count, state and message-buffer sizes, the length of each pass's
 * message as returned (observed maximum), their sum, the public keys of
 * A and B (returned lengths, else the API's), and the bandwidth
 * (messages + public key A + public key B; docs/method.md §9).
 */
static json_t *kex_json(const json_t *processes, const json_t *sizes)
{
	const json_t *meta = first_meta(processes);
	if (strcmp(jget_str(meta, "type", "kem"), "kex"))
		return json_null();
	long long passes = jget_int(meta, "passes", 0), total = 0;
	json_t *msgs = json_array();
	for (long long k = 1; k <= passes && k <= 16; k++) {
		char obj[sizeof "m-9223372036854775808"]; /* any long long: gcc -O1 cannot see k <= 16 */
		snprintf(obj, sizeof obj, "m%lld", k);
		long long n = observed_or_api(sizes, NULL, obj, NULL);
		json_array_append_new(msgs, int_or_null(n));
		total = n < 0 || total < 0 ? -1 : total + n;
	}
	long long pka = observed_or_api(sizes, meta, "pk_a", "pk_bytes");
	long long pkb = observed_or_api(sizes, meta, "pk_b", "pk_bytes");
	json_t *k = json_object();
	json_object_set_new(k, "passes", json_integer(passes));
	json_object_set_new(k, "sta_bytes", api_size(meta, "sta_bytes"));
	json_object_set_new(k, "stb_bytes", api_size(meta, "stb_bytes"));
	json_object_set_new(k, "msg_bytes", api_size(meta, "msg_bytes"));
	json_object_set_new(k, "message_bytes", msgs);
	json_object_set_new(k, "protocol_message_bytes", int_or_null(total));
	json_object_set_new(k, "pk_a_bytes", int_or_null(pka));
	json_object_set_new(k, "pk_b_bytes", int_or_null(pkb));
	json_object_set_new(k, "bandwidth_bytes",
			    int_or_null(total < 0 || pka < 0 || pkb < 0 ? -1 : total + pka + pkb));
	return k;
}

static json_t *first_process_field(const json_t *processes, const char *key)
{
	size_t i;
	json_t *p;
	json_array_foreach(processes, i, p) {
		json_t *v = json_object_get(p, key);
		if (json_is_object(v))
			return json_deep_copy(v);
	}
	return json_null();
}

static json_t *counter_summary(const json_t *processes)
{
	json_t *c = first_process_field(processes, "counter");
	if (json_is_object(c))
		json_object_del(c, "why_fallback");
	return c;
}

static json_t *borrowed(json_t *j)
{
	return j ? json_incref(j) : json_null();
}

/* R1: the trial seeds of the kept processes in execution order, as the
 * flattened trials are (a process without them: none listed). */
static json_t *record_trial_seeds(const json_t *processes)
{
	json_t *all = json_array(), *p;
	size_t i;
	json_array_foreach(processes, i, p)
		json_array_extend(all, json_object_get(p, "trial_seeds_hex"));
	return all;
}

json_t *record_build(const struct record_input *in)
{
	json_t *r = json_object();
	const char *status = record_status(in->processes, in->plan ? in->plan->trials : -1);
	char *detail = status_detail(in->processes, in->detail);
	if (!strcmp(status, ST_COMPLETE)) {
		free(detail);
		detail = NULL;
	}
	json_object_set_new(r, "schema", evidence_schema(RECORD_KIND, RECORD_VERSION));
	json_object_set_new(r, "status", json_string(status));
	json_object_set_new(r, "status_detail", jstr_or_null(detail));
	json_object_set_new(r, "candidate", jstr_or_null(in->candidate));
	json_object_set_new(r, "label", jstr_or_null(in->label));
	json_object_set_new(r, "instance", jstr_or_null(in->instance));
	json_object_set_new(r, "variant", jstr_or_null(in->variant));
	json_object_set_new(r, "flags", jstr_or_null(in->flags));
	json_object_set_new(r, "operation", jstr_or_null(in->op));
	json_object_set_new(r, "op_key", jstr_or_null(in->op));
	unsigned long long L = hash_op_bytes(in->op);
	json_object_set_new(r, "input_bytes", L ? json_integer((json_int_t)L) : json_null());
	json_object_set_new(r, "plan", in->plan ? record_plan_json(in->plan) : json_null());
	json_object_set_new(r, "seed", json_pack("{ss*ss*}", "mode", in->seed_mode, "bytes_hex", in->seed_hex));
	if (in->seed_mode && !strcmp(in->seed_mode, "per-trial"))
		json_object_set_new(json_object_get(r, "seed"), "trials_hex",
				    record_trial_seeds(in->processes));
	json_object_set_new(r, "inputs", json_pack("{ss*sn}", "mode", in->input_mode ? in->input_mode : "fixed", "pool_size"));
	json_object_set_new(r, "kat", jstr_or_null(in->kat));
	json_object_set_new(r, "kat_not_passed", json_boolean(in->kat_not_passed));
	json_object_set_new(r, "library", jstr_or_null(in->library));
	json_object_set_new(r, "library_sha256", jstr_or_null(in->library_sha256));
	json_object_set_new(r, "kat_log", jstr_or_null(in->kat_log));
	json_object_set_new(r, "kat_log_sha256", jstr_or_null(in->kat_log_sha256));
	json_object_set_new(r, "host", borrowed(in->host));
	json_object_set_new(r, "started_utc", jstr_or_null(in->started_utc));
	json_object_set_new(r, "ended_utc", jstr_or_null(in->ended_utc));
	json_object_set_new(r, "load_average_start", borrowed(in->load_average_start));
	json_object_set_new(r, "load_average_end", borrowed(in->load_average_end));
	json_object_set_new(r, "environment", borrowed(in->environment));
	json_object_set_new(r, "cpu", json_integer(in->cpu));
	json_object_set_new(r, "concurrent_cpus", in->concurrent_cpus ? json_deep_copy(in->concurrent_cpus) :
						    json_pack("[i]", in->cpu));
	json_object_set_new(r, "counter", counter_summary(in->processes));
	json_object_set_new(r, "processes", json_deep_copy(in->processes));
	json_object_set_new(r, "trials", flat_trials_json(in->processes));
	int noisy = add_statistics(r, in->processes);
	if (L)
		set_throughput(r, in->processes, L);
	json_object_set_new(r, "disturbed_retries", json_integer(in->disturbed_retries));
	json_object_set_new(r, "retries", in->retries ? json_deep_copy(in->retries) : json_array());
	json_object_set_new(r, "background", in->background ? json_deep_copy(in->background) : json_null());
	json_object_set_new(r, "noisy", json_boolean(noisy));
	json_t *sizes = sizes_json(in->processes);
	json_object_set_new(r, "sizes", sizes);
	json_object_set_new(r, "kex", kex_json(in->processes, sizes));
	json_object_set_new(r, "build_flags", jstr_or_null(in->flags));
	json_object_set_new(r, "baseline_rss_bytes", max_rss(in->processes, "baseline"));
	json_object_set_new(r, "peak_rss_bytes", max_rss(in->processes, "peak"));
	json_object_set_new(r, "timing_scope",
			    json_string(jget_str(first_meta(in->processes), "timing_scope", "per_call_loop")));
	free(detail);
	return r;
}

/* ---- resume --------------------------------------------------------------- */

static int plan_matches(const json_t *j, const struct plan *p)
{
	return json_is_object(j) &&
	       jget_int(j, "trials", -1) == p->trials &&
	       jget_int(j, "iterations_per_trial", -1) == p->iterations_per_trial &&
	       jget_int(j, "warmups", -1) == p->warmups &&
	       jget_bool(j, "separate_processes", -1) == !!p->separate_processes;
}

int record_fp_matches(const json_t *rec, const struct record_fp *fp, char **why)
{
	const char *sha = jget_str(rec, "library_sha256", "");
	const char *seed = jget_str(json_object_get(rec, "seed"), "mode", "");
	const char *inputs = jget_str(json_object_get(rec, "inputs"), "mode", "");
	if (evidence_check_schema(rec, RECORD_KIND, RECORD_VERSION))
		*why = xasprintf("schema is not ngcc-perf/record/%d", RECORD_VERSION);
	else if (fp->library_sha256 && strcmp(sha, fp->library_sha256))
		*why = xasprintf("library changed (sha256 %.12s… now %.12s…)", sha, fp->library_sha256);
	else if (fp->plan && !plan_matches(json_object_get(rec, "plan"), fp->plan))
		*why = xstrdup("plan changed (trials, iterations or warm-ups)");
	else if (fp->seed_mode && strcmp(seed, fp->seed_mode))
		*why = xasprintf("seed mode changed (%s, now %s)", seed, fp->seed_mode);
	else if (fp->input_mode && strcmp(inputs, fp->input_mode))
		*why = xasprintf("input mode changed (%s, now %s)", inputs, fp->input_mode);
	else
		return 1;
	return 0;
}

static int record_match(const json_t *rec, const void *fp, char **why)
{
	return record_fp_matches(rec, fp, why);
}

/* ---- the fields a reader relies on ----------------------------------------- */

static const char *const record_statuses[] = {
	ST_COMPLETE, ST_PARTIAL, ST_FAILED, ST_HARD_TIMEOUT, ST_INVALID, NULL,
};

/* A trial as the driver reports it, in processes[].trials[] and trials[]. */
#define TRIAL_RULES(arr) \
	FIELD_NUM(arr "[].calls", J_INT, 1, MAX_COUNT), \
	FIELD_NUM_OPT(arr "[].ns", J_INT, 0, MAX_SECONDS * 1e9), \
	FIELD_NUM_OPT(arr "[].cycles", J_NUM | J_NULL, 0, MAX_CYCLES), \
	FIELD_NUM_OPT(arr "[].invol_switches", J_INT | J_NULL, 0, MAX_COUNT), \
	FIELD_NUM_OPT(arr "[].vol_switches", J_INT | J_NULL, 0, MAX_COUNT), \
	FIELD_NUM_OPT(arr "[].migrations", J_INT | J_NULL, 0, MAX_COUNT), \
	FIELD_NUM_OPT(arr "[].minor_faults", J_INT | J_NULL, 0, MAX_COUNT), \
	FIELD_NUM_OPT(arr "[].major_faults", J_INT | J_NULL, 0, MAX_COUNT)

#define STAT(name, hi) FIELD_NUM_OPT(name, J_NUM | J_NULL, 0, hi)

static const struct field_rule record_rules[] = {
	FIELD_WORD("status", J_STR, record_statuses),
	FIELD_OPT("status_detail", J_STR | J_NULL),
	FIELD("candidate", J_STR), FIELD("label", J_STR), FIELD("operation", J_STR),
	FIELD_OPT("op_key", J_STR),
	FIELD_OPT("instance", J_STR | J_NULL), FIELD_OPT("variant", J_STR | J_NULL),
	FIELD_OPT("flags", J_STR | J_NULL),
	FIELD_NUM_OPT("input_bytes", J_INT | J_NULL, 0, MAX_BYTES),
	FIELD_OPT("plan", J_OBJ | J_NULL),
	FIELD_NUM_OPT("plan.trials", J_INT, 0, 1e6),
	FIELD_NUM_OPT("plan.iterations_per_trial", J_INT, 0, MAX_COUNT),
	FIELD_NUM_OPT("plan.warmups", J_INT, 0, MAX_COUNT),
	FIELD_OPT("seed", J_OBJ | J_NULL), FIELD_OPT("inputs", J_OBJ | J_NULL),
	FIELD_OPT("kat", J_STR | J_NULL), FIELD_OPT("kat_not_passed", J_BOOL | J_NULL),
	FIELD_OPT("library", J_STR | J_NULL), FIELD_OPT("library_sha256", J_STR | J_NULL),
	FIELD_OPT("kat_log", J_STR | J_NULL), FIELD_OPT("kat_log_sha256", J_STR | J_NULL),
	FIELD_OPT("host", J_OBJ | J_NULL), FIELD_OPT("host.unfixed", J_BOOL),
	FIELD_OPT("environment", J_OBJ | J_NULL),
	FIELD_NUM_OPT("cpu", J_INT | J_NULL, 0, 1 << 20),
	FIELD_OPT("counter", J_OBJ | J_NULL),
	FIELD_NUM_OPT("counter.hz", J_NUM | J_NULL, 0, 1e13),
	FIELD_WORD_OPT("counter.hz_source", J_STR | J_NULL, counter_hz_sources),
	FIELD_OPT("processes", J_ARR | J_NULL),
	FIELD_OPT("processes[].status", J_STR),
	FIELD_NUM_OPT("processes[]." STRAYS_KILLED_KEY, J_INT | J_NULL, 0, MAX_COUNT),
	FIELD_WORD_OPT("processes[].counter.hz_source", J_STR | J_NULL, counter_hz_sources),
	FIELD_OPT("processes[].trials", J_ARR | J_NULL),
	TRIAL_RULES("processes[].trials"),
	FIELD_OPT("trials", J_ARR | J_NULL),
	TRIAL_RULES("trials"),
	FIELD_NUM_OPT("measurements", J_INT | J_NULL, 0, MAX_COUNT),
	FIELD_OPT("guide_100_measurements_met", J_BOOL | J_NULL),
	STAT("mean_seconds", MAX_SECONDS), STAT("mean_cycles", MAX_CYCLES),
	STAT("operations_per_second", 1e15), STAT("median_trial_seconds", MAX_SECONDS),
	STAT("min_trial_seconds", MAX_SECONDS), STAT("max_trial_seconds", MAX_SECONDS),
	STAT("median_trial_cycles", MAX_CYCLES), STAT("throughput_MB_per_second", 1e12),
	FIELD_OPT("dispersion", J_OBJ | J_NULL),
	STAT("dispersion.sd_trial_seconds", MAX_SECONDS),
	STAT("dispersion.cv_trial_seconds", 1e6),
	STAT("dispersion.spread_trial_seconds", 1e6),
	STAT("dispersion.sd_trial_cycles", MAX_CYCLES),
	STAT("dispersion.cv_trial_cycles", 1e6),
	STAT("dispersion.spread_trial_cycles", 1e6),
	FIELD_NUM_OPT("disturbed_retries", J_INT | J_NULL, 0, MAX_COUNT),
	FIELD_OPT("noisy", J_BOOL | J_NULL),
	FIELD_OPT("sizes", J_OBJ | J_NULL),
	FIELD_NUM_OPT("sizes.pk_bytes", J_INT | J_NULL, 0, MAX_BYTES),
	FIELD_NUM_OPT("sizes.sk_bytes", J_INT | J_NULL, 0, MAX_BYTES),
	FIELD_NUM_OPT("sizes.ct_bytes", J_INT | J_NULL, 0, MAX_BYTES),
	FIELD_NUM_OPT("sizes.ss_bytes", J_INT | J_NULL, 0, MAX_BYTES),
	FIELD_NUM_OPT("sizes.signature_bytes", J_INT | J_NULL, 0, MAX_BYTES),
	FIELD_NUM_OPT("sizes.digest_bytes", J_INT | J_NULL, 0, MAX_BYTES),
	FIELD_NUM_OPT("baseline_rss_bytes", J_INT | J_NULL, 0, MAX_BYTES),
	FIELD_NUM_OPT("peak_rss_bytes", J_INT | J_NULL, 0, MAX_BYTES),
};

int record_check(const json_t *doc, char **why)
{
	return EVIDENCE_CHECK(doc, RECORD_KIND, RECORD_VERSION, record_rules, why);
}

const struct unit_format record_format = { RECORD_KIND, RECORD_VERSION, "record", record_match,
					   record_check };

enum unit_state record_classify(const char *path, const struct record_fp *fp, char **why)
{
	return unit_file_classify(path, &record_format, fp, NULL, why);
}
