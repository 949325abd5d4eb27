/*
 * test_survey.c — the profile record's derived values (docs/method.md §10.4–§10.5,
 * evidence/profile_json.h) and the symmetric-primitive survey (R13,
 * build/survey.h): shares, calls per operation and corrected shares from
 * known raw calls, the validate check, the cross-check; a real object
 * compiled here with a Keccak round-constant table reachable from kem_enc,
 * a ChaCha routine reached through a function-pointer table and an SM4
 * S-box nothing references; SHAKE-named wrappers around pseudoXOF
 * (ICCS-only: names are hints) and a Keccak-f[1600] without names or
 * tables (found by its rotations); verdicts, notes and survey.conf.
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

/* SHAKE by name only: every function named after it keeps a state or
 * calls the ICCS pseudoXOF (the layout of a real package that was called
 * "mixed -- own SHAKE" by its names). */
static const char wrapper_source[] =
	"#include <string.h>\n"
	"extern int pseudoXOF(unsigned long long, const unsigned char *, unsigned long long,\n"
	"	unsigned char *);\n"
	"typedef struct { unsigned char buf[64]; unsigned long long len; } shake256_ctx;\n"
	"void shake256_init(shake256_ctx *c) { memset(c, 0, sizeof *c); }\n"
	"void shake256_absorb(shake256_ctx *c, const unsigned char *in, unsigned long long n)\n"
	"{ memcpy(c->buf + c->len, in, n); c->len += n; }\n"
	"void shake256_squeeze(shake256_ctx *c, unsigned char *out, unsigned long long n)\n"
	"{ pseudoXOF(8 * c->len, c->buf, 8 * n, out); }\n"
	"int kem_keygen(unsigned char *pk, unsigned char *sk)\n"
	"{\n"
	"	shake256_ctx c;\n"
	"	shake256_init(&c);\n"
	"	shake256_absorb(&c, sk, 32);\n"
	"	shake256_squeeze(&c, pk, 32);\n"
	"	return 0;\n"
	"}\n";

/* A Keccak-f[1600] of our own (FIPS 202 §3.2-3.3) whose names say nothing
 * and whose round constants come from the rc(t) LFSR (Algorithm 5), so no
 * constant table exists: only the rotations of rho give it away. */
static const char permutation_source[] =
	"#include <stdint.h>\n"
	"#define ROL(x, n) (((x) << (n)) | ((x) >> (64 - (n))))\n"
	"#define STEP(dst, r) do { uint64_t tmp = a[dst]; a[dst] = ROL(t, r); t = tmp; } while (0)\n"
	"static void mix_state(uint64_t a[25])\n"
	"{\n"
	"	unsigned lfsr = 1;\n"
	"	for (int round = 0; round < 24; round++) {\n"
	"		uint64_t c[5], t, rc = 0;\n"
	"		for (int x = 0; x < 5; x++)\n"
	"			c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];\n"
	"		for (int x = 0; x < 5; x++) {\n"
	"			uint64_t d = c[(x + 4) % 5] ^ ROL(c[(x + 1) % 5], 1);\n"
	"			for (int y = 0; y < 25; y += 5)\n"
	"				a[x + y] ^= d;\n"
	"		}\n"
	"		t = a[1];\n"
	"		STEP(10, 1); STEP(7, 3); STEP(11, 6); STEP(17, 10); STEP(18, 15); STEP(3, 21);\n"
	"		STEP(5, 28); STEP(16, 36); STEP(8, 45); STEP(21, 55); STEP(24, 2); STEP(4, 14);\n"
	"		STEP(15, 27); STEP(23, 41); STEP(19, 56); STEP(13, 8); STEP(12, 25); STEP(2, 43);\n"
	"		STEP(20, 62); STEP(14, 18); STEP(22, 39); STEP(9, 61); STEP(6, 20); STEP(1, 44);\n"
	"		for (int y = 0; y < 25; y += 5) {\n"
	"			for (int x = 0; x < 5; x++)\n"
	"				c[x] = a[y + x];\n"
	"			for (int x = 0; x < 5; x++)\n"
	"				a[y + x] = c[x] ^ (~c[(x + 1) % 5] & c[(x + 2) % 5]);\n"
	"		}\n"
	"		for (int j = 0; j < 7; j++) {\n"
	"			if (lfsr & 1)\n"
	"				rc ^= 1ULL << ((1 << j) - 1);\n"
	"			lfsr = ((lfsr << 1) ^ ((lfsr >> 7) * 0x71)) & 0xff;\n"
	"		}\n"
	"		a[0] ^= rc;\n"
	"	}\n"
	"}\n"
	"extern int pseudohash(unsigned long long, const unsigned char *, unsigned long long,\n"
	"	unsigned char *);\n"
	"int kem_enc(uint64_t *state) { mix_state(state); return 0; }\n"
	"int kem_dec(unsigned char *o) { return pseudohash(256, o, 8, o); }\n";

static char tmpdir[64];

static int compile(const char *name, const char *source, const char *opt)
{
	char *src = xasprintf("%s/%s.c", tmpdir, name);
	if (write_file(src, source, strlen(source))) {
		free(src);
		return -1;
	}
	char *cmd = xasprintf("cc -std=c99 %s -fPIC -c %s -o %s/%s.o", opt, src, tmpdir, name);
	int rc = system(cmd);
	free(cmd);
	free(src);
	return rc ? -1 : 0;
}

static int make_object(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/ngcc-test-survey.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	/* -O0 keeps every function and the table as written; the rotations
	 * need the optimizer, as the candidates' guide flags have it. */
	return compile("own", survey_source, "-O0") || compile("wrap", wrapper_source, "-O0") ||
	       compile("perm", permutation_source, "-O2") ? -1 : 0;
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

static void scan_one(const char *name, struct survey_instance *si)
{
	struct strlist objs = STRLIST_INIT;
	char *err = NULL;
	memset(si, 0, sizeof *si);
	si->drng_called = si->hash_called = -1;
	sl_push_owned(&objs, xasprintf("%s/%s.o", tmpdir, name));
	assert_int_equal(survey_scan_objects("/", &objs, si, &err), 0);
	sl_free(&objs);
}

/* Functions named after SHAKE that keep a state and call pseudoXOF are
 * the ICCS: the names are noted as hints and the verdict is ICCS-only. */
static void test_names_are_hints(void **state)
{
	(void)state;
	struct survey_instance si;
	scan_one("wrap", &si);
	int named = 0;
	for (size_t i = 0; i < si.n_hits; i++)
		named += !strcmp(si.hits[i].match, "symbol") && si.hits[i].reachable;
	assert_int_equal(named, 2);   /* shake256_init, shake256_absorb: no ICCS call */
	assert_string_equal(survey_instance_class(&si), "ICCS-only");
	char *notes = NULL;
	assert_string_equal(survey_verdict(&si, 1, &notes), "ICCS-only");
	assert_string_equal(notes, "named like SHAKE (shake256_absorb, shake256_init), but no "
			    "matching constants or rotations were found; never calls the DRNG");
	free(notes);
	json_t *cov = survey_coverage(&si);
	assert_string_equal(jget_str(cov, "status", ""), "full");
	json_decref(cov);
	json_t *j = survey_json("kem-w", &si, 1, NULL, NULL);
	const json_t *aut = json_object_get(j, "automatic");
	assert_int_equal(json_array_size(json_object_get(aut, "scan")), 0);
	assert_int_equal(json_array_size(json_object_get(aut, "name_hints")), 2);
	/* joined from shards, the verdict is the same */
	const json_t *docs[1] = { j };
	char *err = NULL;
	json_t *joined = survey_join(docs, 1, &err);
	assert_non_null(joined);
	assert_string_equal(jget_str(joined, "verdict", ""), "ICCS-only");
	json_decref(joined);
	json_decref(j);
	survey_instance_free(&si);
}

/* A permutation with neutral names and no constant table is found by
 * its rotations and sets the verdict. */
static void test_rotations(void **state)
{
	(void)state;
	struct survey_instance si;
	scan_one("perm", &si);
	const struct survey_hit *h = hit(&si, "Keccak-f[1600] rotations");
	assert_non_null(h);
	assert_true(h->reachable);
	assert_true(sl_contains(&h->reached_from, "kem_enc"));
	assert_false(sl_contains(&h->reached_from, "kem_dec"));
	assert_null(hit(&si, "Keccak round constants"));
	for (size_t i = 0; i < si.n_hits; i++)
		assert_string_not_equal(si.hits[i].match, "symbol");
	char *notes = NULL;
	assert_string_equal(survey_verdict(&si, 1, &notes), "mixed");   /* and pseudohash */
	assert_string_equal(notes, "own Keccak (reachable from kem_enc); never calls the DRNG");
	free(notes);
	survey_instance_free(&si);
	/* the table-driven Keccak of the first object has no such function */
	scan_one("own", &si);
	assert_null(hit(&si, "Keccak-f[1600] rotations"));
	survey_instance_free(&si);
}

/* The other encodings of the rotations: BMI2's rorx on x86-64 and ror
 * (extr) on AArch64, compiled with clang for either target (it is in
 * scripts/bootstrap for the fuzz targets); without clang there is nothing
 * to scan, and the test says so. */
static void test_rotation_encodings(void **state)
{
	(void)state;
	static const char *const variants[][2] = {
		{ "perm_bmi2", "--target=x86_64-linux-gnu -mbmi2 -O2" },
		{ "perm_a64", "--target=aarch64-linux-gnu -O2" },
	};
	for (size_t v = 0; v < 2; v++) {
		char *src = xasprintf("%s/perm.c", tmpdir);
		char *cmd = xasprintf("clang -std=c99 -ffreestanding %s -fPIC -c %s -o %s/%s.o "
				      "2>/dev/null", variants[v][1], src, tmpdir, variants[v][0]);
		int rc = system(cmd);
		free(cmd);
		free(src);
		if (rc) {
			printf("note: clang could not compile for %s; not checked\n", variants[v][1]);
			continue;
		}
		struct survey_instance si;
		scan_one(variants[v][0], &si);
		const struct survey_hit *h = hit(&si, "Keccak-f[1600] rotations");
		assert_non_null(h);
		assert_true(h->reachable);
		survey_instance_free(&si);
	}
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
		cmocka_unit_test(test_names_are_hints),
		cmocka_unit_test(test_rotations),
		cmocka_unit_test(test_rotation_encodings),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_survey_conf),
	};
	return cmocka_run_group_tests(tests, make_object, remove_object);
}
