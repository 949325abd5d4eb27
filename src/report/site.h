/*
 * site.h — the static HTML site of report-format §10–§11, built in memory
 * from the Markdown pages of `report` and the loaded datasets, then written
 * out.  Output is a pure function of the inputs: no clock, no environment,
 * no random ids, so two builds are byte-identical.
 *
 * A site is a list of files (path relative to the site root, bytes):
 *  - every Markdown page converted to HTML and wrapped in one template;
 *  - the per-category pages of each summary, the equal-security pages and,
 *    with two or more systems, the comparison page (only when they have
 *    data);
 *  - `<page>-table<k>.csv` for every table, `style.css`, the charts
 *    `<SYS>/charts/<name>.svg` with the CSV each was drawn from;
 *  - `data/<SYS>/`: the evidence tree, summary.csv, profiles.csv,
 *    sizes.csv, dataset.json, schema/ and SHA256SUMS.
 */
#ifndef NGCC_REPORT_SITE_H
#define NGCC_REPORT_SITE_H

#include <stddef.h>

#include "report/dataset.h"
#include "util/util.h"

struct site_file {
	char *path;      /* relative, '/' separated */
	char *data;
	size_t len;
};

struct site_files {
	struct site_file *v;
	size_t n;
};

/* Add a file; takes ownership of data.  A second file with the same path
 * replaces the first. */
void site_files_add(struct site_files *f, const char *path, char *data, size_t len);
void site_files_add_str(struct site_files *f, const char *path, const char *text);
const struct site_file *site_files_find(const struct site_files *f, const char *path);
void site_files_sort(struct site_files *f);   /* by path, byte order */
void site_files_free(struct site_files *f);

/* One measured system: its loaded dataset and where its evidence lives
 * (data/<SYS>/ of a published dataset, or a run directory plus the
 * workspace whose build/<cand>/kat/ logs it refers to). */
struct site_system {
	struct dataset *ds;
	const char *evidence_dir;
	const char *workspace;     /* run mode only, else NULL */
};

struct site_input {
	struct site_system *sys;   /* registry order */
	size_t n_sys;
	const struct site_files *markdown;   /* the report's Markdown tree */
	const char *tool_version;  /* e.g. "0.1.0" */
};

/* Build every file of the site into out.  0, or -1 with *err. */
int site_build(const struct site_input *in, struct site_files *out, char **err);

/* The whole site of n loaded systems (sys[i].ds == &ds[i], peers set
 * here): their Markdown tree rendered with every extension, then
 * site_build.  The one path behind `site` and validate's site check.
 * 0, or -1 with *err. */
int site_render(struct site_system *sys, struct dataset *ds, size_t n,
		struct site_files *out, char **err);
/* site_render for the published dataset at dataset_dir (data/<SYS>/ and
 * the catalogs), exactly what `ngcc-perf site --dataset DIR` writes to
 * DIR/site.  Nothing in it depends on dataset_dir's spelling. */
int site_render_published(const char *dataset_dir, struct site_files *out, char **err);

/* Write the files below dir (created; a previous site there, recognised by
 * its marker file, is removed first; any other non-empty dir is refused).
 * 0, or with *err: EXIT_USAGE when dir is refused, EXIT_SYSTEM when a file
 * cannot be removed or written. */
int site_write(const struct site_files *f, const char *dir, char **err);
#define SITE_MARKER ".ngcc-perf-site"

/* Every local href/src of every HTML and SVG file must name a file of the
 * site (query and fragment ignored).  Returns the number of dangling
 * links; each is appended to problems as "<page>: <link>". */
size_t site_check_links(const struct site_files *f, struct strlist *problems);

/* ---- pieces, exposed for the tests ---- */

/* The stylesheet, and its `style.css?v=<8 hex>` reference. */
extern const char site_css[];
void site_css_version(char out[9]);

/* "../" repeated for each directory level of path. */
char *site_root_of(const char *path);

/* Charts of report-format §10.4. */
struct site_chart {
	char *name;          /* file stem, e.g. "kem-12-cycles" */
	char *title;
	char *svg_file;      /* as written to <SYS>/charts/<name>.svg */
	char *csv;           /* the data drawn */
};
struct site_charts {
	struct site_chart *v;
	size_t n;
};
/* Cycles per operation ("<cand>-cycles"), hash/DRNG shares ("-shares")
 * and process memory ("-memory") of one candidate, each only with data. */
void site_candidate_charts(const struct dataset *ds, const struct ds_candidate *c,
			   struct site_charts *out);
/* Hash cycles per byte against message length, with the pseudoXOF
 * baseline curves ("hash-cycles-per-byte"), when there are hash records. */
void site_hash_chart(const struct dataset *ds, struct site_charts *out);
/* KEM encapsulation cycles against public key + ciphertext bytes. */
void site_summary_charts(const struct dataset *ds, struct site_charts *out);
void site_charts_free(struct site_charts *c);
struct svg_point;
/* A KEM cost scatter named name (points labelled by candidate, labels[] the
 * instances drawn); `which` says which instance each marker stands for. */
const struct site_chart *site_add_scatter(const struct dataset *ds, struct site_charts *out,
					  const char *name, const struct svg_point *p,
					  const char *const *labels, size_t n, const char *which);
/* <SYS>/equal-security-<bits>.md and its sorted copies, for each target of
 * security_targets.csv with eligible rows; their charts join charts. */
void site_equal_security_pages(const struct dataset *ds, struct site_files *md,
			       struct site_charts *charts);
/* compare.md with two or more systems (sys[0] against each other one);
 * nothing when no instance was measured on two systems.  charts[i] gets
 * the ratio chart of sys[i]. */
void site_compare_page(const struct dataset *const *sys, size_t n, struct site_files *md,
		       struct site_charts *charts);
struct svg_dot;
struct svg_chart_text;
/* A dot plot chart with the CSV it was drawn from (taken). */
const struct site_chart *site_add_dotplot(struct site_charts *out, const char *name,
					  struct svg_chart_text *t, const struct svg_dot *d,
					  size_t n, const char *const *series, size_t n_series,
					  char *csv);

/* The data/<SYS>/ downloads other than the evidence copy. */
void site_data_downloads(const struct dataset *ds, const char *prefix, struct site_files *out);
/* The evidence tree of one system below prefix ("data/<SYS>/"). */
int site_copy_evidence(const struct site_system *s, const char *prefix,
		       struct site_files *out, char **err);
/* SHA256SUMS over the files below prefix (which must end in '/'). */
char *site_sha256sums(const struct site_files *f, const char *prefix, size_t *len);

/* Extra Markdown pages: per-category tables split from a summary page (the
 * hash page with the hash chart of charts, when there is one). */
void site_category_pages(const char *sys, const char *summary_md, struct site_files *out,
			 struct strlist *names, const struct site_charts *charts);

#endif
