/*
 * profile_main.c — bin/ngcc-perf-profile: the hash and DRNG profile of one
 * operation of an instrumented library (docs/method.md §10.3).
 *
 *   ngcc-perf-profile --lib PATH --op OP --iters N --warmups W
 *                     [--cpu N] [--seed-hex HEX] [--counter-hz NAME=HZ]
 *
 * The setup is the timing driver's, from the same code (driver/ops.h,
 * docs/method.md §5.1–§5.2): seed 00..2f, buffers at API capacity + 64 bytes,
 * the operation's untimed setup, then the same calls, so the inputs are
 * identical.  Then: warm-ups, the tick rate (the phase's rate given by
 * --counter-hz when it is that of the ticks read here, else a 100 ms busy
 * wait against CLOCK_MONOTONIC_RAW), the wrappers' own overhead (a wrapped
 * no-op, 10^5 calls in 5 batches), a table reset, and per iteration:
 * the untimed preparation (a KEX step's earlier steps), enable, read
 * ticks, the call, read ticks, disable, the untimed checks.
 *
 * The result is one JSON object on fd 3.  Exit codes: 0 complete, 2 usage,
 * load or symbol error (also: not an instrumented library), 3 setup or
 * operation failure.
 */
#include "driver/child.h"
#include "driver/ops.h"
#include "host/counter.h"
#include "proc/spawn.h"
#include "runtime/profwrap.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { DRV_OK = 0, DRV_USAGE = 2, DRV_OPFAIL = 3 };

#define OVERHEAD_CALLS 100000
#define OVERHEAD_BATCHES 5
#define MAX_ENTRIES NGCC_PROF_SLOTS

static const char *const fn_names[NGCC_PROF_N_FN] = {
	"pseudohash", "pseudoXOF", "sm3hash", "drng",
};

struct options {
	struct op_opts k;
	long iters, warmups;
	struct counter_rate given;  /* --counter-hz */
	int has_given;
};

struct prof_api {
#define X(name) name##_fn name;
	X(ngcc_prof_abi) X(ngcc_prof_set_clock)
#undef X
	ngcc_prof_void_fn enable, disable, reset;
	ngcc_prof_read_fn read;
	ngcc_prof_noop_batch_fn noop_batch;
	ngcc_prof_bare_batch_fn bare_batch;
};

struct result {
	const char *status;
	char error[512];
	double tick_hz;
	const char *tick_hz_source;
	long iterations;
	uint64_t total_ticks, overflow;
	double o_in, o_out;
	struct ngcc_prof_entry *entries;
	uint64_t n_entries;
};

static struct result res;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(res.error, sizeof res.error, fmt, ap);
	va_end(ap);
}

/* A shared operation step failed: its cause becomes ours. */
static int op_fail(void)
{
	fail("%s", ops_failure());
	return DRV_OPFAIL;
}

/* ---- options ----------------------------------------------------------- */

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf-profile --lib PATH --op OP --iters N\n"
		"                         --warmups W [--cpu N] [--seed-hex HEX]\n"
		"                         [--counter-hz NAME=HZ]\n"
		"OP: %s\n"
		"Profiles one operation of an instrumented library (docs/method.md §10.3);\n"
		"the JSON result goes to fd 3.  --counter-hz: the phase's rate of counter\n"
		"NAME, used for the ticks when they are NAME's (else measured for 100 ms).\n"
		"Exit: 0 complete, 2 usage/load, 3 setup/operation failure.\n",
		ops_usage_list());
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		OPS_LONG_OPTIONS,
		{ "iters", required_argument, NULL, 'i' },
		{ "warmups", required_argument, NULL, 'w' },
		{ "counter-hz", required_argument, NULL, 'z' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	op_opts_init(&o->k);
	o->iters = o->warmups = -1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		int ours = op_opt(&o->k, c, optarg);
		if (ours < 0)
			return -1;
		if (ours)
			continue;
		switch (c) {
		case 'i': if (child_parse_long(optarg, 1, &o->iters)) return -1; break;
		case 'w': if (child_parse_long(optarg, 0, &o->warmups)) return -1; break;
		case 'z':
			if (counter_rate_parse(optarg, &o->given))
				return -1;
			o->has_given = 1;
			break;
		case 'h':
			usage(stdout);
			exit(DRV_OK);
		default:
			return -1;
		}
	}
	return op_opts_complete(&o->k) && o->iters > 0 && o->warmups >= 0 && optind == argc ? 0 : -1;
}

/* ---- profiling ----------------------------------------------------------- */

static int resolve_api(void *handle, struct prof_api *p)
{
	p->ngcc_prof_abi = (ngcc_prof_abi_fn)dlsym(handle, "ngcc_prof_abi");
	p->ngcc_prof_set_clock = (ngcc_prof_set_clock_fn)dlsym(handle, "ngcc_prof_set_clock");
	p->enable = (ngcc_prof_void_fn)dlsym(handle, "ngcc_prof_enable");
	p->disable = (ngcc_prof_void_fn)dlsym(handle, "ngcc_prof_disable");
	p->reset = (ngcc_prof_void_fn)dlsym(handle, "ngcc_prof_reset");
	p->read = (ngcc_prof_read_fn)dlsym(handle, "ngcc_prof_read");
	p->noop_batch = (ngcc_prof_noop_batch_fn)dlsym(handle, "ngcc_prof_noop_batch");
	p->bare_batch = (ngcc_prof_bare_batch_fn)dlsym(handle, "ngcc_prof_bare_batch");
	if (!p->ngcc_prof_abi || !p->ngcc_prof_set_clock || !p->enable || !p->disable ||
	    !p->reset || !p->read || !p->noop_batch || !p->bare_batch) {
		fail("not an instrumented library: the ngcc_prof_* controls are missing "
		     "(profile build/<ID>/instrumented/lib<label>.so, made by `ngcc-perf profile`)");
		return -1;
	}
	if (p->ngcc_prof_abi() != NGCC_PROF_ABI) {
		fail("profiling ABI %d, this program expects %d; rerun `ngcc-perf profile` "
		     "to relink", p->ngcc_prof_abi(), NGCC_PROF_ABI);
		return -1;
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median5(double *v)
{
	qsort(v, OVERHEAD_BATCHES, sizeof *v, cmp_double);
	return v[OVERHEAD_BATCHES / 2];
}

/* R12: o_in = accounted ticks per wrapped no-op call; o_out = the rest of
 * the wrapper's cost per call (batch minus the unwrapped batch). */
static void wrapper_overhead(const struct prof_api *p, double *o_in, double *o_out)
{
	double in[OVERHEAD_BATCHES], out[OVERHEAD_BATCHES];
	const uint64_t n = OVERHEAD_CALLS / OVERHEAD_BATCHES;
	for (int b = 0; b < OVERHEAD_BATCHES; b++) {
		uint64_t outer;
		uint64_t inside = p->noop_batch(n, &outer);
		uint64_t bare = p->bare_batch(n);
		in[b] = (double)inside / (double)n;
		double rest = ((double)outer - (double)bare - (double)inside) / (double)n;
		out[b] = rest > 0 ? rest : 0;
	}
	*o_in = median5(in);
	*o_out = median5(out);
}

static int profile(const struct options *o, struct op_ctx *k, const struct prof_api *p)
{
	if (ops_setup(k))
		return op_fail();
	for (long w = 0; w < o->warmups; w++)
		if (ops_call_once(k))
			return op_fail();
	res.tick_hz = counter_raw_hz(o->has_given ? &o->given : NULL, &res.tick_hz_source);
	wrapper_overhead(p, &res.o_in, &res.o_out);
	p->reset();
	for (long i = 0; i < o->iters; i++) {
		if (ops_prepare(k))
			return op_fail();
		p->enable();
		uint64_t t0 = counter_read_raw();
		int rc = ops_raw_call(k);
		uint64_t t1 = counter_read_raw();
		p->disable();
		res.total_ticks += t1 - t0;
		if (ops_check_call(k, rc))
			return op_fail();
		res.iterations = i + 1;
	}
	res.entries = calloc(MAX_ENTRIES, sizeof *res.entries);
	if (!res.entries) {
		fail("cannot allocate the profile table copy");
		return DRV_OPFAIL;
	}
	res.n_entries = p->read(res.entries, MAX_ENTRIES, &res.overflow);
	return DRV_OK;
}

/* ---- result --------------------------------------------------------------- */

static int cmp_entry(const void *a, const void *b)
{
	const struct ngcc_prof_entry *x = a, *y = b;
	int c = strcmp(x->fn < NGCC_PROF_N_FN ? fn_names[x->fn] : "?",
		       y->fn < NGCC_PROF_N_FN ? fn_names[y->fn] : "?");
	if (c)
		return c;
	if (x->in_bits != y->in_bits)
		return x->in_bits < y->in_bits ? -1 : 1;
	return (x->out_bits > y->out_bits) - (x->out_bits < y->out_bits);
}

static json_t *calls_json(void)
{
	json_t *a = json_array();
	if (res.entries)  /* NULL when the run failed before reading the table */
		qsort(res.entries, res.n_entries, sizeof *res.entries, cmp_entry);
	for (uint64_t i = 0; i < res.n_entries; i++) {
		const struct ngcc_prof_entry *e = &res.entries[i];
		json_t *c = json_object();
		json_object_set_new(c, "fn", json_string(e->fn < NGCC_PROF_N_FN ? fn_names[e->fn] : "?"));
		json_object_set_new(c, "in_bits", json_integer((json_int_t)e->in_bits));
		json_object_set_new(c, "out_bits", json_integer((json_int_t)e->out_bits));
		json_object_set_new(c, "calls", json_integer((json_int_t)e->calls));
		json_object_set_new(c, "ticks", json_integer((json_int_t)e->ticks));
		json_array_append_new(a, c);
	}
	return a;
}

static void emit_result(const struct options *o, int exit_code)
{
	json_t *j = json_object();
	json_object_set_new(j, "schema", json_string("ngcc-perf/profile-result/1"));
	json_object_set_new(j, "status", json_string(exit_code ? "failed" : "complete"));
	json_object_set_new(j, "exit_code", json_integer(exit_code));
	json_object_set_new(j, "error", res.error[0] ? json_string(res.error) : json_null());
	json_object_set_new(j, "operation", json_string(o->k.op));
	json_object_set_new(j, "tick_source", json_string(counter_raw_source()));
	json_object_set_new(j, "tick_hz", json_real(res.tick_hz));
	json_object_set_new(j, "tick_hz_source",
			    res.tick_hz_source ? json_string(res.tick_hz_source) : json_null());
	json_object_set_new(j, "warmups", json_integer(o->warmups));
	json_object_set_new(j, "iterations", json_integer(res.iterations));
	json_object_set_new(j, "overflow_calls", json_integer((json_int_t)res.overflow));
	json_t *t = json_object();
	json_object_set_new(t, "operations", json_integer(res.iterations));
	json_object_set_new(t, "ticks", json_integer((json_int_t)res.total_ticks));
	json_object_set_new(j, "total", t);
	json_object_set_new(j, "calls", calls_json());
	json_t *ov = json_object();
	json_object_set_new(ov, "o_in", json_real(res.o_in));
	json_object_set_new(ov, "o_out", json_real(res.o_out));
	json_object_set_new(j, "overhead", ov);
	child_write_result("ngcc-perf-profile",
			   fcntl(SPAWN_RESULT_FD, F_GETFD) < 0 ? -1 : SPAWN_RESULT_FD, j);
	json_decref(j);
}

static int load(const struct options *o, struct op_ctx *k, struct prof_api *p)
{
	if (ops_open(o->k.lib, o->k.op, k)) {
		fail("%s", ops_failure());
		return -1;
	}
	if (resolve_api(k->lib.handle, p))
		return -1;
	p->ngcc_prof_set_clock(counter_read_raw);
	return 0;
}

static void release(struct op_ctx *k)
{
	ops_close(k);
	free(res.entries);
	if (k->lib.handle)
		candidate_unload(&k->lib);
}

int main(int argc, char **argv)
{
	struct options o;
	struct op_ctx k;
	struct prof_api p;
	memset(&o, 0, sizeof o);
	memset(&k, 0, sizeof k);
	memset(&p, 0, sizeof p);
	if (parse_options(argc, argv, &o)) {
		fprintf(stderr, "ngcc-perf-profile: invalid or missing options\n");
		usage(stderr);
		return DRV_USAGE;
	}
	if (o.k.cpu >= 0)
		child_pin_cpu("ngcc-perf-profile", o.k.cpu);
	int rc = DRV_USAGE;
	if (!load(&o, &k, &p)) {
		k.lib.seed(o.k.seed, o.k.seed_len);
		rc = profile(&o, &k, &p);
	}
	if (rc)
		fprintf(stderr, "ngcc-perf-profile: %s %s: %s\n", o.k.lib, o.k.op, res.error);
	emit_result(&o, rc);
	release(&k);
	return rc;
}
