/*
 * poly.h — polynomials in Z_q[X]/(X^N + 1) and vectors of them.
 * Coefficients are always kept fully reduced, in [0, q).
 */
#ifndef EXKEM_POLY_H
#define EXKEM_POLY_H

#include <stdint.h>
#include "params.h"

typedef struct {
	uint16_t c[EXKEM_N];
} poly;

typedef struct {
	poly p[EXKEM_K];
} polyvec;

#define poly_zero EXKEM_NS(poly_zero)
#define poly_add EXKEM_NS(poly_add)
#define poly_sub EXKEM_NS(poly_sub)
#define poly_mul_acc EXKEM_NS(poly_mul_acc)
#define poly_uniform EXKEM_NS(poly_uniform)
#define poly_noise EXKEM_NS(poly_noise)
#define poly_tobytes EXKEM_NS(poly_tobytes)
#define poly_frombytes EXKEM_NS(poly_frombytes)
#define poly_compress EXKEM_NS(poly_compress)
#define poly_decompress EXKEM_NS(poly_decompress)
#define poly_frommsg EXKEM_NS(poly_frommsg)
#define poly_tomsg EXKEM_NS(poly_tomsg)

void poly_zero(poly *r);
void poly_add(poly *r, const poly *a, const poly *b);
void poly_sub(poly *r, const poly *a, const poly *b);
/* r += a * b modulo X^N + 1, through the number-theoretic transform. */
void poly_mul_acc(poly *r, const poly *a, const poly *b);

/* Uniform polynomial number (i, j) of the public matrix from rho. */
int poly_uniform(poly *a, const uint8_t rho[EXKEM_SYMBYTES], uint8_t i, uint8_t j);
/* Centred binomial noise with parameter eta from (seed, nonce). */
int poly_noise(poly *a, const uint8_t seed[EXKEM_SYMBYTES], uint8_t nonce, int eta);

void poly_tobytes(uint8_t out[EXKEM_POLYBYTES], const poly *a);
void poly_frombytes(poly *a, const uint8_t in[EXKEM_POLYBYTES]);
/* Keep d bits per coefficient: N * d / 8 bytes. */
void poly_compress(uint8_t *out, const poly *a, int d);
void poly_decompress(poly *a, const uint8_t *in, int d);

void poly_frommsg(poly *a, const uint8_t msg[EXKEM_SYMBYTES]);
void poly_tomsg(uint8_t msg[EXKEM_SYMBYTES], const poly *a);

#endif
