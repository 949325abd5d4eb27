/*
 * test_report_cases.c — candidate-page rules beyond the seeds, on a
 * temporary copy of the golden fixture with one change each: a failed
 * record, a KAT mismatch with its footnote, kat_issues.csv, an unfixed
 * host, the size audit, an optimized twin, and the loader's errors for a
 * missing or corrupt run directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "evidence/json.h"
#include "model/dataset.h"
#include "report/pages.h"
#include "report/report.h"
#include "util/util.h"

static char *tmp;

static char *fixture(void)
{
	const char *root = getenv("NGCC_SRC");
	return root ? path_join(root, "tests/fixtures/report/ws") : xstrdup("tests/fixtures/report/ws");
}

static int setup(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ngcc-report-XXXXXX";
	if (!mkdtemp(tmpl))
		return -1;
	tmp = xstrdup(tmpl);
	char *src = fixture();
	char *cmd = xasprintf("cp -r '%s/.' '%s/'", src, tmp);
	int rc = system(cmd);
	free(cmd);
	free(src);
	return rc ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	rm_rf(tmp);
	free(tmp);
	return 0;
}

static char *render(const char *id, int ext)
{
	struct dataset ds;
	char *err = NULL, *run = path_join(tmp, "runs/x86_1");
	if (dataset_load_run(&ds, tmp, run, NULL, &err))
		fail_msg("load: %s", err);
	free(run);
	char *md = NULL;
	for (size_t i = 0; i < ds.n_cand; i++)
		if (!strcmp(ds.cand[i].id, id))
			md = page_candidate(&ds, &ds.cand[i], ext, NULL);
	dataset_free(&ds);
	assert_non_null(md);
	return md;
}

/* Edit one JSON file of the temporary fixture. */
static void edit_json(const char *rel, const char *key, json_t *value)
{
	char *path = path_join(tmp, rel);
	json_t *j = evidence_load(path, NULL);
	assert_non_null(j);
	json_object_set_new(j, key, value);
	assert_int_equal(evidence_write(path, j), 0);
	json_decref(j);
	free(path);
}

static void append(const char *rel, const char *text)
{
	char *path = path_join(tmp, rel);
	FILE *f = fopen(path, "a");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(path);
}

static void failed_record_row(void **state)
{
	(void)state;
	/* a record whose only process failed (report refuses a status its
	 * processes do not make, evidence/accept.h) */
	char *path = path_join(tmp, "runs/x86_1/records/kem-27/NTRE-256__enc.json");
	json_t *r = evidence_load(path, NULL);
	json_t *procs = json_object_get(r, "processes");
	json_t *p0 = json_incref(json_array_get(procs, 0));
	json_object_set_new(p0, "status", json_string("failed"));
	json_object_set_new(p0, "trials", json_array());
	json_array_clear(procs);
	json_array_append_new(procs, p0);
	json_object_set_new(r, "trials", json_array());
	json_object_set_new(r, "status", json_string("failed"));
	assert_int_equal(evidence_write(path, r), 0);
	json_decref(r);
	free(path);
	char *md = render("kem-27", 1);
	assert_non_null(strstr(md, "| `NTRE-256` | enc | failed |  |  |  |  |\n"));
	/* not complete: no dispersion row, still a timing evidence row */
	const char *a1 = strstr(md, "### A.1"), *a3 = strstr(md, "### A.3");
	assert_non_null(a1);
	assert_non_null(a3);
	const char *row = strstr(a1, "| `NTRE-256` enc | ");
	assert_true(row && row > a3);
	assert_non_null(strstr(a1, "| `NTRE-256` keygen | "));
	assert_non_null(strstr(md, "| `NTRE-256` | timing enc | `records/kem-27/NTRE-256__enc.json` |"));
	free(md);
}

static void kat_mismatch_footnote(void **state)
{
	(void)state;
	append("build/kem-12/kat/CTL-769-1024.log",
	       "RESULT kem-12 CTL-769-1024 MISMATCH first difference at Count = 3, field ct\n");
	/* the status from the log: build.json without its own word on it */
	char *path = path_join(tmp, "build/kem-12/build.json");
	json_t *b = evidence_load(path, NULL);
	json_object_del(json_object_get(json_object_get(b, "instances"), "kem-12/CTL-769-1024"),
			"kat");
	assert_int_equal(evidence_write(path, b), 0);
	json_decref(b);
	free(path);
	char *md = render("kem-12", 1);
	assert_non_null(strstr(md, "| `CTL-769-1024` | guide | MISMATCH [1] |\n"));
	assert_non_null(strstr(md, "\n\n[1] first difference at Count = 3, field ct\n"));
	free(md);
}

static void kat_issue_exclude(void **state)
{
	(void)state;
	append("kat_issues.csv", "ID;Label;Action;Cause\nkem-12;3329;exclude;"
	       "decapsulation reads past the ciphertext\n");
	char *md = render("kem-12", 1);
	assert_non_null(strstr(md, "| `CTL-3329-2048` | guide | PASS [1] (not timed) |\n"));
	assert_non_null(strstr(md, "[1] decapsulation reads past the ciphertext\n"));
	free(md);
	char *path = path_join(tmp, "kat_issues.csv");
	write_file(path, "ID;Label;Action;Cause\nkem-12;257;measure;vector file truncated\n", 63);
	free(path);
	md = render("kem-12", 1);
	assert_non_null(strstr(md, "| `CTL-257-512` | guide | PASS [1] |\n"));
	assert_non_null(strstr(md, "[1] vector file truncated These instances are timed anyway; "
			       "their KAT output was not reproduced.\n"));
	free(md);
}

/* The notice comes right before the first `##`; the seed sections stay. */
static void unfixed_host(void **state)
{
	(void)state;
	char *before = render("kem-27", 0);
	edit_json("runs/x86_1/records/kem-27/NTRE-128__dec.json", "host",
		  json_pack("{sbs[ss]ss}", "unfixed", 1, "problems", "turbo/boost is enabled",
			    "running under a hypervisor", "override_reason", "CI VM"));
	char *after = render("kem-27", 0);
	const char *notice = "\xe2\x9a\xa0 Measured on a host that was not fixed: turbo/boost is "
		"enabled; running under a hypervisor (override: CI VM).\n\n## 1. Basic information\n";
	assert_non_null(strstr(after, notice));
	assert_non_null(strstr(after, "| host state | not fixed: turbo/boost is enabled; running "
			       "under a hypervisor (override: CI VM) |"));
	const char *s1 = strstr(before, "## 1. Basic"), *s2 = strstr(after, "## 1. Basic");
	const char *e1 = strstr(before, "\n---\n"), *e2 = strstr(after, "\n---\n");
	assert_int_equal(e1 - s1, e2 - s2);
	assert_memory_equal(s1, s2, (size_t)(e1 - s1));
	free(before);
	free(after);
}

/* An optimized twin follows its reference build; only sections 3–5 and 7
 * list it, as `label` (AVX2). */
static void optimized_twin(void **state)
{
	(void)state;
	char *src = path_join(tmp, "runs/x86_1/records/kem-27/NTRE-128__keygen.json");
	char *dst = path_join(tmp, "runs/x86_1/records/kem-27/NTRE-128+avx2__keygen.json");
	assert_int_equal(copy_file(src, dst), 0);
	/* the twin's build.json entry (a record of an instance build.json does
	 * not list is refused, evidence/accept.h), without a KAT result */
	char *bpath = path_join(tmp, "build/kem-27/build.json");
	json_t *b = evidence_load(bpath, NULL);
	json_t *insts = json_object_get(b, "instances");
	json_t *twin = json_deep_copy(json_object_get(insts, "kem-27/NTRE-128"));
	json_object_del(twin, "kat");
	json_object_del(twin, "kat_log");
	json_object_set_new(insts, "kem-27/NTRE-128+avx2", twin);
	assert_int_equal(evidence_write(bpath, b), 0);
	json_decref(b);
	free(bpath);
	char *md = render("kem-27", 1);
	assert_non_null(strstr(md, "- Implementation versions measured: reference, optimized (AVX2)\n"));
	assert_non_null(strstr(md, "| `NTRE-128` | dec | 113.2 k | 54.1 \xc2\xb5s | 1.85e+04 | 54.1 \xc2\xb5s | "
			       "80620 (5 \xc3\x97 16124) |\n| `NTRE-128` (AVX2) | keygen | 142.3 k |"));
	assert_non_null(strstr(md, "| `NTRE-128` (AVX2) | timing keygen | "
			       "`records/kem-27/NTRE-128+avx2__keygen.json` |"));
	/* no KAT result and no KAT log for the twin */
	assert_non_null(strstr(md, "| `NTRE-128` | guide | PASS |\n| `NTRE-128` (AVX2) | guide | NOLOG |\n"));
	free(md);
	free(src);
	free(dst);
}

static void size_audit_difference(void **state)
{
	(void)state;
	static const char *const ops[] = { "keygen", "enc", "dec" };
	for (int k = 0; k < 3; k++) {
		char *rel = xasprintf("runs/x86_1/records/kem-27/NTRE-512__%s.json", ops[k]);
		char *path = path_join(tmp, rel);
		json_t *j = evidence_load(path, NULL);
		json_t *obs = json_object_get(json_object_get(json_object_get(j, "sizes"), "observed"), "ct");
		json_object_set_new(obs, "min", json_integer(3400));
		json_object_set_new(obs, "max", json_integer(3400));
		assert_int_equal(evidence_write(path, j), 0);
		json_decref(j);
		free(path);
		free(rel);
	}
	struct dataset ds;
	char *err = NULL, *run = path_join(tmp, "runs/x86_1");
	assert_int_equal(dataset_load_run(&ds, tmp, run, NULL, &err), 0);
	char *md = page_size_audit(&ds, NULL);
	assert_non_null(strstr(md, "| [kem-27](x86_1/kem-27.md) | `NTRE-512` | ciphertext | 3456 | 3400 | "
			       "3456 (encoded) | encoding differs |\n"));
	assert_null(strstr(md, "NTRE-128"));
	free(md);
	dataset_free(&ds);
	free(run);
}

static void loader_errors(void **state)
{
	(void)state;
	struct dataset ds;
	char *err = NULL, *run = path_join(tmp, "runs/missing");
	assert_int_equal(dataset_load_run(&ds, tmp, run, NULL, &err), -1);
	assert_non_null(strstr(err, run));
	dataset_free(&ds);
	free(err);
	free(run);
	run = path_join(tmp, "runs/x86_1");
	char *camp = path_join(run, "campaign.json");
	write_file(camp, "{", 1);
	assert_int_equal(dataset_load_run(&ds, tmp, run, NULL, &err), -1);
	assert_non_null(strstr(err, camp));
	dataset_free(&ds);
	free(err);
	write_file(camp, "{\"schema\": \"ngcc-perf/campaign/9\"}\n", 35);
	assert_int_equal(dataset_load_run(&ds, tmp, run, NULL, &err), -1);
	assert_non_null(strstr(err, "ngcc-perf/campaign/9"));
	dataset_free(&ds);
	free(err);
	free(camp);
	free(run);
}

static void unknown_record_schema(void **state)
{
	(void)state;
	char *bp = path_join(tmp, "build/kem-23/build.json");
	write_file(bp, "[", 1);
	struct dataset bds;
	char *berr = NULL, *brun = path_join(tmp, "runs/x86_1");
	assert_int_equal(dataset_load_run(&bds, tmp, brun, NULL, &berr), -1);
	assert_non_null(strstr(berr, bp));
	dataset_free(&bds);
	free(berr);
	free(brun);
	unlink(bp);
	free(bp);
	edit_json("runs/x86_1/records/kem-34/lwekem256__dec.json", "schema",
		  json_string("ngcc-perf/record/2"));
	struct dataset ds;
	char *err = NULL, *run = path_join(tmp, "runs/x86_1");
	assert_int_equal(dataset_load_run(&ds, tmp, run, NULL, &err), -1);
	assert_non_null(strstr(err, "records/kem-34/lwekem256__dec.json"));
	assert_non_null(strstr(err, "ngcc-perf/record/2"));
	dataset_free(&ds);
	free(err);
	free(run);
}

static void system_override(void **state)
{
	(void)state;
	struct dataset ds;
	char *err = NULL, *run = path_join(tmp, "runs/x86_1");
	assert_int_equal(dataset_load_run(&ds, tmp, run, "lab_9", &err), 0);
	struct report_out out;
	report_render(&ds, 1, &out);
	int found = 0;
	for (size_t i = 0; i < out.n; i++)
		found |= !strcmp(out.f[i].path, "lab_9/kem-12.md");
	assert_true(found);
	report_out_free(&out);
	dataset_free(&ds);
	assert_int_equal(dataset_load_run(&ds, tmp, run, NULL, &err), 0);
	assert_string_equal(ds.system_id, "x86_1");
	dataset_free(&ds);
	free(run);
}

static void sh(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *cmd = xvasprintf(fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

/* A published dataset made from the fixture the way publish lays it out:
 * data/<sys>/ with the evidence, the merged build.json and kat/<cand>/,
 * and the catalogs at the top. */
static char *make_published(const char *sys)
{
	char *pub = path_join(tmp, "pub");
	char *data = xasprintf("%s/data/%s", pub, sys);
	sh("mkdir -p '%s/kat' && cp -r '%s/runs/x86_1/.' '%s/' && cp '%s'/*.csv '%s'/*.conf "
	   "'%s'/report.json '%s/'", data, tmp, data, tmp, tmp, tmp, pub);
	json_t *merged = json_pack("{sss{}}", "schema", "ngcc-perf/build/1", "instances");
	static const char *const cands[] = { "kem-12", "kem-17", "kem-23", "kem-27", "kem-34" };
	for (int c = 0; c < 5; c++) {
		sh("cp -r '%s/build/%s/kat' '%s/kat/%s'", tmp, cands[c], data, cands[c]);
		char *bp = xasprintf("%s/build/%s/build.json", tmp, cands[c]);
		json_t *b = evidence_load(bp, NULL);
		json_object_update(json_object_get(merged, "instances"), json_object_get(b, "instances"));
		json_decref(b);
		free(bp);
	}
	char *mp = path_join(data, "build.json");
	assert_int_equal(evidence_write(mp, merged), 0);
	json_decref(merged);
	free(mp);
	if (strcmp(sys, "x86_1")) {
		char *camp = path_join(data, "campaign.json");
		json_t *j = evidence_load(camp, NULL);
		json_object_set_new(j, "system_id", json_string(sys));
		evidence_write(camp, j);
		json_decref(j);
		free(camp);
	}
	free(data);
	return pub;
}

static const struct report_file *page(const struct report_out *o, const char *path)
{
	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->f[i].path, path))
			return &o->f[i];
	fail_msg("page %s not rendered", path);
	return NULL;
}

/* report --run and the published dataset give the same bytes. */
static void published_equals_run(void **state)
{
	(void)state;
	struct dataset ds;
	char *err = NULL, *run = path_join(tmp, "runs/x86_1");
	assert_int_equal(dataset_load_run(&ds, tmp, run, NULL, &err), 0);
	struct report_out a, b;
	report_render(&ds, 1, &a);
	char *pub = make_published("x86_1");
	if (report_render_published(pub, &b, &err))
		fail_msg("%s", err);
	assert_int_equal(a.n, b.n);
	for (size_t i = 0; i < a.n; i++) {
		const struct report_file *f = page(&b, a.f[i].path);
		if (f->len != a.f[i].len || memcmp(f->data, a.f[i].data, f->len))
			fail_msg("%s differs between run and published rendering", f->path);
	}
	report_out_free(&a);
	report_out_free(&b);
	dataset_free(&ds);
	free(pub);
	free(run);
}

/* Two systems in one tree: breadcrumbs link the other system, the survey
 * has a share column for each, the index links both summaries. */
static void two_systems(void **state)
{
	(void)state;
	free(make_published("x86_1"));
	char *pub = make_published("arm_1");
	struct report_out o;
	char *err = NULL;
	if (report_render_published(pub, &o, &err))
		fail_msg("%s", err);
	const struct report_file *c = page(&o, "x86_1/kem-12.md");
	assert_non_null(strstr(c->data, "system: **x86_1** \xc2\xb7 [arm_1](../arm_1/kem-12.md)\n"));
	c = page(&o, "arm_1/kem-27.md");
	assert_non_null(strstr(c->data, "system: [x86_1](../x86_1/kem-27.md) \xc2\xb7 **arm_1**\n"));
	c = page(&o, "symmetric-survey.md");
	assert_non_null(strstr(c->data, "| none | 49% (NTRE-128 enc) | 49% (NTRE-128 enc) |\n"));
	c = page(&o, "index.md");
	assert_non_null(strstr(c->data, "| [arm_1](arm_1/index.md) | aarch64 |"));
	report_out_free(&o);
	free(pub);
}

/* Without an algorithm in build.json the workspace's candidate.conf names it. */
static void algorithm_from_candidate_conf(void **state)
{
	(void)state;
	char *path = path_join(tmp, "build/kem-27/build.json");
	json_t *b = evidence_load(path, NULL);
	const char *key;
	json_t *e;
	json_object_foreach(json_object_get(b, "instances"), key, e)
		json_object_del(e, "algorithm");
	evidence_write(path, b);
	json_decref(b);
	free(path);
	sh("sed -i 's/^algorithm = .*/algorithm = NTRE from conf/' '%s/candidates/kem-27/candidate.conf'", tmp);
	char *md = render("kem-27", 0);
	assert_non_null(strstr(md, "\n# kem-27 NTRE from conf \xe2\x80\x94 performance on x86-64"));
	free(md);
}

/* Rename a record (or profile) to another operation, fixing its op fields. */
static void move_op(const char *kind, const char *cand, const char *label, const char *from,
		    const char *to, const char *sizes_key, long long sizes_value)
{
	char *src = xasprintf("%s/runs/x86_1/%s/%s/%s__%s.json", tmp, kind, cand, label, from);
	char *dst = xasprintf("%s/runs/x86_1/%s/%s/%s__%s.json", tmp, kind, cand, label, to);
	json_t *j = evidence_load(src, NULL);
	assert_non_null(j);
	json_object_set_new(j, "operation", json_string(to));
	json_object_set_new(j, "op_key", json_string(to));
	if (sizes_key)
		json_object_set_new(json_object_get(j, "sizes"), sizes_key, json_integer(sizes_value));
	assert_int_equal(evidence_write(dst, j), 0);
	unlink(src);
	json_decref(j);
	free(src);
	free(dst);
}

static void set_build_type(const char *cand, const char *type)
{
	char *path = xasprintf("%s/build/%s/build.json", tmp, cand);
	json_t *b = evidence_load(path, NULL);
	const char *key;
	json_t *e;
	json_object_foreach(json_object_get(b, "instances"), key, e)
		json_object_set_new(e, "type", json_string(type));
	evidence_write(path, b);
	json_decref(b);
	free(path);
}

/* A signature candidate: sign/verify rows, the signature column with a
 * nominal basis and its sentence, and the summary's signature section. */
static void signature_candidate(void **state)
{
	(void)state;
	static const char *const labels[] = { "NTRE-128", "NTRE-256", "NTRE-512" };
	set_build_type("kem-27", "sign");
	for (int i = 0; i < 3; i++) {
		for (int k = 0; k < 2; k++) {
			const char *kind = k ? "profile" : "records";
			move_op(kind, "kem-27", labels[i], "enc", "sign", k ? NULL : "signature_bytes", 700);
			move_op(kind, "kem-27", labels[i], "dec", "verify", k ? NULL : "signature_bytes", 700);
		}
		char *path = xasprintf("%s/runs/x86_1/records/kem-27/%s__keygen.json", tmp, labels[i]);
		json_t *j = evidence_load(path, NULL);
		json_object_set_new(json_object_get(j, "sizes"), "signature_bytes", json_integer(700));
		evidence_write(path, j);
		json_decref(j);
		free(path);
	}
	char *cat = path_join(tmp, "external_sizes.csv");
	write_file(cat, "kem-27;NTRE-128;972;;690;nominal-variable\n", 41);
	free(cat);
	char *md = render("kem-27", 1);
	assert_non_null(strstr(md, "- Category: public-key algorithm; function: digital signature\n"));
	assert_non_null(strstr(md, "| `NTRE-128` | keygen | 142.3 k |"));
	assert_non_null(strstr(md, "| `NTRE-128` | sign | 113.7 k |"));
	assert_non_null(strstr(md, "| `NTRE-128` | verify | 113.2 k |"));
	assert_non_null(strstr(md, "| instance | public key | secret key | signature |\n|---|---|---|---|\n"
			       "| `NTRE-128` | 972 | 1976 | \xe2\x89\x88 690 (nominal) |\n"
			       "| `NTRE-256` | 1944 | 3920 | 700 |\n"));
	assert_non_null(strstr(md, "\n\nSignatures marked \xe2\x89\x88 vary in length; the figure is the "
			       "specification's representative size.\n"));
	assert_non_null(strstr(md, "| `NTRE-128` | timing keygen | `records/kem-27/NTRE-128__keygen.json` |\n"
			       "| `NTRE-128` | timing sign | `records/kem-27/NTRE-128__sign.json` |\n"
			       "| `NTRE-128` | timing verify | `records/kem-27/NTRE-128__verify.json` |\n"));
	free(md);
	struct dataset ds;
	char *err = NULL, *run = path_join(tmp, "runs/x86_1");
	assert_int_equal(dataset_load_run(&ds, tmp, run, NULL, &err), 0);
	char *sum = page_summary(&ds, NULL);
	assert_non_null(strstr(sum, "## Digital signatures\n"));
	assert_non_null(strstr(sum, "| [kem-27](kem-27.md) | NTRE Key Encapsulation Mechanism | "
			       "[`NTRE-128`](kem-27.md) | \xe2\x80\x93 | 142.3 k (28%) | 113.7 k (49%) | "
			       "113.2 k (30%) | 972 | \xe2\x89\x88" "690 | \xe2\x80\x93 |\n"));
	/* KEM section first (candidates by category) */
	assert_true(strstr(sum, "## Key encapsulation") < strstr(sum, "## Digital signatures"));
	free(sum);
	/* the method page names the signing message only once a signature
	 * candidate was timed */
	char *method = page_method(&ds, NULL);
	assert_non_null(strstr(method, "00..2f; signatures sign a fixed 64-byte message, a failed "
			       "signing attempt is retried (up to 64 times) inside the timing and "
			       "counted, and verify checks one honest signature, its rejections "
			       "counted.\n"));
	assert_null(strstr(method, "hash functions are timed"));
	free(method);
	dataset_free(&ds);
	free(run);
}

/* A hash candidate: the hash performance table, no sizes or symmetric
 * sections, and the summary's hash section against the missing baseline. */
static void hash_candidate(void **state)
{
	(void)state;
	set_build_type("kem-12", "hash");
	move_op("records", "kem-12", "CTL-257-512", "keygen", "hash_32", NULL, 0);
	move_op("records", "kem-12", "CTL-257-512", "enc", "hash_1024", NULL, 0);
	move_op("records", "kem-12", "CTL-257-512", "dec", "hash_65536", NULL, 0);
	char *md = render("kem-12", 1);
	assert_non_null(strstr(md, "- Category: cryptographic hash algorithm; function: hash\n"));
	assert_non_null(strstr(md, "| instance | message | mean cycles | cycles/byte | mean time | MB/s | n |\n"));
	assert_non_null(strstr(md, "| `CTL-257-512` | 32 B | 17.76 M | 555000.0 | 8.48 ms | 0.0 | "
			       "595 (5 \xc3\x97 119) |\n"));
	assert_non_null(strstr(md, "| `CTL-257-512` | 1 KiB | 61.0 k | 59.6 | 29.1 \xc2\xb5s | 35.2 | "));
	assert_null(strstr(md, "## 6."));
	assert_null(strstr(md, "## Symmetric primitives"));
	free(md);
	struct dataset ds;
	char *err = NULL, *run = path_join(tmp, "runs/x86_1");
	assert_int_equal(dataset_load_run(&ds, tmp, run, NULL, &err), 0);
	char *sum = page_summary(&ds, NULL);
	assert_non_null(strstr(sum, "## Hash functions\n"));
	assert_non_null(strstr(sum, "| [kem-12](kem-12.md) | CTL Algorithm | [`CTL-257-512`](kem-12.md) | "
			       "17.76 M (ratio \xe2\x80\x93) | 61.0 k (ratio \xe2\x80\x93) | "
			       "349.0 k (ratio \xe2\x80\x93) | \xe2\x80\x93 |\n"));
	free(sum);
	char *method = page_method(&ds, NULL);
	assert_non_null(strstr(method, "00..2f; hash functions are timed at 32, 128, 512, 1024, 4096, "
			       "8192, 16384 and 65536 bytes (guide S1\xe2\x80\x93S8).\n"));
	assert_null(strstr(method, "signatures sign"));
	free(method);
	dataset_free(&ds);
	free(run);
}

static char *render_method(void)
{
	struct dataset ds;
	char *err = NULL, *run = path_join(tmp, "runs/x86_1");
	if (dataset_load_run(&ds, tmp, run, NULL, &err))
		fail_msg("load: %s", err);
	free(run);
	char *md = page_method(&ds, NULL);
	dataset_free(&ds);
	return md;
}

/* The method page states the baseline and the profile only when the run
 * has their records (docs/report-format.md §7, docs/method.md §10.7). */
static void method_states_what_ran(void **state)
{
	(void)state;
	char *md = render_method();
	assert_non_null(strstr(md, "No ICCS baseline (candidate `iccs`) was measured in this run"));
	assert_non_null(strstr(md, "(tick source `"));
	free(md);
	sh("cp -r '%s/build/kem-12' '%s/build/iccs'", tmp, tmp);
	sh("cp -r '%s/candidates/kem-12' '%s/candidates/iccs'", tmp, tmp);
	sh("cp -r '%s/runs/x86_1/records/kem-12' '%s/runs/x86_1/records/iccs'", tmp, tmp);
	/* the copies name their new candidate, as report checks (evidence/accept.h) */
	sh("sed -i 's/\"kem-12/\"iccs/g' '%s/build/iccs/build.json' '%s'/runs/x86_1/records/iccs/*.json",
	   tmp, tmp);
	md = render_method();
	assert_non_null(strstr(md, "The ICCS baseline (candidate `iccs`, 9 timing record(s)) times the "
			       "auxiliary functions themselves"));
	assert_null(strstr(md, "No ICCS baseline"));
	free(md);
	sh("rm -r '%s/runs/x86_1/profile'", tmp);
	md = render_method();
	assert_non_null(strstr(md, "No hash and DRNG profile was recorded in this run"));
	assert_null(strstr(md, "Reference builds are relinked"));
	free(md);
}

/* Summary rules: targets, ??%, n= marks, summary_notes.csv, KAT marks. */
static void summary_rules(void **state)
{
	(void)state;
	char *path = path_join(tmp, "security_targets.csv");
	const char *targets = "ID;Instance;TargetBits\nkem-27;NTRE-128;128\n";
	write_file(path, targets, strlen(targets));
	free(path);
	path = path_join(tmp, "summary_notes.csv");
	const char *notes = "ID;Label;Note\nkem-27;^NTRE-(128|256)$;reference build only\n";
	write_file(path, notes, strlen(notes));
	free(path);
	static const char *const labels[] = { "lwekem128", "lwekem256", "lwekem512" };
	static const char *const ops[] = { "keygen", "enc", "dec" };
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < 3; k++) {
			char *rel = xasprintf("runs/x86_1/profile/kem-34/%s__%s.json", labels[i], ops[k]);
			edit_json(rel, "hash_share", json_real(0.0));
			free(rel);
		}
	edit_json("runs/x86_1/records/kem-12/CTL-3329-2048__keygen.json", "measurements", json_integer(35));
	append("build/kem-12/kat/CTL-769-1024.log", "RESULT kem-12 CTL-769-1024 MISMATCH Count = 0 ct\n");
	char *bp = path_join(tmp, "build/kem-12/build.json");
	json_t *b = evidence_load(bp, NULL);
	json_object_set_new(json_object_get(json_object_get(b, "instances"), "kem-12/CTL-769-1024"),
			    "kat", json_string("MISMATCH"));
	evidence_write(bp, b);
	json_decref(b);
	free(bp);
	struct dataset ds;
	char *err = NULL, *run = path_join(tmp, "runs/x86_1");
	assert_int_equal(dataset_load_run(&ds, tmp, run, NULL, &err), 0);
	char *sum = page_summary(&ds, NULL);
	assert_non_null(strstr(sum, "| [`NTRE-128`](kem-27.md) | 128 | 142.3 k (28%) | 113.7 k (49%) | "
			       "113.2 k (30%) | 972 | 972 | reference build only |\n"));
	assert_non_null(strstr(sum, "| [`NTRE-512`](kem-27.md) | \xe2\x80\x93 | 574.5 k (22%) |"));
	assert_non_null(strstr(sum, "| [`lwekem128`](kem-34.md) | \xe2\x80\x93 | 3.19 M (??%) | "
			       "3.13 M (??%) | 3.17 M (??%) |"));
	assert_non_null(strstr(sum, "| 2.15 G (0.1%, n=35) |"));
	assert_non_null(strstr(sum, "| [`CTL-769-1024`](kem-12.md) \xe2\x9a\xa0 KAT MISMATCH | "));
	assert_non_null(strstr(sum, "| KAT/output caveat; see candidate page |\n"));
	free(sum);
	dataset_free(&ds);
	free(run);
}

/* survey.conf decides; without a line the automatic verdict of
 * profile/<cand>/survey.json; neither gives `not surveyed`. */
static void survey_verdicts(void **state)
{
	(void)state;
	char *conf = path_join(tmp, "survey.conf");
	write_file(conf, "kem-27; mixed; own SHAKE in keygen\n", 35);
	char *sj = path_join(tmp, "runs/x86_1/profile/kem-12/survey.json");
	json_t *j = json_pack("{sssssssssss{sssss[s]}}", "schema", "ngcc-perf/survey/1", "candidate", "kem-12",
			      "verdict", "ICCS-only", "notes", "from an old survey.conf line", "source",
			      "survey.conf", "automatic", "verdict", "bypass", "notes",
			      "never calls the DRNG", "scan", "Keccak (keccak_f1600)");
	assert_int_equal(evidence_write(sj, j), 0);
	json_decref(j);
	char *md = render("kem-27", 0);
	assert_non_null(strstr(md, "[Survey](../symmetric-survey.md) verdict: **mixed** \xe2\x80\x94 own SHAKE in keygen\n"));
	free(md);
	md = render("kem-12", 0);
	assert_non_null(strstr(md, "[Survey](../symmetric-survey.md) verdict: **bypass** \xe2\x80\x94 never calls the DRNG\n"));
	free(md);
	md = render("kem-23", 0);
	assert_non_null(strstr(md, "[Survey](../symmetric-survey.md) verdict: **not surveyed**\n"));
	free(md);
	struct dataset ds;
	char *err = NULL, *run = path_join(tmp, "runs/x86_1");
	assert_int_equal(dataset_load_run(&ds, tmp, run, NULL, &err), 0);
	const struct dataset *sys = &ds;
	char *survey = page_survey(&sys, 1, NULL);
	assert_non_null(strstr(survey, "**Totals:** 0 ICCS-only, 1 bypass, 1 mixed, 0 instance-dependent "
			       "(5 public-key candidates).\n"));
	assert_non_null(strstr(survey, "| bypass | never calls the DRNG | Keccak (keccak_f1600) | 12% (CTL-257-512 enc) |"));
	char *sum = page_summary(&ds, NULL);
	assert_non_null(strstr(sum, "| own symmetric primitives; placeholder share unavailable |\n"));
	assert_non_null(strstr(sum, "| mixed own/ICCS primitives |\n"));
	free(sum);
	free(survey);
	dataset_free(&ds);
	free(run);
	free(sj);
	free(conf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(failed_record_row, setup, teardown),
		cmocka_unit_test_setup_teardown(kat_mismatch_footnote, setup, teardown),
		cmocka_unit_test_setup_teardown(kat_issue_exclude, setup, teardown),
		cmocka_unit_test_setup_teardown(unfixed_host, setup, teardown),
		cmocka_unit_test_setup_teardown(optimized_twin, setup, teardown),
		cmocka_unit_test_setup_teardown(size_audit_difference, setup, teardown),
		cmocka_unit_test_setup_teardown(loader_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(unknown_record_schema, setup, teardown),
		cmocka_unit_test_setup_teardown(system_override, setup, teardown),
		cmocka_unit_test_setup_teardown(published_equals_run, setup, teardown),
		cmocka_unit_test_setup_teardown(two_systems, setup, teardown),
		cmocka_unit_test_setup_teardown(algorithm_from_candidate_conf, setup, teardown),
		cmocka_unit_test_setup_teardown(signature_candidate, setup, teardown),
		cmocka_unit_test_setup_teardown(hash_candidate, setup, teardown),
		cmocka_unit_test_setup_teardown(method_states_what_ran, setup, teardown),
		cmocka_unit_test_setup_teardown(summary_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(survey_verdicts, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
