/*
 * page_samples.c — A.2 "Per-call samples" of a candidate page
 * (docs/report-format.md §5.9; docs/method.md §7.2, §14 R11): per instance and
 * operation with a sample record, the samples × batch, median, IQM, P5,
 * P95, the bootstrap 95 % CI of the median and the outliers counted, with
 * the distribution chart beside the table.  The seed tables above are not
 * touched: their mean stays the mean over every timed call.
 */
#include "report/pages.h"

#include <stdio.h>
#include <stdlib.h>

#include "evidence/json.h"
#include "method/format.h"
#include "model/samples_view.h"


static const char *robust_time(char *buf, const json_t *r, const char *key)
{
	double v;
	return fmt_time(buf, rec_real(r, key, &v) ? &v : NULL);
}

static void samples_row(struct md_page *md, const struct ds_instance *in, const char *op,
			const json_t *s)
{
	const json_t *r = json_object_get(s, "robust");
	char n[FMT_MAX], med[FMT_MAX], iqm[FMT_MAX], p5[FMT_MAX], p95[FMT_MAX], lo[FMT_MAX],
		hi[FMT_MAX], out[FMT_MAX];
	snprintf(n, sizeof n, "%lld " FMT_TIMES " %lld", jget_int(r, "n", 0), jget_int(s, "batch", 0));
	snprintf(out, sizeof out, "%lld", jget_int(r, "outliers", 0));
	double a, b;
	char *ci = rec_real(r, "ci95_low_s", &a) && rec_real(r, "ci95_high_s", &b)
		? xasprintf("%s", fmt_time_interval(lo, a, b))
		: xasprintf("%s \xe2\x80\x93 %s", robust_time(lo, r, "ci95_low_s"),
			    robust_time(hi, r, "ci95_high_s"));
	char *inst = instance_cell(in);
	char *cell = xasprintf("%s %s", inst, op);
	const char *cells[8] = { cell, n, robust_time(med, r, "median_s"), robust_time(iqm, r, "iqm_s"),
		robust_time(p5, r, "p5_s"), robust_time(p95, r, "p95_s"), ci, out };
	md_row(md, cells);
	free(cell);
	free(inst);
	free(ci);
}

/* The largest overhead share of the candidate's sample records, and
 * whether some complete timing record has none. */
static double largest_share(const struct ds_candidate *c, int *unsampled)
{
	double most = 0;
	*unsampled = 0;
	for (size_t i = 0; i < c->n_inst; i++)
		for (size_t k = 0; k < c->inst[i].n_rec; k++) {
			const struct ds_record *rec = &c->inst[i].rec[k];
			const json_t *s = ds_find_samples(&c->inst[i], rec->op);
			if (s && jget_real(s, "overhead_share", 0) > most)
				most = jget_real(s, "overhead_share", 0);
			if (!s && ds_record_complete(rec))
				*unsampled = 1;
		}
	return most;
}

void per_call_samples(struct md_page *md, const struct ds_candidate *c,
		      const struct site_charts *charts)
{
	static const char *const hdr[] = { "instance \xc2\xb7 operation", "samples " FMT_TIMES " batch",
		"median", "IQM", "P5", "P95", "95% CI of median", "outliers" };
	if (!ds_candidate_sampled(c))
		return;
	int unsampled;
	char share[FMT_MAX];
	double most = largest_share(c, &unsampled);
	/* two significant digits: the share is usually far below 1 % */
	snprintf(share, sizeof share, "%.2g%%", 100 * most);
	md_block(md, "### A.2 Per-call samples");
	md_blockf(md, "Per-call times from the sampling pass ([method](method.md) \xc2\xa7" "14 R11), "
		  "apart from the trials above: each sample times a batch of calls in one counter "
		  "bracket, whose median cost (at most %s of a sample here) is subtracted before "
		  "dividing by the batch. IQM is the mean of the middle half of the samples; the "
		  "95%% CI of the median is a bootstrap of 2000 resamples; outliers (modified "
		  "z-score above 3.5) are counted, never dropped. The mean time in the tables above "
		  "is the mean over every timed call and is unchanged; the chart shows it beside "
		  "the median.%s", share,
		  unsampled ? " Operations without a row have no sample record (their calls took "
			      "10 ms or more, or the pass did not run)." : "");
	md_table(md, hdr, 8);
	for (size_t i = 0; i < c->n_inst; i++)
		for (size_t k = 0; k < c->inst[i].n_rec; k++) {
			const struct ds_instance *in = &c->inst[i];
			const json_t *s = ds_find_samples(in, in->rec[k].op);
			if (s && ds_record_complete(&in->rec[k]))
				samples_row(md, in, in->rec[k].op, s);
		}
	chart_beside(md, charts, c, "samples");
}
