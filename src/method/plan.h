/*
 * plan.h — iteration planning (docs/method.md §4), a pure function of the planning
 * constants and the calibration (t1, S).  Reproduces the seed pages'
 * "n (trials × iters)" column.
 */
#ifndef NGCC_PLAN_H
#define NGCC_PLAN_H

struct planning {
	int trials;                       /* 5 */
	double trial_target_s;            /* 1.0 */
	int min_total;                    /* 100 */
	int max_iters_per_trial;          /* 20000 */
	double op_budget_s;               /* 900 */
	double separate_process_setup_s;  /* 60 */
	int max_disturbed_retries;        /* 3 */
	int max_invol_switches_per_trial; /* 0 */
};

struct plan {
	int trials;
	long iterations_per_trial;
	int warmups;
	int separate_processes;
	int processes;
	double estimated_s;
	double timeout_per_process_s;
	double t1_s, setup_s;
	int reused_calibration;  /* 1 x 1, no warm-up: reuse the calibration */
};

void planning_defaults(struct planning *p);
/* t1: cold single-call seconds; setup_s: process setup seconds. */
void plan_compute(const struct planning *p, double t1_s, double setup_s, struct plan *out);
/* KEX single steps (docs/method.md §4.2 step 1): t1 := max(exchange t1, step t1). */
double plan_kex_step_t1(double exchange_t1_s, double step_t1_s);

#endif
