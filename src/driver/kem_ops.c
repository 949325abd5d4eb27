/* kem_ops.c — see kem_ops.h (docs/method.md §5.1–§5.2, R3). */
#include "driver/kem_ops.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const kem_op_names[3] = { "keygen", "enc", "dec" };

static char failure[512];

const char *kem_failure(void)
{
	return failure;
}

static void set_failure(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void set_failure(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(failure, sizeof failure, fmt, ap);
	va_end(ap);
}

/* ---- command line helpers ------------------------------------------------ */

static int parse_op(const char *s, enum kem_op *op)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, kem_op_names[i])) {
			*op = (enum kem_op)i;
			return 0;
		}
	return -1;
}

/* Hex string to at most max bytes; -1 when odd, empty, too long or not hex. */
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

int kem_parse_long(const char *s, long min, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min)
		return -1;
	*out = v;
	return 0;
}

/* The default seed 00 01 … 2f (docs/method.md §5.1 step 3). */
static void default_seed(unsigned char seed[KEM_SEED_LEN])
{
	for (size_t i = 0; i < KEM_SEED_LEN; i++)
		seed[i] = (unsigned char)i;
}

void kem_opts_init(struct kem_opts *o)
{
	memset(o, 0, sizeof *o);
	o->cpu = -1;
	default_seed(o->seed);
	o->seed_len = KEM_SEED_LEN;
}

int kem_opt(struct kem_opts *o, int c, const char *arg)
{
	long v;
	switch (c) {
	case 'l':
		o->lib = arg;
		return 1;
	case 'o':
		if (parse_op(arg, &o->op))
			return -1;
		o->have_op = 1;
		return 1;
	case 'c':
		if (kem_parse_long(arg, 0, &v) || v > 1 << 20)
			return -1;
		o->cpu = (int)v;
		return 1;
	case 's':
		return parse_hex(arg, o->seed, KEM_SEED_LEN, &o->seed_len) ? -1 : 1;
	default:
		return 0;
	}
}

int kem_opts_complete(const struct kem_opts *o)
{
	return o->lib && o->have_op;
}

int kem_open(const char *path, struct kem_state *k)
{
	char *err = NULL;
	if (candidate_load(path, &k->lib, &err)) {
		set_failure("%s", err ? err : "cannot load the library");
		free(err);
		return -1;
	}
	if (k->lib.meta->type != NGCC_TYPE_KEM || !k->lib.kem_keygen || !k->lib.kem_enc ||
	    !k->lib.kem_dec) {
		set_failure("the library is not a KEM (ngcc_meta type) or lacks its KEM symbols");
		return -2;
	}
	return 0;
}

/* ---- buffers ------------------------------------------------------------- */

static int obj_alloc(struct kem_obj *o, const char *what, unsigned long long cap)
{
	if (cap == 0 || cap > KEM_MAX_CAPACITY) {
		set_failure("API capacity of %s is %llu bytes (must be 1..%llu)",
			    what, cap, KEM_MAX_CAPACITY);
		return -1;
	}
	o->buf = calloc(1, cap + KEM_BUF_SLACK);
	if (!o->buf) {
		set_failure("cannot allocate %llu bytes for %s", cap + KEM_BUF_SLACK, what);
		return -1;
	}
	o->cap = cap;
	o->seen_min = ~0ull;
	return 0;
}

static void obj_seen(struct kem_obj *o)
{
	if (o->len < o->seen_min)
		o->seen_min = o->len;
	if (o->len > o->seen_max)
		o->seen_max = o->len;
}

int kem_alloc_buffers(struct kem_state *k)
{
	const struct ngcc_meta *m = k->lib.meta;
	if (obj_alloc(&k->pk, "pk", m->pk_bytes) || obj_alloc(&k->sk, "sk", m->sk_bytes) ||
	    obj_alloc(&k->ct, "ct", m->ct_bytes) || obj_alloc(&k->ss, "ss", m->ss_bytes))
		return -1;
	k->ss_ref = calloc(1, m->ss_bytes + KEM_BUF_SLACK);
	k->ct_ref = calloc(1, m->ct_bytes + KEM_BUF_SLACK);
	if (!k->ss_ref || !k->ct_ref) {
		set_failure("cannot allocate reference buffers");
		return -1;
	}
	return 0;
}

void kem_free_buffers(struct kem_state *k)
{
	free(k->pk.buf);
	free(k->sk.buf);
	free(k->ct.buf);
	free(k->ss.buf);
	free(k->ss_ref);
	free(k->ct_ref);
	k->pk.buf = k->sk.buf = k->ct.buf = k->ss.buf = k->ss_ref = k->ct_ref = NULL;
}

/* ---- single checked calls (setup, warm-ups, validation) ------------------ */

int kem_raw_call(struct kem_state *k, enum kem_op op)
{
	switch (op) {
	case KEM_OP_KEYGEN:
		k->pk.len = k->pk.cap;
		k->sk.len = k->sk.cap;
		return k->lib.kem_keygen(k->pk.buf, &k->pk.len, k->sk.buf, &k->sk.len);
	case KEM_OP_ENC:
		k->ss.len = k->ss.cap;
		k->ct.len = k->ct.cap;
		return k->lib.kem_enc(k->pk.buf, k->pk.len, k->ss.buf, &k->ss.len,
				      k->ct.buf, &k->ct.len);
	default:
		/* The reference ct; the ss length must be ss_ref_len. */
		k->ss.len = k->ss.cap;
		return k->lib.kem_dec(k->sk.buf, k->sk.len, k->ct_ref, k->ct_ref_len,
				      k->ss.buf, &k->ss.len);
	}
}

int kem_check_call(struct kem_state *k, enum kem_op op, int rc)
{
	switch (op) {
	case KEM_OP_KEYGEN:
		if (rc || k->pk.len > k->pk.cap || k->sk.len > k->sk.cap) {
			set_failure("kem_keygen returned %d (pk_len %llu of %llu, sk_len %llu of %llu)",
				    rc, k->pk.len, k->pk.cap, k->sk.len, k->sk.cap);
			return -1;
		}
		obj_seen(&k->pk);
		obj_seen(&k->sk);
		return 0;
	case KEM_OP_ENC:
		if (rc || k->ss.len > k->ss.cap || k->ct.len > k->ct.cap) {
			set_failure("kem_enc returned %d (ss_len %llu of %llu, ct_len %llu of %llu)",
				    rc, k->ss.len, k->ss.cap, k->ct.len, k->ct.cap);
			return -1;
		}
		obj_seen(&k->ss);
		obj_seen(&k->ct);
		return 0;
	default:
		if (rc || k->ss.len != k->ss_ref_len) {
			set_failure("kem_dec returned %d (ss_len %llu, expected %llu)",
				    rc, k->ss.len, k->ss_ref_len);
			return -1;
		}
		obj_seen(&k->ss);
		return 0;
	}
}

int kem_call_once(struct kem_state *k, enum kem_op op)
{
	return kem_check_call(k, op, kem_raw_call(k, op));
}

static void keep_reference(struct kem_state *k)
{
	memcpy(k->ss_ref, k->ss.buf, k->ss.len);
	k->ss_ref_len = k->ss.len;
	memcpy(k->ct_ref, k->ct.buf, k->ct.len);
	k->ct_ref_len = k->ct.len;
}

int kem_setup(struct kem_state *k, enum kem_op op)
{
	if (op == KEM_OP_KEYGEN)
		return 0;
	if (kem_call_once(k, KEM_OP_KEYGEN) || kem_call_once(k, KEM_OP_ENC))
		return -1;
	keep_reference(k);
	if (op == KEM_OP_ENC)
		return 0;
	if (kem_call_once(k, KEM_OP_DEC))
		return -1;
	if (memcmp(k->ss.buf, k->ss_ref, k->ss_ref_len)) {
		set_failure("honest decapsulation mismatch; refusing timing");
		return -1;
	}
	return 0;
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

long kem_run_loop(struct kem_state *k, enum kem_op op, long iters)
{
	switch (op) {
	case KEM_OP_KEYGEN: return loop_keygen(k, iters);
	case KEM_OP_ENC: return loop_enc(k, iters);
	default: return loop_dec(k, iters);
	}
}

/* ---- validation (R3) ------------------------------------------------------ */

static int validate_keygen(struct kem_state *k)
{
	/* The last keypair must work: encapsulate to it, decapsulate. */
	if (kem_call_once(k, KEM_OP_ENC))
		return -1;
	keep_reference(k);
	if (kem_call_once(k, KEM_OP_DEC))
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
	if (kem_call_once(k, KEM_OP_DEC))
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

int kem_validate(struct kem_state *k, enum kem_op op)
{
	switch (op) {
	case KEM_OP_KEYGEN: return validate_keygen(k);
	case KEM_OP_ENC: return validate_enc(k);
	default: return validate_dec(k);
	}
}
