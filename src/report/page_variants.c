/*
 * page_variants.c — implementation variants on the pages (issue #29,
 * docs/report-format.md §5.1, §5.9 A.14 and §6 "Fastest implementation"):
 * the "Implementation versions measured" words of a candidate, its A.14
 * (every build of each parameter set, why one was not timed, and each
 * variant's speed-up over its reference) and the summary's section naming
 * the fastest build per instance and operation.  The seed-format tables
 * themselves only gain the rows of the variants that were timed, with the
 * tagged instance cell (instance_cell).
 */
#include "report/pages.h"

#include <stdlib.h>
#include <string.h>

#include "evidence/json.h"
#include "method/format.h"
#include "method/natsort.h"
#include "model/variant_view.h"

#define DASH FMT_DASH

char *versions_measured(const struct ds_candidate *c)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, DS_REFERENCE->version);
	for (size_t v = 1; v < n_ds_variants; v++)
		for (size_t i = 0; i < c->n_inst; i++)
			if (c->inst[i].variant == &ds_variants[v] && c->inst[i].n_rec) {
				sb_addf(&sb, ", %s", ds_variants[v].version);
				break;
			}
	return sb_detach(&sb);
}

/* "2.26×": the reference's cycles over the build's. */
static const char *speedup_text(char *buf, const double *s)
{
	if (!s)
		return DASH;
	char f[FMT_MAX];
	snprintf(buf, FMT_MAX, "%s\xc3\x97", fmt_fixed2(f, *s));
	return buf;
}

static char *timing_text(const struct ds_instance *in)
{
	char *why = ds_variant_not_run(in);
	if (why)
		return why;
	size_t done = 0;
	for (size_t r = 0; r < in->n_rec; r++)
		done += ds_record_complete(&in->rec[r]);
	return xasprintf("timed, %zu of %zu records complete", done, in->n_rec);
}

/* Every variant build: its implementation, KAT and what became of it. */
static void builds_table(struct md_page *md, const struct ds_candidate *c)
{
	static const char *const hdr[] = { "instance", "implementation", "KAT",
		"output vs reference", "timing", "profiled" };
	md_table(md, hdr, 6);
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct ds_instance *in = &c->inst[i];
		if (in->variant == DS_REFERENCE)
			continue;
		char *cell = instance_cell(in), *timing = timing_text(in);
		const char *vs = ds_kat_vs_reference(in);
		const char *cells[6] = { cell, in->variant->version, in->kat_status,
			vs ? vs : DASH, timing, in->n_prof ? "yes" : "no" };
		md_row(md, cells);
		free(cell);
		free(timing);
	}
}

/* Each timed variant's operations against its reference. */
static void speedup_table(struct md_page *md, const struct ds_candidate *c)
{
	static const char *const hdr[] = { "instance \xc2\xb7 operation",
		"reference mean cycles", "mean cycles", "speed-up over reference" };
	int started = 0;
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct ds_instance *in = &c->inst[i];
		const struct ds_instance *ref = ds_reference_of(c, in);
		if (in->variant == DS_REFERENCE)
			continue;
		for (size_t r = 0; r < in->n_rec; r++) {
			const char *op = in->rec[r].op;
			double a, b, s;
			int ha = ref && ds_op_cycles(ref, op, &a), hb = ds_op_cycles(in, op, &b);
			int hs = ds_speedup(c, in, op, &s);
			if (!started++)
				md_table(md, hdr, 4);
			char *inst = instance_cell(in);
			char *cell = xasprintf("%s %s", inst, op);
			char ca[FMT_MAX], cb[FMT_MAX], cs[FMT_MAX];
			const char *cells[4] = { cell, fmt_cycles(ca, ha ? &a : NULL),
				hb ? fmt_cycles(cb, &b) : ds_record_complete(&in->rec[r]) ? DASH : "failed",
				speedup_text(cs, hs ? &s : NULL) };
			md_row(md, cells);
			free(cell);
			free(inst);
		}
	}
}

void candidate_variants(struct md_page *md, const struct ds_candidate *c)
{
	if (!ds_candidate_has_variants(c))
		return;
	int profiled = 0;
	for (size_t i = 0; i < c->n_inst; i++)
		profiled |= c->inst[i].variant != DS_REFERENCE && c->inst[i].n_prof;
	md_block(md, "### A.14 Implementation variants");
	md_blockf(md, "Besides its reference implementation, the package ships the variants "
		  "below; once built, each is checked against the same KAT vectors as its "
		  "reference (the KAT column gives the result; output vs reference says whether "
		  "the KAT gate found its output the same as its reference's, `%s` where it "
		  "was not recorded). The tables above have rows only for the variants that were timed "
		  "(the instance followed by the variant's tag); one that was not has its reason "
		  "here. %s", DASH, profiled
		  ? "The symmetric-primitive shares are those of the reference builds; "
		    "the profiles of variants are listed in the raw evidence index."
		  : "No variant was profiled: the symmetric-primitive shares are those of the "
		    "reference builds.");
	builds_table(md, c);
	md_block(md, "Speed-up is the reference's mean cycles over the variant's for the same "
		 "operation, both from complete records: above 1.00\xc3\x97 the variant is faster.");
	speedup_table(md, c);
}

/* ---- summary ------------------------------------------------------------------ */

/* The operations any build of ref's parameter set has a record of, §4 order. */
static void label_ops(const struct ds_candidate *c, const struct ds_instance *ref,
		      struct strlist *ops)
{
	for (size_t i = 0; i < c->n_inst; i++)
		if (!strcmp(c->inst[i].label, ref->label))
			for (size_t r = 0; r < c->inst[i].n_rec; r++)
				if (!sl_contains(ops, c->inst[i].rec[r].op))
					sl_push(ops, c->inst[i].rec[r].op);
	for (size_t i = 1; i < ops->n; i++)
		for (size_t j = i; j > 0 && op_cmp(ops->items[j - 1], ops->items[j]) > 0; j--) {
			char *t = ops->items[j];
			ops->items[j] = ops->items[j - 1];
			ops->items[j - 1] = t;
		}
}

/* Does a variant of ref's parameter set have a record? */
static int label_has_timed_variant(const struct ds_candidate *c, const struct ds_instance *ref)
{
	for (size_t i = 0; i < c->n_inst; i++)
		if (c->inst[i].variant != DS_REFERENCE && c->inst[i].n_rec &&
		    !strcmp(c->inst[i].label, ref->label))
			return 1;
	return 0;
}

/* first: the first build of the parameter set (its reference when it has
 * one, which gives the reference cycles). */
static void fastest_row(struct md_page *md, const struct ds_candidate *c,
			const struct ds_instance *first, const char *op)
{
	const struct ds_instance *best = ds_fastest_build(c, first, op);
	const struct ds_instance *ref = ds_reference_of(c, first);
	double a, b, s;
	int ha = ref && ds_op_cycles(ref, op, &a), hb = best && ds_op_cycles(best, op, &b);
	int hs = best && ds_speedup(c, best, op, &s);
	char *id = xasprintf("[%s](%s.md)", c->id, c->id);
	char *code = md_code(first->label);
	char *inst = xasprintf("[%s](%s.md)", code, c->id);
	char ca[FMT_MAX], cb[FMT_MAX], cs[FMT_MAX];
	const char *cells[7] = { id, inst, op, fmt_cycles(ca, ha ? &a : NULL),
		best ? best->variant->version : DASH, fmt_cycles(cb, hb ? &b : NULL),
		speedup_text(cs, hs ? &s : NULL) };
	md_row(md, cells);
	free(id);
	free(code);
	free(inst);
}

void summary_fastest(struct md_page *md, const struct dataset *ds)
{
	static const char *const hdr[] = { "id", "instance", "operation",
		"reference cycles", "fastest implementation", "fastest cycles",
		"speed-up over reference" };
	if (!ds_variants_measured(ds))
		return;
	md_block(md, "## Fastest implementation");
	md_blockf(md, "The tables above show reference builds only. Here, for every parameter "
		  "set with a timed variant, each operation's fastest build: the lowest mean "
		  "cycles among the reference and the variants whose KAT passed (and whose "
		  "output the KAT gate did not find different from the reference's), each from a "
		  "complete record (on a tie, the reference, then the variants in the order "
		  "AVX2, AVX-512, NEON, portable, additional). Speed-up is the reference's mean "
		  "cycles over the fastest build's (`%s` without a reference figure); "
		  "`1.00\xc3\x97` with `reference` means no variant was faster. Every "
		  "variant's own rows and status are on the candidate pages (section 4 and "
		  "A.14).", DASH);
	md_table(md, hdr, 7);
	for (size_t i = 0; i < ds->n_cand; i++) {
		const struct ds_candidate *c = &ds->cand[i];
		for (size_t k = 0; k < c->n_inst; k++) {
			/* each parameter set once, from its first build */
			const struct ds_instance *first = &c->inst[k];
			if ((k && !strcmp(c->inst[k - 1].label, first->label)) ||
			    !label_has_timed_variant(c, first))
				continue;
			struct strlist ops = STRLIST_INIT;
			label_ops(c, first, &ops);
			for (size_t o = 0; o < ops.n; o++)
				fastest_row(md, c, first, ops.items[o]);
			sl_free(&ops);
		}
	}
}

/* ---- method page ----------------------------------------------------------------- */

/* The code-generation flags of a build's first compile command (-O…, -m…,
 * -f…, -std=…), space-separated; NULL when build.json has none. */
static char *codegen_flags(const json_t *build)
{
	const json_t *cmd = json_array_get(json_object_get(build, "compile_commands"), 0);
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	json_t *a;
	json_array_foreach(cmd, i, a) {
		const char *s = json_string_value(a);
		if (s && (!strncmp(s, "-O", 2) || !strncmp(s, "-m", 2) || !strncmp(s, "-f", 2) ||
			  !strncmp(s, "-std=", 5)))
			sb_addf(&sb, "%s%s", sb.len ? " " : "", s);
	}
	return sb.len ? sb_detach(&sb) : (sb_free(&sb), NULL);
}

/* One variant's builds: how many, their build-flags values and the flags
 * of the first build's first compile command. */
static void variant_flags_text(struct strbuf *sb, const struct dataset *ds,
			       const struct ds_variant *v)
{
	size_t n = 0;
	struct strlist profiles = STRLIST_INIT;
	char *flags = NULL;
	for (size_t i = 0; i < ds->n_cand; i++)
		for (size_t k = 0; k < ds->cand[i].n_inst; k++) {
			const struct ds_instance *in = &ds->cand[i].inst[k];
			if (in->variant != v || !in->build)
				continue;
			n++;
			const char *p = jget_str(in->build, "flags", NULL);
			if (p && !sl_contains(&profiles, p))
				sl_push(&profiles, p);
			if (!flags)
				flags = codegen_flags(in->build);
		}
	if (!n)
		return;
	char cnt[FMT_MAX];
	sb_addf(sb, "%s%s: %s", sb->len ? "; " : "", v->version, fmt_count(cnt, (long long)n, "build"));
	for (size_t i = 0; i < profiles.n; i++)
		sb_addf(sb, "%s`%s`", i ? " or " : ", ", profiles.items[i]);
	sl_free(&profiles);
	if (flags) {
		char *code = md_code(flags);
		sb_addf(sb, ", compiled with %s", code);
		free(code);
	}
	free(flags);
}

void method_variants(struct md_page *md, const struct dataset *ds)
{
	struct strbuf sb = STRBUF_INIT;
	int any = 0, profiled = 0, unsupported = 0;
	for (size_t i = 0; i < ds->n_cand; i++)
		for (size_t k = 0; k < ds->cand[i].n_inst; k++) {
			const struct ds_instance *in = &ds->cand[i].inst[k];
			if (in->variant == DS_REFERENCE)
				continue;
			any = 1;
			profiled += in->n_prof > 0;
			unsupported |= !strcmp(in->kat_status, "UNSUPPORTED_CPU");
		}
	if (!any)
		return;
	for (size_t v = 0; v < n_ds_variants; v++)
		variant_flags_text(&sb, ds, &ds_variants[v]);
	md_linef(md, "- Implementation variants: every implementation a package ships is built "
		 "per parameter set, the reference first (%s). An optimized implementation is "
		 "built with the guide's performance flags, with the instruction-set extension "
		 "it was written for where it needs one (the `-m`/`-march` flags above), so that "
		 "the compiler may use it; %s Each variant is checked against the same KAT vectors as its "
		 "reference before timing; the candidate pages show its rows "
		 "tagged (e.g. `(AVX2)`) and its speed-up over the reference (A.14), and the "
		 "summary the fastest build per operation. Profiles are made on reference builds "
		 "only: %s.", sb.buf,
		 unsupported ? "a variant that needs a CPU feature the host lacks is not run and "
			       "is listed as `UNSUPPORTED_CPU`."
			     : "no variant was refused for a CPU feature the host lacks.",
		 profiled ? "the variant builds listed as profiled on their candidate pages "
			    "were profiled as well, but the published shares are the reference's"
			  : "no variant build was profiled");
	sb_free(&sb);
}
