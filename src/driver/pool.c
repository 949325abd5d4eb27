/* pool.c — see pool.h: the states of an R2 input pool. */
#include "driver/pool.h"

#include <stdio.h>
#include <string.h>

static void reseed(struct op_ctx *c, long k)
{
	unsigned char seed[SEED_BYTES];
	seed_indexed((unsigned)k, seed);
	c->lib.seed(seed, SEED_BYTES);
}

int pool_setup(struct op_ctx *c, long n, struct pool_set *ps)
{
	memset(ps, 0, sizeof *ps);
	if (n < 1 || n > POOL_MAX_INPUTS) {
		ops_set_failure("an input pool has 1 to %d inputs, not %ld", POOL_MAX_INPUTS, n);
		return -1;
	}
	for (long k = 0; k < n; k++) {
		c->st = NULL;
		reseed(c, k);
		if (c->type->alloc(c)) {
			/* alloc leaves c->st set when only a buffer failed */
			if (c->st)
				c->type->release(c);
			c->st = NULL;
			pool_free(c, ps);
			return -1;
		}
		if (c->type->pool_input)
			c->type->pool_input(c, (unsigned)k);
		ps->st[k] = c->st;
		ps->n = k + 1;
		if (c->type->setup(c)) {
			char why[512];
			snprintf(why, sizeof why, "%s", ops_failure());
			pool_free(c, ps);
			ops_set_failure("pool input %ld: %s", k, why);
			return -1;
		}
	}
	c->st = NULL;
	return 0;
}

void pool_use(struct op_ctx *c, const struct pool_set *ps, long k)
{
	c->st = ps->st[k];
	reseed(c, k);
}

void pool_free(struct op_ctx *c, struct pool_set *ps)
{
	for (long k = 0; k < ps->n; k++) {
		c->st = ps->st[k];
		if (c->st)
			c->type->release(c);
		ps->st[k] = NULL;
	}
	ps->n = 0;
	c->st = NULL;
}
