/*
 * page_candidate.c — the per-candidate page <SYS>/<cand>.md
 * (docs/report-format.md §5).  Sections 1–7 and Symmetric primitives follow the
 * seed pages exactly; our additions go after the closing line under
 * "Beyond the guide" (§5.9), except the charts, which are image paragraphs
 * right after the tables they illustrate (the tables themselves unchanged).
 */
#include "report/pages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charts/charts.h"
#include "evidence/json.h"
#include "host/env.h"
#include "kat/katlog.h"
#include "method/format.h"
#include "method/hashmsg.h"
#include "method/natsort.h"
#include "model/baseline_view.h"
#include "model/size_audit.h"

#define DASH FMT_DASH

struct cpage {
	const struct dataset *ds;
	const struct ds_candidate *c;
	struct md_page md;
	const struct site_charts *charts;   /* NULL without extensions */
};

/* ---- header and sections 1–2 ------------------------------------------- */

static const char *function_text(const char *type)
{
	if (!strcmp(type, "sign"))
		return "public-key algorithm; function: digital signature";
	if (!strcmp(type, "kex"))
		return "public-key algorithm; function: key exchange";
	if (!strcmp(type, "hash"))
		return "cryptographic hash algorithm; function: hash";
	return "public-key algorithm; function: key encapsulation";
}

static void header(struct cpage *p)
{
	const struct dataset *ds = p->ds;
	char *page = xasprintf("%s.md", p->c->id);
	char *sw = system_switch(ds, page, p->c->id);
	md_blockf(&p->md, "[Performance measurements](../index.md) \xe2\x80\xba [%s](index.md) "
		  "\xe2\x80\xba %s \xc2\xb7 system: %s", ds->system_id, p->c->id, sw);
	md_blockf(&p->md, "# %s %s \xe2\x80\x94 performance on %s (system %s)", p->c->id,
		  p->c->algorithm, ds_arch_name(ds), ds->system_id);
	md_blockf(&p->md, "Independent measurement following the structure of the NICCS %s "
		  "self-assessment guide, \xc2\xa7" "3.5 (1)\xe2\x80\x93(7). Not a submitter "
		  "self-assessment.", ds_is_arm(ds) ? "ARM" : "x86");
	char *notice = unfixed_notice(ds, p->c);
	if (notice)
		md_block(&p->md, notice);
	free(notice);
	free(sw);
	free(page);
}

/* Does every instance's build.json entry list this patch? */
static int all_have_patch(const struct ds_candidate *c, const char *sha)
{
	for (size_t i = 0; i < c->n_inst; i++) {
		int has = 0;
		size_t k;
		json_t *p;
		json_array_foreach(json_object_get(c->inst[i].build, "patches"), k, p)
			has |= !strcmp(jget_str(p, "sha256", ""), sha);
		if (!has)
			return 0;
	}
	return 1;
}

/* "- Patches: built with 1 patch: `fix.diff` (sha256 `3f2a…`)" when the
 * source was patched by `add --patch` (build.json "patches"); a patch that
 * only some instances were built with names them.  No line otherwise, as
 * on the seed pages. */
static void patches_line(struct cpage *p, const struct ds_candidate *c)
{
	struct strlist seen = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < c->n_inst; i++) {
		size_t k;
		json_t *pj;
		json_array_foreach(json_object_get(c->inst[i].build, "patches"), k, pj) {
			const char *sha = jget_str(pj, "sha256", "");
			if (sl_contains(&seen, sha))
				continue;
			sl_push(&seen, sha);
			char *file = md_code(jget_str(pj, "file", "?"));
			sb_addf(&sb, "%s%s (sha256 `%.16s\xe2\x80\xa6`)", sb.len ? ", " : "", file, sha);
			free(file);
			if (all_have_patch(c, sha))
				continue;
			sb_adds(&sb, " for ");
			int first = 1;
			for (size_t j = 0; j < c->n_inst; j++) {
				size_t m;
				json_t *q;
				json_array_foreach(json_object_get(c->inst[j].build, "patches"), m, q)
					if (!strcmp(jget_str(q, "sha256", ""), sha)) {
						char *l = md_code(c->inst[j].stem);
						sb_addf(&sb, "%s%s", first ? "" : ", ", l);
						free(l);
						first = 0;
					}
			}
		}
	}
	if (seen.n)
		md_linef(&p->md, "- Patches: built with %zu patch%s: %s", seen.n,
			 seen.n == 1 ? "" : "es", sb.buf);
	sb_free(&sb);
	sl_free(&seen);
}

static void basic_information(struct cpage *p)
{
	const struct ds_candidate *c = p->c;
	md_block(&p->md, "## 1. Basic information");
	md_begin(&p->md);   /* the bullets form one block */
	md_linef(&p->md, "- Category: %s", ds_is_baseline(c)
		 ? "ICCS auxiliary functions measured as hashes (the baseline of the hash ratios); "
		   "function: hash"
		 : function_text(c->type));
	md_linef(&p->md, "- Algorithm: %s", c->algorithm);
	char *versions = versions_measured(c);
	md_linef(&p->md, "- Implementation versions measured: %s", versions);
	free(versions);
	struct strbuf sets = STRBUF_INIT;
	for (size_t i = 0; i < c->n_inst; i++) {
		/* each label once: a variant follows its reference (or stands
		 * alone when the package has no reference of that set) */
		if (i && !strcmp(c->inst[i - 1].label, c->inst[i].label))
			continue;
		char *code = md_code(c->inst[i].label);
		sb_addf(&sets, "%s%s", sets.len ? ", " : "", code);
		free(code);
	}
	patches_line(p, c);
	md_linef(&p->md, "- Parameter sets: %s", sets.len ? sets.buf : DASH);
	sb_free(&sets);
	const char *report = ds_cand_conf(p->ds, c->id, "report_url");
	if (report)
		md_linef(&p->md, "- Security evaluation: [%s report](%s)", c->id, report);
	md_linef(&p->md, "- Measurement method: [%s method](method.md)", p->ds->system_id);
	const char *sub = ds_cand_conf(p->ds, c->id, "submission_url");
	if (sub)
		md_linef(&p->md, "- Submission: [NICCS page](%s)", sub);
}

/* CPUs of the candidate's complete records, ascending. */
static size_t record_cpus(const struct ds_candidate *c, long long *cpus, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n_inst; i++)
		for (size_t k = 0; k < c->inst[i].n_rec; k++) {
			const struct ds_record *r = &c->inst[i].rec[k];
			if (!ds_record_complete(r))
				continue;
			long long cpu = jget_int(json_object_get(r->j, "environment"), "cpu_number",
						 jget_int(r->j, "cpu", 0));
			size_t j;
			for (j = 0; j < n && cpus[j] != cpu; j++)
				;
			if (j == n && n < max)
				cpus[n++] = cpu;
		}
	for (size_t a = 1; a < n; a++)
		for (size_t b = a; b > 0 && cpus[b - 1] > cpus[b]; b--) {
			long long t = cpus[b];
			cpus[b] = cpus[b - 1];
			cpus[b - 1] = t;
		}
	return n;
}

static char *processor_text(const struct ds_candidate *c, const json_t *env)
{
	long long cpus[64];
	size_t n = record_cpus(c, cpus, 64);
	const char *model = jget_str(env, "cpu_model", "unknown CPU");
	if (n <= 1)
		return xasprintf("%s (CPU %lld, one core)", model,
				 n ? cpus[0] : jget_int(env, "cpu_number", 0));
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s (CPUs ", model);
	for (size_t i = 0; i < n; i++)
		sb_addf(&sb, "%s%lld", i ? ", " : "", cpus[i]);
	sb_adds(&sb, ", one core per process)");
	return sb_detach(&sb);
}

static void row2(struct md_page *md, const char *a, const char *b)
{
	const char *cells[2] = { a, b };
	md_row(md, cells);
}

static void environment(struct cpage *p)
{
	const json_t *env = ds_candidate_env(p->c);
	if (!env)
		env = ds_environment(p->ds);
	static const char *const hdr[] = { "item", "value" };
	char buf[FMT_MAX], b2[FMT_MAX];
	md_block(&p->md, "## 2. Assessment environment");
	md_table(&p->md, hdr, 2);
	char *proc = processor_text(p->c, env);
	row2(&p->md, "processor", proc);
	free(proc);
	if (ds_is_arm(p->ds) && jget_str(env, "machine", NULL))
		row2(&p->md, "machine", jget_str(env, "machine", ""));
	char *clock = env_clock_text(env);
	row2(&p->md, "clock", clock);
	free(clock);
	row2(&p->md, "memory", fmt_memory_kib(buf, (uint64_t)jget_int(env, "memory_total_kib", 0)));
	char *s = xasprintf("%s / %s", jget_str(env, "os", "unknown"), jget_str(env, "kernel", "unknown"));
	row2(&p->md, "OS / kernel", s);
	free(s);
	s = xasprintf("%s / %s", jget_str(env, "compiler", "unknown"), jget_str(env, "build_tool", "unknown"));
	row2(&p->md, "compiler / build tool", s);
	free(s);
	const char *start = jget_str(p->ds->campaign, "started_utc", NULL);
	const char *end = jget_str(p->ds->campaign, "ended_utc", NULL);
	s = xasprintf("%s / %s", start ? fmt_date(buf, start) : DASH, end ? fmt_date(b2, end) : DASH);
	row2(&p->md, "campaign start / end (UTC)", s);
	free(s);
}

/* ---- section 3: KAT ----------------------------------------------------- */

struct footnotes {
	struct strlist causes;
	int measure_sentence[64];
};

static int footnote_for(struct footnotes *f, const char *cause, int measure)
{
	for (size_t i = 0; i < f->causes.n; i++)
		if (!strcmp(f->causes.items[i], cause))
			return (int)i + 1;
	sl_push(&f->causes, cause);
	if (f->causes.n <= 64)
		f->measure_sentence[f->causes.n - 1] = measure;
	return (int)f->causes.n;
}

static const char *instance_flags(const struct ds_instance *in)
{
	const char *f = jget_str(in->build, "flags", NULL);
	if (!f && in->n_rec)
		f = jget_str(in->rec[0].j, "build_flags", jget_str(in->rec[0].j, "flags", NULL));
	return f ? f : (in->optimized ? "guide-performance" : "guide");
}

/* The §3 sentence says what the KAT logs show was compared against: the
 * seed's words when every instance was checked against a kat.sha256 entry,
 * else the package's own KAT files (or both), and which had none. */
static void kat_sentence(struct cpage *p)
{
	const struct ds_candidate *c = p->c;
	int n[4] = { 0 };
	for (size_t i = 0; i < c->n_inst; i++)
		if (c->inst[i].kat_ref >= 0 && c->inst[i].kat_ref < 4)
			n[c->inst[i].kat_ref]++;
	char *manifest = ds_conf_str(p->ds, "kat_manifest_path", c->id, "<cand>/kat.sha256");
	char *code = md_code(manifest);
	const char *files = "the KAT files of the submitted package, compared line by line";
	struct strbuf sb = STRBUF_INIT;
	if (n[KATLOG_REF_MANIFEST] + n[KATLOG_REF_FILE] == 0 && n[KATLOG_REF_NONE])
		sb_adds(&sb, "No submitted KAT vectors were found for these libraries: each ran the "
			"official KAT driver before timing, with nothing to compare its output to.");
	else if (n[KATLOG_REF_MANIFEST] + n[KATLOG_REF_FILE] == 0)
		sb_adds(&sb, "Each library was checked against the submitted KAT vectors before timing.");
	else if (n[KATLOG_REF_FILE] && n[KATLOG_REF_MANIFEST])
		sb_addf(&sb, "Each library was checked against the submitted KAT vectors (SHA-256 "
			"manifest %s in the harness where it lists the instance, else %s) before "
			"timing.", code, files);
	else if (n[KATLOG_REF_FILE])
		sb_addf(&sb, "Each library was checked against the submitted KAT vectors (%s) before "
			"timing.", files);
	else
		sb_addf(&sb, "Each library was checked against the submitted KAT vectors (SHA-256 "
			"manifest %s in the harness) before timing.", code);
	if (n[KATLOG_REF_NONE] && n[KATLOG_REF_MANIFEST] + n[KATLOG_REF_FILE])
		sb_addf(&sb, " The package has no KAT file for %d of them (NOKAT).", n[KATLOG_REF_NONE]);
	md_block(&p->md, sb.buf);
	sb_free(&sb);
	free(code);
	free(manifest);
}

/* Does any built instance show these build flags? */
static int flags_shown(const struct ds_candidate *c, const char *flags)
{
	for (size_t i = 0; i < c->n_inst; i++)
		if (!strcmp(instance_flags(&c->inst[i]), flags))
			return 1;
	return 0;
}

/* Our note under the KAT table (with the extensions, a quoted paragraph
 * beside the seed-format text): what the seed wording this section shows
 * means here. */
static void kat_notes(struct cpage *p)
{
	static const struct {
		const char *flags, *meaning;
	} words[] = {
		{ "guide", "the compiler flags of the NICCS self-assessment guide" },
		{ "harness-default", "ngcc-perf's more permissive fallback flags, used because the "
		  "guide flags did not build the library or its KAT did not pass with them" },
		{ "guide-performance", "the guide's performance flags, for a build of an optimized "
		  "implementation (the instance's tag names it, e.g. (AVX2))" },
	};
	if (!p->charts)
		return;
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (flags_shown(p->c, words[i].flags))
			sb_addf(&sb, "%s`%s`: %s", sb.len ? "; " : "> Build flags: ", words[i].flags,
				words[i].meaning);
	if (sb.len)
		sb_adds(&sb, " (see the [method](method.md)).");
	if (!ds_is_baseline(p->c) && strstr(p->md.sb.buf, " in the harness"))
		sb_addf(&sb, "%s\"In the harness\" (the seed pages' wording): the KAT manifest "
			"is ngcc-perf's copy of the file given to `ngcc-perf add --kat-manifest`.",
			sb.len ? " " : "> ");
	if (sb.len)
		md_block(&p->md, sb.buf);
	sb_free(&sb);
}

static void kat_section(struct cpage *p)
{
	const struct ds_candidate *c = p->c;
	md_block(&p->md, "## 3. Functional testing (KAT)");
	if (ds_is_baseline(c))
		md_block(&p->md, "Each library was self-tested before timing: its digests of the "
			 "messages byte[i] = (131 i + L) mod 256, L = 0\xe2\x80\x93" "200 bytes and "
			 "256 B to 1 MiB, were compared with the same function computed with "
			 "OpenSSL's SM3 and HMAC-SM3 (the KAT column gives the self-test's status).");
	else
		kat_sentence(p);
	static const char *const hdr[] = { "instance", "build flags", "KAT" };
	md_table(&p->md, hdr, 3);
	struct footnotes fn = { STRLIST_INIT, { 0 } };
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct ds_instance *in = &c->inst[i];
		struct strbuf kat = STRBUF_INIT;
		sb_adds(&kat, in->kat_status);
		char **issue = ds_kat_issue(p->ds, c->id, in->label);
		const char *cause = issue && issue[2] && issue[3] && *issue[3] ? issue[3] : NULL;
		if (!cause && strcmp(in->kat_status, "PASS"))
			cause = in->kat_detail;
		if (cause)
			sb_addf(&kat, " [%d]", footnote_for(&fn, cause,
				issue && issue[2] && !strcmp(issue[2], "measure")));
		if (jget_bool(in->build, "excluded", 0) || !in->n_rec)
			sb_adds(&kat, " (not timed)");
		char *cell = instance_cell(in);
		const char *cells[3] = { cell, instance_flags(in), kat.buf };
		md_row(&p->md, cells);
		free(cell);
		sb_free(&kat);
	}
	for (size_t i = 0; i < fn.causes.n; i++)
		md_blockf(&p->md, "[%zu] %s%s", i + 1, fn.causes.items[i],
			  i < 64 && fn.measure_sentence[i]
			  ? " These instances are timed anyway; their KAT output was not reproduced." : "");
	sl_free(&fn.causes);
	kat_notes(p);
}

/* ---- section 4: performance ---------------------------------------------- */

static uint64_t sign_failures(const json_t *rec)
{
	uint64_t k = 0;
	size_t i;
	json_t *pr;
	json_array_foreach(json_object_get(rec, "processes"), i, pr)
		k += (uint64_t)jget_int(json_object_get(pr, "meta"), "sign_failures_retried", 0);
	return k;
}

static const char *n_cell(char *buf, const json_t *rec)
{
	const json_t *plan = json_object_get(rec, "plan");
	return fmt_n(buf, (uint64_t)jget_int(rec, "measurements", 0),
		     (int)jget_int(plan, "trials", 0), (long)jget_int(plan, "iterations_per_trial", 0),
		     sign_failures(rec));
}

static void pk_perf_row(struct md_page *md, const char *inst, const struct ds_record *r)
{
	char cyc[FMT_MAX], t[FMT_MAX], ops[FMT_MAX], med[FMT_MAX], n[FMT_MAX];
	if (!ds_record_complete(r)) {
		const char *cells[7] = { inst, r->op, "failed", "", "", "", "" };
		md_row(md, cells);
		return;
	}
	/* A figure the record lacks is a dash, never a value of the stack. */
	double mc, ms, os, md_s;
	int has_c = rec_real(r->j, "mean_cycles", &mc);
	int has_t = rec_real(r->j, "mean_seconds", &ms);
	int has_o = rec_real(r->j, "operations_per_second", &os);
	int has_m = rec_real(r->j, "median_trial_seconds", &md_s);
	const char *cells[7] = { inst, r->op, fmt_cycles(cyc, has_c ? &mc : NULL),
				 fmt_time(t, has_t ? &ms : NULL), has_o ? fmt_ops(ops, os) : DASH,
				 fmt_time(med, has_m ? &md_s : NULL), n_cell(n, r->j) };
	md_row(md, cells);
}

static void hash_perf_row(struct md_page *md, const char *inst, const struct ds_record *r)
{
	char msg[FMT_MAX], cyc[FMT_MAX], cpb[FMT_MAX], t[FMT_MAX], mbs[FMT_MAX], n[FMT_MAX];
	unsigned long long L = hash_op_bytes(r->op);
	fmt_hash_message(msg, L);
	if (!ds_record_complete(r)) {
		const char *cells[7] = { inst, msg, "failed", "", "", "", "" };
		md_row(md, cells);
		return;
	}
	double mc, ms, os, tp;
	int has_c = rec_real(r->j, "mean_cycles", &mc);
	int has_t = rec_real(r->j, "mean_seconds", &ms);
	int has_o = rec_real(r->j, "operations_per_second", &os);
	int has_tp = rec_real(r->j, "throughput_MB_per_second", &tp);
	if (!has_tp && has_o) {
		tp = (double)L * os / 1e6;
		has_tp = 1;
	}
	const char *cells[7] = { inst, msg, fmt_cycles(cyc, has_c ? &mc : NULL),
				 has_c && L ? fmt_fixed1(cpb, mc / (double)L) : DASH,
				 fmt_time(t, has_t ? &ms : NULL), has_tp ? fmt_fixed1(mbs, tp) : DASH,
				 n_cell(n, r->j) };
	md_row(md, cells);
}

static void performance(struct cpage *p)
{
	static const char *const pk[] = { "instance", "operation", "mean cycles", "mean time",
		"ops/s", "median trial", "n (trials \xc3\x97 iters)" };
	static const char *const hs[] = { "instance", "message", "mean cycles", "cycles/byte",
		"mean time", "MB/s", "n" };
	int hash = !strcmp(p->c->type, "hash");
	md_block(&p->md, "## 4. Performance");
	md_table(&p->md, hash ? hs : pk, 7);
	for (size_t i = 0; i < p->c->n_inst; i++) {
		const struct ds_instance *in = &p->c->inst[i];
		char *cell = instance_cell(in);
		for (size_t k = 0; k < in->n_rec; k++)
			(hash ? hash_perf_row : pk_perf_row)(&p->md, cell, &in->rec[k]);
		free(cell);
	}
	chart_beside(&p->md, p->charts, p->c, "cycles");
	chart_beside(&p->md, p->charts, p->c, "cycles-per-byte");
}

/* ---- section 5: resources ------------------------------------------------ */

/* Has the memory pass measured any operation of the candidate? */
static int any_memory_record(const struct ds_candidate *c)
{
	for (size_t i = 0; i < c->n_inst; i++)
		for (size_t k = 0; k < c->inst[i].n_rec; k++)
			if (ds_find_memory(&c->inst[i], c->inst[i].rec[k].op))
				return 1;
	return 0;
}

static void resources(struct cpage *p)
{
	static const char *const hdr[] = { "instance", "operation", "static: ELF image (bytes)",
		"baseline RSS", "peak RSS" };
	md_block(&p->md, "## 5. Resource consumption");
	md_block(&p->md, "Static memory is approximated by the library's loadable ELF segments; "
		 "peak memory is the process high-water mark (VmHWM) including the benchmark "
		 "driver and libc, so both are upper-bound proxies rather than isolated "
		 "algorithm memory.");
	md_table(&p->md, hdr, 5);
	for (size_t i = 0; i < p->c->n_inst; i++) {
		const struct ds_instance *in = &p->c->inst[i];
		char *cell = instance_cell(in);
		for (size_t k = 0; k < in->n_rec; k++) {
			const json_t *r = in->rec[k].j;
			const json_t *peak = json_object_get(r, "peak_rss_bytes");
			if (!json_is_integer(peak))
				continue;
			const json_t *base = json_object_get(r, "baseline_rss_bytes");
			const json_t *elf = json_object_get(in->build, "elf_load_bytes");
			char e[FMT_MAX], b[FMT_MAX], pk[FMT_MAX];
			const char *cells[5] = { cell, in->rec[k].op,
				json_is_integer(elf) ? fmt_uint(e, (uint64_t)json_integer_value(elf)) : DASH,
				json_is_integer(base) ? fmt_rss(b, (uint64_t)json_integer_value(base)) : DASH,
				fmt_rss(pk, (uint64_t)json_integer_value(peak)) };
			md_row(&p->md, cells);
		}
		free(cell);
	}
	/* our note: A.3 gives another peak RSS for the same operations */
	if (p->charts && memory_detail_shown(p->c) && any_memory_record(p->c))
		md_block(&p->md, "> Peak RSS here is the high-water mark of the timing processes "
			 "up to their last trial: loading, setup, warm-ups and every timed call, the "
			 "largest over the record's processes. The operation peak RSS of [A.3]"
			 "(#a3-memory-detail) is another figure: a separate memory pass resets the "
			 "high-water mark once setup is done, so it covers the operation's calls only.");
}

/* ---- section 6: sizes ------------------------------------------------------- */

/* API sizes of an instance: the first record carrying them. */
static const json_t *api_sizes(const struct ds_instance *in)
{
	for (size_t k = 0; k < in->n_rec; k++) {
		const json_t *s = json_object_get(in->rec[k].j, "sizes");
		if (json_is_integer(json_object_get(s, "pk_bytes")))
			return s;
	}
	return NULL;
}

static const char *size_of(char *buf, const json_t *sizes, const char *key)
{
	const json_t *v = json_object_get(sizes, key);
	return json_is_integer(v) ? fmt_uint(buf, (uint64_t)json_integer_value(v)) : DASH;
}

static const char *catalog_or(char *buf, char **row, int col, const json_t *sizes, const char *key)
{
	if (row && row[1] && row[2] && row[col] && *row[col]) {
		snprintf(buf, FMT_MAX, "%s", row[col]);
		return buf;
	}
	return size_of(buf, sizes, key);
}

/* Signature column: basis decides `(maximum)` or `≈ … (nominal)`. */
static const char *signature_cell(char *buf, char **row, size_t ncols, const json_t *sizes,
				  int *nominal)
{
	if (row && ncols > 4 && *row[4]) {
		const char *basis = ncols > 5 ? row[5] : "encoded";
		if (!strcmp(basis, "maximum-variable"))
			snprintf(buf, FMT_MAX, "%s (maximum)", row[4]);
		else if (!strcmp(basis, "nominal-variable")) {
			snprintf(buf, FMT_MAX, "\xe2\x89\x88 %s (nominal)", row[4]);
			*nominal = 1;
		} else
			snprintf(buf, FMT_MAX, "%s", row[4]);
		return buf;
	}
	return size_of(buf, sizes, "signature_bytes");
}

static size_t catalog_ncols(const struct csv_table *t, char **row)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i] == row)
			return t->ncols[i];
	return 0;
}

static const char *bytes_or_dash(char *buf, long long v)
{
	return v < 0 ? DASH : fmt_uint(buf, (uint64_t)v);
}

/* A key-exchange row (docs/report-format.md §5.6); NULL cells: unknown. */
static void kex_size_row(struct cpage *p, const char *cell, const struct kex_sizes *k)
{
	char n[FMT_MAX], pr[FMT_MAX], bw[FMT_MAX], sk[FMT_MAX], ss[FMT_MAX];
	char pa[FMT_MAX], pb[FMT_MAX];
	struct strbuf msgs = STRBUF_INIT;
	size_t i;
	json_t *m;
	json_array_foreach((json_t *)k->messages, i, m)
		sb_addf(&msgs, "%s%s", i ? " / " : "",
			json_is_integer(m) ? fmt_uint(n, (uint64_t)json_integer_value(m)) : DASH);
	char *keys = xasprintf("%s / %s", bytes_or_dash(pa, k->pk_a), bytes_or_dash(pb, k->pk_b));
	const char *cells[8] = { cell, bytes_or_dash(n, k->passes), msgs.len ? msgs.buf : DASH,
		bytes_or_dash(pr, k->protocol), keys, bytes_or_dash(bw, k->bandwidth),
		bytes_or_dash(sk, k->sk), bytes_or_dash(ss, k->ss) };
	md_row(&p->md, cells);
	free(keys);
	sb_free(&msgs);
}

/* The sentence on where the sizes come from. */
static void sizes_source(struct cpage *p, int kex)
{
	const struct dataset *ds = p->ds;
	const struct ds_candidate *c = p->c;
	if (kex && csv_find(&ds->kex_bandwidth, c->id, NULL)) {
		char *path = ds_conf_str(ds, "kex_catalog_path", c->id, "kex_bandwidth.csv");
		char *code = md_code(path);
		md_blockf(&p->md, "Public keys A and B and protocol-message bytes follow the curated "
			  "%s catalog where it lists the instance; the messages are the lengths the "
			  "API returned, secret-key and shared-secret lengths remain API figures. See "
			  "the [size audit](../size-audit.md) for disagreements.", code);
		free(code);
		free(path);
	} else if (!kex && csv_find(&ds->external_sizes, c->id, NULL)) {
		char *path = ds_conf_str(ds, "size_catalog_path", c->id, "external_sizes.csv");
		char *code = md_code(path);
		md_blockf(&p->md, "External public-key, ciphertext and signature sizes follow the "
			  "curated %s catalog; secret-key and shared-secret lengths remain API "
			  "figures. See the [size audit](../size-audit.md) for disagreements.", code);
		free(code);
		free(path);
	} else if (kex) {
		md_block(&p->md, "Messages and public keys A and B are the lengths the API returned "
			 "in the measured exchanges (its declared length where none was observed); "
			 "secret-key and shared-secret lengths are the API's declared figures. "
			 "Bandwidth is the protocol messages plus both public keys. See the "
			 "[size audit](../size-audit.md) for the API's figures.");
	} else {
		md_block(&p->md, "All sizes are the lengths declared by the implementation's API. "
			 "See the [size audit](../size-audit.md) for observed lengths.");
	}
}

static void sizes(struct cpage *p)
{
	const struct dataset *ds = p->ds;
	const struct ds_candidate *c = p->c;
	int kem = !strcmp(c->type, "kem"), sign = !strcmp(c->type, "sign");
	md_block(&p->md, "## 6. Transmission and storage overhead");
	sizes_source(p, !kem && !sign);
	static const char *const kh[] = { "instance", "public key", "secret key", "ciphertext",
		"shared secret" };
	static const char *const sh[] = { "instance", "public key", "secret key", "signature" };
	static const char *const xh[] = { "instance", "passes", "messages (bytes; raw API)",
		"protocol-message bytes", "public key A / B", "bandwidth (bytes)",
		"long-term sk (API cap)", "shared secret" };
	md_table(&p->md, kem ? kh : sign ? sh : xh, kem ? 5 : sign ? 4 : 8);
	int nominal = 0;
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct ds_instance *in = &c->inst[i];
		const json_t *s = api_sizes(in);
		if (in->optimized || !s)
			continue;
		char *cell = instance_cell(in);
		char **row = csv_find(&ds->external_sizes, c->id, in->label);
		char a[FMT_MAX], b[FMT_MAX], d[FMT_MAX], e[FMT_MAX];
		if (kem) {
			const char *cells[5] = { cell, catalog_or(a, row, 2, s, "pk_bytes"),
				size_of(b, s, "sk_bytes"), catalog_or(d, row, 3, s, "ct_bytes"),
				size_of(e, s, "ss_bytes") };
			md_row(&p->md, cells);
		} else if (sign) {
			const char *cells[4] = { cell, catalog_or(a, row, 2, s, "pk_bytes"),
				size_of(b, s, "sk_bytes"),
				signature_cell(d, row, catalog_ncols(&ds->external_sizes, row), s, &nominal) };
			md_row(&p->md, cells);
		} else {
			struct kex_sizes k;
			if (!kex_instance_sizes(ds, c->id, in, &k))
				kex_size_row(p, cell, &k);
		}
		free(cell);
	}
	if (nominal)
		md_block(&p->md, "Signatures marked \xe2\x89\x88 vary in length; the figure is the "
			 "specification's representative size.");
}

/* ---- symmetric primitives --------------------------------------------------- */

/* The share rows (complete profiles of reference builds); returns how many. */
static int share_rows(struct cpage *p, int write)
{
	int rows = 0;
	for (size_t i = 0; i < p->c->n_inst; i++) {
		const struct ds_instance *in = &p->c->inst[i];
		if (in->optimized)
			continue;
		char *cell = instance_cell(in);
		for (size_t k = 0; k < in->n_prof; k++) {
			const struct ds_profile *pr = &in->prof[k];
			if (!ds_profile_complete(pr))
				continue;
			rows++;
			if (!write)
				continue;
			double h, d;
			char a[FMT_MAX], b[FMT_MAX];
			profile_shares(pr->j, &h, &d);
			char *calls = profile_calls(pr->j);
			const char *cells[5] = { cell, pr->op, fmt_percent(a, &h), fmt_percent(b, &d), calls };
			md_row(&p->md, cells);
			free(calls);
		}
		free(cell);
	}
	return rows;
}

static void symmetric(struct cpage *p)
{
	char *verdict, *notes;
	candidate_verdict(p->ds, p->c, &verdict, &notes);
	md_block(&p->md, "## Symmetric primitives");
	int profiled = ds_candidate_profiled(p->c);
	if (verdict || profiled)
		md_blockf(&p->md, "[Survey](../symmetric-survey.md) verdict: **%s**%s%s",
			  verdict ? verdict : "not surveyed", notes ? " \xe2\x80\x94 " : "",
			  notes ? notes : "");
	free(verdict);
	free(notes);
	if (!profiled) {
		/* Nothing measured: say so rather than show an empty table. */
		md_block(&p->md, "Not profiled in this run: the share of each operation spent in "
			 "the ICCS placeholder hash functions and in the ICCS DRNG was not measured "
			 "(`ngcc-perf profile` on the run measures it and surveys the symmetric "
			 "primitives).");
		return;
	}
	if (!share_rows(p, 0)) {
		md_block(&p->md, "No operation of a reference build has a complete profile in this "
			 "run, so there is no share of time in the ICCS placeholder hash functions "
			 "and DRNG to show (see the profile files in the evidence index).");
		return;
	}
	md_block(&p->md, "Share of each operation spent in the ICCS placeholder hash functions "
		 "and in the ICCS DRNG (reference build, measured in the same run with link-time "
		 "wrappers):");
	static const char *const hdr[] = { "instance", "operation", "pseudohash/XOF/sm3", "DRNG",
		"calls per operation" };
	md_table(&p->md, hdr, 5);
	share_rows(p, 1);
	chart_beside(&p->md, p->charts, p->c, "shares");
}

/* ---- section 7: evidence index ---------------------------------------------- */

/* Rows "<prefix> <op>" → path for records or profiles, ops in byte order. */
static void evidence_rows(struct md_page *md, const char *cell, const char *prefix,
			  char *const *ops, char *const *paths, size_t n)
{
	size_t *order = xcalloc(n ? n : 1, sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t a = 1; a < n; a++)
		for (size_t b = a; b > 0 && byte_cmp(ops[order[b - 1]], ops[order[b]]) > 0; b--) {
			size_t t = order[b];
			order[b] = order[b - 1];
			order[b - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		char *item = xasprintf("%s %s", prefix, ops[order[i]]);
		char *code = md_code(paths[order[i]]);
		const char *cells[3] = { cell, item, code };
		md_row(md, cells);
		free(item);
		free(code);
	}
	free(order);
}

static void evidence_index(struct cpage *p)
{
	char *dpath = ds_conf_str(p->ds, "dataset_path", p->c->id, "data/<SYS>/");
	char *code = md_code(dpath);
	md_block(&p->md, "## 7. Raw evidence index");
	md_blockf(&p->md, "Paths are relative to %s in the harness; each JSON file records its "
		  "commands, environment and trials.", code);
	free(code);
	free(dpath);
	static const char *const hdr[] = { "instance", "item", "file" };
	md_table(&p->md, hdr, 3);
	for (size_t i = 0; i < p->c->n_inst; i++) {
		const struct ds_instance *in = &p->c->inst[i];
		char *cell = instance_cell(in);
		if (in->kat_log_rel) {
			char dg[FMT_MAX];
			char *d = md_code(fmt_digest_prefix(dg, in->kat_sha256));
			char *item = xasprintf("KAT log (sha256 %s)", d);
			char *path = md_code(in->kat_log_rel);
			const char *cells[3] = { cell, item, path };
			md_row(&p->md, cells);
			free(d);
			free(item);
			free(path);
		}
		char **ops = xcalloc(in->n_rec + in->n_prof + 1, sizeof *ops);
		char **paths = xcalloc(in->n_rec + in->n_prof + 1, sizeof *paths);
		for (size_t k = 0; k < in->n_rec; k++) {
			ops[k] = in->rec[k].op;
			paths[k] = in->rec[k].relpath;
		}
		evidence_rows(&p->md, cell, "timing", ops, paths, in->n_rec);
		size_t n = 0;
		for (size_t k = 0; k < in->n_prof; k++) {
			if (!strcmp(in->prof[k].op, "RELINK_FAILED"))
				continue;
			ops[n] = in->prof[k].op;
			paths[n++] = in->prof[k].relpath;
		}
		evidence_rows(&p->md, cell, "hash profile", ops, paths, n);
		free(ops);
		free(paths);
		free(cell);
	}
	char *scripts = ds_conf_str(p->ds, "scripts", p->c->id, "ngcc-perf");
	const char *repo = jget_str(p->ds->conf, "repository_url", NULL);
	if (repo)
		md_blockf(&p->md, "Scripts: %s in the [harness](%s).", scripts, repo);
	else
		md_blockf(&p->md, "Scripts: %s in the harness.", scripts);
	free(scripts);
	if (p->charts)
		md_block(&p->md, "> \"In the harness\" (the seed pages' wording): the paths are "
			 "those of the dataset `ngcc-perf publish` writes, and the scripts are the tool "
			 "that measured the data and rendered this page.");
}

/* ---- beyond the guide (§5.9) ----------------------------------------------- */


/* ---- the page ---------------------------------------------------------- */

char *page_candidate_charted(const struct dataset *ds, const struct ds_candidate *c,
			     const struct site_charts *charts, size_t *len)
{
	struct cpage p = { ds, c, MD_PAGE_INIT, charts };
	header(&p);
	basic_information(&p);
	environment(&p);
	kat_section(&p);
	performance(&p);
	resources(&p);
	if (strcmp(c->type, "hash"))
		sizes(&p);
	if (strcmp(c->type, "hash"))
		symmetric(&p);
	evidence_index(&p);
	candidate_extensions(&p.md, ds, c, charts != NULL, charts);
	return md_finish(&p.md, len);
}

char *page_candidate(const struct dataset *ds, const struct ds_candidate *c,
		     int extensions, size_t *len)
{
	struct site_charts charts = { NULL, 0 };
	if (extensions)
		site_candidate_charts(ds, c, &charts);
	char *md = page_candidate_charted(ds, c, extensions ? &charts : NULL, len);
	site_charts_free(&charts);
	return md;
}
