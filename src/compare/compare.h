/*
 * compare.h — two loaded datasets (runs or published systems, model/dataset.h)
 * compared: per instance and operation the ratio B/A of the mean time per
 * call (and of the mean cycles where both sides have them) with a 95 %
 * bootstrap confidence interval over the trial means, a verdict against a
 * threshold, and beside it sizes, KAT status, hash/DRNG shares, the
 * instances and operations only one side has, and every difference of host,
 * compiler, flags, planning constants, options and tool version.
 *
 * Pure computation over the model plus its text forms (terminal table,
 * Markdown, CSV); no I/O.  `ngcc-perf compare` (dataset/compare_cmd.c)
 * and the per-candidate "what changed" report call the same functions.
 *
 * API (stable):
 *   struct cmp_opts o = CMP_OPTS_DEFAULT;      threshold, resamples
 *   struct cmp_result r;
 *   cmp_compute(&a, &b, &o, &r);               rows in A's order
 *   cmp_exit_status(&r)                        0 / 1 (EXIT_FAILED: regression)
 *   char *md = cmp_markdown(&r, 2);            Markdown sections, heading level 2
 *   char *csv = cmp_csv(&r);  char *txt = cmp_text(&r);
 *   cmp_free(&r);
 * A candidate filter (cmp_opts.only_candidate) restricts both sides to one
 * candidate id, for a per-candidate report; map_a/map_b pair two ids.
 *
 * Bootstrap (deterministic, stated on every output): for each row, R
 * resamples; each draws nA trials with replacement from A's trials and nB
 * from B's (index = splitmix64 output mod n, A's draws then B's, one
 * generator seeded with the first 8 bytes of SHA-256("<cand>/<stem>/<op>")
 * xor cmp_opts.seed), the resample's mean per call is Σns/Σcalls of the
 * drawn trials (the record's own definition), and the CI is the 2.5 % and
 * 97.5 % percentiles of the R ratios (stats/robust.h percentile rule).
 * Verdict: regression when the CI's low end is above 1 + threshold,
 * improvement when its high end is below 1 − threshold, otherwise no
 * significant change.
 */
#ifndef NGCC_COMPARE_COMPARE_H
#define NGCC_COMPARE_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "model/dataset.h"

#define CMP_DEFAULT_THRESHOLD 0.05      /* 5 % */
#define CMP_DEFAULT_RESAMPLES 2000
#define CMP_MAX_RESAMPLES 1000000

struct cmp_opts {
	double threshold;           /* fraction, >= 0 (0.05 = 5 %) */
	unsigned resamples;         /* bootstrap resamples, >= 100 */
	uint64_t seed;              /* xor-ed into every row's seed (0: none) */
	const char *name_a, *name_b;   /* how outputs name the two sides */
	const char *only_candidate; /* NULL: every candidate (A's id) */
	/* A's candidate map_a is compared with B's candidate map_b (both NULL:
	 * candidates are matched by id), e.g. two versions measured side by
	 * side in one run, which removes the drift between runs. */
	const char *map_a, *map_b;
};
#define CMP_OPTS_DEFAULT { CMP_DEFAULT_THRESHOLD, CMP_DEFAULT_RESAMPLES, 0, "A", "B", NULL, \
			   NULL, NULL }

enum cmp_verdict {
	CMP_SAME,          /* no significant change */
	CMP_REGRESSION,    /* B slower beyond the threshold */
	CMP_IMPROVEMENT,   /* B faster beyond the threshold */
	CMP_NA,            /* not comparable (a record incomplete on a side) */
};
const char *cmp_verdict_word(enum cmp_verdict v);  /* "regression", … */

struct cmp_ratio {
	int valid;
	double a, b;             /* the records' means (seconds or cycles per call) */
	double ratio, lo, hi;    /* b / a and its 95 % CI */
};

/* One instance × operation measured on both sides. */
struct cmp_row {
	char *cand, *stem, *op;
	size_t trials_a, trials_b;
	struct cmp_ratio time, cycles;
	enum cmp_verdict verdict;       /* from time */
	char *note;                     /* why CMP_NA, else NULL */
};

/* Any other figure that differs or is worth stating (sizes, KAT status,
 * hash and DRNG shares): "what" names it, a and b the values as text. */
struct cmp_fact {
	char *cand, *stem, *op;    /* op may be NULL (sizes, KAT) */
	char *what, *a, *b;
	int differs;
};

/* A setting that differs between the sides (host, CPU, kernel, compiler,
 * flags, planning constants, options, tool version). */
struct cmp_mismatch {
	char *what, *a, *b;
};

struct cmp_result {
	struct cmp_opts opts;
	struct cmp_row *rows;         size_t n_rows;
	struct cmp_fact *facts;       size_t n_facts;
	struct cmp_mismatch *mism;    size_t n_mism;
	/* "<cand>/<stem> <op>" (or "<cand>" / "<cand>/<stem>") only one side has */
	struct strlist only_a, only_b;
	size_t n_regression, n_improvement, n_same, n_na;
};

/* 0, or -1 with *err (malloc'd) when opts are out of range. */
int cmp_compute(const struct dataset *a, const struct dataset *b, const struct cmp_opts *o,
		struct cmp_result *out, char **err);
void cmp_free(struct cmp_result *r);
/* 1 when some row is a regression, else 0. */
int cmp_exit_status(const struct cmp_result *r);

/* Text forms, malloc'd.  The Markdown holds headings from `level` down:
 * settings that differ, the ratio table, other figures, one-side-only
 * items, the method sentence.  chart_img: Markdown image line placed after
 * the ratio table, or NULL. */
char *cmp_markdown(const struct cmp_result *r, int level, const char *chart_img);
char *cmp_csv(const struct cmp_result *r);
char *cmp_text(const struct cmp_result *r);
/* The method sentence every output states (bootstrap, seed, threshold). */
char *cmp_method_sentence(const struct cmp_result *r);

#endif
