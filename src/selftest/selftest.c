/*
 * selftest.c — checks of the clean-room ICCS runtime (see selftest.h).
 *
 * Each check prints one line.  The vectors come from rt_vectors.c; the
 * OpenSSL cross-checks use EVP_sm3 and HMAC only as independent references
 * for byte-aligned input (docs/iccs.md §3.5), never inside the runtime.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/auxfunc.h"
#include "runtime/drng.h"
#include "runtime/sm3.h"
#include "selftest/iccs_openssl.h"
#include "selftest/rt_vectors.h"
#include "selftest/selftest.h"
#include "util/util.h"

#define MAX_OUT 256   /* bytes: enough for every fixed vector */

static void report(struct selftest *st, int ok, const char *name,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void report(struct selftest *st, int ok, const char *name,
		   const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		st->passed++;
		fprintf(st->out, "ok   %s\n", name);
		return;
	}
	st->failed++;
	fprintf(st->out, "FAIL %s: ", name);
	va_start(ap, fmt);
	vfprintf(st->out, fmt, ap);
	va_end(ap);
	fputc('\n', st->out);
}

static void skip(struct selftest *st, const char *name, const char *why)
{
	st->skipped++;
	fprintf(st->out, "skip %s: %s\n", name, why);
}

/* Compare n bytes against expected hex; report one line. */
static void check_bytes(struct selftest *st, const char *name,
			const unsigned char *got, size_t n, const char *expected)
{
	unsigned char want[MAX_OUT];
	char got_hex[2 * MAX_OUT + 1];
	long wn = rtv_unhex(expected, want, sizeof(want));
	int ok = wn == (long)n && memcmp(want, got, n) == 0;

	if (n > MAX_OUT)
		n = MAX_OUT;
	rtv_hex(got, n, got_hex);
	report(st, ok, name, "expected %s got %s", expected, got_hex);
}

static void check_rc(struct selftest *st, const char *name, int got, int want)
{
	report(st, got == want, name, "expected return %d got %d", want, got);
}

/* --- auxiliary functions ------------------------------------------------ */

static void check_aux_vectors(struct selftest *st)
{
	size_t i;

	for (i = 0; i < rtv_nvectors; i++) {
		const struct rtv_vector *v = &rtv_vectors[i];
		unsigned char out[MAX_OUT];
		int rc;

		memset(out, 0, sizeof(out));
		rc = rtv_call(v, out);
		if (rc != 0)
			check_rc(st, v->name, rc, 0);
		else
			check_bytes(st, v->name, out, (size_t)(v->out_bits + 7) / 8,
				    v->expected);
	}
}

static void check_pseudohash_key(struct selftest *st)
{
	unsigned char key[64];

	sm3hash(256, (const unsigned char *)"3.14159265358979", 128, key);
	sm3hash(256, (const unsigned char *)"2.71828182845904", 128, key + 32);
	check_bytes(st, "pseudohash key K = SM3(pi) || SM3(e)", key, 64,
		    rtv_pseudohash_key);
}

/* The runtime prints its errors to stderr; keep the report readable. */
static int stderr_silence(void)
{
	int saved, devnull;

	fflush(stderr);
	saved = dup(STDERR_FILENO);
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull >= 0) {
		dup2(devnull, STDERR_FILENO);
		close(devnull);
	}
	return saved;
}

static void stderr_restore(int saved)
{
	if (saved < 0)
		return;
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
}

static void check_return_codes(struct selftest *st)
{
	static const int bad_sm3[] = { 0, 128, 255, 257, 512, -256 };
	static const int bad_ph[] = { 0, 256, 511, 513, 2048, -512 };
	const unsigned char *msg = (const unsigned char *)"abc";
	unsigned char out[MAX_OUT];
	char name[96];
	size_t i;
	int saved = stderr_silence();
	int rc_sm3[6], rc_ph[6];

	for (i = 0; i < 6; i++) {
		rc_sm3[i] = sm3hash(bad_sm3[i], msg, 24, out);
		rc_ph[i] = pseudohash(bad_ph[i], msg, 24, out);
	}
	stderr_restore(saved);
	for (i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "sm3hash(%d, ...) is unsupported (-4)",
			 bad_sm3[i]);
		check_rc(st, name, rc_sm3[i], -4);
		snprintf(name, sizeof(name), "pseudohash(%d, ...) is unsupported (-4)",
			 bad_ph[i]);
		check_rc(st, name, rc_ph[i], -4);
	}
	check_rc(st, "pseudoXOF(0, ...) returns 0", pseudoXOF(0, msg, 24, out), 0);
}

/*
 * §3.5 length-field quirk, white box: a context that claims L absorbed bits
 * (from the IV, empty block) is finalised.  With the quirk, L = 2^32 writes
 * the same length field as L = 0, and 2^41 + 2^32 the same as 2^41.
 */
static void final_at(unsigned long long nbits, unsigned char digest[32])
{
	struct ngcc_rt_sm3_ctx ctx;

	ngcc_rt_sm3_init(&ctx);
	ctx.nbits = nbits;
	ngcc_rt_sm3_final(&ctx, digest);
}

static void check_length_quirk(struct selftest *st)
{
	unsigned char a[32], b[32];

	final_at(1ull << 32, a);
	final_at(0, b);
	report(st, memcmp(a, b, 32) == 0,
	       "sm3 length field keeps only L mod 2^32 for L = 2^32 (quirk)",
	       "a standard high word was written");
	final_at((1ull << 41) + (1ull << 32), a);
	final_at(1ull << 41, b);
	report(st, memcmp(a, b, 32) == 0,
	       "sm3 length field high word ((L/512 >> 32) << 9) for L >= 2^41 (quirk)",
	       "a standard high word was written");
}

/* --- DRNG ----------------------------------------------------------------- */

static void instantiate_repeated(DRNG_ctx *ctx, const char *unit, size_t unit_len)
{
	unsigned char seed[64];

	rtv_repeat(seed, sizeof(seed), unit, unit_len);
	init_random_number(ctx, seed, sizeof(seed));
}

static void check_drng_seeds(struct selftest *st)
{
	DRNG_ctx ctx;
	unsigned char out[64];
	char name[64];
	int i;

	instantiate_repeated(&ctx, "seed", 4);
	check_bytes(st, "drng V after \"seed\" x 16", ctx.V, SEEDLEN, rtv_drng_v);
	check_bytes(st, "drng C after \"seed\" x 16", ctx.C, SEEDLEN, rtv_drng_c);
	for (i = 0; i < RTV_NSEEDS; i++) {
		int rc = get_random_number(&ctx, out, 512);

		snprintf(name, sizeof(name), "drng KAT Seed, Count = %d", i);
		if (rc != 0)
			check_rc(st, name, rc, 0);
		else
			check_bytes(st, name, out, 64, rtv_drng_seeds[i]);
	}
}

static void check_drng_granularity(struct selftest *st)
{
	DRNG_ctx ctx;
	unsigned char a[32], b[32], want_a[64], want_b[64];
	int ok;

	instantiate_repeated(&ctx, "seed", 4);
	get_random_number(&ctx, a, 256);
	get_random_number(&ctx, b, 256);
	rtv_unhex(rtv_drng_seeds[0], want_a, sizeof(want_a));
	rtv_unhex(rtv_drng_seeds[1], want_b, sizeof(want_b));
	ok = memcmp(a, want_a, 32) == 0 && memcmp(b, want_b, 32) == 0;
	report(st, ok, "drng granularity: two 256-bit draws = Count 0, Count 1 prefixes",
	       "got different prefixes");
}

/* A zero-bit request writes nothing but advances V and the counter. */
static void check_drng_zero_bits(struct selftest *st)
{
	DRNG_ctx ctx, before;
	unsigned char buf[64], want[64];
	int ok;

	instantiate_repeated(&ctx, "seed", 4);
	before = ctx;
	memset(buf, 0xa5, sizeof(buf));
	get_random_number(&ctx, buf, 0);
	ok = buf[0] == 0xa5 && memcmp(before.V, ctx.V, SEEDLEN) != 0 &&
	     ctx.reseed_counter[SEEDLEN - 1] == 2;
	report(st, ok, "drng zero-bit request advances state, writes nothing",
	       "state unchanged or buffer written");

	/* The update ignores nbits, so the next draw is Count 1's seed. */
	get_random_number(&ctx, buf, 512);
	rtv_unhex(rtv_drng_seeds[1], want, sizeof(want));
	report(st, memcmp(buf, want, 64) == 0,
	       "drng zero-bit request then 512 bits = Count 1",
	       "got a different value");
}

static void check_drng_partial(struct selftest *st)
{
	DRNG_ctx ctx;
	unsigned char buf[8], want[64];
	int ok, i;

	instantiate_repeated(&ctx, "seed", 4);
	memset(buf, 0xa5, sizeof(buf));
	get_random_number(&ctx, buf, 13);
	rtv_unhex(rtv_drng_seeds[0], want, sizeof(want));
	ok = buf[0] == want[0] && buf[1] == (want[1] & 0xf8);
	for (i = 2; i < 8; i++)
		ok = ok && buf[i] == 0xa5;
	report(st, ok, "drng 13-bit request: masked, later bytes untouched",
	       "got %02X %02X %02X, want %02X %02X A5", buf[0], buf[1], buf[2],
	       want[0], want[1] & 0xf8);
}

/* 440-bit arithmetic wraps: V = 2^440 - 1, C = 0, counter = 1 gives the
 * blocks SM3(V), SM3(0) and the new V = H = SM3(03 || V), zero-extended. */
static void check_drng_wraparound(struct selftest *st)
{
	unsigned char out[64], zero[SEEDLEN], in[SEEDLEN + 1], want[32];
	DRNG_ctx ctx;
	int ok;

	memset(ctx.V, 0xff, SEEDLEN);
	memset(ctx.C, 0, SEEDLEN);
	memset(ctx.reseed_counter, 0, SEEDLEN);
	ctx.reseed_counter[SEEDLEN - 1] = 1;
	get_random_number(&ctx, out, 512);
	memset(zero, 0, sizeof(zero));
	ngcc_rt_sm3_digest(zero, 8 * SEEDLEN, want);
	ok = memcmp(out + 32, want, 32) == 0;
	in[0] = 0x03;
	memset(in + 1, 0xff, SEEDLEN);
	ngcc_rt_sm3_digest(in, 8 * sizeof(in), want);
	ok = ok && memcmp(ctx.V, zero, SEEDLEN - 32) == 0 &&
	     memcmp(ctx.V + SEEDLEN - 32, want, 32) == 0 &&
	     ctx.reseed_counter[SEEDLEN - 1] == 2;
	report(st, ok, "drng 440-bit arithmetic wraps modulo 2^440",
	       "block V+1 or the updated V is wrong");
}

static void check_sig_messages(struct selftest *st)
{
	DRNG_ctx ctx;
	unsigned char seed[64], msg[128];

	rtv_repeat(seed, 63, "msg", 3);
	seed[63] = 'm';
	init_random_number(&ctx, seed, sizeof(seed));
	get_random_number(&ctx, msg, 56 * 8);
	check_bytes(st, "drng SIG message, Count 0 (56 bytes)", msg, 56,
		    rtv_sig_msgs[0]);
	get_random_number(&ctx, msg, 64 * 8);
	check_bytes(st, "drng SIG message, Count 1 (64 bytes)", msg, 64,
		    rtv_sig_msgs[1]);
}

static void check_hashkat_messages(struct selftest *st)
{
	DRNG_ctx ctx;
	unsigned char buf[512];
	char name[64];
	int len;

	instantiate_repeated(&ctx, "KAT_2_12", 8);
	for (len = 0; len < RTV_NHASHKAT_MSGS; len++) {
		memset(buf, 0, sizeof(buf));
		get_random_number(&ctx, buf, (unsigned long long)len);
		snprintf(name, sizeof(name), "drng KAT_2_12 Msg, L = %d", len);
		check_bytes(st, name, buf, (size_t)(len + 7) / 8,
			    rtv_hashkat_msgs[len]);
	}
}

static void check_kat_2_23(struct selftest *st)
{
	const size_t nbytes = (size_t)1 << 20;
	unsigned char *msg = xmalloc(nbytes);
	DRNG_ctx ctx;

	instantiate_repeated(&ctx, "KAT_2_23", 8);
	get_random_number(&ctx, msg, 8ull * nbytes);
	check_bytes(st, "drng KAT_2_23 Msg_Exp first 8 bytes", msg, 8,
		    rtv_kat_2_23_first);
	check_bytes(st, "drng KAT_2_23 Msg_Exp last 8 bytes", msg + nbytes - 8, 8,
		    rtv_kat_2_23_last);
	free(msg);
}

/*
 * The 1 GiB KAT_2_33 message is SM3(V) || ... || SM3(V + 2^25 - 1): its ends
 * are computed from the instantiated V without drawing the whole message.
 */
static void check_kat_2_33(struct selftest *st)
{
	static const unsigned char last_index[4] = { 0x01, 0xff, 0xff, 0xff };
	unsigned char v[SEEDLEN], digest[32];
	unsigned int carry = 0;
	DRNG_ctx ctx;
	int i;

	instantiate_repeated(&ctx, "KAT_2_33", 8);
	ngcc_rt_sm3_digest(ctx.V, 8 * SEEDLEN, digest);
	check_bytes(st, "drng KAT_2_33 Msg_Exp first 8 bytes (direct)", digest, 8,
		    rtv_kat_2_33_first);
	memcpy(v, ctx.V, SEEDLEN);
	for (i = SEEDLEN - 1; i >= 0; i--) {
		int j = i - (SEEDLEN - 4);

		carry += v[i] + (j >= 0 ? last_index[j] : 0);
		v[i] = (unsigned char)carry;
		carry >>= 8;
	}
	ngcc_rt_sm3_digest(v, 8 * SEEDLEN, digest);
	check_bytes(st, "drng KAT_2_33 Msg_Exp last 8 bytes (direct)", digest + 24,
		    8, rtv_kat_2_33_last);
}

static void check_kat_loop(struct selftest *st)
{
	unsigned char m0[1024];
	DRNG_ctx ctx;

	instantiate_repeated(&ctx, "KAT_Loop", 8);
	get_random_number(&ctx, m0, 8192);
	check_bytes(st, "drng KAT_Loop m0 start", m0, 32, rtv_kat_loop_m0_start);
	check_bytes(st, "drng KAT_Loop m0 end", m0 + 1024 - 16, 16,
		    rtv_kat_loop_m0_end);
}

/* --- OpenSSL cross-checks ------------------------------------------------ */

/* Deterministic test data (xorshift64*), independent of the runtime. */
static void fill_pseudorandom(unsigned char *p, size_t n, uint64_t *state)
{
	size_t i;

	for (i = 0; i < n; i++) {
		*state ^= *state >> 12;
		*state ^= *state << 25;
		*state ^= *state >> 27;
		p[i] = (unsigned char)((*state * 0x2545f4914f6cdd1dull) >> 56);
	}
}

#define XCHECK_MAX 4200

/* Lengths 0..130, around every block boundary up to 20 blocks, and a few
 * longer ones: a few hundred in all. */
static size_t xcheck_lengths(size_t *lens, size_t max)
{
	static const size_t longer[] = { 1000, 1023, 1024, 1025, 2047, 4096, 4159 };
	size_t n = 0, i;
	int k, d;

	for (i = 0; i <= 130 && n < max; i++)
		lens[n++] = i;
	for (k = 3; k <= 20; k++)
		for (d = -9; d <= 1 && n < max; d++)
			lens[n++] = (size_t)(64 * k + d);
	for (i = 0; i < sizeof(longer) / sizeof(longer[0]) && n < max; i++)
		lens[n++] = longer[i];
	return n;
}

static void xcheck_sm3hash(struct selftest *st, const unsigned char *data,
			   const size_t *lens, size_t nlens)
{
	unsigned char ours[32], theirs[32];
	size_t i;

	for (i = 0; i < nlens; i++) {
		sm3hash(256, data, 8ull * lens[i], ours);
		if (iccs_openssl_sm3(data, lens[i], NULL, 0, theirs) != 0 ||
		    memcmp(ours, theirs, 32) != 0)
			break;
	}
	report(st, i == nlens, "sm3hash = OpenSSL EVP_sm3 on byte-aligned input",
	       "differs at %zu bytes (of %zu lengths)", i < nlens ? lens[i] : 0, nlens);
}

/* Copy nbits bits starting at bit `from` of src to dst (MSB-first), then
 * put junk in the unused low bits of the last byte. */
static void extract_bits(const unsigned char *src, size_t from, size_t nbits,
			 unsigned char *dst)
{
	size_t i, nbytes = (nbits + 7) / 8;

	memset(dst, 0, nbytes + 1);
	for (i = 0; i < nbits; i++) {
		size_t s = from + i;

		if (src[s / 8] & (0x80 >> (s % 8)))
			dst[i / 8] |= (unsigned char)(0x80 >> (i % 8));
	}
	if (nbits % 8)
		dst[nbytes - 1] |= (unsigned char)(0xff >> (nbits % 8));
}

/*
 * Stream a byte-aligned message as three pieces cut at arbitrary bits: the
 * runtime's unaligned path must give OpenSSL's digest of the whole.
 */
static void xcheck_bit_splits(struct selftest *st, const unsigned char *data)
{
	static const size_t totals[] = { 4, 8, 55, 56, 63, 64, 65, 129, 300 };
	unsigned char piece[320], ours[32], theirs[32];
	size_t t;
	int ok = 1;
	char detail[96] = "";

	for (t = 0; ok && t < sizeof(totals) / sizeof(totals[0]); t++) {
		size_t bits = 8 * totals[t], a, b;

		for (a = 1; ok && a < bits; a += 7) {
			struct ngcc_rt_sm3_ctx ctx;

			b = a + (bits - a) / 3 + 1;
			if (b > bits)
				b = bits;
			ngcc_rt_sm3_init(&ctx);
			extract_bits(data, 0, a, piece);
			ngcc_rt_sm3_update(&ctx, piece, a);
			extract_bits(data, a, b - a, piece);
			ngcc_rt_sm3_update(&ctx, piece, b - a);
			extract_bits(data, b, bits - b, piece);
			ngcc_rt_sm3_update(&ctx, piece, bits - b);
			ngcc_rt_sm3_final(&ctx, ours);
			ok = iccs_openssl_sm3(data, totals[t], NULL, 0, theirs) == 0 &&
			     memcmp(ours, theirs, 32) == 0;
			if (!ok)
				snprintf(detail, sizeof(detail),
					 "%zu bytes cut at bits %zu and %zu", totals[t], a, b);
		}
	}
	report(st, ok, "sm3 streamed in pieces cut at odd bits = OpenSSL EVP_sm3",
	       "differs for %s", detail);
}

static void xcheck_pseudoxof(struct selftest *st, const unsigned char *data,
			     const size_t *lens, size_t nlens)
{
	unsigned char ours[100], theirs[100];
	size_t i;
	int ok = 1;

	for (i = 0; ok && i < nlens; i += 3) {
		pseudoXOF(780, data, 8ull * lens[i], ours);
		ok = iccs_openssl_pseudoxof(780, data, lens[i], theirs) == 0 &&
		     memcmp(ours, theirs, 98) == 0;
	}
	report(st, ok, "pseudoXOF(780) = SM3(msg || ctr) via OpenSSL",
	       "differs at %zu bytes", lens[i - 3]);
}

static void xcheck_pseudohash(struct selftest *st, const unsigned char *data,
			      const size_t *lens, size_t nlens)
{
	static const int sizes[] = { 512, 768, 1024 };
	unsigned char ours[128], theirs[128];
	char name[80];
	size_t s, i;

	for (s = 0; s < 3; s++) {
		int ok = 1;

		for (i = 0; ok && i < nlens; i += 5) {
			size_t n = (size_t)sizes[s] / 8;

			pseudohash(sizes[s], data, 8ull * lens[i], ours);
			ok = iccs_openssl_pseudohash(sizes[s], data, lens[i], theirs) == 0 &&
			     memcmp(ours, theirs, n) == 0;
		}
		snprintf(name, sizeof(name),
			 "pseudohash(%d) = rebuild from OpenSSL HMAC(EVP_sm3, K)", sizes[s]);
		report(st, ok, name, "differs at %zu bytes", i >= 5 ? lens[i - 5] : 0);
	}
}

static void check_openssl(struct selftest *st)
{
	size_t lens[512], nlens = xcheck_lengths(lens, 512);
	unsigned char *data = xmalloc(XCHECK_MAX + 1);
	uint64_t state = 0x9e3779b97f4a7c15ull;

	if (!iccs_openssl_available()) {
		skip(st, "OpenSSL cross-checks", "this OpenSSL has no SM3");
		free(data);
		return;
	}
	fill_pseudorandom(data, XCHECK_MAX, &state);
	xcheck_sm3hash(st, data, lens, nlens);
	xcheck_bit_splits(st, data);
	xcheck_pseudoxof(st, data, lens, nlens);
	xcheck_pseudohash(st, data, lens, nlens);
	free(data);
}

void selftest_run(struct selftest *st)
{
	check_aux_vectors(st);
	check_pseudohash_key(st);
	check_return_codes(st);
	check_length_quirk(st);
	check_drng_seeds(st);
	check_drng_granularity(st);
	check_drng_zero_bits(st);
	check_drng_partial(st);
	check_drng_wraparound(st);
	check_sig_messages(st);
	check_hashkat_messages(st);
	check_kat_2_23(st);
	check_kat_2_33(st);
	check_kat_loop(st);
	check_openssl(st);
}

int selftest_command(FILE *out)
{
	struct selftest st = { out, 0, 0, 0 };
	selftest_run(&st);
	fprintf(out, "selftest: %u passed, %u failed", st.passed, st.failed);
	if (st.skipped)
		fprintf(out, ", %u skipped", st.skipped);
	fputc('\n', out);
	fflush(out);
	return st.failed ? EXIT_FAILED : EXIT_OK;
}
