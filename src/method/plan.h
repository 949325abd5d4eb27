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
	int warm_calibration;             /* 0; R17: t1 = median of 3 warm calls */
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
/* R7 with a measured background (src/host/background.h): the involuntary
 * switches (or migrations) a trial of trial_s seconds may show before it is
 * disturbed, base + ceil(r·s + 3·sqrt(r·s)) for a background rate r per
 * second; r = 0 gives base, the plain threshold. */
long plan_disturbance_allowance(long base, double rate_per_s, double trial_s);

/* KEX single steps (docs/method.md §4.2 step 1): t1 := max(exchange t1, step t1). */
double plan_kex_step_t1(double exchange_t1_s, double step_t1_s);

#endif
