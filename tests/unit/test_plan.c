/*
 * test_plan.c — docs/method.md §4.2 planning: every row of the §4.3 n-column table,
 * the seed examples, the boundaries of each rule, and the derived fields.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <cmocka.h>

#include "method/plan.h"

/* cmocka here has only a float comparison; doubles need their own. */
#define assert_double_equal(a, b, eps) do { \
		double a_ = (a), b_ = (b); \
		if (!(fabs(a_ - b_) <= (eps))) \
			fail_msg("%s = %.17g, expected %.17g", #a, a_, b_); \
	} while (0)

static struct plan plan_for(double t1, double setup)
{
	struct planning p;
	struct plan out;

	planning_defaults(&p);
	plan_compute(&p, t1, setup, &out);
	return out;
}

#define assert_plan(t1, T, I) do { \
		struct plan pl_ = plan_for((t1), 0.01); \
		assert_int_equal(pl_.trials, (T)); \
		assert_int_equal(pl_.iterations_per_trial, (I)); \
	} while (0)

static void test_defaults(void **state)
{
	struct planning p;

	(void)state;
	planning_defaults(&p);
	assert_int_equal(p.trials, 5);
	assert_true(p.trial_target_s == 1.0);
	assert_int_equal(p.min_total, 100);
	assert_int_equal(p.max_iters_per_trial, 20000);
	assert_true(p.op_budget_s == 900);
	assert_true(p.separate_process_setup_s == 60);
	assert_int_equal(p.max_disturbed_retries, 3);
	assert_int_equal(p.max_invol_switches_per_trial, 0);
}

/* ≤ 50 µs: the 20000 cap (CTL-257-512 enc, 29.1 µs). */
static void test_cap(void **state)
{
	(void)state;
	assert_plan(0, 5, 20000);        /* clamped to 1e-8 */
	assert_plan(1e-9, 5, 20000);
	assert_plan(29.1e-6, 5, 20000);
	assert_plan(49.99e-6, 5, 20000);
	assert_plan(50e-6, 5, 20000);
	assert_plan(50.01e-6, 5, 19997);
}

/* 50 µs – 50 ms: 5 · ⌈1/t1⌉, with the seed pages' ranges. */
static void test_target_range(void **state)
{
	(void)state;
	/*
	 * CTL-257-512 dec: 28460 (5 × 5692).  The method's "175.69 ≤ t1 <
	 * 175.72 µs" is rounded: exactly 1/5692 ≤ t1 < 1/5691, i.e.
	 * 175.685… ≤ t1 < 175.716… µs.
	 */
	assert_plan(175.69e-6, 5, 5692);
	assert_plan(175.70e-6, 5, 5692);
	assert_plan(175.716e-6, 5, 5692);
	assert_plan(175.684e-6, 5, 5693);
	assert_plan(175.717e-6, 5, 5691);
	/* Mito-1-128 keygen: 825 (5 × 165), 6.061 ≤ t1 < 6.098 ms */
	assert_plan(6.060e-3, 5, 166);
	assert_plan(6.061e-3, 5, 165);
	assert_plan(6.08e-3, 5, 165);
	assert_plan(6.0975e-3, 5, 165);
	assert_plan(6.098e-3, 5, 164);
	/* just below the floor */
	assert_plan(0.0499, 5, 21);
}

/* 50 ms ≤ t1 ≤ 9 s: the floor of 20 (Mito-1-512 keygen, hep-qc-7 ≈ 2 s). */
static void test_floor(void **state)
{
	(void)state;
	assert_plan(0.05, 5, 20);
	assert_plan(0.5, 5, 20);
	assert_plan(1.03, 5, 20);
	assert_plan(2.0, 5, 20);
	assert_plan(9.0, 5, 20);
}

/* 9 – 180 s: 5 × ⌊180/t1⌋ (budget rule 4). */
static void test_budget_iterations(void **state)
{
	(void)state;
	assert_plan(9.01, 5, 19);
	assert_plan(23, 5, 7);
	assert_plan(90, 5, 2);
	assert_plan(179.9, 5, 1);
	assert_plan(180, 5, 1);
}

/* 180 – 450 s: ⌊900/t1⌋ × 1; > 450 s: 1 × 1. */
static void test_budget_trials(void **state)
{
	(void)state;
	assert_plan(180.1, 4, 1);
	assert_plan(200, 4, 1);
	assert_plan(225, 4, 1);
	assert_plan(300, 3, 1);
	assert_plan(450, 2, 1);
	assert_plan(450.1, 1, 1);
	assert_plan(5000, 1, 1);
}

static void test_warmups(void **state)
{
	(void)state;
	assert_int_equal(plan_for(0.0499, 1).warmups, 3);
	assert_int_equal(plan_for(0.05, 1).warmups, 1);
	assert_int_equal(plan_for(4.99, 1).warmups, 1);
	assert_int_equal(plan_for(5.0, 1).warmups, 0);
}

static void test_process_mode(void **state)
{
	struct plan a = plan_for(0.5, 59.9), b = plan_for(0.5, 60);

	(void)state;
	assert_true(a.separate_processes);
	assert_int_equal(a.processes, 5);
	assert_false(b.separate_processes);
	assert_int_equal(b.processes, 1);
}

/* estimated_s and the hard timeout, worked by hand. */
static void test_estimate_and_timeout(void **state)
{
	struct plan sep = plan_for(0.5, 0.2), shared = plan_for(0.5, 100);

	(void)state;
	/* 5·20·0.5 + 5·(1·0.5 + 0.2) */
	assert_double_equal(sep.estimated_s, 53.5, 1e-9);
	/* 3·(20·1 + 1)·0.5 + 3·0.2 + 300 */
	assert_double_equal(sep.timeout_per_process_s, 332.1, 1e-9);
	/* 5·20·0.5 + 1·(1·0.5 + 100) */
	assert_double_equal(shared.estimated_s, 150.5, 1e-9);
	/* 3·(20·5 + 1)·0.5 + 3·100 + 300 */
	assert_double_equal(shared.timeout_per_process_s, 751.5, 1e-9);
	assert_true(sep.t1_s == 0.5 && sep.setup_s == 0.2);
}

/* The clamped t1 drives the estimate, the recorded t1 stays as measured. */
static void test_clamp(void **state)
{
	struct plan p = plan_for(0, 0.01);

	(void)state;
	assert_true(p.t1_s == 0);
	assert_double_equal(p.estimated_s, 5 * 20000 * 1e-8 + 5 * (3 * 1e-8 + 0.01), 1e-15);
}

static void test_reused_calibration(void **state)
{
	(void)state;
	assert_true(plan_for(500, 0.01).reused_calibration);
	assert_false(plan_for(300, 0.01).reused_calibration);
	/* 1 × 1 is impossible with a warm-up under the defaults; force one. */
	{
		struct planning p;
		struct plan out;

		planning_defaults(&p);
		p.op_budget_s = 1;
		plan_compute(&p, 2.0, 0.01, &out);
		assert_int_equal(out.trials, 1);
		assert_int_equal(out.iterations_per_trial, 1);
		assert_int_equal(out.warmups, 1);
		assert_false(out.reused_calibration);
	}
}

static void test_other_constants(void **state)
{
	struct planning p;
	struct plan out;

	(void)state;
	planning_defaults(&p);
	p.trials = 3;
	p.trial_target_s = 0.5;
	plan_compute(&p, 1e-3, 0.01, &out);
	assert_int_equal(out.trials, 3);
	assert_int_equal(out.iterations_per_trial, 500);
	plan_compute(&p, 0.1, 0.01, &out);     /* floor ⌈100/3⌉ = 34 */
	assert_int_equal(out.iterations_per_trial, 34);
	p.op_budget_s = 60;
	plan_compute(&p, 1.0, 0.01, &out);     /* ⌊60/(3·1)⌋ = 20 */
	assert_int_equal(out.iterations_per_trial, 20);
}

static void test_kex_step(void **state)
{
	(void)state;
	assert_true(plan_kex_step_t1(0.002, 1e-7) == 0.002);
	assert_true(plan_kex_step_t1(1e-3, 2e-3) == 2e-3);
	/* a cheap step is planned like its exchange */
	assert_int_equal(plan_for(plan_kex_step_t1(0.002, 1e-7), 0.01).iterations_per_trial, 500);
}

/* R7 with a measured background rate. */
static void test_disturbance_allowance(void **state)
{
	(void)state;
	/* A quiet host: the plain threshold. */
	assert_int_equal(plan_disturbance_allowance(0, 0, 1.0), 0);
	assert_int_equal(plan_disturbance_allowance(2, 0, 5.0), 2);
	/* r·s = 100: 100 + 3·10 = 130. */
	assert_int_equal(plan_disturbance_allowance(0, 100, 1.0), 130);
	assert_int_equal(plan_disturbance_allowance(0, 50, 2.0), 130);
	/* r·s = 2: 2 + 3·1.414.. = 6.24.. → 7; plus the base. */
	assert_int_equal(plan_disturbance_allowance(1, 4, 0.5), 8);
	/* Nonsense inputs never lower the threshold. */
	assert_int_equal(plan_disturbance_allowance(0, -5, 1.0), 0);
	assert_int_equal(plan_disturbance_allowance(0, 10, -1.0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disturbance_allowance),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_target_range),
		cmocka_unit_test(test_floor),
		cmocka_unit_test(test_budget_iterations),
		cmocka_unit_test(test_budget_trials),
		cmocka_unit_test(test_warmups),
		cmocka_unit_test(test_process_mode),
		cmocka_unit_test(test_estimate_and_timeout),
		cmocka_unit_test(test_clamp),
		cmocka_unit_test(test_reused_calibration),
		cmocka_unit_test(test_other_constants),
		cmocka_unit_test(test_kex_step),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
