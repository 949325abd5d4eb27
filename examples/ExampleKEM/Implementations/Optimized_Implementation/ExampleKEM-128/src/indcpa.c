/*
 * indcpa.c — module-LWE public-key encryption.
 *
 *   keygen:  A = Expand(rho), t = A s + e;           pk = (t, rho), sk = s
 *   enc:     u = A^T r + e1, v = <t, r> + e2 + Encode(m)
 *   dec:     m = Decode(v - <s, u>)
 *
 * Matrix entries are expanded one at a time, right where they are used, so
 * no instance keeps the whole matrix in memory.
 */
#include <string.h>

#include "indcpa.h"
#include "poly.h"
#include "symmetric.h"

static void polyvec_tobytes(uint8_t *out, const polyvec *v)
{
	for (int i = 0; i < EXKEM_K; i++)
		poly_tobytes(out + i * EXKEM_POLYBYTES, &v->p[i]);
}

static void polyvec_frombytes(polyvec *v, const uint8_t *in)
{
	for (int i = 0; i < EXKEM_K; i++)
		poly_frombytes(&v->p[i], in + i * EXKEM_POLYBYTES);
}

/* K noise polynomials with nonces first, first+1, ... */
static int polyvec_noise(polyvec *v, const uint8_t seed[EXKEM_SYMBYTES],
			 int first, int eta)
{
	for (int i = 0; i < EXKEM_K; i++)
		if (poly_noise(&v->p[i], seed, (uint8_t)(first + i), eta))
			return -2;
	return 0;
}

/* r = A x (transposed: r = A^T x) */
static int matrix_mul(polyvec *r, const uint8_t rho[EXKEM_SYMBYTES],
		      const polyvec *x, int transposed)
{
	poly a;

	for (int i = 0; i < EXKEM_K; i++) {
		poly_zero(&r->p[i]);
		for (int j = 0; j < EXKEM_K; j++) {
			int rc = transposed ? poly_uniform(&a, rho, (uint8_t)j, (uint8_t)i)
					    : poly_uniform(&a, rho, (uint8_t)i, (uint8_t)j);
			if (rc)
				return rc;
			poly_mul_acc(&r->p[i], &a, &x->p[j]);
		}
	}
	return 0;
}

static void inner_product(poly *r, const polyvec *a, const polyvec *b)
{
	poly_zero(r);
	for (int i = 0; i < EXKEM_K; i++)
		poly_mul_acc(r, &a->p[i], &b->p[i]);
}

int indcpa_keypair(uint8_t pk[EXKEM_PKE_PKBYTES], uint8_t sk[EXKEM_PKE_SKBYTES],
		   const uint8_t d[EXKEM_SYMBYTES])
{
	uint8_t seeds[2 * EXKEM_SYMBYTES]; /* rho || sigma */
	const uint8_t *rho = seeds, *sigma = seeds + EXKEM_SYMBYTES;
	polyvec s, e, t;

	if (exkem_xof(seeds, sizeof(seeds), EXKEM_TAG_SEEDS, d, EXKEM_SYMBYTES, NULL, 0) ||
	    polyvec_noise(&s, sigma, 0, EXKEM_ETA1) ||
	    polyvec_noise(&e, sigma, EXKEM_K, EXKEM_ETA1) ||
	    matrix_mul(&t, rho, &s, 0))
		return -2;
	for (int i = 0; i < EXKEM_K; i++)
		poly_add(&t.p[i], &t.p[i], &e.p[i]);

	polyvec_tobytes(pk, &t);
	memcpy(pk + EXKEM_POLYVECBYTES, rho, EXKEM_SYMBYTES);
	polyvec_tobytes(sk, &s);
	return 0;
}

int indcpa_enc(uint8_t ct[EXKEM_CTBYTES], const uint8_t pk[EXKEM_PKE_PKBYTES],
	       const uint8_t msg[EXKEM_SYMBYTES], const uint8_t coins[EXKEM_SYMBYTES])
{
	const uint8_t *rho = pk + EXKEM_POLYVECBYTES;
	polyvec t, r, e1, u;
	poly e2, v, m;

	polyvec_frombytes(&t, pk);
	if (polyvec_noise(&r, coins, 0, EXKEM_ETA1) ||
	    polyvec_noise(&e1, coins, EXKEM_K, EXKEM_ETA2) ||
	    poly_noise(&e2, coins, 2 * EXKEM_K, EXKEM_ETA2) ||
	    matrix_mul(&u, rho, &r, 1))
		return -2;
	for (int i = 0; i < EXKEM_K; i++)
		poly_add(&u.p[i], &u.p[i], &e1.p[i]);
	inner_product(&v, &t, &r);
	poly_frommsg(&m, msg);
	poly_add(&v, &v, &e2);
	poly_add(&v, &v, &m);

	for (int i = 0; i < EXKEM_K; i++)
		poly_compress(ct + i * EXKEM_UBYTES, &u.p[i], EXKEM_DU);
	poly_compress(ct + EXKEM_K * EXKEM_UBYTES, &v, EXKEM_DV);
	return 0;
}

void indcpa_dec(uint8_t msg[EXKEM_SYMBYTES], const uint8_t ct[EXKEM_CTBYTES],
		const uint8_t sk[EXKEM_PKE_SKBYTES])
{
	polyvec s, u;
	poly v, w;

	for (int i = 0; i < EXKEM_K; i++)
		poly_decompress(&u.p[i], ct + i * EXKEM_UBYTES, EXKEM_DU);
	poly_decompress(&v, ct + EXKEM_K * EXKEM_UBYTES, EXKEM_DV);
	polyvec_frombytes(&s, sk);
	inner_product(&w, &s, &u);
	poly_sub(&w, &v, &w);
	poly_tomsg(msg, &w);
}
