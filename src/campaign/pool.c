/* pool.c — see pool.h (docs/method.md §14 R2). */
#include "campaign/pool.h"

#include "campaign/rundir.h"
#include "campaign/unitpass.h"
#include "evidence/campaign_json.h"
#include "evidence/json.h"
#include "evidence/record.h"
#include "proc/command.h"
#include "util/interrupt.h"
#include "util/untrusted.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long pool_calls_per_batch(const struct planning *p, double t1_s)
{
	double target = p->trial_target_s / POOL_BATCH_DIVISOR;
	double n = t1_s > 0 ? ceil(target / t1_s) : (double)p->max_iters_per_trial;
	if (n < 1)
		return 1;
	return n > p->max_iters_per_trial ? p->max_iters_per_trial : (long)n;
}

double pool_timeout_s(long pool, long calls, double t1_s, double setup_s)
{
	double calls_total = (double)pool * ((double)POOL_ROUNDS * (double)calls + POOL_WARMUPS);
	return 3 * calls_total * (t1_s > 0 ? t1_s : 0) + 3 * (double)pool * setup_s + 120;
}

/* ---- the options in campaign.json ----------------------------------------------- */

static int options_cb(json_t *doc, void *ctx)
{
	const struct engine_opts *o = ctx;
	campaign_set_option(doc, "input_pool", json_integer(o->input_pool));
	campaign_set_option(doc, "seed_mode", json_string(o->seed_per_trial ? "per-trial" : "fixed"));
	return 0;
}

void pool_record_options(const struct engine_opts *o)
{
	unit_pass_update_campaign(o, options_cb, (void *)o);
}

/* ---- one unit ---------------------------------------------------------------------- */

struct unit_plan {
	long pool, calls;
	double t1_s, setup_s, timeout_s;
};

/* The driver's batches as per_input entries; NULL when its pool is not
 * the one planned (size, rounds, calls). */
static json_t *per_input(const json_t *result, const struct unit_plan *pl)
{
	const json_t *pool = json_object_get(result, "pool");
	const json_t *inputs = json_object_get(pool, "inputs");
	if (jget_int(pool, "size", -1) != pl->pool || jget_int(pool, "calls_per_batch", -1) != pl->calls ||
	    json_array_size(inputs) != (size_t)pl->pool)
		return NULL;
	json_t *out = json_array();
	size_t i;
	json_t *in;
	json_array_foreach(inputs, i, in) {
		const json_t *ns = json_object_get(in, "ns");
		if (json_array_size(ns) != POOL_ROUNDS) {
			json_decref(out);
			return NULL;
		}
		json_array_append_new(out, json_pack("{sIsssOsOsI}", "input", (json_int_t)i,
						     "seed_hex", jget_str(in, "seed_hex", ""),
						     "batch_ns", ns,
						     "batch_cycles", json_object_get(in, "cycles"),
						     "preempted_batches_redone",
						     (json_int_t)jget_int(in, "retries", 0)));
	}
	return out;
}

static const char *run_status(const struct spawn_res *r, const json_t *result,
			      const struct unit_plan *pl, json_t **inputs, char **detail)
{
	*inputs = NULL;
	const char *st = unit_pass_child_status(r, result, pl->timeout_s, "driver", detail);
	if (strcmp(st, ST_COMPLETE))
		return st;
	if (!(*inputs = per_input(result, pl))) {
		*detail = xasprintf("the driver's pool is not the one planned (%ld inputs, %d rounds "
				    "of %ld calls)", pl->pool, POOL_ROUNDS, pl->calls);
		return ST_FAILED;
	}
	return ST_COMPLETE;
}

struct run_out {
	const struct spawn_res *res;
	const json_t *result;
	json_t *command;
	const char *started, *ended;
	json_t *load_start, *load_end;
};

static json_t *build_record(const struct engine *e, const struct unit *u, const json_t *timing,
			    const struct unit_plan *pl, const struct run_out *ro)
{
	static const char *const identity[] = { "candidate", "label", "instance", "variant", "flags",
		"operation", "op_key", "input_bytes", NULL };
	static const char *const build[] = { "kat", "kat_not_passed", "library", "library_sha256",
		"kat_log", "kat_log_sha256", NULL };
	char *detail = NULL;
	json_t *inputs = NULL;
	const char *status = run_status(ro->res, ro->result, pl, &inputs, &detail);
	json_t *j = json_object();
	json_object_set_new(j, "schema", evidence_schema(POOL_KIND, POOL_VERSION));
	json_object_set_new(j, "status", json_string(status));
	if (detail)
		json_object_set_new(j, "status_detail", json_string(detail));
	unit_pass_copy_keys(j, timing, identity);
	json_object_set_new(j, "plan", json_pack("{sIsisIsisfsfsf}", "pool_size", (json_int_t)pl->pool,
						 "rounds", POOL_ROUNDS, "calls_per_batch",
						 (json_int_t)pl->calls, "warmups_per_input",
						 POOL_WARMUPS, "timeout_s", pl->timeout_s,
						 "t1_s", pl->t1_s, "setup_s", pl->setup_s));
	json_object_set_new(j, "seed", json_pack("{ssss}", "mode", "per-input", "rule",
						 "input k: bytes 00..2e, then 0x30 + k"));
	json_object_set_new(j, "inputs", json_pack("{sssI}", "mode", "pool", "pool_size",
						   (json_int_t)pl->pool));
	unit_pass_copy_keys(j, timing, build);
	json_object_set_new(j, "host", json_deep_copy(e->host_state));
	json_object_set_new(j, "started_utc", json_string(ro->started));
	json_object_set_new(j, "ended_utc", json_string(ro->ended));
	json_object_set_new(j, "load_average_start", json_incref(ro->load_start));
	json_object_set_new(j, "load_average_end", json_incref(ro->load_end));
	json_object_set_new(j, "environment", json_deep_copy(e->env));
	json_object_set_new(j, "cpu", json_integer(e->cpu));
	const json_t *counter = json_object_get(ro->result, "counter");
	json_object_set_new(j, "counter", counter ? json_deep_copy(counter) : json_null());
	json_object_set_new(j, "process", unit_pass_process_json(ro->res, ro->command, status, detail));
	char *timing_path = xasprintf("records/%s/%s.json", u->cand, u->stem);
	json_object_set_new(j, "timing_record", json_string(timing_path));
	free(timing_path);
	json_object_set_new(j, "per_input", inputs ? inputs : json_array());
	pool_derive(j);
	free(detail);
	return j;
}

static json_t *run_unit(struct unit_pass *ps, const struct unit *u, const json_t *timing,
			const struct unit_plan *pl)
{
	struct engine *e = ps->e;
	struct child_cmd cmd;
	struct run_out ro;
	struct pass_child ch;
	memset(&ro, 0, sizeof ro);
	child_cmd_init(&cmd, DRIVER_NAME);
	child_cmd_arg(&cmd, "--lib");
	child_cmd_arg(&cmd, u->library);
	child_cmd_arg(&cmd, "--op");
	child_cmd_arg(&cmd, u->op);
	child_cmd_arg(&cmd, "--input-pool");
	child_cmd_argf(&cmd, "%ld", pl->pool);
	child_cmd_arg(&cmd, "--trials");
	child_cmd_argf(&cmd, "%d", POOL_ROUNDS);
	child_cmd_arg(&cmd, "--iters");
	child_cmd_argf(&cmd, "%ld", pl->calls);
	child_cmd_arg(&cmd, "--warmups");
	child_cmd_argf(&cmd, "%d", POOL_WARMUPS);
	engine_timing_args(e, &cmd);
	/* the allowance of docs/method.md §4.4 for the batches */
	if (e->have_background) {
		child_cmd_arg(&cmd, "--switch-rate");
		child_cmd_argf(&cmd, "%.6g", e->background.invol_per_s_max);
	}
	ro.command = cmd.shown;
	unit_pass_spawn(e, &cmd, pl->timeout_s, &ch);
	ro.started = ch.started;
	ro.ended = ch.ended;
	ro.load_start = ch.load_start;
	ro.load_end = ch.load_end;
	ro.res = ch.ran ? &ch.res : NULL;
	ro.result = ch.result;
	json_t *rec = build_record(e, u, timing, pl, &ro);
	unit_pass_child_free(&ch);
	child_cmd_free(&cmd);
	return rec;
}

static void print_pool(const struct unit *u, const json_t *rec)
{
	const char *status = jget_str(rec, "status", "?");
	if (strcmp(status, ST_COMPLETE)) {
		unit_print_detail("POOL", u, status, rec);
		return;
	}
	printf("POOL %s %s %s complete: %lld inputs, medians %.4g..%.4g ns, ratio %.3f%s\n",
	       u->cand, u->label, u->op, jget_int(json_object_get(rec, "plan"), "pool_size", 0),
	       jget_real(rec, "median_ns_per_call_min", 0), jget_real(rec, "median_ns_per_call_max", 0),
	       jget_real(rec, "input_ratio", 0),
	       jget_bool(rec, "input_dependent", 0) ? " (input-dependent timing)" : "");
}

static const struct resume_kind pool_kind = { POOL_KIND, &pool_format, 1 };

struct pool_todo {
	json_t *timing;         /* complete timing record fast enough for a pool */
	struct unit_plan plan;
	struct pool_fp fp;      /* the resume rule's fingerprint */
};

static void *pool_prepare(struct unit_pass *ps, struct unit *u, const void **fp)
{
	struct engine *e = ps->e;
	json_t *timing = engine_timing_record(e, u);
	const json_t *plan = json_object_get(timing, "plan");
	double t1 = jget_real(plan, "t1_s", 0);
	if (!timing || !(t1 < POOL_MAX_T1_S)) {
		json_decref(timing);
		return NULL; /* slow operations get no pool (docs/method.md §14 R2) */
	}
	struct pool_todo *td = xcalloc(1, sizeof *td);
	td->timing = timing;
	td->plan.pool = e->o.input_pool;
	td->plan.t1_s = t1;
	td->plan.setup_s = jget_real(plan, "setup_s", 0);
	td->plan.calls = pool_calls_per_batch(&e->o.planning, t1);
	td->plan.timeout_s = engine_timeout(e, pool_timeout_s(td->plan.pool, td->plan.calls, t1,
							       td->plan.setup_s));
	td->fp.library_sha256 = u->library_sha256;
	td->fp.pool_size = td->plan.pool;
	*fp = &td->fp;
	return td;
}

static json_t *pool_run(struct unit_pass *ps, struct unit *u, void *inputs)
{
	struct pool_todo *td = inputs;
	return run_unit(ps, u, td->timing, &td->plan);
}

static void pool_release(void *inputs)
{
	struct pool_todo *td = inputs;
	json_decref(td->timing);
	free(td);
}

/* The batches' switch allowance: the run's background of this CPU (reused
 * when measure had nothing to time; without one, none). */
static void pool_before(struct unit_pass *ps, int n)
{
	struct engine *e = ps->e;
	if (n && !e->have_background && engine_background(e))
		ngcc_warning("pool: no background probe of CPU %d; a batch with any involuntary "
			     "switch is timed again", e->cpu);
}

static const struct unit_pass_ops pool_ops = {
	"pool", &pool_kind, pool_prepare, pool_run, print_pool, pool_release, pool_before,
};

int pool_in_measure(struct engine *e)
{
	if (e->o.input_pool <= 0 || interrupt_pending())
		return EXIT_OK;
	struct unit_pass ps;
	memset(&ps, 0, sizeof ps);
	ps.e = e;
	const char *phase = e->phase;
	e->phase = "pool";
	unit_pass_run(&ps, &pool_ops);
	int rc = ps.refused ? EXIT_USAGE : ps.t.failed ? EXIT_FAILED : EXIT_OK;
	rc = engine_summary(e, &ps.t, "pool record", "measured", rc);
	e->phase = phase;
	return rc;
}
