/*
 * stats.h — statistics of a timing record (docs/method.md §7), recomputable from the
 * raw trials.  Pure functions; validate uses the same code.
 */
#ifndef NGCC_STATS_H
#define NGCC_STATS_H

#include <stddef.h>
#include <stdint.h>

/* A record is `noisy` when its trial times vary more than this (CV). */
#define STATS_NOISY_CV 0.02

struct trial {
	uint64_t calls;
	uint64_t ns;
	uint64_t cycles;   /* 0 when no counter */
	int has_cycles;
};

struct timing_stats {
	uint64_t measurements;          /* N = sum of calls */
	int guide_100_measurements_met; /* N >= 100 */
	double mean_seconds;            /* sum s / N */
	double mean_cycles;             /* sum c / N, valid if has_mean_cycles */
	int has_mean_cycles;            /* all c_i > 0 */
	double operations_per_second;   /* N / sum s */
	double median_trial_seconds;    /* median of s_i/n_i */
	double min_trial_seconds, max_trial_seconds;
	double median_trial_cycles;     /* valid if has_mean_cycles */
	/* dispersion (R4) over trial means */
	double sd_trial_seconds, cv_trial_seconds, spread_trial_seconds;
	double sd_trial_cycles, cv_trial_cycles, spread_trial_cycles;
	int noisy;                      /* cv_trial_seconds > STATS_NOISY_CV */
};

/* Sums in the given order (execution order).  n must be >= 1. */
void stats_compute(const struct trial *t, size_t n, struct timing_stats *out);
/* Median of v (sorted copy; mean of the two middle values when even). */
double stats_median(const double *v, size_t n);
/* Sort v ascending in place. */
void stats_sort(double *v, size_t n);

#endif
