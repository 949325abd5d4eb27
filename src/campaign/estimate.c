/* estimate.c — see estimate.h: the cost model behind `ngcc-perf plan`. */
#include "campaign/estimate.h"
#include "campaign/memory.h"
#include "campaign/pool.h"
#include "campaign/sampling.h"
#include "method/sampling.h"
#include "campaign/profile.h"
#include "method/shard.h"
#include "evidence/json.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_KIND "plan"
#define PLAN_VERSION 1

void est_model_defaults(struct est_model *m)
{
	/* Measured on the quiet 2-core VM (make bench, the example KEM's
	 * short campaign): the orchestrator's record write and environment
	 * check per unit; a phase's host check, environment capture and
	 * campaign.json updates (~1 s between one phase's last unit and the
	 * next phase's first); the profile relink (~0.5 s); a memory-pass call
	 * with its stack painting and scan (~10 ms since the scan skips
	 * untouched blocks).  A loaded host takes longer. */
	m->unit_overhead_s = 0.05;
	m->phase_overhead_s = 1.0;
	m->background_s = 1.1;
	m->profile_tick_s = 0.1;
	m->profile_instance_s = 0.5;
	m->memory_call_s = 0.01;
	m->memory_pass = 1;
	m->profile = 1;
	m->input_pool = ENGINE_INPUT_POOL_DEFAULT;
	/* R11 is on by default; its batch depends on the counter's bracket,
	 * about 20 ns with the fenced TSC (make bench), unknown before a run. */
	m->sampling = 1;
	m->bracket_ns = 20;
}

void est_init(struct estimate *est, const struct planning *p, const struct est_model *m)
{
	memset(est, 0, sizeof *est);
	est->planning = *p;
	est->model = *m;
}

struct est_unit *est_add_unit(struct estimate *est, const char *cand, const char *label,
			      const char *op, enum est_source source, double t1_s, double setup_s)
{
	est->units = xrealloc(est->units, (est->n_units + 1) * sizeof *est->units);
	struct est_unit *u = &est->units[est->n_units++];
	memset(u, 0, sizeof *u);
	u->cand = xstrdup(cand);
	u->label = xstrdup(label);
	u->op = xstrdup(op);
	u->source = source;
	u->t1_s = t1_s;
	u->setup_s = setup_s;
	u->need_calibrate = u->need_measure = u->need_memory = u->need_profile = 1;
	return u;
}

/* ---- per unit ------------------------------------------------------------- */

/* R2: the pool pass measure runs after the records of operations under
 * 10 ms (campaign/pool.h): a process, P inputs' warm-up and rounds. */
static double pool_cost(const struct estimate *est, double t1, double S)
{
	long P = est->model.input_pool;
	if (P <= 0 || !(t1 < POOL_MAX_T1_S))
		return 0;
	long calls = pool_calls_per_batch(&est->planning, t1);
	return S + (double)P * ((double)POOL_ROUNDS * (double)calls + POOL_WARMUPS) * t1 +
	       est->model.unit_overhead_s;
}

/* R11: the sampling pass after measure, for operations under 10 ms: a
 * process, one warm-up and the samples, each a batch of calls whose bracket
 * costs at most 1 % of it (method/sampling.h). */
static double sampling_cost(const struct estimate *est, double t1, double S)
{
	if (!est->model.sampling || !sampling_wanted(t1, t1))
		return 0;
	long batch = sampling_batch(est->model.bracket_ns, t1 * 1e9, 0);
	double samples = (double)sampling_samples_per_operation();
	return S + (samples * (double)batch + 1) * t1 + est->model.unit_overhead_s;
}

static void unit_costs(const struct estimate *est, struct est_unit *u)
{
	const struct est_model *m = &est->model;
	double t1 = u->t1_s, S = u->setup_s;
	u->calibrate_s = u->measure_s = u->memory_s = u->profile_s = 0;
	if (u->source == EST_UNKNOWN) {
		u->total_s = 0;
		return;
	}
	plan_compute(&est->planning, t1, S, &u->plan);
	if (u->need_calibrate)
		u->calibrate_s = t1 + S + m->unit_overhead_s;
	if (u->need_measure)
		u->measure_s = (u->plan.reused_calibration ? 0 : u->plan.estimated_s) + m->unit_overhead_s +
			       pool_cost(est, t1, S) + sampling_cost(est, t1, S);
	if (u->need_memory && m->memory_pass)
		u->memory_s = S + (double)(memory_calls(t1) + 1) * (2 * t1 + m->memory_call_s) +
			      m->unit_overhead_s;
	if (u->need_profile && m->profile)
		u->profile_s = S + (double)(profile_iterations(t1, est->planning.trial_target_s) +
				       profile_warmups(t1)) * t1 +
			       m->profile_tick_s + m->unit_overhead_s;
	u->total_s = u->calibrate_s + u->measure_s + u->memory_s + u->profile_s;
}

/* ---- per instance ------------------------------------------------------------ */

static struct est_instance *instance_for(struct estimate *est, const char *key)
{
	for (size_t i = 0; i < est->n_instances; i++)
		if (!strcmp(est->instances[i].key, key))
			return &est->instances[i];
	est->instances = xrealloc(est->instances, (est->n_instances + 1) * sizeof *est->instances);
	struct est_instance *in = &est->instances[est->n_instances++];
	memset(in, 0, sizeof *in);
	in->key = xstrdup(key);
	return in;
}

static void sum_instances(struct estimate *est, const regex_t *defer)
{
	for (size_t i = 0; i < est->n_units; i++) {
		const struct est_unit *u = &est->units[i];
		char *key = xasprintf("%s/%s", u->cand, u->label);
		struct est_instance *in = instance_for(est, key);
		free(key);
		in->total_s += u->total_s;
		in->unknown |= u->source == EST_UNKNOWN;
		/* one instrumented relink per instance with a profile to make */
		if (u->profile_s > 0 && !in->relinked) {
			in->relinked = 1;
			in->total_s += est->model.profile_instance_s;
		}
	}
	for (size_t i = 0; i < est->n_instances; i++) {
		struct est_instance *in = &est->instances[i];
		if (in->unknown)
			in->total_s += SHARD_UNKNOWN_COST_S;
		in->deferred = defer && !regexec(defer, in->key, 0, NULL, 0);
	}
}

/* ---- on k CPUs ----------------------------------------------------------------- */

/* The fixed costs of a worker: each phase with work left (a finished run
 * has none, and a plan over it costs nothing), and the background probe
 * of the measure phase. */
static double per_worker_overhead(const struct estimate *est)
{
	const struct est_model *m = &est->model;
	int phases = est->work_measure + est->work_memory + est->work_profile;
	return phases * m->phase_overhead_s + (est->work_measure ? m->background_s : 0);
}

/* The phases a worker runs: measure (with its calibrations), memory,
 * profile; each only when one of its units has work left. */
static void find_work(struct estimate *est)
{
	est->work_measure = est->work_memory = est->work_profile = 0;
	for (size_t i = 0; i < est->n_units; i++) {
		const struct est_unit *u = &est->units[i];
		int unknown = u->source == EST_UNKNOWN;
		est->work_measure |= unknown || u->calibrate_s > 0 || u->measure_s > 0;
		est->work_memory |= (unknown && est->model.memory_pass) || u->memory_s > 0;
		est->work_profile |= (unknown && est->model.profile) || u->profile_s > 0;
	}
}

/* The longest shard when the non-deferred instances are split over k. */
static double wall_on(const struct estimate *est, int k)
{
	const char **keys = xcalloc(est->n_instances + 1, sizeof *keys);
	double *costs = xcalloc(est->n_instances + 1, sizeof *costs);
	size_t n = 0;
	for (size_t i = 0; i < est->n_instances; i++) {
		if (est->instances[i].deferred)
			continue;
		keys[n] = est->instances[i].key;
		costs[n++] = est->instances[i].total_s;
	}
	struct shard_assignment a;
	shard_assign(keys, costs, n, k, NULL, &a);
	double worst = 0;
	for (int s = 1; s <= k; s++)
		if (a.load_s[s] > worst)
			worst = a.load_s[s];
	shard_assignment_free(&a);
	free(keys);
	free(costs);
	return n ? worst + per_worker_overhead(est) : 0;
}

static int by_total_desc(const void *a, const void *b)
{
	const struct est_instance *x = *(const struct est_instance *const *)a;
	const struct est_instance *y = *(const struct est_instance *const *)b;
	if (x->total_s != y->total_s)
		return x->total_s > y->total_s ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* Instances longer than the balanced share of max_cpus CPUs: alone they
 * keep a shard busy beyond the others, so --defer is worth considering. */
static void find_dominating(struct estimate *est)
{
	double sum = 0;
	for (size_t i = 0; i < est->n_instances; i++)
		if (!est->instances[i].deferred)
			sum += est->instances[i].total_s;
	double share = sum / est->max_cpus;
	const struct est_instance **sorted = xcalloc(est->n_instances + 1, sizeof *sorted);
	for (size_t i = 0; i < est->n_instances; i++)
		sorted[i] = &est->instances[i];
	qsort(sorted, est->n_instances, sizeof *sorted, by_total_desc);
	for (size_t i = 0; i < est->n_instances && est->max_cpus > 1; i++) {
		if (sorted[i]->deferred || !(sorted[i]->total_s > share))
			continue;
		est->dominating = xrealloc(est->dominating, (est->n_dominating + 1) * sizeof *est->dominating);
		est->dominating[est->n_dominating++] = xstrdup(sorted[i]->key);
	}
	free(sorted);
}

void est_compute(struct estimate *est, int max_cpus, const regex_t *defer)
{
	est->max_cpus = max_cpus < 1 ? 1 : max_cpus;
	for (size_t i = 0; i < est->n_units; i++)
		unit_costs(est, &est->units[i]);
	sum_instances(est, defer);
	find_work(est);
	est->wall_s = xcalloc((size_t)est->max_cpus + 1, sizeof *est->wall_s);
	for (int k = 1; k <= est->max_cpus; k++)
		est->wall_s[k] = wall_on(est, k);
	est->deferred_s = 0;
	for (size_t i = 0; i < est->n_instances; i++)
		if (est->instances[i].deferred)
			est->deferred_s += est->instances[i].total_s;
	if (est->deferred_s > 0)
		est->deferred_s += per_worker_overhead(est);
	find_dominating(est);
}

void est_free(struct estimate *est)
{
	for (size_t i = 0; i < est->n_units; i++) {
		free(est->units[i].cand);
		free(est->units[i].label);
		free(est->units[i].op);
	}
	for (size_t i = 0; i < est->n_instances; i++)
		free(est->instances[i].key);
	for (size_t i = 0; i < est->n_dominating; i++)
		free(est->dominating[i]);
	free(est->units);
	free(est->instances);
	free(est->wall_s);
	free(est->dominating);
	memset(est, 0, sizeof *est);
}

/* ---- output --------------------------------------------------------------------- */

static const char *source_name(enum est_source s)
{
	switch (s) {
	case EST_CALIBRATION:
		return "calibration";
	case EST_PRIOR:
		return "prior";
	default:
		return "unknown";
	}
}

static json_t *unit_json(const struct est_unit *u)
{
	int known = u->source != EST_UNKNOWN;
	json_t *j = json_object();
	json_object_set_new(j, "candidate", json_string(u->cand));
	json_object_set_new(j, "label", json_string(u->label));
	json_object_set_new(j, "operation", json_string(u->op));
	json_object_set_new(j, "source", json_string(source_name(u->source)));
	json_object_set_new(j, "t1_s", known ? json_real(u->t1_s) : json_null());
	json_object_set_new(j, "setup_s", known ? json_real(u->setup_s) : json_null());
	json_object_set_new(j, "trials", known ? json_integer(u->plan.trials) : json_null());
	json_object_set_new(j, "iterations_per_trial",
			    known ? json_integer(u->plan.iterations_per_trial) : json_null());
	json_object_set_new(j, "processes", known ? json_integer(u->plan.processes) : json_null());
	json_object_set_new(j, "calibrate_s", json_real(u->calibrate_s));
	json_object_set_new(j, "measure_s", json_real(u->measure_s));
	json_object_set_new(j, "memory_s", json_real(u->memory_s));
	json_object_set_new(j, "profile_s", json_real(u->profile_s));
	json_object_set_new(j, "total_s", known ? json_real(u->total_s) : json_null());
	return j;
}

static json_t *model_json(const struct est_model *m)
{
	json_t *j = json_pack("{sfsfsfsfsfsfsbsbsfss}", "unit_overhead_s", m->unit_overhead_s,
			 "phase_overhead_s", m->phase_overhead_s, "background_s", m->background_s,
			 "profile_tick_s", m->profile_tick_s, "profile_instance_s", m->profile_instance_s,
			 "memory_call_s", m->memory_call_s, "memory_pass", m->memory_pass,
			 "profile", m->profile, "unknown_instance_s", SHARD_UNKNOWN_COST_S,
			 "retries", "none counted");
	/* R2 */
	json_object_set_new(j, "input_pool", json_integer(m->input_pool));
	/* R11 */
	json_object_set_new(j, "sampling", json_boolean(m->sampling));
	json_object_set_new(j, "bracket_ns", json_real(m->bracket_ns));
	return j;
}

json_t *est_json(const struct estimate *est)
{
	json_t *j = json_object(), *units = json_array(), *inst = json_array(), *walls = json_array();
	json_t *dom = json_array();
	json_object_set_new(j, "schema", evidence_schema(PLAN_KIND, PLAN_VERSION));
	json_object_set_new(j, "planning", json_pack("{sisfsisisf}", "trials", est->planning.trials,
						     "trial_target_s", est->planning.trial_target_s,
						     "min_total", est->planning.min_total,
						     "max_iters_per_trial", est->planning.max_iters_per_trial,
						     "op_budget_s", est->planning.op_budget_s));
	json_object_set_new(j, "model", model_json(&est->model));
	for (size_t i = 0; i < est->n_units; i++)
		json_array_append_new(units, unit_json(&est->units[i]));
	for (size_t i = 0; i < est->n_instances; i++) {
		const struct est_instance *in = &est->instances[i];
		json_array_append_new(inst, json_pack("{sssfsbsb}", "key", in->key, "total_s", in->total_s,
						      "unknown", in->unknown, "deferred", in->deferred));
	}
	for (int k = 1; k <= est->max_cpus; k++)
		json_array_append_new(walls, json_pack("{sisf}", "cpus", k, "wall_s", est->wall_s[k]));
	for (size_t i = 0; i < est->n_dominating; i++)
		json_array_append_new(dom, json_string(est->dominating[i]));
	json_object_set_new(j, "units", units);
	json_object_set_new(j, "instances", inst);
	json_object_set_new(j, "wall_s", walls);
	json_object_set_new(j, "deferred_wall_s", json_real(est->deferred_s));
	json_object_set_new(j, "dominating", dom);
	return j;
}

/* "850 ms", "42.0 s", "12.5 min", "3.20 h" */
static void fmt_duration(char *buf, size_t n, double s)
{
	if (s < 1)
		snprintf(buf, n, "%.0f ms", s * 1e3);
	else if (s < 120)
		snprintf(buf, n, "%.1f s", s);
	else if (s < 7200)
		snprintf(buf, n, "%.1f min", s / 60);
	else
		snprintf(buf, n, "%.2f h", s / 3600);
}

static void fmt_t1(char *buf, size_t n, const struct est_unit *u)
{
	if (u->source == EST_UNKNOWN)
		snprintf(buf, n, "?");
	else if (u->t1_s < 1e-3)
		snprintf(buf, n, "%.1f us", u->t1_s * 1e6);
	else if (u->t1_s < 1)
		snprintf(buf, n, "%.2f ms", u->t1_s * 1e3);
	else
		snprintf(buf, n, "%.2f s", u->t1_s);
}

static int unit_by_total_desc(const void *a, const void *b)
{
	const struct est_unit *x = *(const struct est_unit *const *)a;
	const struct est_unit *y = *(const struct est_unit *const *)b;
	if (x->total_s != y->total_s)
		return x->total_s > y->total_s ? -1 : 1;
	int c = strcmp(x->cand, y->cand);
	c = c ? c : strcmp(x->label, y->label);
	return c ? c : strcmp(x->op, y->op);
}

static void print_units(const struct estimate *est, FILE *out, size_t top)
{
	const struct est_unit **sorted = xcalloc(est->n_units + 1, sizeof *sorted);
	for (size_t i = 0; i < est->n_units; i++)
		sorted[i] = &est->units[i];
	qsort(sorted, est->n_units, sizeof *sorted, unit_by_total_desc);
	size_t n = top < est->n_units ? top : est->n_units;
	fprintf(out, "\nthe %zu most expensive operations:\n", n);
	fprintf(out, "  %-40s %-11s %10s %18s %10s\n", "instance operation", "source", "t1",
		"n (trials x iters)", "total");
	for (size_t i = 0; i < n; i++) {
		const struct est_unit *u = sorted[i];
		char name[256], t1[32], nt[48], tot[32];
		snprintf(name, sizeof name, "%s/%s %s", u->cand, u->label, u->op);
		fmt_t1(t1, sizeof t1, u);
		if (u->source == EST_UNKNOWN)
			snprintf(nt, sizeof nt, "?");
		else
			snprintf(nt, sizeof nt, "%d x %ld", u->plan.trials, u->plan.iterations_per_trial);
		fmt_duration(tot, sizeof tot, u->total_s);
		fprintf(out, "  %-40s %-11s %10s %18s %10s\n", name, source_name(u->source), t1, nt,
			u->source == EST_UNKNOWN ? "?" : u->total_s > 0 ? tot : "done");
	}
	free(sorted);
}

static void print_instances(const struct estimate *est, FILE *out)
{
	const struct est_instance **sorted = xcalloc(est->n_instances + 1, sizeof *sorted);
	for (size_t i = 0; i < est->n_instances; i++)
		sorted[i] = &est->instances[i];
	qsort(sorted, est->n_instances, sizeof *sorted, by_total_desc);
	fprintf(out, "\nper instance (all operations and passes):\n");
	for (size_t i = 0; i < est->n_instances; i++) {
		char tot[32];
		fmt_duration(tot, sizeof tot, sorted[i]->total_s);
		fprintf(out, "  %-40s %10s%s%s\n", sorted[i]->key,
			sorted[i]->total_s > 0 || sorted[i]->unknown ? tot : "done",
			sorted[i]->unknown ? "  (no figures: counted as 60 s)" : "",
			sorted[i]->deferred ? "  deferred" : "");
	}
	free(sorted);
}

void est_print(const struct estimate *est, FILE *out, size_t top)
{
	size_t n_src[3] = { 0, 0, 0 };
	for (size_t i = 0; i < est->n_units; i++)
		n_src[est->units[i].source]++;
	fprintf(out, "plan: %zu instance(s), %zu operation(s); t1 and S from %zu calibration(s), "
		"%zu prior record(s), %zu unknown\n", est->n_instances, est->n_units,
		n_src[EST_CALIBRATION], n_src[EST_PRIOR], n_src[EST_UNKNOWN]);
	fprintf(out, "planning: %d trials, trial target %g s, op budget %g s; passes: measure%s%s\n",
		est->planning.trials, est->planning.trial_target_s, est->planning.op_budget_s,
		est->model.memory_pass ? ", memory" : "", est->model.profile ? ", profile" : "");
	print_instances(est, out);
	print_units(est, out, top);
	fprintf(out, "\nestimated wall time of the measuring phases (build and KAT not included):\n");
	for (int k = 1; k <= est->max_cpus; k++) {
		char w[32];
		fmt_duration(w, sizeof w, est->wall_s[k]);
		fprintf(out, "  %3d benchmark CPU(s): %s\n", k, w);
	}
	if (est->deferred_s > 0) {
		char w[32];
		fmt_duration(w, sizeof w, est->deferred_s);
		fprintf(out, "  deferred worker (its own CPU): %s\n", w);
	}
	if (!est->work_measure && !est->work_memory && !est->work_profile)
		fprintf(out, "  nothing is left: the run holds every calibration, record, memory "
			"record and profile of these passes\n");
	if (est->n_dominating) {
		fprintf(out, "\non %d CPUs these instances alone exceed the balanced share; "
			"consider --defer for them:\n", est->max_cpus);
		for (size_t i = 0; i < est->n_dominating; i++)
			fprintf(out, "  %s\n", est->dominating[i]);
	}
	fprintf(out, "\nmodel: per unit and pass %.2f s of bookkeeping, per phase %.1f s, "
		"background probe %.1f s per worker; disturbed retries not counted\n",
		est->model.unit_overhead_s, est->model.phase_overhead_s, est->model.background_s);
}
