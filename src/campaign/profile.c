/* profile.c — see profile.h (docs/method.md §10). */
#include "campaign/profile.h"
#include "method/cpuext.h"

#include "build/instrument.h"
#include "build/survey.h"
#include "campaign/rundir.h"
#include "campaign/unitpass.h"
#include "evidence/campaign_json.h"
#include "evidence/json.h"
#include "evidence/profile_json.h"
#include "method/cpuext.h"
#include "method/format.h"
#include "method/types.h"
#include "proc/command.h"
#include "util/interrupt.h"
#include "util/untrusted.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long profile_iterations(double t1_s, double target_s)
{
	if (t1_s > 60)
		return 1;
	double n = t1_s > 0 ? ceil(target_s / t1_s) : 1000;
	if (n < 3)
		n = 3;
	return n > 1000 ? 1000 : (long)n;
}

int profile_warmups(double t1_s)
{
	return t1_s < 5 ? 1 : 0;
}

double profile_timeout_s(double t1_s, double setup_s, double target_s)
{
	return 3 * (double)(profile_iterations(t1_s, target_s) + profile_warmups(t1_s)) * t1_s +
	       3 * setup_s + 300;
}

struct phase {
	struct engine *e;
	char *prog;          /* absolute path of the profile driver */
	struct tally t;
	int refused;
	struct progress progress;
	int k;               /* instances started */
};

/* ---- one profile ------------------------------------------------------------ */

static json_t *run_driver(struct phase *ph, const struct unit *u,
			  const struct instrument_result *ir, json_t *coverage)
{
	struct engine *e = ph->e;
	struct child_cmd cmd;
	double target = e->o.planning.trial_target_s;
	long iters = profile_iterations(u->t1_s, target);
	int warm = profile_warmups(u->t1_s);
	double timeout = engine_timeout(e, profile_timeout_s(u->t1_s, u->setup_s, target));
	child_cmd_init(&cmd, PROFILE_DRIVER_NAME);
	child_cmd_arg(&cmd, "--lib");
	child_cmd_arg(&cmd, ir->library);
	child_cmd_arg(&cmd, "--op");
	child_cmd_arg(&cmd, u->op);
	child_cmd_arg(&cmd, "--iters");
	child_cmd_argf(&cmd, "%ld", iters);
	child_cmd_arg(&cmd, "--warmups");
	child_cmd_argf(&cmd, "%d", warm);
	child_cmd_arg(&cmd, "--cpu");
	child_cmd_argf(&cmd, "%d", e->cpu);
	engine_counter_rate_arg(e, &cmd);
	struct spawn_res res;
	char *detail = NULL;
	json_t *result = NULL;
	int ran = !engine_spawn(e, &cmd, timeout, 2000, &res);
	if (ran && res.result && res.result_len)
		result = json_loads(res.result, 0, NULL);
	if (!ran)
		detail = xstrdup("the profile driver could not be started");
	else if (!(res.exited && res.exit_code == 0))
		detail = spawn_describe(&res, timeout);
	json_t *timing = engine_timing_record(e, u);
	struct profile_input in = {
		.candidate = u->cand, .label = u->label, .operation = u->op,
		.library_instrumented = ir->library,
		.library_instrumented_sha256 = ir->library_sha256,
		.library = u->library, .library_sha256 = u->library_sha256,
		.wrapped_symbols = NULL, .command = cmd.shown,
		.stderr_tail = ran ? res.err_tail : NULL,
		.process = ran ? &res : NULL,
		.exited_ok = ran && res.exited && res.exit_code == 0,
		.detail = detail, .result = result, .timing = timing, .coverage = coverage,
	};
	json_t *wrapped = json_array();
	for (size_t i = 0; i < ir->wrapped.n; i++)
		json_array_append_new(wrapped, json_string(ir->wrapped.items[i]));
	in.wrapped_symbols = wrapped;
	json_t *rec = profile_build(&in);
	json_decref(wrapped);
	json_decref(timing);
	json_decref(result);
	free(detail);
	if (ran)
		spawn_res_free(&res);
	child_cmd_free(&cmd);
	return rec;
}

static void print_profile(const struct unit *u, const json_t *rec)
{
	const char *status = jget_str(rec, "status", "?");
	if (strcmp(status, "complete")) {
		unit_print_detail("PROFILE", u, status, rec);
		return;
	}
	char hs[64], ds[64];
	double h = jget_real(rec, "hash_share", 0), d = jget_real(rec, "drng_share", 0);
	struct fn_calls v[8];
	size_t n = 0;
	const char *fn;
	json_t *x;
	json_object_foreach(json_object_get(rec, "calls_per_operation"), fn, x)
		if (n < 8)
			v[n++] = (struct fn_calls){ fn, json_number_value(x) };
	char *calls = fmt_calls_per_op(v, n);
	printf("PROFILE %s %s %s complete: pseudohash/XOF/sm3 %s, DRNG %s, calls %s\n",
	       u->cand, u->label, u->op, fmt_percent(hs, &h), fmt_percent(ds, &d), calls);
	free(calls);
}

static const struct resume_kind profile_kind = { "profile", &profile_format, 0 };

/* Profile one unit (resuming); returns the record in force, or NULL. */
static json_t *profile_unit(struct phase *ph, const struct unit *u,
			    const struct instrument_result *ir, json_t *coverage)
{
	struct engine *e = ph->e;
	char *path = rundir_unit_path(e->run, "profile", u->cand, u->stem);
	json_t *rec = NULL;
	struct profile_fp fp = { u->library_sha256, ir->library_sha256 };
	enum resume_action r = rundir_resume(e->run, &profile_kind, u->cand, u->stem, &fp,
					     e->o.redo_stale, &rec, NULL);
	if (r == RESUME_KEEP) {
		ph->t.kept++;
	} else if (r == RESUME_STALE) {
		ngcc_error("%s was made from another library (rebuilt since); rerun with --redo-stale "
			   "to profile again", path);
		ph->t.failed++;
	} else if (r == RESUME_GIVE_UP) {
		fprintf(stderr, "%s %s %s: profile failed %d times; giving up (see %s)\n", u->cand,
			u->label, u->op, RUNDIR_MAX_ATTEMPTS, path);
		ph->t.failed++;
	} else if (interrupt_pending()) {
		ph->t.left++;
	} else if (!u->calibrated) {
		fprintf(stderr, "%s %s %s: not profiled: %s\n", u->cand, u->label, u->op,
			u->calib_error ? u->calib_error : "no calibration");
		ph->t.failed++;
	} else {
		rec = run_driver(ph, u, ir, coverage);
		if (interrupt_pending()) {
			tally_cut(&ph->t, u);
			ph->t.left++;
			json_decref(rec);
			rec = NULL;
		} else if (engine_env_still_equal(e)) {
			ph->refused = 1;
			json_decref(rec);
			rec = NULL;
		} else if (evidence_write(path, rec)) {
			ngcc_error("cannot write %s: %s", path, strerror(errno));
			ph->t.failed++;
		} else if (strcmp(jget_str(rec, "status", ""), "complete")) {
			ph->t.failed++;
		} else {
			ph->t.made++;
		}
	}
	progress_clear(&ph->progress);
	if (rec)
		print_profile(u, rec);
	free(path);
	return rec;
}

/* ---- one instance ------------------------------------------------------------ */

static void write_relink_failed(struct phase *ph, const struct unit *u,
				const struct instrument_result *ir)
{
	char *stem = xasprintf("%s__RELINK_FAILED", u->label);
	char *path = rundir_unit_path(ph->e->run, "profile", u->cand, stem);
	char started[32];
	utc_now_iso(started);
	json_t *j = json_object();
	json_object_set_new(j, "schema", evidence_schema(RELINK_FAILED_KIND, RELINK_FAILED_VERSION));
	json_object_set_new(j, "status", json_string("relink_failed"));
	json_object_set_new(j, "candidate", json_string(u->cand));
	json_object_set_new(j, "label", json_string(u->label));
	json_object_set_new(j, "library", json_string(u->library));
	json_object_set_new(j, "library_sha256", json_string(u->library_sha256));
	json_object_set_new(j, "lto", json_boolean(ir->lto_refused));
	json_object_set_new(j, "reason", jstr_or_null(ir->error));
	size_t len = ir->output ? strlen(ir->output) : 0;
	json_object_set_new(j, "output_tail", json_string(ir->output ? ir->output + (len > 2000 ? len - 2000 : 0) : ""));
	json_object_set_new(j, "link_command", ir->link_command ? json_incref(ir->link_command) : json_null());
	json_object_set_new(j, "utc", json_string(started));
	if (evidence_write(path, j))
		ngcc_error("cannot write %s: %s", path, strerror(errno));
	fprintf(stderr, "%s %s: instrumented relink failed: %s (%s)\n", u->cand, u->label,
		ir->error ? ir->error : "unknown", path);
	json_decref(j);
	free(path);
	free(stem);
	ph->t.failed++;
}

/* What the complete profiles say about the DRNG and the hash helpers. */
static void note_calls(struct survey_instance *si, const json_t *rec)
{
	if (!rec || strcmp(jget_str(rec, "status", ""), "complete"))
		return;
	const char *fn;
	json_t *x;
	if (si->drng_called < 0)
		si->drng_called = 0;
	if (si->hash_called < 0)
		si->hash_called = 0;
	json_object_foreach(json_object_get(rec, "calls_per_operation"), fn, x) {
		if (json_number_value(x) <= 0)
			continue;
		if (!strcmp(fn, "drng"))
			si->drng_called = 1;
		else
			si->hash_called = 1;
	}
}

/* units[first..end) are the operations of one instance. */
static void profile_instance(struct phase *ph, struct unit *units, size_t n,
			     struct survey_instance *si)
{
	struct engine *e = ph->e;
	char *err = NULL;
	json_t *coverage;
	/* Each object is read once, for the scan, the LTO check and the relink. */
	struct link_objects objs;
	link_objects_load(e->o.workspace, json_object_get(units[0].inst, "link_command"), &objs);
	if (survey_scan_instance(units[0].inst, &objs, si, &err)) {
		ngcc_warning("%s %s: primitive scan failed: %s", units[0].cand, units[0].label, err);
		coverage = json_pack("{s:s, s:[]}", "status", "unknown", "hits");
		free(err);
	} else {
		coverage = survey_coverage(si);
	}
	struct instrument_result ir;
	char *ops = xasprintf("relink and %zu operation(s)", n);
	progress_unit(&ph->progress, ++ph->k, units[0].cand, units[0].label, ops);
	free(ops);
	int relink_failed = instrument_instance(e->o.workspace, units[0].inst, &objs, &ir);
	if (interrupt_pending()) {
		tally_cut(&ph->t, &units[0]);
		ph->t.left += (int)n;
	} else if (relink_failed) {
		write_relink_failed(ph, &units[0], &ir);
	} else {
		for (size_t i = 0; i < n && !ph->refused; i++) {
			if (cand_op_whole(units[i].op))
				continue;  /* a KEX step: only the exchange is profiled */
			json_t *rec = profile_unit(ph, &units[i], &ir, coverage);
			note_calls(si, rec);
			json_decref(rec);
		}
	}
	progress_done(&ph->progress, 0);
	instrument_result_free(&ir);
	link_objects_free(&objs);
	json_decref(coverage);
}

/* ---- one candidate ----------------------------------------------------------- */

static void write_survey(struct phase *ph, const char *cand, struct survey_instance *si, size_t n)
{
	char *conf = path_join(ph->e->o.workspace, "survey.conf");
	char *verdict = NULL, *notes = NULL, *err = NULL;
	if (survey_conf_lookup(conf, cand, &verdict, &notes, &err) < 0) {
		ngcc_warning("%s; using the automatic verdict for %s", err, cand);
		free(err);
	}
	json_t *j = survey_json(cand, si, n, verdict, notes);
	char *path = rundir_unit_path(ph->e->run, "profile", cand, "survey");
	if (evidence_write(path, j)) {
		ngcc_error("cannot write %s: %s", path, strerror(errno));
		ph->t.failed++;
	} else {
		printf("SURVEY %s %s%s%s (%s)\n", cand, jget_str(j, "verdict", "?"),
		       *jget_str(j, "notes", "") ? " — " : "", jget_str(j, "notes", ""),
		       jget_str(j, "source", "?"));
	}
	json_decref(j);
	free(path);
	free(conf);
	free(verdict);
	free(notes);
}

static size_t profile_candidate(struct phase *ph, size_t first)
{
	struct engine *e = ph->e;
	const char *cand = e->units[first].cand;
	size_t end = first;
	while (end < e->n_units && !strcmp(e->units[end].cand, cand))
		end++;
	struct survey_instance *si = xcalloc(end - first, sizeof *si);
	size_t n_inst = 0;
	char *dir = path_join(e->run, "profile");
	char *cdir = path_join(dir, cand);
	if (mkdir_p(cdir, 0755))
		ngcc_error("cannot create %s: %s", cdir, strerror(errno));
	for (size_t i = first; i < end && !ph->refused;) {
		size_t j = i;
		while (j < end && !strcmp(e->units[j].label, e->units[i].label))
			j++;
		profile_instance(ph, &e->units[i], j - i, &si[n_inst++]);
		i = j;
	}
	if (!ph->refused && !interrupt_pending())
		write_survey(ph, cand, si, n_inst);
	for (size_t i = 0; i < n_inst; i++)
		survey_instance_free(&si[i]);
	free(si);
	free(dir);
	free(cdir);
	return end;
}

/* ---- the phase ----------------------------------------------------------------- */

/* Profiled: reference instances of public-key candidates (docs/method.md
 * §2.3); hash functions do not use the ICCS helpers.  This is where the
 * variants are decided (issue #29): the profile shares are defined on the
 * reference build, so optimized-* and additional instances are measured
 * and memory-measured but never profiled; the phase says which it left. */
static int profiled(const struct unit *u)
{
	int shared;
	const struct cand_type *t = cand_type_of_op(u->op, &shared);
	return !strcmp(jget_str(u->inst, "variant", ""), "reference") &&
	       (shared || cand_type_public_key(t));
}

/* The profiled units first; returns their count.  The others stay behind
 * them so engine_free still frees them. */
static size_t reference_first(struct engine *e)
{
	struct unit *sorted = xcalloc(e->n_units ? e->n_units : 1, sizeof *sorted);
	size_t k = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < e->n_units; i++)
			if (profiled(&e->units[i]) == !pass)
				sorted[k++] = e->units[i];
	size_t n_ref = 0;
	for (size_t i = 0; i < e->n_units; i++)
		n_ref += profiled(&sorted[i]);
	memcpy(e->units, sorted, e->n_units * sizeof *sorted);
	free(sorted);
	return n_ref;
}

/* Say which variant instances (units n_ref .. listed) were left out. */
static void note_unprofiled_variants(const struct engine *e, size_t n_ref, size_t listed)
{
	struct strlist seen = STRLIST_INIT;
	for (size_t i = n_ref; i < listed; i++) {
		const struct unit *u = &e->units[i];
		if (!variant_is_alternative(jget_str(u->inst, "variant", "")))
			continue;
		char *name = xasprintf("%s/%s", u->cand, u->label);
		if (!sl_contains(&seen, name))
			sl_push(&seen, name);
		free(name);
	}
	for (size_t i = 0; i < seen.n; i++)
		fprintf(stderr, "profile: %s not profiled: an implementation variant; the profile "
			"shares are defined on the reference build (docs/method.md §2.6)\n",
			seen.items[i]);
	sl_free(&seen);
}

/* Reference instances among the units (each is one relink). */
static int count_instances(const struct engine *e)
{
	int n = 0;
	for (size_t i = 0; i < e->n_units; i++)
		n += !i || strcmp(e->units[i].cand, e->units[i - 1].cand) ||
		     strcmp(e->units[i].label, e->units[i - 1].label);
	return n;
}

/* Operations to profile (a KEX's steps aside, as profile_instance skips
 * them) and how many of them hold a complete profile of the timed library
 * as it is now: what a resumed phase will keep unless the relink changed. */
static void count_profiles(const struct engine *e, int *ops, int *complete)
{
	*ops = *complete = 0;
	for (size_t i = 0; i < e->n_units; i++) {
		const struct unit *u = &e->units[i];
		if (cand_op_whole(u->op))
			continue;
		(*ops)++;
		char *path = rundir_unit_path(e->run, "profile", u->cand, u->stem);
		json_t *rec = path_exists(path) ? evidence_load(path, NULL) : NULL;
		*complete += rec && !strcmp(jget_str(rec, "status", ""), "complete") &&
			     !strcmp(jget_str(rec, "library_sha256", ""), u->library_sha256);
		json_decref(rec);
		free(path);
	}
}

/* "2 instance(s) to relink; 6 operation(s): 4 to profile, 2 complete
 * (kept while their relink is the same)". */
static void start_progress(struct phase *ph)
{
	int ops, complete, instances = count_instances(ph->e);
	count_profiles(ph->e, &ops, &complete);
	char *said = xasprintf("%d instance(s) to relink; %d operation(s): %d to profile, %d "
			       "complete (kept while their relink is the same)", instances, ops,
			       ops - complete, complete);
	progress_init_said(&ph->progress, ph->e->o.tty, "profile", instances, said);
	free(said);
}

/* The profile plans nothing itself: it takes the run's planning constants
 * so that the measuring phases' check (campaign.json) accepts it whatever
 * --trials etc. the run was started with. */
static void adopt_run_planning(struct engine_opts *o)
{
	if (!o->run)
		return;
	char *run = engine_run_dir(o);
	char *cj = path_join(run, "campaign.json"), *err = NULL;
	json_t *doc = path_exists(cj) ? campaign_load(run, &err) : NULL;
	campaign_planning_read(json_object_get(doc, "planning"), &o->planning);
	json_decref(doc);
	free(err);
	free(cj);
	free(run);
}

int profile_phase(const struct engine_opts *opts)
{
	struct engine e;
	struct phase ph;
	memset(&ph, 0, sizeof ph);
	ph.e = &e;
	struct engine_opts copy = *opts;
	const struct engine_opts *o = &copy;
	adopt_run_planning(&copy);
	int rc = engine_begin(&e, o, "profile");
	if (rc == EXIT_OK) {
		ph.prog = ngcc_program(PROFILE_DRIVER_NAME);
		size_t all = e.n_units;
		if (!path_is_file(ph.prog)) {
			ngcc_error("the profile driver %s is missing; run `make` in the ngcc-perf tree",
				   ph.prog);
			rc = EXIT_SYSTEM;
		} else {
			size_t listed = e.n_units;
			e.n_units = reference_first(&e);
			note_unprofiled_variants(&e, e.n_units, listed);
			if (!e.n_units) {
				ngcc_error("profile: nothing to do: no reference instance among the %zu "
					   "operation(s) listed; only reference builds are profiled", all);
				rc = EXIT_INPUT;
				goto end;
			}
			engine_calibrate(&e, NULL);
			start_progress(&ph);
			for (size_t i = 0; i < e.n_units && !ph.refused;)
				i = profile_candidate(&ph, i);
			progress_clear(&ph.progress);
			rc = ph.refused ? EXIT_USAGE : ph.t.failed ? EXIT_FAILED : EXIT_OK;
			rc = engine_summary(&e, &ph.t, "profile", "profiled", rc);
		}
	end:
		e.n_units = all;
		engine_end(&e, rc);
	}
	free(ph.prog);
	engine_free(&e);
	return rc;
}
