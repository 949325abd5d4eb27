/*
 * poly.c — arithmetic, sampling and encoding of polynomials.
 */
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

void poly_add(poly *r, const poly *a, const poly *b)
{
	for (int i = 0; i < N; i++) {
		unsigned s = (unsigned)a->c[i] + b->c[i];
		r->c[i] = (uint16_t)(s >= Q ? s - Q : s);
	}
}

void poly_sub(poly *r, const poly *a, const poly *b)
{
	for (int i = 0; i < N; i++) {
		unsigned s = (unsigned)a->c[i] + Q - b->c[i];
		r->c[i] = (uint16_t)(s >= Q ? s - Q : s);
	}
}

/*
 * Products with i + j < N land on X^(i+j); the others wrap around with a
 * minus sign since X^N = -1.  Both sums stay below 256 * (q-1)^2 < 2^32.
 */
void poly_mul_acc(poly *r, const poly *a, const poly *b)
{
	uint32_t pos[N], neg[N];

	memset(pos, 0, sizeof(pos));
	memset(neg, 0, sizeof(neg));
	for (int i = 0; i < N; i++) {
		uint32_t ai = a->c[i];
		for (int j = 0; j < N - i; j++)
			pos[i + j] += ai * b->c[j];
		for (int j = N - i; j < N; j++)
			neg[i + j - N] += ai * b->c[j];
	}
	for (int k = 0; k < N; k++) {
		uint32_t t = r->c[k] + pos[k] % Q + Q - neg[k] % Q;
		r->c[k] = (uint16_t)(t % Q);
	}
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
