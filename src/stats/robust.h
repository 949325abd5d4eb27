/*
 * robust.h — docs/method.md §7.2 robust statistics of the per-call sampling pass
 * (R11), plus the hash throughput of §7.1.  Pure functions, recomputable
 * from the stored samples; validate uses the same code.
 */
#ifndef NGCC_STATS_ROBUST_H
#define NGCC_STATS_ROBUST_H

#include <stddef.h>
#include <stdint.h>

#include "stats/stats.h"

#define ROBUST_BOOTSTRAP_RESAMPLES 2000
#define ROBUST_OUTLIER_Z 3.5

struct robust_stats {
	size_t n;
	double median;
	double iqm;        /* mean of sorted[⌊n/4⌋ … ⌈3n/4⌉ − 1] */
	double p1, p5, p25, p75, p95, p99;
	double mad;        /* median of |x − median|, unscaled */
	size_t outliers;   /* |0.6745 (x − median) / MAD| > 3.5; 0 if MAD = 0 */
	double ci95_low, ci95_high;   /* bootstrap CI of the median */
	uint64_t bootstrap_seed;
};

/*
 * Percentile p ∈ [0, 1] of sorted values by linear interpolation between
 * the closest ranks: rank h = p·(n − 1) counted from 0, value
 * s[⌊h⌋] + (h − ⌊h⌋)(s[⌊h⌋ + 1] − s[⌊h⌋]) (so P0 = min and P100 = max).
 */
double robust_percentile_sorted(const double *sorted, size_t n, double p);

/* First 8 bytes (big-endian) of SHA-256("<cand>/<label>/<opkey>"). */
uint64_t robust_bootstrap_seed(const char *cand, const char *label, const char *opkey);

/* splitmix64: advances *state and returns the next output. */
uint64_t splitmix64_next(uint64_t *state);

/*
 * All §7.2 robust statistics of v[0..n) (n ≥ 1; v is not modified).
 * Bootstrap: 2000 resamples of n values drawn with replacement from v in
 * its given (stored) order, index = splitmix64 output mod n, one generator
 * seeded with `seed` for all draws (resample by resample); the CI is the
 * 2.5 % and 97.5 % percentiles (rule above) of the 2000 resample medians.
 */
void robust_compute(const double *v, size_t n, uint64_t seed, struct robust_stats *out);

/* Hash throughput L·N / Σsᵢ / 1e6 (docs/method.md §7.1), sums in trial order,
 * into *out: 0, or -1 when the trials hold no time (no trials, Σsᵢ = 0) and
 * a record has no throughput.  record.c and validate both call it. */
int stats_throughput_mb_per_s(const struct trial *t, size_t n, uint64_t message_bytes,
			      double *out);

#endif
