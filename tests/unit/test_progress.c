/*
 * test_progress.c — the ETA of campaign/progress.c on made-up phases (no
 * clock: the finished units' figures are set as the phase would set them).
 * Cheapest units run first; when every unit takes a fixed time beyond its
 * plan estimate (process start-up, evidence writes), or a multiple of it
 * (disturbed processes retried), the predicted total never jumps between
 * two units by more than 2x — the old elapsed x (estimate left / estimate
 * done) jumped by 10x on the first case.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include "campaign/progress.h"

static const double est[] = { 0.05, 0.05, 0.1, 0.1, 0.2, 0.4, 1, 2, 4, 8 };
#define N ((int)(sizeof est / sizeof est[0]))

/* Run the phase with actual(i) = est[i] * factor + beyond; returns the
 * largest ratio between two consecutive predicted totals (elapsed + ETA)
 * and sets *last to the last prediction and *truth to the real total. */
static double worst_jump(double factor, double beyond, double *last, double *truth)
{
	struct progress p = { 0 };
	double total_est = 0, elapsed = 0, prev = 0, worst = 1;
	for (int i = 0; i < N; i++)
		total_est += est[i];
	p.total = N;
	p.est_total = total_est;
	for (int i = 0; i < N; i++) {
		double eta = progress_eta(&p);
		if (i == 0) {
			assert_true(eta < 0); /* nothing known before a unit finished */
		} else {
			double predicted = elapsed + eta;
			if (prev > 0) {
				double r = predicted > prev ? predicted / prev : prev / predicted;
				if (r > worst)
					worst = r;
			}
			prev = predicted;
			*last = predicted;
		}
		double took = est[i] * factor + beyond;
		elapsed += took;
		p.n_done++;
		p.est_done += est[i];
		p.spent_done += took;
	}
	*truth = elapsed;
	return worst;
}

static void test_fixed_time_beyond_plan(void **state)
{
	(void)state;
	double last, truth;
	double jump = worst_jump(1.0, 0.7, &last, &truth);
	assert_true(jump < 2.0);
	/* a constant overhead is learnt exactly */
	assert_true(last > truth * 0.99 && last < truth * 1.01);
}

static void test_retried_processes(void **state)
{
	(void)state;
	double last, truth;
	double jump = worst_jump(4.0, 0.0, &last, &truth);
	assert_true(jump < 2.0);
	assert_true(last > truth / 2 && last < truth * 2);
}

static void test_plan_exact(void **state)
{
	(void)state;
	double last, truth;
	assert_true(worst_jump(1.0, 0.0, &last, &truth) < 1.0001);
	assert_true(last > truth * 0.999 && last < truth * 1.001);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_time_beyond_plan),
		cmocka_unit_test(test_retried_processes),
		cmocka_unit_test(test_plan_exact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
