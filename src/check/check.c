/* check.c — see check.h: the instances, resume, the twins, the lines. */
#include "check/check.h"

#include "build/build.h"
#include "build/select.h"
#include "build/twin.h"
#include "campaign/progress.h"
#include "check/run.h"
#include "evidence/build_json.h"
#include "evidence/check_json.h"
#include "evidence/json.h"
#include "evidence/unitfile.h"
#include "host/cpufeat.h"
#include "host/hostcheck.h"
#include "method/types.h"
#include "package/conf.h"
#include "util/fsutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PRINTED_FINDINGS 5

void check_opts_init(struct check_opts *o, const char *workspace, int tty)
{
	memset(o, 0, sizeof *o);
	o->workspace = workspace;
	o->rounds = CHECK_DEFAULT_ROUNDS;
	o->timeout_s = CHECK_DEFAULT_TIMEOUT_S;
	o->jobs = 2;
	o->tty = tty;
}

void check_opts_free(struct check_opts *o)
{
	sl_free(&o->ids);
}

struct totals {
	int clean, found, incomplete, skipped, kept, unbuilt, uncovered, unsupported;
	int worst;
	struct progress progress;
	int k;
};

static void note_exit(struct totals *t, int code)
{
	if (code > t->worst)
		t->worst = code;
}

static int wanted(const struct check_opts *o, enum check_id id)
{
	return !o->only || (o->only & (1 << id));
}

/* The check program has suites for the type (method/types.c). */
static int type_checked(const char *type)
{
	const struct cand_type *t = cand_type_find(type);
	return t && t->checked;
}

/* ---- resume --------------------------------------------------------------- */

/* What a check record is made from (its fingerprint): the exercised
 * library, the rounds and the suppressions file. */
struct check_inputs {
	const char *lib_sha, *supp_sha;   /* supp_sha NULL: none */
	long rounds;
};

static int check_match(const json_t *rec, const void *vctx, char **why)
{
	const struct check_inputs *in = vctx;
	const json_t *s = json_object_get(rec, "suppressions");
	const char *had = json_is_object(s) ? jget_str(s, "sha256", "") : NULL;
	if (strcmp(jget_str(rec, "library_sha256", ""), in->lib_sha ? in->lib_sha : ""))
		*why = xstrdup("the library changed");
	else if (jget_int(json_object_get(rec, "plan"), "rounds", -1) != in->rounds)
		*why = xstrdup("another number of rounds");
	else if (had ? !in->supp_sha || strcmp(had, in->supp_sha) : in->supp_sha != NULL)
		*why = xstrdup("the suppressions file changed");
	else
		return 1;
	return 0;
}

static const struct unit_format check_format = { CHECK_KIND, CHECK_VERSION, "check record",
						   check_match, check_record_check };

/* The record at path when it is complete and of the current inputs
 * (evidence/unitfile.h); anything else is run again. */
static json_t *current_record(const char *path, const struct check_inputs *in)
{
	json_t *doc = NULL;
	char *why = NULL;
	enum unit_state st = unit_file_classify(path, &check_format, in, &doc, &why);
	free(why);
	if (st == UNIT_DONE)
		return doc;
	json_decref(doc);
	return NULL;
}

/* ---- printing --------------------------------------------------------------- */

static void print_finding(const json_t *f)
{
	const json_t *loc = json_object_get(f, "location");
	printf("  %s: %s", jget_str(f, "operation", "?"), jget_str(f, "kind", "?"));
	if (json_is_object(loc) && jget_str(loc, "file", NULL))
		printf(" at %s:%lld in %s", jget_str(loc, "file", "?"), jget_int(loc, "line", 0),
		       jget_str(loc, "function", "?"));
	if (json_is_integer(json_object_get(f, "round")))
		printf(" [round %lld]", jget_int(f, "round", 0));
	printf(" — %s\n", jget_str(f, "what", ""));
}

static void print_record(const struct check_target *t, const json_t *rec, int kept)
{
	const char *check = jget_str(rec, "check", "?");
	const char *status = jget_str(rec, "status", "?");
	const json_t *findings = json_object_get(rec, "findings");
	size_t n = json_array_size(findings);
	printf("CHECK %s %s %s ", t->cand, t->stem, check);
	if (strcmp(status, "complete"))
		printf("%s: %s", status, jget_str(rec, "status_detail", ""));
	else if (!n)
		printf("clean");
	else
		printf("%zu finding(s)", n);
	struct strbuf sb = STRBUF_INIT;
	if (!strcmp(status, "complete") && json_is_integer(json_object_get(rec, "rounds_done")))
		sb_addf(&sb, "%lld round(s), ", jget_int(rec, "rounds_done", 0));
	long long hidden = 0;
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(rec, "suppressed"), i, e)
		hidden += jget_int(e, "count", 0);
	if (hidden)
		sb_addf(&sb, "%lld reviewed occurrence(s) suppressed, ", hidden);
	sb_addf(&sb, "%.1f s%s", jget_real(rec, "wall_s", 0), kept ? ", kept from an earlier run" : "");
	printf(" (%s)\n", sb.buf);
	sb_free(&sb);
	for (size_t i = 0; i < n && i < MAX_PRINTED_FINDINGS; i++)
		print_finding(json_array_get(findings, i));
	if (n > MAX_PRINTED_FINDINGS)
		printf("  … %zu more in %s\n", n - MAX_PRINTED_FINDINGS, "the record");
	fflush(stdout);
}

static void count(struct totals *tot, const json_t *rec, int kept)
{
	const char *v = jget_str(rec, "verdict", NULL);
	if (kept)
		tot->kept++;
	if (!strcmp(jget_str(rec, "status", ""), "skipped")) {
		tot->skipped++; /* said on its line; not a failure */
		return;
	}
	if (v && !strcmp(v, "clean"))
		tot->clean++;
	else if (v)
		tot->found++;
	else
		tot->incomplete++;
	if (!v || strcmp(v, "clean"))
		note_exit(tot, EXIT_FAILED);
}

/* ---- one instance ------------------------------------------------------------ */

static int need_twins(const struct check_opts *o)
{
	if (o->emulated)
		return 0;
	return wanted(o, CHECK_SANITIZERS) || wanted(o, CHECK_MEMCHECK) || wanted(o, CHECK_CONSTTIME);
}

static void run_or_keep(const struct check_opts *o, const struct check_target *t, enum check_id id,
			struct totals *tot)
{
	char *rel = check_record_path(t->cand, t->stem, check_names[id]);
	char *path = path_join(o->workspace, rel);
	const char *sha = NULL, *why = NULL;
	check_library(t, id, &sha, &why);
	struct check_inputs in = { sha, check_uses_suppressions(id) && t->supp ? t->supp_sha : NULL,
				   check_rounds(o, id) };
	json_t *old = o->redo ? NULL : current_record(path, &in);
	tot->k++;
	progress_unit(&tot->progress, tot->k, t->cand, t->stem, check_names[id]);
	if (old) {
		progress_clear(&tot->progress);
		print_record(t, old, 1);
		count(tot, old, 1);
	} else {
		json_t *rec = check_run(t, id, o);
		progress_clear(&tot->progress);
		if (evidence_write(path, rec)) {
			ngcc_error("cannot write %s: %s", path, strerror(errno));
			note_exit(tot, EXIT_SYSTEM);
		} else {
			print_record(t, rec, 0);
			count(tot, rec, 0);
		}
		json_decref(rec);
	}
	progress_done(&tot->progress, 0);
	json_decref(old);
	free(path);
	free(rel);
}

static void suppressions_of(const struct check_opts *o, struct check_target *t, char **supp)
{
	*supp = xasprintf("candidates/%s/%s", t->cand, CHECK_SUPPRESSIONS);
	char *abs = path_join(o->workspace, *supp);
	if (path_is_file(abs) && !sha256_file_hex(abs, t->supp_sha))
		t->supp = *supp;
	free(abs);
}

static void check_instance(const struct check_opts *o, const char *cand, const char *type,
			   const struct instance_conf *ic, json_t *entry, struct totals *tot)
{
	struct check_target t;
	struct twin_set twins;
	char *stem = build_stem(ic), *supp = NULL;
	memset(&t, 0, sizeof t);
	memset(&twins, 0, sizeof twins);
	t.workspace = o->workspace;
	t.cand = cand;
	t.label = ic->label;
	t.stem = stem;
	t.instance = ic->instance;
	t.type = ic->type ? ic->type : type;
	t.variant = ic->variant;
	/* valgrind decodes no AVX-512 instruction: memcheck and consttime
	 * would only report its SIGILL */
	if (conf_cpu_ext(ic) == CPU_EXT_AVX512)
		t.no_valgrind = "valgrind cannot run AVX-512 code (the sanitizer and functional "
				"checks still run)";
	t.timed_library = jget_str(entry, "library", NULL);
	t.compiler = jget_str(entry, "compiler", NULL);
	char *timed = t.timed_library ? path_join(o->workspace, t.timed_library) : NULL;
	char *refused = host_cpu_refusal(host_cpu(), conf_cpu_ext(ic));
	if (refused) {
		/* never load code this CPU cannot run: no SIGILL, a status */
		printf("CHECK %s %s UNSUPPORTED_CPU: %s\n", cand, stem, refused);
		tot->unsupported++;
		free(refused);
	} else if (!timed || sha256_file_hex(timed, t.timed_sha)) {
		printf("CHECK %s %s skipped: not built (run `ngcc-perf build %s`)\n", cand, stem, cand);
		tot->unbuilt++;
	} else if (!type_checked(t.type)) {
		printf("CHECK %s %s not checked: check has no suites for %s instances yet "
		       "(it covers %s)\n", cand, stem, t.type ? t.type : "unknown",
		       cand_types_checked());
		tot->uncovered++;
	} else {
		suppressions_of(o, &t, &supp);
		if (need_twins(o)) {
			if (twin_build(o->workspace, entry, o->jobs, &twins) < 0)
				ngcc_warning("%s %s: the check builds failed: %s", cand, stem,
					     twins.t[0].error ? twins.t[0].error : "unknown error");
			t.twins = &twins;
		}
		for (int id = 0; id < CHECK_N; id++)
			if (wanted(o, (enum check_id)id))
				run_or_keep(o, &t, (enum check_id)id, tot);
	}
	twin_set_free(&twins);
	free(timed);
	free(supp);
	free(stem);
}

static void check_candidate(const struct check_opts *o, const struct selection *sel,
			    const char *id, const struct stage_conf *sc, struct totals *tot)
{
	char *conf_path = xasprintf("%s/candidates/%s/candidate.conf", o->workspace, id);
	const struct candidate_conf *conf = &sc->conf;
	char *err = NULL;
	json_t *doc = NULL;
	if (!path_is_file(conf_path)) {
		ngcc_error("%s: no such candidate in %s (no %s); add it with `ngcc-perf add PACKAGE "
			   "--id %s`", id, o->workspace, conf_path, id);
		note_exit(tot, EXIT_INPUT);
	} else if (!sc->ok) {
		ngcc_error("%s (fix the file, or re-add the candidate)", sc->err);
		note_exit(tot, EXIT_INPUT);
	} else if (!(doc = build_json_load(o->workspace, id, &err))) {
		ngcc_error("%s", err);
		note_exit(tot, EXIT_INPUT);
	} else {
		for (size_t i = 0; i < conf->n_inst; i++) {
			const struct instance_conf *ic = &conf->inst[i];
			if (!selection_has_instance(sel, id, ic->label))
				continue;
			if (!ic->enabled) {
				fprintf(stderr, "check: %s %s skipped (enabled = no in "
					"candidates/%s/candidate.conf)\n", id, ic->label, id);
				continue;
			}
			char *stem = build_stem(ic), *key = build_json_key(id, stem);
			check_instance(o, id, conf->type, ic, build_json_entry(doc, key), tot);
			free(stem);
			free(key);
		}
	}
	json_decref(doc);
	free(err);
	free(conf_path);
}

static int count_units(const struct check_opts *o, const struct selection *sel,
		       const struct strlist *ids, const struct stage_conf *confs)
{
	int n = 0, per = 0;
	for (int id = 0; id < CHECK_N; id++)
		per += wanted(o, (enum check_id)id);
	for (size_t i = 0; i < ids->n; i++) {
		const struct candidate_conf *c = &confs[i].conf;
		for (size_t k = 0; confs[i].ok && k < c->n_inst; k++)
			n += (c->inst[k].enabled &&
			      selection_has_instance(sel, ids->items[i], c->inst[k].label) &&
			      type_checked(c->inst[k].type ? c->inst[k].type : c->type)) * per;
	}
	return n;
}

static int check_all(const struct check_opts *o);

int check_phase(const struct check_opts *given)
{
	struct check_opts o = *given;
	o.emulated = host_emulation(NULL, NULL);
	if (o.emulated)
		fprintf(stderr, "check: user-mode emulation (%s): the sanitizer, memcheck and "
			"constant-time checks are recorded as skipped\n", o.emulated);
	int rc = check_all(&o);
	free(o.emulated);
	return rc;
}

static int check_all(const struct check_opts *o)
{
	struct strlist ids = STRLIST_INIT;
	struct selection sel;
	int rc = selection_from_ids(&sel, &o->ids, o->workspace, &ids);
	if (rc) {
		selection_free(&sel);
		return rc;
	}
	char *dir = path_join(o->workspace, "candidates");
	if (!ids.n && dir_list_having(dir, "candidate.conf", &ids)) {
		ngcc_error("no candidates in workspace %s (%s: %s); add one with `ngcc-perf add PACKAGE`",
			   o->workspace, dir, strerror(errno));
		free(dir);
		sl_free(&ids);
		selection_free(&sel);
		return EXIT_INPUT;
	}
	free(dir);
	struct totals tot;
	memset(&tot, 0, sizeof tot);
	struct stage_conf *confs = stage_confs_read(o->workspace, &ids);
	progress_init(&tot.progress, o->tty, "check", count_units(o, &sel, &ids, confs), 0);
	for (size_t i = 0; i < ids.n; i++)
		check_candidate(o, &sel, ids.items[i], &confs[i], &tot);
	progress_clear(&tot.progress);
	stage_confs_free(confs, ids.n);
	sl_free(&ids);
	selection_free(&sel);
	int records = tot.clean + tot.found + tot.incomplete + tot.skipped;
	fprintf(stderr, "check: %d record(s): %d clean, %d with findings, %d not complete "
		"(%d kept from earlier runs); %d instance(s) skipped (not built), %d not checked "
		"(no suites for their type)", records, tot.clean, tot.found, tot.incomplete,
		tot.kept, tot.unbuilt, tot.uncovered);
	if (tot.skipped)
		fprintf(stderr, "; %d check(s) skipped (under emulation, or valgrind and AVX-512 "
			"code)", tot.skipped);
	if (tot.unsupported)
		fprintf(stderr, "; %d instance(s) not run: UNSUPPORTED_CPU", tot.unsupported);
	fputc('\n', stderr);
	if (tot.worst > EXIT_FAILED)
		return tot.worst;
	if (!records && o->none_is_ok) {
		fprintf(stderr, "check: no built instance of a type that check covers (%s); "
			"nothing was checked\n", cand_types_checked());
	} else if (!records) {
		ngcc_error("nothing was checked in %s: no built instance of a type that check "
			   "covers (%s)", o->workspace, cand_types_checked());
		return EXIT_INPUT;
	}
	return tot.worst;
}
