/*
 * page_pool.c — A.7 of a candidate page, "Input variation" (docs/method.md
 * §14.2, R2; docs/report-format.md §5.9): per instance and operation with
 * a pool record, the median of the per-input medians, the fastest and the
 * slowest input's median time per call, their ratio, and the
 * "input-dependent timing" flag where the ratio exceeds the record's
 * threshold.  The seed tables above are made without the pool.
 */
#include "report/pages.h"

#include <stdio.h>
#include <stdlib.h>

#include "evidence/json.h"
#include "evidence/pool_json.h"
#include "method/format.h"
#include "stats/stats.h"

/* "`label` op" as the other per-operation rows of "Beyond the guide". */
static char *pool_cell(const struct ds_instance *in, const char *op)
{
	char *inst = instance_cell(in);
	char *s = xasprintf("%s %s", inst, op);
	free(inst);
	return s;
}

/* The median of the inputs' medians, in seconds. */
static double median_of_medians_s(const json_t *p)
{
	const json_t *inputs = json_object_get(p, "per_input");
	size_t n = json_array_size(inputs), i;
	json_t *in;
	double *m = xcalloc(n ? n : 1, sizeof *m);
	json_array_foreach(inputs, i, in)
		m[i] = jget_real(in, "median_ns_per_call", 0) * 1e-9;
	double med = stats_median(m, n);
	free(m);
	return med;
}

static void pool_row(struct md_page *md, const struct ds_instance *in, const char *op,
		     const json_t *p)
{
	char lo[FMT_MAX], hi[FMT_MAX], mid[FMT_MAX], ratio[FMT_MAX], n[FMT_MAX];
	double min_s = jget_real(p, "median_ns_per_call_min", 0) * 1e-9;
	double max_s = jget_real(p, "median_ns_per_call_max", 0) * 1e-9;
	double mid_s = median_of_medians_s(p);
	const json_t *plan = json_object_get(p, "plan");
	snprintf(n, sizeof n, "%lld %s %lld %s %lld", jget_int(plan, "pool_size", 0), FMT_TIMES,
		 jget_int(plan, "rounds", 0), FMT_TIMES, jget_int(plan, "calls_per_batch", 0));
	snprintf(ratio, sizeof ratio, "%.2f", jget_real(p, "input_ratio", 0));
	char *cell = pool_cell(in, op);
	int flag = jget_bool(p, "input_dependent", 0);
	const char *cells[7] = { cell, n, fmt_time(mid, &mid_s), fmt_time(lo, &min_s),
		fmt_time(hi, &max_s), ratio, flag ? "**input-dependent timing**" : "no" };
	md_row(md, cells);
	free(cell);
}

void candidate_pools(struct md_page *md, const struct ds_candidate *c)
{
	static const char *const hdr[] = { "instance \xc2\xb7 operation",
		"inputs " FMT_TIMES " rounds " FMT_TIMES " calls", "median of the input medians",
		"fastest input (median)", "slowest input (median)", "max / min", "flag" };
	int started = 0, flagged = 0;
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct ds_instance *in = &c->inst[i];
		for (size_t k = 0; k < in->n_rec; k++) {
			const json_t *p = ds_find_extra(in, POOL_KIND, in->rec[k].op);
			if (!p)
				continue;
			if (!started++) {
				md_block(md, "### A.7 Input variation");
				md_blockf(md, "Each operation below was timed again on its own pool of "
					  "inputs (keys, ciphertexts, messages or seeds, each made from "
					  "its own DRNG seed), in rounds of one batch per input; the "
					  "column gives each input's median time per call over its "
					  "batches. An operation is flagged \"input-dependent timing\" "
					  "when its slowest input's median exceeds %.2g times its "
					  "fastest's (see the [method](method.md)). The tables above are "
					  "timed without the pool.", POOL_FLAG_RATIO);
				md_table(md, hdr, 7);
			}
			flagged += jget_bool(p, "input_dependent", 0);
			pool_row(md, in, in->rec[k].op, p);
		}
	}
	if (started)
		md_blockf(md, "%d of %d pooled operation(s) flagged input-dependent.", flagged, started);
}
