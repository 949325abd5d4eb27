/* memory.c — see memory.h (docs/method.md §8, R5, R6). */
#include "campaign/memory.h"

#include "campaign/repeat.h"
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

long memory_calls(double t1_s)
{
	if (!(t1_s > 0))
		return MEMORY_MAX_CALLS;
	double n = floor(MEMORY_CALL_BUDGET_S / (2 * t1_s));
	if (n < 1)
		return 1;
	return n > MEMORY_MAX_CALLS ? MEMORY_MAX_CALLS : (long)n;
}

double memory_timeout_s(long calls, double t1_s, double setup_s)
{
	return 3 * 2 * (double)calls * (t1_s > 0 ? t1_s : 0) + 3 * setup_s + 120;
}

/* ---- the option ------------------------------------------------------------- */

int memory_strip_option(int *argc, char **argv)
{
	return repeat_strip_option(argc, argv, MEMORY_NO_PASS_OPTION);
}

static int option_cb(json_t *doc, void *ctx)
{
	campaign_set_option(doc, "memory_pass", json_boolean(*(int *)ctx));
	return 0;
}

void memory_record_option(const struct engine_opts *o, int enabled)
{
	unit_pass_update_campaign(o, option_cb, &enabled);
}

/* ---- one unit -------------------------------------------------------------------- */

struct run_facts {
	const json_t *timing;
	json_t *command;          /* borrowed */
	struct spawn_res *res;    /* NULL: not started */
	json_t *result;           /* the program's fd-3 JSON, or NULL */
	long calls;
	double timeout_s;
	const char *started, *ended;
	json_t *load_start, *load_end;
};

static const char *run_status(const struct run_facts *f, char **detail)
{
	const char *st = unit_pass_child_status(f->res, f->result, f->timeout_s, "memory program",
						detail);
	if (strcmp(st, ST_COMPLETE))
		return st;
	if (jget_int(f->result, "calls", 0) != f->calls) {
		*detail = xasprintf("%lld of %ld calls made", jget_int(f->result, "calls", 0), f->calls);
		return ST_FAILED;
	}
	*detail = NULL;
	return ST_COMPLETE;
}

static json_t *result_value(const struct run_facts *f, const char *key)
{
	json_t *v = json_object_get(f->result, key);
	return v ? json_deep_copy(v) : json_null();
}

static json_t *build_record(const struct engine *e, const struct unit *u, const struct run_facts *f)
{
	static const char *const identity[] = { "candidate", "label", "instance", "variant", "flags",
		"operation", "op_key", "input_bytes", NULL };
	static const char *const inputs[] = { "seed", "inputs", "kat", "kat_not_passed", "library",
		"library_sha256", "kat_log", "kat_log_sha256", NULL };
	static const char *const counter[] = { "counter", NULL };
	char *detail = NULL;
	const char *status = run_status(f, &detail);
	json_t *j = json_object();
	json_object_set_new(j, "schema", evidence_schema(MEMORY_KIND, MEMORY_VERSION));
	json_object_set_new(j, "status", json_string(status));
	if (detail)
		json_object_set_new(j, "status_detail", json_string(detail));
	unit_pass_copy_keys(j, f->timing, identity);
	json_object_set_new(j, "plan", json_pack("{s:I, s:f, s:f, s:f}", "calls", (json_int_t)f->calls,
						 "timeout_s", f->timeout_s, "t1_s", u->t1_s,
						 "setup_s", u->setup_s));
	unit_pass_copy_keys(j, f->timing, inputs);
	json_object_set_new(j, "host", json_deep_copy(e->host_state));
	json_object_set_new(j, "started_utc", json_string(f->started));
	json_object_set_new(j, "ended_utc", json_string(f->ended));
	json_object_set_new(j, "load_average_start", json_incref(f->load_start));
	json_object_set_new(j, "load_average_end", json_incref(f->load_end));
	json_object_set_new(j, "environment", json_deep_copy(e->env));
	json_object_set_new(j, "cpu", json_integer(e->cpu));
	unit_pass_copy_keys(j, f->timing, counter);
	json_object_set_new(j, "process", unit_pass_process_json(f->res, f->command, status, detail));
	char *timing_path = xasprintf("records/%s/%s.json", u->cand, u->stem);
	json_object_set_new(j, "timing_record", json_string(timing_path));
	free(timing_path);
	json_t *pc = json_object_get(f->result, "per_call");
	json_object_set_new(j, "per_call", json_is_object(pc) ? json_deep_copy(pc) :
			    json_pack("{s:[], s:[], s:[]}", "stack_peak_bytes", "heap_peak_bytes",
				      "allocations"));
	json_t *extra = json_object_get(f->result, "extra");
	if (json_is_object(extra))
		json_object_set_new(j, "observed_lengths", json_deep_copy(extra));
	memory_derive(j);
	static const char *const facts[] = { "heap_table_overflow", "heap_counting", "loaded_rss_bytes",
		"baseline_rss_bytes", "op_peak_rss_bytes", "op_peak_method", "empty_stack_bytes",
		"stack_bytes", "stack_scan", NULL };
	for (const char *const *k = facts; *k; k++)
		json_object_set_new(j, *k, result_value(f, *k));
	free(detail);
	return j;
}

/* Run the memory program for u; returns the record (never NULL). */
static json_t *run_unit(struct unit_pass *ps, const struct unit *u, const json_t *timing)
{
	struct engine *e = ps->e;
	struct child_cmd cmd;
	struct run_facts f;
	struct pass_child ch;
	memset(&f, 0, sizeof f);
	f.timing = timing;
	f.calls = memory_calls(u->t1_s);
	/* sign also makes MEMORY_SIGNATURES signatures for their lengths */
	long more = strcmp(u->op, "sign") ? 0 : (MEMORY_SIGNATURES + 1) / 2;
	f.timeout_s = engine_timeout(e, memory_timeout_s(f.calls + more, u->t1_s, u->setup_s));
	child_cmd_init(&cmd, MEMORY_PROGRAM_NAME);
	child_cmd_arg(&cmd, "--lib");
	child_cmd_arg(&cmd, u->library);
	child_cmd_arg(&cmd, "--op");
	child_cmd_arg(&cmd, u->op);
	child_cmd_arg(&cmd, "--calls");
	child_cmd_argf(&cmd, "%ld", f.calls);
	child_cmd_arg(&cmd, "--cpu");
	child_cmd_argf(&cmd, "%d", e->cpu);
	f.command = cmd.shown;
	unit_pass_spawn(e, &cmd, f.timeout_s, &ch);
	f.started = ch.started;
	f.ended = ch.ended;
	f.load_start = ch.load_start;
	f.load_end = ch.load_end;
	f.res = ch.ran ? &ch.res : NULL;
	f.result = ch.result;
	json_t *rec = build_record(e, u, &f);
	unit_pass_child_free(&ch);
	child_cmd_free(&cmd);
	return rec;
}

static void print_memory(const struct unit *u, const json_t *rec)
{
	const char *status = jget_str(rec, "status", "?");
	if (strcmp(status, ST_COMPLETE)) {
		unit_print_detail("MEMORY", u, status, rec);
		return;
	}
	printf("MEMORY %s %s %s complete: stack %lld B, heap %lld B, %.3g allocations/call, "
	       "operation peak RSS %lld B (%s)\n", u->cand, u->label, u->op,
	       jget_int(rec, "stack_peak_bytes", -1), jget_int(rec, "heap_peak_bytes", -1),
	       jget_real(rec, "allocations_per_call", 0), jget_int(rec, "op_peak_rss_bytes", -1),
	       jget_str(rec, "op_peak_method", "?"));
}

/* A memory record follows its timing record, which has passed the stale
 * rule already: one of another library is simply redone. */
static const struct resume_kind memory_kind = { MEMORY_KIND, &memory_format, 1 };

static void *memory_prepare(struct unit_pass *ps, struct unit *u, const void **fp)
{
	json_t *timing = engine_timing_record(ps->e, u);
	if (!timing)
		return NULL; /* only complete timing records get a memory record */
	/* The calibration's figures, as the timing record planned with them. */
	const json_t *plan = json_object_get(timing, "plan");
	u->t1_s = jget_real(plan, "t1_s", 0);
	u->setup_s = jget_real(plan, "setup_s", 0);
	*fp = u->library_sha256;
	return timing;
}

static json_t *memory_run(struct unit_pass *ps, struct unit *u, void *timing)
{
	return run_unit(ps, u, timing);
}

static void release_json(void *j)
{
	json_decref(j);
}

static const struct unit_pass_ops memory_ops = {
	"memory", &memory_kind, memory_prepare, memory_run, print_memory, release_json, NULL,
};

int memory_phase(const struct engine_opts *o)
{
	struct engine e;
	struct unit_pass ps;
	memset(&ps, 0, sizeof ps);
	ps.e = &e;
	char *prog = NULL;
	int rc = engine_begin(&e, o, "memory");
	if (rc == EXIT_OK) {
		prog = ngcc_program(MEMORY_PROGRAM_NAME);
		if (!path_is_file(prog)) {
			ngcc_error("the memory program %s is missing; run `make` in the ngcc-perf tree, "
				   "or pass %s", prog, MEMORY_NO_PASS_OPTION);
			rc = EXIT_SYSTEM;
		} else {
			unit_pass_run(&ps, &memory_ops);
			rc = ps.refused ? EXIT_USAGE : ps.t.failed ? EXIT_FAILED : EXIT_OK;
			rc = engine_summary(&e, &ps.t, "memory record", "measured", rc);
		}
		engine_end(&e, rc);
	}
	free(prog);
	engine_free(&e);
	return rc;
}
