/*
 * test_runstatus.c — `status` over a run directory: each unit's state by
 * the run's resume rule (pending, complete, failed with its cause and
 * attempts, failed for good after 3 attempts, stale for another library),
 * a record that breaks its format's field table (failed, corrupt, as the
 * phases will treat it), deferred and never-timed units, the memory and profile columns, the
 * totals, "settled" (what gates a sharded campaign's report) and an ETA
 * from the run's calibrations.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "campaign/prior.h"
#include "campaign/runstatus.h"
#include "evidence/campaign_json.h"
#include "evidence/json.h"
#include "util/util.h"

#define SHA_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define SHA_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

static char root[64];

static void put(const char *rel, json_t *doc)
{
	char *p = path_join(root, rel), *d = path_dirname(p);
	assert_int_equal(mkdir_p(d, 0755), 0);
	assert_int_equal(evidence_write(p, doc), 0);
	json_decref(doc);
	free(d);
	free(p);
}

static void evidence(const char *kind, const char *schema, const char *stem, const char *status,
		     const char *sha)
{
	char *rel = xasprintf("%s/kem-1/%s.json", kind, stem);
	json_t *doc = json_pack("{ssssssssssssssss}", "schema", schema, "status", status,
				"status_detail", "driver exited 3: honest decapsulation mismatch",
				"candidate", "kem-1", "label", "A-1", "library_sha256", sha,
				"op_key", "keygen", "operation", "keygen");
	/* a complete timing record has the process and trial its plan asks
	 * for (a resumed phase keeps only what report accepts) */
	if (!strcmp(kind, "records") && !strcmp(status, "complete")) {
		json_t *trial = json_pack("{sisi}", "calls", 1, "ns", 1000);
		json_object_set_new(doc, "plan", json_pack("{si}", "trials", 1));
		json_object_set_new(doc, "processes",
				    json_pack("[{sss[O]}]", "status", "complete", "trials", trial));
		json_object_set_new(doc, "trials", json_pack("[o]", trial));
	}
	put(rel, doc);
	free(rel);
}

static int setup(void **state)
{
	(void)state;
	strcpy(root, "/tmp/ngcc-test-status.XXXXXX");
	assert_non_null(mkdtemp(root));
	json_t *d = campaign_skeleton(root, root);
	json_object_set_new(d, "system_id", json_string("vm"));
	campaign_set_option(d, "memory_pass", json_true());
	json_object_set_new(d, "shards", json_pack("{sisis[i]sssn}", "n", 2, "shard", 1, "cpus", 1,
						   "assignment_digest", "d", "defer"));
	campaign_phase_begin(d, "measure");            /* left open: killed */
	size_t i = campaign_phase_begin(d, "profile");
	campaign_phase_end(d, i, 0);
	put("campaign.json", d);
	/* keygen: complete everywhere */
	evidence("records", "ngcc-perf/record/1", "A-1__keygen", "complete", SHA_A);
	evidence("memory", "ngcc-perf/memory/1", "A-1__keygen", "complete", SHA_A);
	evidence("profile", "ngcc-perf/profile/1", "A-1__keygen", "complete", SHA_B);
	/* enc: failed once, will be retried; its calibration is there */
	evidence("records", "ngcc-perf/record/1", "A-1__enc", "failed", SHA_A);
	put("calibrate/kem-1/A-1__enc.json",
	    json_pack("{sssssssf sf}", "schema", "ngcc-perf/calibration/1", "status", "complete",
		      "library_sha256", SHA_A, "t1_s", 1e-3, "setup_s", 0.01));
	/* dec: the third failure: failed for good */
	evidence("records", "ngcc-perf/record/1", "A-1__dec", "partial", SHA_A);
	evidence("attempts/records", "ngcc-perf/record/1", "A-1__dec.1", "failed", SHA_A);
	evidence("attempts/records", "ngcc-perf/record/1", "A-1__dec.2", "failed", SHA_A);
	/* B-1 enc: says complete, but a figure is not a number */
	put("records/kem-1/B-1__enc.json",
	    json_pack("{ssssssssssssss}", "schema", "ngcc-perf/record/1", "status", "complete",
		      "candidate", "kem-1", "label", "B-1", "library_sha256", SHA_A, "operation",
		      "enc", "mean_seconds", "fast"));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rm_rf(root);
	return 0;
}

static const struct status_unit *unit(const struct run_status *st, const char *label, const char *op)
{
	for (size_t i = 0; i < st->n_units; i++)
		if (!strcmp(st->units[i].label, label) && !strcmp(st->units[i].op, op))
			return &st->units[i];
	fail_msg("no unit %s %s", label, op);
	return NULL;
}

static void test_states(void **state)
{
	struct run_status st;
	struct planning p;
	struct est_model m;
	char *err = NULL;
	(void)state;
	planning_defaults(&p);
	est_model_defaults(&m);
	assert_int_equal(run_status_open(&st, root, &err), 0);
	assert_string_equal(st.shard, "1/2");
	assert_int_equal(st.open_phases, 1);
	run_status_add(&st, "kem-1", "A-1", "keygen", SHA_A, 1);
	run_status_add(&st, "kem-1", "A-1", "enc", SHA_A, 1);
	run_status_add(&st, "kem-1", "A-1", "dec", SHA_A, 1);
	run_status_add(&st, "kem-1", "B-1", "keygen", SHA_A, 0);
	run_status_add(&st, "kem-1", "B-1", "enc", SHA_A, 0);
	run_status_add(&st, "kem-1", "A-1", "keygen_as_other_lib", SHA_A, 0);
	run_status_add_other(&st, "kem-2", "Slow-1", "keygen", US_DEFERRED, NULL);
	run_status_add_other(&st, "kem-3", "Bad-1", "keygen", US_NOT_TIMED, "KAT CRASH is never timed");
	run_status_finish(&st, &p, &m, NULL);

	const struct status_unit *u = unit(&st, "A-1", "keygen");
	assert_int_equal(u->measure, US_COMPLETE);
	assert_int_equal(u->memory, US_COMPLETE);
	assert_int_equal(u->profile, US_COMPLETE); /* profiles name another library */
	assert_int_equal(u->attempts, 1);
	u = unit(&st, "A-1", "enc");
	assert_int_equal(u->measure, US_FAILED);
	assert_int_equal(u->attempts, 1);
	assert_non_null(strstr(u->cause, "honest decapsulation mismatch"));
	assert_true(u->calibrated);
	assert_int_equal(u->memory, US_PENDING);
	u = unit(&st, "A-1", "dec");
	assert_int_equal(u->measure, US_GIVEN_UP);
	assert_int_equal(u->attempts, 3);
	u = unit(&st, "B-1", "keygen");
	assert_int_equal(u->measure, US_PENDING);
	assert_int_equal(u->profile, US_OFF);
	u = unit(&st, "B-1", "enc");
	assert_int_equal(u->measure, US_FAILED);
	assert_non_null(strstr(u->cause, "corrupt"));
	assert_non_null(strstr(u->cause, "mean_seconds"));
	assert_int_equal(st.counts[US_COMPLETE], 1);
	assert_int_equal(st.counts[US_FAILED], 2);
	assert_int_equal(st.counts[US_GIVEN_UP], 1);
	assert_int_equal(st.counts[US_PENDING], 2);
	assert_int_equal(st.counts[US_DEFERRED], 1);
	assert_int_equal(st.counts[US_NOT_TIMED], 1);
	assert_false(st.settled);
	assert_true(st.remaining_s > 0);

	json_t *j = run_status_json(&st);
	assert_false(json_is_true(json_object_get(j, "settled")));
	assert_int_equal(jget_int(json_object_get(j, "counts"), "failed for good", -1), 1);
	json_decref(j);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	run_status_print(&st, f);
	fclose(f);
	assert_non_null(strstr(text, "not settled"));
	assert_non_null(strstr(text, "interrupted"));
	assert_non_null(strstr(text, "KAT CRASH is never timed"));
	free(text);
	run_status_free(&st);

	/* A changed library makes the complete record stale. */
	assert_int_equal(run_status_open(&st, root, &err), 0);
	run_status_add(&st, "kem-1", "A-1", "keygen", SHA_B, 0);
	run_status_finish(&st, &p, &m, NULL);
	assert_int_equal(st.units[0].measure, US_STALE);
	assert_false(st.settled);
	run_status_free(&st);
}

static void test_settled(void **state)
{
	struct run_status st;
	struct planning p;
	struct est_model m;
	char *err = NULL;
	(void)state;
	planning_defaults(&p);
	est_model_defaults(&m);
	evidence("profile", "ngcc-perf/profile/1", "A-1__dec", "complete", SHA_B);
	assert_int_equal(run_status_open(&st, root, &err), 0);
	run_status_add(&st, "kem-1", "A-1", "keygen", SHA_A, 1);
	run_status_add(&st, "kem-1", "A-1", "dec", SHA_A, 1);
	run_status_add_other(&st, "kem-2", "Slow-1", "keygen", US_DEFERRED, NULL);
	run_status_finish(&st, &p, &m, NULL);
	assert_true(st.settled);
	assert_true(st.remaining_s == 0);
	run_status_free(&st);

	char *missing = path_join(root, "nowhere");
	assert_int_equal(run_status_open(&st, missing, &err), -1);
	assert_non_null(strstr(err, "not a run directory"));
	free(err);
	free(missing);
	run_status_free(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_states, setup, teardown),
		cmocka_unit_test_setup_teardown(test_settled, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
