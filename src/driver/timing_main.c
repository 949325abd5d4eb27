/*
 * timing_main.c — bin/ngcc-perf-driver: time one operation of one
 * candidate library in this process (docs/method.md §5).
 *
 *   ngcc-perf-driver --lib PATH --op OP --trials T --iters I
 *                    --warmups W [--cpu N] [--seed-hex HEX]
 *                    [--counter auto|fallback] [--counter-hz NAME=HZ]
 *                    [--trial-seeds FIRST] [--input-pool P [--switch-rate R]]
 *
 * --trial-seeds (R1, docs/method.md §14): before trial t the DRNG is seeded
 * again with seed_indexed(FIRST + t) (method/seeds.h), untimed; the seeds
 * are listed in the result (trial_seeds_hex).  --input-pool (R2): P inputs
 * prepared untimed (driver/pool.h); each of the T trials is a round that
 * times one batch of I calls on every input in turn, after W warm-up calls
 * per input; the batches go to the result's "pool", not to "trials".  A
 * batch with more involuntary context switches than the background rate R
 * per second allows (docs/method.md §4.4's allowance; R = 0: none) is
 * timed again.
 *   ngcc-perf-driver --lib PATH --op OP --samples S --call-ns NS --warmups W ...
 *
 * With --samples the process samples instead of timing trials (R11,
 * driver/timing_sampling.h): S samples of a batch of calls chosen for a
 * call of NS nanoseconds; the result adds "samples".
 *
 * --counter-hz gives the rate its phase calibrated for counter NAME: taken
 * (counter.hz_source "phase") when the counter this process opens is NAME,
 * else the process calibrates its own (docs/method.md §6.2).
 *
 * The result is one JSON object written on fd 3 (SPAWN_RESULT_FD), never on
 * stdout or stderr: the candidate shares those.  Exit codes: 0 complete,
 * 2 usage/load/symbol error, 3 setup or operation failure, 4 partial
 * (interrupted between trials), 5 output validation failed (R3).
 *
 * Buffers, setup, the calls, the timed loops and the output validation are
 * the operation code of the library's type (driver/ops.h); this file adds
 * the trials, the counter and the result.  An operation whose scope is
 * per_call_step (a KEX step) has each call bracketed alone and the
 * brackets summed into the trial.  This program's resident set is part
 * of the published peak RSS, so it is kept small on purpose: only libc,
 * jansson (for the result), the loader, the operation code and the
 * counter; no allocation wrappers (the memory pass has its own program).
 */
#include "driver/child.h"
#include "driver/ops.h"
#include "driver/pool.h"
#include "driver/procmem.h"
#include "driver/timing_sampling.h"
#include "host/counter.h"
#include "host/counter_unit.h"
#include "host/threadcounts.h"
#include "method/plan.h"
#include "proc/spawn.h"

#include <getopt.h>
#include <jansson.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	DRV_OK = 0,
	DRV_USAGE = 2,
	DRV_OPFAIL = 3,
	DRV_PARTIAL = 4,
	DRV_INVALID = 5,
};

#define OVERHEAD_BRACKETS 31

struct options {
	struct op_opts k;
	long trials, iters, warmups;
	int force_fallback;
	struct counter_rate given;  /* --counter-hz */
	int has_given;
	long trial_seeds_first;     /* R1: -1 off */
	long pool;                  /* R2: inputs, 0 off */
	double switch_rate;         /* R2: background involuntary switches per second */
	long samples;               /* --samples: sampling mode (R11) */
	double call_ns;             /* --call-ns */
};

struct trial_rec {
	uint64_t calls, ns, cycles;
	long invol, vol, migrations, minflt, majflt;
};

static volatile sig_atomic_t interrupted;
static int result_fd = -1;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* ---- options ----------------------------------------------------------- */

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf-driver --lib PATH --op OP --trials T\n"
		"                        --iters I --warmups W [--cpu N]\n"
		"                        [--seed-hex HEX] [--counter auto|fallback]\n"
		"                        [--counter-hz NAME=HZ] [--trial-seeds FIRST]\n"
		"                        [--input-pool P [--switch-rate R]]\n"
		"       ngcc-perf-driver --lib PATH --op OP --samples S --call-ns NS\n"
		"                        --warmups W [...]   (per-call samples, R11)\n"
		"OP: %s\n"
		"Times one operation (docs/method.md §5); the JSON result goes to fd 3.\n"
		"--counter-hz: the phase's rate of counter NAME, used instead of a 100 ms\n"
		"calibration when this process opens the same counter.\n"
		"--trial-seeds: seed trial t with 00..2e, 0x30 + FIRST + t (R1).\n"
		"--input-pool: T rounds of one I-call batch on each of P inputs (R2); a\n"
		"batch with more involuntary switches than R per second allow is redone.\n"
		"Exit: 0 complete, 2 usage/load, 3 setup/operation failure,\n"
		"      4 partial, 5 output validation failed.\n", ops_usage_list());
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		OPS_LONG_OPTIONS,
		{ "trials", required_argument, NULL, 't' },
		{ "iters", required_argument, NULL, 'i' },
		{ "warmups", required_argument, NULL, 'w' },
		{ "counter", required_argument, NULL, 'k' },
		{ "counter-hz", required_argument, NULL, 'z' },
		{ "trial-seeds", required_argument, NULL, 'f' },
		{ "input-pool", required_argument, NULL, 'p' },
		{ "switch-rate", required_argument, NULL, 'r' },
		{ "samples", required_argument, NULL, 'S' },
		{ "call-ns", required_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	op_opts_init(&o->k);
	o->trials = -1;
	o->iters = -1;
	o->warmups = -1;
	o->trial_seeds_first = -1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		int ours = op_opt(&o->k, c, optarg);
		if (ours < 0)
			goto bad;
		if (ours)
			continue;
		switch (c) {
		case 't': if (child_parse_long(optarg, 1, &o->trials)) goto bad; break;
		case 'i': if (child_parse_long(optarg, 1, &o->iters)) goto bad; break;
		case 'w': if (child_parse_long(optarg, 0, &o->warmups)) goto bad; break;
		case 'k':
			if (!strcmp(optarg, "fallback"))
				o->force_fallback = 1;
			else if (strcmp(optarg, "auto"))
				goto bad;
			break;
		case 'z':
			if (counter_rate_parse(optarg, &o->given))
				goto bad;
			o->has_given = 1;
			break;
		case 'f':
			if (child_parse_long(optarg, 0, &o->trial_seeds_first) ||
			    o->trial_seeds_first > SEED_INDEX_MAX)
				goto bad;
			break;
		case 'p':
			if (child_parse_long(optarg, 1, &o->pool) || o->pool > POOL_MAX_INPUTS)
				goto bad;
			break;
		case 'r': {
			char *end;
			o->switch_rate = strtod(optarg, &end);
			if (*end || end == optarg || !(o->switch_rate >= 0) || o->switch_rate > 1e6)
				goto bad;
			break;
		}
		case 'S': if (child_parse_long(optarg, 1, &o->samples)) goto bad; break;
		case 'N': {
			char *end;
			o->call_ns = strtod(optarg, &end);
			if (end == optarg || *end || !(o->call_ns > 0) || o->call_ns > 1e13)
				goto bad;
			break;
		}
		case 'h':
			usage(stdout);
			exit(DRV_OK);
		default:
			goto bad;
		}
	}
	if (o->samples > 0 && o->trials < 0 && o->iters < 0)
		o->trials = o->iters = 0;   /* sampling mode: no trials */
	if (!op_opts_complete(&o->k) || o->trials < 0 || o->iters < 0 || o->warmups < 0 ||
	    optind != argc ||
	    (o->trial_seeds_first >= 0 && o->trial_seeds_first + o->trials - 1 > SEED_INDEX_MAX) ||
	    (o->samples > 0 && (o->trials || o->iters || !(o->call_ns > 0) || o->pool)))
		goto bad;
	return 0;
bad:
	fprintf(stderr, "ngcc-perf-driver: invalid or missing option near '%s'\n",
		optind > 0 && optind <= argc ? argv[optind - 1] : "");
	usage(stderr);
	return -1;
}

/* The per-call bracket of a per_call_step operation: the counter and the
 * clock around each measured call, summed over the trial. */
struct step_sum {
	struct counter *c;
	uint64_t state, t0, cycles, ns;
};

static void step_begin(void *arg)
{
	struct step_sum *s = arg;
	counter_start(s->c, &s->state);
	s->t0 = clock_raw_ns();
}

static void step_end(void *arg)
{
	struct step_sum *s = arg;
	uint64_t t1 = clock_raw_ns();
	s->cycles += counter_stop(s->c, &s->state);
	s->ns += t1 - s->t0;
}

/* The trial's calls: the whole loop in one bracket, or (per_call_step)
 * each call in its own.  Returns the calls that succeeded. */
static long timed_calls(struct op_ctx *k, long iters, struct counter *c,
			uint64_t *cycles, uint64_t *ns)
{
	if (!strcmp(ops_timing_scope(k), OPS_SCOPE_STEP)) {
		struct step_sum s = { c, 0, 0, 0, 0 };
		struct op_bracket b = { step_begin, step_end, &s };
		long done = ops_run_loop(k, iters, &b);
		*cycles = s.cycles;
		*ns = s.ns;
		return done;
	}
	uint64_t state, t0, t1;
	counter_start(c, &state);
	t0 = clock_raw_ns();
	long done = ops_run_loop(k, iters, NULL);
	t1 = clock_raw_ns();
	*cycles = counter_stop(c, &state);
	*ns = t1 - t0;
	return done;
}

/* One trial (docs/method.md §5.1 step 8).  Returns 0, or -1 on an operation failure
 * (the trial is then not recorded). */
static int run_trial(struct op_ctx *k, long iters, struct counter *c, struct trial_rec *t)
{
	struct thread_counts a, b;
	thread_counts_read(&a);
	long done = timed_calls(k, iters, c, &t->cycles, &t->ns);
	thread_counts_read(&b);
	if (done != iters)
		return -1;
	t->calls = (uint64_t)iters;
	if (c->kind == COUNTER_NONE)
		t->cycles = 0;
	t->invol = b.invol - a.invol;
	t->vol = b.vol - a.vol;
	t->minflt = b.minflt - a.minflt;
	t->majflt = b.majflt - a.majflt;
	t->migrations = thread_counts_migrations(&a, &b);
	return 0;
}

/* ---- result JSON --------------------------------------------------------- */

struct result {
	const char *status;
	int exit_code;
	const char *error;
	struct trial_rec *trials;
	long n_trials;
	long long loaded, baseline, h1, h2, op_peak;
	const char *op_peak_method;
	int validation_performed, validation_ok;
	const char *validation_detail;
	double overhead_ticks, overhead_ns;
	json_t *pool;               /* R2: the batches per input, or NULL */
	struct sampling_run *sampling;   /* sampling mode, else NULL */
};

static json_t *jnum_or_null(long long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static json_t *meta_json(const struct options *o, const struct op_ctx *k)
{
	const struct ngcc_meta *m = k->lib.meta;
	json_t *j = json_object();
	json_object_set_new(j, "id", json_string(m ? m->id : ""));
	json_object_set_new(j, "instance", json_string(m ? m->instance : ""));
	json_object_set_new(j, "label", json_string(m ? m->label : ""));
	json_object_set_new(j, "variant", json_string(m ? m->variant : ""));
	json_object_set_new(j, "operation", json_string(o->k.op));
	json_object_set_new(j, "type", json_string(k->type ? k->type->name : ""));
	json_object_set_new(j, "input_bytes", json_null());
	json_object_set_new(j, "build_flags", json_string(m ? m->flags : ""));
	ops_meta_json(k, j);
	json_object_set_new(j, "timing_scope", json_string(ops_timing_scope(k)));
	json_object_set_new(j, "warmups", json_integer(o->warmups));
	json_object_set_new(j, "trials_requested", json_integer(o->trials));
	json_object_set_new(j, "iterations_per_trial", json_integer(o->iters));
	json_object_set_new(j, "runtime", json_string(m && m->runtime ? m->runtime : ""));
	json_object_set_new(j, "migrations_source", json_string(thread_counts_migrations_source()));
	return j;
}

static json_t *trials_json(const struct result *r)
{
	json_t *a = json_array();
	for (long i = 0; i < r->n_trials; i++) {
		const struct trial_rec *t = &r->trials[i];
		json_t *j = json_object();
		json_object_set_new(j, "calls", json_integer((json_int_t)t->calls));
		json_object_set_new(j, "ns", json_integer((json_int_t)t->ns));
		json_object_set_new(j, "cycles", t->cycles ? json_integer((json_int_t)t->cycles) : json_null());
		json_object_set_new(j, "invol_switches", json_integer(t->invol));
		json_object_set_new(j, "vol_switches", json_integer(t->vol));
		json_object_set_new(j, "migrations", json_integer(t->migrations));
		json_object_set_new(j, "minor_faults", json_integer(t->minflt));
		json_object_set_new(j, "major_faults", json_integer(t->majflt));
		json_array_append_new(a, j);
	}
	return a;
}

static json_t *rss_json(const struct result *r)
{
	json_t *j = json_object();
	long long peak = r->h1 < 0 && r->h2 < 0 ? -1 :
		(r->h1 > r->h2 ? r->h1 : r->h2) * 1024;
	json_object_set_new(j, "loaded", jnum_or_null(r->loaded));
	json_object_set_new(j, "baseline", jnum_or_null(r->baseline));
	json_object_set_new(j, "peak", jnum_or_null(peak));
	json_object_set_new(j, "op_peak", jnum_or_null(r->op_peak));
	json_object_set_new(j, "op_peak_method", json_string(r->op_peak_method));
	json_object_set_new(j, "hwm_after_setup_kib", jnum_or_null(r->h1));
	json_object_set_new(j, "hwm_after_trials_kib", jnum_or_null(r->h2));
	return j;
}

static json_t *counter_json(const struct counter *c, const struct result *r)
{
	json_t *j = json_object();
	int none = c->kind == COUNTER_NONE;
	json_object_set_new(j, "name", json_string(c->name ? c->name : "none"));
	json_object_set_new(j, "hz", none ? json_null() : json_real(c->hz));
	json_object_set_new(j, "hz_source", c->hz_source ? json_string(c->hz_source) : json_null());
	json_object_set_new(j, "resolution", none ? json_null() : json_real(c->resolution));
	json_object_set_new(j, "overhead_cycles_median", none || r->overhead_ticks < 0 ?
			    json_null() : json_real(r->overhead_ticks));
	json_object_set_new(j, "overhead_ns_median", r->overhead_ns < 0 ?
			    json_null() : json_real(r->overhead_ns));
	json_object_set_new(j, "why_fallback", c->why_fallback ?
			    json_string(c->why_fallback) : json_null());
	counter_unit_json(c, j);
	return j;
}

/* R1: the seeds of the trials run, in order. */
static json_t *trial_seeds_json(const struct options *o, long n)
{
	json_t *a = json_array();
	char hex[2 * SEED_BYTES + 1];
	for (long t = 0; t < n; t++) {
		seed_indexed_hex((unsigned)(o->trial_seeds_first + t), hex);
		json_array_append_new(a, json_string(hex));
	}
	return a;
}

static void emit_result(const struct options *o, const struct op_ctx *k,
			const struct counter *c, const struct result *r)
{
	char seed_hex[2 * OPS_SEED_LEN + 1];
	child_hex(o->k.seed, o->k.seed_len, seed_hex);
	json_t *j = json_object();
	json_object_set_new(j, "schema", json_string("ngcc-perf/driver-result/1"));
	json_object_set_new(j, "status", json_string(r->status));
	json_object_set_new(j, "exit_code", json_integer(r->exit_code));
	json_object_set_new(j, "error", r->error ? json_string(r->error) : json_null());
	json_object_set_new(j, "meta", meta_json(o, k));
	json_object_set_new(j, "seed_hex", json_string(seed_hex));
	json_object_set_new(j, "trials", trials_json(r));
	if (o->trial_seeds_first >= 0)
		json_object_set_new(j, "trial_seeds_hex", trial_seeds_json(o, r->n_trials));
	if (r->pool)
		json_object_set_new(j, "pool", json_incref(r->pool));
	json_object_set_new(j, "rss", rss_json(r));
	json_t *v = json_object();
	json_object_set_new(v, "performed", json_boolean(r->validation_performed));
	json_object_set_new(v, "ok", r->validation_performed ? json_boolean(r->validation_ok) : json_null());
	json_object_set_new(v, "detail", r->validation_detail ? json_string(r->validation_detail) : json_null());
	json_object_set_new(j, "validation", v);
	json_object_set_new(j, "observed", ops_observed_json(k));
	json_object_set_new(j, "counter", counter_json(c, r));
	if (r->sampling)
		json_object_set_new(j, "samples", sampling_json(r->sampling, c));
	child_write_result("ngcc-perf-driver", result_fd, j);
	json_decref(j);
}

/* ---- main ---------------------------------------------------------------- */

static void install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
}

/* ---- R2: the input pool --------------------------------------------------- */

/* A batch the scheduler preempted is timed again, at most this often. */
#define POOL_BATCH_RETRIES 3

/* One batch of iters calls on input k: its ns and cycles appended to the
 * input's arrays.  A batch with more involuntary context switches than the
 * background allows for its length is redone (up to POOL_BATCH_RETRIES
 * times, counted in the input's "retries"): on a busy host one preemption
 * would otherwise be a slow input.  0, or -1 on an operation failure. */
static int pool_batch(const struct options *o, struct op_ctx *k, const struct pool_set *ps,
		      long in, struct counter *c, json_t *input)
{
	const long iters = o->iters;
	uint64_t cycles, ns;
	for (int retry = 0;; retry++) {
		struct thread_counts a, b;
		pool_use(k, ps, in);
		thread_counts_read(&a);
		long done = timed_calls(k, iters, c, &cycles, &ns);
		thread_counts_read(&b);
		if (done != iters)
			return -1;
		long allowed = plan_disturbance_allowance(0, o->switch_rate, (double)ns * 1e-9);
		if (b.invol - a.invol <= allowed || retry == POOL_BATCH_RETRIES)
			break;
		json_object_set_new(input, "retries",
				    json_integer(json_integer_value(json_object_get(input, "retries")) + 1));
	}
	json_array_append_new(json_object_get(input, "ns"), json_integer((json_int_t)ns));
	json_array_append_new(json_object_get(input, "cycles"), c->kind == COUNTER_NONE ?
			      json_null() : json_integer((json_int_t)cycles));
	return 0;
}

static int pool_fail(struct result *r, const char *status, int code)
{
	r->status = status;
	r->error = ops_failure();
	return code;
}

/* Prepare the pool, warm every input, then T rounds of one batch per input,
 * the inputs in turn so that a slow moment of the host touches them all. */
static int measure_pool(const struct options *o, struct op_ctx *k, struct counter *c,
			struct result *r)
{
	struct pool_set ps;
	if (pool_setup(k, o->pool, &ps))
		return pool_fail(r, "failed", DRV_OPFAIL);
	counter_overhead(c, OVERHEAD_BRACKETS, &r->overhead_ticks, &r->overhead_ns);
	json_t *inputs = json_array();
	r->pool = json_pack("{sIsIsIso}", "size", (json_int_t)o->pool, "rounds",
			    (json_int_t)o->trials, "calls_per_batch", (json_int_t)o->iters,
			    "inputs", inputs);
	int rc = DRV_OK;
	for (long in = 0; in < o->pool && rc == DRV_OK; in++) {
		char hex[2 * SEED_BYTES + 1];
		seed_indexed_hex((unsigned)in, hex);
		json_array_append_new(inputs, json_pack("{sIss s[] s[] si}", "input", (json_int_t)in,
							"seed_hex", hex, "ns", "cycles", "retries", 0));
		pool_use(k, &ps, in);
		for (long w = 0; w < o->warmups && rc == DRV_OK; w++)
			if (ops_call_once(k))
				rc = pool_fail(r, "failed", DRV_OPFAIL);
	}
	for (long t = 0; t < o->trials && rc == DRV_OK; t++) {
		if (interrupted) {
			r->status = "partial";
			r->error = "interrupted by a signal between rounds";
			rc = DRV_PARTIAL;
		}
		for (long in = 0; in < o->pool && rc == DRV_OK; in++)
			if (pool_batch(o, k, &ps, in, c, json_array_get(inputs, (size_t)in)))
				rc = pool_fail(r, "failed", DRV_OPFAIL);
	}
	/* R3 on every input's last outputs */
	for (long in = 0; in < o->pool && rc == DRV_OK; in++) {
		k->st = ps.st[in];
		r->validation_performed = 1;
		if (ops_validate(k)) {
			r->validation_detail = ops_failure();
			rc = pool_fail(r, "invalid_output", DRV_INVALID);
		}
	}
	r->validation_ok = rc == DRV_OK;
	if (rc == DRV_OK)
		r->status = "complete";
	pool_free(k, &ps);
	return rc;
}

/* After the calls: validate the outputs and set the final status. */
static int validate(struct op_ctx *k, struct result *r)
{
	r->validation_performed = 1;
	if (ops_validate(k)) {
		r->validation_ok = 0;
		r->validation_detail = ops_failure();
		r->status = "invalid_output";
		r->error = ops_failure();
		return DRV_INVALID;
	}
	r->validation_ok = 1;
	r->status = "complete";
	return DRV_OK;
}

/* Sampling mode after the warm-ups (R11): the samples, then the same
 * output validation as after the trials (R3). */
static int sample_calls(const struct options *o, struct op_ctx *k, struct counter *c,
			struct result *r)
{
	static struct sampling_run s;
	s.samples = o->samples;
	s.call_ns = o->call_ns;
	r->sampling = &s;
	int rc = sampling_take(k, c, timed_calls, r->overhead_ns, &interrupted, &s);
	r->h2 = procmem_hwm_kib();
	if (rc) {
		r->status = rc > 0 ? "partial" : "failed";
		r->error = rc > 0 ? "interrupted by a signal between samples" : ops_failure();
		return rc > 0 ? DRV_PARTIAL : DRV_OPFAIL;
	}
	return validate(k, r);
}

/* Everything after a successful load and seed. */
static int measure(const struct options *o, struct op_ctx *k,
		   struct counter *c, struct result *r)
{
	if (ops_setup(k)) {
		r->status = "failed";
		r->error = ops_failure();
		return DRV_OPFAIL;
	}
	r->baseline = procmem_resident_bytes();
	r->h1 = procmem_hwm_kib();
	int hwm_err = procmem_reset_hwm();
	static char method[128];
	if (hwm_err)
		snprintf(method, sizeof method,
			 "unavailable: clear_refs refused (%s); op_peak needs the memory pass (fork)",
			 strerror(hwm_err));
	else
		snprintf(method, sizeof method, "clear_refs");
	r->op_peak_method = method;
	counter_overhead(c, OVERHEAD_BRACKETS, &r->overhead_ticks, &r->overhead_ns);
	for (long w = 0; w < o->warmups; w++)
		if (ops_call_once(k)) {
			r->status = "failed";
			r->error = ops_failure();
			return DRV_OPFAIL;
		}
	if (o->samples > 0)
		return sample_calls(o, k, c, r);
	r->trials = calloc((size_t)o->trials, sizeof *r->trials);
	if (!r->trials) {
		r->status = "failed";
		r->error = "cannot allocate the trial table";
		return DRV_OPFAIL;
	}
	for (long t = 0; t < o->trials; t++) {
		if (interrupted) {
			r->status = "partial";
			r->error = "interrupted by a signal between trials";
			r->h2 = procmem_hwm_kib();
			return DRV_PARTIAL;
		}
		if (o->trial_seeds_first >= 0) {
			unsigned char seed[SEED_BYTES];
			seed_indexed((unsigned)(o->trial_seeds_first + t), seed);
			k->lib.seed(seed, SEED_BYTES);
		}
		if (run_trial(k, o->iters, c, &r->trials[t])) {
			r->status = "failed";
			r->error = ops_failure();
			r->h2 = procmem_hwm_kib();
			return DRV_OPFAIL;
		}
		r->n_trials = t + 1;
	}
	r->h2 = procmem_hwm_kib();
	if (!hwm_err)
		r->op_peak = r->h2 < 0 ? -1 : r->h2 * 1024;
	return validate(k, r);
}

int main(int argc, char **argv)
{
	struct options o;
	struct op_ctx k;
	struct counter c;
	struct result r;
	memset(&o, 0, sizeof o);
	memset(&k, 0, sizeof k);
	memset(&c, 0, sizeof c);
	memset(&r, 0, sizeof r);
	r.loaded = r.baseline = r.h1 = r.h2 = r.op_peak = -1;
	r.overhead_ticks = r.overhead_ns = -1;
	r.op_peak_method = "not measured";
	result_fd = child_hide_result_fd();
	if (parse_options(argc, argv, &o))
		return DRV_USAGE;
	if (o.k.cpu >= 0)
		child_pin_cpu("ngcc-perf-driver", o.k.cpu);
	install_signals();
	int lrc = ops_open(o.k.lib, o.k.op, &k);
	if (lrc) {
		c.name = "none";
		r.status = "failed";
		r.error = ops_failure();
		r.exit_code = DRV_USAGE;
		if (lrc == -1)
			fprintf(stderr, "ngcc-perf-driver: %s\n", r.error);
		emit_result(&o, &k, &c, &r);
		if (lrc == -2)
			candidate_unload(&k.lib);
		return DRV_USAGE;
	}
	k.lib.seed(o.k.seed, o.k.seed_len);
	r.loaded = procmem_resident_bytes();
	counter_open_given(&c, o.force_fallback, o.has_given ? &o.given : NULL);
	r.exit_code = o.pool ? measure_pool(&o, &k, &c, &r) : measure(&o, &k, &c, &r);
	if (r.exit_code != DRV_OK && r.error)
		fprintf(stderr, "ngcc-perf-driver: %s %s: %s\n", o.k.lib, o.k.op, r.error);
	emit_result(&o, &k, &c, &r);
	counter_close(&c);
	free(r.trials);
	json_decref(r.pool);
	if (r.sampling)
		sampling_free(r.sampling);
	ops_close(&k);
	/* No dlclose: a candidate's destructors must not get a chance to
	 * change the exit status of a finished measurement. */
	return r.exit_code;
}
