/*
 * test_merge.c — `merge` of shard run directories: two shards join into
 * one run (every evidence file copied, campaign.json joined: start, end,
 * CPUs, phases per shard, host checks, merged_from), and each refusal —
 * other system, planning, measuring option, host state, environment,
 * assignment, shard twice, duplicate evidence, library digests, a used
 * --into — names the offending files and writes nothing.  --replace
 * replaces an earlier merge and nothing else.  Shard folders are untrusted
 * (docs/security.md): a symbolic link in one (to a file, to a folder, back
 * to a parent) or a FIFO is refused by path and nothing outside is copied;
 * a shard number outside 1..n or a system id that cannot be a folder name
 * is refused; what a merge killed between its renames left is restored or
 * removed by the next merge.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "campaign/merge.h"
#include "evidence/campaign_json.h"
#include "evidence/json.h"
#include "util/util.h"

static char root[64];

static char *at(const char *rel)
{
	return path_join(root, rel);
}

static void put(const char *rel, json_t *doc)
{
	char *p = at(rel), *d = path_dirname(p);
	assert_int_equal(mkdir_p(d, 0755), 0);
	assert_int_equal(evidence_write(p, doc), 0);
	json_decref(doc);
	free(d);
	free(p);
}

static json_t *env(int cpu)
{
	return json_pack("{sssssssisssssssn}", "hostname", "vm", "cpu_model", "Test CPU",
			 "kernel", "6.1", "cpu_number", cpu, "compiler", "gcc 12", "microcode", "0x1",
			 "cpufreq_governor", "performance", "core_clock_mhz");
}

/* A shard run: campaign.json plus one record, calibration and memory
 * record per label. */
static void shard_run(const char *name, int k, int cpu, const char *digest, const char **labels,
		      size_t n_labels, const char *sha, const char *started)
{
	char *dir = at(name);
	struct planning p;
	planning_defaults(&p);
	json_t *d = campaign_skeleton(root, dir);
	json_object_set_new(d, "system_id", json_string("vm"));
	json_object_set_new(d, "started_utc", json_string(started));
	json_object_set_new(d, "ended_utc", json_string("2026-12-01T10:30:00Z"));
	json_object_set_new(d, "environment_at_start", env(cpu));
	json_object_set_new(d, "environment_at_end", env(cpu));
	json_object_set_new(d, "planning", campaign_planning_json(&p));
	json_object_set_new(d, "host_problems", json_pack("[s]", "running under a hypervisor"));
	json_object_set_new(d, "shards", json_pack("{sisis[i]sssn}", "n", 2, "shard", k, "cpus", cpu,
						   "assignment_digest", digest, "defer"));
	campaign_add_host_check(d, "measure", cpu, json_array());
	size_t ph = campaign_phase_begin(d, "measure");
	campaign_phase_end(d, ph, 0);
	char *rel = xasprintf("%s/campaign.json", name);
	put(rel, d);
	free(rel);
	for (size_t i = 0; i < n_labels; i++) {
		static const char *const kinds[][2] = { { "records", "record" }, { "calibrate", "calibration" },
							{ "memory", "memory" } };
		for (size_t kd = 0; kd < 3; kd++) {
			char *schema = xasprintf("ngcc-perf/%s/1", kinds[kd][1]);
			rel = xasprintf("%s/%s/kem-1/%s__keygen.json", name, kinds[kd][0], labels[i]);
			put(rel, json_pack("{ssssssssss}", "schema", schema, "status", "complete",
					   "candidate", "kem-1", "label", labels[i], "library_sha256", sha));
			free(rel);
			free(schema);
		}
	}
	rel = xasprintf("%s/shard-%d.out", name, k);
	char *p2 = at(rel);
	assert_int_equal(write_file(p2, "log\n", 4), 0);
	free(p2);
	free(rel);
	rel = xasprintf("%s/locks/worker.lock", name);
	p2 = at(rel);
	char *ld = path_dirname(p2);
	mkdir_p(ld, 0755);
	write_file(p2, "", 0);
	free(ld);
	free(p2);
	free(rel);
	free(dir);
}

static const char *L1[] = { "A-1" }, *L2[] = { "B-1", "C-1" };
#define SHA_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define SHA_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

static int setup(void **state)
{
	(void)state;
	strcpy(root, "/tmp/ngcc-test-merge.XXXXXX");
	assert_non_null(mkdtemp(root));
	shard_run("s1", 1, 1, "d1", L1, 1, SHA_A, "2026-12-01T10:00:05Z");
	shard_run("s2", 2, 0, "d1", L2, 2, SHA_A, "2026-12-01T10:00:01Z");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rm_rf(root);
	return 0;
}

/* Run merge with stderr captured; returns the exit code, *err the text. */
static int merge(const char *a, const char *b, const char *into, int replace, char **err)
{
	char *pa = at(a), *pb = at(b), *pi = at(into), *log = at("stderr.txt");
	const char *runs[] = { pa, pb };
	fflush(stderr);
	int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 2);
	close(fd);
	int rc = run_merge(runs, 2, pi, replace);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	size_t len;
	assert_int_equal(read_file(log, err, &len), 0);
	free(pa);
	free(pb);
	free(pi);
	free(log);
	return rc;
}

static void test_joined(void **state)
{
	char *err;
	(void)state;
	assert_int_equal(merge("s1", "s2", "m", 0, &err), 0);
	free(err);
	const char *files[] = { "m/records/kem-1/A-1__keygen.json", "m/records/kem-1/C-1__keygen.json",
				"m/calibrate/kem-1/B-1__keygen.json", "m/memory/kem-1/A-1__keygen.json",
				"m/shard-1.out", "m/shard-2.out", "m/campaign.json" };
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char *p = at(files[i]);
		assert_true(path_is_file(p));
		free(p);
	}
	char *locks = at("m/locks");
	assert_false(path_exists(locks));
	free(locks);
	char *m = at("m");
	json_t *d = campaign_load(m, NULL);
	assert_non_null(d);
	assert_string_equal(jget_str(d, "run_id", ""), "m");
	assert_string_equal(jget_str(d, "started_utc", ""), "2026-12-01T10:00:01Z");
	json_t *sh = json_object_get(d, "shards");
	assert_int_equal(jget_int(sh, "n", 0), 2);
	assert_null(json_object_get(sh, "shard"));
	assert_string_equal(jget_str(sh, "assignment_digest", ""), "d1");
	assert_int_equal(json_array_size(json_object_get(sh, "cpus")), 2);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(sh, "cpus"), 0)), 0);
	assert_int_equal(json_array_size(json_object_get(sh, "merged_from")), 2);
	json_t *phases = json_object_get(d, "phases");
	assert_int_equal(json_array_size(phases), 2);
	assert_string_equal(jget_str(json_array_get(phases, 0), "shard", ""), "1/2");
	assert_string_equal(jget_str(json_array_get(phases, 1), "shard", ""), "2/2");
	assert_int_equal(json_array_size(json_object_get(d, "host_checks")), 2);
	assert_int_equal(json_array_size(json_object_get(d, "host_problems")), 1);
	json_decref(d);

	/* merging again into the same place: refused; with --replace done */
	assert_int_equal(merge("s1", "s2", "m", 0, &err), 2);
	assert_non_null(strstr(err, "--replace"));
	free(err);
	assert_int_equal(merge("s1", "s2", "m", 1, &err), 0);
	free(err);
	/* --replace never replaces a run that is not a merge */
	assert_int_equal(merge("s1", "m", "s2", 1, &err), 2);
	free(err);
	free(m);
}

/* Change one thing in s2's campaign.json, merge, check the message names
 * both files and nothing was written; then restore. */
static void expect_refusal(const char *key, json_t *value, const char *needle)
{
	char *dir = at("s2"), *err = NULL;
	json_t *d = campaign_load(dir, NULL), *orig = json_deep_copy(d);
	json_object_set_new(d, key, value);
	put("s2/campaign.json", d);
	assert_int_equal(merge("s1", "s2", "bad", 0, &err), 2);
	if (!strstr(err, needle))
		fail_msg("'%s' not in: %s", needle, err);
	assert_non_null(strstr(err, "s1/campaign.json"));
	assert_non_null(strstr(err, "s2/campaign.json"));
	char *bad = at("bad");
	assert_false(path_exists(bad));
	free(bad);
	free(err);
	put("s2/campaign.json", orig);
	free(dir);
}

static void test_refusals(void **state)
{
	struct planning p;
	(void)state;
	planning_defaults(&p);
	p.trials = 2;
	expect_refusal("system_id", json_string("other"), "different systems");
	expect_refusal("planning", campaign_planning_json(&p), "different planning constants");
	expect_refusal("options", json_pack("{sssnsbsb}", "seed_mode", "per-trial", "input_pool",
					    "sampling", 0, "memory_pass", 0), "different measuring option seed_mode");
	expect_refusal("host_problems", json_array(), "mixed host states");
	json_t *e = env(0);
	json_object_set_new(e, "hostname", json_string("elsewhere"));
	expect_refusal("environment_at_start", e, "different environments");
	expect_refusal("shards", json_pack("{sisis[i]sssn}", "n", 2, "shard", 2, "cpus", 0,
					   "assignment_digest", "d2", "defer"), "different assignments");
	expect_refusal("shards", json_pack("{sisis[i]sssn}", "n", 2, "shard", 1, "cpus", 0,
					   "assignment_digest", "d1", "defer"), "shard 1/2 twice");
	expect_refusal("shards", json_pack("{sisis[i]ssss}", "n", 2, "shard", 2, "cpus", 0,
					   "assignment_digest", "d1", "defer", "Slow"), "different --defer");
}

static void test_evidence_refusals(void **state)
{
	char *err;
	(void)state;
	/* the same record in both shards */
	shard_run("s3", 2, 0, "d1", L1, 1, SHA_A, "2026-12-01T10:00:01Z");
	assert_int_equal(merge("s1", "s3", "bad", 0, &err), 2);
	assert_non_null(strstr(err, "duplicate evidence records/kem-1/A-1__keygen.json"));
	assert_non_null(strstr(err, "/s1"));
	assert_non_null(strstr(err, "/s3"));
	free(err);
	/* one instance, two libraries (its operations in two shards) */
	const char *b[] = { "B-1" };
	shard_run("s4", 2, 0, "d1", b, 1, SHA_B, "2026-12-01T10:00:01Z");
	char *p = at("s4/records/kem-1/B-1__keygen.json");
	char *q = at("s4/records/kem-1/B-1__dec.json");
	assert_int_equal(rename(p, q), 0);
	free(p);
	free(q);
	char *dir = at("s4/calibrate"), *mem = at("s4/memory");
	rm_rf(dir);
	rm_rf(mem);
	free(dir);
	free(mem);
	assert_int_equal(merge("s2", "s4", "bad", 0, &err), 2);
	assert_non_null(strstr(err, "different library digests for kem-1/B-1"));
	assert_non_null(strstr(err, "s4/records/kem-1/B-1__dec.json"));
	free(err);
	char *bad = at("bad");
	assert_false(path_exists(bad));
	free(bad);
}

/* Merge s1 and s2 with one hostile entry made by make(path) at rel in s2:
 * refused (exit 3) naming rel and the word `want`, nothing written. */
static void expect_unusual(const char *rel, int (*make)(const char *target, const char *path),
			   const char *target, const char *want)
{
	char *path = at(rel), *err = NULL, *bad = at("bad");
	char *tgt = target[0] == '/' ? xstrdup(target) : at(target);
	assert_int_equal(make(tgt, path), 0);
	assert_int_equal(merge("s1", "s2", "bad", 0, &err), 3);
	if (!strstr(err, rel) || !strstr(err, want))
		fail_msg("'%s' and '%s' not in: %s", rel, want, err);
	assert_false(path_exists(bad));
	assert_int_equal(unlink(path), 0);
	free(err);
	free(bad);
	free(tgt);
	free(path);
}

static int make_link(const char *target, const char *path)
{
	return symlink(target, path);
}

static int make_fifo(const char *target, const char *path)
{
	(void)target;
	return mkfifo(path, 0644);
}

static void test_links_refused(void **state)
{
	(void)state;
	char *secret = at("secret.json");
	assert_int_equal(write_file(secret, "{\"secret\": 1}\n", 15), 0);
	/* a linked file, a linked samples/ folder, a link back to a parent */
	expect_unusual("s2/records/kem-1/Z-1__keygen.json", make_link, "secret.json", "symbolic link");
	char *outside = at("outside");
	mkdir_p(outside, 0755);
	char *o1 = at("outside/Z-1__keygen.json");
	write_file(o1, "{}\n", 3);
	expect_unusual("s2/samples", make_link, "outside", "symbolic link");
	expect_unusual("s2/records/kem-1/up", make_link, "..", "symbolic link");
	expect_unusual("s2/records/kem-1/root", make_link, "/", "symbolic link");
	expect_unusual("s2/campaign-fifo", make_fifo, "", "special file");
	/* campaign.json itself a link to another run's */
	char *c2 = at("s2/campaign.json"), *keep = at("c2.json");
	assert_int_equal(rename(c2, keep), 0);
	expect_unusual("s2/campaign.json", make_link, "c2.json", "symbolic link");
	assert_int_equal(rename(keep, c2), 0);
	/* and with none of them the merge goes through */
	char *err = NULL;
	assert_int_equal(merge("s1", "s2", "m", 0, &err), 0);
	free(err);
	free(c2);
	free(keep);
	free(o1);
	free(outside);
	free(secret);
}

/* campaign.json values that merge must not take on trust: each refused
 * (exit 3) with the field named; nothing written. */
static void expect_bad_campaign(const char *key, json_t *value, const char *needle)
{
	char *dir = at("s2"), *err = NULL, *bad = at("bad");
	json_t *d = campaign_load(dir, NULL), *orig = json_deep_copy(d);
	assert_non_null(d);
	json_object_set_new(d, key, value);
	put("s2/campaign.json", d);
	assert_int_equal(merge("s1", "s2", "bad", 0, &err), 3);
	if (!strstr(err, needle))
		fail_msg("'%s' not in: %s", needle, err);
	assert_false(path_exists(bad));
	put("s2/campaign.json", orig);
	free(err);
	free(bad);
	free(dir);
}

static void test_campaign_values(void **state)
{
	(void)state;
	expect_bad_campaign("shards", json_pack("{sisis[i]sssn}", "n", 2, "shard", 3, "cpus", 0,
						"assignment_digest", "d1", "defer"),
			    "shards.shard is 3, outside 1..2");
	expect_bad_campaign("shards", json_pack("{sisis[i]sssn}", "n", 2, "shard", -1, "cpus", 0,
						"assignment_digest", "d1", "defer"),
			    "shards.shard is -1");
	expect_bad_campaign("shards", json_pack("{sIsis[i]sssn}", "n", (json_int_t)4294967298LL, "shard", 2,
						"cpus", 0, "assignment_digest", "d1", "defer"),
			    "shards.n");
	expect_bad_campaign("shards", json_pack("{sisis[i]sssn}", "n", 0, "shard", 0, "cpus", 0,
						"assignment_digest", "d1", "defer"),
			    "shards.n");
	expect_bad_campaign("shards", json_pack("{sisss[i]sssn}", "n", 2, "shard", "later", "cpus", 0,
						"assignment_digest", "d1", "defer"),
			    "neither a shard number");
	expect_bad_campaign("shards", json_pack("{sis[i]sssns[{ssss}]}", "n", 2, "cpus", 0,
						"assignment_digest", "d1", "defer", "merged_from",
						"run", "x", "shard", "3/2"),
			    "merged_from[0].shard");
	expect_bad_campaign("system_id", json_string("../../x"), "system_id '../../x' cannot name");
	expect_bad_campaign("system_id", json_string("a\nb"), "control character");
	expect_bad_campaign("system_id", json_string(".."), "starts with '.'");
	expect_bad_campaign("options", json_pack("{sssnsbsbs[s]}", "seed_mode", "fixed", "input_pool",
					     "sampling", 0, "memory_pass", 0, "candidates", "../../etc"),
			    "options.candidates[0] '../../etc' cannot name");
}

/* A merge killed between its two renames: the earlier merge sits in
 * <into>.merge.old.<pid>, the new one in <into>.merge.tmp.<pid>, --into is
 * gone.  The next merge restores the old one, removes the rest, and
 * merges; one whose process still runs is left alone. */
static void test_interrupted_merge(void **state)
{
	char *err = NULL;
	(void)state;
	assert_int_equal(merge("s1", "s2", "m", 0, &err), 0);
	free(err);
	char *m = at("m"), *old = at("m.merge.old.999999999"), *tmp = at("m.merge.tmp.999999999");
	char *tmp_file = at("m.merge.tmp.999999999/campaign.json");
	char *live = xasprintf("%s.merge.tmp.%ld", m, (long)getppid());
	assert_int_equal(rename(m, old), 0);
	assert_int_equal(mkdir_p(tmp, 0755), 0);
	assert_int_equal(write_file(tmp_file, "{", 1), 0);
	assert_int_equal(mkdir_p(live, 0755), 0);
	assert_int_equal(merge("s1", "s2", "m", 1, &err), 0);
	if (!strstr(err, "restored") || !strstr(err, "m.merge.old.999999999") ||
	    !strstr(err, "removed") || !strstr(err, "m.merge.tmp.999999999"))
		fail_msg("recovery not said: %s", err);
	free(err);
	assert_false(path_exists(old));
	assert_false(path_exists(tmp));
	assert_true(path_is_dir(live)); /* its merge may still be running */
	json_t *d = campaign_load(m, NULL);
	assert_non_null(d);
	json_decref(d);
	/* with --into still in place, an old one left over is only removed */
	assert_int_equal(mkdir_p(old, 0755), 0);
	assert_int_equal(merge("s1", "s2", "m", 1, &err), 0);
	assert_non_null(strstr(err, "removed"));
	free(err);
	assert_false(path_exists(old));
	rm_rf(live);
	free(live);
	free(tmp_file);
	free(tmp);
	free(old);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_joined, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_evidence_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_links_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_campaign_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interrupted_merge, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
