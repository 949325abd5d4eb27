/*
 * test_estimate.c — the cost model of `ngcc-perf plan`: a unit's phases
 * follow its §4.2 plan and the memory and profile programs' call counts;
 * done phases cost nothing; an instance without figures counts 60 s; the
 * wall time on k CPUs is the longest greedy shard plus each worker's
 * fixed cost; --defer moves instances to their own worker; the instances
 * above the balanced share are named; the JSON carries every unit.  Prior
 * figures come from published datasets and run directories.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "campaign/estimate.h"
#include "campaign/prior.h"
#include "evidence/json.h"
#include "util/util.h"
#include "campaign/memory.h"
#include "campaign/profile.h"
#include "method/shard.h"

#define assert_near(a, b) do { \
		double a_ = (a), b_ = (b); \
		if (!(fabs(a_ - b_) <= 1e-9 * (1 + fabs(b_)))) \
			fail_msg("%s = %.17g, expected %.17g", #a, a_, b_); \
	} while (0)

static struct est_model model(void)
{
	struct est_model m;
	est_model_defaults(&m);
	m.unit_overhead_s = 0.5;
	m.phase_overhead_s = 2;
	m.background_s = 1;
	m.profile_tick_s = 0.1;
	m.sampling = 0;   /* test_sampling_cost below */
	return m;
}

/* R11: the sampling pass adds a process, one warm-up and the samples of a
 * batch whose bracket costs at most 1 % of it, for operations under 10 ms
 * only, and nothing with --no-sampling. */
static void test_sampling_cost(void **state)
{
	struct planning p;
	struct est_model m = model();
	struct estimate est;
	(void)state;
	setenv("NGCC_PERF_SAMPLES", "1000", 1);
	planning_defaults(&p);
	m.input_pool = 0;
	double off[3], on[3];
	const double t1[3] = { 1e-3, 1e-8, 0.02 };
	for (int sampling = 0; sampling <= 1; sampling++) {
		m.sampling = sampling;
		est_init(&est, &p, &m);
		for (int i = 0; i < 3; i++)
			est_add_unit(&est, "a", "A-1", i ? (i == 1 ? "enc" : "dec") : "keygen",
				     EST_CALIBRATION, t1[i], 0.01);
		est_compute(&est, 1, NULL);
		for (int i = 0; i < 3; i++)
			(sampling ? on : off)[i] = est.units[i].measure_s;
		est_free(&est);
	}
	/* 1 ms a call: 1000 samples of 1 call */
	assert_near(on[0] - off[0], 0.01 + (1000 * 1 + 1) * 1e-3 + 0.5);
	/* 10 ns a call, 20 ns brackets: batches of 200 calls */
	assert_near(on[1] - off[1], 0.01 + (1000 * 200 + 1) * 1e-8 + 0.5);
	/* 20 ms a call: not sampled */
	assert_near(on[2], off[2]);
}

/* R2: no pool pass with --input-pool 0, nor for operations of 10 ms and
 * more. */
static void test_pool_cost(void **state)
{
	struct planning p;
	struct est_model m = model();
	struct estimate est;
	struct plan pl;
	(void)state;
	planning_defaults(&p);
	m.input_pool = 0;
	est_init(&est, &p, &m);
	est_add_unit(&est, "a", "A-1", "keygen", EST_CALIBRATION, 1e-3, 0.01);
	est_compute(&est, 1, NULL);
	plan_compute(&p, 1e-3, 0.01, &pl);
	assert_near(est.units[0].measure_s, pl.estimated_s + 0.5);
	est_free(&est);
	m.input_pool = 16;
	est_init(&est, &p, &m);
	est_add_unit(&est, "a", "A-1", "keygen", EST_CALIBRATION, 0.01, 0.01);
	est_compute(&est, 1, NULL);
	plan_compute(&p, 0.01, 0.01, &pl);
	assert_near(est.units[0].measure_s, pl.estimated_s + 0.5);
	est_free(&est);
}

static void test_unit_phases(void **state)
{
	struct planning p;
	struct est_model m = model();
	struct estimate est;
	struct plan pl;
	(void)state;
	planning_defaults(&p);
	est_init(&est, &p, &m);
	est_add_unit(&est, "a", "A-1", "keygen", EST_CALIBRATION, 1e-3, 0.01);
	struct est_unit *done = est_add_unit(&est, "a", "A-1", "enc", EST_PRIOR, 1e-3, 0.01);
	done->need_calibrate = done->need_measure = 0;
	est_compute(&est, 1, NULL);
	plan_compute(&p, 1e-3, 0.01, &pl);
	const struct est_unit *u = &est.units[0];
	assert_int_equal(u->plan.iterations_per_trial, pl.iterations_per_trial);
	assert_near(u->calibrate_s, 1e-3 + 0.01 + 0.5);
	/* with the input-pool pass (R2): S + 16 inputs x (5 rounds x 10 calls of
	 * 10 ms batches + 1 warm-up) x t1 + the unit overhead */
	assert_near(u->measure_s, pl.estimated_s + 0.5 + 0.01 + 16 * (5 * 10 + 1) * 1e-3 + 0.5);
	assert_near(u->memory_s, 0.01 + (double)(memory_calls(1e-3) + 1) * (2e-3 + m.memory_call_s) + 0.5);
	/* The default trial target, 1 s: 1000 iterations of 1 ms. */
	assert_near(u->profile_s, 0.01 + (double)(1000 + profile_warmups(1e-3)) * 1e-3 + 0.1 + 0.5);
	assert_near(u->total_s, u->calibrate_s + u->measure_s + u->memory_s + u->profile_s);
	const struct est_unit *d = &est.units[1];
	assert_near(d->calibrate_s, 0);
	assert_near(d->measure_s, 0);
	assert_true(d->memory_s > 0);
	assert_int_equal(est.n_instances, 1);
	/* the units plus one instrumented relink */
	assert_near(est.instances[0].total_s, u->total_s + d->total_s + m.profile_instance_s);
	/* one worker: the whole work plus three phases and the probe */
	assert_near(est.wall_s[1], est.instances[0].total_s + 3 * 2 + 1);
	est_free(&est);
}

/* About one trial target of work, 3 to 1000 iterations; one beyond 60 s. */
static void test_profile_iterations(void **state)
{
	(void)state;
	assert_int_equal(profile_iterations(1e-3, 1.0), 1000);
	assert_int_equal(profile_iterations(1e-4, 1.0), 1000);
	assert_int_equal(profile_iterations(0.3, 1.0), 4);
	assert_int_equal(profile_iterations(1e-4, 0.01), 100);
	assert_int_equal(profile_iterations(1e-3, 0.002), 3);
	assert_int_equal(profile_iterations(2.0, 1.0), 3);
	assert_int_equal(profile_iterations(61, 1.0), 1);
	/* The timeout follows the iterations: 3 (3 + 1) 1e-3 + 3 S + 300 s. */
	assert_near(profile_timeout_s(1e-3, 0.01, 0.002), 3 * 4 * 1e-3 + 0.03 + 300);
}

static void test_passes_off_and_unknown(void **state)
{
	struct planning p;
	struct est_model m = model();
	struct estimate est;
	(void)state;
	planning_defaults(&p);
	m.memory_pass = 0;
	m.profile = 0;
	est_init(&est, &p, &m);
	est_add_unit(&est, "a", "A-1", "keygen", EST_CALIBRATION, 2e-3, 0.02);
	est_add_unit(&est, "b", "B-1", "keygen", EST_UNKNOWN, 0, 0);
	est_add_unit(&est, "b", "B-1", "enc", EST_UNKNOWN, 0, 0);
	est_compute(&est, 1, NULL);
	assert_near(est.units[0].memory_s, 0);
	assert_near(est.units[0].profile_s, 0);
	assert_near(est.units[1].total_s, 0);
	assert_int_equal(est.n_instances, 2);
	assert_true(est.instances[1].unknown);
	assert_near(est.instances[1].total_s, SHARD_UNKNOWN_COST_S);
	est_free(&est);
}

/* Four instances (zero overheads): t1 = 1 s → 5 x 20 calls + 5 warm-ups
 * = 105 s; 0.5 s → 52.5 s; 0.1 s → 10.5 s; one without figures, 60 s.
 * On 2 CPUs the greedy shards are {105, 10.5} and {60, 52.5}: 115.5 s
 * plus a worker's fixed cost; the balanced share is 228 / 2 = 114, which
 * no instance exceeds.  On 4 CPUs the share is 57: 105 and 60 exceed it. */
/* Issue 27: a plan over a finished run costs nothing, not the phases'
 * fixed costs; a phase with work left costs its overhead alone. */
static void test_nothing_left(void **state)
{
	struct planning p;
	struct est_model m = model();
	struct estimate est;
	(void)state;
	planning_defaults(&p);
	est_init(&est, &p, &m);
	for (int k = 0; k < 2; k++) {
		struct est_unit *u = est_add_unit(&est, "x", k ? "B" : "A", "keygen", EST_CALIBRATION,
						  0.001, 0);
		u->need_calibrate = u->need_measure = u->need_memory = u->need_profile = 0;
	}
	est_compute(&est, 2, NULL);
	assert_near(est.wall_s[1], 0);
	assert_near(est.wall_s[2], 0);
	assert_false(est.work_measure || est.work_memory || est.work_profile);
	est_free(&est);
	/* only the profiles left: the profile phase's overhead, no probe */
	est_init(&est, &p, &m);
	struct est_unit *u = est_add_unit(&est, "x", "A", "keygen", EST_CALIBRATION, 0.001, 0);
	u->need_calibrate = u->need_measure = u->need_memory = 0;
	est_compute(&est, 1, NULL);
	assert_true(est.work_profile && !est.work_measure && !est.work_memory);
	assert_near(est.wall_s[1], est.instances[0].total_s + m.phase_overhead_s);
	est_free(&est);
}

static void test_cpus_defer_dominating(void **state)
{
	struct planning p;
	struct est_model m = model();
	struct estimate est;
	regex_t re;
	(void)state;
	planning_defaults(&p);
	m.memory_pass = m.profile = 0;
	m.unit_overhead_s = 0;
	est_init(&est, &p, &m);
	struct est_unit *u = est_add_unit(&est, "x", "Big", "keygen", EST_CALIBRATION, 1, 0);
	u->need_calibrate = 0;
	est_add_unit(&est, "x", "Unknown", "keygen", EST_UNKNOWN, 0, 0);
	u = est_add_unit(&est, "x", "Mid", "keygen", EST_CALIBRATION, 0.5, 0);
	u->need_calibrate = 0;
	u = est_add_unit(&est, "x", "Small", "keygen", EST_CALIBRATION, 0.1, 0);
	u->need_calibrate = 0;
	est_compute(&est, 4, NULL);
	assert_near(est.instances[0].total_s, 105);
	assert_near(est.instances[2].total_s, 52.5);
	assert_near(est.instances[3].total_s, 10.5);
	/* one phase with work (memory and profile are off) and the probe */
	double fixed = 1 * 2 + 1;
	assert_near(est.wall_s[1], 228 + fixed);
	assert_near(est.wall_s[2], 115.5 + fixed);
	assert_near(est.wall_s[4], 105 + fixed);
	assert_int_equal(est.n_dominating, 2);
	assert_string_equal(est.dominating[0], "x/Big");
	assert_string_equal(est.dominating[1], "x/Unknown");
	json_t *j = est_json(&est);
	assert_int_equal(json_array_size(json_object_get(j, "units")), 4);
	assert_int_equal(json_array_size(json_object_get(j, "wall_s")), 4);
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(j, "units"), 1), "t1_s")));
	json_decref(j);
	est_free(&est);

	/* Deferring Big: the shard holds 60 s, the deferred worker 105 s. */
	assert_int_equal(regcomp(&re, "/Big$", REG_EXTENDED | REG_NOSUB), 0);
	est_init(&est, &p, &m);
	u = est_add_unit(&est, "x", "Big", "keygen", EST_CALIBRATION, 1, 0);
	u->need_calibrate = 0;
	est_add_unit(&est, "x", "Unknown", "keygen", EST_UNKNOWN, 0, 0);
	est_compute(&est, 1, &re);
	assert_true(est.instances[0].deferred);
	assert_near(est.wall_s[1], 60 + fixed);
	assert_near(est.deferred_s, 105 + fixed);
	assert_int_equal(est.n_dominating, 0);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	est_print(&est, f, 15);
	fclose(f);
	assert_non_null(strstr(text, "deferred worker"));
	assert_non_null(strstr(text, "x/Unknown"));
	assert_non_null(strstr(text, "counted as 60 s"));
	free(text);
	est_free(&est);
	regfree(&re);
}

static void put_record(const char *root, const char *rel, const char *label, const char *op,
		       const char *status, double t1, double wall)
{
	char *p = path_join(root, rel), *d = path_dirname(p);
	assert_int_equal(mkdir_p(d, 0755), 0);
	json_t *r = json_pack("{ssssssssss s{sfsf} s[{sf}{sf}]}", "schema", "ngcc-perf/record/1",
			      "status", status, "candidate", "kem-1", "label", label, "op_key", op,
			      "plan", "t1_s", t1, "setup_s", 0.004, "processes", "wall_s", wall,
			      "wall_s", wall);
	assert_int_equal(evidence_write(p, r), 0);
	json_decref(r);
	free(d);
	free(p);
}

static void test_prior(void **state)
{
	char root[] = "/tmp/ngcc-test-prior.XXXXXX";
	struct prior pr;
	char *err = NULL;
	(void)state;
	assert_non_null(mkdtemp(root));
	put_record(root, "ds/data/x86_1/records/kem-1/A-1__keygen.json", "A-1", "keygen", "complete", 1e-3, 2);
	put_record(root, "ds/data/x86_1/records/kem-1/A-1__enc.json", "A-1", "enc", "complete", 2e-3, 3);
	put_record(root, "ds/data/x86_1/records/kem-1/B-1__enc.json", "B-1", "enc", "failed", 2e-3, 50);
	put_record(root, "run/records/kem-1/A-1__keygen.json", "A-1", "keygen", "complete", 5e-3, 1);
	char *ds = path_join(root, "ds"), *run = path_join(root, "run"), *none = path_join(root, "ds/data");
	const char *paths[] = { ds, run };
	assert_int_equal(prior_load(paths, 2, &pr, &err), 0);
	assert_int_equal(pr.n_records, 3);
	/* Σ wall_s over the records and both sources: 2·2 + 2·3 + 2·1 */
	assert_true(prior_instance_wall(&pr, "kem-1", "A-1") == 12);
	assert_true(prior_instance_wall(&pr, "kem-1", "B-1") < 0); /* failed records do not count */
	const struct prior_unit *u = prior_find_unit(&pr, "kem-1", "A-1", "keygen");
	assert_non_null(u);
	assert_true(u->t1_s == 1e-3); /* the first source holding it */
	assert_true(u->setup_s == 0.004);
	assert_null(prior_find_unit(&pr, "kem-1", "A-1", "dec"));
	prior_free(&pr);
	const char *bad[] = { none };
	assert_int_equal(prior_load(bad, 1, &pr, &err), -1);
	assert_non_null(strstr(err, "holds no timing records"));
	free(err);
	free(ds);
	free(run);
	free(none);
	rm_rf(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unit_phases),
		cmocka_unit_test(test_pool_cost),
		cmocka_unit_test(test_sampling_cost),
		cmocka_unit_test(test_profile_iterations),
		cmocka_unit_test(test_passes_off_and_unknown),
		cmocka_unit_test(test_cpus_defer_dominating),
		cmocka_unit_test(test_nothing_left),
		cmocka_unit_test(test_prior),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
