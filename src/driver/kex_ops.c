/* kex_ops.c — see kex_ops.h (docs/method.md §4.2 step 1, §5.1–§5.2, R3). */
#include "driver/kex_ops.h"

#include "driver/kex_flow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Operation codes: 0 is exchange; 1 + s is step s of the flow, where the
 * steps are init_a (0), init_b (1), pass1 … pass<P> (2 … P + 1),
 * derive_a (P + 2) and derive_b (P + 3).
 */
#define OP_EXCHANGE 0

struct kex_buf {
	const char *name;
	unsigned char *buf;
	unsigned long long cap, len;
	struct ops_seen seen;
};

enum { B_PKA, B_SKA, B_STA, B_PKB, B_SKB, B_STB, B_SSA, B_SSB, N_FIXED_BUFS };

struct kex_state {
	struct candidate_lib *lib;
	unsigned passes;                         /* P */
	struct kex_buf b[N_FIXED_BUFS];
	struct kex_buf m[NGCC_KEX_MAX_PASSES + 1]; /* m[1..P] */
	/* The last messages of A (odd passes) and B (even passes). */
	const struct kex_buf *ma, *mb;
	int agreed;                              /* the last flow's secrets agreed */
};

static struct kex_state *kex(const struct op_ctx *c)
{
	return c->st;
}

static unsigned n_steps(const struct kex_state *x)
{
	return kex_flow_steps(x->passes);
}

/* ---- operation keys ------------------------------------------------------------ */

static int kex_parse_op(const struct ngcc_meta *m, const char *key)
{
	unsigned p = kex_flow_passes(m);
	if (!strcmp(key, "exchange"))
		return OP_EXCHANGE;
	if (!strcmp(key, "init_a"))
		return 1;
	if (!strcmp(key, "init_b"))
		return 2;
	if (p && !strcmp(key, "derive_a"))
		return (int)p + 3;
	if (p && !strcmp(key, "derive_b"))
		return (int)p + 4;
	unsigned k;
	char tail;
	if (sscanf(key, "pass%u%c", &k, &tail) == 1 && k >= 1 && k <= p) {
		char canon[16];
		snprintf(canon, sizeof canon, "pass%u", k);
		if (!strcmp(canon, key))
			return (int)k + 2;
	}
	return -1;
}

static const char *kex_timing_scope(int op)
{
	return op == OP_EXCHANGE ? OPS_SCOPE_LOOP : OPS_SCOPE_STEP;
}

/* The step's name in messages and results. */
static const char *step_name(const struct kex_state *x, unsigned s)
{
	return kex_flow_step_name(x->passes, s);
}

/* ---- buffers ------------------------------------------------------------------- */

/* KEX keys and states may be empty (an unauthenticated exchange has no
 * long-term keys): cap 0 gets just the slack. */
static int buf_alloc(struct kex_buf *k, const char *name, unsigned long long cap)
{
	k->name = name;
	k->cap = cap;
	k->buf = cap ? ops_buffer(name, cap, 0) : calloc(1, OPS_BUF_SLACK);
	if (!k->buf && !cap)
		ops_set_failure("cannot allocate the %s buffer", name);
	return k->buf ? 0 : -1;
}

static void kex_release(struct op_ctx *c)
{
	struct kex_state *x = kex(c);
	for (int i = 0; i < N_FIXED_BUFS; i++)
		free(x->b[i].buf);
	for (unsigned k = 1; k <= NGCC_KEX_MAX_PASSES; k++)
		free(x->m[k].buf);
	free(x);
}

static int kex_alloc(struct op_ctx *c)
{
	const struct ngcc_meta *m = c->lib.meta;
	struct kex_state *x = ops_new_state(c, sizeof *x, "key-exchange");
	if (!x)
		return -1;
	x->lib = &c->lib;
	x->passes = kex_flow_passes(m);
	char why[256];
	if (kex_flow_unusable(x->lib, why, sizeof why)) {
		ops_set_failure("%s", why);
		return -1;
	}
	const struct { int i; const char *name; unsigned long long cap; } fixed[] = {
		{ B_PKA, "pk_a", m->pk_bytes }, { B_SKA, "sk_a", m->sk_bytes },
		{ B_STA, "sta", m->sta_bytes }, { B_PKB, "pk_b", m->pk_bytes },
		{ B_SKB, "sk_b", m->sk_bytes }, { B_STB, "stb", m->stb_bytes },
		{ B_SSA, "ss_a", m->ss_bytes }, { B_SSB, "ss_b", m->ss_bytes },
	};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		if (buf_alloc(&x->b[fixed[i].i], fixed[i].name, fixed[i].cap))
			return -1;
	for (unsigned k = 1; k <= x->passes; k++)
		if (buf_alloc(&x->m[k], kex_flow_msg_name(k), m->msg_bytes))
			return -1;
	return 0;
}

/* ---- one step ------------------------------------------------------------------ */

static int call_init(ngcc_kex_init_fn fn, struct kex_buf *pk, struct kex_buf *sk,
		     struct kex_buf *st)
{
	pk->len = pk->cap;
	sk->len = sk->cap;
	st->len = st->cap;
	return fn(pk->buf, &pk->len, sk->buf, &sk->len, st->buf, &st->len);
}

/* Pass k >= 2: B answers A's m<k-1> (even k), A answers B's (odd k). */
static int call_pass(struct kex_state *x, unsigned k)
{
	struct kex_buf *out = &x->m[k];
	out->len = 0;
	if (k == 1)
		return x->lib->kex_pass1(x->b[B_SKA].buf, x->b[B_SKA].len, x->b[B_PKB].buf,
					 x->b[B_PKB].len, x->b[B_STA].buf, &x->b[B_STA].len,
					 out->buf, &out->len);
	int b_side = k % 2 == 0;
	struct kex_buf *sk = &x->b[b_side ? B_SKB : B_SKA], *pk = &x->b[b_side ? B_PKA : B_PKB];
	struct kex_buf *st = &x->b[b_side ? B_STB : B_STA], *in = &x->m[k - 1];
	return x->lib->kex_pass[k](sk->buf, sk->len, pk->buf, pk->len, in->buf, in->len,
				   st->buf, &st->len, out->buf, &out->len);
}

static int call_derive(ngcc_kex_derive_fn fn, struct kex_buf *sk, struct kex_buf *pk,
		       const struct kex_buf *peer, struct kex_buf *st, struct kex_buf *ss)
{
	ss->len = ss->cap;
	return fn(sk->buf, sk->len, pk->buf, pk->len, peer ? peer->buf : NULL,
		  peer ? peer->len : 0, st->buf, st->len, ss->buf, &ss->len);
}

/* Step s of the flow; returns the candidate's code. */
static int run_step(struct kex_state *x, unsigned s)
{
	struct kex_buf *b = x->b;
	if (s == 0)
		return call_init(x->lib->kex_init_a, &b[B_PKA], &b[B_SKA], &b[B_STA]);
	if (s == 1)
		return call_init(x->lib->kex_init_b, &b[B_PKB], &b[B_SKB], &b[B_STB]);
	if (s == x->passes + 2)
		return call_derive(x->lib->kex_derive_a, &b[B_SKA], &b[B_PKB], x->mb, &b[B_STA], &b[B_SSA]);
	if (s == x->passes + 3)
		return call_derive(x->lib->kex_derive_b, &b[B_SKB], &b[B_PKA], x->ma, &b[B_STB], &b[B_SSB]);
	return call_pass(x, s - 1);
}

/* A length above its buffer's getter value; NULL when all fit. */
static const struct kex_buf *overlong(struct kex_buf *const *bufs, int n)
{
	for (int i = 0; i < n; i++)
		if (bufs[i]->len > bufs[i]->cap)
			return bufs[i];
	return NULL;
}

static int lengths_fit(const struct kex_state *x, unsigned s, struct kex_buf *const *bufs, int n)
{
	const struct kex_buf *o = overlong(bufs, n);
	if (o) {
		ops_set_failure("%s returned %s_len %llu, above the getter's %llu",
				step_name(x, s), o->name, o->len, o->cap);
		return 0;
	}
	for (int i = 0; i < n; i++)
		ops_seen_add(&bufs[i]->seen, bufs[i]->len);
	return 1;
}

/* A pass's return, as the KAT replay judges it (kat/katgen_kex.c; the rule
 * in kex_flow.h); an accepted one makes its message the party's last. */
static int pass_return_ok(struct kex_state *x, unsigned k, int rc)
{
	char why[256];
	if (kex_flow_pass_return_problem(x->lib, k, x->passes, rc, why, sizeof why)) {
		ops_set_failure("%s", why);
		return 0;
	}
	if (k % 2)
		x->ma = &x->m[k];
	else
		x->mb = &x->m[k];
	return 1;
}

static int secrets_agree(struct kex_state *x)
{
	const struct kex_buf *a = &x->b[B_SSA], *b = &x->b[B_SSB];
	x->agreed = a->len == b->len && !memcmp(a->buf, b->buf, a->len);
	if (!x->agreed)
		ops_set_failure("the parties derived different shared secrets (ss_a %llu bytes, ss_b %llu bytes%s)",
				a->len, b->len, a->len == b->len ? ", contents differ" : "");
	return x->agreed;
}

/* The checks of step s that returned rc.  0 or -1. */
static int check_step(struct kex_state *x, unsigned s, int rc)
{
	struct kex_buf *b = x->b;
	if (rc < 0) {
		ops_set_failure("%s returned %d", step_name(x, s), rc);
		return -1;
	}
	if (s == 0) {
		struct kex_buf *bufs[] = { &b[B_PKA], &b[B_SKA], &b[B_STA] };
		x->ma = x->mb = NULL;
		return lengths_fit(x, s, bufs, 3) ? 0 : -1;
	}
	if (s == 1) {
		struct kex_buf *bufs[] = { &b[B_PKB], &b[B_SKB], &b[B_STB] };
		return lengths_fit(x, s, bufs, 3) ? 0 : -1;
	}
	if (s == x->passes + 2) {
		struct kex_buf *bufs[] = { &b[B_SSA] };
		return lengths_fit(x, s, bufs, 1) ? 0 : -1;
	}
	if (s == x->passes + 3) {
		struct kex_buf *bufs[] = { &b[B_SSB] };
		return lengths_fit(x, s, bufs, 1) && secrets_agree(x) ? 0 : -1;
	}
	unsigned k = s - 1;
	struct kex_buf *bufs[] = { &x->m[k], &b[k % 2 ? B_STA : B_STB] };
	return lengths_fit(x, s, bufs, 2) && pass_return_ok(x, k, rc) ? 0 : -1;
}

/* Steps [from, to), each checked. */
static int run_steps(struct kex_state *x, unsigned from, unsigned to)
{
	for (unsigned s = from; s < to; s++)
		if (check_step(x, s, run_step(x, s)))
			return -1;
	return 0;
}

/* ---- the interface ------------------------------------------------------------- */

static int kex_setup(struct op_ctx *c)
{
	struct kex_state *x = kex(c);
	if (run_steps(x, 0, n_steps(x))) {
		char cause[sizeof "honest exchange: " + 512];
		snprintf(cause, sizeof cause, "honest exchange: %s", ops_failure());
		ops_set_failure("%s; refusing timing", cause);
		return -1;
	}
	return 0;
}

static int kex_prepare(struct op_ctx *c)
{
	struct kex_state *x = kex(c);
	return c->op == OP_EXCHANGE ? 0 : run_steps(x, 0, (unsigned)c->op - 1);
}

static int kex_raw_call(struct op_ctx *c)
{
	struct kex_state *x = kex(c);
	if (c->op != OP_EXCHANGE)
		return run_step(x, (unsigned)c->op - 1);
	/* The whole flow; the first failing step's code (or 0). */
	for (unsigned s = 0; s < n_steps(x); s++) {
		int rc = run_step(x, s);
		if (check_step(x, s, rc))
			return rc < 0 ? rc : -100;
	}
	return 0;
}

static int kex_check_call(struct op_ctx *c, int rc)
{
	struct kex_state *x = kex(c);
	if (c->op == OP_EXCHANGE)
		return rc ? -1 : 0;
	unsigned s = (unsigned)c->op - 1;
	if (check_step(x, s, rc))
		return -1;
	return run_steps(x, s + 1, n_steps(x));
}

static long kex_run_loop(struct op_ctx *c, long iters, const struct op_bracket *step)
{
	struct kex_state *x = kex(c);
	unsigned total = n_steps(x);
	if (c->op == OP_EXCHANGE) {
		for (long i = 0; i < iters; i++)
			if (__builtin_expect(run_steps(x, 0, total) != 0, 0))
				return i;
		return iters;
	}
	unsigned s = (unsigned)c->op - 1;
	for (long i = 0; i < iters; i++) {
		if (run_steps(x, 0, s))
			return i;
		step->begin(step->arg);
		int rc = run_step(x, s);
		step->end(step->arg);
		if (check_step(x, s, rc) || run_steps(x, s + 1, total))
			return i;
	}
	return iters;
}

/* R3: the last flow ended with the secrets agreeing (every step's own
 * checks ran in the loop). */
static int kex_validate(struct op_ctx *c)
{
	if (!kex(c)->agreed) {
		ops_set_failure("the last exchange did not end with agreeing shared secrets");
		return -1;
	}
	return 0;
}

static void kex_meta_json(const struct op_ctx *c, json_t *j)
{
	const struct ngcc_meta *m = c->lib.meta;
	json_object_set_new(j, "pk_bytes", json_integer((json_int_t)m->pk_bytes));
	json_object_set_new(j, "sk_bytes", json_integer((json_int_t)m->sk_bytes));
	json_object_set_new(j, "ss_bytes", json_integer((json_int_t)m->ss_bytes));
	json_object_set_new(j, "sta_bytes", json_integer((json_int_t)m->sta_bytes));
	json_object_set_new(j, "stb_bytes", json_integer((json_int_t)m->stb_bytes));
	json_object_set_new(j, "msg_bytes", json_integer((json_int_t)m->msg_bytes));
	json_object_set_new(j, "passes", json_integer((json_int_t)m->passes));
}

/* Observed lengths: keys of both parties, states, the secret, and each
 * pass's message (m1 … m<P>). */
static json_t *kex_observed_json(const struct op_ctx *c)
{
	const struct kex_state *x = c->st;
	json_t *j = json_object();
	static const int order[] = { B_PKA, B_SKA, B_PKB, B_SKB, B_STA, B_STB };
	for (size_t i = 0; i < sizeof order / sizeof *order; i++)
		json_object_set_new(j, x->b[order[i]].name, ops_seen_json(&x->b[order[i]].seen));
	json_object_set_new(j, "ss", ops_seen_json(&x->b[B_SSA].seen));
	for (unsigned k = 1; k <= x->passes; k++)
		json_object_set_new(j, kex_flow_msg_name(k), ops_seen_json(&x->m[k].seen));
	return j;
}

const struct op_type kex_op_type = {
	.abi = NGCC_TYPE_KEX,
	.name = "kex",
	.op_usage = "exchange|init_a|init_b|pass1..pass16|derive_a|derive_b",
	.parse_op = kex_parse_op,
	.timing_scope = kex_timing_scope,
	.alloc = kex_alloc,
	.release = kex_release,
	.setup = kex_setup,
	.prepare = kex_prepare,
	.raw_call = kex_raw_call,
	.check_call = kex_check_call,
	.run_loop = kex_run_loop,
	.validate = kex_validate,
	.meta_json = kex_meta_json,
	.observed_json = kex_observed_json,
	.memory_extra = NULL,
};
