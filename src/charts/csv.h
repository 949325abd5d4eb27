/*
 * csv.h — the downloads of docs/report-format.md §11: RFC 4180 files (comma,
 * header row, LF, UTF-8), numbers unformatted (integers exact, doubles
 * `%.17g`, null an empty field).  Per-table CSVs hold the cells of one page
 * table; summary.csv, profiles.csv and sizes.csv are built from the dataset.
 */
#ifndef NGCC_CHARTS_CSV_H
#define NGCC_CHARTS_CSV_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

struct dataset;

/* One row being written: fields are appended, csv_end_row() adds the LF. */
struct csv_out {
	struct strbuf sb;
	int fields;   /* fields in the current row so far */
};
#define CSV_OUT_INIT { STRBUF_INIT, 0 }

/* A text field, quoted when it holds `,`, `"`, CR or LF (quotes doubled). */
void csv_str(struct csv_out *c, const char *s);
/* NULL → empty field. */
void csv_str_or_null(struct csv_out *c, const char *s);
void csv_null(struct csv_out *c);
void csv_int(struct csv_out *c, int64_t v);
void csv_uint(struct csv_out *c, uint64_t v);
void csv_double(struct csv_out *c, double v);
/* A JSON value: integer exact, real `%.17g`, string, true/false, null/absent
 * → empty. */
void csv_json(struct csv_out *c, const json_t *v);
void csv_end_row(struct csv_out *c);
/* A header row from a comma-separated list of names. */
void csv_header(struct csv_out *c, const char *names);
char *csv_finish(struct csv_out *c, size_t *len);

/* A table as rows of plain cell texts (row 0 is the header). */
char *csv_from_cells(char ***rows, size_t nrows, size_t ncols, size_t *len);

/* The dataset downloads of §11 for one system (malloc'd; *len set). */
#define CSV_SUMMARY_COLUMNS \
	"system,candidate,label,variant,operation,status,target_bits," \
	"mean_cycles,mean_seconds,ops_per_second,median_trial_seconds," \
	"min_trial_seconds,max_trial_seconds,cv_trial_seconds,measurements," \
	"trials,iterations_per_trial,hash_share,drng_share,elf_load_bytes," \
	"baseline_rss_bytes,peak_rss_bytes,op_peak_rss_bytes,stack_peak_bytes," \
	"heap_peak_bytes,pk_bytes,sk_bytes,ct_bytes,ss_bytes,signature_bytes," \
	"size_basis,kat,counter,speedup_vs_reference,fastest"
#define CSV_PROFILES_COLUMNS \
	"system,candidate,label,operation,fn,in_bits,out_bits,calls,ticks,share"
#define CSV_SIZES_COLUMNS \
	"system,candidate,label,object,api_bytes,observed_min,observed_max," \
	"catalog_bytes,catalog_basis,classification"

char *csv_summary(const struct dataset *ds, size_t *len);
char *csv_profiles(const struct dataset *ds, size_t *len);
char *csv_sizes(const struct dataset *ds, size_t *len);

/* Parse an RFC 4180 text into rows of fields (for tests and the chart
 * check).  Returns the number of rows; *out is freed with csv_rows_free. */
size_t csv_parse(const char *text, char ****out, size_t **ncols);
void csv_rows_free(char ***rows, size_t *ncols, size_t n);

#endif
