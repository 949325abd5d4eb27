/*
 * measure.c — docs/method.md §2.5, §4.4, §11.2: plan every calibrated unit, run
 * them cheapest first, retry disturbed processes, aggregate and write one
 * timing record per unit; resume by status and fingerprint.
 */
#include "campaign/cpus.h"
#include "campaign/engine.h"
#include "campaign/results.h"
#include "campaign/memory.h"
#include "campaign/pool.h"
#include "campaign/sampling.h"
#include "campaign/rundir.h"
#include "evidence/json.h"
#include "evidence/record.h"
#include "method/seeds.h"
#include "method/types.h"
#include "util/interrupt.h"
#include "util/untrusted.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED_MODE(e) ((e)->o.seed_per_trial ? "per-trial" : "fixed")
#define INPUT_MODE "fixed"
#define SEED_HEX_FIXED "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f" \
		       "202122232425262728292a2b2c2d2e2f"

enum unit_todo { TODO_SKIP, TODO_RUN, TODO_GIVEN_UP };

struct measure_state {
	struct engine *e;
	size_t *order;
	enum unit_todo *todo;
	struct tally t;
};

/* ---- ordering ------------------------------------------------------------ */

static int by_estimate(const void *a, const void *b, void *ctx)
{
	const struct engine *e = ctx;
	const struct unit *x = &e->units[*(const size_t *)a];
	const struct unit *y = &e->units[*(const size_t *)b];
	double ex = x->calibrated ? x->plan.estimated_s : 0;
	double ey = y->calibrated ? y->plan.estimated_s : 0;
	if (ex != ey)
		return ex < ey ? -1 : 1;
	int c = strcmp(x->stem, y->stem);
	return c ? c : strcmp(x->cand, y->cand);
}

/* The t1 a unit is planned with: its own, or for a KEX step the larger of
 * its own and its instance's exchange (docs/method.md §4.2 step 1). */
static double planning_t1(const struct engine *e, const struct unit *u)
{
	const char *whole = cand_op_whole(u->op);
	for (size_t i = 0; whole && i < e->n_units; i++) {
		const struct unit *w = &e->units[i];
		if (w->calibrated && !strcmp(w->op, whole) && !strcmp(w->library, u->library))
			return plan_kex_step_t1(w->t1_s, u->t1_s);
	}
	return u->t1_s;
}

static void plan_units(struct engine *e, size_t *order)
{
	for (size_t i = 0; i < e->n_units; i++) {
		struct unit *u = &e->units[i];
		order[i] = i;
		if (u->calibrated)
			plan_compute(&e->o.planning, planning_t1(e, u), u->setup_s, &u->plan);
	}
	qsort_r(order, e->n_units, sizeof *order, by_estimate, e);
}

/* ---- resume classification ---------------------------------------------------- */

static void fingerprint(const struct engine *e, const struct unit *u, struct record_fp *fp)
{
	fp->library_sha256 = u->library_sha256;
	fp->plan = u->calibrated ? &u->plan : NULL;
	fp->seed_mode = SEED_MODE(e);
	fp->input_mode = INPUT_MODE;
}

/* What the user is told when stale complete records stop the phase. */
static int refuse_if_stale(int stale)
{
	if (stale)
		ngcc_error("%d complete record(s) no longer match their inputs; pass --redo-stale "
			   "to redo them (the old files go to attempts/), or use another --run", stale);
	return stale ? -1 : 0;
}

static const struct resume_kind records_kind = { "records", &record_format, 0 };

/* Decide per unit; returns -1 if a stale record refuses the phase. */
static int classify_all(struct measure_state *m)
{
	struct engine *e = m->e;
	int stale = 0;
	for (size_t i = 0; i < e->n_units; i++) {
		struct unit *u = &e->units[i];
		struct record_fp fp;
		char *why = NULL;
		fingerprint(e, u, &fp);
		switch (rundir_resume(e->run, &records_kind, u->cand, u->stem, &fp,
				      e->o.redo_stale, NULL, &why)) {
		case RESUME_KEEP:
			m->todo[i] = TODO_SKIP;
			break;
		case RESUME_RUN:
			m->todo[i] = TODO_RUN;
			break;
		case RESUME_STALE: {
			char *path = rundir_unit_path(e->run, "records", u->cand, u->stem);
			ngcc_error("%s: stale record %s: %s", e->phase, path, why);
			free(path);
			stale++;
			break;
		}
		case RESUME_GIVE_UP:
			m->todo[i] = TODO_GIVEN_UP;
			fprintf(stderr, "%s %s %s: %s; %d attempts made, not retried\n",
				u->cand, u->label, u->op, why, RUNDIR_MAX_ATTEMPTS);
			break;
		}
		free(why);
	}
	return refuse_if_stale(stale);
}

/* Before any calibration runs: a complete record of a library that has
 * changed since is stale, and without --redo-stale the phase is refused
 * right away (the plan part of the fingerprint is checked later). */
static int refuse_stale_libraries(struct engine *e)
{
	int stale = 0;
	for (size_t i = 0; i < e->n_units && !e->o.redo_stale; i++) {
		const struct unit *u = &e->units[i];
		char *path = rundir_unit_path(e->run, "records", u->cand, u->stem), *why = NULL;
		struct record_fp fp = { u->library_sha256, NULL, SEED_MODE(e), INPUT_MODE };
		if (record_classify(path, &fp, &why) == UNIT_STALE) {
			ngcc_error("%s: stale record %s: %s", e->phase, path, why);
			stale++;
		}
		free(why);
		free(path);
	}
	return refuse_if_stale(stale);
}

/* ---- one unit -------------------------------------------------------------------- */

static struct disturb_rule disturb_rule(const struct engine *e)
{
	struct disturb_rule r = {
		.max_invol_switches = e->o.planning.max_invol_switches_per_trial,
		.ref_clock_hz = e->ref_clock_hz,
		.invol_per_s = e->have_background ? e->background.invol_per_s_max : 0,
		.migrations_per_s = e->have_background ? e->background.migrations_per_s_max : 0,
	};
	return r;
}

/* The discarded attempt goes to attempts/disturbed/; the record lists it
 * with the reasons it was retried. */
static void keep_disturbed(struct engine *e, const struct unit *u, json_t *proc, int p, int a,
			   json_t *retries)
{
	char *path = rundir_disturbed_path(e->run, u->cand, u->stem, p + 1, a);
	char *dir = path_dirname(path);
	if (mkdir_p(dir, 0755) || evidence_write(path, proc))
		ngcc_warning("cannot keep the disturbed attempt %s: %s", path, strerror(errno));
	char *rel = path_relative(e->run, path);
	json_array_append_new(retries, json_pack("{sisisOss}", "process", p + 1, "attempt", a,
						 "reasons", json_object_get(proc, "disturbed_reasons"),
						 "file", rel));
	free(rel);
	free(dir);
	free(path);
}

/* Run the plan's processes; disturbed ones are rerun (§4.4).  Returns the
 * kept process entries; the discarded attempts are appended to retries. */
static json_t *run_processes(struct engine *e, const struct unit *u, int *disturbed,
			     json_t *retries)
{
	const struct plan *pl = &u->plan;
	json_t *kept = json_array();
	/* A calibration process has the fixed seed and one cold call: not a
	 * trial of R1 or R17. */
	if (pl->reused_calibration && u->calib_process && !e->o.seed_per_trial &&
	    !e->o.planning.warm_calibration) {
		json_array_append_new(kept, json_deep_copy(u->calib_process));
		return kept;
	}
	int per_process = pl->separate_processes ? 1 : pl->trials;
	int nproc = pl->separate_processes ? pl->trials : 1;
	int max_attempts = 1 + e->o.planning.max_disturbed_retries;
	struct disturb_rule rule = disturb_rule(e);
	for (int p = 0; p < nproc; p++) {
		for (int a = 1;; a++) {
			/* R1: trial p of its own process, or trials 0.. of one */
			e->trial_seed_next = e->o.seed_per_trial ? 1 + (pl->separate_processes ? p : 0) : 0;
			json_t *proc = engine_run_driver(e, u, per_process, pl->iterations_per_trial,
							 pl->warmups, pl->timeout_per_process_s, a);
			e->trial_seed_next = 0;
			if (strcmp(record_process_status(proc), ST_COMPLETE)) {
				json_array_append_new(kept, proc);
				return kept; /* a non-complete process abandons the rest */
			}
			json_t *why = record_disturbed_reasons(proc, &rule);
			json_object_set_new(proc, "disturbed_reasons", why);
			if (!json_array_size(why) || a >= max_attempts) {
				json_array_append_new(kept, proc);
				break;
			}
			keep_disturbed(e, u, proc, p, a, retries);
			json_decref(proc);
			(*disturbed)++;
		}
	}
	return kept;
}

/* The rates the disturbed rule allowed for, as the record states them. */
static json_t *background_used(const struct engine *e)
{
	if (!e->have_background)
		return json_null();
	return json_pack("{sisssfsf}", "cpu", e->background.cpu, "utc", e->background.utc,
			 "invol_switches_per_s", e->background.invol_per_s_max,
			 "migrations_per_s", e->background.migrations_per_s_max);
}

static json_t *unit_record(struct engine *e, const struct unit *u, json_t *processes,
			   int disturbed, json_t *retries, const char *started, const char *ended,
			   json_t *load_start, json_t *load_end)
{
	cpu_set_t busy;
	cpus_busy(&busy);
	CPU_SET(e->cpu, &busy);
	json_t *concurrent = cpus_json(&busy), *bg = background_used(e);
	const json_t *in = u->inst;
	struct record_input ri = {
		.candidate = u->cand,
		.label = u->label,
		.instance = jget_str(in, "instance", NULL),
		.variant = jget_str(in, "variant", NULL),
		.flags = jget_str(in, "flags", NULL),
		.op = u->op,
		.plan = u->calibrated ? &u->plan : NULL,
		.seed_mode = SEED_MODE(e),
		.seed_hex = SEED_HEX_FIXED,
		.input_mode = INPUT_MODE,
		.kat = jget_str(in, "kat", NULL),
		.kat_not_passed = strcmp(jget_str(in, "kat", ""), "PASS") != 0,
		.library = u->library,
		.library_sha256 = u->library_sha256,
		.kat_log = jget_str(in, "kat_log", NULL),
		.kat_log_sha256 = jget_str(in, "kat_log_sha256", NULL),
		.host = e->host_state,
		.started_utc = started,
		.ended_utc = ended,
		.load_average_start = load_start,
		.load_average_end = load_end,
		.environment = e->env,
		.cpu = e->cpu,
		.processes = processes,
		.disturbed_retries = disturbed,
		.retries = retries,
		.background = bg,
		.concurrent_cpus = concurrent,
		.detail = u->calib_error,
	};
	json_t *rec = record_build(&ri);
	json_decref(concurrent);
	json_decref(bg);
	return rec;
}

/* 1 complete, 0 not complete, -1 refused (R10) or not written, -2
 * interrupted (nothing written: the unit is measured again on resume). */
static int measure_unit(struct engine *e, const struct unit *u)
{
	char started[32], ended[32];
	int disturbed = 0;
	json_t *retries = json_array();
	utc_now_iso(started);
	json_t *load_start = record_load_average();
	json_t *processes;
	if (u->calibrated) {
		processes = run_processes(e, u, &disturbed, retries);
	} else {
		processes = json_array();
		if (u->calib_process)
			json_array_append(processes, u->calib_process);
	}
	utc_now_iso(ended);
	if (interrupt_pending()) {
		json_decref(processes);
		json_decref(retries);
		json_decref(load_start);
		return -2;
	}
	json_t *load_end = record_load_average();
	int rc = -1;
	if (!engine_env_still_equal(e)) {
		json_t *rec = unit_record(e, u, processes, disturbed, retries, started, ended,
					  load_start, load_end);
		char *path = rundir_unit_path(e->run, "records", u->cand, u->stem);
		char *dir = path_dirname(path);
		if (mkdir_p(dir, 0755) || evidence_write(path, rec)) {
			ngcc_error("cannot write %s: %s", path, strerror(errno));
		} else {
			rc = !strcmp(jget_str(rec, "status", ""), ST_COMPLETE);
			if (!rc) {
				/* the detail may quote what the candidate's process said */
				char *d = str_printable(jget_str(rec, "status_detail", ""), 300);
				fprintf(stderr, "%s %s %s: %s: %s\n", u->cand, u->label, u->op,
					jget_str(rec, "status", "?"), d);
				free(d);
			}
		}
		free(dir);
		free(path);
		json_decref(rec);
	}
	json_decref(processes);
	json_decref(retries);
	json_decref(load_start);
	json_decref(load_end);
	return rc;
}

/* ---- the phase ----------------------------------------------------------------------- */

static double total_estimate(const struct measure_state *m)
{
	double s = 0;
	for (size_t i = 0; i < m->e->n_units; i++)
		if (m->todo[i] == TODO_RUN && m->e->units[i].calibrated)
			s += m->e->units[i].plan.estimated_s;
	return s;
}

static int anything_to_run(const struct measure_state *m)
{
	for (size_t i = 0; i < m->e->n_units; i++)
		if (m->todo[i] == TODO_RUN && m->e->units[i].calibrated)
			return 1;
	return 0;
}

static int run_all(struct measure_state *m)
{
	struct engine *e = m->e;
	int n = 0, k = 0;
	for (size_t i = 0; i < e->n_units; i++)
		n += m->todo[i] == TODO_RUN;
	progress_init(&e->progress, e->o.tty, e->phase, n, total_estimate(m));
	for (size_t j = 0; j < e->n_units; j++) {
		size_t i = m->order[j];
		struct unit *u = &e->units[i];
		if (m->todo[i] == TODO_SKIP) {
			m->t.kept++;
			continue;
		}
		if (m->todo[i] == TODO_GIVEN_UP) {
			m->t.failed++;
			continue;
		}
		if (interrupt_pending()) {
			m->t.left++;
			continue;
		}
		/* Shards start and end: keep off every CPU measuring now. */
		cpus_pin_housekeeping(e->cpu);
		progress_unit(&e->progress, ++k, u->cand, u->label, u->op);
		int rc = measure_unit(e, u);
		progress_done(&e->progress, u->calibrated ? u->plan.estimated_s : 0);
		if (rc == -2) {
			tally_cut(&m->t, u);
			m->t.left++;
		} else if (rc < 0) {
			progress_clear(&e->progress);
			return -1;
		} else if (rc) {
			m->t.made++;
		} else {
			m->t.failed++;
		}
	}
	progress_clear(&e->progress);
	return 0;
}

int engine_measure(struct engine *e)
{
	struct measure_state m = { e, NULL, NULL, { 0 } };
	size_t n = e->n_units ? e->n_units : 1;
	m.order = xcalloc(n, sizeof *m.order);
	m.todo = xcalloc(n, sizeof *m.todo);
	int rc = EXIT_OK;
	/* R1: trial t's seed ends in 0x30 + t, which must fit in a byte */
	if (e->o.seed_per_trial && e->o.planning.trials > SEED_INDEX_MAX + 1) {
		ngcc_error("--seed-mode per-trial seeds at most %d trials (the last seed byte is "
			   "0x30 + the trial number); use --trials %d or fewer", SEED_INDEX_MAX + 1,
			   SEED_INDEX_MAX + 1);
		rc = EXIT_USAGE;
		goto out;
	}
	if (refuse_stale_libraries(e)) {
		rc = EXIT_USAGE;
		goto out;
	}
	engine_calibrate(e, NULL);
	plan_units(e, m.order);
	if (classify_all(&m) || (anything_to_run(&m) && engine_background(e)) || run_all(&m))
		rc = EXIT_USAGE;
	else if (m.t.failed)
		rc = EXIT_FAILED;
	rc = engine_summary(e, &m.t, "record", "measured", rc);
	if (rc == EXIT_OK || rc == EXIT_FAILED) {
		int prc = pool_in_measure(e);
		rc = prc > rc ? prc : rc;
	}
out:
	free(m.order);
	free(m.todo);
	return rc;
}
int measure_phase(struct engine_opts *o, int not_timed_fails)
{
	struct engine e;
	int rc = engine_begin(&e, o, "measure");
	/* The memory pass runs on the same benchmark CPU, now off our
	 * affinity. */
	if (o->cpu < 0)
		o->cpu = e.cpu;
	if (rc == EXIT_OK) {
		rc = engine_measure(&e);
		/* a variant this host cannot run does not fail the campaign */
		if (rc == EXIT_OK && not_timed_fails && e.not_timed.n > e.not_timed_cpu)
			rc = EXIT_FAILED;
		engine_end(&e, rc);
		/* the table of what the run has, of the selection resolved above */
		if (rc == EXIT_OK || rc == EXIT_FAILED)
			results_print_selected(&e.sel, e.run, stdout);
	}
	engine_free(&e);
	return rc;
}


int measure_command(struct engine_opts *o, int memory_pass)
{
	struct env_carry carry = { NULL, -1, 0 };
	o->carry = &carry;
	int rc = measure_phase(o, 0);
	/* The pass takes the run and CPU locks again itself. */
	if (rc == EXIT_OK || rc == EXIT_FAILED) {
		rc = sampling_after_measure(o, rc);
		memory_record_option(o, memory_pass);
		int mrc = memory_pass ? memory_phase(o) : EXIT_OK;
		if (mrc > rc)
			rc = mrc;
		pool_record_options(o);
	}
	o->carry = NULL;
	env_carry_free(&carry);
	return rc;
}
