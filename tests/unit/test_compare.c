/*
 * test_compare.c — compare/compare.c on datasets built in memory: the ratio
 * and its bootstrap interval, the verdicts against the threshold, the exit
 * status, determinism, items only one side has, the candidate map, the
 * settings that differ and the refused options.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "compare/compare.h"

/* A record of n trials of 100 calls, trial i taking base·(1 + spread·w_i)
 * ns per call with w = 0, +1, −1, +0.5, −0.5, … (deterministic noise). */
static json_t *record(double ns_per_call, double spread, int n)
{
	static const double w[] = { 0, 1, -1, 0.5, -0.5, 0.25, -0.25, 0.75, -0.75, 0 };
	json_t *trials = json_array();
	for (int i = 0; i < n; i++) {
		double ns = ns_per_call * (1 + spread * w[i % 10]) * 100;
		json_array_append_new(trials, json_pack("{sIsIsI}", "calls", (json_int_t)100,
							"ns", (json_int_t)ns, "cycles",
							(json_int_t)(2 * ns)));
	}
	return json_pack("{sss[{so}]}", "status", "complete", "processes", "trials", trials);
}

/* One candidate `id` with one instance `stem` and the operations given. */
static void one_candidate(struct dataset *ds, const char *id, const char *stem,
			  const char *const *ops, const double *ns, double spread, size_t nops)
{
	ds->cand = realloc(ds->cand, (ds->n_cand + 1) * sizeof *ds->cand);
	struct ds_candidate *c = &ds->cand[ds->n_cand++];
	memset(c, 0, sizeof *c);
	c->id = strdup(id);
	c->inst = calloc(1, sizeof *c->inst);
	c->n_inst = 1;
	c->inst->label = strdup(stem);
	c->inst->stem = strdup(stem);
	c->inst->kat_status = strdup("PASS");
	c->inst->rec = calloc(nops, sizeof *c->inst->rec);
	c->inst->n_rec = nops;
	for (size_t i = 0; i < nops; i++)
		c->inst->rec[i] = (struct ds_record){ strdup(ops[i]), strdup("r"),
						      record(ns[i], spread, 10) };
}

static void new_dataset(struct dataset *ds, const char *host)
{
	memset(ds, 0, sizeof *ds);
	ds->campaign = json_pack("{s{ss}s{si}}", "environment_at_start", "hostname", host,
				 "planning", "trials", 10);
}

static const char *const ops3[] = { "keygen", "enc", "dec" };

static void compute(const struct dataset *a, const struct dataset *b, struct cmp_opts *o,
		    struct cmp_result *r)
{
	char *err = NULL;
	assert_int_equal(cmp_compute(a, b, o, r, &err), 0);
	assert_null(err);
}

static void test_same_and_regression(void **state)
{
	(void)state;
	struct dataset a, b;
	new_dataset(&a, "h");
	new_dataset(&b, "h");
	const double na[] = { 1000, 2000, 3000 }, nb[] = { 1000, 2000, 3900 };
	one_candidate(&a, "k", "K-128", ops3, na, 0.05, 3);
	one_candidate(&b, "k", "K-128", ops3, nb, 0.05, 3);
	struct cmp_opts o = CMP_OPTS_DEFAULT;
	o.threshold = 0.10;
	struct cmp_result r;
	compute(&a, &b, &o, &r);
	assert_int_equal(r.n_rows, 3);
	assert_int_equal(r.rows[0].verdict, CMP_SAME);
	assert_true(fabs(r.rows[0].time.ratio - 1) < 1e-9);
	assert_true(r.rows[0].time.lo <= 1 && r.rows[0].time.hi >= 1);
	assert_int_equal(r.rows[2].verdict, CMP_REGRESSION);
	assert_true(fabs(r.rows[2].time.ratio - 1.3) < 1e-3);
	assert_true(r.rows[2].time.lo > 1.1 && r.rows[2].time.hi < 1.5);
	assert_true(r.rows[2].cycles.valid && fabs(r.rows[2].cycles.ratio - 1.3) < 1e-3);
	assert_int_equal(cmp_exit_status(&r), 1);
	assert_int_equal(r.n_mism, 0);
	/* deterministic: the same inputs give the same interval */
	struct cmp_result r2;
	compute(&a, &b, &o, &r2);
	assert_true(r2.rows[2].time.lo == r.rows[2].time.lo);
	assert_true(r2.rows[2].time.hi == r.rows[2].time.hi);
	cmp_free(&r2);
	/* a threshold beyond the change: no verdict, exit 0 */
	o.threshold = 0.5;
	cmp_free(&r);
	compute(&a, &b, &o, &r);
	assert_int_equal(r.rows[2].verdict, CMP_SAME);
	assert_int_equal(cmp_exit_status(&r), 0);
	/* the other way round it is an improvement, which does not fail */
	o.threshold = 0.10;
	cmp_free(&r);
	compute(&b, &a, &o, &r);
	assert_int_equal(r.rows[2].verdict, CMP_IMPROVEMENT);
	assert_int_equal(cmp_exit_status(&r), 0);
	cmp_free(&r);
	dataset_free(&a);
	dataset_free(&b);
}

/* With noisy trials the interval widens and the same change is not significant. */
static void test_noise_widens(void **state)
{
	(void)state;
	struct dataset a, b;
	new_dataset(&a, "h");
	new_dataset(&b, "h");
	const double na[] = { 1000 }, nb[] = { 1150 };
	one_candidate(&a, "k", "K", ops3 + 2, na, 0.6, 1);
	one_candidate(&b, "k", "K", ops3 + 2, nb, 0.6, 1);
	struct cmp_opts o = CMP_OPTS_DEFAULT;
	struct cmp_result r;
	compute(&a, &b, &o, &r);
	assert_int_equal(r.rows[0].verdict, CMP_SAME);
	assert_true(r.rows[0].time.lo < 1.05);
	cmp_free(&r);
	dataset_free(&a);
	dataset_free(&b);
}

static void test_intersection_map_and_settings(void **state)
{
	(void)state;
	struct dataset a, b;
	new_dataset(&a, "host-a");
	new_dataset(&b, "host-b");
	const double n1[] = { 1000, 2000, 3000 };
	one_candidate(&a, "k", "K-128", ops3, n1, 0.01, 3);
	one_candidate(&a, "only-a", "X", ops3, n1, 0.01, 1);
	one_candidate(&b, "k", "K-128", ops3, n1, 0.01, 2);
	one_candidate(&b, "k2", "K-128", ops3, n1, 0.01, 3);
	struct cmp_opts o = CMP_OPTS_DEFAULT;
	struct cmp_result r;
	compute(&a, &b, &o, &r);
	assert_int_equal(r.n_rows, 2);   /* k's keygen and enc */
	assert_true(sl_contains(&r.only_a, "only-a"));
	assert_true(sl_contains(&r.only_a, "k/K-128 dec"));
	assert_true(sl_contains(&r.only_b, "k2"));
	int host = 0;
	for (size_t i = 0; i < r.n_mism; i++)
		host |= !strcmp(r.mism[i].what, "environment.hostname") &&
			!strcmp(r.mism[i].a, "host-a") && !strcmp(r.mism[i].b, "host-b");
	assert_true(host);
	char *md = cmp_markdown(&r, 2, NULL), *csv = cmp_csv(&r), *txt = cmp_text(&r);
	assert_non_null(strstr(md, "| environment.hostname | host-a | host-b |"));
	assert_non_null(strstr(md, "- only in A: `only-a`"));
	assert_non_null(strstr(csv, "setting,,,,environment.hostname,host-a,host-b,"));
	assert_non_null(strstr(csv, "only_b,,,,k2,,,"));
	assert_non_null(strstr(txt, "only in A: k/K-128 dec"));
	free(md);
	free(csv);
	free(txt);
	cmp_free(&r);
	/* A's k against B's k2: all three operations, k2 no longer only in B */
	o.map_a = "k";
	o.map_b = "k2";
	compute(&a, &b, &o, &r);
	assert_int_equal(r.n_rows, 3);
	assert_false(sl_contains(&r.only_b, "k2"));
	assert_true(sl_contains(&r.only_b, "k"));
	cmp_free(&r);
	dataset_free(&a);
	dataset_free(&b);
}

static void test_refused_options(void **state)
{
	(void)state;
	struct dataset a;
	new_dataset(&a, "h");
	struct cmp_opts o = CMP_OPTS_DEFAULT;
	struct cmp_result r;
	char *err = NULL;
	o.threshold = 1.5;
	assert_int_equal(cmp_compute(&a, &a, &o, &r, &err), -1);
	assert_non_null(strstr(err, "threshold"));
	free(err);
	o = (struct cmp_opts)CMP_OPTS_DEFAULT;
	o.resamples = 10;
	assert_int_equal(cmp_compute(&a, &a, &o, &r, &err), -1);
	free(err);
	o = (struct cmp_opts)CMP_OPTS_DEFAULT;
	o.map_a = "x";
	assert_int_equal(cmp_compute(&a, &a, &o, &r, &err), -1);
	free(err);
	dataset_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_and_regression),
		cmocka_unit_test(test_noise_widens),
		cmocka_unit_test(test_intersection_map_and_settings),
		cmocka_unit_test(test_refused_options),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
