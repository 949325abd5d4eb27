/*
 * compare_text.c — the text forms of a comparison (compare.h): the terminal
 * table, the Markdown sections and the CSV file.  Each states the method
 * (bootstrap, seed, threshold), lists every setting that differs and every
 * item only one side has: nothing is compared silently.
 */
#include "compare/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "method/format.h"

static const char *ratio_text(char out[FMT_MAX], const struct cmp_ratio *x)
{
	if (!x->valid)
		return FMT_DASH;
	snprintf(out, FMT_MAX, "%.3f", x->ratio);
	return out;
}

static const char *ci_text(char out[FMT_MAX], const struct cmp_ratio *x)
{
	if (!x->valid || isnan(x->lo))
		return FMT_DASH;
	snprintf(out, FMT_MAX, "%.3f\xe2\x80\x93%.3f", x->lo, x->hi);
	return out;
}

static const char *time_text(char out[FMT_MAX], const struct cmp_ratio *x, int which)
{
	if (!x->valid)
		return FMT_DASH;
	double s = which ? x->b : x->a;
	return fmt_time(out, &s);
}

char *cmp_method_sentence(const struct cmp_result *r)
{
	return xasprintf(
		"B/A is the ratio of the mean time per call (total time over total calls of "
		"the record's trials; cycles the same way where both sides have them).  "
		"Its 95 %% interval is a percentile bootstrap over the trials: %u resamples, "
		"each drawing every side's trials with replacement; deterministic (splitmix64 "
		"seeded per row with the first 8 bytes of the SHA-256 of `<candidate>/<instance>/"
		"<operation>` xor %llu).  A row is a regression when the whole interval lies "
		"above 1 + %g %%, an improvement when it lies below 1 \xe2\x88\x92 %g %%, and "
		"otherwise no significant change.",
		r->opts.resamples, (unsigned long long)r->opts.seed, 100 * r->opts.threshold,
		100 * r->opts.threshold);
}

static void summary_line(struct strbuf *sb, const struct cmp_result *r)
{
	sb_addf(sb, "%zu compared: %zu regression(s), %zu improvement(s), %zu without "
		"significant change, %zu not compared; %zu setting(s) differ; %zu item(s) only "
		"in %s, %zu only in %s.\n",
		r->n_rows, r->n_regression, r->n_improvement, r->n_same, r->n_na, r->n_mism,
		r->only_a.n, r->opts.name_a, r->only_b.n, r->opts.name_b);
}

/* ---- terminal ------------------------------------------------------------ */

/* s padded to width columns (UTF-8: continuation bytes take none), on the
 * left (right-aligned) or on the right. */
static void cell(struct strbuf *sb, const char *s, int width, int right)
{
	int cols = 0;
	for (const char *p = s; *p; p++)
		cols += ((unsigned char)*p & 0xC0) != 0x80;
	int pad = width > cols ? width - cols : 0;
	if (right)
		sb_addf(sb, "%*s", pad, "");
	sb_adds(sb, s);
	if (!right)
		sb_addf(sb, "%*s", pad, "");
	sb_adds(sb, " ");
}

char *cmp_text(const struct cmp_result *r)
{
	struct strbuf sb = STRBUF_INIT;
	char a[FMT_MAX], b[FMT_MAX], q[FMT_MAX], ci[FMT_MAX], cq[FMT_MAX];
	sb_addf(&sb, "A = %s\nB = %s\n", r->opts.name_a, r->opts.name_b);
	if (r->n_mism) {
		sb_adds(&sb, "Settings that differ (A | B):\n");
		for (size_t i = 0; i < r->n_mism; i++)
			sb_addf(&sb, "  %s: %s | %s\n", r->mism[i].what, r->mism[i].a, r->mism[i].b);
	} else {
		sb_adds(&sb, "Settings: host, CPU, kernel, compiler, flags, planning, options and "
			"tool version are the same.\n");
	}
	static const char *const head[] = { "instance", "op", "A", "B", "B/A", "95% CI",
					     "cyc B/A" };
	static const int width[] = { 32, 8, 10, 10, 7, 13, 7 };
	for (int k = 0; k < 7; k++)
		cell(&sb, head[k], width[k], k >= 2);
	sb_adds(&sb, " verdict\n");
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct cmp_row *w = &r->rows[i];
		char *inst = xasprintf("%s/%s", w->cand, w->stem);
		const char *v[] = { inst, w->op, time_text(a, &w->time, 0), time_text(b, &w->time, 1),
				    ratio_text(q, &w->time), ci_text(ci, &w->time),
				    ratio_text(cq, &w->cycles) };
		for (int k = 0; k < 7; k++)
			cell(&sb, v[k], width[k], k >= 2);
		sb_addf(&sb, " %s%s%s\n", cmp_verdict_word(w->verdict), w->note ? ": " : "",
			w->note ? w->note : "");
		free(inst);
	}
	for (size_t i = 0; i < r->n_facts; i++) {
		const struct cmp_fact *f = &r->facts[i];
		if (f->differs)
			sb_addf(&sb, "changed: %s/%s%s%s %s: %s -> %s\n", f->cand, f->stem,
				f->op ? " " : "", f->op ? f->op : "", f->what, f->a, f->b);
	}
	for (size_t i = 0; i < r->only_a.n; i++)
		sb_addf(&sb, "only in A: %s\n", r->only_a.items[i]);
	for (size_t i = 0; i < r->only_b.n; i++)
		sb_addf(&sb, "only in B: %s\n", r->only_b.items[i]);
	char *m = cmp_method_sentence(r);
	sb_addf(&sb, "%s\n", m);
	free(m);
	summary_line(&sb, r);
	return sb_detach(&sb);
}

/* ---- Markdown ------------------------------------------------------------ */

/* Table cell text: `|` and line breaks would break the table. */
static void md_cell(struct strbuf *sb, const char *s)
{
	sb_adds(sb, " ");
	for (; *s; s++) {
		if (*s == '|')
			sb_adds(sb, "\\|");
		else if (*s == '\n' || *s == '\r')
			sb_addc(sb, ' ');
		else
			sb_addc(sb, *s);
	}
	sb_adds(sb, " |");
}

static void heading(struct strbuf *sb, int level, const char *text)
{
	for (int i = 0; i < level; i++)
		sb_addc(sb, '#');
	sb_addf(sb, " %s\n\n", text);
}

static void md_settings(struct strbuf *sb, const struct cmp_result *r, int level)
{
	heading(sb, level, "Settings that differ");
	if (!r->n_mism) {
		sb_adds(sb, "None: host, CPU, kernel, compiler, flags, planning constants, options "
			"and tool version are the same on both sides.\n\n");
		return;
	}
	sb_adds(sb, "| Setting | A | B |\n|---|---|---|\n|");
	for (size_t i = 0; i < r->n_mism; i++) {
		md_cell(sb, r->mism[i].what);
		md_cell(sb, r->mism[i].a);
		md_cell(sb, r->mism[i].b);
		sb_adds(sb, i + 1 < r->n_mism ? "\n|" : "\n");
	}
	sb_adds(sb, "\n");
}

static void md_rows(struct strbuf *sb, const struct cmp_result *r, int level,
		    const char *chart_img)
{
	char a[FMT_MAX], b[FMT_MAX], q[FMT_MAX], ci[FMT_MAX], cq[FMT_MAX], cci[FMT_MAX];
	heading(sb, level, "Time per call, B against A");
	if (!r->n_rows) {
		sb_adds(sb, "No instance and operation is measured on both sides.\n\n");
		return;
	}
	sb_adds(sb, "| Candidate | Instance | Operation | Trials A/B | A | B | B/A | 95 % CI | "
		"Cycles B/A | 95 % CI | Verdict |\n"
		"|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct cmp_row *w = &r->rows[i];
		char *inst = xasprintf("`%s`", w->stem), *tr = xasprintf("%zu/%zu", w->trials_a,
									w->trials_b);
		char *verdict = w->note ? xasprintf("%s: %s", cmp_verdict_word(w->verdict), w->note)
					: xstrdup(cmp_verdict_word(w->verdict));
		sb_adds(sb, "|");
		md_cell(sb, w->cand);
		md_cell(sb, inst);
		md_cell(sb, w->op);
		md_cell(sb, tr);
		md_cell(sb, time_text(a, &w->time, 0));
		md_cell(sb, time_text(b, &w->time, 1));
		md_cell(sb, ratio_text(q, &w->time));
		md_cell(sb, ci_text(ci, &w->time));
		md_cell(sb, ratio_text(cq, &w->cycles));
		md_cell(sb, ci_text(cci, &w->cycles));
		md_cell(sb, verdict);
		sb_adds(sb, "\n");
		free(inst);
		free(tr);
		free(verdict);
	}
	sb_adds(sb, "\n");
	if (chart_img)
		sb_addf(sb, "%s\n\n", chart_img);
}

static void md_facts(struct strbuf *sb, const struct cmp_result *r, int level)
{
	heading(sb, level, "Sizes, KAT status and shares");
	if (!r->n_facts) {
		sb_adds(sb, "No instance is on both sides.\n\n");
		return;
	}
	sb_adds(sb, "| Candidate | Instance | Operation | Figure | A | B | Changed |\n"
		"|---|---|---|---|---:|---:|---|\n");
	for (size_t i = 0; i < r->n_facts; i++) {
		const struct cmp_fact *f = &r->facts[i];
		char *inst = xasprintf("`%s`", f->stem);
		sb_adds(sb, "|");
		md_cell(sb, f->cand);
		md_cell(sb, inst);
		md_cell(sb, f->op ? f->op : FMT_DASH);
		md_cell(sb, f->what);
		md_cell(sb, f->a);
		md_cell(sb, f->b);
		md_cell(sb, f->differs ? "yes" : "no");
		sb_adds(sb, "\n");
		free(inst);
	}
	sb_adds(sb, "\n");
}

static void md_only(struct strbuf *sb, const struct cmp_result *r, int level)
{
	heading(sb, level, "Only on one side");
	if (!r->only_a.n && !r->only_b.n) {
		sb_adds(sb, "Both sides hold the same candidates, instances and operations.\n\n");
		return;
	}
	for (size_t i = 0; i < r->only_a.n; i++)
		sb_addf(sb, "- only in A: `%s`\n", r->only_a.items[i]);
	for (size_t i = 0; i < r->only_b.n; i++)
		sb_addf(sb, "- only in B: `%s`\n", r->only_b.items[i]);
	sb_adds(sb, "\n");
}

char *cmp_markdown(const struct cmp_result *r, int level, const char *chart_img)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "A is `%s`, B is `%s`.  ", r->opts.name_a, r->opts.name_b);
	summary_line(&sb, r);
	sb_adds(&sb, "\n");
	char *m = cmp_method_sentence(r);
	sb_addf(&sb, "%s\n\n", m);
	free(m);
	md_settings(&sb, r, level);
	md_rows(&sb, r, level, chart_img);
	md_facts(&sb, r, level);
	md_only(&sb, r, level);
	return sb_detach(&sb);
}

/* ---- CSV ----------------------------------------------------------------- */

/* One RFC 4180 field: quoted when it holds a comma, quote or line break. */
static void csv_field(struct strbuf *sb, const char *s, int last)
{
	if (strpbrk(s, ",\"\r\n")) {
		sb_addc(sb, '"');
		for (; *s; s++) {
			if (*s == '"')
				sb_addc(sb, '"');
			sb_addc(sb, *s);
		}
		sb_addc(sb, '"');
	} else {
		sb_adds(sb, s);
	}
	sb_adds(sb, last ? "\r\n" : ",");
}

static void csv_num(struct strbuf *sb, int valid, double v)
{
	if (valid && !isnan(v))
		sb_addf(sb, "%.9g,", v);
	else
		sb_adds(sb, ",");
}

#define CSV_HEADER \
	"kind,candidate,instance,operation,what,a,b,trials_a,trials_b,ratio,ci_low,ci_high," \
	"cycles_a,cycles_b,cycles_ratio,cycles_ci_low,cycles_ci_high,verdict\r\n"

static void csv_row(struct strbuf *sb, const struct cmp_row *w)
{
	const struct cmp_ratio *t = &w->time, *c = &w->cycles;
	sb_adds(sb, "time,");
	csv_field(sb, w->cand, 0);
	csv_field(sb, w->stem, 0);
	csv_field(sb, w->op, 0);
	csv_field(sb, w->note ? w->note : "seconds per call", 0);
	csv_num(sb, t->valid, t->a);
	csv_num(sb, t->valid, t->b);
	sb_addf(sb, "%zu,%zu,", w->trials_a, w->trials_b);
	csv_num(sb, t->valid, t->ratio);
	csv_num(sb, t->valid, t->lo);
	csv_num(sb, t->valid, t->hi);
	csv_num(sb, c->valid, c->a);
	csv_num(sb, c->valid, c->b);
	csv_num(sb, c->valid, c->ratio);
	csv_num(sb, c->valid, c->lo);
	csv_num(sb, c->valid, c->hi);
	csv_field(sb, cmp_verdict_word(w->verdict), 1);
}

/* A row of another kind: the first seven columns, the rest empty. */
static void csv_other(struct strbuf *sb, const char *kind, const char *cand, const char *stem,
		      const char *op, const char *what, const char *a, const char *b)
{
	csv_field(sb, kind, 0);
	csv_field(sb, cand, 0);
	csv_field(sb, stem, 0);
	csv_field(sb, op, 0);
	csv_field(sb, what, 0);
	csv_field(sb, a, 0);
	csv_field(sb, b, 0);
	sb_adds(sb, ",,,,,,,,,,\r\n");
}

char *cmp_csv(const struct cmp_result *r)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, CSV_HEADER);
	char *m = cmp_method_sentence(&*r);
	csv_other(&sb, "method", "", "", "", m, r->opts.name_a, r->opts.name_b);
	free(m);
	for (size_t i = 0; i < r->n_mism; i++)
		csv_other(&sb, "setting", "", "", "", r->mism[i].what, r->mism[i].a, r->mism[i].b);
	for (size_t i = 0; i < r->n_rows; i++)
		csv_row(&sb, &r->rows[i]);
	for (size_t i = 0; i < r->n_facts; i++) {
		const struct cmp_fact *f = &r->facts[i];
		csv_other(&sb, "figure", f->cand, f->stem, f->op ? f->op : "", f->what, f->a, f->b);
	}
	for (size_t i = 0; i < r->only_a.n; i++)
		csv_other(&sb, "only_a", "", "", "", r->only_a.items[i], "", "");
	for (size_t i = 0; i < r->only_b.n; i++)
		csv_other(&sb, "only_b", "", "", "", r->only_b.items[i], "", "");
	return sb_detach(&sb);
}
