/*
 * sig.c — the signature suites of the check program (suite.h).
 *
 * One functional round r (the DRNG seeded with the round's seed), on a
 * message of 1..SIG_MSG_MAX bytes whose length and bytes depend on r:
 *
 *   keygen → pk, sk            rc 0, lengths 1..getter, canaries
 *   sign(sk, m) → sn           rc 0 (an error return is retried, up to
 *                              SIG_SIGN_TRIES calls, as the timing does),
 *                              sn_len 1..getter, canaries, sk and m
 *                              unmodified
 *   verify(pk, sn, m)          0 (accepted), pk, sn and m unmodified
 *   verify again               the same answer
 *   verify(pk, sn', m)         sn' = sn with one bit flipped (byte and bit
 *                              from r): rejected (non-zero)
 *   verify(pk, sn, m')         m' = m with one bit flipped: rejected
 *   rounds < 16: keygen and sign again from the same seed on buffers whose
 *                              data start 1..7 bytes off alignment: they
 *                              verify, and give the same bytes as the
 *                              aligned run wherever the candidate is
 *                              deterministic given the DRNG seed
 *
 * Overlapping buffers are not tried: the ICCS signature API does not
 * allow them.
 *
 * The constant-time round: keygen (the library marks the DRNG output
 * secret), declassify pk; mark sk secret; sign, declassify sn; verify.
 */
#include "driver/check/call.h"
#include "runtime/ngcc_abi.h"

#include <stdio.h>
#include <string.h>

#define SIG_MSG_MAX 128
/* sign may refuse now and then (rejection sampling that gives up): up to
 * 64 calls per signature here (the timing allows 1 + SIG_SIGN_RETRIES). */
#define SIG_SIGN_TRIES 64

#define T_DETERMINISM "deterministic verification"
#define T_TAMPER_SIG "tampered signature"
#define T_TAMPER_MSG "tampered message"

#define OVERLAP_NOTE "not applicable: the ICCS signature API does not allow overlapping input and output buffers"

/* One set of buffers; snt and mt take the tampered signature and message. */
struct sig_set {
	struct gbuf pk, sk, sn, m, snt, mt;
};

struct sig_check {
	struct check_run *r;
	const struct candidate_lib *lib;
	const struct ngcc_meta *m;
	struct sig_set a;          /* aligned, reused every round */
	long round;
};

static int set_alloc(struct sig_set *s, const struct ngcc_meta *m, size_t off)
{
	memset(s, 0, sizeof *s);
	return gbuf_alloc(&s->pk, "pk", m->pk_bytes, off) ||
	       gbuf_alloc(&s->sk, "sk", m->sk_bytes, off) ||
	       gbuf_alloc(&s->sn, "sn", m->sig_bytes, off) ||
	       gbuf_alloc(&s->m, "m", SIG_MSG_MAX, off) ||
	       gbuf_alloc(&s->snt, "sn", m->sig_bytes, off) ||
	       gbuf_alloc(&s->mt, "m", SIG_MSG_MAX, off) ? -1 : 0;
}

static void set_free(struct sig_set *s)
{
	struct gbuf *all[] = { &s->pk, &s->sk, &s->sn, &s->m, &s->snt, &s->mt };
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		gbuf_free(all[i]);
}

/* The round's message: 1..SIG_MSG_MAX bytes, from a small LCG seeded by
 * the round (not the DRNG, whose stream belongs to the candidate). */
static void round_message(long round, struct gbuf *m)
{
	unsigned long long x = (unsigned long long)round * 6364136223846793005ull + 1442695040888963407ull;
	gbuf_clear(m);
	m->len = 1 + (unsigned long long)round * 37 % SIG_MSG_MAX;
	for (unsigned long long i = 0; i < m->len; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		m->data[i] = (unsigned char)(x >> 56);
	}
}

/* ---- the calls ------------------------------------------------------------ */

static int do_keygen(struct sig_check *k, struct sig_set *s, const char *test, struct call *c)
{
	call_begin(c, k->round, test, "keygen");
	call_output(c, &s->pk);
	call_output(c, &s->sk);
	snprintf(c->w.call, sizeof c->w.call, "sig_keygen(pk, &pk_len, sk, &sk_len)");
	call_enter(k->r, c);
	int rc = k->lib->sig_keygen(s->pk.data, &s->pk.len, s->sk.data, &s->sk.len);
	return call_end(k->r, c, rc);
}

/* sign(sk, m), retried while it returns an error, SIG_SIGN_TRIES calls at
 * the most; the last call's return code. */
static int do_sign(struct sig_check *k, struct sig_set *s, const char *test, struct call *c)
{
	int rc = -1;
	for (int t = 0; t < SIG_SIGN_TRIES && rc; t++) {
		call_begin(c, k->round, test, "sign");
		call_input(c, &s->sk);
		call_input(c, &s->m);
		call_output(c, &s->sn);
		snprintf(c->w.call, sizeof c->w.call, "sig_sign(sk, %llu, m, %llu, sn, &sn_len)%s",
			 s->sk.len, s->m.len, t ? " (a retry)" : "");
		call_enter(k->r, c);
		rc = k->lib->sig_sign(s->sk.data, s->sk.len, s->m.data, s->m.len, s->sn.data,
				      &s->sn.len);
		rc = call_end(k->r, c, rc);
	}
	return rc;
}

/* verify(pk, sn, m); what names sn and m in the call text. */
static int do_verify(struct sig_check *k, struct sig_set *s, struct gbuf *sn, struct gbuf *m,
		     const char *test, const char *what, struct call *c)
{
	call_begin(c, k->round, test, "verify");
	call_input(c, &s->pk);
	call_input(c, sn);
	call_input(c, m);
	snprintf(c->w.call, sizeof c->w.call, "sig_verify(pk, %llu, %s, %llu, m, %llu)",
		 s->pk.len, what, sn->len, m->len);
	call_enter(k->r, c);
	int rc = k->lib->sig_verify(s->pk.data, s->pk.len, sn->data, sn->len, m->data, m->len);
	return call_end(k->r, c, rc);
}

static int op_ok(struct sig_check *k, const struct call *c, const char *test)
{
	return call_ok(k->r, c, test, "sig");
}

/* ---- functional round ---------------------------------------------------- */

/* keygen, sign, verify on s; 1 when all three worked. */
static int round_trip(struct sig_check *k, struct sig_set *s, const char *test)
{
	struct call c;
	do_keygen(k, s, test, &c);
	if (!op_ok(k, &c, test))
		return 0;
	do_sign(k, s, test, &c);
	if (!op_ok(k, &c, test))
		return 0;
	if (!do_verify(k, s, &s->sn, &s->m, test, "sn", &c)) {
		tally_pass(&k->r->tally, test, "verify");
		return 1;
	}
	char key[32];
	snprintf(key, sizeof key, "rc %d", c.rc);
	tally_fail(&k->r->tally, test, "verify", key, k->round, c.w.call,
		   "sig_verify rejected (return %d) the signature sig_sign just made", c.rc);
	return 0;
}

/* Verify the honest triple again: accepted again. */
static void check_repeat(struct sig_check *k, struct sig_set *s)
{
	struct call c;
	int rc = do_verify(k, s, &s->sn, &s->m, T_DETERMINISM, "sn", &c);
	if (!rc) {
		tally_pass(&k->r->tally, T_DETERMINISM, "verify");
		return;
	}
	tally_fail(&k->r->tally, T_DETERMINISM, "verify", "second", k->round, c.w.call,
		   "a second verification of the same signature gave return %d, the first 0", rc);
}

/* to = from with one bit flipped; its description in what. */
static void flipped_copy(long round, const struct gbuf *from, struct gbuf *to, char *what,
			 size_t cap)
{
	unsigned long long byte;
	int bit;
	flip_position(round, from->len, &byte, &bit);
	gbuf_clear(to);
	memcpy(to->data, from->data, (size_t)from->len);
	to->len = from->len;
	to->data[byte] ^= (unsigned char)(1u << bit);
	snprintf(what, cap, "%s with byte %llu bit %d flipped", from->name, byte, bit);
}

static void check_tamper(struct sig_check *k, struct sig_set *s)
{
	char what[96];
	struct call c;
	flipped_copy(k->round, &s->sn, &s->snt, what, sizeof what);
	if (do_verify(k, s, &s->snt, &s->m, T_TAMPER_SIG, what, &c))
		tally_pass(&k->r->tally, T_TAMPER_SIG, "verify");
	else
		tally_fail(&k->r->tally, T_TAMPER_SIG, "verify", "accepted", k->round, c.w.call,
			   "accepted a signature with one bit flipped (%s)", what);
	flipped_copy(k->round, &s->m, &s->mt, what, sizeof what);
	if (do_verify(k, s, &s->sn, &s->mt, T_TAMPER_MSG, "sn", &c))
		tally_pass(&k->r->tally, T_TAMPER_MSG, "verify");
	else
		tally_fail(&k->r->tally, T_TAMPER_MSG, "verify", "accepted", k->round, c.w.call,
			   "accepted the signature for another message (%s)", what);
}

/* keygen and sign once more, aligned, from the round's seed, into p:
 * which of pk, sk, sn the candidate reproduces from one seed. */
static void reproducible(struct sig_check *k, int same[3])
{
	struct sig_set p;
	struct call c;
	memset(same, 0, 3 * sizeof *same);
	if (!set_alloc(&p, k->m, 0)) {
		check_seed_round(k->r, k->round, NULL);
		round_message(k->round, &p.m);
		if (!do_keygen(k, &p, T_UNALIGNED, &c)) {
			same[0] = same_bytes(&p.pk, &k->a.pk);
			same[1] = same_bytes(&p.sk, &k->a.sk);
			if (!do_sign(k, &p, T_UNALIGNED, &c))
				same[2] = same_bytes(&p.sn, &k->a.sn);
		}
	}
	set_free(&p);
}

/* Same seed, buffers off alignment: the round trip works and the outputs
 * equal the aligned run's wherever the candidate is deterministic. */
static void check_unaligned(struct sig_check *k)
{
	struct sig_set u;
	size_t off = 1 + (size_t)(k->round % 7);
	if (set_alloc(&u, k->m, off)) {
		set_free(&u);
		return;
	}
	check_seed_round(k->r, k->round, NULL);
	round_message(k->round, &u.m);
	if (round_trip(k, &u, T_UNALIGNED)) {
		const struct out_pair cmp[3] = {
			{ "keygen", &u.pk, &k->a.pk }, { "keygen", &u.sk, &k->a.sk },
			{ "sign", &u.sn, &k->a.sn },
		};
		int same[3] = { 1, 1, 1 };
		if (outputs_differ(cmp, 3))
			reproducible(k, same);
		unaligned_verdicts(k->r, k->round, "sig", off, cmp, same, 3);
	}
	set_free(&u);
}

static void functional_round(void *arg, long round)
{
	struct sig_check *k = arg;
	k->round = round;
	check_seed_round(k->r, k->round, NULL);
	round_message(k->round, &k->a.m);
	if (!round_trip(k, &k->a, T_ROUNDTRIP))
		return;
	check_repeat(k, &k->a);
	check_tamper(k, &k->a);
	if (k->round < UNALIGNED_ROUNDS)
		check_unaligned(k);
}

/* ---- constant-time round -------------------------------------------------- */

static void ct_round(void *arg, long round)
{
	struct sig_check *k = arg;
	k->round = round;
	struct sig_set *s = &k->a;
	struct call c;
	check_seed_round(k->r, k->round, NULL);
	round_message(k->round, &s->m);
	do_keygen(k, s, T_CONSTTIME, &c);
	if (!op_ok(k, &c, T_CONSTTIME))
		return;
	watch_public(s->pk.data, (size_t)s->pk.len);
	watch_secret(s->sk.data, (size_t)s->sk.len);
	do_sign(k, s, T_CONSTTIME, &c);
	if (!op_ok(k, &c, T_CONSTTIME))
		return;
	watch_public(s->sn.data, (size_t)s->sn.len);
	int rc = do_verify(k, s, &s->sn, &s->m, T_CONSTTIME, "sn", &c);
	tally_pass(&k->r->tally, T_CONSTTIME, "verify");
	if (!rc)
		tally_pass(&k->r->tally, T_ROUNDTRIP, "verify");
	else
		tally_fail(&k->r->tally, T_ROUNDTRIP, "verify", "rejected", k->round, c.w.call,
			   "sig_verify rejected (return %d) the signature sig_sign just made", rc);
}

/* ---- the suite -------------------------------------------------------------- */

static int sig_run(struct check_run *r)
{
	struct sig_check k = { .r = r, .lib = r->lib, .m = r->lib->meta };
	if (set_alloc(&k.a, k.m, 0)) {
		fprintf(stderr, "ngcc-perf-check: cannot map buffers for pk %llu, sk %llu, "
			"signature %llu bytes\n", k.m->pk_bytes, k.m->sk_bytes, k.m->sig_bytes);
		set_free(&k.a);
		return -1;
	}
	if (r->suite != SUITE_CONSTTIME) {
		tally_not_applicable(&r->tally, T_OVERLAP, "sign", OVERLAP_NOTE);
		tally_not_applicable(&r->tally, T_OVERLAP, "verify", OVERLAP_NOTE);
	}
	check_each_round(r, functional_round, ct_round, &k);
	set_free(&k.a);
	return 0;
}

const struct check_type check_type_sig = { NGCC_TYPE_SIG, "sign", sig_run };
