/* sampling.c — see sampling.h (docs/method.md §14 R11). */
#include "campaign/sampling.h"

#include "campaign/repeat.h"
#include "campaign/rundir.h"
#include "campaign/unitpass.h"
#include "evidence/campaign_json.h"
#include "evidence/json.h"
#include "evidence/record.h"
#include "method/sampling.h"
#include "proc/command.h"
#include "util/interrupt.h"
#include "util/numparse.h"
#include "util/untrusted.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double sampling_timeout_s(long samples, long batch, double call_s, double setup_s)
{
	return 3 * (double)samples * (double)batch * (call_s > 0 ? call_s : 0) + 3 * setup_s + 120;
}

/* SAMPLING_SAMPLES, or NGCC_PERF_SAMPLES when it is a number in range
 * (else a warning, once). */
long sampling_samples_per_operation(void)
{
	static long n;
	long long v;
	if (n)
		return n;
	n = SAMPLING_SAMPLES;
	const char *s = getenv(SAMPLING_SAMPLES_ENV);
	if (s && *s && parse_whole(s, SAMPLING_SAMPLES_MIN, SAMPLING_SAMPLES_MAX, &v))
		ngcc_warning("%s=%s: expected a whole number from %d to %d; taking %d samples per "
			     "operation", SAMPLING_SAMPLES_ENV, s, SAMPLING_SAMPLES_MIN,
			     SAMPLING_SAMPLES_MAX, SAMPLING_SAMPLES);
	else if (s && *s)
		n = (long)v;
	return n;
}

/* ---- the option ------------------------------------------------------------- */

int sampling_strip_option(int *argc, char **argv)
{
	return repeat_strip_option(argc, argv, SAMPLING_NO_PASS_OPTION);
}

static int option_cb(json_t *doc, void *ctx)
{
	campaign_set_option(doc, "sampling", json_boolean(*(int *)ctx));
	return 0;
}

void sampling_record_option(const struct engine_opts *o, int enabled)
{
	unit_pass_update_campaign(o, option_cb, &enabled);
}

/* ---- one unit ------------------------------------------------------------------ */

/* What the pass planned for a unit, from its timing record. */
struct sample_plan {
	long samples, warmups, batch_estimate;
	double call_ns, t1_s, setup_s, timeout_s;
};

static void plan_from_timing(const struct engine *e, const struct unit *u, const json_t *timing,
			     struct sample_plan *p)
{
	const json_t *plan = json_object_get(timing, "plan");
	const json_t *counter = json_object_get(timing, "counter");
	p->samples = sampling_samples_per_operation();
	p->warmups = jget_int(plan, "warmups", 1);
	if (p->warmups < 1)
		p->warmups = 1;
	p->call_ns = jget_real(timing, "mean_seconds", 0) * 1e9;
	p->t1_s = u->t1_s;
	p->setup_s = u->setup_s;
	/* the driver chooses the batch from its own overhead: the timing
	 * processes' gives the timeout */
	p->batch_estimate = sampling_batch(jget_real(counter, "overhead_ns_median", 0), p->call_ns,
					   0);
	p->timeout_s = engine_timeout(e, sampling_timeout_s(p->samples, p->batch_estimate,
							    p->call_ns / 1e9, p->setup_s));
}

struct run_facts {
	struct spawn_res *res;    /* NULL: not started */
	json_t *result;           /* the driver's fd-3 JSON, or NULL */
	json_t *command;          /* borrowed */
	double timeout_s;
	long samples;
};

static const char *run_status(const struct run_facts *f, char **detail)
{
	const json_t *s = json_object_get(f->result, "samples");
	const char *st = unit_pass_child_status(f->res, f->result, f->timeout_s, "timing driver",
						detail);
	if (!strcmp(st, ST_FAILED) && !strcmp(jget_str(f->result, "status", ""), ST_INVALID))
		return ST_INVALID;
	if (strcmp(st, ST_COMPLETE))
		return st;
	if ((long)json_array_size(json_object_get(s, "batch_ns")) != f->samples) {
		*detail = xasprintf("%zu of %ld samples taken",
				    json_array_size(json_object_get(s, "batch_ns")), f->samples);
		return ST_FAILED;
	}
	*detail = NULL;
	return ST_COMPLETE;
}

/* The raw samples of the driver's result (empty arrays without one). */
static void raw_samples(json_t *j, const struct run_facts *f, const json_t *counter)
{
	const json_t *s = json_object_get(f->result, "samples");
	long long batch = jget_int(s, "batch", 1), brackets = jget_int(s, "brackets_per_sample", 1);
	const json_t *oh = json_object_get(counter, "overhead_ns_median");
	const json_t *ns = json_object_get(s, "batch_ns"), *cy = json_object_get(s, "batch_cycles");
	json_object_set_new(j, "batch", json_integer(batch > 0 ? batch : 1));
	json_object_set_new(j, "brackets_per_sample", json_integer(brackets > 0 ? brackets : 1));
	json_object_set_new(j, "overhead_subtracted_ns",
			    json_real(json_is_number(oh) ? (double)brackets * json_number_value(oh) : 0));
	json_object_set_new(j, "batch_ns", json_is_array(ns) ? json_deep_copy(ns) : json_array());
	json_object_set_new(j, "batch_cycles", json_is_array(cy) ? json_deep_copy(cy) : json_array());
}

struct times {
	const char *started, *ended;
	json_t *load_start, *load_end;
};

static json_t *build_record(const struct engine *e, const struct unit *u, const json_t *timing,
			    const struct sample_plan *p, const struct run_facts *f,
			    const struct times *tm)
{
	static const char *const identity[] = { "candidate", "label", "instance", "variant", "flags",
		"operation", "op_key", "input_bytes", NULL };
	static const char *const inputs[] = { "seed", "inputs", "kat", "kat_not_passed", "library",
		"library_sha256", "kat_log", "kat_log_sha256", NULL };
	char *detail = NULL;
	const char *status = run_status(f, &detail);
	json_t *j = json_object();
	json_object_set_new(j, "schema", evidence_schema(SAMPLES_KIND, SAMPLES_VERSION));
	json_object_set_new(j, "status", json_string(status));
	if (detail)
		json_object_set_new(j, "status_detail", json_string(detail));
	unit_pass_copy_keys(j, timing, identity);
	if (!json_is_string(json_object_get(j, "op_key")))
		json_object_set_new(j, "op_key", json_string(u->op));
	json_object_set_new(j, "plan", json_pack("{s:I, s:f, s:I, s:f, s:f, s:f}", "samples",
						 (json_int_t)p->samples, "call_ns", p->call_ns,
						 "warmups", (json_int_t)p->warmups, "t1_s", p->t1_s,
						 "setup_s", p->setup_s, "timeout_s", p->timeout_s));
	unit_pass_copy_keys(j, timing, inputs);
	/* the sampling process is seeded once with the default bytes and
	 * calls on fixed inputs, whatever the timing record's modes */
	const char *seed_hex = jget_str(f->result, "seed_hex", NULL);
	json_object_set_new(j, "seed", json_pack("{s:s, s:s?}", "mode", "fixed", "bytes_hex", seed_hex));
	json_object_set_new(j, "inputs", json_pack("{s:s, s:n}", "mode", "fixed", "pool_size"));
	json_object_set_new(j, "host", json_deep_copy(e->host_state));
	json_object_set_new(j, "started_utc", json_string(tm->started));
	json_object_set_new(j, "ended_utc", json_string(tm->ended));
	json_object_set_new(j, "load_average_start", json_incref(tm->load_start));
	json_object_set_new(j, "load_average_end", json_incref(tm->load_end));
	json_object_set_new(j, "environment", json_deep_copy(e->env));
	json_object_set_new(j, "cpu", json_integer(e->cpu));
	/* the sampling process's own counter and bracket overhead, which its
	 * samples are corrected by; the timing record's without a result */
	const json_t *counter = json_object_get(f->result, "counter");
	if (!json_is_object(counter))
		counter = json_object_get(timing, "counter");
	json_object_set_new(j, "counter", counter ? json_deep_copy(counter) : json_null());
	json_object_set_new(j, "process", unit_pass_process_json(f->res, f->command, status, detail));
	char *timing_path = xasprintf("records/%s/%s.json", u->cand, u->stem);
	json_object_set_new(j, "timing_record", json_string(timing_path));
	free(timing_path);
	raw_samples(j, f, counter);
	samples_derive(j);
	free(detail);
	return j;
}

/* Run the driver in sampling mode for u; returns the record (never NULL). */
static json_t *run_unit(struct engine *e, const struct unit *u, const json_t *timing)
{
	struct sample_plan p;
	struct child_cmd cmd;
	struct run_facts f;
	struct times tm;
	struct pass_child ch;
	plan_from_timing(e, u, timing, &p);
	memset(&f, 0, sizeof f);
	f.timeout_s = p.timeout_s;
	f.samples = p.samples;
	child_cmd_init(&cmd, DRIVER_NAME);
	child_cmd_arg(&cmd, "--lib");
	child_cmd_arg(&cmd, u->library);
	child_cmd_arg(&cmd, "--op");
	child_cmd_arg(&cmd, u->op);
	child_cmd_arg(&cmd, "--samples");
	child_cmd_argf(&cmd, "%ld", p.samples);
	child_cmd_arg(&cmd, "--call-ns");
	child_cmd_argf(&cmd, "%.17g", p.call_ns);
	child_cmd_arg(&cmd, "--warmups");
	child_cmd_argf(&cmd, "%ld", p.warmups);
	engine_timing_args(e, &cmd);
	f.command = cmd.shown;
	unit_pass_spawn(e, &cmd, f.timeout_s, &ch);
	tm.started = ch.started;
	tm.ended = ch.ended;
	tm.load_start = ch.load_start;
	tm.load_end = ch.load_end;
	f.res = ch.ran ? &ch.res : NULL;
	f.result = ch.result;
	json_t *rec = build_record(e, u, timing, &p, &f, &tm);
	unit_pass_child_free(&ch);
	child_cmd_free(&cmd);
	return rec;
}

static void print_samples(const struct unit *u, const json_t *rec)
{
	const char *status = jget_str(rec, "status", "?");
	const json_t *r = json_object_get(rec, "robust");
	if (strcmp(status, ST_COMPLETE) || !json_is_object(r)) {
		unit_print_detail("SAMPLES", u, status, rec);
		return;
	}
	printf("SAMPLES %s %s %s complete: %lld × %lld call(s), median %.4g s, P5 %.4g s, "
	       "P95 %.4g s, %lld outlier(s)\n", u->cand, u->label, u->op,
	       jget_int(r, "n", 0), jget_int(rec, "batch", 0), jget_real(r, "median_s", 0),
	       jget_real(r, "p5_s", 0), jget_real(r, "p95_s", 0), jget_int(r, "outliers", 0));
}

/* A sample record follows its timing record, which has passed the stale
 * rule already: one of another library is simply redone. */
static const struct resume_kind samples_kind = { SAMPLES_KIND, &samples_format, 1 };

static void *sampling_prepare(struct unit_pass *ps, struct unit *u, const void **fp)
{
	json_t *timing = engine_timing_record(ps->e, u);
	if (!timing)
		return NULL;
	const json_t *plan = json_object_get(timing, "plan");
	u->t1_s = jget_real(plan, "t1_s", 0);
	u->setup_s = jget_real(plan, "setup_s", 0);
	double mean_s = jget_real(timing, "mean_seconds", 0);
	if (!sampling_wanted(u->t1_s, mean_s) || !(mean_s > 0)) {
		json_decref(timing);   /* 10 ms or more a call: not sampled (§6.6) */
		return NULL;
	}
	*fp = u->library_sha256;
	return timing;
}

static json_t *sampling_run(struct unit_pass *ps, struct unit *u, void *timing)
{
	return run_unit(ps->e, u, timing);
}

static void release_json(void *j)
{
	json_decref(j);
}

static const struct unit_pass_ops sampling_ops = {
	"sampling", &samples_kind, sampling_prepare, sampling_run, print_samples, release_json, NULL,
};

int sampling_after_measure(const struct engine_opts *o, int rc)
{
	sampling_record_option(o, !o->no_sampling);
	int src = o->no_sampling ? EXIT_OK : sampling_phase(o);
	return src > rc ? src : rc;
}

int sampling_phase(const struct engine_opts *o)
{
	struct engine e;
	struct unit_pass ps;
	memset(&ps, 0, sizeof ps);
	ps.e = &e;
	int rc = engine_begin(&e, o, "sampling");
	if (rc == EXIT_OK) {
		unit_pass_run(&ps, &sampling_ops);
		rc = ps.refused ? EXIT_USAGE : ps.t.failed ? EXIT_FAILED : EXIT_OK;
		rc = engine_summary(&e, &ps.t, "sample record", "sampled", rc);
		engine_end(&e, rc);
	}
	engine_free(&e);
	return rc;
}
