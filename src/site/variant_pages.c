/*
 * variant_pages.c — the site's view of implementation variants (issue #29,
 * docs/report-format.md §10.2): <SYS>/variants.md lists every timed build
 * (reference and variants) per instance and operation with its speed-up
 * over the reference and whether it is the fastest, and one pre-rendered
 * copy per variant, variants-<variant>.md, holds that variant's rows only.
 * A line of links on each switches between them: the filter works without
 * JavaScript, like the sorted copies of the equal-security pages.  Written
 * only when some variant was timed; linked from the summary's jump list.
 */
#include <stdlib.h>
#include <string.h>

#include "method/format.h"
#include "model/variant_view.h"
#include "report/md.h"
#include "site/pages.h"

#define DASH FMT_DASH

/* The variants with a timing record in the dataset, page order. */
static size_t timed_variants(const struct dataset *ds, const struct ds_variant **out)
{
	size_t n = 0;
	for (size_t v = 0; v < n_ds_variants; v++) {
		int timed = 0;
		for (size_t i = 0; i < ds->n_cand && !timed; i++)
			for (size_t k = 0; k < ds->cand[i].n_inst && !timed; k++)
				timed = ds->cand[i].inst[k].variant == &ds_variants[v] &&
					ds->cand[i].inst[k].n_rec;
		if (timed)
			out[n++] = &ds_variants[v];
	}
	return n;
}

char *site_variant_page_name(const struct ds_variant *v)
{
	return v ? xasprintf("variants-%s.md", v->name) : xstrdup("variants.md");
}

/* "Show: **all** · [reference](variants-reference.md) · …" */
static void filter_line(struct md_page *md, const struct ds_variant *const *vs, size_t n,
			const struct ds_variant *shown)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "Show: ");
	for (size_t i = 0; i <= n; i++) {
		const struct ds_variant *v = i ? vs[i - 1] : NULL;
		const char *words = v ? v->version : "all builds";
		if (i)
			sb_adds(&sb, " \xc2\xb7 ");
		if (v == shown) {
			sb_addf(&sb, "**%s**", words);
		} else {
			char *page = site_variant_page_name(v);
			sb_addf(&sb, "[%s](%s)", words, page);
			free(page);
		}
	}
	md_block(md, sb.buf);
	sb_free(&sb);
}

static void build_rows(struct md_page *md, const struct ds_candidate *c, const struct ds_instance *in)
{
	const struct ds_instance *ref = ds_reference_of(c, in);
	for (size_t r = 0; r < in->n_rec; r++) {
		const struct ds_record *rec = &in->rec[r];
		double cy, s, t;
		int hc = ds_op_cycles(in, rec->op, &cy);
		int hs = in->variant != DS_REFERENCE && ds_speedup(c, in, rec->op, &s);
		const json_t *tv = json_object_get(rec->j, "mean_seconds");
		int ht = hc && json_is_number(tv);
		t = ht ? json_number_value(tv) : 0;
		char *id = xasprintf("[%s](%s.md)", c->id, c->id);
		char *code = md_code(in->label);
		char *name = in->variant->tag ? xasprintf("%s (%s)", code, in->variant->tag)
					      : xstrdup(code);
		char cb[FMT_MAX], tb[FMT_MAX], sp[FMT_MAX], f2[FMT_MAX];
		if (hs)
			snprintf(sp, sizeof sp, "%s\xc3\x97", fmt_fixed2(f2, s));
		const char *cells[8] = { id, name, in->variant->version, rec->op,
			hc ? fmt_cycles(cb, &cy) : ds_record_complete(rec) ? DASH : "failed",
			fmt_time(tb, ht ? &t : NULL), hs ? sp : DASH,
			ref && ds_fastest_build(c, ref, rec->op) == in ? "yes" : "no" };
		md_row(md, cells);
		free(id);
		free(code);
		free(name);
	}
}

static char *variant_page(const struct dataset *ds, const struct ds_variant *const *vs,
			  size_t nv, const struct ds_variant *shown)
{
	static const char *const hdr[] = { "id", "instance", "implementation", "operation",
		"mean cycles", "mean time", "speed-up over reference", "fastest" };
	struct md_page md = MD_PAGE_INIT;
	md_blockf(&md, "[Performance measurements](../index.md) \xe2\x80\xba [%s](index.md) "
		  "\xe2\x80\xba implementation variants", ds->system_id);
	md_blockf(&md, "# Implementation variants \xe2\x80\x94 system %s", ds->system_id);
	md_block(&md, "Every timed build of every parameter set: the reference and each variant "
		 "(the instance's tag names it), one row per operation. Speed-up is the "
		 "reference's mean cycles over the variant's (above 1.00\xc3\x97 the variant is "
		 "faster); fastest marks the build with the lowest mean cycles among the "
		 "reference and the variants whose KAT passed and whose output did not differ "
		 "from the reference's, as on the summary. Variants that "
		 "were not timed are listed with their reason in A.14 of their candidate page.");
	filter_line(&md, vs, nv, shown);
	md_table(&md, hdr, 8);
	for (size_t i = 0; i < ds->n_cand; i++)
		for (size_t k = 0; k < ds->cand[i].n_inst; k++) {
			const struct ds_instance *in = &ds->cand[i].inst[k];
			if (!shown || in->variant == shown)
				build_rows(&md, &ds->cand[i], in);
		}
	size_t len;
	return md_finish(&md, &len);
}

void site_variant_pages(const struct dataset *ds, struct site_files *md)
{
	const struct ds_variant *vs[16];
	size_t nv = timed_variants(ds, vs);
	if (!ds_variants_measured(ds))
		return;
	for (size_t i = 0; i <= nv; i++) {
		const struct ds_variant *v = i ? vs[i - 1] : NULL;
		char *page = variant_page(ds, vs, nv, v);
		char *name = site_variant_page_name(v);
		char *path = xasprintf("%s/%s", ds->system_id, name);
		site_files_add(md, path, page, strlen(page));
		free(path);
		free(name);
	}
}
