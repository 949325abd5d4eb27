/*
 * page_method.c — the method page <SYS>/method.md (docs/report-format.md §7),
 * generated from the run's own planning constants, options, counter and
 * host state, with the limitations of docs/method.md §15.
 */
#include "report/pages.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/json.h"
#include "evidence/pool_json.h"
#include "host/counter_unit.h"
#include "host/env.h"
#include "method/format.h"
#include "model/baseline_view.h"

#define DASH FMT_DASH

struct run_facts {
	size_t records;
	long long cpus[64];
	size_t ncpus;
	long long retries;
	const json_t *counter;     /* of the first complete record */
	int kex, sign, hash;       /* candidate types present */
	size_t profiles;           /* complete profile records */
	const char *tick_source;   /* of the first complete profile */
	size_t memory, samples, pool;  /* extension records by kind */
	size_t pool_flagged;       /* pool records flagged input-dependent (R2) */
	long long pool_min, pool_max;  /* their pool sizes */
	size_t seeded_records;     /* records with per-trial seeds (R1) */
	long long max_trial_seed;  /* the highest trial number seeded (R1) */
	long long samples_min, samples_max;  /* plan.samples of the sample records */
	size_t baseline;           /* timing records of candidate `iccs` */
};

static void add_cpu(struct run_facts *f, long long cpu)
{
	for (size_t i = 0; i < f->ncpus; i++)
		if (f->cpus[i] == cpu)
			return;
	if (f->ncpus < 64)
		f->cpus[f->ncpus++] = cpu;
	for (size_t b = f->ncpus - 1; b > 0 && f->cpus[b - 1] > f->cpus[b]; b--) {
		long long t = f->cpus[b];
		f->cpus[b] = f->cpus[b - 1];
		f->cpus[b - 1] = t;
	}
}

/* The least and most samples per operation the sample records planned. */
static void samples_planned(struct run_facts *f, const json_t *rec)
{
	long long n = jget_int(json_object_get(rec, "plan"), "samples", 0);
	if (n > 0 && (!f->samples_min || n < f->samples_min))
		f->samples_min = n;
	if (n > f->samples_max)
		f->samples_max = n;
}

/* Profile and extension records: what the passes beyond timing left. */
static void gather_extras(const struct ds_instance *in, struct run_facts *f)
{
	for (size_t p = 0; p < in->n_prof; p++) {
		if (!ds_profile_complete(&in->prof[p]))
			continue;
		f->profiles++;
		if (!f->tick_source)
			f->tick_source = jget_str(json_object_get(in->prof[p].j, "meta"),
						  "tick_source", NULL);
	}
	for (size_t x = 0; x < in->n_extra; x++) {
		const char *item = in->extra_item[x];
		f->memory += !strncmp(item, "memory ", 7);
		f->samples += !strncmp(item, "samples ", 8);
		if (!strncmp(item, "samples ", 8))
			samples_planned(f, in->extra_json[x]);
		f->pool += !strncmp(item, "pool ", 5);
		if (strncmp(item, "pool ", 5) || !in->extra_json[x])
			continue;
		f->pool_flagged += jget_bool(in->extra_json[x], "input_dependent", 0);
		long long size = jget_int(json_object_get(in->extra_json[x], "plan"), "pool_size", 0);
		if (!f->pool_min || size < f->pool_min)
			f->pool_min = size;
		if (size > f->pool_max)
			f->pool_max = size;
	}
	for (size_t r = 0; r < in->n_rec; r++) {
		size_t n = json_array_size(json_object_get(json_object_get(in->rec[r].j, "seed"),
							   "trials_hex"));
		f->seeded_records += n > 0;
		if (n && (long long)n - 1 > f->max_trial_seed)
			f->max_trial_seed = (long long)n - 1;
	}
}

static void gather(const struct dataset *ds, struct run_facts *f)
{
	memset(f, 0, sizeof *f);
	for (size_t i = 0; i < ds->n_cand; i++) {
		const struct ds_candidate *c = &ds->cand[i];
		f->kex |= !strcmp(c->type, "kex");
		f->sign |= !strcmp(c->type, "sign");
		f->hash |= !strcmp(c->type, "hash");
		for (size_t k = 0; k < c->n_inst; k++) {
			gather_extras(&c->inst[k], f);
			if (ds_is_baseline(c))
				f->baseline += c->inst[k].n_rec;
			for (size_t r = 0; r < c->inst[k].n_rec; r++) {
				const json_t *j = c->inst[k].rec[r].j;
				f->records++;
				f->retries += jget_int(j, "disturbed_retries", 0);
				add_cpu(f, jget_int(json_object_get(j, "environment"), "cpu_number",
						    jget_int(j, "cpu", 0)));
				if (!f->counter && ds_record_complete(&c->inst[k].rec[r]))
					f->counter = json_object_get(j, "counter");
			}
		}
	}
}

static char *cpu_list(const struct run_facts *f)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < f->ncpus; i++)
		sb_addf(&sb, "%s%lld", i ? ", " : "", f->cpus[i]);
	if (!sb.len)
		sb_adds(&sb, DASH);
	return sb_detach(&sb);
}

/* A JSON array of strings (or a string) as one code span each, joined by
 * spaces inside a single span. */
static char *flags_text(const json_t *v)
{
	struct strbuf sb = STRBUF_INIT;
	if (json_is_string(v))
		sb_adds(&sb, json_string_value(v));
	size_t i;
	json_t *x;
	json_array_foreach(v, i, x)
		if (json_is_string(x))
			sb_addf(&sb, "%s%s", sb.len ? " " : "", json_string_value(x));
	if (!sb.len) {
		sb_free(&sb);
		return xstrdup(DASH);
	}
	char *s = md_code(sb.buf);
	sb_free(&sb);
	return s;
}

static const char *num(char *buf, const json_t *pl, const char *key, double def)
{
	const json_t *v = json_object_get(pl, key);
	snprintf(buf, FMT_MAX, "%g", json_is_number(v) ? json_number_value(v) : def);
	return buf;
}

/* The planning and retry bullets, with the run's own constants; a run
 * that planned nothing says so instead of quoting defaults. */
static void planning(struct md_page *md, const json_t *pl, const struct run_facts *f)
{
	char a[FMT_MAX], b[FMT_MAX], c[FMT_MAX], d[FMT_MAX], e[FMT_MAX], g[FMT_MAX];
	if (!json_is_object(pl)) {
		md_linef(md, "- No operation was planned in this run, so no planning constants "
			 "apply.");
		return;
	}
	const json_t *bud = json_object_get(pl, "op_budget_s");
	char budget[FMT_MAX];
	fmt_duration_words(budget, json_is_number(bud) ? json_number_value(bud) : 900);
	double target = jget_real(pl, "trial_target_s", 1.0);
	char tt[FMT_MAX];
	/* `1.0 s` as in the method text; finer targets keep their digits */
	snprintf(tt, sizeof tt, fabs(target * 10 - round(target * 10)) < 1e-9 ? "%.1f" : "%g", target);
	md_linef(md, "- One cold calibration call per operation, then %s trials, normally one "
		 "process each (one shared process when setup exceeds %s s), with a fixed number of "
		 "calls per trial aimed at %s s and at least %s calls in total, capped at %s calls "
		 "per trial and %s per operation, but never below one call per trial.",
		 num(a, pl, "trials", 5), num(b, pl, "separate_process_setup_s", 60), tt,
		 num(c, pl, "min_total", 100), num(d, pl, "max_iters_per_trial", 20000), budget);
	md_linef(md, "- A process is disturbed when a trial runs below 0.95 \xc3\x97 the reference "
		 "clock (hardware counter only%s), has more than %s involuntary context switches or "
		 "migrates; it is rerun up to %s times and the last attempt is kept. This run "
		 "retried %lld process(es).", f->kex ? "; single key-exchange steps exempt" : "",
		 num(e, pl, "max_invol_switches_per_trial", 0),
		 num(g, pl, "max_disturbed_retries", 3), f->retries);
}

/* R1, R2 and R17 (docs/method.md §14), as far as the run's options and
 * records show them. */
static void pool_and_seed_lines(struct md_page *md, const json_t *opt, const struct run_facts *f)
{
	char sizes[64];
	if (f->pool_min == f->pool_max)
		snprintf(sizes, sizeof sizes, "%lld", f->pool_max);
	else
		snprintf(sizes, sizeof sizes, "%lld to %lld", f->pool_min, f->pool_max);
	if (f->pool)
		md_linef(md, "- An input-pool pass (R2) left %zu pool record(s): each operation "
			 "under 10 ms was timed again on %s inputs, input k made from the DRNG "
			 "seed 00..2e, 0x30 + k (and, for signatures and hashes, its own message), in "
			 "5 rounds of one batch per input, a batch preempted by the scheduler timed "
			 "again. Each input's median time per call is kept; an operation is flagged "
			 "\"input-dependent timing\" when its slowest input's median exceeds %.2g "
			 "times its fastest's, a margin chosen above the spread that medians of a few "
			 "short batches show on a shared or virtual host without any input "
			 "dependence, so that a flag is a real difference; smaller differences are "
			 "visible in the ratio. %zu operation(s) were flagged. The pool changes no "
			 "value of the seed tables.", f->pool, sizes, POOL_FLAG_RATIO, f->pool_flagged);
	else if (json_is_integer(json_object_get(opt, "input_pool")) &&
		 !jget_int(opt, "input_pool", 0))
		md_linef(md, "- No input-pool pass ran (`--input-pool 0`): input dependence of "
			 "the timings is not reported.");
	else
		md_linef(md, "- No input-pool record was made: input dependence of the timings is "
			 "not reported.");
	if (f->seeded_records)
		md_linef(md, "- Per-trial seeds (R1): %zu record(s) list the seed of each trial, "
			 "00..2e followed by 0x30 + the trial number (trial 0: ...2e30, up to trial "
			 "%lld: ...2e%02llx), after setup and warm-ups on the seed 00..2f.",
			 f->seeded_records, f->max_trial_seed, 0x30 + f->max_trial_seed);
}

/* R17: how t1 was calibrated, when not by the reference's cold call. */
static void warm_calibration_line(struct md_page *md, const json_t *planning)
{
	if (json_is_true(json_object_get(planning, "warm_calibration")))
		md_linef(md, "- Warm calibration (R17): t1 is the median of 3 calls after one "
			 "warm-up instead of one cold call, so the n column can differ from the "
			 "seed pages' planning.");
}

/* R11 as it ran (docs/method.md §14): the pass, its sample counts and the
 * statistics the pages show from it. */
static void sampling_bullet(struct md_page *md, const struct run_facts *f)
{
	char n[64];
	if (f->samples_min == f->samples_max)
		snprintf(n, sizeof n, "%lld", f->samples_max);
	else
		snprintf(n, sizeof n, "%lld to %lld", f->samples_min, f->samples_max);
	md_linef(md, "- A per-call sampling pass (R11) ran after the timing, each operation whose "
		 "cold single call or mean call took under 10 ms in a driver process of its own: "
		 "%s samples per "
		 "operation, each a batch of calls in one counter bracket (the batch chosen so that "
		 "the bracket costs under 1 %% of a sample where batching can lower it%s), the "
		 "bracket's median cost subtracted. The "
		 "samples are kept (%zu sample record(s)); the median, interquartile mean, "
		 "percentiles, MAD, outliers (modified z-score above 3.5, never dropped) and the "
		 "bootstrap 95 %% CI of the median (2000 resamples, seeded from the operation's "
		 "name) are computed from them and do not change any figure of the seed tables.",
		 n, f->kex ? "; a key-exchange step is bracketed alone" : "", f->samples);
}

/* The passes beyond timing (docs/method.md §14), stated only as far as the run's
 * options and records show they ran. */
static void extension_passes(struct md_page *md, const json_t *opt, const struct run_facts *f)
{
	if (f->memory)
		md_linef(md, "- A separate memory pass, never loaded into a timing process, "
			 "recorded the painted stack peak, the counted heap peak and the operation "
			 "peak RSS (%zu memory record(s)).", f->memory);
	else if (json_is_true(json_object_get(opt, "memory_pass")))
		md_linef(md, "- The memory pass was enabled but left no memory records.");
	else
		md_linef(md, "- No memory pass ran: stack and heap peaks are not reported.");
	if (f->samples)
		sampling_bullet(md, f);
	else if (json_is_true(json_object_get(opt, "sampling")))
		md_linef(md, "- The per-call sampling pass was enabled but left no sample records "
			 "(it samples only operations whose cold or mean call took under 10 ms): the "
			 "robust statistics are not reported.");
	else
		md_linef(md, "- No per-call sampling pass ran: the robust statistics (median, "
			 "percentiles, bootstrap interval) are not reported.");
	pool_and_seed_lines(md, opt, f);
}

/* The inputs bullet: the signing message and the hash lengths only for
 * the candidate types this run actually has. */
static void inputs(struct md_page *md, const json_t *opt, const struct run_facts *f)
{
	const char *seed = jget_str(opt, "seed_mode", "fixed");
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "- Inputs: every library is checked against the submitted KAT vectors before "
		"timing; the ICCS DRNG is seeded %s",
		strcmp(seed, "per-trial") ? "once per process with the bytes 00..2f"
		: "with the bytes 00..2f for setup and warm-ups, then before each trial with "
		  "the bytes 00..2e and 0x30 + the trial number");
	if (f->sign)
		sb_adds(&sb, "; signatures sign a fixed 64-byte message, a failed signing attempt "
			"is retried (up to 64 times) inside the timing and counted, and verify checks "
			"one honest signature, its rejections counted");
	if (f->hash)
		sb_adds(&sb, "; hash functions are timed at 32, 128, 512, 1024, 4096, 8192, 16384 "
			"and 65536 bytes (guide S1\xe2\x80\x93S8)");
	md_linef(md, "%s.", sb.buf);
	sb_free(&sb);
}

static void measurement(struct md_page *md, const struct dataset *ds, const struct run_facts *f)
{
	const json_t *env = ds_environment(ds);
	const json_t *pl = json_object_get(ds->campaign, "planning");
	const json_t *opt = json_object_get(ds->campaign, "options");
	const json_t *arch = json_object_get(ds->campaign, "arch_config");
	md_block(md, "## Measurement");
	md_begin(md);
	char *cpus = cpu_list(f);
	char *clock = env_clock_text(env);
	const char *model = jget_str(env, "cpu_model", "unknown CPU");
	md_linef(md, "- %zu timing records on CPU(s) %s of %s %s, %s.", f->records, cpus,
		 fmt_article(model), model, clock);
	free(clock);
	free(cpus);
	const char *cname = jget_str(f->counter, "name", "none");
	double oc, on;
	int hoc = rec_real(f->counter, "overhead_cycles_median", &oc);
	int hon = rec_real(f->counter, "overhead_ns_median", &on);
	char *unit = counter_unit_text(f->counter);
	if (!strcmp(cname, "perf-user-cycles") && unit)
		md_linef(md, "- Cycles are user-mode core cycles from `perf_event_open` "
			 "(`perf-user-cycles`), read once per trial in user space from the PMU "
			 "counter the event's mmap page names.");
	else if (!strcmp(cname, "perf-user-cycles"))
		md_linef(md, "- Cycles are user-mode core cycles from `perf_event_open` "
			 "(`perf-user-cycles`), read once per trial.");
	else if (!strcmp(cname, "pinned-clock-cycles"))
		md_linef(md, "- \xe2\x9a\xa0 The hardware cycle counter was unavailable: cycles are %s "
			 "(`pinned-clock-cycles`: ticks \xc3\x97 clock / counter frequency), read once "
			 "per trial; they assume the core ran at that clock throughout.",
			 unit ? unit : "core cycles converted from cntvct_el0 at the pinned clock");
	else if (!strcmp(cname, "none"))
		md_linef(md, "- \xe2\x9a\xa0 No cycle counter was available: cycles are not reported (`%s`).",
			 DASH);
	else if (unit)
		md_linef(md, "- \xe2\x9a\xa0 The hardware cycle counter was unavailable: cycles are "
			 "%s (`%s`).", unit, cname);
	else
		md_linef(md, "- \xe2\x9a\xa0 The hardware cycle counter was unavailable: cycles are "
			 "reference ticks of `%s`, not core cycles.", cname);
	free(unit);
	if (hoc) {
		int ticks = counter_name_counts_ticks(cname);
		double hz = ticks ? jget_real(f->counter, "hz", 0) : env_reference_clock_hz(env);
		char *bracket = fmt_bracket_overhead(oc, ticks ? "ticks" : "cycles", hz, hon ? on : -1);
		md_linef(md, "- Time is wall time from `CLOCK_MONOTONIC_RAW`, read just inside the "
			 "counter bracket. An empty bracket costs (median) %s; `check-host` measures "
			 "the same bracket on the host as it is now.", bracket);
		free(bracket);
	} else {
		md_linef(md, "- Time is wall time from `CLOCK_MONOTONIC_RAW`, read just inside the "
			 "counter bracket; the bracket's overhead was not recorded.");
	}
	char *u = unfixed_text(ds, NULL);
	if (*u)
		md_linef(md, "- \xe2\x9a\xa0 Records were taken on a host that was not fixed: %s.", u);
	else
		md_linef(md, "- All records were taken in the fixed host state.");
	free(u);
	char *ref = flags_text(json_object_get(arch, "reference_flags"));
	char *add = flags_text(json_object_get(arch, "harness_additions"));
	char *fb = flags_text(json_object_get(arch, "fallback_flags"));
	char *perf = flags_text(json_object_get(arch, "performance_flags"));
	md_linef(md, "- Builds: the guide reference flags %s plus %s (`guide`); an instance whose "
		 "guide build or KAT fails is rebuilt with %s (`harness-default`); optimized builds "
		 "use %s (`guide-performance`).", ref, add, fb, perf);
	method_variants(md, ds);
	free(ref);
	free(add);
	free(fb);
	free(perf);
	inputs(md, opt, f);
	planning(md, pl, f);
	md_linef(md, "- Metric: arithmetic mean over all timed calls; the median of trial means is "
		 "recorded as a robustness check.");
	extension_passes(md, opt, f);
	warm_calibration_line(md, pl);
	if (f->kex)
		md_linef(md, "- Key exchange: `exchange` times the whole official flow per call; single "
			 "steps are bracketed per call inside a whole exchange, so their wall time "
			 "includes the published bracket overhead; a step is planned with the larger "
			 "of its own and the exchange's cold call.");
}

static void shares(struct md_page *md, const struct run_facts *f)
{
	md_block(md, "## Share of the ICCS placeholder functions");
	if (!f->profiles) {
		md_block(md, "No hash and DRNG profile was recorded in this run, so no shares of "
			 "`pseudohash`, `pseudoXOF`, `sm3hash` or the ICCS DRNG are reported.");
	} else {
		char *src = md_code(f->tick_source ? f->tick_source : "unrecorded");
		md_blockf(md, "Reference builds are relinked with link-time wrappers around "
			  "`pseudohash`, `pseudoXOF`, `sm3hash` and the ICCS DRNG "
			  "(`get_random_number`). Only the outermost wrapped call is accounted, so "
			  "nested calls count toward their caller; the ticks come from the timing "
			  "counter read without a system call (tick source %s). The share of an "
			  "operation is the wrapped ticks over the operation's total ticks; the "
			  "wrapper overhead is measured and corrected shares are published beside the "
			  "raw ones on the candidate pages (%zu profile record(s)).", src, f->profiles);
		free(src);
	}
	if (f->baseline)
		md_blockf(md, "The ICCS baseline (candidate `iccs`, %zu timing record(s)) times the "
			  "auxiliary functions themselves like hash instances (`sm3hash` at 256 "
			  "bits, `pseudohash` at 512, 768 and 1024, `pseudoXOF` at 256 and at each "
			  "digest width of the hash candidates; a package's own `auxfunc.c` that "
			  "differs from ngcc-perf's is measured too, labelled `<function>-<bits>.<ID>`), "
			  "after a self-test of every instance against OpenSSL's SM3 and HMAC-SM3 "
			  "(the summary marks one that failed). The summary divides each hash's cycles by those of ngcc-perf's "
			  "`pseudoXOF` at the same output width and message length.", f->baseline);
	else
		md_block(md, "No ICCS baseline (candidate `iccs`) was measured in this run, so the "
			 "summary has no hash ratios against it.");
}

static void row(struct md_page *md, const char *k, const char *v)
{
	const char *cells[2] = { k, v && *v ? v : DASH };
	md_row(md, cells);
}

static char *json_text(const json_t *v)
{
	if (!v || json_is_null(v))
		return xstrdup(DASH);
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	if (json_is_boolean(v))
		return xstrdup(json_is_true(v) ? "yes" : "no");
	if (json_is_integer(v))
		return xasprintf("%lld", (long long)json_integer_value(v));
	if (json_is_real(v))
		return xasprintf("%.2f", json_real_value(v));
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	json_t *x;
	json_array_foreach(v, i, x) {
		char *t = json_text(x);
		sb_addf(&sb, "%s%s", i ? ", " : "", t);
		free(t);
	}
	return sb.len ? sb_detach(&sb) : (sb_free(&sb), xstrdup(DASH));
}

static void host_facts(struct md_page *md, const struct dataset *ds)
{
	static const char *const keys[] = { "hostname", "microcode", "logical_cpus_online",
		"virtualized", "perf_event_paranoid", "cpufreq_driver", "isolcpus", "nohz_full",
		"irq_default_affinity", "deepest_cstate", "thp", "aslr", "load_average",
		"other_runnable_tasks_on_cpu" };
	static const char *const hdr[] = { "item", "value" };
	const json_t *env = ds_environment(ds);
	md_block(md, "## Host facts");
	md_table(md, hdr, 2);
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		char *v = json_text(json_object_get(env, keys[i]));
		row(md, keys[i], v);
		free(v);
	}
}

static void options(struct md_page *md, const struct dataset *ds)
{
	static const char *const hdr[] = { "option", "value" };
	const json_t *opt = json_object_get(ds->campaign, "options");
	const json_t *pl = json_object_get(ds->campaign, "planning");
	md_block(md, "## Options and extensions");
	md_table(md, hdr, 2);
	static const char *const okeys[] = { "seed_mode", "input_pool", "sampling", "memory_pass" };
	for (size_t i = 0; i < 4; i++) {
		char *v = json_text(json_object_get(opt, okeys[i]));
		row(md, okeys[i], v);
		free(v);
	}
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)pl, k, v) {
		char *t = json_is_real(v) ? xasprintf("%g", json_real_value(v)) : json_text(v);
		row(md, k, t);
		free(t);
	}
}

static void limitations(struct md_page *md, const struct run_facts *f)
{
	md_block(md, "## Limitations");
	md_begin(md);
	md_linef(md, "- The ELF image and the RSS figures are process-level upper-bound proxies, "
		 "not isolated algorithm memory.");
	md_linef(md, "- Shares cover only the ICCS hash functions and the DRNG, only calls across "
		 "object files, and only reference builds.");
	md_linef(md, "- Submitted KAT vectors are not republished: each KAT log names the manifest "
		 "digest or the package's KAT file it was compared with.");
	md_linef(md, "- Slow operations have fewer than 100 timed calls (marked `n=`).");
	if (f->kex)
		md_linef(md, "- A key-exchange step's wall time includes the (published) bracket "
			 "overhead.");
	md_linef(md, "- Fallback counters give reference ticks, not core cycles.");
	char *cpus = cpu_list(f);
	md_linef(md, "- All figures come from CPU(s) %s of one machine.", cpus);
	free(cpus);
	md_linef(md, "- These are independent measurements, not NICCS results or submitter "
		 "self-assessments.");
}

char *page_method(const struct dataset *ds, size_t *len)
{
	struct md_page md = MD_PAGE_INIT;
	struct run_facts f;
	gather(ds, &f);
	const char *desc = NULL;
	for (size_t i = 0; i < ds->n_systems; i++)
		if (!strcmp(ds->systems[i].id, ds->system_id))
			desc = ds->systems[i].desc;
	if (!desc || !*desc)
		desc = jget_str(ds_environment(ds), "cpu_model", "unregistered system");
	char *sw = system_switch(ds, "method.md", NULL);
	md_blockf(&md, "[Performance measurements](../index.md) \xe2\x80\xba [%s](index.md) "
		  "\xe2\x80\xba method \xc2\xb7 system: %s", ds->system_id, sw);
	free(sw);
	md_blockf(&md, "# Performance method and limitations \xe2\x80\x94 system %s", ds->system_id);
	md_blockf(&md, "System %s: %s. [Summary](index.md).", ds->system_id, desc);
	char *notice = unfixed_notice(ds, NULL);
	if (notice)
		md_block(&md, notice);
	free(notice);
	measurement(&md, ds, &f);
	shares(&md, &f);
	method_repeatability(&md, ds);
	host_facts(&md, ds);
	options(&md, ds);
	limitations(&md, &f);
	return md_finish(&md, len);
}
