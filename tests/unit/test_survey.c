/*
 * test_survey.c — the profile record's derived values (docs/method.md §10.4–§10.5,
 * evidence/profile_json.h) and the symmetric-primitive survey (R13,
 * build/survey.h): shares, calls per operation and corrected shares from
 * known raw calls, the validate check, the cross-check; a real object
 * compiled here with a Keccak round-constant table reachable from kem_enc,
 * a ChaCha routine reached through a function-pointer table and an SM4
 * S-box nothing references; verdicts, notes and survey.conf.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "build/survey.h"
#include "evidence/json.h"
#include "evidence/profile_json.h"
#include "util/util.h"

static json_t *calls_fixture(void)
{
	return json_pack("[{s:s,s:i,s:i,s:i,s:i}, {s:s,s:i,s:i,s:i,s:i}, {s:s,s:i,s:i,s:i,s:i}]",
			 "fn", "pseudoXOF", "in_bits", 272, "out_bits", 1024, "calls", 30, "ticks", 3000,
			 "fn", "drng", "in_bits", 0, "out_bits", 256, "calls", 10, "ticks", 1000,
			 "fn", "pseudoXOF", "in_bits", 288, "out_bits", 5376, "calls", 40, "ticks", 6000);
}

static void test_derive(void **state)
{
	(void)state;
	json_t *calls = calls_fixture();
	/* 10 operations, 100000 ticks, overhead 10 inside + 5 outside per call */
	json_t *d = profile_derive(calls, 10, 100000, 0, 10, 5);
	json_t *share = json_object_get(d, "share");
	/* keys in byte order: drng < pseudoXOF */
	const char *first = json_object_iter_key(json_object_iter(share));
	assert_string_equal(first, "drng");
	assert_true(json_real_value(json_object_get(share, "pseudoXOF")) == 9000.0 / 100000);
	assert_true(json_real_value(json_object_get(share, "drng")) == 1000.0 / 100000);
	assert_true(jget_real(d, "hash_share", -1) == 0.09);
	assert_true(jget_real(d, "drng_share", -1) == 0.01);
	json_t *cpo = json_object_get(d, "calls_per_operation");
	assert_true(json_real_value(json_object_get(cpo, "pseudoXOF")) == 7.0);
	assert_true(json_real_value(json_object_get(cpo, "drng")) == 1.0);
	/* corrected: (T_fn - n_fn o_in) / (T - n_all (o_in + o_out)) */
	json_t *c = json_object_get(json_object_get(d, "corrected"), "share");
	double denom = 100000.0 - 80 * 15;
	assert_true(json_real_value(json_object_get(c, "pseudoXOF")) == (9000.0 - 70 * 10) / denom);
	assert_true(json_real_value(json_object_get(c, "drng")) == (1000.0 - 10 * 10) / denom);
	json_decref(d);
	/* An overhead larger than a function's time clamps at 0. */
	d = profile_derive(calls, 10, 100000, 0, 200, 0);
	c = json_object_get(json_object_get(d, "corrected"), "share");
	assert_true(json_real_value(json_object_get(c, "drng")) == 0.0);
	json_decref(d);
	/* No operations: every derived value is null. */
	d = profile_derive(calls, 0, 100000, 0, 0, 0);
	assert_true(json_is_null(json_object_get(d, "share")));
	assert_true(json_is_null(json_object_get(d, "hash_share")));
	json_decref(d);
	json_decref(calls);
}

static json_t *record_fixture(void)
{
	json_t *result = json_pack("{s:s, s:s, s:f, s:i, s:i, s:i, s:{s:i, s:i}, s:o, s:{s:f, s:f}}",
				   "status", "complete", "tick_source", "tsc", "tick_hz", 2e9,
				   "warmups", 1, "iterations", 10, "overflow_calls", 0,
				   "total", "operations", 10, "ticks", 100000,
				   "calls", calls_fixture(), "overhead", "o_in", 10.0, "o_out", 5.0);
	json_t *timing = json_pack("{s:f, s:f, s:{s:s}}", "mean_cycles", 8000.0,
				   "mean_seconds", 4e-6, "counter", "name", "tsc-fenced");
	json_t *cov = json_pack("{s:s, s:[]}", "status", "full", "hits");
	struct profile_input in = {
		.candidate = "c", .label = "L", .operation = "enc",
		.library_instrumented = "build/c/instrumented/libL.so",
		.library_instrumented_sha256 = "00", .library = "build/c/libL.so",
		.library_sha256 = "11", .command = NULL, .stderr_tail = "",
		.exited_ok = 1, .result = result, .timing = timing, .coverage = cov,
	};
	json_t *rec = profile_build(&in);
	json_decref(result);
	json_decref(timing);
	json_decref(cov);
	return rec;
}

static void test_record_check_and_crosscheck(void **state)
{
	(void)state;
	char *why = NULL;
	json_t *rec = record_fixture();
	assert_string_equal(jget_str(rec, "status", ""), "complete");
	assert_string_equal(jget_str(rec, "schema", ""), "ngcc-perf/profile/1");
	assert_int_equal(profile_check(rec, &why), 0);
	/* tsc and tsc-fenced are the same counter: ticks compare directly */
	json_t *x = json_object_get(rec, "crosscheck");
	assert_true(jget_real(x, "ticks_per_op", 0) == 10000.0);
	assert_true(jget_real(x, "ratio", 0) == 10000.0 / 8000.0);
	assert_true(jget_bool(x, "flagged", 0));
	/* a tampered share is caught */
	json_object_set_new(json_object_get(rec, "share"), "drng", json_real(0.02));
	assert_int_equal(profile_check(rec, &why), 1);
	assert_non_null(strstr(why, "share.drng"));
	free(why);
	json_decref(rec);
	/* different counters compare seconds; within 15 % is not flagged */
	json_t *timing = json_pack("{s:f, s:f, s:{s:s}}", "mean_cycles", 1.0,
				   "mean_seconds", 5.2e-6, "counter", "name", "perf-user-cycles");
	x = profile_crosscheck(10, 100000, "tsc", 2e9, timing);
	assert_true(jget_real(x, "ratio", 0) == 10000.0 / 2e9 / 5.2e-6);
	assert_false(jget_bool(x, "flagged", 1));
	json_decref(x);
	json_decref(timing);
	x = profile_crosscheck(10, 100000, "tsc", 2e9, NULL);
	assert_true(json_is_null(json_object_get(x, "ratio")));
	json_decref(x);
}

/* Where the tick rate came from is kept in meta and held to its words; a
 * driver result without it (before the field) gives null. */
static void test_tick_hz_source(void **state)
{
	(void)state;
	char *why = NULL;
	json_t *rec = record_fixture();
	const json_t *meta = json_object_get(rec, "meta");
	assert_true(json_is_null(json_object_get(meta, "tick_hz_source")));
	assert_int_equal(profile_check_fields(rec, &why), 0);
	json_decref(rec);
	json_t *result = json_pack("{s:s, s:s, s:f, s:s, s:{s:i, s:i}}", "status", "complete",
				   "tick_source", "tsc", "tick_hz", 2e9, "tick_hz_source", "phase",
				   "total", "operations", 10, "ticks", 100000);
	struct profile_input in = { .candidate = "c", .label = "L", .operation = "enc",
				    .exited_ok = 1, .result = result };
	rec = profile_build(&in);
	meta = json_object_get(rec, "meta");
	assert_string_equal(jget_str(meta, "tick_hz_source", ""), "phase");
	assert_true(jget_real(meta, "tick_hz", 0) == 2e9);
	assert_int_equal(profile_check_fields(rec, &why), 0);
	json_object_set_new((json_t *)meta, "tick_hz_source", json_string("guessed"));
	assert_int_equal(profile_check_fields(rec, &why), -1);
	assert_non_null(strstr(why, "meta.tick_hz_source"));
	free(why);
	json_decref(rec);
	json_decref(result);
}

static void test_failed_profile(void **state)
{
	(void)state;
	json_t *result = json_pack("{s:s, s:s}", "status", "failed", "error", "kem_enc returned -1");
	struct profile_input in = { .candidate = "c", .label = "L", .operation = "enc",
				    .exited_ok = 0, .result = result };
	json_t *rec = profile_build(&in);
	assert_string_equal(jget_str(rec, "status", ""), "failed");
	assert_string_equal(jget_str(rec, "status_detail", ""), "kem_enc returned -1");
	assert_true(json_is_null(json_object_get(rec, "hash_share")));
	json_decref(rec);
	json_decref(result);
}

/* ---- survey ---------------------------------------------------------------- */

static const char survey_source[] =
	"#include <string.h>\n"
	"static const unsigned long long rc[4] = { 0x1ULL, 0x8082ULL,\n"
	"	0x800000000000808aULL, 0x8000000080008000ULL };\n"
	"const unsigned char sm4_box_unused[16] = { 0xd6, 0x90, 0xe9, 0xfe, 0xcc, 0xe1,\n"
	"	0x3d, 0xb7, 0x16, 0xb6, 0x14, 0xc2, 0x28, 0xfb, 0x2c, 0x05 };\n"
	"static const char sigma[17] = \"expand 32-byte k\";\n"
	"extern int pseudoXOF(unsigned long long, const unsigned char *, unsigned long long,\n"
	"	unsigned char *);\n"
	"static unsigned long long mix(unsigned long long x, int i) { return x ^ rc[i & 3]; }\n"
	"static void chacha_block(unsigned char *o) { memcpy(o, sigma, 16); }\n"
	"static void (*const table[1])(unsigned char *) = { chacha_block };\n"
	"int kem_enc(unsigned char *o, int i)\n"
	"{\n"
	"	o[0] = (unsigned char)mix(o[1], i);\n"
	"	table[0](o);\n"
	"	return pseudoXOF(256, o, 8, o);\n"
	"}\n"
	"int sha3_256_wrapper(unsigned char *o) { return pseudoXOF(256, o, 8, o); }\n"
	"int kem_dec(unsigned char *o) { return sha3_256_wrapper(o); }\n";

static char tmpdir[64];

static int make_object(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/ngcc-test-survey.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	char *src = xasprintf("%s/own.c", tmpdir);
	if (write_file(src, survey_source, strlen(survey_source)))
		return -1;
	/* -O0 keeps every function and the table as written. */
	char *cmd = xasprintf("cc -std=c99 -O0 -fPIC -c %s -o %s/own.o", src, tmpdir);
	int rc = system(cmd);
	free(cmd);
	free(src);
	return rc ? -1 : 0;
}

static int remove_object(void **state)
{
	(void)state;
	rm_rf(tmpdir);
	return 0;
}

static const struct survey_hit *hit(const struct survey_instance *si, const char *match)
{
	for (size_t i = 0; i < si->n_hits; i++)
		if (!strcmp(si->hits[i].match, match))
			return &si->hits[i];
	return NULL;
}

static void test_scan_object(void **state)
{
	(void)state;
	struct strlist objs = STRLIST_INIT;
	struct survey_instance si;
	char *err = NULL;
	memset(&si, 0, sizeof si);
	si.drng_called = si.hash_called = -1;
	sl_push_owned(&objs, xasprintf("%s/own.o", tmpdir));
	assert_int_equal(survey_scan_objects("/", &objs, &si, &err), 0);
	assert_true(sl_contains(&si.roots, "kem_enc") && sl_contains(&si.roots, "kem_dec"));
	assert_true(sl_contains(&si.iccs_refs, "pseudoXOF"));
	const struct survey_hit *h = hit(&si, "Keccak round constants");
	assert_non_null(h);
	assert_true(h->reachable);
	assert_string_equal(h->symbol, "rc");
	assert_true(sl_contains(&h->reached_from, "kem_enc"));
	assert_false(sl_contains(&h->reached_from, "kem_dec"));
	h = hit(&si, "ChaCha constant");   /* through the function-pointer table */
	assert_non_null(h);
	assert_true(h->reachable);
	h = hit(&si, "SM4 S-box");
	assert_non_null(h);
	assert_false(h->reachable);
	assert_string_equal(h->symbol, "sm4_box_unused");
	/* the SM4 symbol name is a hit too, also unreachable; chacha_block is reachable */
	int sym_sm4 = 0, sym_chacha = 0;
	for (size_t i = 0; i < si.n_hits; i++) {
		if (!strcmp(si.hits[i].match, "symbol") && !strcmp(si.hits[i].symbol, "sm4_box_unused"))
			sym_sm4 = !si.hits[i].reachable;
		if (!strcmp(si.hits[i].match, "symbol") && !strcmp(si.hits[i].symbol, "chacha_block"))
			sym_chacha = si.hits[i].reachable;
	}
	assert_true(sym_sm4 && sym_chacha);
	/* a function named like a primitive that calls the ICCS is no hit */
	for (size_t i = 0; i < si.n_hits; i++)
		assert_string_not_equal(si.hits[i].symbol, "sha3_256_wrapper");
	/* reachable hits make coverage partial; the unreachable ones are left out */
	json_t *cov = survey_coverage(&si);
	assert_string_equal(jget_str(cov, "status", ""), "partial");
	char *s = json_dumps(json_object_get(cov, "hits"), 0);
	assert_non_null(strstr(s, "Keccak round constants"));
	assert_null(strstr(s, "SM4"));
	free(s);
	json_decref(cov);
	/* own primitives plus pseudoXOF: mixed; no get_random_number reference */
	char *notes = NULL;
	assert_string_equal(survey_verdict(&si, 1, &notes), "mixed");
	assert_non_null(strstr(notes, "own ChaCha, Keccak (reachable from kem_enc)"));
	assert_non_null(strstr(notes, "never calls the DRNG"));
	free(notes);
	survey_instance_free(&si);
	sl_free(&objs);
}

static void fake_instance(struct survey_instance *si, int reachable_hit, int hash, int drng)
{
	memset(si, 0, sizeof *si);
	si->label = xstrdup("L");
	si->hash_called = hash;
	si->drng_called = drng;
	if (reachable_hit) {
		si->hits = xcalloc(1, sizeof *si->hits);
		si->n_hits = 1;
		si->hits[0].kind = xstrdup("SHA-2");
		si->hits[0].match = xstrdup("SHA-256 K table");
		si->hits[0].object = xstrdup("x.o");
		si->hits[0].symbol = xstrdup("k");
		si->hits[0].reachable = 1;
		sl_push(&si->hits[0].reached_from, "kem_keygen");
	}
}

static void test_verdicts(void **state)
{
	(void)state;
	struct survey_instance si[2];
	char *notes;
	fake_instance(&si[0], 0, 1, 1);
	fake_instance(&si[1], 0, 1, 1);
	assert_string_equal(survey_verdict(si, 2, &notes), "ICCS-only");
	assert_string_equal(notes, "");
	free(notes);
	survey_instance_free(&si[1]);
	fake_instance(&si[1], 1, 0, 1);
	assert_string_equal(survey_instance_class(&si[1]), "bypass");
	assert_string_equal(survey_verdict(si, 2, &notes), "instance-dependent");
	assert_string_equal(notes, "own SHA-2 (reachable from kem_keygen)");
	free(notes);
	assert_string_equal(survey_verdict(&si[1], 1, &notes), "bypass");
	free(notes);
	si[1].hash_called = 1;
	assert_string_equal(survey_verdict(&si[1], 1, &notes), "mixed");
	free(notes);
	si[0].drng_called = 0;
	si[1].drng_called = 0;
	survey_verdict(si, 2, &notes);
	assert_string_equal(notes, "own SHA-2 (reachable from kem_keygen); never calls the DRNG");
	free(notes);
	/* survey.json: a survey.conf line wins, the automatic verdict stays */
	json_t *j = survey_json("kem-9", si, 2, "ICCS-only", "checked by hand");
	assert_string_equal(jget_str(j, "verdict", ""), "ICCS-only");
	assert_string_equal(jget_str(j, "source", ""), "survey.conf");
	assert_string_equal(jget_str(json_object_get(j, "automatic"), "verdict", ""),
			    "instance-dependent");
	json_decref(j);
	survey_instance_free(&si[0]);
	survey_instance_free(&si[1]);
}

static void test_survey_conf(void **state)
{
	(void)state;
	char *path = xasprintf("%s/survey.conf", tmpdir), *v, *n, *err = NULL;
	const char good[] = "# ID; verdict; notes\n\nkem-1; bypass; own SHAKE in keygen\n"
			    "  kem-2 ;ICCS-only\n";
	assert_int_equal(write_file(path, good, strlen(good)), 0);
	assert_int_equal(survey_conf_lookup(path, "kem-1", &v, &n, &err), 1);
	assert_string_equal(v, "bypass");
	assert_string_equal(n, "own SHAKE in keygen");
	free(v);
	free(n);
	assert_int_equal(survey_conf_lookup(path, "kem-2", &v, &n, &err), 1);
	assert_string_equal(v, "ICCS-only");
	assert_string_equal(n, "");
	free(v);
	free(n);
	assert_int_equal(survey_conf_lookup(path, "kem-3", &v, &n, &err), 0);
	const char bad[] = "kem-1; maybe; x\n";
	assert_int_equal(write_file(path, bad, strlen(bad)), 0);
	assert_int_equal(survey_conf_lookup(path, "kem-1", &v, &n, &err), -1);
	assert_non_null(strstr(err, "survey.conf:1: verdict 'maybe'"));
	free(err);
	char *missing = xasprintf("%s/none.conf", tmpdir);
	assert_int_equal(survey_conf_lookup(missing, "kem-1", &v, &n, &err), 0);
	free(missing);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_record_check_and_crosscheck),
		cmocka_unit_test(test_tick_hz_source),
		cmocka_unit_test(test_failed_profile),
		cmocka_unit_test(test_scan_object),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_survey_conf),
	};
	return cmocka_run_group_tests(tests, make_object, remove_object);
}
