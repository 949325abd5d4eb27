/*
 * timing_main.c — bin/ngcc-perf-driver: time one KEM operation of one
 * candidate library in this process (method §5).
 *
 *   ngcc-perf-driver --lib PATH --op keygen|enc|dec --trials T --iters I
 *                    --warmups W [--cpu N] [--seed-hex HEX]
 *                    [--counter auto|fallback]
 *
 * The result is one JSON object written on fd 3 (SPAWN_RESULT_FD), never on
 * stdout or stderr: the candidate shares those.  Exit codes: 0 complete,
 * 2 usage/load/symbol error, 3 setup or operation failure, 4 partial
 * (interrupted between trials), 5 output validation failed (R3).
 *
 * This program's resident set is part of the published peak RSS, so it is
 * kept small on purpose: no util.c (it drags libcrypto in), only libc,
 * jansson (for the result), the loader and the counter.
 */
#include "campaign/spawn.h"
#include "driver/loader.h"
#include "host/counter.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

enum {
	DRV_OK = 0,
	DRV_USAGE = 2,
	DRV_OPFAIL = 3,
	DRV_PARTIAL = 4,
	DRV_INVALID = 5,
};

#define MAX_CAPACITY (512ull << 20)
#define BUF_SLACK 64
#define SEED_LEN 48
#define OVERHEAD_BRACKETS 31

enum op { OP_KEYGEN, OP_ENC, OP_DEC };
static const char *const op_names[] = { "keygen", "enc", "dec" };

struct options {
	const char *lib;
	enum op op;
	long trials, iters, warmups;
	int cpu;
	unsigned char seed[SEED_LEN];
	size_t seed_len;
	int force_fallback;
};

/* One KEM object: buffer, its API capacity and the lengths we saw. */
struct obj {
	unsigned char *buf;
	unsigned long long cap, len;
	unsigned long long seen_min, seen_max;
};

struct kem_state {
	struct candidate_lib lib;
	struct obj pk, sk, ct, ss;
	unsigned char *ss_ref;  /* enc's ss from setup (dec's expected) */
	unsigned long long ss_ref_len;
	unsigned char *ct_ref;  /* ct from setup (dec's fixed input) */
	unsigned long long ct_ref_len;
};

struct trial_rec {
	uint64_t calls, ns, cycles;
	long invol, vol, migrations, minflt, majflt;
};

static volatile sig_atomic_t interrupted;
static int result_fd = -1;
static char failure[512];

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void set_failure(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void set_failure(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(failure, sizeof failure, fmt, ap);
	va_end(ap);
}

/* ---- memory facts (method §8) ------------------------------------- */

static long long statm_resident_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long long size = 0, resident = -1;
	if (!f)
		return -1;
	if (fscanf(f, "%lld %lld", &size, &resident) != 2)
		resident = -1;
	fclose(f);
	return resident < 0 ? -1 : resident * sysconf(_SC_PAGESIZE);
}

static long long vm_hwm_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long long kib = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "VmHWM:", 6)) {
			kib = strtoll(line + 6, NULL, 10);
			break;
		}
	fclose(f);
	return kib;
}

/* R5: writing "5" to clear_refs resets VmHWM to the current RSS.  Returns
 * 0, or an errno value when the kernel refuses. */
static int reset_hwm(void)
{
	int fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	int rc = write(fd, "5", 1) == 1 ? 0 : errno;
	close(fd);
	return rc;
}

/* Migrations of this thread so far: the scheduler's own count when the
 * kernel exposes it (/proc/thread-self/sched, CONFIG_SCHED_DEBUG), else -1
 * and the caller falls back to comparing sched_getcpu() around a trial. */
static long nr_migrations(void)
{
	FILE *f = fopen("/proc/thread-self/sched", "r");
	char line[256];
	long n = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "se.nr_migrations", 16)) {
			char *colon = strchr(line, ':');
			if (colon)
				n = strtol(colon + 1, NULL, 10);
			break;
		}
	fclose(f);
	return n;
}

/* ---- options ----------------------------------------------------------- */

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf-driver --lib PATH --op keygen|enc|dec --trials T\n"
		"                        --iters I --warmups W [--cpu N]\n"
		"                        [--seed-hex HEX] [--counter auto|fallback]\n"
		"Times one KEM operation (method §5); the JSON result goes to fd 3.\n"
		"Exit: 0 complete, 2 usage/load, 3 setup/operation failure,\n"
		"      4 partial, 5 output validation failed.\n");
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
		{ "trials", required_argument, NULL, 't' },
		{ "iters", required_argument, NULL, 'i' },
		{ "warmups", required_argument, NULL, 'w' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "seed-hex", required_argument, NULL, 's' },
		{ "counter", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, have_op = 0;
	o->trials = -1;
	o->iters = -1;
	o->warmups = -1;
	o->cpu = -1;
	for (size_t i = 0; i < SEED_LEN; i++)
		o->seed[i] = (unsigned char)i;
	o->seed_len = SEED_LEN;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		long v;
		switch (c) {
		case 'l': o->lib = optarg; break;
		case 'o':
			if (parse_op(optarg, &o->op))
				goto bad;
			have_op = 1;
			break;
		case 't': if (parse_long(optarg, 1, &o->trials)) goto bad; break;
		case 'i': if (parse_long(optarg, 1, &o->iters)) goto bad; break;
		case 'w': if (parse_long(optarg, 0, &o->warmups)) goto bad; break;
		case 'c':
			if (parse_long(optarg, 0, &v))
				goto bad;
			o->cpu = (int)v;
			break;
		case 's':
			if (parse_hex(optarg, o->seed, SEED_LEN, &o->seed_len))
				goto bad;
			break;
		case 'k':
			if (!strcmp(optarg, "fallback"))
				o->force_fallback = 1;
			else if (strcmp(optarg, "auto"))
				goto bad;
			break;
		case 'h':
			usage(stdout);
			exit(DRV_OK);
		default:
			goto bad;
		}
	}
	if (!o->lib || !have_op || o->trials < 0 || o->iters < 0 || o->warmups < 0 ||
	    optind != argc)
		goto bad;
	return 0;
bad:
	fprintf(stderr, "ngcc-perf-driver: invalid or missing option near '%s'\n",
		optind > 0 && optind <= argc ? argv[optind - 1] : "");
	usage(stderr);
	return -1;
}

/* ---- buffers ----------------------------------------------------------- */

static int obj_alloc(struct obj *o, const char *what, unsigned long long cap)
{
	if (cap == 0 || cap > MAX_CAPACITY) {
		set_failure("API capacity of %s is %llu bytes (must be 1..%llu)",
			    what, cap, MAX_CAPACITY);
		return -1;
	}
	o->buf = calloc(1, cap + BUF_SLACK);
	if (!o->buf) {
		set_failure("cannot allocate %llu bytes for %s", cap + BUF_SLACK, what);
		return -1;
	}
	o->cap = cap;
	o->seen_min = ~0ull;
	return 0;
}

static void obj_seen(struct obj *o)
{
	if (o->len < o->seen_min)
		o->seen_min = o->len;
	if (o->len > o->seen_max)
		o->seen_max = o->len;
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
		set_failure("cannot allocate reference buffers");
		return -1;
	}
	return 0;
}

static void free_buffers(struct kem_state *k)
{
	free(k->pk.buf);
	free(k->sk.buf);
	free(k->ct.buf);
	free(k->ss.buf);
	free(k->ss_ref);
	free(k->ct_ref);
}

/* ---- single checked calls (setup, warm-ups, validation) --------------- */

static int call_keygen(struct kem_state *k)
{
	k->pk.len = k->pk.cap;
	k->sk.len = k->sk.cap;
	int rc = k->lib.kem_keygen(k->pk.buf, &k->pk.len, k->sk.buf, &k->sk.len);
	if (rc || k->pk.len > k->pk.cap || k->sk.len > k->sk.cap) {
		set_failure("kem_keygen returned %d (pk_len %llu of %llu, sk_len %llu of %llu)",
			    rc, k->pk.len, k->pk.cap, k->sk.len, k->sk.cap);
		return -1;
	}
	obj_seen(&k->pk);
	obj_seen(&k->sk);
	return 0;
}

static int call_enc(struct kem_state *k)
{
	k->ss.len = k->ss.cap;
	k->ct.len = k->ct.cap;
	int rc = k->lib.kem_enc(k->pk.buf, k->pk.len, k->ss.buf, &k->ss.len,
				k->ct.buf, &k->ct.len);
	if (rc || k->ss.len > k->ss.cap || k->ct.len > k->ct.cap) {
		set_failure("kem_enc returned %d (ss_len %llu of %llu, ct_len %llu of %llu)",
			    rc, k->ss.len, k->ss.cap, k->ct.len, k->ct.cap);
		return -1;
	}
	obj_seen(&k->ss);
	obj_seen(&k->ct);
	return 0;
}

/* Decapsulate the reference ct into ss; its length must be ss_ref_len. */
static int call_dec(struct kem_state *k)
{
	k->ss.len = k->ss.cap;
	int rc = k->lib.kem_dec(k->sk.buf, k->sk.len, k->ct_ref, k->ct_ref_len,
				k->ss.buf, &k->ss.len);
	if (rc || k->ss.len != k->ss_ref_len) {
		set_failure("kem_dec returned %d (ss_len %llu, expected %llu)",
			    rc, k->ss.len, k->ss_ref_len);
		return -1;
	}
	obj_seen(&k->ss);
	return 0;
}

static void keep_reference(struct kem_state *k)
{
	memcpy(k->ss_ref, k->ss.buf, k->ss.len);
	k->ss_ref_len = k->ss.len;
	memcpy(k->ct_ref, k->ct.buf, k->ct.len);
	k->ct_ref_len = k->ct.len;
}

/* Untimed setup (method §5.2). */
static int setup(struct kem_state *k, enum op op)
{
	if (op == OP_KEYGEN)
		return 0;
	if (call_keygen(k) || call_enc(k))
		return -1;
	keep_reference(k);
	if (op == OP_ENC)
		return 0;
	if (call_dec(k))
		return -1;
	if (memcmp(k->ss.buf, k->ss_ref, k->ss_ref_len)) {
		set_failure("honest decapsulation mismatch; refusing timing");
		return -1;
	}
	return 0;
}

static int call_once(struct kem_state *k, enum op op)
{
	switch (op) {
	case OP_KEYGEN: return call_keygen(k);
	case OP_ENC: return call_enc(k);
	default: return call_dec(k);
	}
}

/* ---- timed loops: one per operation, nothing but the call and its check ---- */

static long loop_keygen(struct kem_state *k, long iters)
{
	ngcc_kem_keygen_fn fn = k->lib.kem_keygen;
	unsigned long long pkc = k->pk.cap, skc = k->sk.cap;
	for (long i = 0; i < iters; i++) {
		k->pk.len = pkc;
		k->sk.len = skc;
		int rc = fn(k->pk.buf, &k->pk.len, k->sk.buf, &k->sk.len);
		if (__builtin_expect(rc != 0 || k->pk.len > pkc || k->sk.len > skc, 0)) {
			set_failure("kem_keygen call %ld returned %d (pk_len %llu of %llu, sk_len %llu of %llu)",
				    i, rc, k->pk.len, pkc, k->sk.len, skc);
			return i;
		}
	}
	return iters;
}

static long loop_enc(struct kem_state *k, long iters)
{
	ngcc_kem_enc_fn fn = k->lib.kem_enc;
	unsigned long long ssc = k->ss.cap, ctc = k->ct.cap, pkl = k->pk.len;
	for (long i = 0; i < iters; i++) {
		k->ss.len = ssc;
		k->ct.len = ctc;
		int rc = fn(k->pk.buf, pkl, k->ss.buf, &k->ss.len, k->ct.buf, &k->ct.len);
		if (__builtin_expect(rc != 0 || k->ss.len > ssc || k->ct.len > ctc, 0)) {
			set_failure("kem_enc call %ld returned %d (ss_len %llu of %llu, ct_len %llu of %llu)",
				    i, rc, k->ss.len, ssc, k->ct.len, ctc);
			return i;
		}
	}
	return iters;
}

static long loop_dec(struct kem_state *k, long iters)
{
	ngcc_kem_dec_fn fn = k->lib.kem_dec;
	unsigned long long ssc = k->ss.cap, want = k->ss_ref_len;
	unsigned long long skl = k->sk.len, ctl = k->ct_ref_len;
	for (long i = 0; i < iters; i++) {
		k->ss.len = ssc;
		int rc = fn(k->sk.buf, skl, k->ct_ref, ctl, k->ss.buf, &k->ss.len);
		if (__builtin_expect(rc != 0 || k->ss.len != want, 0)) {
			set_failure("kem_dec call %ld returned %d (ss_len %llu, expected %llu)",
				    i, rc, k->ss.len, want);
			return i;
		}
	}
	return iters;
}

static long run_loop(struct kem_state *k, enum op op, long iters)
{
	switch (op) {
	case OP_KEYGEN: return loop_keygen(k, iters);
	case OP_ENC: return loop_enc(k, iters);
	default: return loop_dec(k, iters);
	}
}

/* One trial (method §5.1 step 8).  Returns 0, or -1 on an operation failure
 * (the trial is then not recorded). */
static int run_trial(struct kem_state *k, enum op op, long iters,
		     struct counter *c, struct trial_rec *t)
{
	struct rusage r0, r1;
	uint64_t state, t0, t1;
	long mig0 = nr_migrations();
	int cpu0 = sched_getcpu();
	getrusage(RUSAGE_THREAD, &r0);
	counter_start(c, &state);
	t0 = clock_raw_ns();
	long done = run_loop(k, op, iters);
	t1 = clock_raw_ns();
	t->cycles = counter_stop(c, &state);
	getrusage(RUSAGE_THREAD, &r1);
	if (done != iters)
		return -1;
	long mig1 = nr_migrations();
	t->calls = (uint64_t)iters;
	t->ns = t1 - t0;
	if (c->kind == COUNTER_NONE)
		t->cycles = 0;
	t->invol = r1.ru_nivcsw - r0.ru_nivcsw;
	t->vol = r1.ru_nvcsw - r0.ru_nvcsw;
	t->minflt = r1.ru_minflt - r0.ru_minflt;
	t->majflt = r1.ru_majflt - r0.ru_majflt;
	if (mig0 >= 0 && mig1 >= 0)
		t->migrations = mig1 - mig0;
	else
		t->migrations = sched_getcpu() != cpu0;
	return 0;
}

/* ---- validation (R3), after VmHWM h2 ---------------------------------- */

static int validate_keygen(struct kem_state *k)
{
	/* The last keypair must work: encapsulate to it, decapsulate. */
	if (call_enc(k))
		return -1;
	keep_reference(k);
	if (call_dec(k))
		return -1;
	if (memcmp(k->ss.buf, k->ss_ref, k->ss_ref_len)) {
		set_failure("the last generated key pair does not round-trip: dec(enc(pk)) gives another shared secret");
		return -1;
	}
	return 0;
}

static int validate_enc(struct kem_state *k)
{
	/* The last ct must decapsulate to the last ss. */
	keep_reference(k);
	if (call_dec(k))
		return -1;
	if (memcmp(k->ss.buf, k->ss_ref, k->ss_ref_len)) {
		set_failure("the last ciphertext does not decapsulate to its shared secret");
		return -1;
	}
	return 0;
}

static int validate_dec(struct kem_state *k)
{
	if (k->ss.len != k->ss_ref_len || memcmp(k->ss.buf, k->ss_ref, k->ss_ref_len)) {
		set_failure("the last decapsulation gave a shared secret other than the encapsulated one");
		return -1;
	}
	return 0;
}

static int validate(struct kem_state *k, enum op op)
{
	switch (op) {
	case OP_KEYGEN: return validate_keygen(k);
	case OP_ENC: return validate_enc(k);
	default: return validate_dec(k);
	}
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
};

static json_t *jnum_or_null(long long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static json_t *meta_json(const struct options *o, const struct kem_state *k)
{
	const struct ngcc_meta *m = k->lib.meta;
	json_t *j = json_object();
	json_object_set_new(j, "id", json_string(m ? m->id : ""));
	json_object_set_new(j, "instance", json_string(m ? m->instance : ""));
	json_object_set_new(j, "label", json_string(m ? m->label : ""));
	json_object_set_new(j, "variant", json_string(m ? m->variant : ""));
	json_object_set_new(j, "operation", json_string(op_names[o->op]));
	json_object_set_new(j, "input_bytes", json_null());
	json_object_set_new(j, "build_flags", json_string(m ? m->flags : ""));
	json_object_set_new(j, "pk_bytes", json_integer(m ? (json_int_t)m->pk_bytes : 0));
	json_object_set_new(j, "sk_bytes", json_integer(m ? (json_int_t)m->sk_bytes : 0));
	json_object_set_new(j, "ct_bytes", json_integer(m ? (json_int_t)m->ct_bytes : 0));
	json_object_set_new(j, "ss_bytes", json_integer(m ? (json_int_t)m->ss_bytes : 0));
	json_object_set_new(j, "timing_scope", json_string("per_call_loop"));
	json_object_set_new(j, "warmups", json_integer(o->warmups));
	json_object_set_new(j, "trials_requested", json_integer(o->trials));
	json_object_set_new(j, "iterations_per_trial", json_integer(o->iters));
	json_object_set_new(j, "runtime", json_string(m && m->runtime ? m->runtime : ""));
	json_object_set_new(j, "migrations_source", json_string(nr_migrations() >= 0 ?
		"se.nr_migrations of /proc/thread-self/sched" :
		"sched_getcpu() before and after each trial (1 if it changed)"));
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

static json_t *observed_json(const struct kem_state *k)
{
	const struct obj *objs[] = { &k->pk, &k->sk, &k->ct, &k->ss };
	static const char *const names[] = { "pk", "sk", "ct", "ss" };
	json_t *j = json_object();
	for (int i = 0; i < 4; i++) {
		json_t *o = json_object();
		int seen = objs[i]->seen_min != ~0ull && objs[i]->buf;
		json_object_set_new(o, "min", seen ? json_integer((json_int_t)objs[i]->seen_min) : json_null());
		json_object_set_new(o, "max", seen ? json_integer((json_int_t)objs[i]->seen_max) : json_null());
		json_object_set_new(j, names[i], o);
	}
	return j;
}

static json_t *counter_json(const struct counter *c, const struct result *r)
{
	json_t *j = json_object();
	int none = c->kind == COUNTER_NONE;
	json_object_set_new(j, "name", json_string(c->name ? c->name : "none"));
	json_object_set_new(j, "hz", none ? json_null() : json_real(c->hz));
	json_object_set_new(j, "resolution", none ? json_null() : json_real(c->resolution));
	json_object_set_new(j, "overhead_cycles_median", none || r->overhead_ticks < 0 ?
			    json_null() : json_real(r->overhead_ticks));
	json_object_set_new(j, "overhead_ns_median", r->overhead_ns < 0 ?
			    json_null() : json_real(r->overhead_ns));
	json_object_set_new(j, "why_fallback", c->why_fallback ?
			    json_string(c->why_fallback) : json_null());
	return j;
}

static void hex_of(const unsigned char *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = 0;
}

static void emit_result(const struct options *o, const struct kem_state *k,
			const struct counter *c, const struct result *r)
{
	char seed_hex[2 * SEED_LEN + 1];
	hex_of(o->seed, o->seed_len, seed_hex);
	json_t *j = json_object();
	json_object_set_new(j, "schema", json_string("ngcc-perf/driver-result/1"));
	json_object_set_new(j, "status", json_string(r->status));
	json_object_set_new(j, "exit_code", json_integer(r->exit_code));
	json_object_set_new(j, "error", r->error ? json_string(r->error) : json_null());
	json_object_set_new(j, "meta", meta_json(o, k));
	json_object_set_new(j, "seed_hex", json_string(seed_hex));
	json_object_set_new(j, "trials", trials_json(r));
	json_object_set_new(j, "rss", rss_json(r));
	json_t *v = json_object();
	json_object_set_new(v, "performed", json_boolean(r->validation_performed));
	json_object_set_new(v, "ok", r->validation_performed ? json_boolean(r->validation_ok) : json_null());
	json_object_set_new(v, "detail", r->validation_detail ? json_string(r->validation_detail) : json_null());
	json_object_set_new(j, "validation", v);
	json_object_set_new(j, "observed", observed_json(k));
	json_object_set_new(j, "counter", counter_json(c, r));
	char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	json_decref(j);
	if (!s)
		return;
	size_t len = strlen(s), off = 0;
	if (result_fd < 0) {
		fprintf(stderr, "ngcc-perf-driver: fd %d is not open; result not written\n",
			SPAWN_RESULT_FD);
	} else {
		while (off < len) {
			ssize_t n = write(result_fd, s + off, len - off);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			off += (size_t)n;
		}
		(void)!write(result_fd, "\n", 1);
	}
	free(s);
}

/* Move the result pipe out of the candidate's way: a library that writes
 * to fd 3, or closes it, must not corrupt or lose our result.  Whatever it
 * opens next may get fd 3 instead. */
static void hide_result_fd(void)
{
	if (fcntl(SPAWN_RESULT_FD, F_GETFD) < 0)
		return;
	result_fd = fcntl(SPAWN_RESULT_FD, F_DUPFD_CLOEXEC, 64);
	if (result_fd >= 0)
		close(SPAWN_RESULT_FD);
	else
		result_fd = SPAWN_RESULT_FD;
}

/* ---- main ---------------------------------------------------------------- */

static void pin_cpu(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set))
		fprintf(stderr, "ngcc-perf-driver: cannot pin to CPU %d: %s\n",
			cpu, strerror(errno));
}

static void install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
}

/* Everything after a successful load and seed. */
static int measure(const struct options *o, struct kem_state *k,
		   struct counter *c, struct result *r)
{
	if (alloc_buffers(k) || setup(k, o->op)) {
		r->status = "failed";
		r->error = failure;
		return DRV_OPFAIL;
	}
	r->baseline = statm_resident_bytes();
	r->h1 = vm_hwm_kib();
	int hwm_err = reset_hwm();
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
		if (call_once(k, o->op)) {
			r->status = "failed";
			r->error = failure;
			return DRV_OPFAIL;
		}
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
			r->h2 = vm_hwm_kib();
			return DRV_PARTIAL;
		}
		if (run_trial(k, o->op, o->iters, c, &r->trials[t])) {
			r->status = "failed";
			r->error = failure;
			r->h2 = vm_hwm_kib();
			return DRV_OPFAIL;
		}
		r->n_trials = t + 1;
	}
	r->h2 = vm_hwm_kib();
	if (!hwm_err)
		r->op_peak = r->h2 < 0 ? -1 : r->h2 * 1024;
	r->validation_performed = 1;
	if (validate(k, o->op)) {
		r->validation_ok = 0;
		r->validation_detail = failure;
		r->status = "invalid_output";
		r->error = failure;
		return DRV_INVALID;
	}
	r->validation_ok = 1;
	r->status = "complete";
	return DRV_OK;
}

int main(int argc, char **argv)
{
	struct options o;
	struct kem_state k;
	struct counter c;
	struct result r;
	memset(&o, 0, sizeof o);
	memset(&k, 0, sizeof k);
	memset(&c, 0, sizeof c);
	memset(&r, 0, sizeof r);
	r.loaded = r.baseline = r.h1 = r.h2 = r.op_peak = -1;
	r.overhead_ticks = r.overhead_ns = -1;
	r.op_peak_method = "not measured";
	hide_result_fd();
	if (parse_options(argc, argv, &o))
		return DRV_USAGE;
	if (o.cpu >= 0)
		pin_cpu(o.cpu);
	install_signals();
	char *err = NULL;
	if (candidate_load(o.lib, &k.lib, &err)) {
		c.name = "none";
		r.status = "failed";
		r.error = err;
		r.exit_code = DRV_USAGE;
		fprintf(stderr, "ngcc-perf-driver: %s\n", err ? err : "cannot load library");
		emit_result(&o, &k, &c, &r);
		free(err);
		return DRV_USAGE;
	}
	if (k.lib.meta->type != NGCC_TYPE_KEM || !k.lib.kem_keygen || !k.lib.kem_enc ||
	    !k.lib.kem_dec) {
		c.name = "none";
		r.status = "failed";
		r.error = "the library is not a KEM (ngcc_meta type) or lacks its KEM symbols";
		r.exit_code = DRV_USAGE;
		emit_result(&o, &k, &c, &r);
		candidate_unload(&k.lib);
		return DRV_USAGE;
	}
	k.lib.seed(o.seed, o.seed_len);
	r.loaded = statm_resident_bytes();
	counter_open(&c, o.force_fallback);
	r.exit_code = measure(&o, &k, &c, &r);
	if (r.exit_code != DRV_OK && r.error)
		fprintf(stderr, "ngcc-perf-driver: %s %s: %s\n", o.lib, op_names[o.op], r.error);
	emit_result(&o, &k, &c, &r);
	counter_close(&c);
	free(r.trials);
	free_buffers(&k);
	/* No dlclose: a candidate's destructors must not get a chance to
	 * change the exit status of a finished measurement. */
	return r.exit_code;
}
