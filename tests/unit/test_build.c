/*
 * test_build.c — `build` on the hand-made toy package in
 * tests/fixtures/build/toykem: flag profiles, the version script, loading
 * two libraries with clashing internal names side by side, the ELF image
 * size, the harness-default fallback, BUILDFAIL, build.json.
 *
 * The workspace path has a space and Chinese characters and one label has
 * quotes and a trigraph, so anything that went through a shell or an
 * unescaped -D would break.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build/build.h"
#include "build/elfinfo.h"
#include "build/job.h"
#include "evidence/build_json.h"
#include "evidence/json.h"
#include "runtime/ngcc_abi.h"

#define ODD_LABEL "Toy 2 \"中\"?\?="

enum { U_TOY1, U_TOY2, U_GNU, U_BROKEN, U_LTO, U_OWNDRNG, U_CXX, N_UNITS };

struct fixture {
	char *tmp;        /* mkdtemp folder */
	char *ws;         /* workspace inside it, with a space and CJK */
	struct candidate_conf conf;
	struct build_unit units[N_UNITS];
	int done_calls;
};

static struct fixture *fx;

static int run_argv(const char *const *args, char **output)
{
	struct job j = { .argv = STRLIST_INIT };
	for (; *args; args++)
		sl_push(&j.argv, *args);
	int rc = job_run_sync(&j);
	if (output)
		*output = xstrdup(j.output ? j.output : "");
	job_release(&j);
	return rc;
}

static struct instance_conf *toy_instance(struct candidate_conf *c, const char *label,
					  const char *dir, const char *src)
{
	struct instance_conf *ic = conf_add_instance(c, label);
	ic->type = xstrdup("kem");
	ic->variant = xstrdup("reference");
	ic->source_dir = xstrdup(dir);
	sl_push(&ic->sources, src);
	return ic;
}

static void make_conf(struct candidate_conf *c)
{
	memset(c, 0, sizeof *c);
	c->id = xstrdup("kem-toy");
	c->algorithm = xstrdup("Toy");
	c->type = xstrdup("kem");
	c->package = xstrdup("toykem");
	const char *dir = "Reference Implementation/Toy 1";
	for (int tag = 1; tag <= 2; tag++) {
		struct instance_conf *ic = toy_instance(c, tag == 1 ? "Toy-1" : ODD_LABEL, dir, "kem.c");
		ic->instance = xasprintf("TOY_%d", tag);
		sl_push(&ic->sources, "src/tag.c");
		sl_push(&ic->include_dirs, ".");
		sl_push(&ic->include_dirs, "src");
		sl_push_owned(&ic->defines, xasprintf("TOY_TAG=%d", tag));
	}
	toy_instance(c, "Toy-GNU", "gnu", "kem_gnu.c");
	toy_instance(c, "Toy-Broken", "broken", "kem_broken.c");
	struct instance_conf *lto = toy_instance(c, "Toy-LTO", dir, "kem.c");
	sl_push(&lto->sources, "src/tag.c");
	sl_push(&lto->include_dirs, ".");
	sl_push(&lto->include_dirs, "src");
	sl_push(&lto->cflags, "-flto");
	toy_instance(c, "Toy-OwnDRNG", "owndrng", "kem_owndrng.c");
	toy_instance(c, "Toy-CXX", "cxx", "kem_cxx.cpp");
}

static void count_done(struct build_unit *u, void *arg)
{
	(void)u;
	((struct fixture *)arg)->done_calls++;
}

static int setup(void **state)
{
	(void)state;
	fx = xcalloc(1, sizeof *fx);
	char tmpl[] = "/tmp/ngcc-test-build.XXXXXX";
	if (!mkdtemp(tmpl))
		return -1;
	fx->tmp = xstrdup(tmpl);
	fx->ws = path_join(fx->tmp, "工作 区");
	char *src = path_join(fx->ws, "candidates/kem-toy/source");
	/* The checkout (tests/run-tests gives it as NGCC_SRC; NGCC_PERF_HOME
	 * may hold only the runtime). */
	const char *root = getenv("NGCC_SRC");
	char *fixture = path_join(root && *root ? root : ngcc_home(), "tests/fixtures/build/toykem/.");
	if (mkdir_p(src, 0755))
		return -1;
	const char *cp[] = { "cp", "-R", fixture, src, NULL };
	if (run_argv(cp, NULL))
		return -1;
	free(fixture);
	free(src);
	make_conf(&fx->conf);
	for (size_t i = 0; i < N_UNITS; i++) {
		fx->units[i].workspace = fx->ws;
		fx->units[i].c = &fx->conf;
		fx->units[i].ic = &fx->conf.inst[i];
		fx->units[i].forced_profile = -1;
	}
	return build_units(fx->units, N_UNITS, 2, count_done, fx);
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_UNITS; i++)
		build_unit_free(&fx->units[i]);
	conf_free(&fx->conf);
	rm_rf(fx->tmp);
	free(fx->tmp);
	free(fx->ws);
	free(fx);
	return 0;
}

static char *lib_path(const struct build_unit *u)
{
	return path_join(fx->ws, build_unit_final(u)->library);
}

/* ---- flag profiles ---- */

static int has(const struct strlist *sl, const char *s) { return sl_contains(sl, s); }

static void test_profile_flags(void **state)
{
	(void)state;
	struct strlist g = STRLIST_INIT, h = STRLIST_INIT, gx = STRLIST_INIT, hx = STRLIST_INIT;
	build_profile_flags(PROFILE_GUIDE, 0, &g);
	build_profile_flags(PROFILE_HARNESS_DEFAULT, 0, &h);
	build_profile_flags(PROFILE_GUIDE, 1, &gx);
	build_profile_flags(PROFILE_HARNESS_DEFAULT, 1, &hx);
	const char *guide[] = { "-std=c99", "-Wpedantic", "-Wall", "-Wextra", "-O2", "-fPIC",
				"-D_GNU_SOURCE", "-Wno-error=implicit-function-declaration",
				"-Wno-error=incompatible-pointer-types",
				"-Wno-error=int-conversion", "-Wno-error=implicit-int" };
	assert_int_equal(g.n, sizeof guide / sizeof guide[0]);
	for (size_t i = 0; i < g.n; i++)
		assert_string_equal(g.items[i], guide[i]);
	const char *harness[] = { "-O2", "-fPIC", "-std=gnu11", "-fno-strict-aliasing", "-fwrapv",
				  "-fcommon", "-D_GNU_SOURCE" };
	for (size_t i = 0; i < sizeof harness / sizeof harness[0]; i++)
		assert_string_equal(h.items[i], harness[i]);
	assert_true(has(&h, "-Wno-error=implicit-int"));
	assert_true(has(&gx, "-std=c++11") && !has(&gx, "-std=c99"));
	assert_false(has(&gx, "-Wno-error=implicit-int")); /* C-only switch */
	for (size_t i = 0; i < hx.n; i++)
		assert_false(str_starts_with(hx.items[i], "-std="));
	struct strlist *all[] = { &g, &h, &gx, &hx };
	for (size_t k = 0; k < 4; k++) {
		assert_false(has(all[k], "-Werror"));
		sl_free(all[k]);
	}
	assert_string_equal(build_profile_name(PROFILE_GUIDE), "guide");
	assert_string_equal(build_profile_name(PROFILE_HARNESS_DEFAULT), "harness-default");
}

static void test_stem(void **state)
{
	(void)state;
	struct instance_conf ic = { .label = "X-1", .variant = "optimized-avx2" };
	char *s = build_stem(&ic);
	assert_string_equal(s, "X-1+avx2");
	free(s);
	assert_int_equal(build_first_profile(&ic), PROFILE_GUIDE_PERFORMANCE);
	ic.variant = "reference";
	s = build_stem(&ic);
	assert_string_equal(s, "X-1");
	free(s);
	assert_int_equal(build_first_profile(&ic), PROFILE_GUIDE);
}

/* ---- outcomes ---- */

static void test_outcomes(void **state)
{
	(void)state;
	assert_int_equal(fx->done_calls, N_UNITS);
	for (int i = U_TOY1; i <= U_TOY2; i++) {
		const struct build_unit *u = &fx->units[i];
		assert_true(u->done);
		assert_int_equal(u->n_attempts, 1);
		assert_true(u->attempt[0].ok);
		assert_int_equal(u->attempt[0].profile, PROFILE_GUIDE);
		char *lib = lib_path(u);
		assert_true(path_is_file(lib));
		free(lib);
	}
	assert_string_equal(fx->units[U_TOY2].attempt[0].library,
			    "build/kem-toy/libToy 2 \"中\"?\?=.so");
}

static void test_fallback_to_harness_default(void **state)
{
	(void)state;
	const struct build_unit *u = &fx->units[U_GNU];
	assert_int_equal(u->n_attempts, 2);
	assert_false(u->attempt[0].ok);
	assert_int_equal(u->attempt[0].profile, PROFILE_GUIDE);
	assert_non_null(strstr(u->attempt[0].error, "kem_gnu.c"));
	assert_non_null(strstr(u->attempt[0].error, "error"));
	assert_true(u->attempt[1].ok);
	assert_int_equal(u->attempt[1].profile, PROFILE_HARNESS_DEFAULT);
}

static void test_buildfail(void **state)
{
	(void)state;
	const struct build_unit *u = &fx->units[U_BROKEN];
	assert_int_equal(u->n_attempts, 2);
	assert_false(u->attempt[0].ok);
	assert_false(u->attempt[1].ok);
	assert_non_null(strstr(u->attempt[1].error, "kem_broken.c:2"));
	assert_non_null(strstr(u->attempt[1].error_tail, "expected"));
	assert_null(u->attempt[1].library);
	char *lib = path_join(fx->ws, "build/kem-toy/libToy-Broken.so");
	assert_false(path_exists(lib));
	free(lib);
	/* the log has both attempts, with their command lines */
	char *log = path_join(fx->ws, "build/kem-toy/Toy-Broken.build.log"), *text;
	size_t len;
	assert_int_equal(read_file(log, &text, &len), 0);
	assert_non_null(strstr(text, "with profile guide: FAILED"));
	assert_non_null(strstr(text, "with profile harness-default: FAILED"));
	assert_non_null(strstr(text, "$ cc -std=c99 -Wpedantic"));
	free(text);
	free(log);
}

static void test_lto_detected(void **state)
{
	(void)state;
	const struct build_outcome *o = build_unit_final(&fx->units[U_LTO]);
	assert_true(o->ok);
	assert_true(o->lto);
	assert_false(build_unit_final(&fx->units[U_TOY1])->lto);
}

static int argv_has(const json_t *argv, const char *s)
{
	for (size_t i = 0; i < json_array_size(argv); i++)
		if (!strcmp(json_string_value(json_array_get(argv, i)), s))
			return 1;
	return 0;
}

/* A candidate defining drng_algorithm still builds with the guide flags
 * (-fno-common): the shim then only declares it, and seeds that one. */
static void test_candidate_defines_drng(void **state)
{
	(void)state;
	const struct build_unit *u = &fx->units[U_OWNDRNG];
	assert_int_equal(u->n_attempts, 1);
	assert_true(u->attempt[0].ok);
	const json_t *cc = u->attempt[0].compile_commands;
	json_t *shim = NULL;
	for (size_t i = 0; i < json_array_size(cc); i++)
		if (argv_has(json_array_get(cc, i), "<ngcc-perf>/src/runtime/shim.c"))
			shim = json_array_get(cc, i);
	assert_non_null(shim);
	assert_true(argv_has(shim, "-DNGCC_SHIM_NO_DRNG_DEF"));
	/* and the ordinary toy keeps the shim's definition */
	cc = fx->units[U_TOY1].attempt[0].compile_commands;
	for (size_t i = 0; i < json_array_size(cc); i++)
		assert_false(argv_has(json_array_get(cc, i), "-DNGCC_SHIM_NO_DRNG_DEF"));

	char *p = lib_path(u);
	void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
	assert_non_null(h);
	ngcc_seed_fn sd = (ngcc_seed_fn)dlsym(h, "ngcc_seed");
	ngcc_kem_keygen_fn kg = (ngcc_kem_keygen_fn)dlsym(h, "ngcc_kem_keygen");
	unsigned char a[16], b[16], sk[16];
	unsigned long long l1, l2;
	sd((const unsigned char *)"s", 1);
	kg(a, &l1, sk, &l2);
	sd((const unsigned char *)"s", 1);
	kg(b, &l1, sk, &l2);
	assert_memory_equal(a, b, 16);
	dlclose(h);

	struct elf_facts f;
	char *err = NULL;
	assert_int_equal(elf_read_facts(p, &f, &err), 0);
	assert_true(f.imports_allocator); /* it calls malloc and free */
	elf_facts_free(&f);
	free(p);
}

static void test_cxx_source(void **state)
{
	(void)state;
	const struct build_unit *u = &fx->units[U_CXX];
	assert_int_equal(u->n_attempts, 1);
	assert_true(u->attempt[0].ok);
	const json_t *first = json_array_get(u->attempt[0].compile_commands, 0);
	assert_string_equal(json_string_value(json_array_get(first, 0)), "c++");
	assert_true(argv_has(first, "-std=c++11"));
	assert_false(argv_has(first, "-Wno-error=implicit-int"));
	assert_string_equal(json_string_value(json_array_get(u->attempt[0].link_command, 0)), "c++");
	char *p = lib_path(u);
	void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
	assert_non_null(h);
	ngcc_kem_keygen_fn kg = (ngcc_kem_keygen_fn)dlsym(h, "ngcc_kem_keygen");
	((ngcc_seed_fn)dlsym(h, "ngcc_seed"))((const unsigned char *)"x", 1);
	unsigned char pk[24], sk[24];
	unsigned long long l1 = 0, l2 = 0;
	assert_int_equal(kg(pk, &l1, sk, &l2), 0);
	assert_int_equal(l1, 24);
	assert_int_equal(((ngcc_meta_fn)dlsym(h, "ngcc_meta"))()->pk_bytes, 24);
	dlclose(h);
	free(p);
}

/* ---- the library ---- */

static void test_exports_only_abi(void **state)
{
	(void)state;
	struct elf_facts f;
	char *err = NULL, *lib = lib_path(&fx->units[U_TOY1]);
	assert_int_equal(elf_read_facts(lib, &f, &err), 0);
	const char *want[] = { "ngcc_kem_dec", "ngcc_kem_enc", "ngcc_kem_keygen", "ngcc_meta", "ngcc_seed" };
	assert_int_equal(f.exports.n, 5);
	for (size_t i = 0; i < 5; i++)
		assert_string_equal(f.exports.items[i], want[i]);
	assert_true(sl_contains(&f.imports, "memcpy") || sl_contains(&f.imports, "memcmp"));
	assert_false(f.imports_allocator);
	elf_facts_free(&f);
	free(lib);
}

typedef int (*tag_fn)(void);

static void test_clashing_names_load_side_by_side(void **state)
{
	(void)state;
	char *p1 = lib_path(&fx->units[U_TOY1]), *p2 = lib_path(&fx->units[U_TOY2]);
	void *h1 = dlopen(p1, RTLD_NOW | RTLD_LOCAL), *h2 = dlopen(p2, RTLD_NOW | RTLD_LOCAL);
	assert_non_null(h1);
	assert_non_null(h2);
	assert_null(dlsym(h1, "toy_tag"));      /* internal: not exported */
	assert_null(dlsym(h1, "drng_algorithm"));
	unsigned char seed[48], pk[2][33], sk[33];
	for (int i = 0; i < 48; i++)
		seed[i] = (unsigned char)i;
	void *h[2] = { h1, h2 };
	for (int k = 0; k < 2; k++) {
		ngcc_seed_fn sd = (ngcc_seed_fn)dlsym(h[k], "ngcc_seed");
		ngcc_kem_keygen_fn kg = (ngcc_kem_keygen_fn)dlsym(h[k], "ngcc_kem_keygen");
		unsigned long long pl = 0, sl = 0;
		assert_int_equal(sd(seed, sizeof seed), 0);
		assert_int_equal(kg(pk[k], &pl, sk, &sl), 0);
		assert_int_equal(pl, 33);
		assert_int_equal(pk[k][0], k + 1); /* each library its own toy_tag() */
	}
	/* Same DRNG, same seed: the random part agrees. */
	assert_memory_equal(pk[0] + 1, pk[1] + 1, 32);
	ngcc_meta_fn m2 = (ngcc_meta_fn)dlsym(h2, "ngcc_meta");
	const struct ngcc_meta *m = m2();
	assert_int_equal(m->magic, NGCC_ABI_MAGIC);
	assert_int_equal(m->abi_version, NGCC_ABI_VERSION);
	assert_int_equal(m->type, NGCC_TYPE_KEM);
	assert_string_equal(m->id, "kem-toy");
	assert_string_equal(m->algorithm, "Toy");
	assert_string_equal(m->label, ODD_LABEL);
	assert_string_equal(m->instance, "TOY_2");
	assert_string_equal(m->variant, "reference");
	assert_string_equal(m->flags, "guide");
	assert_string_equal(m->runtime, "ngcc-perf");
	assert_string_equal(m->compiler, build_compiler_version());
	assert_int_equal(m->pk_bytes, 33);
	assert_int_equal(m->ct_bytes, 32);
	assert_int_equal(m->ss_bytes, 32);
	dlclose(h1);
	dlclose(h2);
	free(p1);
	free(p2);
}

static void test_seed_drives_output(void **state)
{
	(void)state;
	char *p = lib_path(&fx->units[U_TOY1]);
	void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
	assert_non_null(h);
	ngcc_seed_fn sd = (ngcc_seed_fn)dlsym(h, "ngcc_seed");
	ngcc_kem_keygen_fn kg = (ngcc_kem_keygen_fn)dlsym(h, "ngcc_kem_keygen");
	ngcc_kem_enc_fn enc = (ngcc_kem_enc_fn)dlsym(h, "ngcc_kem_enc");
	ngcc_kem_dec_fn dec = (ngcc_kem_dec_fn)dlsym(h, "ngcc_kem_dec");
	unsigned char a[33], b[33], c[33], sk[33], ct[32], ss1[32], ss2[32];
	unsigned long long l1, l2, l3, l4;
	assert_int_equal(sd((const unsigned char *)"seed-1", 6), 0);
	kg(a, &l1, sk, &l2);
	assert_int_equal(sd((const unsigned char *)"seed-1", 6), 0);
	kg(b, &l1, sk, &l2);
	assert_int_equal(sd((const unsigned char *)"seed-2", 6), 0);
	kg(c, &l1, sk, &l2);
	assert_memory_equal(a, b, 33);
	assert_memory_not_equal(a, c, 33);
	assert_int_equal(enc(c, 33, ss1, &l3, ct, &l4), 0);
	assert_int_equal(dec(sk, 33, ct, 32, ss2, &l3), 0);
	assert_memory_equal(ss1, ss2, 32);
	const struct ngcc_meta *(*meta)(void) = (ngcc_meta_fn)dlsym(h, "ngcc_meta");
	assert_string_equal(meta()->instance, "TOY_1");
	dlclose(h);
	free(p);
	/* the fallback build says so in its metadata */
	p = lib_path(&fx->units[U_GNU]);
	h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
	assert_non_null(h);
	meta = (ngcc_meta_fn)dlsym(h, "ngcc_meta");
	assert_string_equal(meta()->flags, "harness-default");
	assert_string_equal(meta()->instance, "");
	dlclose(h);
	free(p);
}

/* Σ MemSiz of the LOAD lines of `readelf -lW`, independently of libelf. */
static unsigned long long readelf_load_bytes(const char *lib)
{
	const char *args[] = { "readelf", "-lW", lib, NULL };
	char *out;
	unsigned long long total = 0;
	assert_int_equal(run_argv(args, &out), 0);
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		char type[32];
		unsigned long long off, va, pa, filesz, memsz;
		if (sscanf(line, " %31s %llx %llx %llx %llx %llx", type, &off, &va, &pa,
			   &filesz, &memsz) == 6 && !strcmp(type, "LOAD"))
			total += memsz;
	}
	free(out);
	return total;
}

static void test_elf_load_bytes(void **state)
{
	(void)state;
	for (int i = U_TOY1; i <= U_GNU; i++) {
		char *lib = lib_path(&fx->units[i]), *err = NULL;
		struct elf_facts f;
		assert_int_equal(elf_read_facts(lib, &f, &err), 0);
		assert_true(f.load_bytes > 0);
		assert_true(f.text > 0);
		assert_int_equal(f.load_bytes, readelf_load_bytes(lib));
		elf_facts_free(&f);
		free(lib);
	}
	char *err = NULL;
	struct elf_facts f;
	assert_int_equal(elf_read_facts("/nonexistent/lib.so", &f, &err), -1);
	assert_non_null(strstr(err, "/nonexistent/lib.so"));
	free(err);
}

/* ---- build.json ---- */

static void test_build_json_record(void **state)
{
	(void)state;
	char *err = NULL;
	json_t *doc = build_json_load(fx->ws, "kem-toy", &err);
	assert_non_null(doc);
	for (size_t i = 0; i < N_UNITS; i++)
		assert_int_equal(build_record_unit(doc, &fx->units[i], &err), 0);
	assert_int_equal(build_json_save(fx->ws, "kem-toy", doc), 0);
	json_decref(doc);

	doc = build_json_load(fx->ws, "kem-toy", &err);
	assert_non_null(doc);
	assert_int_equal(evidence_check_schema(doc, "build", 1), 0);
	json_t *t1 = build_json_entry(doc, "kem-toy/Toy-1");
	assert_non_null(t1);
	const char *order[] = { "candidate", "label", "instance", "variant", "flags", "kat",
				"guide_result", "kat_not_passed", "excluded", "kat_log",
				"kat_log_sha256", "library", "library_sha256", "elf_load_bytes",
				"elf_sections", "compile_commands", "link_command", "compiler",
				"compiler_command", "compiler_target", "lto", "imports_allocator", "primitive_scan" };
	void *it = json_object_iter(t1);
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++, it = json_object_iter_next(t1, it))
		assert_string_equal(json_object_iter_key(it), order[i]);
	assert_string_equal(jget_str(t1, "flags", ""), "guide");
	assert_true(json_is_null(json_object_get(t1, "kat")));
	assert_true(json_is_null(json_object_get(t1, "guide_result")));
	assert_string_equal(jget_str(t1, "library", ""), "build/kem-toy/libToy-1.so");
	assert_int_equal(strlen(jget_str(t1, "library_sha256", "")), 64);
	assert_true(jget_int(t1, "elf_load_bytes", 0) > 0);
	assert_true(jget_int(json_object_get(t1, "elf_sections"), "text", 0) > 0);
	assert_string_equal(jget_str(json_object_get(t1, "runtime"), "drng", ""), "ngcc-perf");
	json_t *link = json_object_get(t1, "link_command");
	assert_string_equal(json_string_value(json_array_get(link, 0)), "cc");

	json_t *gnu = build_json_entry(doc, "kem-toy/Toy-GNU");
	assert_string_equal(jget_str(gnu, "flags", ""), "harness-default");
	assert_string_equal(jget_str(gnu, "guide_result", ""), "BUILDFAIL");
	json_t *broken = build_json_entry(doc, "kem-toy/Toy-Broken");
	assert_string_equal(jget_str(broken, "kat", ""), "BUILDFAIL");
	assert_true(json_is_null(json_object_get(broken, "library")));
	assert_non_null(strstr(jget_str(broken, "build_error", ""), "kem_broken.c:2"));
	assert_true(jget_bool(build_json_entry(doc, "kem-toy/Toy-LTO"), "lto", 0));

	/* Evidence names our runtime <ngcc-perf>/…, never by its location. */
	char *text = evidence_dumps(doc);
	assert_null(strstr(text, ngcc_home()));
	assert_null(strstr(text, fx->ws));
	assert_non_null(strstr(text, "\"<ngcc-perf>/src/runtime/shim.c\""));
	assert_non_null(strstr(text, "-Wl,--version-script=<ngcc-perf>/src/runtime/exports.map"));
	free(text);

	/* KAT fields keep their place and survive an identical rebuild. */
	build_json_set_kat(t1, "PASS", 0, "build/kem-toy/kat/Toy-1.log", NULL);
	assert_int_equal(build_record_unit(doc, &fx->units[U_TOY1], &err), 0);
	assert_string_equal(jget_str(t1, "kat", ""), "PASS");
	it = json_object_iter(t1);
	for (size_t i = 0; i < 6; i++, it = json_object_iter_next(t1, it))
		assert_string_equal(json_object_iter_key(it), order[i]);
	json_decref(doc);
}

static void test_build_json_rejects_other_schema(void **state)
{
	(void)state;
	char *path = build_json_path(fx->ws, "other");
	char *dir = path_dirname(path);
	mkdir_p(dir, 0755);
	assert_int_equal(write_file(path, "{\"schema\": \"ngcc-perf/build/9\"}\n", 31), 0);
	char *err = NULL;
	assert_null(build_json_load(fx->ws, "other", &err));
	assert_non_null(strstr(err, "build.json"));
	free(err);
	free(dir);
	free(path);
}

/* ---- the KAT stage's rebuild ---- */

/* Same sources, same flags, same bytes: what keeps KAT results and resume
 * fingerprints (library SHA-256) valid across a repeated `build`. */
static void test_rebuild_is_reproducible(void **state)
{
	(void)state;
	char *lib = lib_path(&fx->units[U_TOY2]);
	char before[65], after[65];
	assert_int_equal(sha256_file_hex(lib, before), 0);
	struct build_outcome o;
	assert_int_equal(build_instance(fx->ws, &fx->conf, &fx->conf.inst[U_TOY2], PROFILE_GUIDE, &o), 0);
	assert_int_equal(sha256_file_hex(lib, after), 0);
	assert_string_equal(before, after);
	build_outcome_free(&o);
	free(lib);
}

static void test_build_instance_harness(void **state)
{
	(void)state;
	struct build_outcome o;
	int rc = build_instance(fx->ws, &fx->conf, &fx->conf.inst[U_TOY1],
				PROFILE_HARNESS_DEFAULT, &o);
	assert_int_equal(rc, 0);
	assert_true(o.ok);
	assert_int_equal(o.profile, PROFILE_HARNESS_DEFAULT);
	assert_string_equal(o.library, "build/kem-toy/libToy-1.so");
	json_t *first = json_array_get(o.compile_commands, 0);
	int saw_gnu11 = 0;
	for (size_t i = 0; i < json_array_size(first); i++)
		saw_gnu11 |= !strcmp(json_string_value(json_array_get(first, i)), "-std=gnu11");
	assert_true(saw_gnu11);
	char *p = path_join(fx->ws, o.library);
	void *h = dlopen(p, RTLD_NOW | RTLD_LOCAL);
	assert_non_null(h);
	assert_string_equal(((ngcc_meta_fn)dlsym(h, "ngcc_meta"))()->flags, "harness-default");
	dlclose(h);
	free(p);
	/* the log keeps the earlier attempt and appends this one */
	char *log = path_join(fx->ws, "build/kem-toy/Toy-1.build.log"), *text;
	size_t len;
	assert_int_equal(read_file(log, &text, &len), 0);
	assert_non_null(strstr(text, "with profile guide: ok"));
	assert_non_null(strstr(text, "with profile harness-default: ok"));
	free(text);
	free(log);
	build_outcome_free(&o);

	/* a failing rebuild leaves the old library alone */
	rc = build_instance(fx->ws, &fx->conf, &fx->conf.inst[U_BROKEN], PROFILE_HARNESS_DEFAULT, &o);
	assert_int_equal(rc, 1);
	assert_false(o.ok);
	assert_non_null(o.error);
	build_outcome_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_flags),
		cmocka_unit_test(test_stem),
		cmocka_unit_test(test_outcomes),
		cmocka_unit_test(test_fallback_to_harness_default),
		cmocka_unit_test(test_buildfail),
		cmocka_unit_test(test_lto_detected),
		cmocka_unit_test(test_candidate_defines_drng),
		cmocka_unit_test(test_cxx_source),
		cmocka_unit_test(test_exports_only_abi),
		cmocka_unit_test(test_clashing_names_load_side_by_side),
		cmocka_unit_test(test_seed_drives_output),
		cmocka_unit_test(test_elf_load_bytes),
		cmocka_unit_test(test_build_json_record),
		cmocka_unit_test(test_build_json_rejects_other_schema),
		cmocka_unit_test(test_rebuild_is_reproducible),
		cmocka_unit_test(test_build_instance_harness),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
