/*
 * pages.h — one renderer per page kind (docs/report-format.md §5–§9).  Each is a
 * pure function of the loaded dataset and returns the page bytes
 * (malloc'd, *len set).  `extensions` = 0 renders only what the seed pages
 * have plus A.0 (the isolation test of docs/report-format.md §13.5).
 */
#ifndef NGCC_REPORT_PAGES_H
#define NGCC_REPORT_PAGES_H

#include <stddef.h>

#include "model/dataset.h"
#include "report/md.h"

char *page_candidate(const struct dataset *ds, const struct ds_candidate *c,
		     int extensions, size_t *len);
/* The same page with the candidate's charts already drawn
 * (site_candidate_charts) by a caller that also writes their files; NULL
 * without extensions. */
struct site_charts;
char *page_candidate_charted(const struct dataset *ds, const struct ds_candidate *c,
			     const struct site_charts *charts, size_t *len);
char *page_summary(const struct dataset *ds, size_t *len);
char *page_method(const struct dataset *ds, size_t *len);
/* The method page's "Repeatability" section (page_repeat.c): the units
 * timed again at the end of the campaign (model/repeat.h). */
struct md_page;
void method_repeatability(struct md_page *md, const struct dataset *ds);
/* One share column per registered system; systems[] are the datasets of
 * the tree (systems[0] gives the catalogs). */
char *page_survey(const struct dataset *const *systems, size_t n, size_t *len);
char *page_size_audit(const struct dataset *ds, size_t *len);
char *page_index(const struct dataset *const *systems, size_t n, size_t *len);
/* compare.md with two or more systems (systems[0] against each other one);
 * NULL when no instance was measured on two systems.  charts[i] (one per
 * system) gets the ratio chart of systems[i]. */
struct site_charts;
char *page_compare(const struct dataset *const *systems, size_t n, struct site_charts *charts,
		   size_t *len);
/* compare-<cand>.md: one candidate's rows of compare.md, each other system
 * against systems[0], with links to its page on both; NULL when the
 * candidate has no instance measured on two systems. */
char *page_compare_candidate(const struct dataset *const *systems, size_t n, const char *cand,
			     size_t *len);
char *compare_candidate_page_name(const char *cand);

struct site_charts;
/* "Beyond the guide" (§5.9) of a candidate page, page_ext.c: A.0 always,
 * the other subsections only with extensions and data.  charts: the
 * candidate's charts (charts/charts.h), NULL without extensions. */
void candidate_extensions(struct md_page *md, const struct dataset *ds,
			  const struct ds_candidate *c, int extensions,
			  const struct site_charts *charts);
/* A.7 "Input variation" (page_pool.c, docs/method.md §14.2, R2): nothing
 * without pool records. */
void candidate_pools(struct md_page *md, const struct ds_candidate *c);
/* A.2 (per-call samples, R11) of a candidate page with its distribution
 * chart (page_samples.c); nothing without a complete sample record. */
void per_call_samples(struct md_page *md, const struct ds_candidate *c,
		      const struct site_charts *charts);
/* Does the candidate page have A.3 (memory detail)? */
int memory_detail_shown(const struct ds_candidate *c);
/* The chart "<ID>-<suffix>" of charts, when there is one, as an image
 * paragraph: our addition beside the table it illustrates (a seed-format
 * table itself is never changed).  Nothing when charts is NULL. */
void chart_beside(struct md_page *md, const struct site_charts *charts,
		  const struct ds_candidate *c, const char *suffix);

/* Checks (page_checks.c): A.10 of a candidate page (nothing without check
 * records), the summary's checks cell of an instance, and the system page
 * <SYS>/checks.md (rendered only when ds_has_checks). */
void candidate_checks(struct md_page *md, const struct ds_candidate *c);
char *check_summary_cell(const struct ds_instance *in);
char *page_checks(const struct dataset *ds, size_t *len);

/* Implementation variants (page_variants.c): the words of "Implementation
 * versions measured" (`reference, optimized (AVX2)`: the reference, then
 * each variant with a timing record), A.14 of a candidate page (nothing
 * for a candidate with reference builds only) and the summary's "Fastest
 * implementation" section (nothing when no variant was timed). */
char *versions_measured(const struct ds_candidate *c);
void candidate_variants(struct md_page *md, const struct ds_candidate *c);
void summary_fastest(struct md_page *md, const struct dataset *ds);
/* The method page's bullet on the variants of the run: each variant's
 * builds with their flags (build.json's compile commands), why, the KAT
 * gate and whether variants were profiled; nothing without variants. */
void method_variants(struct md_page *md, const struct dataset *ds);

/* ---- shared pieces (page_common.c) ---- */
/* The instance cell: `label`, plus " (AVX2)" (the variant's tag,
 * model/variant.h) for a build other than the reference. */
char *instance_cell(const struct ds_instance *in);
/* The same cell from a file stem ("X+avx2" → `X` (AVX2)), for rows that
 * have only the stem. */
char *stem_cell(const char *stem);
/* Breadcrumb system list in registry order: current in bold, systems with
 * pages in the tree linked to ../<other>/<page>, others plain.  cand: the
 * candidate of a candidate page (linked only on systems that measured it),
 * NULL for a system-wide page. */
char *system_switch(const struct dataset *ds, const char *page, const char *cand);
/* The unfixed-host paragraph (docs/report-format.md §2) for the records of the
 * candidate (NULL: every record of the dataset); NULL when all are fixed. */
char *unfixed_notice(const struct dataset *ds, const struct ds_candidate *c);
/* Problems and reason of unfixed records, "" when fixed. Caller frees. */
char *unfixed_text(const struct dataset *ds, const struct ds_candidate *c);
/* Survey verdict and notes of a candidate (survey.conf, else survey.json);
 * verdict NULL when neither exists.  *notes may be NULL.  Caller frees both. */
void candidate_verdict(const struct dataset *ds, const struct ds_candidate *c,
		       char **verdict, char **notes);
/* Record helpers: nullable doubles by key. */
int rec_real(const json_t *r, const char *key, double *out);
/* Hash share and DRNG share of a profile (stored derived values, else
 * recomputed from calls/total). */
void profile_shares(const json_t *p, double *hash_share, double *drng_share);
/* Calls per operation string (format.h), malloc'd. */
char *profile_calls(const json_t *p);

#endif
