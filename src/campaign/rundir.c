/* rundir.c — see rundir.h. */
#include "campaign/rundir.h"
#include "evidence/accept.h"
#include "evidence/names.h"
#include "util/atomic.h"
#include "util/fsutil.h"
#include "util/untrusted.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rundir_prepare(const char *run)
{
	static const char *const sub[] = { "calibrate", "records", "attempts", "locks" };
	for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
		char *p = path_join(run, sub[i]);
		int rc = mkdir_p(p, 0755);
		if (rc)
			ngcc_error("cannot create %s: %s", p, strerror(errno));
		free(p);
		if (rc)
			return -1;
	}
	rundir_sweep(run);
	return 0;
}

int rundir_refuse_unusual(const char *run, const char *phase)
{
	struct strlist odd = STRLIST_INIT;
	tree_list_unusual(run, "", &odd);
	for (size_t i = 0; i < odd.n; i++) {
		char *path = path_join(run, odd.items[i]), *shown = str_printable(path, 0);
		ngcc_error("%s: %s is a symbolic link or special file; a run directory is read and "
			   "written without following links: remove it (or put the file itself in "
			   "its place) and run %s again", phase, shown, phase);
		free(shown);
		free(path);
	}
	int rc = odd.n ? -1 : 0;
	sl_free(&odd);
	return rc;
}

void rundir_sweep(const char *dir)
{
	atomic_sweep_stale(dir);
	struct strlist subdirs = STRLIST_INIT;
	dir_list(dir, DIR_PICK_DIRS, &subdirs);
	for (size_t i = 0; i < subdirs.n; i++) {
		char *p = path_join(dir, subdirs.items[i]);
		rundir_sweep(p);
		free(p);
	}
	sl_free(&subdirs);
}

char *rundir_stem(const char *label, const char *op)
{
	return evidence_stem(label, op);
}

char *rundir_unit_path(const char *run, const char *kind, const char *cand,
		       const char *stem)
{
	char *rel = xasprintf("%s/%s/%s.json", kind, cand, stem);
	char *p = path_join(run, rel);
	free(rel);
	return p;
}

static char *attempt_path(const char *run, const char *kind, const char *cand,
			  const char *stem, int k)
{
	char *rel = xasprintf("attempts/%s/%s/%s.%d.json", kind, cand, stem, k);
	char *p = path_join(run, rel);
	free(rel);
	return p;
}

int rundir_attempts(const char *run, const char *kind, const char *cand, const char *stem)
{
	int k = 0;
	for (;;) {
		char *p = attempt_path(run, kind, cand, stem, k + 1);
		int there = path_exists(p);
		free(p);
		if (!there)
			return k;
		k++;
	}
}

int rundir_move_to_attempts(const char *run, const char *kind, const char *cand,
			    const char *stem)
{
	char *src = rundir_unit_path(run, kind, cand, stem);
	int k = rundir_attempts(run, kind, cand, stem) + 1;
	char *dst = attempt_path(run, kind, cand, stem, k);
	char *dir = path_dirname(dst);
	int rc = mkdir_p(dir, 0755) ? -1 : rename(src, dst);
	int e = errno;
	free(dir);
	free(src);
	free(dst);
	errno = e;
	return rc ? -1 : k;
}

char *rundir_disturbed_path(const char *run, const char *cand, const char *stem,
			    int proc, int attempt)
{
	char *rel = xasprintf("attempts/disturbed/%s/%s.p%d.a%d.json", cand, stem, proc, attempt);
	char *p = path_join(run, rel);
	free(rel);
	return p;
}

/* Move the unit's file aside before it is redone. */
static void move_aside(const char *run, const struct resume_kind *k, const char *cand,
		       const char *stem)
{
	if (rundir_move_to_attempts(run, k->dir, cand, stem) < 0) {
		char *path = rundir_unit_path(run, k->dir, cand, stem);
		ngcc_warning("cannot move %s to attempts/: %s", path, strerror(errno));
		free(path);
	}
}

/* What the rule says for a file in state st (see rundir.h). */
static enum resume_action decide(const char *run, const struct resume_kind *k, const char *cand,
				 const char *stem, enum unit_state st, int redo_stale)
{
	switch (st) {
	case UNIT_MISSING:
		return RESUME_RUN;
	case UNIT_DONE:
		return RESUME_KEEP;
	case UNIT_STALE:
		return redo_stale || k->stale_redone ? RESUME_RUN : RESUME_STALE;
	case UNIT_CORRUPT:
	case UNIT_REDO:
		break;
	}
	return rundir_attempts(run, k->dir, cand, stem) + 1 >= RUNDIR_MAX_ATTEMPTS ?
	       RESUME_GIVE_UP : RESUME_RUN;
}

static enum resume_action classify_and_decide(const char *run, const struct resume_kind *k,
					      const char *cand, const char *stem, const void *fp,
					      int redo_stale, enum unit_state *st, json_t **doc,
					      char **why)
{
	char *path = rundir_unit_path(run, k->dir, cand, stem), *reason = NULL;
	json_t *d = NULL;
	*st = unit_file_classify_below(run, path, k->format, fp, &d, &reason);
	/* a file report and publish would refuse (evidence/accept.h) is not
	 * kept as done: it is run again like a corrupt one */
	char *rel = xasprintf("%s/%s/%s.json", k->dir, cand, stem), *bad = NULL;
	if (*st == UNIT_DONE && evidence_accept(rel, d, NULL, &bad)) {
		*st = UNIT_CORRUPT;
		free(reason);
		reason = xasprintf("%s: %s", path, bad);
		json_decref(d);
		d = NULL;
	}
	free(bad);
	free(rel);
	free(path);
	enum resume_action a = decide(run, k, cand, stem, *st, redo_stale);
	if (a != RESUME_KEEP && a != RESUME_GIVE_UP) {
		json_decref(d);
		d = NULL;
	}
	if (doc)
		*doc = d;
	else
		json_decref(d);
	if (why)
		*why = reason;
	else
		free(reason);
	return a;
}

enum resume_action rundir_resume(const char *run, const struct resume_kind *k,
				 const char *cand, const char *stem, const void *fp,
				 int redo_stale, json_t **doc, char **why)
{
	enum unit_state st;
	char *reason = NULL;
	enum resume_action a = classify_and_decide(run, k, cand, stem, fp, redo_stale, &st, doc,
						   &reason);
	if (st == UNIT_CORRUPT)
		ngcc_warning("%s; treated as not complete", reason);
	if (a == RESUME_RUN && st != UNIT_MISSING)
		move_aside(run, k, cand, stem);
	if (why)
		*why = reason;
	else
		free(reason);
	return a;
}

enum resume_action rundir_resume_peek(const char *run, const struct resume_kind *k,
				      const char *cand, const char *stem, const void *fp,
				      enum unit_state *state, char **why)
{
	return classify_and_decide(run, k, cand, stem, fp, 0, state, NULL, why);
}
