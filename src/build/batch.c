/*
 * batch.c — `build` (docs/method.md §2.1, §11.4): read every named candidate's
 * candidate.conf first (a bad one stops everything before any compiler
 * runs), then build all enabled instances of all candidates in one pool of
 * compiler processes, print one line per instance in the conf's order and
 * record the results in each build/<ID>/build.json.
 */
#include "build/batch.h"
#include "build/select.h"

#include "build/build.h"
#include "evidence/build_json.h"
#include "host/cpufeat.h"
#include "method/toolchain.h"
#include "package/patch.h"
#include "util/fsutil.h"
#include "util/untrusted.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct candidate {
	char *id;
	struct candidate_conf conf;
	struct strlist other_arch;     /* labels not compiled: another architecture's code */
	struct strlist other_arch_why;
};

struct printer {
	struct build_unit *units;
	size_t n, next_to_print, done;
	int tty;
	int failed;
};

static int list_candidates(const char *workspace, struct strlist *ids)
{
	/* no candidates folder: nothing added yet, an empty list */
	char *dir = path_join(workspace, "candidates");
	dir_list_having(dir, "candidate.conf", ids);
	free(dir);
	return 0;
}

static int load_candidate(const char *workspace, const char *id, struct candidate *cand)
{
	char *rel = xasprintf("candidates/%s/candidate.conf", id);
	char *path = path_join(workspace, rel);
	char *err = NULL;
	int rc = EXIT_OK;

	memset(cand, 0, sizeof *cand);
	cand->id = xstrdup(id);
	if (strchr(id, '/') || !path_is_file(path)) {
		ngcc_error("%s: no such candidate.conf; add the candidate first with "
			   "'ngcc-perf add PACKAGE --id %s'", path, id);
		rc = EXIT_INPUT;
	} else if (conf_read(path, &cand->conf, &err)) {
		ngcc_error("%s; fix candidate.conf and run 'ngcc-perf build %s' again", err, id);
		rc = EXIT_INPUT;
	} else if (strcmp(cand->conf.id, id)) {
		ngcc_error("%s: id = %s, but the candidate's folder is candidates/%s; "
			   "make them agree", path, cand->conf.id, id);
		rc = EXIT_INPUT;
	} else if (patch_verify(workspace, &cand->conf, &err)) {
		/* the record must name exactly the patch the source carries */
		ngcc_error("%s", err);
		rc = EXIT_INPUT;
	} else {
		/* checked before any compiler runs: results that cannot be
		 * recorded must not be announced as built */
		json_t *doc = build_json_load(workspace, id, &err);
		if (!doc) {
			ngcc_error("%s", err);
			rc = EXIT_INPUT;
		}
		json_decref(doc);
	}
	free(err);
	free(path);
	free(rel);
	return rc;
}

static void clear_progress(const struct printer *pr)
{
	if (pr->tty)
		fputs("\r\033[K", stderr);
}

static void print_unit(struct printer *pr, struct build_unit *u)
{
	const struct build_outcome *o = build_unit_final(u);
	char *stem = build_stem(u->ic);
	if (o->ok && u->n_attempts == 1)
		printf("BUILD %s %s ok (%s) %s\n", u->c->id, stem,
		       build_profile_name(o->profile), o->library);
	else if (o->ok)
		printf("BUILD %s %s ok (%s; %s failed: %s) %s\n", u->c->id, stem,
		       build_profile_name(o->profile),
		       build_profile_name(u->attempt[0].profile),
		       u->attempt[0].error ? u->attempt[0].error : "?", o->library);
	else {
		/* compiler output quotes the candidate's source lines */
		char *err = str_printable(o->error ? o->error : "?", 300);
		char *tail = str_printable_lines(o->error_tail && *o->error_tail ? o->error_tail
						 : o->error ? o->error : "", 300);
		printf("BUILD %s %s BUILDFAIL: %s\n", u->c->id, stem, err);
		fflush(stdout);
		ngcc_error("%s %s does not build (flags tried: %s%s%s); "
			   "last compiler output:\n%s\n"
			   "full log: build/%s/%s.build.log; check the instance's source, include, "
			   "cflag and lib lines in candidates/%s/candidate.conf, or set enabled = no",
			   u->c->id, stem, build_profile_name(u->attempt[0].profile),
			   u->n_attempts > 1 ? ", " : "",
			   u->n_attempts > 1 ? build_profile_name(u->attempt[1].profile) : "",
			   tail, u->c->id, stem, u->c->id);
		free(err);
		free(tail);
		pr->failed = 1;
	}
	fflush(stdout);
	free(stem);
}

/* Print finished units in the conf's order, as soon as their turn comes. */
static void on_unit_done(struct build_unit *u, void *arg)
{
	struct printer *pr = arg;
	(void)u;
	pr->done++;
	clear_progress(pr);
	while (pr->next_to_print < pr->n && pr->units[pr->next_to_print].done)
		print_unit(pr, &pr->units[pr->next_to_print++]);
	if (pr->tty && pr->done < pr->n)
		fprintf(stderr, "building: %zu/%zu instances done", pr->done, pr->n);
}

/* Entries of labels candidate.conf no longer has (an instance withdrawn
 * by a newer package version, or removed by hand) leave build.json: the
 * pages would show them as this candidate's.  The older version keeps its
 * copy (package/versions.h). */
static void drop_gone_instances(json_t *doc, const struct candidate *cand)
{
	json_t *inst = json_object_get(doc, "instances"), *e, *tmp;
	const char *key;
	json_object_foreach_safe(inst, tmp, key, e) {
		const char *label = json_string_value(json_object_get(e, "label"));
		if (label && !conf_find_instance((struct candidate_conf *)&cand->conf, label))
			json_object_del(inst, key);
	}
}

static int record_candidate(const char *workspace, const struct candidate *cand,
			    struct build_unit *units, size_t n)
{
	char *err = NULL;
	int rc = EXIT_OK;
	int lock = build_json_lock(workspace, cand->id);
	if (lock < 0) {
		ngcc_error("cannot lock build/%s/build.json: %s", cand->id, strerror(errno));
		return EXIT_SYSTEM;
	}
	json_t *doc = build_json_load(workspace, cand->id, &err);
	if (!doc) {
		ngcc_error("%s", err);
		free(err);
		build_json_unlock(lock);
		return EXIT_INPUT;
	}
	for (size_t i = 0; i < cand->other_arch.n; i++)
		build_record_unsupported(doc, &cand->conf,
					 conf_find_instance((struct candidate_conf *)&cand->conf,
							    cand->other_arch.items[i]),
					 cand->other_arch_why.items[i]);
	for (size_t i = 0; i < n; i++) {
		if (units[i].c != &cand->conf)
			continue;
		if (build_record_unit(doc, &units[i], &err)) {
			ngcc_error("recording %s: %s", units[i].ic->label, err);
			free(err);
			err = NULL;
			rc = EXIT_SYSTEM;
		}
	}
	drop_gone_instances(doc, cand);
	if (build_json_save(workspace, cand->id, doc)) {
		ngcc_error("cannot write build/%s/build.json: %s", cand->id, strerror(errno));
		rc = EXIT_SYSTEM;
	}
	json_decref(doc);
	build_json_unlock(lock);
	return rc;
}

/* Code of another architecture than the compiler builds for (NEON code for
 * an x86-64 compiler): its options and headers do not exist there.  Why
 * (malloc'd), or NULL. */
static char *other_arch(const struct instance_conf *ic)
{
	enum cpu_ext ext = conf_cpu_ext(ic);
	const char *need = cpu_ext_arch(ext);
	const char *target = build_compiler_target();
	size_t n = strcspn(target, "-");
	if (!need || !strcmp(target, "unknown"))
		return host_cpu_other_arch(host_cpu(), ext) ? host_cpu_refusal(host_cpu(), ext) : NULL;
	if (strlen(need) == n && !strncmp(need, target, n))
		return NULL;
	return xasprintf("needs %s, an %s extension; the compiler builds for %.*s", cpu_ext_display(ext),
			 need, (int)n, target);
}

static size_t collect_units(const char *workspace, const struct selection *sel,
			    struct candidate *cands, size_t nc, struct build_unit **out)
{
	size_t n = 0;
	for (size_t i = 0; i < nc; i++)
		n += cands[i].conf.n_inst;
	struct build_unit *units = xcalloc(n ? n : 1, sizeof *units);
	n = 0;
	for (size_t i = 0; i < nc; i++)
		for (size_t k = 0; k < cands[i].conf.n_inst; k++) {
			struct instance_conf *ic = &cands[i].conf.inst[k];
			if (!selection_has_instance(sel, cands[i].id, ic->label))
				continue;
			if (!ic->enabled) {
				printf("BUILD %s %s skipped (enabled = no in candidate.conf)\n",
				       cands[i].id, ic->label);
				continue;
			}
			char *why = other_arch(ic);
			if (why) {
				char *stem = build_stem(ic);
				printf("BUILD %s %s UNSUPPORTED_CPU: %s (not compiled)\n", cands[i].id,
				       stem, why);
				free(stem);
				sl_push(&cands[i].other_arch, ic->label);
				sl_push_owned(&cands[i].other_arch_why, why);
				continue;
			}
			why = host_cpu_refusal(host_cpu(), conf_cpu_ext(ic));
			if (why) {
				char *stem = build_stem(ic);
				printf("BUILD %s %s note: %s: built, but kat, measure, memory, profile and "
				       "check will refuse it (UNSUPPORTED_CPU)\n", cands[i].id, stem, why);
				free(stem);
				free(why);
			}
			units[n].workspace = workspace;
			units[n].c = &cands[i].conf;
			units[n].ic = ic;
			units[n].forced_profile = -1;
			n++;
		}
	*out = units;
	return n;
}

static int build_all(const struct build_request *r, const struct selection *sel,
		     struct candidate *cands, size_t nc)
{
	struct build_unit *units;
	size_t n = collect_units(r->workspace, sel, cands, nc, &units);
	struct printer pr = { units, n, 0, 0, r->tty, 0 };
	int rc = EXIT_OK;

	fflush(stdout);
	if (build_units(units, n, r->jobs, on_unit_done, &pr)) {
		ngcc_error("internal error: the build scheduler stopped with instances unbuilt");
		rc = EXIT_SYSTEM;
	}
	clear_progress(&pr);
	for (size_t i = 0; i < nc && rc == EXIT_OK; i++) {
		int k = record_candidate(r->workspace, &cands[i], units, n);
		if (k)
			rc = k;
	}
	for (size_t i = 0; i < n; i++)
		build_unit_free(&units[i]);
	free(units);
	if (rc == EXIT_OK && pr.failed)
		rc = EXIT_FAILED;
	return rc;
}

int build_candidates(const struct build_request *r)
{
	struct strlist ids = STRLIST_INIT;
	struct selection sel;
	int rc = selection_from_ids(&sel, &r->ids, r->workspace, &ids);
	if (rc) {
		selection_free(&sel);
		return rc;
	}
	if (!ids.n)
		list_candidates(r->workspace, &ids);
	if (!ids.n) {
		ngcc_error("no candidates in workspace %s (no candidates/<ID>/candidate.conf); "
			   "add one with 'ngcc-perf add PACKAGE'", r->workspace);
		sl_free(&ids);
		selection_free(&sel);
		return EXIT_INPUT;
	}
	char *err = NULL;
	if (toolchain_problem()) {
		ngcc_error("%s; unset it to use cc and c++", toolchain_problem());
		sl_free(&ids);
		selection_free(&sel);
		return EXIT_USAGE;
	}
	if (build_check_runtime(&err)) {
		ngcc_error("%s", err);
		free(err);
		sl_free(&ids);
		selection_free(&sel);
		return EXIT_SYSTEM;
	}
	struct candidate *cands = xcalloc(ids.n, sizeof *cands);
	size_t nc = 0;
	for (; nc < ids.n && rc == EXIT_OK; nc++)
		rc = load_candidate(r->workspace, ids.items[nc], &cands[nc]);
	if (rc == EXIT_OK)
		rc = build_all(r, &sel, cands, nc);
	for (size_t i = 0; i < nc; i++) {
		conf_free(&cands[i].conf);
		free(cands[i].id);
		sl_free(&cands[i].other_arch);
		sl_free(&cands[i].other_arch_why);
	}
	free(cands);
	sl_free(&ids);
	selection_free(&sel);
	return rc;
}
