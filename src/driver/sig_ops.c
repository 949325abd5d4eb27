/* sig_ops.c — see sig_ops.h (docs/method.md §5.1–§5.2, §9, R3). */
#include "driver/sig_ops.h"

#include <stdlib.h>
#include <string.h>

enum sig_op { SIG_OP_KEYGEN, SIG_OP_SIGN, SIG_OP_VERIFY };
static const char *const sig_op_names[] = { "keygen", "sign", "verify", NULL };

struct sig_state {
	struct candidate_lib *lib;
	unsigned char *pk, *sk, *sn;
	unsigned long long pk_cap, sk_cap, sn_cap;
	unsigned long long pk_len, sk_len, sn_len;
	/* The message: byte[i] = (131 i + 64) mod 256 (docs/method.md §5.2); its
	 * last byte may be tweaked while looking for an honest signature. */
	unsigned char m[SIG_MESSAGE_BYTES];
	/* verify's fixed signature, kept apart from sn. */
	unsigned char *sn_ref;
	unsigned long long sn_ref_len;
	struct ops_seen pk_seen, sk_seen, sn_seen;
	unsigned long long sign_failures_retried;  /* error returns retried */
	unsigned long long sign_max_excess;        /* bytes over sn_cap, largest */
	unsigned long long verify_rejections;
	unsigned long long honest_tries, honest_tweaks;
};

static struct sig_state *sig(const struct op_ctx *c)
{
	return c->st;
}

static void fixed_message(unsigned char m[SIG_MESSAGE_BYTES])
{
	for (unsigned i = 0; i < SIG_MESSAGE_BYTES; i++)
		m[i] = (unsigned char)((131 * i + 64) % 256);
}

/* R2: pool input k signs the message byte[i] = (131 i + 64 + k) mod 256
 * (k = 0: the fixed message), with the key its seed makes. */
static void sig_pool_input(struct op_ctx *c, unsigned k)
{
	struct sig_state *s = sig(c);
	for (unsigned i = 0; i < SIG_MESSAGE_BYTES; i++)
		s->m[i] = (unsigned char)((131 * i + 64 + k) % 256);
}

/* ---- buffers --------------------------------------------------------------- */

static void sig_release(struct op_ctx *c)
{
	struct sig_state *s = sig(c);
	free(s->pk);
	free(s->sk);
	free(s->sn);
	free(s->sn_ref);
	free(s);
}

static int sig_alloc(struct op_ctx *c)
{
	const struct ngcc_meta *m = c->lib.meta;
	struct sig_state *s = ops_new_state(c, sizeof *s, "signature");
	if (!s)
		return -1;
	s->lib = &c->lib;
	fixed_message(s->m);
	s->pk_cap = m->pk_bytes;
	s->sk_cap = m->sk_bytes;
	s->sn_cap = m->sig_bytes;
	/* Room for a signature up to SIG_EXCESS_MAX bytes over the maximum
	 * the API declares: tolerated and recorded, not a crash. */
	s->pk = ops_buffer("pk", s->pk_cap, 0);
	s->sk = s->pk ? ops_buffer("sk", s->sk_cap, 0) : NULL;
	s->sn = s->sk ? ops_buffer("signature", s->sn_cap, SIG_EXCESS_MAX) : NULL;
	s->sn_ref = s->sn ? ops_buffer("signature", s->sn_cap, SIG_EXCESS_MAX) : NULL;
	return s->sn_ref ? 0 : -1;
}

/* ---- the calls ----------------------------------------------------------------- */

static int keygen(struct sig_state *s)
{
	s->pk_len = s->pk_cap;
	s->sk_len = s->sk_cap;
	return s->lib->sig_keygen(s->pk, &s->pk_len, s->sk, &s->sk_len);
}

static int check_keygen(struct sig_state *s, int rc)
{
	if (rc || s->pk_len > s->pk_cap || s->sk_len > s->sk_cap) {
		ops_set_failure("sig_keygen returned %d (pk_len %llu of %llu, sk_len %llu of %llu)",
				rc, s->pk_len, s->pk_cap, s->sk_len, s->sk_cap);
		return -1;
	}
	ops_seen_add(&s->pk_seen, s->pk_len);
	ops_seen_add(&s->sk_seen, s->sk_len);
	return 0;
}

/* The timed sign: an error return is retried, up to SIG_SIGN_RETRIES
 * times, inside the timing, and counted. */
static int sign_retrying(struct sig_state *s)
{
	for (int retry = 0;; retry++) {
		s->sn_len = s->sn_cap;
		int rc = s->lib->sig_sign(s->sk, s->sk_len, s->m, SIG_MESSAGE_BYTES, s->sn, &s->sn_len);
		if (rc == 0 || retry == SIG_SIGN_RETRIES)
			return rc;
		s->sign_failures_retried++;
	}
}

static int check_sign(struct sig_state *s, int rc)
{
	if (rc || s->sn_len > s->sn_cap + SIG_EXCESS_MAX) {
		ops_set_failure("sig_sign returned %d%s (sn_len %llu, API maximum %llu, "
				"tolerated up to %llu)", rc,
				rc ? " also on its last retry" : "", s->sn_len, s->sn_cap,
				s->sn_cap + SIG_EXCESS_MAX);
		return -1;
	}
	if (s->sn_len > s->sn_cap && s->sn_len - s->sn_cap > s->sign_max_excess)
		s->sign_max_excess = s->sn_len - s->sn_cap;
	ops_seen_add(&s->sn_seen, s->sn_len);
	return 0;
}

static int verify_ref(struct sig_state *s)
{
	return s->lib->sig_verify(s->pk, s->pk_len, s->sn_ref, s->sn_ref_len,
				  s->m, SIG_MESSAGE_BYTES);
}

/* Rejections are counted, not fatal (docs/method.md §5.2). */
static int check_verify(struct sig_state *s, int rc)
{
	if (rc)
		s->verify_rejections++;
	return 0;
}

static int raw_call(struct sig_state *s, enum sig_op op)
{
	switch (op) {
	case SIG_OP_KEYGEN: return keygen(s);
	case SIG_OP_SIGN: return sign_retrying(s);
	default: return verify_ref(s);
	}
}

static int check_call(struct sig_state *s, enum sig_op op, int rc)
{
	switch (op) {
	case SIG_OP_KEYGEN: return check_keygen(s, rc);
	case SIG_OP_SIGN: return check_sign(s, rc);
	default: return check_verify(s, rc);
	}
}

static int sig_raw_call(struct op_ctx *c)
{
	return raw_call(sig(c), (enum sig_op)c->op);
}

static int sig_check_call(struct op_ctx *c, int rc)
{
	return check_call(sig(c), (enum sig_op)c->op, rc);
}

/* ---- setup ------------------------------------------------------------------ */

/*
 * verify's fixed triple: a signature the candidate's own verify accepts,
 * of the fixed message, else of the message with its last byte tweaked
 * (up to SIG_HONEST_TWEAKS messages, SIG_HONEST_TRIES signatures each).
 */
static int honest_signature(struct sig_state *s)
{
	unsigned char last = s->m[SIG_MESSAGE_BYTES - 1];
	for (unsigned tweak = 0; tweak < SIG_HONEST_TWEAKS; tweak++) {
		s->m[SIG_MESSAGE_BYTES - 1] = (unsigned char)(last ^ tweak);
		s->honest_tweaks = tweak;
		for (unsigned t = 0; t < SIG_HONEST_TRIES; t++) {
			s->honest_tries++;
			s->sn_len = s->sn_cap;
			int rc = s->lib->sig_sign(s->sk, s->sk_len, s->m, SIG_MESSAGE_BYTES,
						  s->sn, &s->sn_len);
			if (rc || s->sn_len > s->sn_cap + SIG_EXCESS_MAX)
				continue;
			ops_seen_add(&s->sn_seen, s->sn_len);
			memcpy(s->sn_ref, s->sn, s->sn_len);
			s->sn_ref_len = s->sn_len;
			if (verify_ref(s) == 0)
				return 0;
		}
	}
	ops_set_failure("no honest signature: %llu signatures of %u messages were refused by "
			"sig_sign or rejected by sig_verify; refusing timing",
			s->honest_tries, SIG_HONEST_TWEAKS);
	return -1;
}

static int sig_setup(struct op_ctx *c)
{
	struct sig_state *s = sig(c);
	if (c->op == SIG_OP_KEYGEN)
		return 0;
	if (check_keygen(s, keygen(s)))
		return -1;
	return c->op == SIG_OP_VERIFY ? honest_signature(s) : 0;
}

/* ---- timed loops ----------------------------------------------------------- */

static long loop_keygen(struct sig_state *s, long iters)
{
	ngcc_sig_keygen_fn fn = s->lib->sig_keygen;
	unsigned long long pkc = s->pk_cap, skc = s->sk_cap;
	for (long i = 0; i < iters; i++) {
		s->pk_len = pkc;
		s->sk_len = skc;
		int rc = fn(s->pk, &s->pk_len, s->sk, &s->sk_len);
		if (__builtin_expect(rc != 0 || s->pk_len > pkc || s->sk_len > skc, 0)) {
			ops_set_failure("sig_keygen call %ld returned %d (pk_len %llu of %llu, sk_len %llu of %llu)",
					i, rc, s->pk_len, pkc, s->sk_len, skc);
			return i;
		}
	}
	return iters;
}

static long loop_sign(struct sig_state *s, long iters)
{
	unsigned long long limit = s->sn_cap + SIG_EXCESS_MAX;
	for (long i = 0; i < iters; i++) {
		int rc = sign_retrying(s);
		if (__builtin_expect(rc != 0 || s->sn_len > limit, 0)) {
			check_sign(s, rc);
			return i;
		}
		if (__builtin_expect(s->sn_len > s->sn_cap, 0) &&
		    s->sn_len - s->sn_cap > s->sign_max_excess)
			s->sign_max_excess = s->sn_len - s->sn_cap;
	}
	return iters;
}

static long loop_verify(struct sig_state *s, long iters)
{
	ngcc_sig_verify_fn fn = s->lib->sig_verify;
	unsigned long long pkl = s->pk_len, snl = s->sn_ref_len, rejected = 0;
	for (long i = 0; i < iters; i++)
		rejected += fn(s->pk, pkl, s->sn_ref, snl, s->m, SIG_MESSAGE_BYTES) != 0;
	s->verify_rejections += rejected;
	return iters;
}

static long sig_run_loop(struct op_ctx *c, long iters, const struct op_bracket *step)
{
	(void)step;
	switch (c->op) {
	case SIG_OP_KEYGEN: return loop_keygen(sig(c), iters);
	case SIG_OP_SIGN: return loop_sign(sig(c), iters);
	default: return loop_verify(sig(c), iters);
	}
}

/* ---- validation (R3) ------------------------------------------------------------ */

/* The signature in sn verifies under pk (and becomes the reference). */
static int last_signature_verifies(struct sig_state *s, const char *what)
{
	memcpy(s->sn_ref, s->sn, s->sn_len);
	s->sn_ref_len = s->sn_len;
	int rc = verify_ref(s);
	if (rc) {
		ops_set_failure("%s: sig_verify returned %d", what, rc);
		return -1;
	}
	return 0;
}

static int validate_keygen(struct sig_state *s)
{
	if (check_sign(s, sign_retrying(s)))
		return -1;
	return last_signature_verifies(s, "the last generated key pair does not verify its own signature");
}

static int validate_sign(struct sig_state *s)
{
	/* the timed loop keeps no lengths: this one is observed here */
	ops_seen_add(&s->sn_seen, s->sn_len);
	return last_signature_verifies(s, "the last signature does not verify");
}

/* The fixed triple still verifies, and the same signature of a message
 * with one bit flipped does not: a verify that accepts everything is
 * invalid output, whatever its speed. */
static int validate_verify(struct sig_state *s)
{
	int rc = verify_ref(s);
	if (rc) {
		ops_set_failure("the honest signature no longer verifies: sig_verify returned %d", rc);
		return -1;
	}
	s->m[0] ^= 0x01;
	rc = verify_ref(s);
	s->m[0] ^= 0x01;
	if (rc == 0) {
		ops_set_failure("sig_verify accepted the honest signature for a message with one "
				"bit flipped");
		return -1;
	}
	return 0;
}

static int sig_validate(struct op_ctx *c)
{
	switch (c->op) {
	case SIG_OP_KEYGEN: return validate_keygen(sig(c));
	case SIG_OP_SIGN: return validate_sign(sig(c));
	default: return validate_verify(sig(c));
	}
}

/* ---- result ----------------------------------------------------------------- */

static void sig_meta_json(const struct op_ctx *c, json_t *j)
{
	const struct ngcc_meta *m = c->lib.meta;
	const struct sig_state *s = c->st;
	json_object_set_new(j, "pk_bytes", json_integer((json_int_t)m->pk_bytes));
	json_object_set_new(j, "sk_bytes", json_integer((json_int_t)m->sk_bytes));
	json_object_set_new(j, "signature_bytes", json_integer((json_int_t)m->sig_bytes));
	json_object_set_new(j, "message_bytes", json_integer(SIG_MESSAGE_BYTES));
	json_object_set_new(j, "sign_failures_retried",
			    json_integer(s ? (json_int_t)s->sign_failures_retried : 0));
	json_object_set_new(j, "sign_max_excess_bytes",
			    json_integer(s ? (json_int_t)s->sign_max_excess : 0));
	json_object_set_new(j, "verify_rejections",
			    json_integer(s ? (json_int_t)s->verify_rejections : 0));
	json_object_set_new(j, "honest_signature_tries",
			    json_integer(s ? (json_int_t)s->honest_tries : 0));
	json_object_set_new(j, "honest_message_tweaks",
			    json_integer(s ? (json_int_t)s->honest_tweaks : 0));
}

static json_t *sig_observed_json(const struct op_ctx *c)
{
	const struct sig_state *s = c->st;
	json_t *j = json_object();
	json_object_set_new(j, "pk", ops_seen_json(&s->pk_seen));
	json_object_set_new(j, "sk", ops_seen_json(&s->sk_seen));
	json_object_set_new(j, "signature", ops_seen_json(&s->sn_seen));
	return j;
}

/* sign's memory pass: the lengths of SIG_OBSERVED_SIGNATURES signatures
 * of the fixed message (docs/method.md §9), after the measured calls, with the
 * key of setup. */
static int sig_memory_extra(struct op_ctx *c, json_t **out)
{
	struct sig_state *s = sig(c);
	if (c->op != SIG_OP_SIGN)
		return 0;
	json_t *lens = json_array();
	for (int i = 0; i < SIG_OBSERVED_SIGNATURES; i++) {
		if (check_sign(s, sign_retrying(s))) {
			json_decref(lens);
			return -1;
		}
		json_array_append_new(lens, json_integer((json_int_t)s->sn_len));
	}
	*out = json_object();
	json_object_set_new(*out, "signature_bytes", lens);
	return 0;
}

const struct op_type sig_op_type = {
	.abi = NGCC_TYPE_SIG,
	.name = "sign",
	.op_usage = "keygen|sign|verify",
	.op_names = sig_op_names,
	.alloc = sig_alloc,
	.release = sig_release,
	.setup = sig_setup,
	.prepare = NULL,
	.raw_call = sig_raw_call,
	.check_call = sig_check_call,
	.run_loop = sig_run_loop,
	.validate = sig_validate,
	.meta_json = sig_meta_json,
	.observed_json = sig_observed_json,
	.memory_extra = sig_memory_extra,
	.pool_input = sig_pool_input,
};
