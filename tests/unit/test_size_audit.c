/*
 * test_size_audit.c — the automatic size audit (docs/method.md §9, R16): the four
 * classifications, the audit computed from the report fixture's records
 * and catalog, duplicate catalog rows, report_write_run writing
 * <run>/size_audit.json, and the validation recheck of a published
 * dataset (a tampered, a missing and an unrecomputable audit).
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
#include "dataset/publish.h"
#include "dataset/publish_util.h"
#include "model/size_audit.h"
#include "model/dataset.h"
#include "report/report_write.h"
#include "util/util.h"

static char *tmp;

static int setup(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ngcc-size-audit-XXXXXX";
	if (!mkdtemp(tmpl))
		return -1;
	tmp = xstrdup(tmpl);
	const char *root = getenv("NGCC_SRC");
	char *src = path_join(root ? root : ".", "tests/fixtures/report/ws");
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

/* ---- classification ------------------------------------------------------------ */

static void classify_each_case(void **state)
{
	(void)state;
	/* equal everywhere, with and without a catalog */
	assert_null(size_audit_classify(800, 1, 800, 800, 800));
	assert_null(size_audit_classify(800, 1, 800, 800, -1));
	/* nothing observed, or no API figure */
	assert_string_equal(size_audit_classify(800, 0, 0, 0, 800), SA_MISSING);
	assert_string_equal(size_audit_classify(-1, 1, 800, 800, -1), SA_MISSING);
	/* a returned length above the API's wins over everything else */
	assert_string_equal(size_audit_classify(800, 1, 790, 801, 900), SA_WRONG_API);
	/* catalog outside the observed range */
	assert_string_equal(size_audit_classify(800, 1, 800, 800, 799), SA_ENCODING);
	assert_string_equal(size_audit_classify(800, 1, 700, 760, 780), SA_ENCODING);
	/* variable lengths below the capacity, catalog within the range */
	assert_string_equal(size_audit_classify(800, 1, 700, 760, 730), SA_PADDED);
	assert_string_equal(size_audit_classify(800, 1, 700, 760, -1), SA_PADDED);
}

/* ---- computed from real evidence --------------------------------------------------- */

static void set_observed(const char *stem, const char *obj, long long mn, long long mx)
{
	static const char *const ops[] = { "keygen", "enc", "dec" };
	for (int k = 0; k < 3; k++) {
		char *path = xasprintf("%s/runs/x86_1/records/%s__%s.json", tmp, stem, ops[k]);
		json_t *j = evidence_load(path, NULL);
		assert_non_null(j);
		json_t *o = json_object_get(json_object_get(json_object_get(j, "sizes"),
							    "observed"), obj);
		json_object_set_new(o, "min", json_integer(mn));
		json_object_set_new(o, "max", json_integer(mx));
		assert_int_equal(evidence_write(path, j), 0);
		json_decref(j);
		free(path);
	}
}

static const json_t *object_of(const json_t *audit, const char *cand, const char *label,
			       const char *obj)
{
	size_t i, k;
	json_t *in, *o;
	json_array_foreach(json_object_get(audit, "instances"), i, in) {
		if (strcmp(jget_str(in, "candidate", ""), cand) ||
		    strcmp(jget_str(in, "label", ""), label))
			continue;
		json_array_foreach(json_object_get(in, "objects"), k, o)
			if (!strcmp(jget_str(o, "object", ""), obj))
				return o;
	}
	return NULL;
}

static json_t *audit_of_run(void)
{
	struct dataset ds;
	char *err = NULL, *run = path_join(tmp, "runs/x86_1");
	assert_int_equal(dataset_load_run(&ds, tmp, run, NULL, &err), 0);
	json_t *a = size_audit_compute(&ds);
	dataset_free(&ds);
	free(run);
	return a;
}

static void audit_of_the_fixture(void **state)
{
	(void)state;
	set_observed("kem-27/NTRE-512", "ct", 3400, 3400);     /* catalog 3456 */
	set_observed("kem-27/NTRE-128", "pk", 973, 973);       /* API 972 */
	set_observed("kem-12/CTL-257-512", "sk", 2900, 2950);  /* API 2953, no catalog */
	json_t *a = audit_of_run();
	assert_string_equal(jget_str(a, "schema", ""), "ngcc-perf/size-audit/1");
	assert_string_equal(jget_str(a, "system_id", ""), "x86_1");
	assert_true(jget_bool(a, "catalog_present", 0));

	const json_t *ct = object_of(a, "kem-27", "NTRE-512", "ct");
	assert_non_null(ct);
	assert_int_equal(jget_int(ct, "catalog", 0), 3456);
	assert_string_equal(jget_str(ct, "basis", ""), "encoded");
	assert_int_equal(jget_int(json_object_get(ct, "observed"), "min", 0), 3400);
	assert_string_equal(jget_str(ct, "classification", ""), SA_ENCODING);
	assert_string_equal(jget_str(object_of(a, "kem-27", "NTRE-128", "pk"),
				     "classification", ""), SA_WRONG_API);
	const json_t *sk = object_of(a, "kem-12", "CTL-257-512", "sk");
	assert_true(json_is_null(json_object_get(sk, "catalog")));
	assert_string_equal(jget_str(sk, "classification", ""), SA_PADDED);
	/* untouched figures agree; the catalog has no secret-key column */
	assert_true(json_is_null(json_object_get(object_of(a, "kem-12", "CTL-257-512", "pk"),
						 "classification")));
	json_decref(a);
}

static void missing_observation(void **state)
{
	(void)state;
	static const char *const ops[] = { "keygen", "enc", "dec" };
	for (int k = 0; k < 3; k++) {
		char *path = xasprintf("%s/runs/x86_1/records/kem-34/lwekem128__%s.json", tmp, ops[k]);
		json_t *j = evidence_load(path, NULL);
		json_t *o = json_object_get(json_object_get(json_object_get(j, "sizes"),
							    "observed"), "ss");
		json_object_set_new(o, "min", json_null());
		json_object_set_new(o, "max", json_null());
		assert_int_equal(evidence_write(path, j), 0);
		json_decref(j);
		free(path);
	}
	json_t *a = audit_of_run();
	const json_t *ss = object_of(a, "kem-34", "lwekem128", "ss");
	assert_non_null(ss);
	assert_true(json_is_null(json_object_get(ss, "observed")));
	assert_string_equal(jget_str(ss, "classification", ""), SA_MISSING);
	json_decref(a);
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

static void duplicate_catalog_row(void **state)
{
	(void)state;
	append("external_sizes.csv", "kem-27;NTRE-128;972;972;;encoded\n");
	struct dataset ds;
	char *err = NULL, *run = path_join(tmp, "runs/x86_1"), *out = path_join(tmp, "pages");
	assert_int_equal(dataset_load_run(&ds, tmp, run, NULL, &err), 0);
	assert_int_equal(size_audit_catalog_check(&ds, &err), -1);
	assert_non_null(strstr(err, "kem-27 NTRE-128 twice"));
	free(err);
	dataset_free(&ds);
	/* report refuses it as bad input and writes neither audit nor pages */
	assert_int_equal(report_write_run(tmp, run, out, NULL, 0, NULL, NULL, NULL), EXIT_INPUT);
	char *sa = path_join(run, SIZE_AUDIT_FILE);
	assert_false(path_exists(sa));
	assert_false(path_exists(out));
	free(sa);
	free(out);
	free(run);
}

static void report_writes_the_audit(void **state)
{
	(void)state;
	set_observed("kem-27/NTRE-512", "ct", 3400, 3400);
	char *run = path_join(tmp, "runs/x86_1"), *out = path_join(tmp, "pages");
	struct report_written done;
	assert_int_equal(report_write_run(tmp, run, out, NULL, 0, NULL, NULL, &done), EXIT_OK);
	assert_string_equal(done.system_id, "x86_1");
	assert_true(done.n_pages > 3);
	report_written_free(&done);
	char *sa = path_join(run, SIZE_AUDIT_FILE), *page = path_join(out, "size-audit.md");
	json_t *written = evidence_load(sa, NULL), *want = audit_of_run();
	assert_non_null(written);
	assert_true(json_equal(written, want));
	/* the page lists exactly the differing rows of the file */
	char *md = NULL;
	assert_int_equal(read_file(page, &md, NULL), 0);
	assert_non_null(strstr(md, "| [kem-27](x86_1/kem-27.md) | `NTRE-512` | ciphertext | 3456 | "
			       "3400 | 3456 (encoded) | encoding differs |\n"));
	assert_null(strstr(md, "NTRE-128"));
	free(md);
	json_decref(want);
	json_decref(written);
	free(page);
	free(sa);
	free(out);
	free(run);
}

/* ---- validation of a published dataset ------------------------------------------- */

static size_t check_quietly(const char *dataset, char **text)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	size_t n = size_audit_check(dataset, f);
	fclose(f);
	*text = buf;
	return n;
}

static char *publish_fixture(void)
{
	char *run = path_join(tmp, "runs/x86_1"), *ds = path_join(tmp, "ds");
	FILE *devnull = fopen("/dev/null", "w");
	struct publish_opts o = { tmp, run, ds, 1, NULL, devnull, 0 };
	assert_int_equal(publish_dataset(&o), EXIT_OK);
	fclose(devnull);
	free(run);
	return ds;
}

static void validate_recomputes(void **state)
{
	(void)state;
	set_observed("kem-27/NTRE-512", "ct", 3400, 3400);
	char *ds = publish_fixture(), *text = NULL;
	char *sa = path_join(ds, "data/x86_1/size_audit.json");
	assert_int_equal(check_quietly(ds, &text), 0);
	assert_string_equal(text, "");
	free(text);

	/* a classification edited by hand */
	json_t *j = evidence_load(sa, NULL);
	json_t *o = (json_t *)object_of(j, "kem-27", "NTRE-512", "ct");
	json_object_set_new(o, "classification", json_null());
	assert_int_equal(evidence_write(sa, j), 0);
	json_decref(j);
	assert_int_equal(check_quietly(ds, &text), 1);
	assert_non_null(strstr(text, "PROBLEM data/x86_1/size_audit.json: differs from the audit "
			       "recomputed from the records and catalog: kem-27 NTRE-512 ct differs"));
	free(text);

	/* no audit at all */
	assert_int_equal(unlink(sa), 0);
	assert_int_equal(check_quietly(ds, &text), 1);
	assert_non_null(strstr(text, "PROBLEM data/x86_1/size_audit.json: missing"));
	free(text);

	/* a catalog that cannot be used */
	char *cat = path_join(ds, "external_sizes.csv");
	FILE *f = fopen(cat, "a");
	fputs("kem-12;CTL-257-512;1;1;;encoded\n", f);
	fclose(f);
	assert_int_equal(check_quietly(ds, &text), 1);
	assert_non_null(strstr(text, "cannot be recomputed: external_sizes.csv lists kem-12 "
			       "CTL-257-512 twice"));
	free(text);
	free(cat);
	free(sa);
	free(ds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(classify_each_case),
		cmocka_unit_test_setup_teardown(audit_of_the_fixture, setup, teardown),
		cmocka_unit_test_setup_teardown(missing_observation, setup, teardown),
		cmocka_unit_test_setup_teardown(duplicate_catalog_row, setup, teardown),
		cmocka_unit_test_setup_teardown(report_writes_the_audit, setup, teardown),
		cmocka_unit_test_setup_teardown(validate_recomputes, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
