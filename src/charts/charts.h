/*
 * charts.h — the charts of docs/report-format.md §10.4, drawn from one system's
 * loaded data (model/dataset.h) as deterministic SVG (charts/svg.h) with
 * the CSV each was drawn from.  The Markdown tree (report/) and the HTML
 * site (site/) both carry them, so they sit below both.  The names keep
 * the site_ prefix they had when only the site drew charts.
 */
#ifndef NGCC_CHARTS_CHARTS_H
#define NGCC_CHARTS_CHARTS_H

#include <stddef.h>

#include "model/dataset.h"

/* Charts of docs/report-format.md §10.4. */
struct site_chart {
	char *name;          /* file stem, e.g. "kem-12-cycles" */
	char *title;
	char *svg_file;      /* as written to <SYS>/charts/<name>.svg */
	char *csv;           /* the data drawn */
	char *omitted;       /* what could not be drawn and why, NULL when nothing:
			      * "`ExampleKEM-256` dec (failed), …" (summary charts) */
};
struct site_charts {
	struct site_chart *v;
	size_t n;
};
/* Cycles per operation ("<cand>-cycles"), hash/DRNG shares ("-shares")
 * and process memory ("-memory") of one candidate, each only with data. */
void site_candidate_charts(const struct dataset *ds, const struct ds_candidate *c,
			   struct site_charts *out);
/* The summary's charts, each only with data: per public-key type, every
 * reference instance's cycles per operation against the bytes it sends
 * ("kem-cost": public key + ciphertext, "sign-cost": public key +
 * signature, "kex-cost": bandwidth), and hash cycles per byte against
 * message length with the pseudoXOF baseline ("hash-cycles-per-byte"). */
void site_summary_charts(const struct dataset *ds, struct site_charts *out);
/* The distribution of per-call times ("<cand>-samples", samples_chart.c):
 * one box per operation with a sample record (R11); nothing without. */
void site_samples_chart(const struct dataset *ds, const struct ds_candidate *c,
			struct site_charts *out);
void site_charts_free(struct site_charts *c);
struct svg_chart_text;
/* For the files of charts/: append chart name titled title to out, its SVG
 * drawn by draw(t, arg) with t's title and CSV link set, csv taken. */
void site_add_chart(struct site_charts *out, const char *name, const char *title,
		    char *(*draw)(const struct svg_chart_text *, const void *), const void *arg,
		    struct svg_chart_text *t, char *csv);
/* "<instance> <op>": the instance as the pages show it (ds_variant_display). */
char *site_instance_op(const struct ds_instance *in, const char *op);
struct svg_point;
/* A KEM cost scatter named name (points labelled by candidate, labels[] the
 * instances drawn); `which` says which instance each marker stands for. */
const struct site_chart *site_add_scatter(const struct dataset *ds, struct site_charts *out,
					  const char *name, const struct svg_point *p,
					  const char *const *labels, size_t n, const char *which);
struct svg_dot;
/* A dot plot chart with the CSV it was drawn from (taken). */
const struct site_chart *site_add_dotplot(struct site_charts *out, const char *name,
					  struct svg_chart_text *t, const struct svg_dot *d,
					  size_t n, const char *const *series, size_t n_series,
					  char *csv);

#endif
