/* kem_ops.c — see kem_ops.h (docs/method.md §5.1–§5.2, R3). */
#include "driver/kem_ops.h"

#include <stdlib.h>
#include <string.h>

enum kem_op { KEM_OP_KEYGEN, KEM_OP_ENC, KEM_OP_DEC };
static const char *const kem_op_names[] = { "keygen", "enc", "dec", NULL };

/* One KEM object: buffer, its API capacity, the current length and the
 * lengths we saw. */
struct kem_obj {
	unsigned char *buf;
	unsigned long long cap, len;
	struct ops_seen seen;
};

struct kem_state {
	struct candidate_lib *lib;
	struct kem_obj pk, sk, ct, ss;
	unsigned char *ss_ref;  /* enc's ss from setup (dec's expected) */
	unsigned long long ss_ref_len;
	unsigned char *ct_ref;  /* ct from setup (dec's fixed input) */
	unsigned long long ct_ref_len;
};

static struct kem_state *kem(const struct op_ctx *c)
{
	return c->st;
}

/* ---- buffers ------------------------------------------------------------- */

static int obj_alloc(struct kem_obj *o, const char *what, unsigned long long cap)
{
	o->buf = ops_buffer(what, cap, 0);
	o->cap = cap;
	return o->buf ? 0 : -1;
}

static void kem_release(struct op_ctx *c)
{
	struct kem_state *k = kem(c);
	free(k->pk.buf);
	free(k->sk.buf);
	free(k->ct.buf);
	free(k->ss.buf);
	free(k->ss_ref);
	free(k->ct_ref);
	free(k);
}

static int kem_alloc(struct op_ctx *c)
{
	const struct ngcc_meta *m = c->lib.meta;
	struct kem_state *k = ops_new_state(c, sizeof *k, "KEM");
	if (!k)
		return -1;
	k->lib = &c->lib;
	if (obj_alloc(&k->pk, "pk", m->pk_bytes) || obj_alloc(&k->sk, "sk", m->sk_bytes) ||
	    obj_alloc(&k->ct, "ct", m->ct_bytes) || obj_alloc(&k->ss, "ss", m->ss_bytes))
		return -1;
	k->ss_ref = calloc(1, m->ss_bytes + OPS_BUF_SLACK);
	k->ct_ref = calloc(1, m->ct_bytes + OPS_BUF_SLACK);
	if (!k->ss_ref || !k->ct_ref) {
		ops_set_failure("cannot allocate reference buffers");
		return -1;
	}
	return 0;
}

/* ---- single checked calls (setup, warm-ups, validation) ------------------ */

static int raw_call(struct kem_state *k, enum kem_op op)
{
	switch (op) {
	case KEM_OP_KEYGEN:
		k->pk.len = k->pk.cap;
		k->sk.len = k->sk.cap;
		return k->lib->kem_keygen(k->pk.buf, &k->pk.len, k->sk.buf, &k->sk.len);
	case KEM_OP_ENC:
		k->ss.len = k->ss.cap;
		k->ct.len = k->ct.cap;
		return k->lib->kem_enc(k->pk.buf, k->pk.len, k->ss.buf, &k->ss.len,
				       k->ct.buf, &k->ct.len);
	default:
		/* The reference ct; the ss length must be ss_ref_len. */
		k->ss.len = k->ss.cap;
		return k->lib->kem_dec(k->sk.buf, k->sk.len, k->ct_ref, k->ct_ref_len,
				       k->ss.buf, &k->ss.len);
	}
}

static int check_call(struct kem_state *k, enum kem_op op, int rc)
{
	switch (op) {
	case KEM_OP_KEYGEN:
		if (rc || k->pk.len > k->pk.cap || k->sk.len > k->sk.cap) {
			ops_set_failure("kem_keygen returned %d (pk_len %llu of %llu, sk_len %llu of %llu)",
					rc, k->pk.len, k->pk.cap, k->sk.len, k->sk.cap);
			return -1;
		}
		ops_seen_add(&k->pk.seen, k->pk.len);
		ops_seen_add(&k->sk.seen, k->sk.len);
		return 0;
	case KEM_OP_ENC:
		if (rc || k->ss.len > k->ss.cap || k->ct.len > k->ct.cap) {
			ops_set_failure("kem_enc returned %d (ss_len %llu of %llu, ct_len %llu of %llu)",
					rc, k->ss.len, k->ss.cap, k->ct.len, k->ct.cap);
			return -1;
		}
		ops_seen_add(&k->ss.seen, k->ss.len);
		ops_seen_add(&k->ct.seen, k->ct.len);
		return 0;
	default:
		if (rc || k->ss.len != k->ss_ref_len) {
			ops_set_failure("kem_dec returned %d (ss_len %llu, expected %llu)",
					rc, k->ss.len, k->ss_ref_len);
			return -1;
		}
		ops_seen_add(&k->ss.seen, k->ss.len);
		return 0;
	}
}

static int call_once(struct kem_state *k, enum kem_op op)
{
	return check_call(k, op, raw_call(k, op));
}

static int kem_raw_call(struct op_ctx *c)
{
	return raw_call(kem(c), (enum kem_op)c->op);
}

static int kem_check_call(struct op_ctx *c, int rc)
{
	return check_call(kem(c), (enum kem_op)c->op, rc);
}

static void keep_reference(struct kem_state *k)
{
	memcpy(k->ss_ref, k->ss.buf, k->ss.len);
	k->ss_ref_len = k->ss.len;
	memcpy(k->ct_ref, k->ct.buf, k->ct.len);
	k->ct_ref_len = k->ct.len;
}

static int kem_setup(struct op_ctx *c)
{
	struct kem_state *k = kem(c);
	if (c->op == KEM_OP_KEYGEN)
		return 0;
	if (call_once(k, KEM_OP_KEYGEN) || call_once(k, KEM_OP_ENC))
		return -1;
	keep_reference(k);
	if (c->op == KEM_OP_ENC)
		return 0;
	if (call_once(k, KEM_OP_DEC))
		return -1;
	if (memcmp(k->ss.buf, k->ss_ref, k->ss_ref_len)) {
		ops_set_failure("honest decapsulation mismatch; refusing timing");
		return -1;
	}
	return 0;
}

/* ---- timed loops: one per operation, nothing but the call and its check ---- */

static long loop_keygen(struct kem_state *k, long iters)
{
	ngcc_kem_keygen_fn fn = k->lib->kem_keygen;
	unsigned long long pkc = k->pk.cap, skc = k->sk.cap;
	for (long i = 0; i < iters; i++) {
		k->pk.len = pkc;
		k->sk.len = skc;
		int rc = fn(k->pk.buf, &k->pk.len, k->sk.buf, &k->sk.len);
		if (__builtin_expect(rc != 0 || k->pk.len > pkc || k->sk.len > skc, 0)) {
			ops_set_failure("kem_keygen call %ld returned %d (pk_len %llu of %llu, sk_len %llu of %llu)",
					i, rc, k->pk.len, pkc, k->sk.len, skc);
			return i;
		}
	}
	return iters;
}

static long loop_enc(struct kem_state *k, long iters)
{
	ngcc_kem_enc_fn fn = k->lib->kem_enc;
	unsigned long long ssc = k->ss.cap, ctc = k->ct.cap, pkl = k->pk.len;
	for (long i = 0; i < iters; i++) {
		k->ss.len = ssc;
		k->ct.len = ctc;
		int rc = fn(k->pk.buf, pkl, k->ss.buf, &k->ss.len, k->ct.buf, &k->ct.len);
		if (__builtin_expect(rc != 0 || k->ss.len > ssc || k->ct.len > ctc, 0)) {
			ops_set_failure("kem_enc call %ld returned %d (ss_len %llu of %llu, ct_len %llu of %llu)",
					i, rc, k->ss.len, ssc, k->ct.len, ctc);
			return i;
		}
	}
	return iters;
}

static long loop_dec(struct kem_state *k, long iters)
{
	ngcc_kem_dec_fn fn = k->lib->kem_dec;
	unsigned long long ssc = k->ss.cap, want = k->ss_ref_len;
	unsigned long long skl = k->sk.len, ctl = k->ct_ref_len;
	for (long i = 0; i < iters; i++) {
		k->ss.len = ssc;
		int rc = fn(k->sk.buf, skl, k->ct_ref, ctl, k->ss.buf, &k->ss.len);
		if (__builtin_expect(rc != 0 || k->ss.len != want, 0)) {
			ops_set_failure("kem_dec call %ld returned %d (ss_len %llu, expected %llu)",
					i, rc, k->ss.len, want);
			return i;
		}
	}
	return iters;
}

static long kem_run_loop(struct op_ctx *c, long iters, const struct op_bracket *step)
{
	(void)step;
	switch (c->op) {
	case KEM_OP_KEYGEN: return loop_keygen(kem(c), iters);
	case KEM_OP_ENC: return loop_enc(kem(c), iters);
	default: return loop_dec(kem(c), iters);
	}
}

/* ---- validation (R3) ------------------------------------------------------ */

static int validate_keygen(struct kem_state *k)
{
	/* The last keypair must work: encapsulate to it, decapsulate. */
	if (call_once(k, KEM_OP_ENC))
		return -1;
	keep_reference(k);
	if (call_once(k, KEM_OP_DEC))
		return -1;
	if (memcmp(k->ss.buf, k->ss_ref, k->ss_ref_len)) {
		ops_set_failure("the last generated key pair does not round-trip: dec(enc(pk)) gives another shared secret");
		return -1;
	}
	return 0;
}

static int validate_enc(struct kem_state *k)
{
	/* The last ct must decapsulate to the last ss. */
	keep_reference(k);
	if (call_once(k, KEM_OP_DEC))
		return -1;
	if (memcmp(k->ss.buf, k->ss_ref, k->ss_ref_len)) {
		ops_set_failure("the last ciphertext does not decapsulate to its shared secret");
		return -1;
	}
	return 0;
}

static int validate_dec(struct kem_state *k)
{
	if (k->ss.len != k->ss_ref_len || memcmp(k->ss.buf, k->ss_ref, k->ss_ref_len)) {
		ops_set_failure("the last decapsulation gave a shared secret other than the encapsulated one");
		return -1;
	}
	return 0;
}

static int kem_validate(struct op_ctx *c)
{
	switch (c->op) {
	case KEM_OP_KEYGEN: return validate_keygen(kem(c));
	case KEM_OP_ENC: return validate_enc(kem(c));
	default: return validate_dec(kem(c));
	}
}

/* ---- result ------------------------------------------------------------------ */

static void kem_meta_json(const struct op_ctx *c, json_t *j)
{
	const struct ngcc_meta *m = c->lib.meta;
	json_object_set_new(j, "pk_bytes", json_integer((json_int_t)m->pk_bytes));
	json_object_set_new(j, "sk_bytes", json_integer((json_int_t)m->sk_bytes));
	json_object_set_new(j, "ct_bytes", json_integer((json_int_t)m->ct_bytes));
	json_object_set_new(j, "ss_bytes", json_integer((json_int_t)m->ss_bytes));
}

static json_t *kem_observed_json(const struct op_ctx *c)
{
	const struct kem_state *k = c->st;
	const struct kem_obj *objs[] = { &k->pk, &k->sk, &k->ct, &k->ss };
	static const char *const names[] = { "pk", "sk", "ct", "ss" };
	json_t *j = json_object();
	for (int i = 0; i < 4; i++)
		json_object_set_new(j, names[i], ops_seen_json(&objs[i]->seen));
	return j;
}

const struct op_type kem_op_type = {
	.abi = NGCC_TYPE_KEM,
	.name = "kem",
	.op_usage = "keygen|enc|dec",
	.op_names = kem_op_names,
	.alloc = kem_alloc,
	.release = kem_release,
	.setup = kem_setup,
	.prepare = NULL,
	.raw_call = kem_raw_call,
	.check_call = kem_check_call,
	.run_loop = kem_run_loop,
	.validate = kem_validate,
	.meta_json = kem_meta_json,
	.observed_json = kem_observed_json,
	.memory_extra = NULL,
};
