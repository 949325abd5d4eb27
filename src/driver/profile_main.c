/*
 * profile_main.c — bin/ngcc-perf-profile: the hash and DRNG profile of one
 * KEM operation of an instrumented library (method §10.3).
 *
 *   ngcc-perf-profile --lib PATH --op keygen|enc|dec --iters N --warmups W
 *                     [--cpu N] [--seed-hex HEX]
 *
 * The setup is the timing driver's (method §5.1–§5.2): seed 00..2f, buffers
 * at API capacity + 64 bytes, keygen / keygen+enc / keygen+enc+honest dec,
 * then the same calls, so the inputs are identical.  Then: warm-ups, the
 * tick rate (100 ms busy wait against CLOCK_MONOTONIC_RAW), the wrappers'
 * own overhead (a wrapped no-op, 10^5 calls in 5 batches), a table reset,
 * and per iteration: enable, read ticks, the call, read ticks, disable.
 *
 * The result is one JSON object on fd 3.  Exit codes: 0 complete, 2 usage,
 * load or symbol error (also: not an instrumented library), 3 setup or
 * operation failure.
 */
#include "campaign/spawn.h"
#include "driver/loader.h"
#include "host/counter.h"
#include "runtime/profwrap.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { DRV_OK = 0, DRV_USAGE = 2, DRV_OPFAIL = 3 };

#define MAX_CAPACITY (512ull << 20)
#define BUF_SLACK 64
#define SEED_LEN 48
#define OVERHEAD_CALLS 100000
#define OVERHEAD_BATCHES 5
#define TICK_RATE_NS 100000000ull
#define MAX_ENTRIES NGCC_PROF_SLOTS

enum op { OP_KEYGEN, OP_ENC, OP_DEC };
static const char *const op_names[] = { "keygen", "enc", "dec" };
static const char *const fn_names[NGCC_PROF_N_FN] = {
	"pseudohash", "pseudoXOF", "sm3hash", "drng",
};

struct options {
	const char *lib;
	enum op op;
	long iters, warmups;
	int cpu;
	unsigned char seed[SEED_LEN];
	size_t seed_len;
};

/* The same objects as the timing driver. */
struct obj {
	unsigned char *buf;
	unsigned long long cap, len;
};

struct kem_state {
	struct candidate_lib lib;
	struct obj pk, sk, ct, ss;
	unsigned char *ss_ref, *ct_ref;
	unsigned long long ss_ref_len, ct_ref_len;
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

/* The loader's only need from util.c; keeps this program small like the
 * timing driver. */
char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fputs("ngcc-perf-profile: out of memory\n", stderr);
		exit(DRV_OPFAIL);
	}
	return s;
}

/* ---- options ----------------------------------------------------------- */

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf-profile --lib PATH --op keygen|enc|dec --iters N\n"
		"                         --warmups W [--cpu N] [--seed-hex HEX]\n"
		"Profiles one KEM operation of an instrumented library (method §10.3);\n"
		"the JSON result goes to fd 3.\n"
		"Exit: 0 complete, 2 usage/load, 3 setup/operation failure.\n");
}

static int parse_hex(const char *hex, unsigned char *out, size_t max, size_t *len)
{
	size_t n = strlen(hex);
	if (n % 2 || n / 2 > max || n == 0)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned int b;
		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (unsigned char)b;
	}
	*len = n / 2;
	return 0;
}

static int parse_long(const char *s, long min, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min)
		return -1;
	*out = v;
	return 0;
}

static int parse_op(const char *s, enum op *op)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, op_names[i])) {
			*op = (enum op)i;
			return 0;
		}
	return -1;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "lib", required_argument, NULL, 'l' },
		{ "op", required_argument, NULL, 'o' },
		{ "iters", required_argument, NULL, 'i' },
		{ "warmups", required_argument, NULL, 'w' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "seed-hex", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, have_op = 0;
	long v;
	o->iters = o->warmups = -1;
	o->cpu = -1;
	for (size_t i = 0; i < SEED_LEN; i++)
		o->seed[i] = (unsigned char)i;
	o->seed_len = SEED_LEN;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'l': o->lib = optarg; break;
		case 'o':
			if (parse_op(optarg, &o->op))
				return -1;
			have_op = 1;
			break;
		case 'i': if (parse_long(optarg, 1, &o->iters)) return -1; break;
		case 'w': if (parse_long(optarg, 0, &o->warmups)) return -1; break;
		case 'c':
			if (parse_long(optarg, 0, &v))
				return -1;
			o->cpu = (int)v;
			break;
		case 's':
			if (parse_hex(optarg, o->seed, SEED_LEN, &o->seed_len))
				return -1;
			break;
		case 'h':
			usage(stdout);
			exit(DRV_OK);
		default:
			return -1;
		}
	}
	return o->lib && have_op && o->iters > 0 && o->warmups >= 0 && optind == argc ? 0 : -1;
}

/* ---- setup and calls: the timing driver's, method §5.2 --------------- */

static int obj_alloc(struct obj *o, const char *what, unsigned long long cap)
{
	if (cap == 0 || cap > MAX_CAPACITY) {
		fail("API capacity of %s is %llu bytes (must be 1..%llu)", what, cap, MAX_CAPACITY);
		return -1;
	}
	o->buf = calloc(1, cap + BUF_SLACK);
	if (!o->buf) {
		fail("cannot allocate %llu bytes for %s", cap + BUF_SLACK, what);
		return -1;
	}
	o->cap = cap;
	return 0;
}

static int alloc_buffers(struct kem_state *k)
{
	const struct ngcc_meta *m = k->lib.meta;
	if (obj_alloc(&k->pk, "pk", m->pk_bytes) || obj_alloc(&k->sk, "sk", m->sk_bytes) ||
	    obj_alloc(&k->ct, "ct", m->ct_bytes) || obj_alloc(&k->ss, "ss", m->ss_bytes))
		return -1;
	k->ss_ref = calloc(1, m->ss_bytes + BUF_SLACK);
	k->ct_ref = calloc(1, m->ct_bytes + BUF_SLACK);
	if (!k->ss_ref || !k->ct_ref) {
		fail("cannot allocate reference buffers");
		return -1;
	}
	return 0;
}

/* One raw call, as in the timing driver's loops: lengths reset to capacity,
 * the fixed pk (enc) or the fixed ct and sk (dec). */
static int raw_call(struct kem_state *k, enum op op)
{
	switch (op) {
	case OP_KEYGEN:
		k->pk.len = k->pk.cap;
		k->sk.len = k->sk.cap;
		return k->lib.kem_keygen(k->pk.buf, &k->pk.len, k->sk.buf, &k->sk.len);
	case OP_ENC:
		k->ss.len = k->ss.cap;
		k->ct.len = k->ct.cap;
		return k->lib.kem_enc(k->pk.buf, k->pk.len, k->ss.buf, &k->ss.len,
				      k->ct.buf, &k->ct.len);
	default:
		k->ss.len = k->ss.cap;
		return k->lib.kem_dec(k->sk.buf, k->sk.len, k->ct_ref, k->ct_ref_len,
				      k->ss.buf, &k->ss.len);
	}
}

/* The checks of the timing driver's call_keygen/enc/dec. */
static int check_call(struct kem_state *k, enum op op, int rc)
{
	int bad;
	switch (op) {
	case OP_KEYGEN: bad = rc || k->pk.len > k->pk.cap || k->sk.len > k->sk.cap; break;
	case OP_ENC: bad = rc || k->ss.len > k->ss.cap || k->ct.len > k->ct.cap; break;
	default: bad = rc || k->ss.len != k->ss_ref_len; break;
	}
	if (bad)
		fail("kem_%s returned %d or a length over capacity", op_names[op], rc);
	return bad ? -1 : 0;
}

static int call_once(struct kem_state *k, enum op op)
{
	return check_call(k, op, raw_call(k, op));
}

static int setup(struct kem_state *k, enum op op)
{
	if (op == OP_KEYGEN)
		return 0;
	if (call_once(k, OP_KEYGEN) || call_once(k, OP_ENC))
		return -1;
	memcpy(k->ss_ref, k->ss.buf, k->ss.len);
	k->ss_ref_len = k->ss.len;
	memcpy(k->ct_ref, k->ct.buf, k->ct.len);
	k->ct_ref_len = k->ct.len;
	if (op == OP_ENC)
		return 0;
	if (call_once(k, OP_DEC))
		return -1;
	if (memcmp(k->ss.buf, k->ss_ref, k->ss_ref_len)) {
		fail("honest decapsulation mismatch; refusing timing");
		return -1;
	}
	return 0;
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

/* Ticks per second of counter_read_raw over a 100 ms busy wait. */
static double tick_rate(void)
{
	uint64_t n0 = clock_raw_ns(), c0 = counter_read_raw(), n1, c1;
	do {
		n1 = clock_raw_ns();
		c1 = counter_read_raw();
	} while (n1 - n0 < TICK_RATE_NS);
	return (double)(c1 - c0) * 1e9 / (double)(n1 - n0);
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

static int profile(const struct options *o, struct kem_state *k, const struct prof_api *p)
{
	if (alloc_buffers(k) || setup(k, o->op))
		return DRV_OPFAIL;
	for (long w = 0; w < o->warmups; w++)
		if (call_once(k, o->op))
			return DRV_OPFAIL;
	res.tick_hz = tick_rate();
	wrapper_overhead(p, &res.o_in, &res.o_out);
	p->reset();
	for (long i = 0; i < o->iters; i++) {
		p->enable();
		uint64_t t0 = counter_read_raw();
		int rc = raw_call(k, o->op);
		uint64_t t1 = counter_read_raw();
		p->disable();
		res.total_ticks += t1 - t0;
		if (check_call(k, o->op, rc))
			return DRV_OPFAIL;
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

static void write_all(int fd, const char *s, size_t len)
{
	size_t off = 0;
	while (off < len) {
		ssize_t n = write(fd, s + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		off += (size_t)n;
	}
}

static void emit_result(const struct options *o, int exit_code)
{
	json_t *j = json_object();
	json_object_set_new(j, "schema", json_string("ngcc-perf/profile-result/1"));
	json_object_set_new(j, "status", json_string(exit_code ? "failed" : "complete"));
	json_object_set_new(j, "exit_code", json_integer(exit_code));
	json_object_set_new(j, "error", res.error[0] ? json_string(res.error) : json_null());
	json_object_set_new(j, "operation", json_string(op_names[o->op]));
	json_object_set_new(j, "tick_source", json_string(counter_raw_source()));
	json_object_set_new(j, "tick_hz", json_real(res.tick_hz));
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
	char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	json_decref(j);
	if (!s)
		return;
	if (fcntl(SPAWN_RESULT_FD, F_GETFD) < 0)
		fprintf(stderr, "ngcc-perf-profile: fd %d is not open; result not written\n",
			SPAWN_RESULT_FD);
	else {
		write_all(SPAWN_RESULT_FD, s, strlen(s));
		write_all(SPAWN_RESULT_FD, "\n", 1);
	}
	free(s);
}

static void pin_cpu(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set))
		fprintf(stderr, "ngcc-perf-profile: cannot pin to CPU %d: %s\n", cpu, strerror(errno));
}

static int load(const struct options *o, struct kem_state *k, struct prof_api *p)
{
	char *err = NULL;
	if (candidate_load(o->lib, &k->lib, &err)) {
		fail("%s", err ? err : "cannot load the library");
		free(err);
		return -1;
	}
	if (k->lib.meta->type != NGCC_TYPE_KEM || !k->lib.kem_keygen || !k->lib.kem_enc ||
	    !k->lib.kem_dec) {
		fail("the library is not a KEM (ngcc_meta type) or lacks its KEM symbols");
		return -1;
	}
	if (resolve_api(k->lib.handle, p))
		return -1;
	p->ngcc_prof_set_clock(counter_read_raw);
	return 0;
}

static void release(struct kem_state *k)
{
	free(k->pk.buf);
	free(k->sk.buf);
	free(k->ct.buf);
	free(k->ss.buf);
	free(k->ss_ref);
	free(k->ct_ref);
	free(res.entries);
	if (k->lib.handle)
		candidate_unload(&k->lib);
}

int main(int argc, char **argv)
{
	struct options o;
	struct kem_state k;
	struct prof_api p;
	memset(&o, 0, sizeof o);
	memset(&k, 0, sizeof k);
	memset(&p, 0, sizeof p);
	if (parse_options(argc, argv, &o)) {
		fprintf(stderr, "ngcc-perf-profile: invalid or missing options\n");
		usage(stderr);
		return DRV_USAGE;
	}
	if (o.cpu >= 0)
		pin_cpu(o.cpu);
	int rc = DRV_USAGE;
	if (!load(&o, &k, &p)) {
		k.lib.seed(o.seed, o.seed_len);
		rc = profile(&o, &k, &p);
	}
	if (rc)
		fprintf(stderr, "ngcc-perf-profile: %s %s: %s\n", o.lib, op_names[o.op], res.error);
	emit_result(&o, rc);
	release(&k);
	return rc;
}
