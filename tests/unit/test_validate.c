/*
 * test_validate.c — `validate` (src/evidence/validate.c) on a small
 * hand-built dataset: one system, one KEM instance with a three-trial
 * keygen record whose statistics come from stats_compute, a profile whose
 * shares are computed here by the §10.4–10.5 formulas, a KAT log, and the
 * pages rendered from it.  The clean dataset passes; a changed trial, a
 * changed share, a changed KAT log byte and a changed page byte are each
 * caught with the right PROBLEM line and exit 1.  `publish` is tested on
 * the same evidence laid out as a workspace and run: what it writes must
 * validate, unfixed records are refused without the option, --defer leaves
 * instances out, and an absolute path aborts it without touching the
 * existing dataset.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/json.h"
#include "dataset/publish.h"
#include "dataset/publish_util.h"
#include "dataset/validate.h"
#include "model/size_audit.h"
#include "stats/stats.h"
#include "site/site.h"
#include "util/fsutil.h"
#include "util/util.h"

#define SYS "x86_1"
#define LIB_SHA "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define REC "data/" SYS "/records/toy/Toy-1__keygen.json"
#define PROF "data/" SYS "/profile/toy/Toy-1__keygen.json"
#define KATLOG "data/" SYS "/kat/toy/Toy-1.log"

static const char kat_log[] =
	"id = toy\nlabel = Toy-1\ninstance = TOY_1\nrecords = 10\n"
	"RESULT toy Toy-1 PASS\n";

static const struct trial trials[3] = {
	{ 50, 1000123, 2600000, 1 },
	{ 50, 1000456, 2600700, 1 },
	{ 50, 1010789, 2630000, 1 },
};

/* ---- fixture -------------------------------------------------------------- */

static void put(const char *dir, const char *rel, const char *text)
{
	char *path = path_join(dir, rel), *parent = path_dirname(path);
	assert_int_equal(mkdir_p(parent, 0755), 0);
	assert_int_equal(write_file(path, text, strlen(text)), 0);
	free(parent);
	free(path);
}

static void put_json(const char *dir, const char *rel, json_t *j)
{
	char *s = evidence_dumps(j);
	put(dir, rel, s);
	free(s);
	json_decref(j);
}

static json_t *environment(void)
{
	return json_pack("{sssssssisssssssssnsnsnsnsnsnsssisI}",
			 "hostname", "bench1", "architecture", "x86_64",
			 "cpu_model", "Test CPU", "cpu_number", 3,
			 "microcode", "0x1", "kernel", "6.1.0", "compiler", "gcc 12",
			 "perf_event_paranoid", "2", "cpufreq_governor", "cpufreq_min_khz",
			 "cpufreq_max_khz", "intel_pstate_no_turbo", "cpufreq_boost",
			 "cpufreq_driver", "smt_control", "off", "core_clock_mhz", 2600,
			 "memory_total_kib", (json_int_t)16000000);
}

static json_t *trial_json(const struct trial *t)
{
	return json_pack("{sIsIsIsisisisisi}", "calls", (json_int_t)t->calls,
			 "ns", (json_int_t)t->ns, "cycles", (json_int_t)t->cycles,
			 "invol_switches", 0, "vol_switches", 0, "migrations", 0,
			 "minor_faults", 0, "major_faults", 0);
}

static void add_statistics(json_t *r)
{
	struct timing_stats s;
	stats_compute(trials, 3, &s);
	json_object_set_new(r, "measurements", json_integer((json_int_t)s.measurements));
	json_object_set_new(r, "guide_100_measurements_met", json_boolean(s.guide_100_measurements_met));
	json_object_set_new(r, "mean_seconds", json_real(s.mean_seconds));
	json_object_set_new(r, "mean_cycles", json_real(s.mean_cycles));
	json_object_set_new(r, "operations_per_second", json_real(s.operations_per_second));
	json_object_set_new(r, "median_trial_seconds", json_real(s.median_trial_seconds));
	json_object_set_new(r, "min_trial_seconds", json_real(s.min_trial_seconds));
	json_object_set_new(r, "max_trial_seconds", json_real(s.max_trial_seconds));
	json_object_set_new(r, "median_trial_cycles", json_real(s.median_trial_cycles));
	json_object_set_new(r, "throughput_MB_per_second", json_null());
	json_object_set_new(r, "dispersion", json_pack("{sfsfsfsfsfsf}",
		"sd_trial_seconds", s.sd_trial_seconds, "cv_trial_seconds", s.cv_trial_seconds,
		"spread_trial_seconds", s.spread_trial_seconds, "sd_trial_cycles", s.sd_trial_cycles,
		"cv_trial_cycles", s.cv_trial_cycles, "spread_trial_cycles", s.spread_trial_cycles));
	json_object_set_new(r, "disturbed_retries", json_integer(0));
	json_object_set_new(r, "noisy", json_boolean(s.noisy));
}

/* A complete keygen record: one process per trial (separate processes). */
static json_t *record(int unfixed)
{
	json_t *r = json_object(), *procs = json_array(), *flat = json_array();
	json_object_set_new(r, "schema", json_string("ngcc-perf/record/1"));
	json_object_set_new(r, "status", json_string("complete"));
	json_object_set_new(r, "status_detail", json_null());
	json_object_set_new(r, "candidate", json_string("toy"));
	json_object_set_new(r, "label", json_string("Toy-1"));
	json_object_set_new(r, "instance", json_string("TOY_1"));
	json_object_set_new(r, "variant", json_string("reference"));
	json_object_set_new(r, "flags", json_string("guide"));
	json_object_set_new(r, "operation", json_string("keygen"));
	json_object_set_new(r, "op_key", json_string("keygen"));
	json_object_set_new(r, "input_bytes", json_null());
	json_object_set_new(r, "plan", json_pack("{sisisisb}", "trials", 3,
						 "iterations_per_trial", 50, "warmups", 3,
						 "separate_processes", 1));
	json_object_set_new(r, "kat", json_string("PASS"));
	json_object_set_new(r, "kat_not_passed", json_false());
	json_object_set_new(r, "library", json_string("build/toy/libToy-1.so"));
	json_object_set_new(r, "library_sha256", json_string(LIB_SHA));
	json_object_set_new(r, "kat_log", json_string("kat/toy/Toy-1.log"));
	json_object_set_new(r, "host", unfixed
		? json_pack("{sbs[s]ss}", "unfixed", 1, "problems", "turbo/boost is enabled",
			    "override_reason", "ci")
		: json_pack("{sbs[]sn}", "unfixed", 0, "problems", "override_reason"));
	json_object_set_new(r, "environment", environment());
	json_object_set_new(r, "cpu", json_integer(3));
	for (int i = 0; i < 3; i++) {
		json_array_append_new(procs, json_pack("{sssisisoso}", "status", "complete",
						       "exit_code", 0, "attempt", 1,
						       "command", json_pack("[s]", "<ngcc-perf>/bin/ngcc-perf-driver"),
						       "trials", json_pack("[o]", trial_json(&trials[i]))));
		json_array_append_new(flat, trial_json(&trials[i]));
	}
	json_object_set_new(r, "processes", procs);
	json_object_set_new(r, "trials", flat);
	add_statistics(r);
	return r;
}

/* The profile with shares computed here from docs/method.md §10.4–§10.5. */
static json_t *profile(void)
{
	const double total = 1000000, ops = 100, o_in = 5, o_out = 3;
	const double xof_t = 200000, xof_n = 300, drng_t = 10000, drng_n = 100;
	double denom = total - (xof_n + drng_n) * (o_in + o_out);
	double cx = (xof_t - xof_n * o_in) / denom, cd = (drng_t - drng_n * o_in) / denom;
	json_t *p = json_object();
	json_object_set_new(p, "schema", json_string("ngcc-perf/profile/1"));
	json_object_set_new(p, "status", json_string("complete"));
	json_object_set_new(p, "candidate", json_string("toy"));
	json_object_set_new(p, "label", json_string("Toy-1"));
	json_object_set_new(p, "operation", json_string("keygen"));
	json_object_set_new(p, "op_key", json_string("keygen"));
	json_object_set_new(p, "meta", json_pack("{sssfsisisi}", "tick_source", "tsc-fenced",
						 "tick_hz", 2.6e9, "warmups", 1, "iterations", 100,
						 "overflow_calls", 0));
	json_object_set_new(p, "total", json_pack("{sisi}", "operations", (int)ops,
						  "ticks", (int)total));
	json_object_set_new(p, "calls", json_pack("[{sssisisisi}{sssisisisi}]",
		"fn", "pseudoXOF", "in_bits", 256, "out_bits", 8192, "calls", (int)xof_n, "ticks", (int)xof_t,
		"fn", "drng", "in_bits", 0, "out_bits", 256, "calls", (int)drng_n, "ticks", (int)drng_t));
	json_object_set_new(p, "share", json_pack("{sfsf}", "drng", drng_t / total,
						  "pseudoXOF", xof_t / total));
	json_object_set_new(p, "hash_share", json_real(xof_t / total));
	json_object_set_new(p, "drng_share", json_real(drng_t / total));
	json_object_set_new(p, "calls_per_operation", json_pack("{sfsf}", "drng", drng_n / ops,
								"pseudoXOF", xof_n / ops));
	json_object_set_new(p, "overhead", json_pack("{sfsf}", "o_in", o_in, "o_out", o_out));
	json_object_set_new(p, "corrected", json_pack("{s{sfsf}sf}", "share", "drng", cd,
						      "pseudoXOF", cx, "hash_share", cx));
	return p;
}

static json_t *build_doc(void)
{
	char hex[65];
	sha256_hex(kat_log, strlen(kat_log), hex);
	return json_pack("{ss s{s{sssssssssssssbsbssssssssss}}}",
			 "schema", "ngcc-perf/build/1", "instances", "toy/Toy-1",
			 "candidate", "toy", "label", "Toy-1", "instance", "TOY_1",
			 "variant", "reference", "flags", "guide", "kat", "PASS",
			 "kat_not_passed", 0, "excluded", 0,
			 "kat_log", "kat/toy/Toy-1.log", "kat_log_sha256", hex,
			 "library", "build/toy/libToy-1.so", "library_sha256", LIB_SHA,
			 "compiler", "gcc 12");
}

static json_t *campaign(void)
{
	return json_pack("{sss{ssss}sssssoso}", "schema", "ngcc-perf/campaign/1",
			 "tool", "name", "ngcc-perf", "version", "0.1.0",
			 "system_id", SYS, "run_id", "r1",
			 "environment_at_start", environment(), "host_problems", json_array());
}

/* Write the dataset (unfixed: its record was taken on an unfixed host)
 * and its pages; returns the temporary dataset folder. */
static char *make_dataset(int unfixed)
{
	char tmpl[] = "/tmp/ngcc-test-validate.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	char *dir = xstrdup(tmpl);
	put_json(dir, "data/" SYS "/campaign.json", campaign());
	put_json(dir, "data/" SYS "/build.json", build_doc());
	put(dir, KATLOG, kat_log);
	put_json(dir, REC, record(unfixed));
	put_json(dir, PROF, profile());

	struct rendered_pages pages;
	char *err = NULL;
	assert_int_equal(size_audit_write_published(dir, SYS, &err), 0);
	assert_int_equal(pages_render_dataset(dir, &pages, &err), 0);
	assert_true(pages.n > 0);
	for (size_t i = 0; i < pages.n; i++) {
		char *rel = xasprintf("reports/%s", pages.v[i].path);
		put(dir, rel, pages.v[i].data);
		free(rel);
	}
	pages_free(&pages);
	return dir;
}

/* ---- running validate ----------------------------------------------------- */

struct run {
	int rc;
	char *out;
	struct validate_counts c;
};

static struct run run_validate(const char *dir, int publish_unfixed)
{
	struct run r;
	size_t len = 0;
	FILE *f = open_memstream(&r.out, &len);
	struct validate_opts o = { publish_unfixed, f };
	r.rc = validate_dataset(dir, &o, &r.c);
	fclose(f);
	return r;
}

static void edit_json(const char *dir, const char *rel, void (*fn)(json_t *))
{
	char *path = path_join(dir, rel);
	json_t *j = evidence_load(path, NULL);
	assert_non_null(j);
	fn(j);
	assert_int_equal(evidence_write(path, j), 0);
	json_decref(j);
	free(path);
}

static void flip_byte(const char *dir, const char *rel, size_t at)
{
	char *path = path_join(dir, rel), *data = NULL;
	size_t len = 0;
	assert_int_equal(read_file(path, &data, &len), 0);
	assert_true(at < len);
	data[at] ^= 0x01;
	assert_int_equal(write_file(path, data, len), 0);
	free(data);
	free(path);
}

static void expect_problem(const struct run *r, const char *line_start)
{
	if (!strstr(r->out, line_start))
		fail_msg("expected a line starting '%s' in:\n%s", line_start, r->out);
	assert_int_equal(r->rc, 1);
}

static void cleanup(char *dir, struct run *r)
{
	rm_rf(dir);
	free(dir);
	free(r->out);
}

/* ---- tests ------------------------------------------------------------------ */

static void test_clean_dataset_passes(void **state)
{
	(void)state;
	char *dir = make_dataset(0);
	struct run r = run_validate(dir, 0);
	if (r.rc)
		fail_msg("clean dataset: %s", r.out);
	assert_int_equal(r.c.records, 1);
	assert_int_equal(r.c.profiles, 1);
	assert_int_equal(r.c.kat_logs, 1);
	assert_non_null(strstr(r.out, "1 timing record(s), 1 profile(s), 1 KAT log(s), "
				      "0 problem(s); report check: ok\n"));
	cleanup(dir, &r);
}

static void bump_ns(json_t *rec)
{
	json_t *t0 = json_array_get(json_object_get(rec, "trials"), 0);
	json_t *p0 = json_array_get(json_object_get(json_array_get(
		json_object_get(rec, "processes"), 0), "trials"), 0);
	json_object_set_new(t0, "ns", json_integer(1000124));
	json_object_set_new(p0, "ns", json_integer(1000124));
}

static void test_changed_trial_is_caught(void **state)
{
	(void)state;
	char *dir = make_dataset(0);
	edit_json(dir, REC, bump_ns);
	struct run r = run_validate(dir, 0);
	expect_problem(&r, "PROBLEM " REC ": mean_seconds is ");
	assert_non_null(strstr(r.out, "PROBLEM " REC ": operations_per_second is "));
	assert_null(strstr(r.out, "mean_cycles"));   /* cycles were not touched */
	cleanup(dir, &r);
}

static void bump_flat_only(json_t *rec)
{
	json_t *t2 = json_array_get(json_object_get(rec, "trials"), 2);
	json_object_set_new(t2, "calls", json_integer(51));
}

static void test_flattened_trials_must_match_processes(void **state)
{
	(void)state;
	char *dir = make_dataset(0);
	edit_json(dir, REC, bump_flat_only);
	struct run r = run_validate(dir, 0);
	expect_problem(&r, "PROBLEM " REC ": trials[2] differs from processes[2].trials[0]");
	cleanup(dir, &r);
}

static void bump_share(json_t *p)
{
	json_object_set_new(json_object_get(p, "share"), "pseudoXOF", json_real(0.2000001));
}

static void test_changed_share_is_caught(void **state)
{
	(void)state;
	char *dir = make_dataset(0);
	edit_json(dir, PROF, bump_share);
	struct run r = run_validate(dir, 0);
	expect_problem(&r, "PROBLEM " PROF ": share.pseudoXOF is ");
	cleanup(dir, &r);
}

static void test_changed_kat_log_is_caught(void **state)
{
	(void)state;
	char *dir = make_dataset(0);
	flip_byte(dir, KATLOG, 3);
	struct run r = run_validate(dir, 0);
	expect_problem(&r, "PROBLEM " KATLOG ": SHA-256 ");
	cleanup(dir, &r);
}

static void test_kat_result_must_match_build(void **state)
{
	(void)state;
	char *dir = make_dataset(0);
	/* "PASS" → "P@SS" in the RESULT line: digest and status both wrong. */
	flip_byte(dir, KATLOG, strlen(kat_log) - 4);
	struct run r = run_validate(dir, 0);
	expect_problem(&r, "PROBLEM " KATLOG ": RESULT says P@SS, build.json's kat is PASS");
	cleanup(dir, &r);
}

static void test_changed_page_is_caught(void **state)
{
	(void)state;
	char *dir = make_dataset(0);
	struct strlist pages = STRLIST_INIT;
	char *reports = path_join(dir, "reports");
	tree_list_files(reports, "", &pages);
	assert_true(pages.n > 0);
	char *rel = xasprintf("reports/%s", pages.items[pages.n - 1]);
	flip_byte(dir, rel, 10);
	struct run r = run_validate(dir, 0);
	char *want = xasprintf("PROBLEM %s: differs from the page regenerated from the dataset "
			       "(first difference at byte 10)", rel);
	expect_problem(&r, want);
	assert_non_null(strstr(r.out, "0 problem(s); report check: 1 mismatch(es)\n"));
	free(want);
	free(rel);
	free(reports);
	sl_free(&pages);
	cleanup(dir, &r);
}

/* The first file of the site whose name ends in ext, as "site/<path>". */
static char *site_file_with(const struct site_files *f, const char *ext)
{
	for (size_t i = 0; i < f->n; i++)
		if (str_ends_with(f->v[i].path, ext) && strncmp(f->v[i].path, "data/", 5))
			return xasprintf("site/%s", f->v[i].path);
	fail_msg("the site has no %s file", ext);
	return NULL;
}

/* With a site/ folder validate regenerates the whole site: it passes as
 * `site` wrote it, and one changed byte of an HTML, SVG or CSV file is a
 * mismatch naming the file. */
static void test_site_is_checked(void **state)
{
	(void)state;
	char *dir = make_dataset(0), *err = NULL;
	char *out = path_join(dir, "site");
	struct site_files site;
	if (site_render_published(dir, &site, &err) || site_write(&site, out, &err))
		fail_msg("site: %s", err);
	struct run r = run_validate(dir, 0);
	if (r.rc)
		fail_msg("dataset with its site: %s", r.out);
	char *line = xasprintf("site: %zu file(s) regenerated and compared", site.n);
	assert_non_null(strstr(r.out, line));
	free(line);
	free(r.out);
	static const char *const ext[] = { ".html", ".svg", ".csv" };
	for (size_t k = 0; k < 3; k++) {
		char *rel = site_file_with(&site, ext[k]);
		flip_byte(dir, rel, 10);
		r = run_validate(dir, 0);
		char *want = xasprintf("PROBLEM %s: differs from the page regenerated", rel);
		expect_problem(&r, want);
		assert_non_null(strstr(r.out, "report check: 1 mismatch(es)\n"));
		flip_byte(dir, rel, 10);
		free(want);
		free(rel);
		free(r.out);
	}
	site_files_free(&site);
	free(out);
	r = run_validate(dir, 0);
	assert_int_equal(r.rc, 0);
	cleanup(dir, &r);
}

static void test_unfixed_needs_the_option(void **state)
{
	(void)state;
	char *dir = make_dataset(1);
	struct run r = run_validate(dir, 0);
	expect_problem(&r, "PROBLEM " REC ": measured on an unfixed host (override: ci)");
	free(r.out);
	r = run_validate(dir, 1);
	if (r.rc)
		fail_msg("with --publish-unfixed: %s", r.out);
	cleanup(dir, &r);
}

static void other_governor(json_t *rec)
{
	json_object_set_new(json_object_get(rec, "environment"), "cpufreq_governor",
			    json_string("powersave"));
}

static void test_environment_must_agree(void **state)
{
	(void)state;
	char *dir = make_dataset(0);
	char *src = path_join(dir, REC);
	char *second = path_join(dir, "data/" SYS "/records/toy/Toy-1__enc.json");
	json_t *j = evidence_load(src, NULL);
	json_object_set_new(j, "operation", json_string("enc"));
	json_object_set_new(j, "op_key", json_string("enc"));
	other_governor(j);
	assert_int_equal(evidence_write(second, j), 0);
	json_decref(j);
	struct run r = run_validate(dir, 0);
	expect_problem(&r, "PROBLEM data/" SYS "/records/toy/Toy-1__keygen.json: environment differs "
		       "from data/" SYS "/records/toy/Toy-1__enc.json: ");
	free(second);
	free(src);
	cleanup(dir, &r);
}

static void future_schema(json_t *j)
{
	json_object_set_new(j, "schema", json_string("ngcc-perf/campaign/2"));
	json_object_set_new(j, "notes", json_pack("[s]", "/home/someone/run"));
}

static void test_schema_and_absolute_paths(void **state)
{
	(void)state;
	char *dir = make_dataset(0);
	edit_json(dir, "data/" SYS "/campaign.json", future_schema);
	struct run r = run_validate(dir, 0);
	expect_problem(&r, "PROBLEM data/" SYS "/campaign.json: unknown schema version "
		       "\"ngcc-perf/campaign/2\"");
	assert_non_null(strstr(r.out, "PROBLEM data/" SYS "/campaign.json: absolute path at "
				      "notes[0]: \"/home/someone/run\""));
	cleanup(dir, &r);
}

static void test_not_a_dataset(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ngcc-test-validate.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	struct run r = run_validate(tmpl, 0);
	assert_int_equal(r.rc, 3);
	free(r.out);
	rm_rf(tmpl);
}


/* ---- publish ----------------------------------------------------------------- */

struct ws_fixture {
	char *top, *ws, *run, *dataset;
};

static void set_string(json_t *j, const char *key, const char *value)
{
	json_object_set_new(j, key, json_string(value));
}

/* A workspace with build/toy/ (build.json, KAT log) and a run holding the
 * record and the profile; paths as the measuring phases write them, plus
 * one absolute workspace path that publish must make relative. */
static struct ws_fixture make_workspace(int unfixed)
{
	char tmpl[] = "/tmp/ngcc-test-publish.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	struct ws_fixture f = { xstrdup(tmpl), NULL, NULL, NULL };
	f.ws = path_join(f.top, "ws");
	f.run = path_join(f.ws, "runs/r");
	f.dataset = path_join(f.ws, "ds");
	json_t *b = build_doc();
	json_t *e = json_object_get(json_object_get(b, "instances"), "toy/Toy-1");
	set_string(e, "kat_log", "build/toy/kat/Toy-1.log");
	char *abs_lib = xasprintf("%s/build/toy/libToy-1.so", f.ws);
	set_string(e, "library", abs_lib);
	put_json(f.ws, "build/toy/build.json", b);
	put(f.ws, "build/toy/kat/Toy-1.log", kat_log);
	put(f.ws, "build/toy/Toy-1.build.log", "cc ...\n");
	json_t *r = record(unfixed);
	set_string(r, "kat_log", "build/toy/kat/Toy-1.log");
	set_string(r, "library", abs_lib);
	put_json(f.run, "records/toy/Toy-1__keygen.json", r);
	put_json(f.run, "profile/toy/Toy-1__keygen.json", profile());
	put_json(f.run, "calibrate/toy/Toy-1__keygen.json",
		 json_pack("{ss}", "schema", "ngcc-perf/calibration/1"));
	put_json(f.run, "campaign.json", campaign());
	free(abs_lib);
	return f;
}

static void free_workspace(struct ws_fixture *f)
{
	rm_rf(f->top);
	free(f->top);
	free(f->ws);
	free(f->run);
	free(f->dataset);
}

static int publish_quietly(const struct ws_fixture *f, int unfixed, const char *defer)
{
	FILE *devnull = fopen("/dev/null", "w");
	struct publish_opts o = { f->ws, f->run, f->dataset, unfixed, defer, devnull, 0 };
	int rc = publish_dataset(&o);
	fclose(devnull);
	return rc;
}

static void test_published_dataset_validates(void **state)
{
	(void)state;
	struct ws_fixture f = make_workspace(0);
	assert_int_equal(publish_quietly(&f, 0, NULL), 0);
	struct run r = run_validate(f.dataset, 0);
	if (r.rc)
		fail_msg("published dataset: %s", r.out);
	free(r.out);
	char *rec = path_join(f.dataset, REC);
	json_t *j = evidence_load(rec, NULL);
	assert_string_equal(jget_str(j, "kat_log", ""), "kat/toy/Toy-1.log");
	assert_string_equal(jget_str(j, "library", ""), "build/toy/libToy-1.so");
	json_decref(j);
	char *cal = path_join(f.dataset, "data/" SYS "/calibrate");
	assert_false(path_exists(cal));
	char *pub = path_join(f.dataset, "data/" SYS "/publish.json");
	assert_true(path_is_file(pub));
	free(pub);
	free(cal);
	free(rec);
	free_workspace(&f);
}

static void test_publish_refuses_unfixed(void **state)
{
	(void)state;
	struct ws_fixture f = make_workspace(1);
	assert_int_equal(publish_quietly(&f, 0, NULL), 2);
	assert_false(path_exists(f.dataset));
	assert_int_equal(publish_quietly(&f, 1, NULL), 0);
	struct run r = run_validate(f.dataset, 0);   /* publish.json allows them */
	if (r.rc)
		fail_msg("unfixed dataset published with the option: %s", r.out);
	free(r.out);
	free_workspace(&f);
}

static void test_publish_defers(void **state)
{
	(void)state;
	struct ws_fixture f = make_workspace(0);
	assert_int_equal(publish_quietly(&f, 0, "^toy/Toy-1$"), 0);
	char *rec = path_join(f.dataset, REC), *log = path_join(f.dataset, KATLOG);
	assert_false(path_exists(rec));
	assert_false(path_exists(log));
	free(log);
	free(rec);
	free_workspace(&f);
}

static void outside_path(json_t *rec)
{
	set_string(json_array_get(json_object_get(rec, "processes"), 0), "stderr_tail",
		   "/usr/lib/libfoo.so: warning");
}

static void test_publish_aborts_on_absolute_path(void **state)
{
	(void)state;
	struct ws_fixture f = make_workspace(0);
	assert_int_equal(publish_quietly(&f, 0, NULL), 0);
	char *rec = path_join(f.dataset, REC), *before = NULL, *after = NULL;
	assert_int_equal(read_file(rec, &before, NULL), 0);
	/* A path outside the workspace cannot be made relative: nothing is
	 * published and the existing dataset stays as it was. */
	edit_json(f.run, "records/toy/Toy-1__keygen.json", outside_path);
	assert_int_equal(publish_quietly(&f, 0, NULL), 3);
	assert_int_equal(read_file(rec, &after, NULL), 0);
	assert_string_equal(before, after);
	struct strlist left = STRLIST_INIT;
	tree_list_files(f.ws, "", &left);
	for (size_t i = 0; i < left.n; i++)
		assert_null(strstr(left.items[i], ".tmp."));
	struct run r = run_validate(f.dataset, 0);
	assert_int_equal(r.rc, 0);
	free(r.out);
	sl_free(&left);
	free(before);
	free(after);
	free(rec);
	free_workspace(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_dataset_passes),
		cmocka_unit_test(test_changed_trial_is_caught),
		cmocka_unit_test(test_flattened_trials_must_match_processes),
		cmocka_unit_test(test_changed_share_is_caught),
		cmocka_unit_test(test_changed_kat_log_is_caught),
		cmocka_unit_test(test_kat_result_must_match_build),
		cmocka_unit_test(test_changed_page_is_caught),
		cmocka_unit_test(test_site_is_checked),
		cmocka_unit_test(test_unfixed_needs_the_option),
		cmocka_unit_test(test_environment_must_agree),
		cmocka_unit_test(test_schema_and_absolute_paths),
		cmocka_unit_test(test_not_a_dataset),
		cmocka_unit_test(test_published_dataset_validates),
		cmocka_unit_test(test_publish_refuses_unfixed),
		cmocka_unit_test(test_publish_defers),
		cmocka_unit_test(test_publish_aborts_on_absolute_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
