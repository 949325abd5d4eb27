/*
 * page_summary.c — the summary page <SYS>/index.md (docs/report-format.md §6):
 * one row per reference instance, per category, with the cycle cells,
 * symmetric shares, sizes and notes.
 */
#include "report/pages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/json.h"
#include "host/env.h"
#include "method/format.h"
#include "method/types.h"
#include "model/baseline_view.h"
#include "model/size_audit.h"
#include "model/variant_view.h"
#include "stats/stats.h"

#define DASH FMT_DASH

struct spage {
	const struct dataset *ds;
	struct md_page md;
};

/* ---- cells -------------------------------------------------------------- */

static int candidate_has_positive_share(const struct ds_candidate *c)
{
	for (size_t i = 0; i < c->n_inst; i++)
		for (size_t k = 0; k < c->inst[i].n_prof; k++) {
			double h, d;
			if (!ds_profile_complete(&c->inst[i].prof[k]))
				continue;
			profile_shares(c->inst[i].prof[k].j, &h, &d);
			if (h > 0)
				return 1;
		}
	return 0;
}

/* `12.63 M (0.3%)`, `48.20 G (99%, n=35)`, `failed`, `–`. */
static char *cycle_cell(const struct ds_candidate *c, const struct ds_instance *in, const char *op)
{
	const struct ds_record *r = ds_find_record(in, op);
	if (!r)
		return xstrdup(DASH);
	if (!ds_record_complete(r))
		return xstrdup("failed");
	char cyc[FMT_MAX], pct[FMT_MAX];
	double mc;
	int has = rec_real(r->j, "mean_cycles", &mc);
	struct strbuf paren = STRBUF_INIT;
	const struct ds_profile *p = ds_find_profile(in, op);
	if (p && ds_profile_complete(p)) {
		double h, d;
		profile_shares(p->j, &h, &d);
		sb_adds(&paren, h <= 0 && !candidate_has_positive_share(c) ? FMT_UNKNOWN_SHARE
			: fmt_percent(pct, &h));
	}
	long long n = jget_int(r->j, "measurements", 0);
	if (n < 100)
		sb_addf(&paren, "%sn=%lld", paren.len ? ", " : "", n);
	char *s = paren.len ? xasprintf("%s (%s)", fmt_cycles(cyc, has ? &mc : NULL), paren.buf)
			    : xstrdup(fmt_cycles(cyc, has ? &mc : NULL));
	sb_free(&paren);
	return s;
}

static const json_t *instance_sizes(const struct ds_instance *in)
{
	for (size_t k = 0; k < in->n_rec; k++) {
		const json_t *s = json_object_get(in->rec[k].j, "sizes");
		if (json_is_object(s))
			return s;
	}
	return NULL;
}

/* Public key (col 2), ciphertext (3) or signature (4): catalog, else API;
 * col -1: a key exchange's bandwidth (kex_instance_sizes). */
static char *size_cell(const struct dataset *ds, const struct ds_candidate *c,
		       const struct ds_instance *in, int col, const char *api_key)
{
	if (col < 0) {
		struct kex_sizes k;
		return !kex_instance_sizes(ds, c->id, in, &k) && k.bandwidth >= 0
			? xasprintf("%lld", k.bandwidth) : xstrdup(DASH);
	}
	char **row = csv_find(&ds->external_sizes, c->id, in->label);
	size_t nc = 0;
	for (size_t i = 0; row && i < ds->external_sizes.n; i++)
		if (ds->external_sizes.rows[i] == row)
			nc = ds->external_sizes.ncols[i];
	if (row && (size_t)col < nc && *row[col]) {
		/* the basis describes the variable-length object, the signature */
		int nominal = col == 4 && nc > 5 && !strcmp(row[5], "nominal-variable");
		return xasprintf("%s%s", nominal ? "\xe2\x89\x88" : "", row[col]);
	}
	const json_t *v = json_object_get(instance_sizes(in), api_key);
	return json_is_integer(v) ? xasprintf("%lld", (long long)json_integer_value(v)) : xstrdup(DASH);
}

static void add_note(struct strlist *notes, const char *n)
{
	if (n && *n && !sl_contains(notes, n))
		sl_push(notes, n);
}

static void coverage_note(struct strlist *notes, const struct ds_instance *in)
{
	struct strbuf hits = STRBUF_INIT;
	for (size_t k = 0; k < in->n_prof; k++) {
		const json_t *cov = json_object_get(in->prof[k].j, "coverage");
		if (strcmp(jget_str(cov, "status", ""), "partial"))
			continue;
		size_t i;
		json_t *h;
		json_array_foreach(json_object_get(cov, "hits"), i, h) {
			const char *t = json_is_string(h) ? json_string_value(h) : jget_str(h, "name", NULL);
			if (t && !strstr(hits.buf ? hits.buf : "", t))
				sb_addf(&hits, "%s%s", hits.len ? ", " : "", t);
		}
	}
	if (hits.len) {
		char *n = xasprintf("own primitives detected: %s", hits.buf);
		add_note(notes, n);
		free(n);
	}
	sb_free(&hits);
}

static char *notes_cell(const struct dataset *ds, const struct ds_candidate *c,
			const struct ds_instance *in)
{
	struct strlist notes = STRLIST_INIT;
	char *verdict, *vnotes;
	candidate_verdict(ds, c, &verdict, &vnotes);
	if (verdict && !strcmp(verdict, "bypass"))
		add_note(&notes, "own symmetric primitives; placeholder share unavailable");
	else if (verdict && !strcmp(verdict, "mixed"))
		add_note(&notes, "mixed own/ICCS primitives");
	else if (verdict && !strcmp(verdict, "instance-dependent"))
		add_note(&notes, "hash backend varies by instance");
	free(verdict);
	free(vnotes);
	if (strcmp(in->kat_status, "PASS"))
		add_note(&notes, "KAT/output caveat; see candidate page");
	coverage_note(&notes, in);
	for (size_t k = 0; k < in->n_rec; k++)
		if (jget_bool(in->rec[k].j, "noisy", 0))
			add_note(&notes, "noisy");
	for (size_t i = 0; i < ds->summary_notes.n; i++) {
		char **r = ds->summary_notes.rows[i];
		if (ds->summary_notes.ncols[i] >= 3 && !strcmp(r[0], c->id) && ds_regex_match(r[1], in->label))
			add_note(&notes, r[2]);
	}
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < notes.n; i++)
		sb_addf(&sb, "%s%s", i ? "; " : "", notes.items[i]);
	sl_free(&notes);
	if (!sb.len)
		sb_adds(&sb, DASH);
	return sb_detach(&sb);
}

static char *instance_link(const struct ds_candidate *c, const struct ds_instance *in)
{
	char *code = md_code(in->label);
	char *s = strcmp(in->kat_status, "PASS")
		? xasprintf("[%s](%s.md) \xe2\x9a\xa0 KAT %s", code, c->id, in->kat_status)
		: xasprintf("[%s](%s.md)", code, c->id);
	free(code);
	return s;
}

static char *algorithm_cell(const struct dataset *ds, const struct ds_candidate *c)
{
	const char *pdf = ds_cand_conf(ds, c->id, "spec_pdf_url");
	return pdf ? xasprintf("%s [PDF](%s)", c->algorithm, pdf) : xstrdup(c->algorithm);
}

static const char *target_cell(const struct dataset *ds, const struct ds_candidate *c,
			       const struct ds_instance *in)
{
	char **r = csv_find(&ds->security_targets, c->id, in->label);
	return r && r[1] && r[2] && *r[2] ? r[2] : DASH;
}

/* ---- public-key sections ------------------------------------------------------ */

struct pk_section {
	const char *type, *heading;
	const char *ops[3];
	int nops;
	const char *size_keys[2];
	int size_cols[2];
	int nsizes;
	const char *const *header;
	size_t ncols;
};

static const char *const kem_hdr[] = { "id", "algorithm", "instance performance report",
	"target (bits)", "keygen cycles (sym %)", "enc cycles (sym %)", "dec cycles (sym %)",
	"public key (B)", "ciphertext (B)", "notes" };
static const char *const sig_hdr[] = { "id", "algorithm", "instance performance report",
	"target (bits)", "keygen cycles (sym %)", "sign cycles (sym %)", "verify cycles (sym %)",
	"public key (B)", "signature (B)", "notes" };
static const char *const kex_hdr[] = { "id", "algorithm", "instance performance report",
	"target (bits)", "exchange cycles (sym %)", "bandwidth (B)", "notes" };

static const struct pk_section sections[] = {
	{ "kem", "## Key encapsulation", { "keygen", "enc", "dec" }, 3,
	  { "pk_bytes", "ct_bytes" }, { 2, 3 }, 2, kem_hdr, 10 },
	{ "sign", "## Digital signatures", { "keygen", "sign", "verify" }, 3,
	  { "pk_bytes", "signature_bytes" }, { 2, 4 }, 2, sig_hdr, 10 },
	{ "kex", "## Key exchange", { "exchange" }, 1, { "bandwidth_bytes" }, { -1 }, 1, kex_hdr, 7 },
};

static char *caption(const struct dataset *ds)
{
	double hz = env_reference_clock_hz(ds_environment(ds));
	char ghz[FMT_MAX], t[FMT_MAX];
	double per_m = hz > 0 ? 1e6 / hz : 0;
	return xasprintf("Cycles at %s; 1 M cycles = %s.", fmt_clock_khz(ghz, hz / 1e3),
			 hz > 0 ? fmt_time(t, &per_m) : DASH);
}

/* A section's heading, cycles caption and table header, before its first
 * row only: a section without rows is left out. */
static void start_table(struct spage *p, int *started, const char *heading,
			const char *const *hdr, size_t ncols)
{
	if (*started)
		return;
	md_block(&p->md, heading);
	char *cap = caption(p->ds);
	md_block(&p->md, cap);
	free(cap);
	md_table(&p->md, hdr, ncols);
	*started = 1;
}

/* The section's header, with a checks column before the notes when the
 * dataset holds check records; returns the column count. */
static size_t pk_header(const struct dataset *ds, const struct pk_section *s, const char **hdr)
{
	size_t n = 0;
	for (size_t i = 0; i + 1 < s->ncols; i++)
		hdr[n++] = s->header[i];
	if (ds_has_checks(ds))
		hdr[n++] = "checks";
	hdr[n++] = s->header[s->ncols - 1];
	return n;
}

static void pk_section(struct spage *p, const struct pk_section *s)
{
	const struct dataset *ds = p->ds;
	const char *hdr[12];
	size_t ncols = pk_header(ds, s, hdr);
	int started = 0;
	for (size_t i = 0; i < ds->n_cand; i++) {
		const struct ds_candidate *c = &ds->cand[i];
		if (strcmp(c->type, s->type))
			continue;
		for (size_t k = 0; k < c->n_inst; k++) {
			const struct ds_instance *in = &c->inst[k];
			if (in->optimized)
				continue;
			start_table(p, &started, s->heading, hdr, ncols);
			char *cells[12];
			size_t n = 0;
			cells[n++] = xasprintf("[%s](%s.md)", c->id, c->id);
			cells[n++] = algorithm_cell(ds, c);
			cells[n++] = instance_link(c, in);
			cells[n++] = xstrdup(target_cell(ds, c, in));
			for (int o = 0; o < s->nops; o++)
				cells[n++] = cycle_cell(c, in, s->ops[o]);
			for (int z = 0; z < s->nsizes; z++)
				cells[n++] = size_cell(ds, c, in, s->size_cols[z], s->size_keys[z]);
			if (ncols > s->ncols)
				cells[n++] = check_summary_cell(in);
			cells[n++] = notes_cell(ds, c, in);
			md_row(&p->md, (const char *const *)cells);
			for (size_t j = 0; j < n; j++)
				free(cells[j]);
		}
	}
}

/* ---- hash sections ------------------------------------------------------------ */

static char *hash_cycles_cell(const struct ds_instance *in, unsigned long long L)
{
	char op[32], buf[FMT_MAX];
	snprintf(op, sizeof op, "hash_%llu", L);
	const struct ds_record *r = ds_find_record(in, op);
	if (!r)
		return xstrdup(DASH);
	if (!ds_record_complete(r))
		return xstrdup("failed");
	double v;
	int ok = rec_real(r->j, "mean_cycles", &v);
	return xstrdup(fmt_cycles(buf, ok ? &v : NULL));
}

/* "pseudoXOF", "pseudoXOF (copy in kem-27)", plus " ⚠ self-test <STATUS>"
 * when its self-test did not pass. */
static char *baseline_fn_cell(const struct baseline_row *r)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, iccs_fn_name(r->id.fn));
	if (r->id.copy_of[0])
		sb_addf(&sb, " (copy in %s)", r->id.copy_of);
	if (strcmp(r->in->kat_status, "PASS"))
		sb_addf(&sb, " \xe2\x9a\xa0 self-test %s", r->in->kat_status);
	return sb_detach(&sb);
}

static void baseline_section(struct spage *p)
{
	static const char *const hdr[] = { "ICCS function", "output bits", "32 B", "128 B", "512 B",
		"1 KiB", "4 KiB", "8 KiB", "16 KiB", "64 KiB", "cycles/byte (64 KiB)" };
	static const unsigned long long lengths[] = { 32, 128, 512, 1024, 4096, 8192, 16384, 65536 };
	int started = 0;
	size_t n;
	struct baseline_row *rows = ds_baseline_rows(p->ds, &n);
	for (size_t i = 0; i < n; i++) {
		start_table(p, &started, "## ICCS baseline functions", hdr, 11);
		char *cells[11];
		char b[FMT_MAX];
		double v;
		cells[0] = baseline_fn_cell(&rows[i]);
		cells[1] = xasprintf("%d", rows[i].id.bits);
		for (int l = 0; l < 8; l++)
			cells[2 + l] = hash_cycles_cell(rows[i].in, lengths[l]);
		cells[10] = xstrdup(ds_hash_cycles(rows[i].in, 65536, &v) ? fmt_fixed1(b, v / 65536)
								       : DASH);
		md_row(&p->md, (const char *const *)cells);
		for (int j = 0; j < 11; j++)
			free(cells[j]);
	}
	free(rows);
}

/* `2294 (0.76×)`: cycles and the ratio to pseudoXOF of the same width and
 * length; `(ratio –)` without a baseline. */
static char *hash_ratio_cell(const struct dataset *ds, const struct ds_instance *in,
			     unsigned long long L)
{
	double v, ratio;
	char buf[FMT_MAX], r[FMT_MAX];
	if (!ds_hash_cycles(in, L, &v))
		return hash_cycles_cell(in, L);
	int ok = ds_hash_ratio(ds, in, L, &ratio, NULL);
	return xasprintf("%s %s", fmt_cycles(buf, &v), fmt_hash_ratio(r, ok ? &ratio : NULL));
}

static void hash_section(struct spage *p)
{
	static const char *const hdr[] = { "id", "algorithm", "instance performance report",
		"32 B cycles (\xc3\x97 pseudoXOF)", "1 KiB cycles (\xc3\x97 pseudoXOF)",
		"64 KiB cycles (\xc3\x97 pseudoXOF)", "notes" };
	static const unsigned long long lens[] = { 32, 1024, 65536 };
	int started = 0;
	for (size_t i = 0; i < p->ds->n_cand; i++) {
		const struct ds_candidate *c = &p->ds->cand[i];
		if (strcmp(c->type, "hash") || ds_is_baseline(c))
			continue;
		for (size_t k = 0; k < c->n_inst; k++) {
			const struct ds_instance *in = &c->inst[k];
			if (in->optimized)
				continue;
			start_table(p, &started, "## Hash functions", hdr, 7);
			char *cells[7];
			cells[0] = xasprintf("[%s](%s.md)", c->id, c->id);
			cells[1] = algorithm_cell(p->ds, c);
			cells[2] = instance_link(c, in);
			for (int l = 0; l < 3; l++)
				cells[3 + l] = hash_ratio_cell(p->ds, in, lens[l]);
			cells[6] = notes_cell(p->ds, c, in);
			md_row(&p->md, (const char *const *)cells);
			for (int j = 0; j < 7; j++)
				free(cells[j]);
		}
	}
}

/* ---- the page ------------------------------------------------------------------- */

/* Flags the legend explains only when a table shows them. */
static int any_noisy(const struct dataset *ds)
{
	for (size_t i = 0; i < ds->n_cand; i++)
		for (size_t k = 0; k < ds->cand[i].n_inst; k++) {
			const struct ds_instance *in = &ds->cand[i].inst[k];
			for (size_t r = 0; !in->optimized && r < in->n_rec; r++)
				if (jget_bool(in->rec[r].j, "noisy", 0))
					return 1;
		}
	return 0;
}

static int any_unprofiled(const struct dataset *ds)
{
	for (size_t i = 0; i < ds->n_cand; i++)
		if (strcmp(ds->cand[i].type, "hash") && !ds_candidate_profiled(&ds->cand[i]))
			return 1;
	return 0;
}

/* A key-encapsulation, signature or key-exchange table is on the page. */
static int any_public_key(const struct dataset *ds)
{
	for (size_t i = 0; i < ds->n_cand; i++)
		for (size_t s = 0; s < sizeof sections / sizeof *sections; s++)
			if (!strcmp(ds->cand[i].type, sections[s].type))
				return 1;
	return 0;
}

static void legend(struct spage *p)
{
	const struct dataset *ds = p->ds;
	char *cat = ds_conf_str(ds, "size_catalog_path", NULL, "external_sizes.csv");
	char *code = md_code(cat);
	md_begin(&p->md);
	md_linef(&p->md, "- **Cycles**: the arithmetic mean over all timed calls of all trials.");
	md_linef(&p->md, "- **Symmetric %%**: the share of the operation spent in pseudohash, "
		 "pseudoXOF and sm3hash, excluding the DRNG and own primitives. `??%%` means no "
		 "ICCS-facing share could be measured.%s", any_unprofiled(ds) ? " Cycles without "
		 "a share in parentheses are of candidates not profiled in this run." : "");
	char cv[FMT_MAX];
	md_linef(&p->md, "- **Notation**: `%s` not measured; `failed` the measurement did not "
		 "complete; `n=` fewer than 100 timed calls; `\xe2\x9a\xa0 KAT <STATUS>` submitted "
		 "KATs not reproduced%s%s%s.", DASH, any_noisy(ds) ? "; `noisy` (notes) the trial "
		 "times of an operation vary with a coefficient of variation above " : "",
		 any_noisy(ds) ? fmt_percent(cv, &(double){ STATS_NOISY_CV }) : "",
		 any_noisy(ds) ? " (table A.1 of the candidate page)" : "");
	if (ds->external_sizes.present)
		md_linef(&p->md, "- **Sizes**: bytes. Public key, ciphertext and signature follow the "
			 "curated %s catalog where it lists the instance (`\xe2\x89\x88` marks a "
			 "nominal size), otherwise the API lengths.", code);
	else
		md_linef(&p->md, "- **Sizes**: bytes, the lengths declared by each implementation's API.");
	if (any_public_key(ds) && ds->security_targets.present)
		md_linef(&p->md, "- **Target (bits)**: the security level claimed for the instance, "
			 "from the catalog `security_targets.csv` (`ID;Instance;TargetBits`); `%s` "
			 "where it does not list the instance.", DASH);
	else if (any_public_key(ds))
		md_linef(&p->md, "- **Target (bits)**: the security level claimed for the instance, "
			 "from the optional catalog `security_targets.csv` (`ID;Instance;TargetBits`, "
			 "in the workspace; ngcc-perf's usage.md, \"Catalogs\"). There is none for "
			 "these pages, so the column shows `%s`.", DASH);
	if (ds_has_checks(ds))
		md_linef(&p->md, "- **Checks**: what `ngcc-perf check` found beyond the KAT (round "
			 "trips, AddressSanitizer and UBSan, valgrind memcheck, constant time): "
			 "`clean`, or the number of findings; `%s` not checked (check covers %s "
			 "instances). Details on the candidate pages and on the [checks page]"
			 "(checks.md).", DASH, cand_types_checked());
	md_linef(&p->md, "- **Scope**: reference builds only; optimized builds are on the candidate "
		 "pages.%s", ds_variants_measured(ds) ? " The fastest build of each operation, with "
		 "its speed-up over the reference, is in [Fastest implementation]"
		 "(#fastest-implementation)." : "");
	md_linef(&p->md, "- **Links**: [method and limitations](method.md), [symmetric survey]"
		 "(../symmetric-survey.md), [size audit](../size-audit.md); the evidence and CSV "
		 "downloads are under `data/%s/` of the published dataset. These are independent "
		 "measurements, not NICCS results.", ds->system_id);
	free(code);
	free(cat);
}

char *page_summary(const struct dataset *ds, size_t *len)
{
	struct spage p = { ds, MD_PAGE_INIT };
	const json_t *env = ds_environment(ds);
	char *sw = system_switch(ds, "index.md", NULL);
	md_blockf(&p.md, "[Performance measurements](../index.md) \xe2\x80\xba system: %s", sw);
	free(sw);
	md_blockf(&p.md, "# Performance \xe2\x80\x94 %s, system %s", ds_arch_name(ds), ds->system_id);
	char *clock = env_clock_text(env);
	md_blockf(&p.md, "One core (CPU %lld) of %s %s; %s.", jget_int(env, "cpu_number", 0),
		  fmt_article(jget_str(env, "cpu_model", "")),
		  jget_str(env, "cpu_model", "unknown CPU"), clock);
	free(clock);
	legend(&p);
	char *notice = unfixed_notice(ds, NULL);
	if (notice)
		md_block(&p.md, notice);
	free(notice);
	for (size_t s = 0; s < sizeof sections / sizeof *sections; s++)
		pk_section(&p, &sections[s]);
	baseline_section(&p);
	hash_section(&p);
	summary_fastest(&p.md, ds);
	return md_finish(&p.md, len);
}
