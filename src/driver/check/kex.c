/*
 * kex.c — the key-exchange suites of the check program (suite.h).
 *
 * An exchange is the official flow (driver/kex_flow.h): init_a, init_b,
 * pass1 … pass<P>, derive_a, derive_b, every call checked (call.h): its
 * return (negative is an error; a pass's return follows the flow's rule),
 * returned lengths within the getters (keys and states 0..getter, messages
 * and secrets 1..getter; messages are preset to 0, as the official driver
 * does), canaries around every buffer, the inputs (own secret key, peer's
 * public key, peer's message) unmodified.  A party's state is its own: it
 * is handed back to the party as its previous call left it, length
 * included, and never compared.
 *
 * One functional round r (the DRNG seeded with the round's seed):
 *
 *   an honest exchange          every step succeeds and ss_a = ss_b
 *   for each pass k:            the exchange again from the same seed with
 *     m<k> tampered             one byte of m<k> flipped (XOR 0xff; byte
 *                               from r) before its receiver reads it: some
 *                               later step fails, or the parties derive
 *                               different secrets — never the same secret
 *                               silently.  The receiver (pass k+1, or the
 *                               other party's derive) is the operation a
 *                               finding is counted on.
 *   rounds < 16:                the exchange again with every buffer 1..7
 *                               bytes off alignment: it works, and keys,
 *                               messages and the secret equal the aligned
 *                               run's wherever the candidate reproduces
 *                               them from the seed
 *
 * Overlapping buffers are not tried: the ICCS key-exchange API does not
 * allow them.
 *
 * The constant-time round: init_a, init_b (the library marks the DRNG
 * output secret); each party's secret key and initial state marked secret,
 * its public key declassified; every pass message declassified once sent;
 * derive_a, derive_b; then the receiver of the last message derives again
 * from its state as it was, on that message tampered, so a rejection path
 * runs too.  Return codes and lengths are declassified after every call.
 */
#include "driver/check/call.h"
#include "driver/kex_flow.h"
#include "runtime/ngcc_abi.h"

#include <stdio.h>
#include <string.h>

#define T_TAMPER "tampered message"

#define OVERLAP_NOTE "not applicable: the ICCS key-exchange API does not allow overlapping input and output buffers"

enum { PKA, SKA, STA, PKB, SKB, STB, SSA, SSB, ST_SAVE, NFIXED };

/* One exchange's buffers: the keys, states and secrets of both parties,
 * ST_SAVE (a state kept for a second derive) and the messages m[1..P]. */
struct kex_set {
	struct gbuf b[NFIXED];
	struct gbuf m[NGCC_KEX_MAX_PASSES + 1];
	/* The last message of A (odd passes) and of B (even passes). */
	struct gbuf *ma, *mb;
	unsigned tampered;         /* the pass whose message was tampered with, or 0 */
	char tampered_what[64];
};

struct kex_check {
	struct check_run *r;
	const struct candidate_lib *lib;
	const struct ngcc_meta *m;
	unsigned passes;
	struct kex_set a;          /* aligned, the honest exchange of the round */
	struct kex_set t;          /* aligned, the tampered exchanges */
	long round;
};

static int set_alloc(struct kex_set *x, const struct ngcc_meta *m, unsigned passes, size_t off)
{
	static const char *const names[NFIXED] = { "pk_a", "sk_a", "sta", "pk_b", "sk_b", "stb",
						   "ss_a", "ss_b", "st" };
	const unsigned long long caps[NFIXED] = { m->pk_bytes, m->sk_bytes, m->sta_bytes,
		m->pk_bytes, m->sk_bytes, m->stb_bytes, m->ss_bytes, m->ss_bytes,
		m->sta_bytes > m->stb_bytes ? m->sta_bytes : m->stb_bytes };
	memset(x, 0, sizeof *x);
	for (int i = 0; i < NFIXED; i++)
		if (gbuf_alloc(&x->b[i], names[i], caps[i], off))
			return -1;
	for (unsigned k = 1; k <= passes; k++)
		if (gbuf_alloc(&x->m[k], kex_flow_msg_name(k), m->msg_bytes, off))
			return -1;
	return 0;
}

static void set_free(struct kex_set *x)
{
	for (int i = 0; i < NFIXED; i++)
		gbuf_free(&x->b[i]);
	for (unsigned k = 1; k <= NGCC_KEX_MAX_PASSES; k++)
		gbuf_free(&x->m[k]);
}

/* ---- the calls ------------------------------------------------------------ */

static const char *step_name(const struct kex_check *k, unsigned s)
{
	return kex_flow_step_name(k->passes, s);
}

/* A message as the call text names it. */
static const char *msg_what(const struct kex_set *x, const struct gbuf *msg)
{
	return x->tampered && msg == &x->m[x->tampered] ? x->tampered_what : msg->name;
}

static int do_init(struct kex_check *k, struct kex_set *x, int b_side, const char *test,
		   struct call *c)
{
	struct gbuf *pk = &x->b[b_side ? PKB : PKA], *sk = &x->b[b_side ? SKB : SKA];
	struct gbuf *st = &x->b[b_side ? STB : STA];
	call_begin(c, k->round, test, b_side ? "init_b" : "init_a");
	c->nonneg_ok = 1;
	call_output_as(c, pk, pk->cap, 0);
	call_output_as(c, sk, sk->cap, 0);
	call_output_as(c, st, st->cap, 0);
	snprintf(c->w.call, sizeof c->w.call, "kex_init_%c(%s, &%s_len, %s, &%s_len, %s, &%s_len)",
		 b_side ? 'b' : 'a', pk->name, pk->name, sk->name, sk->name, st->name, st->name);
	call_enter(k->r, c);
	ngcc_kex_init_fn fn = b_side ? k->lib->kex_init_b : k->lib->kex_init_a;
	int rc = fn(pk->data, &pk->len, sk->data, &sk->len, st->data, &st->len);
	return call_end(k->r, c, rc);
}

/* Pass n: A for odd n, B for even n; pass 1 has no message in. */
static int do_pass(struct kex_check *k, struct kex_set *x, unsigned n, const char *test,
		   struct call *c)
{
	int b_side = n % 2 == 0;
	struct gbuf *sk = &x->b[b_side ? SKB : SKA], *pk = &x->b[b_side ? PKA : PKB];
	struct gbuf *st = &x->b[b_side ? STB : STA], *out = &x->m[n];
	struct gbuf *in = n > 1 ? &x->m[n - 1] : NULL;
	call_begin(c, k->round, test, kex_flow_step_name(k->passes, n + 1));
	c->nonneg_ok = 1;
	call_input(c, sk);
	call_input(c, pk);
	if (in)
		call_input(c, in);
	call_inout(c, st, 1);
	call_output_as(c, out, 0, 1);
	char msg[96] = "";
	if (in)
		snprintf(msg, sizeof msg, "%s, %llu, ", msg_what(x, in), in->len);
	snprintf(c->w.call, sizeof c->w.call, "kex_pass%u(%s, %llu, %s, %llu, %s%s, &%s_len, %s, &%s_len)",
		 n, sk->name, sk->len, pk->name, pk->len, msg, st->name, st->name, out->name, out->name);
	call_enter(k->r, c);
	int rc = n == 1 ? k->lib->kex_pass1(sk->data, sk->len, pk->data, pk->len, st->data, &st->len,
					    out->data, &out->len)
			: k->lib->kex_pass[n](sk->data, sk->len, pk->data, pk->len, in->data, in->len,
					      st->data, &st->len, out->data, &out->len);
	return call_end(k->r, c, rc);
}

/* derive_a (from B's last message) or derive_b (from A's) into ss. */
static int do_derive(struct kex_check *k, struct kex_set *x, int b_side, struct gbuf *ss,
		     const char *test, struct call *c)
{
	struct gbuf *sk = &x->b[b_side ? SKB : SKA], *pk = &x->b[b_side ? PKA : PKB];
	struct gbuf *st = &x->b[b_side ? STB : STA];
	struct gbuf *peer = b_side ? x->ma : x->mb;
	call_begin(c, k->round, test, b_side ? "derive_b" : "derive_a");
	c->nonneg_ok = 1;
	call_input(c, sk);
	call_input(c, pk);
	if (peer)
		call_input(c, peer);
	call_inout(c, st, 0);
	call_output(c, ss);
	snprintf(c->w.call, sizeof c->w.call, "kex_derive_ss_%c(%s, %llu, %s, %llu, %s, %llu, %s, %llu, %s, &%s_len)",
		 b_side ? 'b' : 'a', sk->name, sk->len, pk->name, pk->len,
		 peer ? msg_what(x, peer) : "NULL", peer ? peer->len : 0,
		 st->name, st->len, ss->name, ss->name);
	call_enter(k->r, c);
	ngcc_kex_derive_fn fn = b_side ? k->lib->kex_derive_b : k->lib->kex_derive_a;
	int rc = fn(sk->data, sk->len, pk->data, pk->len, peer ? peer->data : NULL,
		    peer ? peer->len : 0, st->data, st->len, ss->data, &ss->len);
	return call_end(k->r, c, rc);
}

/* Step s of the flow on x (derives into ss_a and ss_b). */
static int do_step(struct kex_check *k, struct kex_set *x, unsigned s, const char *test,
		   struct call *c)
{
	if (s == 0)
		x->ma = x->mb = NULL;
	if (s < 2)
		return do_init(k, x, (int)s, test, c);
	if (s == k->passes + 2)
		return do_derive(k, x, 0, &x->b[SSA], test, c);
	if (s == k->passes + 3)
		return do_derive(k, x, 1, &x->b[SSB], test, c);
	return do_pass(k, x, s - 1, test, c);
}

/* Why step s, which returned rc, is not what the flow accepts (NULL: it
 * is); an accepted pass makes its message its party's last. */
static const char *step_problem(struct kex_check *k, struct kex_set *x, unsigned s, int rc,
				char *buf, size_t cap)
{
	if (rc < 0) {
		snprintf(buf, cap, "kex_%s returned %d", step_name(k, s), rc);
		return buf;
	}
	unsigned n = kex_flow_pass_of(k->passes, s);
	if (!n)
		return NULL;
	const char *why = kex_flow_pass_return_problem(k->lib, n, k->passes, rc, buf, cap);
	if (!why) {
		if (n % 2)
			x->ma = &x->m[n];
		else
			x->mb = &x->m[n];
	}
	return why;
}

/* Steps [from, to) on x; the first step that failed (its call in c and
 * why in buf), or to. */
static unsigned run_steps(struct kex_check *k, struct kex_set *x, unsigned from, unsigned to,
			  const char *test, struct call *c, char *buf, size_t cap)
{
	for (unsigned s = from; s < to; s++)
		if (step_problem(k, x, s, do_step(k, x, s, test, c), buf, cap))
			return s;
	return to;
}

/* ss_a = ss_b (the harness compares declassified copies in the
 * constant-time suite). */
static int secrets_agree(const struct kex_set *x)
{
	return same_bytes(&x->b[SSA], &x->b[SSB]);
}

/* ---- functional round ---------------------------------------------------- */

/* An honest exchange on x; 1 when every step worked and the secrets agree. */
static int exchange(struct kex_check *k, struct kex_set *x, const char *test)
{
	unsigned steps = kex_flow_steps(k->passes);
	struct call c;
	char why[256];
	for (unsigned s = 0; s < steps; s++) {
		int rc = do_step(k, x, s, test, &c);
		if (step_problem(k, x, s, rc, why, sizeof why)) {
			char key[32];
			snprintf(key, sizeof key, "rc %d", rc);
			tally_fail(&k->r->tally, test, c.w.op, key, k->round, c.w.call,
				   "%s on honest input", why);
			return 0;
		}
		if (s + 1 < steps)   /* derive_b: judged by the agreement */
			tally_pass(&k->r->tally, test, c.w.op);
	}
	const struct gbuf *a = &x->b[SSA], *b = &x->b[SSB];
	if (secrets_agree(x)) {
		tally_pass(&k->r->tally, test, "derive_b");
		return 1;
	}
	if (a->len == b->len)
		tally_fail(&k->r->tally, test, "derive_b", "ss differs", k->round, c.w.call,
			   "the parties derived different shared secrets");
	else
		tally_fail(&k->r->tally, test, "derive_b", "ss length", k->round, c.w.call,
			   "the parties derived shared secrets of different lengths (ss_a %llu, "
			   "ss_b %llu bytes)", a->len, b->len);
	return 0;
}

/* Flip one byte of m<n> (XOR 0xff; the byte from the round), as the call
 * texts then name it. */
static void tamper_message(const struct kex_check *k, struct kex_set *x, unsigned n)
{
	struct gbuf *msg = &x->m[n];
	unsigned long long byte;
	int bit;
	flip_position(k->round, msg->len, &byte, &bit);
	msg->data[byte] ^= 0xff;
	x->tampered = n;
	snprintf(x->tampered_what, sizeof x->tampered_what, "%s with byte %llu flipped",
		 msg->name, byte);
}

/* The step that reads pass n's message: pass n + 1, or the other party's
 * derive after the last pass. */
static unsigned receiver_of(const struct kex_check *k, unsigned n)
{
	if (n < k->passes)
		return n + 2;   /* the step of pass n + 1 */
	return n % 2 ? k->passes + 3 : k->passes + 2;
}

/* The exchange from the round's seed with one byte of m<n> flipped before
 * its receiver reads it: a later step must fail or the secrets differ. */
static void check_tamper(struct kex_check *k, unsigned n)
{
	struct kex_set *x = &k->t;
	unsigned steps = kex_flow_steps(k->passes), recv = receiver_of(k, n);
	struct call c;
	char why[256];
	x->tampered = 0;
	check_seed_round(k->r, k->round, NULL);
	/* Up to pass n: honest, as in the round's own exchange. */
	if (run_steps(k, x, 0, n + 2, T_TAMPER, &c, why, sizeof why) < n + 2)
		return;
	const struct gbuf *msg = &x->m[n];
	tamper_message(k, x, n);
	const char *op = step_name(k, recv);
	if (run_steps(k, x, n + 2, steps, T_TAMPER, &c, why, sizeof why) < steps ||
	    !secrets_agree(x)) {
		tally_pass(&k->r->tally, T_TAMPER, op);
		return;
	}
	char call[256];
	snprintf(call, sizeof call, "exchange with %s (%s read by %s)", x->tampered_what,
		 msg->name, op);
	tally_fail(&k->r->tally, T_TAMPER, op, "accepted", k->round, call,
		   "the parties agreed on a shared secret although %s was tampered with (%s)",
		   msg->name, x->tampered_what);
}

/* An exchange from the round's seed on aligned buffers into p: which
 * outputs of the first (k->a) the candidate reproduces from one seed. */
static void reproducible(struct kex_check *k, const struct out_pair *cmp, int n, int *same)
{
	struct kex_set p;
	struct call c;
	char why[256];
	memset(same, 0, (size_t)n * sizeof *same);
	if (!set_alloc(&p, k->m, k->passes, 0)) {
		check_seed_round(k->r, k->round, NULL);
		unsigned steps = kex_flow_steps(k->passes);
		if (run_steps(k, &p, 0, steps, T_UNALIGNED, &c, why, sizeof why) == steps)
			for (int i = 0; i < n; i++) {
				/* the aligned set's buffer at the same place in p */
				const struct gbuf *y = cmp[i].y;
				const struct gbuf *q = y >= k->a.b && y < k->a.b + NFIXED
					? &p.b[y - k->a.b] : &p.m[y - k->a.m];
				same[i] = same_bytes(q, y);
			}
	}
	set_free(&p);
}

/* Same seed, buffers off alignment: the exchange works and keys, messages
 * and the secret equal the aligned run's wherever reproducible. */
static void check_unaligned(struct kex_check *k)
{
	struct kex_set u;
	size_t off = 1 + (size_t)(k->round % 7);
	if (set_alloc(&u, k->m, k->passes, off)) {
		set_free(&u);
		return;
	}
	check_seed_round(k->r, k->round, NULL);
	if (exchange(k, &u, T_UNALIGNED)) {
		struct out_pair cmp[5 + NGCC_KEX_MAX_PASSES];
		int n = 0;
		static const int keys[] = { PKA, SKA, PKB, SKB };
		for (int i = 0; i < 4; i++)
			cmp[n++] = (struct out_pair){ i < 2 ? "init_a" : "init_b", &u.b[keys[i]],
						      &k->a.b[keys[i]] };
		for (unsigned p = 1; p <= k->passes; p++)
			cmp[n++] = (struct out_pair){ kex_flow_step_name(k->passes, p + 1), &u.m[p],
						      &k->a.m[p] };
		cmp[n++] = (struct out_pair){ "derive_a", &u.b[SSA], &k->a.b[SSA] };
		int same[5 + NGCC_KEX_MAX_PASSES];
		for (int i = 0; i < n; i++)
			same[i] = 1;
		if (outputs_differ(cmp, n))
			reproducible(k, cmp, n, same);
		unaligned_verdicts(k->r, k->round, "kex", off, cmp, same, n);
	}
	set_free(&u);
}

static void functional_round(void *arg, long round)
{
	struct kex_check *k = arg;
	k->round = round;
	check_seed_round(k->r, k->round, NULL);
	k->a.tampered = 0;
	if (!exchange(k, &k->a, T_ROUNDTRIP))
		return;
	for (unsigned n = 1; n <= k->passes; n++)
		check_tamper(k, n);
	if (k->round < UNALIGNED_ROUNDS)
		check_unaligned(k);
}

/* ---- constant-time round -------------------------------------------------- */

/* After init: the party's keys and state as the constant-time run sees them. */
static void ct_after_init(struct kex_set *x, int b_side)
{
	const struct gbuf *pk = &x->b[b_side ? PKB : PKA], *sk = &x->b[b_side ? SKB : SKA];
	const struct gbuf *st = &x->b[b_side ? STB : STA];
	watch_public(pk->data, (size_t)pk->len);
	watch_secret(sk->data, (size_t)sk->cap);
	watch_secret(st->data, (size_t)st->cap);
}

/* One honest step of the constant-time round, tallied; -1 ends the round. */
static int ct_step(struct kex_check *k, struct kex_set *x, unsigned s, struct call *c)
{
	char why[256];
	int rc = do_step(k, x, s, T_CONSTTIME, c);
	if (step_problem(k, x, s, rc, why, sizeof why)) {
		tally_fail(&k->r->tally, T_CONSTTIME, c->w.op, "rc", k->round, c->w.call,
			   "%s on honest input", why);
		return -1;
	}
	tally_pass(&k->r->tally, T_CONSTTIME, c->w.op);
	return 0;
}

static void ct_round(void *arg, long round)
{
	struct kex_check *k = arg;
	k->round = round;
	struct kex_set *x = &k->a;
	unsigned P = k->passes, last_recv = receiver_of(k, P);
	int recv_b = last_recv == P + 3;
	struct gbuf *st = &x->b[recv_b ? STB : STA], *save = &x->b[ST_SAVE];
	struct call c;
	x->tampered = 0;
	check_seed_round(k->r, k->round, NULL);
	for (unsigned s = 0; s < P + 2; s++) {
		if (ct_step(k, x, s, &c))
			return;
		if (s < 2)
			ct_after_init(x, (int)s);
		else
			watch_public(x->m[s - 1].data, (size_t)x->m[s - 1].len);
	}
	/* The last message's receiver's state, kept for the tampered derive. */
	memcpy(save->data, st->data, (size_t)st->cap);
	unsigned long long st_len = st->len;
	for (unsigned s = P + 2; s < P + 4; s++)
		if (ct_step(k, x, s, &c))
			return;
	/* The harness's own comparison, on declassified copies. */
	watch_public(x->b[SSA].data, (size_t)x->b[SSA].len);
	watch_public(x->b[SSB].data, (size_t)x->b[SSB].len);
	if (secrets_agree(x))
		tally_pass(&k->r->tally, T_ROUNDTRIP, "derive_b");
	else
		tally_fail(&k->r->tally, T_ROUNDTRIP, "derive_b", "ss differs", k->round,
			   "kex_derive_ss_b after an honest exchange",
			   "the parties derived different shared secrets");
	/* The receiver derives again from its state as it was, on the last
	 * message with one byte flipped. */
	tamper_message(k, x, P);
	memcpy(st->data, save->data, (size_t)st->cap);
	st->len = st_len;
	do_derive(k, x, recv_b, &x->b[recv_b ? SSB : SSA], T_CONSTTIME, &c);
	tally_pass(&k->r->tally, T_CONSTTIME, c.w.op);
}

/* ---- the suite -------------------------------------------------------------- */

static int kex_run(struct check_run *r)
{
	struct kex_check k = { .r = r, .lib = r->lib, .m = r->lib->meta };
	k.passes = kex_flow_passes(k.m);
	char why[256];
	if (kex_flow_unusable(r->lib, why, sizeof why)) {
		fprintf(stderr, "ngcc-perf-check: %s\n", why);
		return -1;
	}
	if (set_alloc(&k.a, k.m, k.passes, 0) || set_alloc(&k.t, k.m, k.passes, 0)) {
		fprintf(stderr, "ngcc-perf-check: cannot map buffers for pk %llu, sk %llu, states "
			"%llu and %llu, messages %llu, ss %llu bytes\n", k.m->pk_bytes, k.m->sk_bytes,
			k.m->sta_bytes, k.m->stb_bytes, k.m->msg_bytes, k.m->ss_bytes);
		set_free(&k.a);
		set_free(&k.t);
		return -1;
	}
	if (r->suite != SUITE_CONSTTIME)
		for (unsigned s = 2; s < k.passes + 4; s++)
			tally_not_applicable(&r->tally, T_OVERLAP, step_name(&k, s), OVERLAP_NOTE);
	check_each_round(r, functional_round, ct_round, &k);
	set_free(&k.a);
	set_free(&k.t);
	return 0;
}

const struct check_type check_type_kex = { NGCC_TYPE_KEX, "kex", kex_run };
