/* suite.c — see suite.h: the round seeds and the round budget. */
#include "driver/check/suite.h"

#include "driver/child.h"

#include <time.h>

int check_seed_round(struct check_run *r, long round, char *out_hex)
{
	unsigned char seed[CHECK_SEED_LEN];
	for (int i = 0; i < CHECK_SEED_LEN; i++)
		seed[i] = r->base_seed[i];
	unsigned long long n = (unsigned long long)round;
	for (int i = 0; i < 8; i++)
		seed[CHECK_SEED_LEN - 1 - i] ^= (unsigned char)(n >> (8 * i));
	if (out_hex)
		child_hex(seed, CHECK_SEED_LEN, out_hex);
	return r->lib->seed(seed, CHECK_SEED_LEN) ? -1 : 0;
}

double check_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int check_next_round(struct check_run *r, long done)
{
	if (done >= r->rounds)
		return 0;
	if (r->budget_s > 0 && done > 0 && check_now() - r->started > r->budget_s) {
		r->budget_reached = 1;
		return 0;
	}
	return 1;
}

void check_each_round(struct check_run *r, void (*functional)(void *arg, long round),
		      void (*consttime)(void *arg, long round), void *arg)
{
	void (*round_fn)(void *, long) = r->suite == SUITE_CONSTTIME ? consttime : functional;
	for (long i = 0; check_next_round(r, i); i++) {
		round_fn(arg, r->first_round + i);
		r->rounds_done = i + 1;
	}
}
