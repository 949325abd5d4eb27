/*
 * pool.h — R2 input pools in the timing driver (docs/method.md §14): P
 * inputs prepared untimed, each in a state of its own, input k made after
 * seeding the DRNG with seed_indexed(k) (method/seeds.h) and, where the
 * type has fixed inputs of its own (a signature's message, a hash's
 * message), with those of input k (struct op_type's pool_input).  What an
 * input is, per type: keygen its DRNG seed; KEM enc the public key;
 * KEM dec the ciphertext; signature sign the key and message; verify the
 * key, message and signature; hash the message contents at the same
 * length; a key exchange (whole or one step) the exchange its seed makes.
 * Before every batch of calls on input k the DRNG is seeded with its seed
 * again (untimed), so each batch of an input does the same work.
 */
#ifndef NGCC_DRIVER_POOL_H
#define NGCC_DRIVER_POOL_H

#include "driver/ops.h"
#include "method/seeds.h"

/* The most inputs a pool may have. */
#define POOL_MAX_INPUTS 64

struct pool_set {
	long n;                  /* inputs prepared */
	void *st[POOL_MAX_INPUTS];
};

/* Prepare n inputs (1 <= n <= POOL_MAX_INPUTS) in c's operation; c->st is
 * left NULL.  0, or -1 with ops_failure() set (the states made so far are
 * freed). */
int pool_setup(struct op_ctx *c, long n, struct pool_set *ps);
/* Make input k current: its state, and the DRNG seeded with its seed. */
void pool_use(struct op_ctx *c, const struct pool_set *ps, long k);
/* Free every state (c->st NULL afterwards). */
void pool_free(struct op_ctx *c, struct pool_set *ps);

#endif
