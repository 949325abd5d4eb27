/*
 * calibrate.c — docs/method.md §2.4: one driver process per operation with
 * trials = 1, iterations = 1, warm-ups = 0 (hard timeout 6 h).  t1 is that
 * trial's seconds, S the process wall time measured here minus t1.  The
 * result goes to <run>/calibrate/<ID>/<label>__<op>.json
 * ("ngcc-perf/calibration/1") and is reused on resume while the library
 * is unchanged.
 */
#include "campaign/engine.h"
#include "campaign/rundir.h"
#include "evidence/check.h"
#include "evidence/json.h"
#include "evidence/record.h"
#include "stats/stats.h"
#include "util/interrupt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* t1: the one cold call, or (R17) the median of the warm calls. */
static double calibration_t1(const json_t *trials)
{
	double ns[CALIBRATION_WARM_CALLS];
	size_t n = json_array_size(trials), i;
	json_t *t;
	if (n > CALIBRATION_WARM_CALLS)
		n = CALIBRATION_WARM_CALLS;
	json_array_foreach(trials, i, t)
		if (i < n)
			ns[i] = (double)jget_int(t, "ns", 0);
	return stats_median(ns, n) / 1e9;
}

static json_t *calibration_json(const struct engine *e, const struct unit *u,
				const json_t *proc, const char *started, const char *ended,
				double timeout_s)
{
	const char *status = record_process_status(proc);
	int warm = e->o.planning.warm_calibration;
	size_t calls = warm ? CALIBRATION_WARM_CALLS : 1;
	int ok = !strcmp(status, ST_COMPLETE) &&
		 json_array_size(json_object_get(proc, "trials")) == calls;
	double t1 = ok ? calibration_t1(json_object_get(proc, "trials")) : 0;
	double wall = jget_real(proc, "wall_s", 0);
	/* S: the process's wall time less its calls (warm: a warm-up and 3) */
	double in_calls = t1 * (double)(warm ? calls + 1 : 1);
	json_t *j = json_object();
	json_object_set_new(j, "schema", evidence_schema(CALIBRATION_KIND, CALIBRATION_VERSION));
	json_object_set_new(j, "status", json_string(ok ? ST_COMPLETE : status));
	json_object_set_new(j, "status_detail", ok ? json_null() : json_string(record_process_error(proc)));
	json_object_set_new(j, "candidate", json_string(u->cand));
	json_object_set_new(j, "label", json_string(u->label));
	json_object_set_new(j, "operation", json_string(u->op));
	json_object_set_new(j, "op_key", json_string(u->op));
	json_object_set_new(j, "library", json_string(u->library));
	json_object_set_new(j, "library_sha256", json_string(u->library_sha256));
	json_object_set_new(j, "cpu", json_integer(e->cpu));
	json_object_set_new(j, "host", json_incref(e->host_state));
	json_object_set_new(j, "started_utc", json_string(started));
	json_object_set_new(j, "ended_utc", json_string(ended));
	json_object_set_new(j, "timeout_s", json_real(timeout_s));
	json_object_set_new(j, "t1_s", ok ? json_real(t1) : json_null());
	json_object_set_new(j, "setup_s", ok ? json_real(wall > in_calls ? wall - in_calls : 0)
					     : json_null());
	json_object_set_new(j, "warm", json_boolean(warm));
	json_object_set_new(j, "wall_s", json_real(wall));
	json_object_set_new(j, "process", json_deep_copy(proc));
	return j;
}

/* Take t1, S and the process from a calibration document. */
static void adopt(struct unit *u, const json_t *cal)
{
	json_decref(u->calib_process);
	u->calib_process = json_deep_copy(json_object_get(cal, "process"));
	free(u->calib_error);
	u->calib_error = NULL;
	if (!strcmp(jget_str(cal, "status", ""), ST_COMPLETE)) {
		u->calibrated = 1;
		u->t1_s = jget_real(cal, "t1_s", 0);
		u->setup_s = jget_real(cal, "setup_s", 0);
	} else {
		u->calibrated = 0;
		u->calib_error = xasprintf("calibration %s: %s", jget_str(cal, "status", "failed"),
					   jget_str(cal, "status_detail", "no detail"));
	}
}

/* 0 written, -1 not written, 1 interrupted (nothing written). */
static int run_calibration(struct engine *e, struct unit *u, const char *path)
{
	char started[32], ended[32];
	double timeout = CALIBRATION_TIMEOUT_S;
	if (e->o.max_timeout_s > 0 && timeout > e->o.max_timeout_s)
		timeout = e->o.max_timeout_s;
	utc_now_iso(started);
	int warm = e->o.planning.warm_calibration;
	json_t *proc = engine_run_driver(e, u, warm ? CALIBRATION_WARM_CALLS : 1, 1, warm ? 1 : 0,
					 timeout, 1);
	utc_now_iso(ended);
	if (interrupt_pending()) {
		/* cut short: nothing written, calibrated again on resume */
		json_decref(proc);
		free(u->calib_error);
		u->calib_error = xstrdup("not calibrated: interrupted");
		return 1;
	}
	json_t *cal = calibration_json(e, u, proc, started, ended, timeout);
	json_decref(proc);
	char *dir = path_dirname(path);
	int rc = mkdir_p(dir, 0755) || evidence_write(path, cal) ? -1 : 0;
	if (rc)
		ngcc_error("cannot write %s: %s", path, strerror(errno));
	free(dir);
	adopt(u, cal);
	json_decref(cal);
	return rc;
}

enum cal_need { CAL_HAVE, CAL_RUN, CAL_GIVE_UP };

/* The fields planning relies on (evidence/check.h). */
static const struct field_rule calibration_rules[] = {
	FIELD("status", J_STR), FIELD("candidate", J_STR), FIELD("label", J_STR),
	FIELD("operation", J_STR), FIELD_OPT("library_sha256", J_STR | J_NULL),
	FIELD_NUM_OPT("timeout_s", J_NUM | J_NULL, 0, MAX_SECONDS),
	FIELD_NUM_OPT("t1_s", J_NUM | J_NULL, 0, MAX_SECONDS),
	FIELD_NUM_OPT("setup_s", J_NUM | J_NULL, 0, MAX_SECONDS),
	FIELD_NUM_OPT("wall_s", J_NUM | J_NULL, 0, MAX_SECONDS),
};

static int calibration_check(const json_t *doc, char **why)
{
	return EVIDENCE_CHECK(doc, CALIBRATION_KIND, CALIBRATION_VERSION, calibration_rules, why);
}

static const struct unit_format calibration_format = {
	CALIBRATION_KIND, CALIBRATION_VERSION, "calibration", unit_match_library,
	calibration_check
};
/* A calibration only plans: one of another library is simply redone. */
static const struct resume_kind calibrate_kind = { "calibrate", &calibration_format, 1 };

/* Is the existing calibration file usable?  Unusable ones go to attempts/
 * (campaign/rundir.h). */
static enum cal_need check_existing(struct engine *e, struct unit *u)
{
	json_t *cal = NULL;
	char *why = NULL;
	enum resume_action a = rundir_resume(e->run, &calibrate_kind, u->cand, u->stem,
					     u->library_sha256, 0, &cal, &why);
	enum cal_need need = a == RESUME_KEEP ? CAL_HAVE : a == RESUME_RUN ? CAL_RUN : CAL_GIVE_UP;
	if (cal) {
		adopt(u, cal);
	} else if (need == CAL_GIVE_UP) {
		/* given up on a file that does not even parse */
		u->calibrated = 0;
		free(u->calib_error);
		u->calib_error = why;
		why = NULL;
	}
	json_decref(cal);
	free(why);
	return need;
}

int engine_calibrate(struct engine *e, struct tally *t)
{
	size_t todo = 0, k = 0;
	struct tally none = { 0 };
	if (!t)
		t = &none;
	enum cal_need *need = xcalloc(e->n_units ? e->n_units : 1, sizeof *need);
	char **paths = xcalloc(e->n_units ? e->n_units : 1, sizeof *paths);
	for (size_t i = 0; i < e->n_units; i++) {
		struct unit *u = &e->units[i];
		paths[i] = rundir_unit_path(e->run, "calibrate", u->cand, u->stem);
		need[i] = check_existing(e, u);
		todo += need[i] == CAL_RUN;
	}
	struct progress p;
	progress_init(&p, e->o.tty, "calibrate", (int)todo, 0);
	int missing = 0;
	for (size_t i = 0; i < e->n_units; i++) {
		struct unit *u = &e->units[i];
		if (need[i] == CAL_RUN && interrupt_pending()) {
			t->left++;
		} else if (need[i] == CAL_RUN) {
			progress_unit(&p, (int)++k, u->cand, u->label, u->op);
			if (run_calibration(e, u, paths[i]) > 0) {
				tally_cut(t, u);
				t->left++;
			}
			progress_done(&p, 0);
		}
		if (need[i] == CAL_HAVE)
			t->kept++;
		else if (u->calibrated)
			t->made++;
		if (!u->calibrated && !interrupt_pending()) {
			progress_clear(&p);
			fprintf(stderr, "%s %s %s: %s\n", u->cand, u->label, u->op,
				u->calib_error ? u->calib_error : "no calibration");
			missing++;
			t->failed++;
		}
		free(paths[i]);
	}
	progress_clear(&p);
	free(paths);
	free(need);
	return missing;
}

int calibrate_phase(const struct engine_opts *o)
{
	struct engine e;
	struct tally t = { 0 };
	int rc = engine_begin(&e, o, "calibrate");
	if (rc == EXIT_OK) {
		int missing = engine_calibrate(&e, &t);
		rc = engine_summary(&e, &t, "calibration", "calibrated", missing ? EXIT_FAILED : EXIT_OK);
		engine_end(&e, rc);
	}
	engine_free(&e);
	return rc;
}
