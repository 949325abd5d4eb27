/*
 * plan.c — docs/method.md §4.2 iteration planning.  IEEE double arithmetic in the
 * order the method states it, so the seed pages' n column is reproduced
 * exactly (e.g. t1 = 175.70 µs → 5 × 5692).
 */
#include "method/plan.h"

#include <math.h>
#include <string.h>

#define PLAN_MIN_T1_S 1e-8

void planning_defaults(struct planning *p)
{
	p->trials = 5;
	p->trial_target_s = 1.0;
	p->min_total = 100;
	p->max_iters_per_trial = 20000;
	p->op_budget_s = 900;
	p->separate_process_setup_s = 60;
	p->max_disturbed_retries = 3;
	p->max_invol_switches_per_trial = 0;
	p->warm_calibration = 0;
}

long plan_disturbance_allowance(long base, double rate_per_s, double trial_s)
{
	double lambda = rate_per_s > 0 && trial_s > 0 ? rate_per_s * trial_s : 0;
	return base + (long)ceil(lambda + 3 * sqrt(lambda));
}

double plan_kex_step_t1(double exchange_t1_s, double step_t1_s)
{
	return exchange_t1_s > step_t1_s ? exchange_t1_s : step_t1_s;
}

/* Steps 2–4: calls per trial. */
static long plan_iterations(const struct planning *p, double t1)
{
	double T = p->trials, B = p->op_budget_s;
	double iters = ceil(p->trial_target_s / t1);
	double floor_iters = ceil((double)p->min_total / T);

	if (floor_iters > iters)
		iters = floor_iters;
	if (iters > p->max_iters_per_trial)
		iters = p->max_iters_per_trial;
	if (T * iters * t1 > B) {
		iters = floor(B / (T * t1));
		if (iters < 1)
			iters = 1;
	}
	return (long)iters;
}

/* Step 5: trials within the budget. */
static int plan_trials(const struct planning *p, double t1)
{
	double T = p->trials, B = p->op_budget_s, trials;

	if (T * t1 <= B)
		return p->trials;
	trials = floor(B / t1);
	return trials < 1 ? 1 : (int)trials;
}

/* Step 6. */
static int plan_warmups(double t1)
{
	if (t1 < 0.05)
		return 3;
	if (t1 < 5)
		return 1;
	return 0;
}

void plan_compute(const struct planning *p, double t1_s, double setup_s, struct plan *out)
{
	double t1 = t1_s > PLAN_MIN_T1_S ? t1_s : PLAN_MIN_T1_S;
	double S = setup_s;
	double timed_calls;

	memset(out, 0, sizeof(*out));
	out->t1_s = t1_s;
	out->setup_s = setup_s;
	out->iterations_per_trial = plan_iterations(p, t1);
	out->trials = plan_trials(p, t1);
	out->warmups = plan_warmups(t1);
	out->separate_processes = S < p->separate_process_setup_s;
	out->processes = out->separate_processes ? out->trials : 1;
	out->estimated_s = (double)out->trials * (double)out->iterations_per_trial * t1
		+ (double)out->processes * ((double)out->warmups * t1 + S);
	timed_calls = (double)out->iterations_per_trial
		* (out->separate_processes ? 1.0 : (double)out->trials);
	out->timeout_per_process_s = 3 * (timed_calls + out->warmups) * t1 + 3 * S + 300;
	out->reused_calibration = out->trials == 1 && out->iterations_per_trial == 1
		&& out->warmups == 0;
}
