/*
 * robust.c — docs/method.md §7.2 robust statistics of per-call samples.  The
 * bootstrap generator is seeded from the operation's name so the CI is
 * deterministic and validate can recompute it.
 */
#include "stats/robust.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static double *sorted_copy(const double *v, size_t n)
{
	double *s = xmalloc((n ? n : 1) * sizeof(*s));

	if (n)
		memcpy(s, v, n * sizeof(*s));
	stats_sort(s, n);
	return s;
}

static double median_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double robust_percentile_sorted(const double *sorted, size_t n, double p)
{
	double h, frac;
	size_t lo;

	if (n == 0)
		return 0;
	h = p * (double)(n - 1);
	if (h <= 0)
		return sorted[0];
	lo = (size_t)floor(h);
	if (lo >= n - 1)
		return sorted[n - 1];
	frac = h - (double)lo;
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

uint64_t splitmix64_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t robust_bootstrap_seed(const char *cand, const char *label, const char *opkey)
{
	char *key = xasprintf("%s/%s/%s", cand, label, opkey);
	char hex[65];

	sha256_hex(key, strlen(key), hex);
	free(key);
	hex[16] = '\0';     /* 16 hex digits = the first 8 bytes, big-endian */
	return strtoull(hex, NULL, 16);
}

/* Mean of sorted[⌊n/4⌋ … ⌈3n/4⌉ − 1], summed in sorted order. */
static double interquartile_mean(const double *s, size_t n)
{
	size_t lo = n / 4, hi = (3 * n + 3) / 4, i;
	double sum = 0;

	if (hi <= lo)
		return median_sorted(s, n);
	for (i = lo; i < hi; i++)
		sum += s[i];
	return sum / (double)(hi - lo);
}

static void mad_and_outliers(const double *s, size_t n, struct robust_stats *out)
{
	double *dev = xmalloc(n * sizeof(*dev));
	size_t i;

	for (i = 0; i < n; i++)
		dev[i] = fabs(s[i] - out->median);
	stats_sort(dev, n);
	out->mad = median_sorted(dev, n);
	out->outliers = 0;
	if (out->mad > 0)
		for (i = 0; i < n; i++)
			if (0.6745 * fabs(s[i] - out->median) / out->mad > ROBUST_OUTLIER_Z)
				out->outliers++;
	free(dev);
}

/* Put the k-th smallest of v[0..n) at v[k], smaller ones before it and
 * larger ones after (quickselect): a resample's median without sorting
 * it, so the 2000 resamples of a sample record cost little. */
static void select_kth(double *v, size_t n, size_t kk)
{
	long lo = 0, hi = (long)n - 1, k = (long)kk;
	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2];
		long i = lo, j = hi;
		while (i <= j) {     /* Hoare: [lo, j] ≤ pivot ≤ [i, hi] after */
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				double t = v[i];
				v[i++] = v[j];
				v[j--] = t;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;      /* between j and i: equal to the pivot */
	}
}

/* The median of v[0..n) (n ≥ 1), reordering v: the same value as
 * median_sorted() of the sorted values. */
static double median_unsorted(double *v, size_t n)
{
	size_t k = n / 2;
	select_kth(v, n, k);
	if (n % 2)
		return v[k];
	double below = v[0];
	for (size_t i = 1; i < k; i++)
		if (v[i] > below)
			below = v[i];
	return (below + v[k]) / 2;
}

static void bootstrap_ci(const double *v, size_t n, uint64_t seed, struct robust_stats *out)
{
	double *medians = xmalloc(ROBUST_BOOTSTRAP_RESAMPLES * sizeof(*medians));
	double *resample = xmalloc(n * sizeof(*resample));
	uint64_t state = seed;
	size_t r, i;

	for (r = 0; r < ROBUST_BOOTSTRAP_RESAMPLES; r++) {
		for (i = 0; i < n; i++)
			resample[i] = v[splitmix64_next(&state) % n];
		medians[r] = median_unsorted(resample, n);
	}
	stats_sort(medians, ROBUST_BOOTSTRAP_RESAMPLES);
	out->ci95_low = robust_percentile_sorted(medians, ROBUST_BOOTSTRAP_RESAMPLES, 0.025);
	out->ci95_high = robust_percentile_sorted(medians, ROBUST_BOOTSTRAP_RESAMPLES, 0.975);
	free(resample);
	free(medians);
}

void robust_compute(const double *v, size_t n, uint64_t seed, struct robust_stats *out)
{
	double *s;

	memset(out, 0, sizeof(*out));
	out->n = n;
	out->bootstrap_seed = seed;
	if (n == 0)
		return;
	s = sorted_copy(v, n);
	out->median = median_sorted(s, n);
	out->iqm = interquartile_mean(s, n);
	out->p1 = robust_percentile_sorted(s, n, 0.01);
	out->p5 = robust_percentile_sorted(s, n, 0.05);
	out->p25 = robust_percentile_sorted(s, n, 0.25);
	out->p75 = robust_percentile_sorted(s, n, 0.75);
	out->p95 = robust_percentile_sorted(s, n, 0.95);
	out->p99 = robust_percentile_sorted(s, n, 0.99);
	mad_and_outliers(s, n, out);
	/* Resample from the input order so the draw does not depend on qsort. */
	bootstrap_ci(v, n, seed, out);
	free(s);
}

int stats_throughput_mb_per_s(const struct trial *t, size_t n, uint64_t message_bytes,
			      double *out)
{
	double sum_s = 0;
	uint64_t calls = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		sum_s += (double)t[i].ns / 1e9;
		calls += t[i].calls;
	}
	if (!(sum_s > 0))
		return -1;
	*out = (double)message_bytes * (double)calls / sum_s / 1e6;
	return 0;
}
