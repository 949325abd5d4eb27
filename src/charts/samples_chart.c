/*
 * samples_chart.c — the distribution chart of a candidate's per-call samples
 * ("<ID>-samples", docs/report-format.md §10.4; docs/method.md §14 R11): one box per
 * instance and operation with a sample record, drawn from the record's
 * stored percentiles, with the timing record's mean beside its median.
 * Called by site_candidate_charts (charts.h); the CSV holds exactly the
 * figures drawn.
 */
#include <stdlib.h>

#include "charts/charts.h"
#include "charts/csv.h"
#include "charts/svg_box.h"
#include "evidence/json.h"
#include "model/samples_view.h"

/* The figures of one box; 0 when the record lacks a positive percentile
 * (a log axis cannot show it). */
static int box_of(const json_t *samples, const json_t *timing, struct svg_box *b)
{
	const json_t *r = json_object_get(samples, "robust");
	b->p5 = jget_real(r, "p5_s", 0);
	b->p25 = jget_real(r, "p25_s", 0);
	b->median = jget_real(r, "median_s", 0);
	b->p75 = jget_real(r, "p75_s", 0);
	b->p95 = jget_real(r, "p95_s", 0);
	b->mean = jget_real(timing, "mean_seconds", 0);
	return b->p5 > 0 && b->p25 > 0 && b->median > 0 && b->p75 > 0 && b->p95 > 0;
}

static void csv_box(struct csv_out *csv, const struct ds_instance *in, const char *op,
		    const json_t *samples, const struct svg_box *b)
{
	char *iname = ds_variant_display(in->label, in->variant);
	csv_str(csv, iname);
	free(iname);
	csv_str(csv, op);
	csv_uint(csv, (uint64_t)jget_int(json_object_get(samples, "robust"), "n", 0));
	csv_uint(csv, (uint64_t)jget_int(samples, "batch", 0));
	double v[5] = { b->p5, b->p25, b->median, b->p75, b->p95 };
	for (int k = 0; k < 5; k++)
		csv_double(csv, v[k]);
	if (b->mean > 0)
		csv_double(csv, b->mean);
	else
		csv_null(csv);
	csv_end_row(csv);
}

struct boxes {
	const struct svg_box *b;
	size_t n;
};

static char *draw_boxes(const struct svg_chart_text *t, const void *arg)
{
	const struct boxes *bx = arg;
	return svg_boxplot_log(t, bx->b, bx->n, NULL);
}

void site_samples_chart(const struct dataset *ds, const struct ds_candidate *c,
			struct site_charts *out)
{
	struct svg_box *b = NULL;
	struct strlist labels = STRLIST_INIT;
	struct csv_out csv = CSV_OUT_INIT;
	size_t n = 0;
	csv_header(&csv, "instance,operation,samples,batch,p5_s,p25_s,median_s,p75_s,p95_s,"
		   "mean_s");
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct ds_instance *in = &c->inst[i];
		for (size_t r = 0; r < in->n_rec; r++) {
			const json_t *s = ds_find_samples(in, in->rec[r].op);
			struct svg_box box;
			if (!s || !ds_record_complete(&in->rec[r]) || !box_of(s, in->rec[r].j, &box))
				continue;
			sl_push_owned(&labels, site_instance_op(in, in->rec[r].op));
			b = xrealloc(b, (n + 1) * sizeof *b);
			b[n++] = box;
			csv_box(&csv, in, in->rec[r].op, s, &box);
		}
	}
	for (size_t i = 0; i < n; i++)
		b[i].label = labels.items[i];
	if (n) {
		char *name = xasprintf("%s-samples", c->id);
		char *title = xasprintf("%s: distribution of per-call times (system %s)", c->id,
					ds->system_id);
		struct svg_chart_text t = {
			NULL, "For each instance and operation, the per-call times of the sampling "
			"pass (table A.2) on a logarithmic axis: the whisker spans P5 to P95, the box "
			"P25 to P75, the line is the median; the diamond is the mean over every timed "
			"call of the timing record (the tables above).",
			"seconds per call (log scale)", NULL, NULL,
		};
		struct boxes bx = { b, n };
		site_add_chart(out, name, title, draw_boxes, &bx, &t, csv_finish(&csv, NULL));
		free(name);
		free(title);
	} else {
		sb_free(&csv.sb);
	}
	free(b);
	sl_free(&labels);
}
