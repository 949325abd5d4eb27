/*
 * kem.c — the KEM suites of the check program (suite.h).
 *
 * One functional round r (the DRNG seeded with the round's seed):
 *
 *   keygen → pk, sk          rc 0, lengths 1..getter, canaries
 *   enc(pk) → ss, ct         rc 0, lengths, canaries, pk unmodified
 *   dec(sk, ct) → ss2        rc 0, ss2 = ss (same length), canaries,
 *                            sk and ct unmodified
 *   dec(sk, ct) again        the same return code and secret
 *   dec(sk, ct') where ct' has one bit flipped (byte and bit chosen from
 *                            r): a non-zero return (explicit rejection) or
 *                            another secret (implicit rejection); then
 *                            again, giving the same result
 *   rounds < 16: keygen, enc, dec again from the same seed on buffers whose
 *                            data start 1..7 bytes off alignment: a working
 *                            round trip, and the same bytes as the aligned
 *                            run wherever the candidate is deterministic
 *                            given the DRNG seed
 *
 * Overlapping input and output buffers are not tried: the ICCS KEM API
 * does not allow them (the record says so).
 *
 * The constant-time round: keygen (the library marks the DRNG output
 * secret), declassify pk; mark sk secret; enc, declassify ct; dec, and dec
 * of a tampered ct.  Return codes and lengths are declassified after every
 * call, so only the candidate's own use of secrets is reported.
 */
#include "driver/check/call.h"
#include "runtime/ngcc_abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T_DETERMINISM "deterministic decapsulation"
#define T_TAMPER "tampered ciphertext"

#define OVERLAP_NOTE "not applicable: the ICCS KEM API does not allow overlapping input and output buffers"

/* One set of buffers: ss2 and ss3 take decapsulation outputs, ctt the
 * tampered ciphertext. */
struct kem_set {
	struct gbuf pk, sk, ct, ss, ss2, ss3, ctt;
};

struct kem_check {
	struct check_run *r;
	const struct candidate_lib *lib;
	const struct ngcc_meta *m;
	struct kem_set a;          /* aligned, reused every round */
	long round;
};

static int set_alloc(struct kem_set *s, const struct ngcc_meta *m, size_t off)
{
	memset(s, 0, sizeof *s);
	return gbuf_alloc(&s->pk, "pk", m->pk_bytes, off) ||
	       gbuf_alloc(&s->sk, "sk", m->sk_bytes, off) ||
	       gbuf_alloc(&s->ct, "ct", m->ct_bytes, off) ||
	       gbuf_alloc(&s->ss, "ss", m->ss_bytes, off) ||
	       gbuf_alloc(&s->ss2, "ss", m->ss_bytes, off) ||
	       gbuf_alloc(&s->ss3, "ss", m->ss_bytes, off) ||
	       gbuf_alloc(&s->ctt, "ct", m->ct_bytes, off) ? -1 : 0;
}

static void set_free(struct kem_set *s)
{
	struct gbuf *all[] = { &s->pk, &s->sk, &s->ct, &s->ss, &s->ss2, &s->ss3, &s->ctt };
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		gbuf_free(all[i]);
}

/* ---- the calls ------------------------------------------------------------ */

static int do_keygen(struct kem_check *k, struct kem_set *s, const char *test, struct call *c)
{
	call_begin(c, k->round, test, "keygen");
	call_output(c, &s->pk);
	call_output(c, &s->sk);
	snprintf(c->w.call, sizeof c->w.call, "kem_keygen(pk, &pk_len, sk, &sk_len)");
	call_enter(k->r, c);
	int rc = k->lib->kem_keygen(s->pk.data, &s->pk.len, s->sk.data, &s->sk.len);
	return call_end(k->r, c, rc);
}

static int do_enc(struct kem_check *k, struct kem_set *s, const char *test, struct call *c)
{
	call_begin(c, k->round, test, "enc");
	call_input(c, &s->pk);
	call_output(c, &s->ss);
	call_output(c, &s->ct);
	snprintf(c->w.call, sizeof c->w.call, "kem_enc(pk, %llu, ss, &ss_len, ct, &ct_len)",
		 s->pk.len);
	call_enter(k->r, c);
	int rc = k->lib->kem_enc(s->pk.data, s->pk.len, s->ss.data, &s->ss.len,
				 s->ct.data, &s->ct.len);
	return call_end(k->r, c, rc);
}

/* dec(sk, ct) into out; what names ct in the call text. */
static int do_dec(struct kem_check *k, struct kem_set *s, struct gbuf *ct, struct gbuf *out,
		  const char *test, const char *what, struct call *c)
{
	call_begin(c, k->round, test, "dec");
	call_input(c, &s->sk);
	call_input(c, ct);
	call_output(c, out);
	snprintf(c->w.call, sizeof c->w.call, "kem_dec(sk, %llu, %s, %llu, ss, &ss_len)",
		 s->sk.len, what, ct->len);
	call_enter(k->r, c);
	int rc = k->lib->kem_dec(s->sk.data, s->sk.len, ct->data, ct->len, out->data, &out->len);
	return call_end(k->r, c, rc);
}

/* ---- functional round ---------------------------------------------------- */

static int op_ok(struct kem_check *k, const struct call *c, const char *test)
{
	return call_ok(k->r, c, test, "kem");
}

/* keygen, enc, dec on s; 1 when all three worked and dec(enc) = ss. */
static int round_trip(struct kem_check *k, struct kem_set *s, const char *test)
{
	struct call c;
	do_keygen(k, s, test, &c);
	if (!op_ok(k, &c, test))
		return 0;
	do_enc(k, s, test, &c);
	if (!op_ok(k, &c, test))
		return 0;
	/* dec: one check, its return code and then its secret */
	if (do_dec(k, s, &s->ct, &s->ss2, test, "ct", &c)) {
		op_ok(k, &c, test);
		return 0;
	}
	if (same_bytes(&s->ss2, &s->ss)) {
		tally_pass(&k->r->tally, test, "dec");
		return 1;
	}
	if (s->ss2.len == s->ss.len)
		tally_fail(&k->r->tally, test, "dec", "ss differs", k->round, c.w.call,
			   "dec(enc(pk)) gave another shared secret");
	else
		tally_fail(&k->r->tally, test, "dec", "ss length", k->round, c.w.call,
			   "dec(enc(pk)) gave a shared secret of %llu bytes, enc one of %llu",
			   s->ss2.len, s->ss.len);
	return 0;
}

/* Decapsulate ct again: the same return code and secret as first. */
static void check_repeat(struct kem_check *k, struct kem_set *s, struct gbuf *ct,
			 const struct gbuf *first, int first_rc, const char *what)
{
	struct call c;
	int rc = do_dec(k, s, ct, &s->ss3, T_DETERMINISM, what, &c);
	if (rc == first_rc && (rc || same_bytes(&s->ss3, first))) {
		tally_pass(&k->r->tally, T_DETERMINISM, "dec");
		return;
	}
	tally_fail(&k->r->tally, T_DETERMINISM, "dec", what, k->round, c.w.call,
		   "two decapsulations of the same %s gave different results (return %d, then %d)",
		   what, first_rc, rc);
}

/* ct' = ct with one bit flipped, into s->ctt; its description in what. */
static void make_tampered(const struct kem_check *k, struct kem_set *s, char *what, size_t cap)
{
	unsigned long long byte;
	int bit;
	flip_position(k->round, s->ct.len, &byte, &bit);
	gbuf_clear(&s->ctt);
	memcpy(s->ctt.data, s->ct.data, (size_t)s->ct.len);
	s->ctt.len = s->ct.len;
	s->ctt.data[byte] ^= (unsigned char)(1u << bit);
	snprintf(what, cap, "ct with byte %llu bit %d flipped", byte, bit);
}

static void check_tamper(struct kem_check *k, struct kem_set *s)
{
	char what[96];
	struct call c;
	make_tampered(k, s, what, sizeof what);
	int rc = do_dec(k, s, &s->ctt, &s->ss2, T_TAMPER, what, &c);
	if (rc == 0 && same_bytes(&s->ss2, &s->ss))
		tally_fail(&k->r->tally, T_TAMPER, "dec", "accepted", k->round, c.w.call,
			   "accepted a tampered ciphertext: return 0 and the honest shared secret");
	else
		tally_pass(&k->r->tally, T_TAMPER, "dec");
	check_repeat(k, s, &s->ctt, &s->ss2, rc, "tampered ciphertext");
}

/* The aligned keygen and enc once more from the round's seed, into p:
 * which of pk, sk, ct, ss the candidate reproduces from one seed. */
static void reproducible(struct kem_check *k, int same[4])
{
	struct kem_set p;
	struct call c;
	memset(same, 0, 4 * sizeof *same);
	if (!set_alloc(&p, k->m, 0)) {
		check_seed_round(k->r, k->round, NULL);
		if (!do_keygen(k, &p, T_UNALIGNED, &c)) {
			same[0] = same_bytes(&p.pk, &k->a.pk);
			same[1] = same_bytes(&p.sk, &k->a.sk);
			/* enc from the aligned run's pk, like the first run */
			memcpy(p.pk.data, k->a.pk.data, (size_t)k->a.pk.len);
			p.pk.len = k->a.pk.len;
			if (!do_enc(k, &p, T_UNALIGNED, &c)) {
				same[2] = same_bytes(&p.ct, &k->a.ct);
				same[3] = same_bytes(&p.ss, &k->a.ss);
			}
		}
	}
	set_free(&p);
}

/* Same seed, buffers off alignment: the round trip works and the outputs
 * equal the aligned run's wherever the candidate is deterministic. */
static void check_unaligned(struct kem_check *k)
{
	struct kem_set u;
	size_t off = 1 + (size_t)(k->round % 7);
	if (set_alloc(&u, k->m, off)) {
		set_free(&u);
		return;
	}
	check_seed_round(k->r, k->round, NULL);
	if (round_trip(k, &u, T_UNALIGNED)) {
		const struct out_pair cmp[4] = {
			{ "keygen", &u.pk, &k->a.pk }, { "keygen", &u.sk, &k->a.sk },
			{ "enc", &u.ct, &k->a.ct }, { "enc", &u.ss, &k->a.ss },
		};
		int same[4] = { 1, 1, 1, 1 };
		if (outputs_differ(cmp, 4))
			reproducible(k, same);
		unaligned_verdicts(k->r, k->round, "kem", off, cmp, same, 4);
	}
	set_free(&u);
}

static void functional_round(void *arg, long round)
{
	struct kem_check *k = arg;
	k->round = round;
	check_seed_round(k->r, k->round, NULL);
	if (!round_trip(k, &k->a, T_ROUNDTRIP))
		return;
	check_repeat(k, &k->a, &k->a.ct, &k->a.ss2, 0, "ciphertext");
	check_tamper(k, &k->a);
	if (k->round < UNALIGNED_ROUNDS)
		check_unaligned(k);
}

/* ---- constant-time round -------------------------------------------------- */

static void ct_round(void *arg, long round)
{
	struct kem_check *k = arg;
	k->round = round;
	struct kem_set *s = &k->a;
	struct call c;
	char what[96];
	check_seed_round(k->r, k->round, NULL);
	do_keygen(k, s, T_CONSTTIME, &c);
	if (!op_ok(k, &c, T_CONSTTIME))
		return;
	watch_public(s->pk.data, (size_t)s->pk.len);
	watch_secret(s->sk.data, (size_t)s->sk.len);
	do_enc(k, s, T_CONSTTIME, &c);
	if (!op_ok(k, &c, T_CONSTTIME))
		return;
	watch_public(s->ct.data, (size_t)s->ct.len);
	do_dec(k, s, &s->ct, &s->ss2, T_CONSTTIME, "ct", &c);
	if (!op_ok(k, &c, T_CONSTTIME))
		return;
	make_tampered(k, s, what, sizeof what);
	do_dec(k, s, &s->ctt, &s->ss3, T_CONSTTIME, what, &c);
	tally_pass(&k->r->tally, T_CONSTTIME, "dec");
	/* The harness's own comparison, on declassified copies. */
	watch_public(s->ss.data, (size_t)s->ss.len);
	watch_public(s->ss2.data, (size_t)s->ss2.len);
	if (same_bytes(&s->ss2, &s->ss))
		tally_pass(&k->r->tally, T_ROUNDTRIP, "dec");
	else
		tally_fail(&k->r->tally, T_ROUNDTRIP, "dec", "ss differs", k->round,
			   "kem_dec(sk, ct) after kem_enc(pk)",
			   "dec(enc(pk)) gave another shared secret");
}

/* ---- the suite -------------------------------------------------------------- */

static int kem_run(struct check_run *r)
{
	struct kem_check k = { .r = r, .lib = r->lib, .m = r->lib->meta };
	if (set_alloc(&k.a, k.m, 0)) {
		fprintf(stderr, "ngcc-perf-check: cannot map buffers for pk %llu, sk %llu, "
			"ct %llu, ss %llu bytes\n", k.m->pk_bytes, k.m->sk_bytes, k.m->ct_bytes,
			k.m->ss_bytes);
		set_free(&k.a);
		return -1;
	}
	if (r->suite != SUITE_CONSTTIME) {
		tally_not_applicable(&r->tally, T_OVERLAP, "enc", OVERLAP_NOTE);
		tally_not_applicable(&r->tally, T_OVERLAP, "dec", OVERLAP_NOTE);
	}
	check_each_round(r, functional_round, ct_round, &k);
	set_free(&k.a);
	return 0;
}

const struct check_type check_type_kem = { NGCC_TYPE_KEM, "kem", kem_run };
