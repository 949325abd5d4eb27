/*
 * baseline.c — the ICCS baseline (docs/method.md §10.7; see baseline.h).
 *
 * The candidate `iccs` is generated, never added: candidates/iccs/source/
 * holds runtime/iccs_baseline.c (a CryptHash calling one auxiliary
 * function, picked by a define), the self-test references in selftest/,
 * and copies/<ID>/ with a package's own auxfunc.c (and the headers, SM3
 * sources and drng.c beside it) when it differs from our runtime's.  Our runtime's
 * instances link src/runtime/auxfunc.c like any public-key instance does
 * (build.c); a copy's instances compile the package's file instead.  The
 * self-test text comes from OpenSSL (selftest/iccs_openssl.c), so the
 * baseline's figures are of functions checked independently of our code.
 */
#include "campaign/baseline.h"

#include "build/batch.h"
#include "kat/gate.h"
#include "method/baseline.h"
#include "package/conf.h"
#include "selftest/iccs_openssl.h"
#include "util/fsutil.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A package's own auxfunc.c that differs from ours: the first candidate
 * (in id order) that ships it names it. */
struct aux_copy {
	char *cand;
	char *dir;          /* folder of its auxfunc.c, absolute */
	char *header_dir;   /* folder of its auxfunc.h when elsewhere, or NULL */
	char sha[65];
};

struct plan_set {
	int widths[64];     /* pseudoXOF widths, ascending */
	int n_widths;
	struct aux_copy *copies;
	size_t n_copies;
};

static void add_width(struct plan_set *ps, int bits)
{
	int i = 0;
	while (i < ps->n_widths && ps->widths[i] < bits)
		i++;
	if ((i < ps->n_widths && ps->widths[i] == bits) ||
	    ps->n_widths == (int)(sizeof ps->widths / sizeof ps->widths[0]))
		return;
	memmove(&ps->widths[i + 1], &ps->widths[i], (size_t)(ps->n_widths - i) * sizeof(int));
	ps->widths[i] = bits;
	ps->n_widths++;
}

static char *ours_path(const char *file)
{
	return path_joinf(ngcc_home(), "src/runtime/%s", file);
}

/* The instance's own auxfunc.c (absolute), or NULL. */
static char *own_auxfunc_path(const char *ws, const char *id, const struct instance_conf *ic)
{
	for (size_t i = 0; i < ic->sources.n; i++)
		if (!strcasecmp(path_basename(ic->sources.items[i]), "auxfunc.c"))
			return path_joinf(ws, "candidates/%s/source/%s/%s", id, ic->source_dir,
					  ic->sources.items[i]);
	return NULL;
}

/* An include folder of the instance holding auxfunc.h, or NULL. */
static char *own_header_dir(const char *ws, const char *id, const struct instance_conf *ic)
{
	for (size_t i = 0; i < ic->include_dirs.n; i++) {
		char *dir = path_joinf(ws, "candidates/%s/source/%s/%s", id, ic->source_dir,
				       ic->include_dirs.items[i]);
		char *h = path_join(dir, "auxfunc.h");
		int found = path_is_file(h);
		free(h);
		if (found)
			return dir;
		free(dir);
	}
	return NULL;
}

static void consider_copy(struct plan_set *ps, const char *ws, const char *id,
			  const struct instance_conf *ic, const char *ours_sha)
{
	char *path = own_auxfunc_path(ws, id, ic);
	char sha[65];
	if (!path || sha256_file_hex(path, sha) || !strcmp(sha, ours_sha)) {
		free(path);
		return;
	}
	for (size_t i = 0; i < ps->n_copies; i++)
		if (!strcmp(ps->copies[i].sha, sha)) {
			free(path);
			return;
		}
	ps->copies = xrealloc(ps->copies, (ps->n_copies + 1) * sizeof *ps->copies);
	struct aux_copy *c = &ps->copies[ps->n_copies++];
	memset(c, 0, sizeof *c);
	c->cand = xstrdup(id);
	c->dir = path_dirname(path);
	c->header_dir = own_header_dir(ws, id, ic);
	if (c->header_dir && !strcmp(c->header_dir, c->dir)) {
		free(c->header_dir);
		c->header_dir = NULL;
	}
	memcpy(c->sha, sha, sizeof sha);
	free(path);
}

/* Widths and copies from every candidate of the workspace but `iccs`. */
static int survey_workspace(const char *ws, struct plan_set *ps)
{
	char *dir = path_join(ws, "candidates"), *ours = ours_path("auxfunc.c");
	struct strlist ids = STRLIST_INIT;
	char ours_sha[65];
	int rc = 0;
	if (sha256_file_hex(ours, ours_sha)) {
		ngcc_error("cannot read our runtime's %s: %s", ours, strerror(errno));
		rc = -1;
	}
	dir_list_having(dir, "candidate.conf", &ids);
	add_width(ps, BASELINE_XOF_DEFAULT_BITS);
	for (size_t i = 0; i < ids.n && !rc; i++) {
		if (!strcmp(ids.items[i], BASELINE_ID))
			continue;
		char *p = path_joinf(ws, "candidates/%s/candidate.conf", ids.items[i]), *err = NULL;
		struct candidate_conf c;
		if (conf_read(p, &c, &err) == 0) {
			for (size_t k = 0; k < c.n_inst; k++) {
				const struct instance_conf *ic = &c.inst[k];
				if (!ic->enabled)
					continue;
				if (!strcmp(ic->type, "hash") && ic->digest_bits)
					add_width(ps, ic->digest_bits);
				else if (ic->own_auxfunc)
					consider_copy(ps, ws, ids.items[i], ic, ours_sha);
			}
			conf_free(&c);
		} else {
			ngcc_warning("%s (left out of the baseline)", err);
		}
		free(err);
		free(p);
	}
	sl_free(&ids);
	free(ours);
	free(dir);
	return rc;
}

/* ---- writing candidates/iccs/ -------------------------------------------- */

static int copy_into(const char *src, const char *dest_dir)
{
	char *dest = path_join(dest_dir, path_basename(src));
	int rc = copy_file(src, dest);
	if (rc)
		ngcc_error("cannot copy %s to %s: %s", src, dest, strerror(errno));
	free(dest);
	return rc;
}

/* What a copy of auxfunc.c may need from its folder: headers, SM3, and
 * the package's DRNG (whose SM3 may be the same file; with it, none of our
 * runtime is linked, so no name can clash). */
static int wanted_beside_auxfunc(const char *name)
{
	return str_ends_with_ci(name, ".h") || !strcasecmp(name, "auxfunc.c") ||
	       !strcasecmp(name, "drng.c") ||
	       (str_ends_with_ci(name, ".c") && strcasestr(name, "sm3"));
}

static int copy_package_files(const struct aux_copy *c, const char *dest)
{
	struct strlist names = STRLIST_INIT;
	int rc = dir_list(c->dir, DIR_PICK_FILES, &names);
	for (size_t i = 0; i < names.n && !rc; i++) {
		char *src = path_join(c->dir, names.items[i]);
		if (wanted_beside_auxfunc(names.items[i]))
			rc = copy_into(src, dest);
		free(src);
	}
	if (!rc && c->header_dir) {
		char *h = path_join(c->header_dir, "auxfunc.h");
		rc = copy_into(h, dest);
		free(h);
	}
	sl_free(&names);
	return rc;
}

/* The SM3 sources a copy compiles beside its auxfunc.c. */
static void copy_sources(const char *dest, struct strlist *sources)
{
	struct strlist names = STRLIST_INIT;
	dir_list(dest, DIR_PICK_FILES, &names);
	for (size_t i = 0; i < names.n; i++)
		if (str_ends_with_ci(names.items[i], ".c") &&
		    strcmp(names.items[i], "iccs_baseline.c"))
			sl_push(sources, names.items[i]);
	sl_free(&names);
}

static const char *fn_define(enum iccs_fn fn)
{
	static const char *const d[ICCS_NFN] = { "NGCC_BASELINE_SM3HASH", "NGCC_BASELINE_PSEUDOHASH",
						 "NGCC_BASELINE_PSEUDOXOF" };
	return d[fn];
}

/* Write selftest/<label>.txt; its path relative to source/, or NULL when
 * OpenSSL cannot compute it. */
static char *write_selftest(const char *src_root, const char *label, enum iccs_fn fn, int bits,
			    int *rc)
{
	struct strbuf text = STRBUF_INIT;
	char *rel = NULL;
	if (iccs_openssl_selftest_text(fn, bits, &text) == 0) {
		rel = xasprintf("selftest/%s.txt", label);
		char *abs = path_join(src_root, rel);
		if (write_file(abs, text.buf, text.len)) {
			ngcc_error("cannot write %s: %s", abs, strerror(errno));
			*rc = -1;
		}
		free(abs);
	}
	sb_free(&text);
	return rel;
}

/* One instance: fn at bits, ours (copy NULL) or a package's copy. */
static int add_instance(struct candidate_conf *conf, const char *src_root,
			enum iccs_fn fn, int bits, const struct aux_copy *copy,
			const struct strlist *copy_sources_list)
{
	char *label = baseline_label(fn, bits, copy ? copy->cand : NULL);
	struct instance_conf *ic = conf_add_instance(conf, label);
	int rc = 0;
	ic->type = xstrdup("hash");
	ic->variant = xstrdup(BASELINE_VARIANT);
	ic->instance = xstrdup(label);
	ic->digest_bits = bits;
	sl_push(&ic->defines, fn_define(fn));
	sl_push(&ic->include_dirs, ".");
	if (copy) {
		ic->source_dir = xasprintf("copies/%s", copy->cand);
		sl_push(&ic->sources, "iccs_baseline.c");
		for (size_t i = 0; i < copy_sources_list->n; i++) {
			sl_push(&ic->sources, copy_sources_list->items[i]);
			if (!strcasecmp(copy_sources_list->items[i], "drng.c"))
				ic->own_drng = 1;
		}
		ic->own_auxfunc = 1;
	} else {
		ic->source_dir = xstrdup(".");
		sl_push(&ic->sources, "iccs_baseline.c");
	}
	ic->kat_reference = write_selftest(src_root, label, fn, bits, &rc);
	printf("BASELINE %s %s%s\n", label, copy ? "copy of auxfunc.c in " : "ngcc-perf runtime",
	       copy ? copy->cand : "");
	free(label);
	return rc;
}

static int add_set(struct candidate_conf *conf, const char *src_root, const struct plan_set *ps,
		   const struct aux_copy *copy, const struct strlist *sources)
{
	int rc = 0;
	for (int i = 0; i < n_baseline_fixed && !rc; i++)
		rc = add_instance(conf, src_root, baseline_fixed[i].fn, baseline_fixed[i].bits,
				  copy, sources);
	for (int i = 0; i < ps->n_widths && !rc; i++)
		rc = add_instance(conf, src_root, ICCS_PSEUDOXOF, ps->widths[i], copy, sources);
	return rc;
}

static const char readme[] =
	"ICCS baseline (generated by `ngcc-perf baseline`; do not edit)\n"
	"\n"
	"Each instance is a CryptHash that calls one ICCS auxiliary function\n"
	"(sm3hash, pseudohash, pseudoXOF) at one output width: iccs_baseline.c\n"
	"with NGCC_BASELINE_<FUNCTION> defined.  Instances named <function>-<bits>\n"
	"use ngcc-perf's runtime; <function>-<bits>.<ID> use the auxfunc.c that\n"
	"candidate <ID> ships (copies/<ID>/), where it differs from ours.\n"
	"selftest/<label>.txt is the self-test reference, computed with OpenSSL's\n"
	"SM3 and HMAC: hashes of byte[i] = (131 i + L) mod 256 for L = 0..200\n"
	"bytes and longer messages up to 1 MiB.\n";

static int write_package(const char *ws, const struct plan_set *ps)
{
	char *cand_dir = path_joinf(ws, "candidates/%s", BASELINE_ID);
	char *src_root = path_join(cand_dir, "source");
	char *selftest = path_join(src_root, "selftest");
	char *wrapper = ours_path("iccs_baseline.c");
	char *readme_path = path_join(src_root, "README.txt");
	struct candidate_conf conf;
	int rc = 0;
	memset(&conf, 0, sizeof conf);
	if (rm_rf(src_root) || mkdir_p(selftest, 0755) || copy_into(wrapper, src_root) ||
	    write_file(readme_path, readme, sizeof readme - 1)) {
		ngcc_error("cannot write the baseline package in %s: %s", src_root, strerror(errno));
		rc = -1;
	}
	conf.id = xstrdup(BASELINE_ID);
	conf.algorithm = xstrdup("ICCS auxiliary functions");
	conf.type = xstrdup("hash");
	conf.package = xstrdup("generated by ngcc-perf baseline");
	struct strlist none = STRLIST_INIT;
	if (!rc)
		rc = add_set(&conf, src_root, ps, NULL, &none);
	for (size_t i = 0; i < ps->n_copies && !rc; i++) {
		const struct aux_copy *c = &ps->copies[i];
		char *dest = path_joinf(src_root, "copies/%s", c->cand);
		struct strlist sources = STRLIST_INIT;
		rc = mkdir_p(dest, 0755) || copy_into(wrapper, dest) || copy_package_files(c, dest);
		copy_sources(dest, &sources);
		if (!rc)
			rc = add_set(&conf, src_root, ps, c, &sources);
		sl_free(&sources);
		free(dest);
	}
	char *conf_path = path_join(cand_dir, "candidate.conf");
	if (!rc && conf_write(conf_path, &conf)) {
		ngcc_error("cannot write %s: %s", conf_path, strerror(errno));
		rc = -1;
	}
	free(conf_path);
	conf_free(&conf);
	free(readme_path);
	free(wrapper);
	free(selftest);
	free(src_root);
	free(cand_dir);
	return rc;
}

int baseline_generate(const char *workspace)
{
	struct plan_set ps;
	memset(&ps, 0, sizeof ps);
	char *wrapper = ours_path("iccs_baseline.c");
	int rc = EXIT_OK;
	if (!path_is_file(wrapper)) {
		ngcc_error("our runtime source %s is missing; run `make install` again, or set "
			   "NGCC_PERF_HOME to the folder holding src/runtime", wrapper);
		rc = EXIT_SYSTEM;
	} else if (survey_workspace(workspace, &ps) || write_package(workspace, &ps)) {
		rc = EXIT_SYSTEM;
	}
	if (rc == EXIT_OK && !iccs_openssl_available())
		ngcc_warning("this OpenSSL has no SM3: the baseline cannot be self-tested "
			     "(its instances will be NOKAT)");
	for (size_t i = 0; i < ps.n_copies; i++) {
		free(ps.copies[i].cand);
		free(ps.copies[i].dir);
		free(ps.copies[i].header_dir);
	}
	free(ps.copies);
	free(wrapper);
	return rc;
}

int baseline_command(struct engine_opts *o, int memory_pass)
{
	int cpu = o->cpu >= 0 ? o->cpu : host_default_cpu();
	struct strlist problems = STRLIST_INIT;
	host_check(cpu, &problems, NULL);
	int rc = host_gate("baseline", cpu, &problems, &o->ovr);
	sl_free(&problems);
	if (rc != EXIT_OK)
		return rc;
	rc = baseline_generate(o->workspace);
	if (rc != EXIT_OK)
		return rc;
	struct build_request br = { .workspace = o->workspace, .ids = STRLIST_INIT, .tty = o->tty };
	sl_push(&br.ids, BASELINE_ID);
	int brc = build_candidates(&br);
	struct kat_gate_opts k;
	kat_gate_opts_init(&k, o->workspace, o->tty);
	int krc = brc > EXIT_FAILED ? brc : kat_gate(&k, &br.ids);
	kat_gate_opts_free(&k);
	sl_free(&br.ids);
	if (krc > EXIT_FAILED)
		return krc;
	sl_free(&o->ids);
	sl_push(&o->ids, BASELINE_ID);
	rc = measure_command(o, memory_pass);
	if (brc > rc)
		rc = brc;
	return krc > rc ? krc : rc;
}
