/*
 * repeat.c — the repeat/ records of a run or dataset, paired with the first
 * records and summarised (repeat.h).
 */
#include "model/repeat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/json.h"
#include "evidence/names.h"
#include "evidence/record.h"
#include "stats/stats.h"

/* Mean seconds per call recomputed from the record's trials, or -1. */
static double mean_seconds(const json_t *rec)
{
	struct trial *t = NULL;
	size_t n = record_flatten_trials(json_object_get(rec, "processes"), &t);
	double m = -1;
	if (n) {
		struct timing_stats s;
		stats_compute(t, n, &s);
		if (s.mean_seconds > 0)
			m = s.mean_seconds;
	}
	free(t);
	return m;
}

/* Entry k of ds's repeat files: checked, paired, added.  0, or -1 with *err. */
static int add_one(const struct dataset *ds, size_t k, struct repeat_set *r, char **err)
{
	const char *cand = ds->repeat_cand[k], *name = ds->repeat_name[k];
	const json_t *j = ds->repeat_json[k];
	char *stem = NULL, *op = NULL, *why = NULL, *rel = xasprintf("repeat/%s/%s", cand, name);
	const struct ds_instance *in;
	const struct ds_record *first;
	int rc = -1;
	if (split_stem_op(name, &stem, &op)) {
		*err = xasprintf("%s: not a <label>__<op>.json file of a timed unit; remove it", rel);
	} else if (!j || record_check(j, &why)) {
		*err = xasprintf("corrupt repeat record %s (%s); time it again with `campaign` or "
				 "`measure --repeat`, or remove it", rel,
				 why ? why : ds->repeat_error[k] ? ds->repeat_error[k] : "unreadable");
	} else if (strcmp(jget_str(j, "candidate", ""), cand) ||
		   strcmp(jget_str(j, "op_key", jget_str(j, "operation", "")), op)) {
		*err = xasprintf("repeat record %s names another unit (%s, %s)", rel,
				 jget_str(j, "candidate", "?"), jget_str(j, "op_key", "?"));
	} else if (!(in = ds_find_instance(ds, cand, stem)) || !(first = ds_find_record(in, op)) ||
		   !ds_record_complete(first)) {
		*err = xasprintf("repeat record %s has no complete first record records/%s/%s",
				 rel, cand, name);
	} else {
		double a = mean_seconds(first->j), b = mean_seconds(j);
		if (strcmp(jget_str(j, "status", ""), ST_COMPLETE) || a <= 0 || b <= 0) {
			*err = xasprintf("repeat record %s is not complete or holds no time", rel);
		} else {
			r->u = xrealloc(r->u, (r->n + 1) * sizeof *r->u);
			r->u[r->n++] = (struct repeat_unit){ xstrdup(cand), stem, op, rel, a, b, b / a };
			stem = op = rel = NULL;
			rc = 0;
		}
	}
	free(why);
	free(stem);
	free(op);
	free(rel);
	return rc;
}

static int dev_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

static void summarise(struct repeat_set *r)
{
	double *dev = xcalloc(r->n ? r->n : 1, sizeof *dev);
	struct strlist cands = STRLIST_INIT;
	for (size_t i = 0; i < r->n; i++) {
		dev[i] = fabs(r->u[i].ratio - 1);
		if (!r->max_unit || dev[i] > r->max_dev) {
			free(r->max_unit);
			r->max_unit = xasprintf("%s/%s %s", r->u[i].cand, r->u[i].stem, r->u[i].op);
			r->max_dev = dev[i];
		}
		if (!sl_contains(&cands, r->u[i].cand))
			sl_push(&cands, r->u[i].cand);
	}
	r->n_candidates = cands.n;
	qsort(dev, r->n, sizeof *dev, dev_cmp);
	r->median_dev = r->n ? stats_median(dev, r->n) : 0;
	sl_free(&cands);
	free(dev);
}

int repeat_compute(const struct dataset *ds, struct repeat_set **out, char **err)
{
	*out = NULL;
	if (!ds->has_repeat)
		return 0;
	struct repeat_set *r = xcalloc(1, sizeof *r);
	for (size_t k = 0; k < ds->n_repeat; k++)
		if (add_one(ds, k, r, err)) {
			repeat_free(r);
			return -1;
		}
	summarise(r);
	*out = r;
	return 0;
}

void repeat_free(struct repeat_set *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		free(r->u[i].cand);
		free(r->u[i].stem);
		free(r->u[i].op);
		free(r->u[i].rel);
	}
	free(r->u);
	free(r->max_unit);
	free(r);
}
