/* runstatus.c — see runstatus.h: every unit's state in a run directory. */
#include "campaign/runstatus.h"
#include "campaign/engine.h"
#include "campaign/merge.h"
#include "campaign/prior.h"
#include "campaign/rundir.h"
#include "evidence/campaign_json.h"
#include "evidence/json.h"
#include "evidence/memory_json.h"
#include "evidence/profile_json.h"
#include "evidence/record.h"
#include "util/untrusted.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define STATUS_KIND "status"
#define STATUS_VERSION 1

static const char *const status_names[] = {
	[US_PENDING] = "pending",
	[US_COMPLETE] = "complete",
	[US_FAILED] = "failed",
	[US_GIVEN_UP] = "failed for good",
	[US_STALE] = "stale",
	[US_DEFERRED] = "deferred",
	[US_NOT_TIMED] = "not timed",
	[US_NOT_SELECTED] = "not selected",
	[US_OFF] = "-",
};

const char *unit_status_name(enum unit_status s)
{
	return status_names[s];
}

static int has_phase(const json_t *doc, const char *name)
{
	size_t i;
	json_t *ph;
	json_array_foreach(json_object_get(doc, "phases"), i, ph)
		if (!strcmp(jget_str(ph, "phase", ""), name))
			return 1;
	return 0;
}

static size_t open_phases(const json_t *doc)
{
	size_t n = 0, i;
	json_t *ph;
	json_array_foreach(json_object_get(doc, "phases"), i, ph)
		n += json_is_null(json_object_get(ph, "ended_utc"));
	return n;
}

int run_status_open(struct run_status *st, const char *run, char **err)
{
	memset(st, 0, sizeof *st);
	st->run = xstrdup(run);
	st->memory_pass = 1;
	st->profile_pass = 1;
	st->sampling_pass = 1;
	st->input_pool = ENGINE_INPUT_POOL_DEFAULT;
	char *path = path_join(run, "campaign.json");
	if (!path_exists(path)) {
		struct strlist old = STRLIST_INIT, tmp = STRLIST_INIT;
		merge_leftovers(run, &old, &tmp);
		if (old.n || tmp.n)
			*err = xasprintf("%s does not exist, and %s is left by a merge that was interrupted: "
					 "run the same merge again (it restores or replaces the run and "
					 "removes what is left)", path, old.n ? old.items[0] : tmp.items[0]);
		else
			*err = xasprintf("%s does not exist: %s is not a run directory (or nothing ran "
					 "in it yet)", path, run);
		sl_free(&old);
		sl_free(&tmp);
		free(path);
		return -1;
	}
	free(path);
	json_t *doc = campaign_load(run, err);
	if (!doc)
		return -1;
	st->system_id = xstrdup(jget_str(doc, "system_id", "?"));
	st->shard = campaign_shard_name(doc);
	const json_t *opts = json_object_get(doc, "options");
	st->memory_pass = jget_bool(opts, "memory_pass", 1);
	st->sampling_pass = jget_bool(opts, "sampling", 1);
	st->input_pool = (int)jget_int(opts, "input_pool", ENGINE_INPUT_POOL_DEFAULT);
	/* Profiling is a phase of its own (campaign runs it, measure does
	 * not): its files are expected once it has begun in this run. */
	st->profile_pass = has_phase(doc, "profile");
	st->open_phases = open_phases(doc);
	json_decref(doc);
	return 0;
}

static struct status_unit *new_unit(struct run_status *st, const char *cand, const char *label,
				    const char *op)
{
	st->units = xrealloc(st->units, (st->n_units + 1) * sizeof *st->units);
	struct status_unit *u = &st->units[st->n_units++];
	memset(u, 0, sizeof *u);
	u->cand = xstrdup(cand);
	u->label = xstrdup(label);
	u->op = xstrdup(op);
	return u;
}

/* The formats as status reads them.  Records and memory records name the
 * timed library, so one of another library is stale; a profile names its
 * instrumented relink, which status does not rebuild to compare, so any
 * complete profile counts as current (profile redoes it if need be). */
static int any_inputs(const json_t *doc, const void *ctx, char **why)
{
	(void)doc;
	(void)ctx;
	(void)why;
	return 1;
}

/* With the phases' field tables: a parsable file they would find corrupt
 * shows as failed (corrupt), as they will treat it. */
static const struct unit_format record_view = { RECORD_KIND, RECORD_VERSION, "record",
						 unit_match_library, record_check };
static const struct unit_format profile_view = { PROFILE_KIND, PROFILE_VERSION, "profile",
						  any_inputs, profile_check_fields };
/* stale_redone as the phases set it: a memory record of another library is
 * simply redone, a timing record is refused without --redo-stale. */
static const struct resume_kind record_kind = { "records", &record_view, 0 };
static const struct resume_kind memory_kind = { MEMORY_KIND, &memory_format, 1 };
static const struct resume_kind profile_kind = { "profile", &profile_view, 0 };

/* The record's own account of why it is not complete. */
static char *failure_cause(const char *run, const char *dir, const struct status_unit *u,
			   const char *stem, const char *why)
{
	char *path = rundir_unit_path(run, dir, u->cand, stem);
	json_t *doc = evidence_load_below(run, path, NULL);
	const char *detail = jget_str(doc, "status_detail", NULL);
	char *cause = detail ? xasprintf("%s: %s", jget_str(doc, "status", "?"), detail) :
		      xstrdup(why ? why : "not complete");
	json_decref(doc);
	free(path);
	return cause;
}

/* The state of one evidence file of the unit: what the run directory's
 * resume rule (rundir_resume) will do with it, read without acting on
 * it.  *attempts counts this file too. */
static enum unit_status file_state(const struct run_status *st, const struct resume_kind *k,
				   const struct status_unit *u, int *attempts, char **cause)
{
	char *stem = rundir_stem(u->label, u->op), *why = NULL;
	enum unit_state fs;
	const void *fp = u->library_sha256 ? u->library_sha256 : "";
	enum resume_action a = rundir_resume_peek(st->run, k, u->cand, stem, fp, &fs, &why);
	enum unit_status s;
	*attempts = rundir_attempts(st->run, k->dir, u->cand, stem) + (fs != UNIT_MISSING);
	switch (a) {
	case RESUME_KEEP:
		s = US_COMPLETE;
		break;
	case RESUME_STALE:
		s = US_STALE;
		*cause = xstrdup(why ? why : "made from other inputs");
		break;
	case RESUME_GIVE_UP:
		s = US_GIVEN_UP;
		*cause = failure_cause(st->run, k->dir, u, stem, why);
		break;
	default:
		s = fs == UNIT_MISSING || fs == UNIT_STALE ? US_PENDING : US_FAILED;
		if (fs == UNIT_CORRUPT)
			*cause = xstrdup(why ? why : "corrupt");
		else if (s == US_FAILED)
			*cause = failure_cause(st->run, k->dir, u, stem, why);
		break;
	}
	free(why);
	free(stem);
	return s;
}

/* A profile refused for the whole instance (LTO objects, docs/method.md §10.1). */
static int relink_refused(const struct run_status *st, const struct status_unit *u)
{
	char *rel = xasprintf("profile/%s/%s__RELINK_FAILED.json", u->cand, u->label);
	int there = root_kind(st->run, rel) == 'f'; /* never through a link */
	free(rel);
	return there;
}

static void read_calibration(const struct run_status *st, struct status_unit *u)
{
	char *stem = rundir_stem(u->label, u->op);
	char *path = rundir_unit_path(st->run, "calibrate", u->cand, stem);
	json_t *cal = path_exists(path) ? evidence_load_below(st->run, path, NULL) : NULL;
	if (cal && !strcmp(jget_str(cal, "status", ""), ST_COMPLETE) &&
	    (!u->library_sha256 || !strcmp(jget_str(cal, "library_sha256", ""), u->library_sha256))) {
		u->calibrated = 1;
		u->t1_s = jget_real(cal, "t1_s", 0);
		u->setup_s = jget_real(cal, "setup_s", 0);
	}
	json_decref(cal);
	free(path);
	free(stem);
}

void run_status_add(struct run_status *st, const char *cand, const char *label, const char *op,
		    const char *library_sha256, int profiled)
{
	struct status_unit *u = new_unit(st, cand, label, op);
	int n;
	char *ignored = NULL;
	u->library_sha256 = library_sha256 ? xstrdup(library_sha256) : NULL;
	u->profiled = profiled;
	u->measure = file_state(st, &record_kind, u, &u->attempts, &u->cause);
	u->memory = !st->memory_pass ? US_OFF : file_state(st, &memory_kind, u, &n, &ignored);
	free(ignored);
	ignored = NULL;
	if (!profiled || !st->profile_pass)
		u->profile = US_OFF;
	else if (relink_refused(st, u))
		u->profile = US_GIVEN_UP;
	else
		u->profile = file_state(st, &profile_kind, u, &n, &ignored);
	free(ignored);
	read_calibration(st, u);
}

void run_status_add_other(struct run_status *st, const char *cand, const char *label,
			  const char *op, enum unit_status why, const char *cause)
{
	struct status_unit *u = new_unit(st, cand, label, op);
	u->measure = why;
	u->memory = u->profile = US_OFF;
	u->cause = cause ? xstrdup(cause) : NULL;
}

static int still_to_do(enum unit_status s)
{
	return s == US_PENDING || s == US_FAILED || s == US_STALE;
}

/* What is left, with the run's own calibrations first, then the priors. */
static double remaining(const struct run_status *st, const struct planning *p,
			const struct est_model *m, const struct prior *prior)
{
	struct estimate est;
	est_init(&est, p, m);
	for (size_t i = 0; i < st->n_units; i++) {
		const struct status_unit *u = &st->units[i];
		int todo_measure = still_to_do(u->measure);
		int todo_memory = still_to_do(u->memory) && u->measure != US_GIVEN_UP;
		int todo_profile = still_to_do(u->profile) && u->measure != US_GIVEN_UP;
		if (!todo_measure && !todo_memory && !todo_profile)
			continue;
		const struct prior_unit *pu = prior ? prior_find_unit(prior, u->cand, u->label, u->op) : NULL;
		enum est_source src = u->calibrated ? EST_CALIBRATION : pu ? EST_PRIOR : EST_UNKNOWN;
		struct est_unit *e = est_add_unit(&est, u->cand, u->label, u->op, src,
						  u->calibrated ? u->t1_s : pu ? pu->t1_s : 0,
						  u->calibrated ? u->setup_s : pu ? pu->setup_s : 0);
		e->need_calibrate = !u->calibrated;
		e->need_measure = todo_measure;
		e->need_memory = todo_memory;
		e->need_profile = todo_profile;
	}
	est_compute(&est, 1, NULL);
	double s = est.n_units ? est.wall_s[1] : 0;
	est_free(&est);
	return s;
}

void run_status_finish(struct run_status *st, const struct planning *p,
		       const struct est_model *m, const struct prior *prior)
{
	memset(st->counts, 0, sizeof st->counts);
	st->settled = 1;
	for (size_t i = 0; i < st->n_units; i++) {
		const struct status_unit *u = &st->units[i];
		st->counts[u->measure]++;
		if (still_to_do(u->measure) ||
		    (u->measure == US_COMPLETE && (still_to_do(u->memory) || still_to_do(u->profile))))
			st->settled = 0;
	}
	struct est_model mm = *m;
	mm.memory_pass = st->memory_pass;
	mm.profile = st->profile_pass;
	mm.sampling = st->sampling_pass;
	mm.input_pool = st->input_pool;
	st->remaining_s = remaining(st, p, &mm, prior);
}

void run_status_free(struct run_status *st)
{
	for (size_t i = 0; i < st->n_units; i++) {
		struct status_unit *u = &st->units[i];
		free(u->cand);
		free(u->label);
		free(u->op);
		free(u->library_sha256);
		free(u->cause);
	}
	free(st->units);
	sl_free(&st->selections);
	free(st->run);
	free(st->system_id);
	free(st->shard);
	memset(st, 0, sizeof *st);
}

/* ---- output ------------------------------------------------------------- */

json_t *run_status_json(const struct run_status *st)
{
	json_t *j = json_object(), *units = json_array(), *counts = json_object();
	json_object_set_new(j, "schema", evidence_schema(STATUS_KIND, STATUS_VERSION));
	json_object_set_new(j, "run", json_string(st->run));
	json_object_set_new(j, "system_id", jstr_or_null(st->system_id));
	json_object_set_new(j, "shard", jstr_or_null(st->shard));
	for (size_t i = 0; i < st->n_units; i++) {
		const struct status_unit *u = &st->units[i];
		json_array_append_new(units, json_pack("{sssssssssisssssoso}", "candidate", u->cand,
			"label", u->label, "operation", u->op,
			"measure", unit_status_name(u->measure), "attempts", u->attempts,
			"memory", unit_status_name(u->memory), "profile", unit_status_name(u->profile),
			"cause", jstr_or_null(u->cause),
			"t1_s", u->calibrated ? json_real(u->t1_s) : json_null()));
	}
	for (int s = US_PENDING; s <= US_NOT_SELECTED; s++)
		json_object_set_new(counts, unit_status_name(s), json_integer((json_int_t)st->counts[s]));
	json_t *sel = json_array();
	for (size_t i = 0; i < st->selections.n; i++)
		json_array_append_new(sel, json_string(st->selections.items[i]));
	json_object_set_new(j, "units", units);
	json_object_set_new(j, "counts", counts);
	json_object_set_new(j, "selections", sel);
	json_object_set_new(j, "open_phases", json_integer((json_int_t)st->open_phases));
	json_object_set_new(j, "remaining_s", json_real(st->remaining_s));
	json_object_set_new(j, "settled", json_boolean(st->settled));
	return j;
}

void run_status_print(const struct run_status *st, FILE *out)
{
	fprintf(out, "status of %s (system %s%s%s)\n", st->run, st->system_id,
		st->shard ? ", shard " : "", st->shard ? st->shard : "");
	fprintf(out, "  %-44s %-16s %8s %-16s %-16s %s\n", "unit", "measure", "attempts",
		"memory", "profile", "cause");
	for (size_t i = 0; i < st->n_units; i++) {
		const struct status_unit *u = &st->units[i];
		char name[256];
		snprintf(name, sizeof name, "%s/%s %s", u->cand, u->label, u->op);
		fprintf(out, "  %-44s %-16s %8d %-16s %-16s %s\n", name, unit_status_name(u->measure),
			u->attempts, unit_status_name(u->memory), unit_status_name(u->profile),
			u->cause ? u->cause : "");
	}
	fprintf(out, "%zu unit(s): %zu complete, %zu pending, %zu failed (to retry), "
		"%zu failed for good, %zu stale, %zu deferred, %zu not timed, %zu not selected\n",
		st->n_units, st->counts[US_COMPLETE], st->counts[US_PENDING], st->counts[US_FAILED],
		st->counts[US_GIVEN_UP], st->counts[US_STALE], st->counts[US_DEFERRED],
		st->counts[US_NOT_TIMED], st->counts[US_NOT_SELECTED]);
	for (size_t i = 0; i < st->selections.n; i++)
		fprintf(out, "selected by this run's phases: %s\n", st->selections.items[i]);
	if (st->counts[US_NOT_SELECTED])
		fprintf(out, "%zu unit(s) not selected: every phase of this run was given instance "
			"selectors or --op that leave them out; `ngcc-perf measure --run %s` (and "
			"`profile`) without them does the rest, and `publish` refuses the run until "
			"then unless given --allow-partial\n", st->counts[US_NOT_SELECTED], st->run);
	if (st->open_phases)
		fprintf(out, "%zu phase(s) begun and not ended in campaign.json: running now, "
			"or interrupted (rerun the same command to resume)\n", st->open_phases);
	if (st->settled)
		fprintf(out, "settled: every %sunit is complete, failed for good, deferred or not timed\n",
			st->counts[US_NOT_SELECTED] ? "selected " : "");
	else
		fprintf(out, "not settled: about %.0f s of work left on one CPU (ETA)\n", st->remaining_s);
}
