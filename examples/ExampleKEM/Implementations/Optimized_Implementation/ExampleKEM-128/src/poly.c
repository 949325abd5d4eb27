/*
 * poly.c — arithmetic, sampling and encoding of polynomials: the
 * optimized implementation.  Additions and subtractions mod q, including
 * the accumulation after each product, work on 16 coefficients at a time
 * with AVX2; everything else is the reference code, and the results are
 * the same bit for bit (same KAT file).  Build with -mavx2.
 */
#include <immintrin.h>
#include <string.h>

#include "poly.h"
#include "symmetric.h"

#define Q EXKEM_Q
#define N EXKEM_N

/* XOF bytes per matrix entry: one 32-bit value per coefficient. */
#define UNIFORM_BYTES (4 * N)

void poly_zero(poly *r)
{
	memset(r->c, 0, sizeof(r->c));
}

/*
 * 16 coefficients in [0, 2q) reduced to [0, q) without a branch: s - q
 * wraps around to a value above s exactly when s < q, so the unsigned
 * minimum of s and s - q is s mod q.
 */
static __m256i reduce_once(__m256i s)
{
	const __m256i q = _mm256_set1_epi16(Q);
	return _mm256_min_epu16(s, _mm256_sub_epi16(s, q));
}

/* r = a + b mod q on arrays of N coefficients, each in [0, q). */
static void add_mod_q(uint16_t *r, const uint16_t *a, const uint16_t *b)
{
	for (int i = 0; i < N; i += 16) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(a + i));
		__m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(b + i));
		_mm256_storeu_si256((__m256i *)(void *)(r + i), reduce_once(_mm256_add_epi16(x, y)));
	}
}

void poly_add(poly *r, const poly *a, const poly *b)
{
	add_mod_q(r->c, a->c, b->c);
}

void poly_sub(poly *r, const poly *a, const poly *b)
{
	const __m256i q = _mm256_set1_epi16(Q);

	for (int i = 0; i < N; i += 16) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(a->c + i));
		__m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(b->c + i));
		__m256i s = _mm256_sub_epi16(_mm256_add_epi16(x, q), y);

		_mm256_storeu_si256((__m256i *)(void *)(r->c + i), reduce_once(s));
	}
}

/*
 * Multiplication through the number-theoretic transform: q - 1 = 3328 is a
 * multiple of 256, so 17 (a primitive 256th root of unity mod q) splits
 * X^256 + 1 into 128 factors X^2 - g.  The transform maps a polynomial to
 * its 128 residues mod those factors; a product is then 128 products of
 * degree-1 polynomials.  The result is exactly the schoolbook product mod
 * (X^N + 1, q): only the number of multiplications changes (about 2,800
 * instead of 65,536).  Every step reduces with % Q by a constant, which
 * compiles to multiplications, never to a branch on the data.
 */

/* ZETAS[k] = 17^bitrev7(k) mod q, in the order the butterflies use them. */
static const uint16_t ZETAS[128] = {
	1, 1729, 2580, 3289, 2642, 630, 1897, 848, 1062, 1919, 193, 797,
	2786, 3260, 569, 1746, 296, 2447, 1339, 1476, 3046, 56, 2240, 1333,
	1426, 2094, 535, 2882, 2393, 2879, 1974, 821, 289, 331, 3253, 1756,
	1197, 2304, 2277, 2055, 650, 1977, 2513, 632, 2865, 33, 1320, 1915,
	2319, 1435, 807, 452, 1438, 2868, 1534, 2402, 2647, 2617, 1481, 648,
	2474, 3110, 1227, 910, 17, 2761, 583, 2649, 1637, 723, 2288, 1100,
	1409, 2662, 3281, 233, 756, 2156, 3015, 3050, 1703, 1651, 2789, 1789,
	1847, 952, 1461, 2687, 939, 2308, 2437, 2388, 733, 2337, 268, 641,
	1584, 2298, 2037, 3220, 375, 2549, 2090, 1645, 1063, 319, 2773, 757,
	2099, 561, 2466, 2594, 2804, 1092, 403, 1026, 1143, 2150, 2775, 886,
	1722, 1212, 1874, 1029, 2110, 2935, 885, 2154,
};

static uint16_t mulmod(uint32_t a, uint32_t b)
{
	return (uint16_t)(a * b % Q);
}

/* Cooley-Tukey butterflies, natural order in, bit-reversed order out. */
static void ntt(uint16_t a[N])
{
	int k = 1;

	for (int len = N / 2; len >= 2; len >>= 1) {
		for (int start = 0; start < N; start += 2 * len) {
			uint32_t zeta = ZETAS[k++];

			for (int j = start; j < start + len; j++) {
				uint16_t t = mulmod(zeta, a[j + len]);

				a[j + len] = (uint16_t)((a[j] + Q - t) % Q);
				a[j] = (uint16_t)((a[j] + t) % Q);
			}
		}
	}
}

/*
 * The inverse: the levels undone in reverse order, Gentleman-Sande
 * butterflies walking ZETAS backwards.  Block by block that visits
 * ZETAS[k] = -z^-1 for the twiddle z the forward level used on the same
 * block, so (x, y) = (a + z b, a - z b) gives back 2a and 2b as x + y and
 * ZETAS[k] (y - x); the factor 2 of each of the 7 levels goes at the end
 * (128^-1 = 3303 mod q).
 */
static void invntt(uint16_t a[N])
{
	int k = N / 2 - 1;

	for (int len = 2; len <= N / 2; len <<= 1) {
		for (int start = 0; start < N; start += 2 * len) {
			uint32_t zeta = ZETAS[k--];

			for (int j = start; j < start + len; j++) {
				uint16_t x = a[j], y = a[j + len];

				a[j] = (uint16_t)((x + y) % Q);
				a[j + len] = mulmod(zeta, (uint32_t)(y + Q - x));
			}
		}
	}
	for (int j = 0; j < N; j++)
		a[j] = mulmod(a[j], 3303);
}

/* (a0 + a1 X)(b0 + b1 X) mod (X^2 - g). */
static void basemul(uint16_t r[2], const uint16_t a[2], const uint16_t b[2], uint32_t g)
{
	r[0] = (uint16_t)((mulmod(a[0], b[0]) + mulmod(mulmod(a[1], b[1]), g)) % Q);
	r[1] = (uint16_t)((mulmod(a[0], b[1]) + mulmod(a[1], b[0])) % Q);
}

void poly_mul_acc(poly *r, const poly *a, const poly *b)
{
	uint16_t x[N], y[N], p[N];

	memcpy(x, a->c, sizeof(x));
	memcpy(y, b->c, sizeof(y));
	ntt(x);
	ntt(y);
	for (int i = 0; i < N / 4; i++) {
		uint32_t g = ZETAS[N / 4 + i];

		basemul(p + 4 * i, x + 4 * i, y + 4 * i, g);
		basemul(p + 4 * i + 2, x + 4 * i + 2, y + 4 * i + 2, Q - g);
	}
	invntt(p);
	add_mod_q(r->c, r->c, p);
}

/*
 * A matrix entry: 32-bit little-endian values from the XOF, each reduced
 * mod q.  There is no rejection loop, so nothing here branches on the
 * stream: rho is public, but a constant-time check that treats every DRNG
 * output (from which rho is derived) as secret cannot know that.  The
 * reduction's bias is below 2^-19 per coefficient, ample for an example.
 */
int poly_uniform(poly *a, const uint8_t rho[EXKEM_SYMBYTES], uint8_t i, uint8_t j)
{
	uint8_t buf[UNIFORM_BYTES];
	const uint8_t idx[3] = { i, j, 0 };

	if (exkem_xof(buf, sizeof(buf), EXKEM_TAG_MATRIX, rho, EXKEM_SYMBYTES,
		      idx, sizeof(idx)))
		return -2;
	for (int n = 0; n < N; n++) {
		const uint8_t *b = buf + 4 * n;
		uint32_t v = (uint32_t)b[0] | (uint32_t)b[1] << 8 |
			     (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;

		a->c[n] = (uint16_t)(v % Q);
	}
	return 0;
}

static unsigned get_bit(const uint8_t *buf, size_t bit)
{
	return (buf[bit >> 3] >> (bit & 7)) & 1u;
}

/* Each coefficient is (sum of eta bits) - (sum of the next eta bits). */
int poly_noise(poly *a, const uint8_t seed[EXKEM_SYMBYTES], uint8_t nonce, int eta)
{
	uint8_t buf[2 * 3 * N / 8]; /* enough for eta <= 3 */
	size_t len = (size_t)(2 * eta * N / 8);
	size_t bit = 0;

	if (eta < 1 || eta > 3)
		return -2;
	if (exkem_xof(buf, len, EXKEM_TAG_NOISE, seed, EXKEM_SYMBYTES, &nonce, 1))
		return -2;
	for (int i = 0; i < N; i++) {
		int x = 0, y = 0;
		for (int k = 0; k < eta; k++)
			x += (int)get_bit(buf, bit++);
		for (int k = 0; k < eta; k++)
			y += (int)get_bit(buf, bit++);
		a->c[i] = (uint16_t)((x - y + Q) % Q);
	}
	return 0;
}

/* Little-endian bit packing of N values of d bits each. */
static void pack(uint8_t *out, const uint16_t *v, int d)
{
	uint32_t acc = 0;
	int bits = 0;

	for (int i = 0; i < N; i++) {
		acc |= (uint32_t)v[i] << bits;
		bits += d;
		while (bits >= 8) {
			*out++ = (uint8_t)acc;
			acc >>= 8;
			bits -= 8;
		}
	}
}

static void unpack(uint16_t *v, const uint8_t *in, int d)
{
	uint32_t acc = 0;
	int bits = 0;

	for (int i = 0; i < N; i++) {
		while (bits < d) {
			acc |= (uint32_t)*in++ << bits;
			bits += 8;
		}
		v[i] = (uint16_t)(acc & ((1u << d) - 1));
		acc >>= d;
		bits -= d;
	}
}

void poly_tobytes(uint8_t out[EXKEM_POLYBYTES], const poly *a)
{
	pack(out, a->c, 12);
}

/* Values from a foreign public key may be >= q: reduce them. */
void poly_frombytes(poly *a, const uint8_t in[EXKEM_POLYBYTES])
{
	unpack(a->c, in, 12);
	for (int i = 0; i < N; i++)
		a->c[i] = (uint16_t)(a->c[i] % Q);
}

/* round(x * 2^d / q) mod 2^d */
static uint16_t compress(uint16_t x, int d)
{
	uint32_t t = ((uint32_t)x << d) + Q / 2;
	return (uint16_t)((t / Q) & ((1u << d) - 1));
}

/* round(y * q / 2^d) */
static uint16_t decompress(uint16_t y, int d)
{
	return (uint16_t)(((uint32_t)y * Q + (1u << (d - 1))) >> d);
}

void poly_compress(uint8_t *out, const poly *a, int d)
{
	uint16_t t[N];

	for (int i = 0; i < N; i++)
		t[i] = compress(a->c[i], d);
	pack(out, t, d);
}

void poly_decompress(poly *a, const uint8_t *in, int d)
{
	unpack(a->c, in, d);
	for (int i = 0; i < N; i++)
		a->c[i] = decompress(a->c[i], d);
}

/* Bit b of the message becomes b * round(q/2). */
void poly_frommsg(poly *a, const uint8_t msg[EXKEM_SYMBYTES])
{
	for (int i = 0; i < N; i++) {
		uint16_t mask = (uint16_t)-(uint16_t)get_bit(msg, (size_t)i);
		a->c[i] = mask & ((Q + 1) / 2);
	}
}

void poly_tomsg(uint8_t msg[EXKEM_SYMBYTES], const poly *a)
{
	memset(msg, 0, EXKEM_SYMBYTES);
	for (int i = 0; i < N; i++)
		msg[i >> 3] |= (uint8_t)(compress(a->c[i], 1) << (i & 7));
}
