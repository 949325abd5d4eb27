/*
 * page_ext.c — "Beyond the guide" (docs/report-format.md §5.9): the additional
 * sections of a candidate page.  Rows that are per operation start with
 * "`label` op" so none reads like a row of a seed table.
 */
#include "report/pages.h"

#include <stdlib.h>
#include <string.h>

#include "charts/charts.h"
#include "evidence/json.h"
#include "evidence/profile_json.h"
#include "host/counter_unit.h"
#include "host/env.h"
#include "method/format.h"
#include "method/hashmsg.h"
#include "model/baseline_view.h"
#include "model/size_audit.h"
#include "stats/stats.h"

#define DASH FMT_DASH

static char *op_cell(const struct ds_instance *in, const char *op)
{
	char *inst = instance_cell(in);
	char *s = xasprintf("%s %s", inst, op);
	free(inst);
	return s;
}

/* The counter of the candidate's first complete record. */
static const json_t *first_counter(const struct ds_candidate *c, const json_t **env)
{
	for (size_t i = 0; i < c->n_inst; i++)
		for (size_t k = 0; k < c->inst[i].n_rec; k++)
			if (ds_record_complete(&c->inst[i].rec[k])) {
				*env = json_object_get(c->inst[i].rec[k].j, "environment");
				return json_object_get(c->inst[i].rec[k].j, "counter");
			}
	return NULL;
}

/* A counter of reference ticks; pinned-clock-cycles are core cycles. */
static int is_fallback(const char *name)
{
	return counter_name_counts_ticks(name);
}

static char *counter_text(const json_t *counter, const json_t *env)
{
	char ghz[FMT_MAX];
	const char *name = jget_str(counter, "name", "none");
	double hz = is_fallback(name) ? jget_real(counter, "hz", 0) : env_reference_clock_hz(env);
	double o, ns;
	int has_o = rec_real(counter, "overhead_cycles_median", &o);
	int has_ns = rec_real(counter, "overhead_ns_median", &ns);
	fmt_clock_khz(ghz, hz / 1e3);
	char *bracket = has_o ? fmt_bracket_overhead(o, is_fallback(name) ? "ticks" : "cycles", hz,
						      has_ns ? ns : -1) : xstrdup(DASH);
	/* The AArch64 counters say their unit (counter_unit.h); the others'
	 * names say it. */
	char *unit = counter_unit_text(counter);
	char *paren = unit ? xasprintf(" (%s)", unit)
			   : xstrdup(is_fallback(name) ? " (reference ticks, not core cycles)" : "");
	char *text = xasprintf("%s at %s%s; an empty bracket costs (median) %s", name, ghz, paren,
			       bracket);
	free(unit);
	free(paren);
	free(bracket);
	return text;
}

static void host_and_counter(struct md_page *md, const struct dataset *ds,
			     const struct ds_candidate *c)
{
	const json_t *env = NULL;
	const json_t *counter = first_counter(c, &env);
	static const char *const hdr[] = { "item", "value" };
	md_block(md, "### A.0 Host and counter");
	md_table(md, hdr, 2);
	char *ct = counter ? counter_text(counter, env) : xstrdup(DASH);
	const char *r1[2] = { "cycle counter", ct };
	md_row(md, r1);
	free(ct);
	char *u = unfixed_text(ds, c);
	char *hs = *u ? xasprintf("not fixed: %s", u) : xstrdup("fixed");
	const char *r2[2] = { "host state", hs };
	md_row(md, r2);
	free(hs);
	free(u);
}

/* Each complete record of the candidate, in §4 order. */
#define FOR_COMPLETE(c, in, r)                                                   \
	for (size_t i_ = 0; i_ < (c)->n_inst; i_++)                              \
		for (size_t k_ = 0; k_ < (c)->inst[i_].n_rec; k_++)              \
			if ((in = &(c)->inst[i_], r = &in->rec[k_]),             \
			    ds_record_complete(r))

static int has_complete(const struct ds_candidate *c)
{
	const struct ds_instance *in;
	const struct ds_record *r;
	FOR_COMPLETE(c, in, r)
		return 1;
	return 0;
}

static void dispersion(struct md_page *md, const struct ds_candidate *c)
{
	static const char *const hdr[] = { "instance \xc2\xb7 operation", "min trial", "max trial",
		"spread", "CV", "median trial cycles", "noisy" };
	const struct ds_instance *in;
	const struct ds_record *r;
	if (!has_complete(c))
		return;
	md_block(md, "### A.1 Dispersion over trials");
	char cv[FMT_MAX];
	md_blockf(md, "Spread is (max trial \xe2\x88\x92 min trial) / median trial and CV the "
		  "coefficient of variation of the trial times; `noisy` is `yes` when the CV is "
		  "above %s (the summary's notes then say `noisy`).",
		  fmt_percent(cv, &(double){ STATS_NOISY_CV }));
	md_table(md, hdr, 7);
	FOR_COMPLETE(c, in, r) {
		const json_t *d = json_object_get(r->j, "dispersion");
		double mn, mx, sp = 0, cv = 0, mc;
		char a[FMT_MAX], b[FMT_MAX], s[FMT_MAX], v[FMT_MAX], m[FMT_MAX];
		int hmn = rec_real(r->j, "min_trial_seconds", &mn);
		int hmx = rec_real(r->j, "max_trial_seconds", &mx);
		int hsp = rec_real(d, "spread_trial_seconds", &sp);
		int hcv = rec_real(d, "cv_trial_seconds", &cv);
		int hmc = rec_real(r->j, "median_trial_cycles", &mc);
		char *cell = op_cell(in, r->op);
		const char *cells[7] = { cell, fmt_time(a, hmn ? &mn : NULL), fmt_time(b, hmx ? &mx : NULL),
			hsp ? fmt_dispersion(s, sp) : DASH, hcv ? fmt_dispersion(v, cv) : DASH,
			fmt_cycles(m, hmc ? &mc : NULL), jget_bool(r->j, "noisy", 0) ? "yes" : "no" };
		md_row(md, cells);
		free(cell);
	}
}

static const char *rss_or_dash(char *buf, long long v)
{
	return v < 0 ? DASH : fmt_rss(buf, (uint64_t)v);
}

int memory_detail_shown(const struct ds_candidate *c)
{
	const struct ds_instance *in;
	const struct ds_record *r;
	long long lo, op;
	FOR_COMPLETE(c, in, r)
		if (ds_operation_rss(in, r, &lo, &op) || lo >= 0 || op >= 0)
			return 1;
	return 0;
}

static void memory_detail(struct md_page *md, const struct ds_candidate *c,
			  const struct site_charts *charts)
{
	static const char *const hdr[] = { "instance \xc2\xb7 operation", "loaded RSS",
		"operation peak RSS", "stack peak", "heap peak", "allocations per call" };
	const struct ds_instance *in;
	const struct ds_record *r;
	long long lo, op;
	if (!memory_detail_shown(c))
		return;
	md_block(md, "### A.3 Memory detail");
	int from_timing = 0;
	FOR_COMPLETE(c, in, r)
		from_timing |= !ds_find_memory(in, r->op);
	md_blockf(md, "Figures of the memory pass (`memory/` files, one process per operation "
		  "that is never timed; `measure` prints the same figures): RSS after loading the "
		  "library, the highest RSS during the operation, the painted stack peak and the "
		  "counted heap peak. %she operation peak RSS is not the peak RSS of section 5: "
		  "that one is the timing processes' high-water mark over their whole run, "
		  "setup included.%s", from_timing ? "Except in rows marked `timing`, t" : "T",
		  from_timing ? " Operations without a memory record show "
		  "the loaded and peak RSS of their timing processes (marked `timing`) and no stack "
		  "or heap figures." : "");
	md_table(md, hdr, 6);
	FOR_COMPLETE(c, in, r) {
		const json_t *mem = ds_operation_rss(in, r, &lo, &op);
		if (!mem && lo < 0 && op < 0)
			continue;
		long long st = jget_int(mem, "stack_peak_bytes", -1);
		long long hp = jget_int(mem, "heap_peak_bytes", -1);
		const json_t *apc = json_object_get(mem, "allocations_per_call");
		char a[FMT_MAX], b[FMT_MAX], s[FMT_MAX], h[FMT_MAX], n[FMT_MAX];
		char *cell = op_cell(in, r->op);
		/* fmt_ops is the plain `%.3g` of the pages. */
		char la[FMT_MAX + 16], pa[FMT_MAX + 16];
		snprintf(la, sizeof la, "%s%s", rss_or_dash(a, lo), mem || lo < 0 ? "" : " (timing)");
		snprintf(pa, sizeof pa, "%s%s", rss_or_dash(b, op), mem || op < 0 ? "" : " (timing)");
		const char *cells[6] = { cell, la, pa, rss_or_dash(s, st),
			rss_or_dash(h, hp), json_is_number(apc) ? fmt_ops(n, json_number_value(apc)) : DASH };
		md_row(md, cells);
		free(cell);
	}
	chart_beside(md, charts, c, "memory");
}

static char *switches_text(const json_t *rec)
{
	long long inv = 0, vol = 0, mig = 0;
	size_t i;
	json_t *t;
	json_array_foreach(json_object_get(rec, "trials"), i, t) {
		inv += jget_int(t, "invol_switches", 0);
		vol += jget_int(t, "vol_switches", 0);
		mig += jget_int(t, "migrations", 0);
	}
	return xasprintf("%lld involuntary, %lld voluntary, %lld migrations", inv, vol, mig);
}

static const char *output_check(const json_t *rec)
{
	size_t i;
	json_t *p;
	int performed = 0;
	json_array_foreach(json_object_get(rec, "processes"), i, p) {
		const json_t *v = json_object_get(p, "validation");
		if (!jget_bool(v, "performed", 0))
			continue;
		performed = 1;
		if (!jget_bool(v, "ok", 0))
			return "failed";
	}
	return performed ? "ok" : "not performed";
}

static void conditions(struct md_page *md, const struct ds_candidate *c)
{
	static const char *const hdr[] = { "instance \xc2\xb7 operation", "counter",
		"counter overhead", "disturbed retries", "context switches", "output check" };
	const struct ds_instance *in;
	const struct ds_record *r;
	if (!has_complete(c))
		return;
	md_block(md, "### A.5 Measurement conditions");
	md_table(md, hdr, 6);
	FOR_COMPLETE(c, in, r) {
		const json_t *ctr = json_object_get(r->j, "counter");
		double o;
		int has_o = rec_real(ctr, "overhead_cycles_median", &o);
		char ov[FMT_MAX], dr[FMT_MAX];
		char *cell = op_cell(in, r->op);
		char *sw = switches_text(r->j);
		const char *name = jget_str(ctr, "name", "none");
		fmt_cycles(ov, has_o ? &o : NULL);
		/* the unit where the figure is: a fallback counter counts ticks */
		char *ov_unit = has_o ? xasprintf("%s %s", ov, is_fallback(name) ? "ticks" : "cycles")
				      : xstrdup(ov);
		snprintf(dr, sizeof dr, "%lld", jget_int(r->j, "disturbed_retries", 0));
		const char *cells[6] = { cell, name, ov_unit, dr, sw, output_check(r->j) };
		md_row(md, cells);
		free(ov_unit);
		free(sw);
		free(cell);
	}
}

/* "min–max", or one number, plus " (mean m of n made in the memory
 * pass)" when the memory pass's signatures give a mean. */
static void observed_text(char *buf, size_t size, const json_t *obs)
{
	long long mn = jget_int(obs, "min", 0), mx = jget_int(obs, "max", 0);
	int n = mn == mx ? snprintf(buf, size, "%lld", mn)
			 : snprintf(buf, size, "%lld\xe2\x80\x93%lld", mn, mx);
	double mean;
	if (n > 0 && (size_t)n < size && rec_real(obs, "mean", &mean)) {
		char m[FMT_MAX];
		snprintf(buf + n, size - (size_t)n, " (mean %s of %lld made in the memory pass)",
			 fmt_fixed1(m, mean), jget_int(obs, "count", 0));
	}
}

/* A.6: the size audit's entries with an observed length (model/size_audit.h),
 * so page, size_audit.json and the size-audit page never disagree. */
static void observed_sizes(struct md_page *md, const struct dataset *ds,
			   const struct ds_candidate *c)
{
	static const char *const hdr[] = { "instance", "object", "API", "observed (min\xe2\x80\x93max)",
		"catalog", "audit" };
	int started = 0;
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct ds_instance *in = &c->inst[i];
		if (in->optimized)
			continue;
		json_t *objs = size_audit_instance(ds, c, in);
		size_t k;
		json_t *o;
		json_array_foreach(objs, k, o) {
			const json_t *obs = json_object_get(o, "observed");
			if (!json_is_object(obs))
				continue;
			if (!started++) {
				md_block(md, "### A.6 Observed sizes");
				md_table(md, hdr, 6);
			}
			long long api = jget_int(o, "api", -1), cat = jget_int(o, "catalog", -1);
			char a[FMT_MAX], ob[3 * FMT_MAX], ca[FMT_MAX];
			char *cell = instance_cell(in);
			snprintf(a, sizeof a, "%lld", api);
			observed_text(ob, sizeof ob, obs);
			snprintf(ca, sizeof ca, "%lld", cat);
			const char *cells[6] = { cell, size_audit_object_name(jget_str(o, "object", "")),
				api >= 0 ? a : DASH, ob, cat >= 0 ? ca : DASH,
				jget_str(o, "classification", "ok") };
			md_row(md, cells);
			free(cell);
		}
		json_decref(objs);
	}
}

static const char *percent_or_dash(char *buf, const json_t *v)
{
	double x;
	if (!json_is_number(v))
		return DASH;
	x = json_number_value(v);
	return fmt_percent(buf, &x);
}

static char *coverage_text(const json_t *cov)
{
	const char *status = jget_str(cov, "status", NULL);
	if (!status)
		return xstrdup(DASH);
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, status);
	size_t i;
	json_t *h;
	json_array_foreach(json_object_get(cov, "hits"), i, h)
		if (json_is_string(h))
			sb_addf(&sb, "%s%s", i ? ", " : ": ", json_string_value(h));
	return sb_detach(&sb);
}

static void profile_detail(struct md_page *md, const struct ds_candidate *c)
{
	static const char *const hdr[] = { "instance \xc2\xb7 operation",
		"corrected pseudohash/XOF/sm3", "corrected DRNG", "wrapper overhead (ticks/call)",
		"profile / timing", "coverage" };
	int started = 0;
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct ds_instance *in = &c->inst[i];
		for (size_t k = 0; k < in->n_prof; k++) {
			const struct ds_profile *p = &in->prof[k];
			if (!ds_profile_complete(p))
				continue;
			if (!started++) {
				char lim[FMT_MAX];
				md_block(md, "### A.4 Profile detail");
				md_blockf(md, "Shares corrected for the wrappers' own cost; `profile / "
					  "timing` is the profiled run's ticks per operation over the "
					  "timing record's mean, marked \xe2\x9a\xa0 when it is off by more "
					  "than %s (the instrumented build then behaves unlike the timed "
					  "one); coverage is `full` when the scan of the instance's objects "
					  "found no own symmetric primitive reachable from the API, else "
					  "`partial` with the primitives found, whose time the shares do "
					  "not count.",
					  fmt_percent(lim, &(double){ PROFILE_CROSSCHECK_LIMIT }));
				md_table(md, hdr, 6);
			}
			const json_t *corr = json_object_get(p->j, "corrected");
			const json_t *ov = json_object_get(p->j, "overhead");
			const json_t *cc = json_object_get(p->j, "crosscheck");
			const json_t *cdrng = json_object_get(json_object_get(corr, "share"), "drng");
			double zero = 0, o_in, o_out, ratio;
			char a[FMT_MAX], b[FMT_MAX], o[FMT_MAX], r[FMT_MAX + 8];
			int has_o = rec_real(ov, "o_in", &o_in) && rec_real(ov, "o_out", &o_out);
			double o_sum = has_o ? o_in + o_out : 0;
			if (rec_real(cc, "ratio", &ratio))
				snprintf(r, sizeof r, "%s%s", fmt_fixed2(b, ratio),
					 jget_bool(cc, "flagged", 0) ? " \xe2\x9a\xa0" : "");
			else
				snprintf(r, sizeof r, "%s", DASH);
			char *cell = op_cell(in, p->op);
			char *cov = coverage_text(json_object_get(p->j, "coverage"));
			const char *drng = json_is_object(corr) && !cdrng ? fmt_percent(b, &zero)
				: percent_or_dash(b, cdrng);
			char drng_copy[FMT_MAX];
			snprintf(drng_copy, sizeof drng_copy, "%s", drng);
			const char *cells[6] = { cell, percent_or_dash(a, json_object_get(corr, "hash_share")),
				drng_copy, fmt_cycles(o, has_o ? &o_sum : NULL), r, cov };
			md_row(md, cells);
			free(cov);
			free(cell);
		}
	}
}

/* Sum (or maximum) of a meta counter over a record's processes. */
static long long meta_total(const json_t *rec, const char *key, int max)
{
	long long t = 0;
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(rec, "processes"), i, p) {
		long long v = jget_int(json_object_get(p, "meta"), key, 0);
		t = max ? (v > t ? v : t) : t + v;
	}
	return t;
}

/* A.11: KEX steps, each bracketed alone (timing_scope per_call_step). */
static void kex_steps(struct md_page *md, const struct ds_candidate *c)
{
	static const char *const hdr[] = { "instance \xc2\xb7 operation", "mean cycles",
		"counter overhead per bracket", "mean minus overhead", "of the exchange" };
	const struct ds_instance *in;
	const struct ds_record *r;
	int started = 0;
	FOR_COMPLETE(c, in, r) {
		if (strcmp(jget_str(r->j, "timing_scope", ""), "per_call_step"))
			continue;
		if (!started++) {
			md_block(md, "### A.11 Key-exchange steps");
			md_block(md, "Each step is timed alone inside a whole exchange, with one counter "
				 "bracket around each call, so its mean includes one bracket's overhead; "
				 "the corrected column subtracts the median overhead measured in the same "
				 "process, and the last column compares it with the exchange's mean.");
			md_table(md, hdr, 5);
		}
		double mc, ov, ex, corr, share;
		int has_mc = rec_real(r->j, "mean_cycles", &mc);
		int has_ov = rec_real(json_object_get(r->j, "counter"), "overhead_cycles_median", &ov);
		const struct ds_record *x = ds_find_record(in, "exchange");
		int has_ex = x && ds_record_complete(x) && rec_real(x->j, "mean_cycles", &ex) && ex > 0;
		corr = has_mc && has_ov ? (mc > ov ? mc - ov : 0) : 0;
		share = has_ex ? corr / ex : 0;
		char a[FMT_MAX], b[FMT_MAX], d[FMT_MAX], e[FMT_MAX];
		char *cell = op_cell(in, r->op);
		const char *cells[5] = { cell, fmt_cycles(a, has_mc ? &mc : NULL),
			fmt_cycles(b, has_ov ? &ov : NULL), fmt_cycles(d, has_mc && has_ov ? &corr : NULL),
			fmt_percent(e, has_ex && has_mc && has_ov ? &share : NULL) };
		md_row(md, cells);
		free(cell);
	}
}

/* A.12: what signing and verification counted (docs/method.md §5.2). */
static void signature_counters(struct md_page *md, const struct ds_candidate *c)
{
	static const char *const hdr[] = { "instance \xc2\xb7 operation",
		"failed signing attempts retried", "largest excess over the API maximum (bytes)",
		"verify rejections", "honest signature: signatures made, message tweaks" };
	const struct ds_instance *in;
	const struct ds_record *r;
	int started = 0;
	if (strcmp(c->type, "sign"))
		return;
	FOR_COMPLETE(c, in, r) {
		int sign = !strcmp(r->op, "sign"), verify = !strcmp(r->op, "verify");
		if (!sign && !verify)
			continue;
		if (!started++) {
			md_block(md, "### A.12 Signing and verification");
			md_table(md, hdr, 5);
		}
		char a[FMT_MAX], b[FMT_MAX], d[FMT_MAX], e[2 * FMT_MAX];
		snprintf(a, sizeof a, "%lld", meta_total(r->j, "sign_failures_retried", 0));
		snprintf(b, sizeof b, "%lld", meta_total(r->j, "sign_max_excess_bytes", 1));
		snprintf(d, sizeof d, "%lld", meta_total(r->j, "verify_rejections", 0));
		snprintf(e, sizeof e, "%lld, %lld", meta_total(r->j, "honest_signature_tries", 1),
			 meta_total(r->j, "honest_message_tweaks", 1));
		char *cell = op_cell(in, r->op);
		const char *cells[5] = { cell, sign ? a : DASH, sign ? b : DASH, verify ? d : DASH,
			verify ? e : DASH };
		md_row(md, cells);
		free(cell);
	}
}

static void evidence_row(struct md_page *md, int *started, const char *cell, const char *item,
			 const char *file)
{
	static const char *const hdr[] = { "instance", "item", "file" };
	if (!(*started)++) {
		md_block(md, "### A.9 Additional evidence");
		md_table(md, hdr, 3);
	}
	char *path = md_code(file);
	const char *cells[3] = { cell, item, path };
	md_row(md, cells);
	free(path);
}

static void additional_evidence(struct md_page *md, const struct ds_candidate *c)
{
	int started = 0;
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct ds_instance *in = &c->inst[i];
		char *cell = instance_cell(in);
		for (size_t k = 0; k < in->n_extra; k++)
			evidence_row(md, &started, cell, in->extra_item[k], in->extra_path[k]);
		for (int k = 0; k < CHECK_N; k++) {
			if (!in->check_rel[k])
				continue;
			char *item = xasprintf("check %s", check_names[k]);
			evidence_row(md, &started, cell, item, in->check_rel[k]);
			free(item);
		}
		free(cell);
	}
}

void chart_beside(struct md_page *md, const struct site_charts *charts,
		  const struct ds_candidate *c, const char *suffix)
{
	char *name = xasprintf("%s-%s", c->id, suffix);
	for (size_t i = 0; charts && i < charts->n; i++)
		if (!strcmp(charts->v[i].name, name))
			md_blockf(md, "![%s](charts/%s.svg)", charts->v[i].title, name);
	free(name);
}

/* A.8: where each chart is (beside its table) and the data it is drawn
 * from; report_render writes the files (docs/report-format.md §10.4). */
static void charts_index(struct md_page *md, const struct site_charts *ch)
{
	if (!ch || !ch->n)
		return;
	md_block(md, "### A.8 Charts");
	md_block(md, "Each chart is shown beside the table it illustrates. The chart files "
		 "and the data each is drawn from:");
	md_begin(md);
	for (size_t i = 0; i < ch->n; i++)
		md_linef(md, "- [%s](charts/%s.svg) ([data](charts/%s.csv))", ch->v[i].title,
			 ch->v[i].name, ch->v[i].name);
}

/* A.13 (hash candidates): each call's cycles as a multiple of our
 * pseudoXOF at the instance's digest width and the same message length,
 * the ratio the summary shows (docs/method.md §10.7). */
static void against_baseline(struct md_page *md, const struct dataset *ds,
			     const struct ds_candidate *c)
{
	static const char *const hdr[] = { "instance \xc2\xb7 message", "digest bits",
		"mean cycles", "pseudoXOF (same width)", "\xc3\x97 pseudoXOF" };
	int started = 0;
	if (strcmp(c->type, "hash") || ds_is_baseline(c))
		return;
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct ds_instance *in = &c->inst[i];
		int bits = ds_hash_digest_bits(in);
		for (size_t k = 0; k < in->n_rec; k++) {
			unsigned long long L = hash_op_bytes(in->rec[k].op);
			double v, ratio = 0, xof = 0;
			if (!L || !ds_hash_cycles(in, L, &v))
				continue;
			int ok = ds_hash_ratio(ds, in, L, &ratio, &xof);
			if (!started) {
				md_block(md, "### A.13 Against the ICCS baseline");
				md_block(md, "Cycles per call as a multiple of ngcc-perf's ICCS `pseudoXOF` "
					 "at the instance's digest length (`DIGEST_BIT_LENGTH`) and the same "
					 "message length, as in the summary; `\xe2\x80\x93` where that "
					 "baseline was not measured.");
				md_table(md, hdr, 5);
				started = 1;
			}
			char msg[FMT_MAX], b[FMT_MAX], cy[FMT_MAX], xc[FMT_MAX], r[FMT_MAX];
			char *inst = instance_cell(in);
			char *cell = xasprintf("%s %s", inst, fmt_hash_message(msg, L));
			snprintf(b, sizeof b, "%d", bits);
			const char *cells[5] = { cell, bits ? b : DASH, fmt_cycles(cy, &v),
				fmt_cycles(xc, ok ? &xof : NULL), fmt_hash_ratio(r, ok ? &ratio : NULL) };
			md_row(md, cells);
			free(cell);
			free(inst);
		}
	}
}

void candidate_extensions(struct md_page *md, const struct dataset *ds,
			  const struct ds_candidate *c, int extensions,
			  const struct site_charts *charts)
{
	md_block(md, "---");
	md_block(md, "## Beyond the guide");
	md_block(md, "These sections go beyond the guide items (1)\xe2\x80\x93(7); the tables above "
		 "are unaffected. See the [method](method.md).");
	host_and_counter(md, ds, c);
	if (!extensions)
		return;
	dispersion(md, c);
	per_call_samples(md, c, charts);
	memory_detail(md, c, charts);
	profile_detail(md, c);
	conditions(md, c);
	observed_sizes(md, ds, c);
	candidate_pools(md, c);
	charts_index(md, charts);
	additional_evidence(md, c);
	candidate_checks(md, c);
	kex_steps(md, c);
	signature_counters(md, c);
	against_baseline(md, ds, c);
	candidate_variants(md, c);
}
