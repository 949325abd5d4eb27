/*
 * test_record.c — the timing record writer (src/evidence/record.c): key
 * order, process statuses, flattening of multi-process trials, statistics
 * from them, disturbance rules, resume fingerprints and corrupt files;
 * plus the run directory's attempts/ numbering and the planning check of
 * campaign.json.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/rundir.h"
#include "evidence/campaign_json.h"
#include "evidence/json.h"
#include "evidence/record.h"
#include "util/util.h"

/* A driver result as bin/ngcc-perf-driver writes it on fd 3. */
static char *driver_json(const char *status, int ntrials, uint64_t calls, uint64_t ns0,
			 long long cycles, long invol, long long peak)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "{\"schema\":\"ngcc-perf/driver-result/1\",\"status\":\"%s\","
		"\"exit_code\":0,\"error\":null,"
		"\"meta\":{\"id\":\"t\",\"pk_bytes\":32,\"sk_bytes\":64,\"ct_bytes\":48,\"ss_bytes\":16},"
		"\"seed_hex\":\"00\",\"trials\":[", status);
	for (int i = 0; i < ntrials; i++)
		sb_addf(&sb, "%s{\"calls\":%llu,\"ns\":%llu,\"cycles\":%lld,\"invol_switches\":%ld,"
			"\"vol_switches\":0,\"migrations\":0,\"minor_faults\":0,\"major_faults\":0}",
			i ? "," : "", (unsigned long long)calls, (unsigned long long)(ns0 + (uint64_t)i),
			cycles, invol);
	sb_addf(&sb, "],\"rss\":{\"loaded\":1000,\"baseline\":2000,\"peak\":%lld,\"op_peak\":null,"
		"\"op_peak_method\":\"clear_refs\"},"
		"\"validation\":{\"performed\":true,\"ok\":true,\"detail\":null},"
		"\"observed\":{\"pk\":{\"min\":32,\"max\":32},\"sk\":{\"min\":64,\"max\":64},"
		"\"ct\":{\"min\":40,\"max\":48},\"ss\":{\"min\":16,\"max\":16}},"
		"\"counter\":{\"name\":\"perf-user-cycles\",\"hz\":2e9,\"resolution\":1,"
		"\"overhead_cycles_median\":30,\"overhead_ns_median\":12,\"why_fallback\":null}}\n",
		peak);
	return sb_detach(&sb);
}

static json_t *entry_from(const char *dr, int exited, int code, int timed_out, int attempt)
{
	struct spawn_res res;
	memset(&res, 0, sizeof res);
	res.exited = exited;
	res.exit_code = code;
	res.timed_out = timed_out;
	res.term_signal = exited ? 0 : 9;
	res.wall_s = 0.5;
	res.result = (char *)dr;
	res.result_len = dr ? strlen(dr) : 0;
	res.err_tail = (char *)"candidate said hello\n";
	struct process_run run = { &res, 10, attempt, json_pack("[s]", "<ngcc-perf>/bin/ngcc-perf-driver") };
	return record_process_entry(&run);
}

static struct plan test_plan(int trials)
{
	struct plan p;
	memset(&p, 0, sizeof p);
	p.trials = trials;
	p.iterations_per_trial = 100;
	p.warmups = 3;
	p.separate_processes = 1;
	p.processes = trials;
	p.t1_s = 1e-3;
	return p;
}

static json_t *build_record(json_t *procs, const struct plan *p)
{
	json_t *host = json_pack("{sbs[]sn}", "unfixed", 0, "problems", "override_reason");
	struct record_input in = {
		.candidate = "kem-1", .label = "L1", .instance = "L_1", .variant = "reference",
		.flags = "guide", .op = "dec", .plan = p, .seed_mode = "fixed", .seed_hex = "00",
		.input_mode = "fixed", .kat = "PASS", .library = "build/kem-1/libL1.so",
		.library_sha256 = "ab", .host = host, .started_utc = "s", .ended_utc = "e",
		.cpu = 3, .processes = procs,
	};
	json_t *r = record_build(&in);
	json_decref(host);
	return r;
}

static void test_key_order(void **state)
{
	(void)state;
	static const char *const want[] = {
		"schema", "status", "status_detail", "candidate", "label", "instance", "variant",
		"flags", "operation", "op_key", "input_bytes", "plan", "seed", "inputs", "kat",
		"kat_not_passed", "library", "library_sha256", "kat_log", "kat_log_sha256", "host",
		"started_utc", "ended_utc", "load_average_start", "load_average_end", "environment",
		"cpu", "concurrent_cpus", "counter", "processes", "trials", "measurements",
		"guide_100_measurements_met", "mean_seconds", "mean_cycles", "operations_per_second",
		"median_trial_seconds", "min_trial_seconds", "max_trial_seconds", "median_trial_cycles",
		"throughput_MB_per_second", "dispersion", "disturbed_retries", "retries", "background",
		"noisy", "sizes", "kex",
		"build_flags", "baseline_rss_bytes", "peak_rss_bytes", "timing_scope",
	};
	char *dr = driver_json("complete", 1, 100, 1000000, 2000000, 0, 4096);
	json_t *procs = json_array();
	json_array_append_new(procs, entry_from(dr, 1, 0, 0, 1));
	struct plan p = test_plan(1);
	json_t *r = build_record(procs, &p);
	/* Serialise and parse back: the order must survive the file. */
	char *text = evidence_dumps(r);
	const char *at = text;
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		char *needle = xasprintf("\n \"%s\":", want[i]);
		const char *hit = strstr(at, needle);
		assert_non_null(hit);
		at = hit + 1;
		free(needle);
	}
	assert_int_equal(json_object_size(r), sizeof want / sizeof *want);
	static const char *const plan_keys[] = { "trials", "iterations_per_trial", "warmups",
		"separate_processes", "estimated_s", "timeout_per_process_s", "t1_s", "setup_s",
		"reused_calibration" };
	const char *key;
	json_t *v;
	size_t k = 0;
	json_object_foreach(json_object_get(r, "plan"), key, v)
		assert_string_equal(key, plan_keys[k++]);
	assert_int_equal(k, 9);
	free(text);
	free(dr);
	json_decref(r);
	json_decref(procs);
}

static void test_flatten_and_stats(void **state)
{
	(void)state;
	/* Two separate-mode processes of one trial each, then one of two. */
	char *a = driver_json("complete", 1, 100, 1000000, 3000000, 0, 4096);
	char *b = driver_json("complete", 2, 100, 3000000, 5000000, 0, 8192);
	json_t *procs = json_array();
	json_array_append_new(procs, entry_from(a, 1, 0, 0, 1));
	json_array_append_new(procs, entry_from(b, 1, 0, 0, 2));
	struct trial *t;
	size_t n = record_flatten_trials(procs, &t);
	assert_int_equal(n, 3);
	assert_int_equal(t[0].ns, 1000000);
	assert_int_equal(t[1].ns, 3000000);
	assert_int_equal(t[2].ns, 3000001);
	assert_true(t[2].has_cycles);
	free(t);
	struct plan p = test_plan(3);
	json_t *r = build_record(procs, &p);
	assert_string_equal(jget_str(r, "status", ""), "complete");
	assert_int_equal(json_array_size(json_object_get(r, "trials")), 3);
	assert_int_equal(jget_int(r, "measurements", 0), 300);
	/* mean_seconds = (1e6 + 3e6 + 3000001) ns / 300 calls */
	assert_true(jget_real(r, "mean_seconds", 0) > 2.33333e-5 &&
		    jget_real(r, "mean_seconds", 0) < 2.33334e-5);
	assert_int_equal(jget_int(r, "peak_rss_bytes", 0), 8192);
	assert_int_equal(jget_int(r, "baseline_rss_bytes", 0), 2000);
	json_t *ct = json_object_get(json_object_get(json_object_get(r, "sizes"), "observed"), "ct");
	assert_int_equal(jget_int(ct, "min", 0), 40);
	assert_int_equal(jget_int(ct, "max", 0), 48);
	/* Fewer trials than planned: partial, never complete. */
	struct plan p5 = test_plan(5);
	json_t *r5 = build_record(procs, &p5);
	assert_string_equal(jget_str(r5, "status", ""), "partial");
	json_decref(r5);
	json_decref(r);
	json_decref(procs);
	free(a);
	free(b);
}

/* Where the counter's rate came from reaches the record (each process and
 * the record's counter) and is held to its words; a record made before the
 * field existed is still read. */
static void test_counter_hz_source(void **state)
{
	(void)state;
	char *old = driver_json("complete", 1, 100, 1000000, 3000000, 0, 4096);
	struct strbuf sb = STRBUF_INIT;
	const char *hz = strstr(old, "\"hz\":2e9,") + strlen("\"hz\":2e9,");
	sb_addf(&sb, "%.*s\"hz_source\":\"phase\",%s", (int)(hz - old), old, hz);
	json_t *procs = json_array();
	json_array_append_new(procs, entry_from(sb.buf, 1, 0, 0, 1));
	struct plan p = test_plan(1);
	json_t *r = build_record(procs, &p);
	const json_t *c = json_object_get(r, "counter");
	assert_string_equal(jget_str(c, "hz_source", ""), "phase");
	assert_true(jget_real(c, "hz", 0) == 2e9);
	const json_t *pc = json_object_get(json_array_get(json_object_get(r, "processes"), 0),
					   "counter");
	assert_string_equal(jget_str(pc, "hz_source", ""), "phase");
	char *why = NULL;
	assert_int_equal(record_check(r, &why), 0);
	json_object_set_new(json_object_get(r, "counter"), "hz_source", json_string("guessed"));
	assert_int_equal(record_check(r, &why), -1);
	assert_non_null(strstr(why, "counter.hz_source"));
	free(why);
	why = NULL;
	json_object_set_new(json_object_get(r, "counter"), "hz_source", json_string("process"));
	json_object_set_new((json_t *)pc, "hz_source", json_integer(1));
	assert_int_equal(record_check(r, &why), -1);
	assert_non_null(strstr(why, "hz_source"));
	free(why);
	json_decref(r);
	json_decref(procs);
	/* Before: no hz_source anywhere. */
	procs = json_array();
	json_array_append_new(procs, entry_from(old, 1, 0, 0, 1));
	r = build_record(procs, &p);
	assert_null(json_object_get(json_object_get(r, "counter"), "hz_source"));
	why = NULL;
	assert_int_equal(record_check(r, &why), 0);
	json_decref(r);
	json_decref(procs);
	sb_free(&sb);
	free(old);
}

/* A hash record has its digest length and no KEM objects (pk, sk, ct, ss). */
static void test_hash_sizes(void **state)
{
	(void)state;
	char *kem = driver_json("complete", 1, 100, 1000000, 3000000, 0, 4096);
	struct strbuf sb = STRBUF_INIT;
	const char *meta = strstr(kem, "\"meta\":{"), *meta_end = strchr(meta, '}') + 1;
	const char *obs = strstr(kem, "\"observed\":{"), *obs_end = strstr(obs, "}},") + 2;
	sb_addf(&sb, "%.*s\"meta\":{\"id\":\"h\",\"type\":\"hash\",\"digest_bytes\":32}%.*s%s",
		(int)(meta - kem), kem, (int)(obs - meta_end), meta_end, obs_end + 1);
	json_t *procs = json_array();
	json_array_append_new(procs, entry_from(sb.buf, 1, 0, 0, 1));
	struct plan p = test_plan(1);
	json_t *r = build_record(procs, &p);
	const json_t *sizes = json_object_get(r, "sizes");
	assert_int_equal(jget_int(sizes, "digest_bytes", 0), 32);
	assert_true(json_is_null(json_object_get(sizes, "pk_bytes")));
	assert_int_equal(json_object_size(json_object_get(sizes, "observed")), 0);
	json_decref(r);
	json_decref(procs);
	sb_free(&sb);
	free(kem);
}

static void test_process_statuses(void **state)
{
	(void)state;
	char *ok = driver_json("complete", 1, 10, 100, 0, 0, 1);
	char *bad = driver_json("invalid_output", 1, 10, 100, 0, 0, 1);
	/* A complete claim with a non-zero exit is failed. */
	json_t *e = entry_from(ok, 1, 3, 0, 1);
	assert_string_equal(record_process_status(e), "failed");
	json_decref(e);
	/* Killed without a result. */
	e = entry_from(NULL, 0, 0, 0, 1);
	assert_string_equal(record_process_status(e), "failed");
	assert_non_null(strstr(record_process_error(e), "without a driver result"));
	assert_string_equal(jget_str(e, "stderr_tail", ""), "candidate said hello\n");
	json_t *procs = json_array();
	json_array_append_new(procs, e);
	struct plan p = test_plan(2);
	json_t *r = build_record(procs, &p);
	assert_string_equal(jget_str(r, "status", ""), "failed");
	assert_non_null(strstr(jget_str(r, "status_detail", ""), "process 1"));
	assert_true(json_is_null(json_object_get(r, "mean_seconds")));
	json_decref(r);
	json_decref(procs);
	/* Timed out: hard_timeout wins. */
	e = entry_from(NULL, 0, 0, 1, 1);
	assert_string_equal(record_process_status(e), "hard_timeout");
	json_decref(e);
	e = entry_from(bad, 1, 5, 0, 1);
	assert_string_equal(record_process_status(e), "invalid_output");
	json_decref(e);
	/* A corrupt result is failed. */
	e = entry_from("{\"schema\":\"ngcc-perf/driver-result/1\",\"status\":", 1, 0, 0, 1);
	assert_string_equal(record_process_status(e), "failed");
	json_decref(e);
	free(ok);
	free(bad);
}

static void test_disturbed(void **state)
{
	(void)state;
	char *quiet = driver_json("complete", 2, 10, 100000000, 200000000, 0, 1);
	char *noisy = driver_json("complete", 2, 10, 100000000, 200000000, 2, 1);
	json_t *q = entry_from(quiet, 1, 0, 0, 1), *n = entry_from(noisy, 1, 0, 0, 1);
	struct disturb_rule plain = { 0, 2e9, 0, 0 }, five = { 5, 2e9, 0, 0 }, slow = { 0, 3e9, 0, 0 };
	json_t *r = record_disturbed_reasons(q, &plain);
	assert_int_equal(json_array_size(r), 0);
	json_decref(r);
	r = record_disturbed_reasons(n, &plain);
	assert_int_equal(json_array_size(r), 2);
	json_decref(r);
	r = record_disturbed_reasons(n, &five);
	assert_int_equal(json_array_size(r), 0);
	json_decref(r);
	/* A background of 10 switches/s allows ceil(1 + 3) = 4 in each 0.1 s
	 * trial: the two switches are background, not a disturbance. */
	struct disturb_rule bg = { 0, 2e9, 10, 0 };
	r = record_disturbed_reasons(n, &bg);
	assert_int_equal(json_array_size(r), 0);
	json_decref(r);
	/* A background of 0.001/s allows ceil(0.0001 + 0.03) = 1: 2 is beyond. */
	struct disturb_rule low = { 0, 2e9, 1e-3, 0 };
	r = record_disturbed_reasons(n, &low);
	assert_int_equal(json_array_size(r), 2);
	assert_non_null(strstr(json_string_value(json_array_get(r, 0)), "allowed 1"));
	json_decref(r);
	/* Rule (a): 2 GHz effective against a 3 GHz reference clock. */
	r = record_disturbed_reasons(q, &slow);
	assert_int_equal(json_array_size(r), 2);
	assert_non_null(strstr(json_string_value(json_array_get(r, 0)), "GHz"));
	json_decref(r);
	json_decref(q);
	json_decref(n);
	free(quiet);
	free(noisy);
}

static char *tmpdir(void)
{
	char tmpl[] = "/tmp/test_record.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	return xstrdup(tmpl);
}

static void test_resume_fingerprint(void **state)
{
	(void)state;
	char *dir = tmpdir();
	char *path = path_join(dir, "rec.json");
	char *why = NULL;
	struct plan p = test_plan(1);
	struct record_fp fp = { "ab", &p, "fixed", "fixed" };
	assert_int_equal(record_classify(path, &fp, &why), UNIT_MISSING);

	char *dr = driver_json("complete", 1, 100, 1000000, 1, 0, 1);
	json_t *procs = json_array();
	json_array_append_new(procs, entry_from(dr, 1, 0, 0, 1));
	json_t *r = build_record(procs, &p);
	assert_int_equal(evidence_write(path, r), 0);
	assert_int_equal(record_classify(path, &fp, &why), UNIT_DONE);

	struct record_fp other = fp;
	other.library_sha256 = "cd";
	assert_int_equal(record_classify(path, &other, &why), UNIT_STALE);
	assert_non_null(strstr(why, "library changed"));
	free(why);
	struct plan p2 = p;
	p2.iterations_per_trial = 101;
	other = fp;
	other.plan = &p2;
	assert_int_equal(record_classify(path, &other, &why), UNIT_STALE);
	free(why);
	other = fp;
	other.seed_mode = "per-trial";
	assert_int_equal(record_classify(path, &other, &why), UNIT_STALE);
	free(why);

	/* Not complete: redo. */
	struct plan p3 = test_plan(3);
	json_t *partial = build_record(procs, &p3);
	assert_int_equal(evidence_write(path, partial), 0);
	assert_int_equal(record_classify(path, &fp, &why), UNIT_REDO);
	free(why);

	/* Half a file (what a non-atomic writer would leave): corrupt, named. */
	char *text = evidence_dumps(r);
	assert_int_equal(write_file(path, text, strlen(text) / 2), 0);
	assert_int_equal(record_classify(path, &fp, &why), UNIT_CORRUPT);
	assert_non_null(strstr(why, path));
	free(why);
	/* Valid JSON of another schema: corrupt too. */
	assert_int_equal(write_file(path, "{\"schema\":\"ngcc-perf/record/9\",\"status\":\"complete\"}", 52), 0);
	assert_int_equal(record_classify(path, &fp, &why), UNIT_CORRUPT);
	free(why);

	free(text);
	json_decref(partial);
	json_decref(r);
	json_decref(procs);
	free(dr);
	rm_rf(dir);
	free(path);
	free(dir);
}

static void test_attempts_numbering(void **state)
{
	(void)state;
	char *run = tmpdir();
	assert_int_equal(rundir_prepare(run), 0);
	char *p = rundir_unit_path(run, "records", "kem-1", "L1__dec");
	char *d = path_dirname(p);
	assert_int_equal(mkdir_p(d, 0755), 0);
	assert_int_equal(rundir_attempts(run, "records", "kem-1", "L1__dec"), 0);
	for (int k = 1; k <= 2; k++) {
		assert_int_equal(write_file(p, "{}", 2), 0);
		assert_int_equal(rundir_move_to_attempts(run, "records", "kem-1", "L1__dec"), k);
		assert_false(path_exists(p));
	}
	assert_int_equal(rundir_attempts(run, "records", "kem-1", "L1__dec"), 2);
	char *a2 = path_join(run, "attempts/records/kem-1/L1__dec.2.json");
	assert_true(path_is_file(a2));
	/* A temp file of a dead writer is swept; pid 2^22+1 does not run. */
	char *tmp = xasprintf("%s.tmp.4194305", p);
	assert_int_equal(write_file(tmp, "x", 1), 0);
	rundir_sweep(run);
	assert_false(path_exists(tmp));
	free(tmp);
	free(a2);
	free(d);
	free(p);
	rm_rf(run);
	free(run);
}

static void test_planning_check(void **state)
{
	(void)state;
	json_t *doc = json_pack("{sn}", "planning");
	struct planning a, b;
	planning_defaults(&a);
	char *why = NULL;
	assert_int_equal(campaign_planning_check(doc, &a, &why), 1);
	assert_true(json_is_object(json_object_get(doc, "planning")));
	assert_int_equal(campaign_planning_check(doc, &a, &why), 1);
	b = a;
	b.trial_target_s = 0.01;
	assert_int_equal(campaign_planning_check(doc, &b, &why), 0);
	assert_non_null(strstr(why, "trial_target_s"));
	free(why);
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_order),
		cmocka_unit_test(test_flatten_and_stats),
		cmocka_unit_test(test_hash_sizes),
		cmocka_unit_test(test_counter_hz_source),
		cmocka_unit_test(test_process_statuses),
		cmocka_unit_test(test_disturbed),
		cmocka_unit_test(test_resume_fingerprint),
		cmocka_unit_test(test_attempts_numbering),
		cmocka_unit_test(test_planning_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
