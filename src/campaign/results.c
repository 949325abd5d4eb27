/* results.c — see results.h: the results table of a run's timing records. */
#include "campaign/results.h"
#include "build/select.h"
#include "evidence/json.h"
#include "evidence/record.h"
#include "method/natsort.h"
#include "util/fsutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct row {
	char *instance;     /* "<ID>/<label>" */
	char *op;
	int cycles;         /* figures in cycles (else ns) */
	double mean, sd, median, cv, ops_per_s;
	char *counter;      /* counter name, or NULL for ns */
};

static void row_from_record(struct row *r, const json_t *rec)
{
	const json_t *disp = json_object_get(rec, "dispersion");
	double mean_c = jget_real(rec, "mean_cycles", NAN);
	memset(r, 0, sizeof *r);
	r->instance = xasprintf("%s/%s", jget_str(rec, "candidate", "?"), jget_str(rec, "label", "?"));
	r->op = xstrdup(jget_str(rec, "operation", "?"));
	r->ops_per_s = jget_real(rec, "operations_per_second", NAN);
	r->cycles = isfinite(mean_c);
	if (r->cycles) {
		r->mean = mean_c;
		r->median = jget_real(rec, "median_trial_cycles", NAN);
		r->sd = jget_real(disp, "sd_trial_cycles", NAN);
		r->cv = jget_real(disp, "cv_trial_cycles", NAN);
		r->counter = xstrdup(jget_str(json_object_get(rec, "counter"), "name", "counter"));
	} else {
		r->mean = jget_real(rec, "mean_seconds", NAN) * 1e9;
		r->median = jget_real(rec, "median_trial_seconds", NAN) * 1e9;
		r->sd = jget_real(disp, "sd_trial_seconds", NAN) * 1e9;
		r->cv = jget_real(disp, "cv_trial_seconds", NAN);
	}
}

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = natural_cmp(x->instance, y->instance);
	return c ? c : op_cmp(x->op, y->op);
}

/* The complete records of run/records/ that sel selects. */
static size_t read_rows(const char *run, const struct selection *sel, struct row **out)
{
	struct strlist cands = STRLIST_INIT;
	struct row *rows = NULL;
	size_t n = 0;
	char *dir = path_join(run, "records");
	dir_list(dir, DIR_PICK_DIRS, &cands);
	for (size_t i = 0; i < cands.n; i++) {
		struct strlist files = STRLIST_INIT;
		char *cdir = path_join(dir, cands.items[i]);
		dir_list(cdir, DIR_PICK_FILES, &files);
		for (size_t k = 0; k < files.n; k++) {
			if (!str_ends_with(files.items[k], ".json"))
				continue;
			char *path = path_join(cdir, files.items[k]);
			json_t *rec = evidence_load(path, NULL);
			free(path);
			if (rec && !strcmp(jget_str(rec, "status", ""), ST_COMPLETE) &&
			    selection_has_instance(sel, jget_str(rec, "candidate", ""),
						   jget_str(rec, "label", "")) &&
			    selection_has_op(sel, jget_str(rec, "operation", ""))) {
				rows = xrealloc(rows, (n + 1) * sizeof *rows);
				row_from_record(&rows[n++], rec);
			}
			json_decref(rec);
		}
		sl_free(&files);
		free(cdir);
	}
	sl_free(&cands);
	free(dir);
	if (n)
		qsort(rows, n, sizeof *rows, row_cmp);
	*out = rows;
	return n;
}

/* 1234567 -> "1,234,567"; below 100 with two decimals (small ns figures). */
static void fmt_figure(char *buf, size_t len, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	if (v < 100) {
		snprintf(buf, len, "%.2f", v);
		return;
	}
	char digits[64];
	snprintf(digits, sizeof digits, "%.0f", v);
	size_t nd = strlen(digits), o = 0;
	for (size_t i = 0; i < nd && o + 2 < len; i++) {
		if (i && (nd - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

static void print_row(const struct row *r, int w_inst, int w_op, FILE *out)
{
	char mean[32], sd[32], median[32], ops[32], cv[16], mean_sd[72];
	fmt_figure(mean, sizeof mean, r->mean);
	fmt_figure(sd, sizeof sd, r->sd);
	fmt_figure(median, sizeof median, r->median);
	fmt_figure(ops, sizeof ops, r->ops_per_s);
	if (isfinite(r->cv))
		snprintf(cv, sizeof cv, "%.1f%%", r->cv * 100);
	else
		snprintf(cv, sizeof cv, "-");
	snprintf(mean_sd, sizeof mean_sd, "%s ± %s", mean, sd);
	fprintf(out, "  %-*s  %-*s  %*s  %13s  %6s  %11s  %s\n", w_inst, r->instance, w_op, r->op,
		/* "±" is two bytes and one column */
		24, mean_sd, median, cv, ops, r->cycles ? "cycles" : "ns");
}

static void print_units(const struct row *rows, size_t n, FILE *out)
{
	struct strlist counters = STRLIST_INIT;
	int any_ns = 0;
	for (size_t i = 0; i < n; i++) {
		if (rows[i].counter && !sl_contains(&counters, rows[i].counter))
			sl_push(&counters, rows[i].counter);
		any_ns |= !rows[i].cycles;
	}
	fprintf(out, "  unit: ");
	for (size_t i = 0; i < counters.n; i++)
		fprintf(out, "%scycles per call of the %s counter", i ? "; " : "", counters.items[i]);
	if (any_ns)
		fprintf(out, "%sns per call of the monotonic clock (no cycle counter)",
			counters.n ? "; " : "");
	fprintf(out, "; mean ± sd and median over the trials, CV = sd / mean\n");
	sl_free(&counters);
}

int results_print_selected(const struct selection *sel, const char *run, FILE *out)
{
	struct row *rows;
	size_t n = read_rows(run, sel, &rows);
	if (!n) {
		fprintf(out, "results: no complete timing record in %s yet\n", run);
		free(rows);
		return 0;
	}
	int w_inst = (int)strlen("instance"), w_op = (int)strlen("operation");
	for (size_t i = 0; i < n; i++) {
		int a = (int)strlen(rows[i].instance), b = (int)strlen(rows[i].op);
		w_inst = a > w_inst ? a : w_inst;
		w_op = b > w_op ? b : w_op;
	}
	fprintf(out, "results: %zu timing record(s) in %s\n", n, run);
	fprintf(out, "  %-*s  %-*s  %24s  %13s  %6s  %11s  %s\n", w_inst, "instance", w_op,
		"operation", "mean ± sd", "median", "CV", "ops/s", "unit");
	for (size_t i = 0; i < n; i++)
		print_row(&rows[i], w_inst, w_op, out);
	print_units(rows, n, out);
	for (size_t i = 0; i < n; i++) {
		free(rows[i].instance);
		free(rows[i].op);
		free(rows[i].counter);
	}
	free(rows);
	fflush(out);
	return (int)n;
}

int results_print(const struct engine_opts *o, const char *run, FILE *out)
{
	struct selection sel;
	selection_init(&sel);
	for (size_t i = 0; i < o->ids.n; i++)
		selection_add(&sel, o->ids.items[i]);
	for (size_t i = 0; i < o->ops.n; i++)
		selection_add_op(&sel, o->ops.items[i]);
	int n = !selection_is_all(&sel) && selection_resolve(&sel, o->workspace) ? -1 :
		results_print_selected(&sel, run, out);
	selection_free(&sel);
	return n;
}
