/*
 * stats.c — docs/method.md §7.1 (seed-compatible) and the §7.2 dispersion over
 * trial means.  Trials arrive flattened over processes in execution order
 * and every sum runs in that order, so validate recomputes identical
 * doubles from the raw trials.
 */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static int double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_sort(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), double_cmp);
}

double stats_median(const double *v, size_t n)
{
	double *s, m;

	if (n == 0)
		return 0;
	s = xmalloc(n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	stats_sort(s, n);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

struct dispersion {
	double sd, cv, spread;
};

/*
 * Sample SD and CV (n − 1 denominator) around the mean of the values, and
 * spread = (max − min) / median.  One value, a zero mean or a zero median
 * gives 0 rather than a division by zero.
 */
static struct dispersion dispersion_of(const double *v, size_t n,
				       double min, double max, double median)
{
	struct dispersion d = { 0, 0, 0 };
	double sum = 0, sq = 0, mean;
	size_t i;

	for (i = 0; i < n; i++)
		sum += v[i];
	mean = sum / (double)n;
	if (n > 1) {
		for (i = 0; i < n; i++)
			sq += (v[i] - mean) * (v[i] - mean);
		d.sd = sqrt(sq / (double)(n - 1));
	}
	if (mean != 0)
		d.cv = d.sd / mean;
	if (median != 0)
		d.spread = (max - min) / median;
	return d;
}

static void min_max(const double *v, size_t n, double *min, double *max)
{
	size_t i;

	*min = *max = v[0];
	for (i = 1; i < n; i++) {
		if (v[i] < *min)
			*min = v[i];
		if (v[i] > *max)
			*max = v[i];
	}
}

/* Per-trial means; a trial without calls counts as 0 (never complete). */
static double per_call(double total, uint64_t calls)
{
	return calls ? total / (double)calls : 0;
}

static void seconds_stats(const double *mean_s, size_t n, struct timing_stats *out)
{
	struct dispersion d;

	out->median_trial_seconds = stats_median(mean_s, n);
	min_max(mean_s, n, &out->min_trial_seconds, &out->max_trial_seconds);
	d = dispersion_of(mean_s, n, out->min_trial_seconds,
			  out->max_trial_seconds, out->median_trial_seconds);
	out->sd_trial_seconds = d.sd;
	out->cv_trial_seconds = d.cv;
	out->spread_trial_seconds = d.spread;
	out->noisy = out->cv_trial_seconds > STATS_NOISY_CV;
}

static void cycles_stats(const double *mean_c, size_t n, struct timing_stats *out)
{
	struct dispersion d;
	double min, max;

	out->median_trial_cycles = stats_median(mean_c, n);
	min_max(mean_c, n, &min, &max);
	d = dispersion_of(mean_c, n, min, max, out->median_trial_cycles);
	out->sd_trial_cycles = d.sd;
	out->cv_trial_cycles = d.cv;
	out->spread_trial_cycles = d.spread;
}

void stats_compute(const struct trial *t, size_t n, struct timing_stats *out)
{
	double sum_s = 0, sum_c = 0, *mean_s, *mean_c;
	int all_cycles = 1;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	mean_s = xmalloc(n * sizeof(*mean_s));
	mean_c = xmalloc(n * sizeof(*mean_c));
	for (i = 0; i < n; i++) {
		double s = (double)t[i].ns / 1e9;

		out->measurements += t[i].calls;
		sum_s += s;
		sum_c += (double)t[i].cycles;
		if (!t[i].has_cycles || t[i].cycles == 0)
			all_cycles = 0;
		mean_s[i] = per_call(s, t[i].calls);
		mean_c[i] = per_call((double)t[i].cycles, t[i].calls);
	}
	out->guide_100_measurements_met = out->measurements >= 100;
	if (out->measurements > 0) {
		out->mean_seconds = sum_s / (double)out->measurements;
		if (all_cycles) {
			out->mean_cycles = sum_c / (double)out->measurements;
			out->has_mean_cycles = 1;
		}
	}
	if (sum_s > 0)
		out->operations_per_second = (double)out->measurements / sum_s;
	seconds_stats(mean_s, n, out);
	if (out->has_mean_cycles)
		cycles_stats(mean_c, n, out);
	free(mean_s);
	free(mean_c);
}
