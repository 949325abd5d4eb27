/*
 * format.h — the number formatters of docs/report-format.md §3.  They are the only
 * way a number reaches a page, so every page cell is decided here.
 *
 * Conventions:
 *  - Each formatter writes a NUL-terminated string into the caller's buffer
 *    `out` of FMT_MAX bytes and returns `out`, so calls can be nested in an
 *    expression: sb_adds(&sb, fmt_cycles(buf, &st.mean_cycles)).
 *    Only fmt_calls_per_op(), whose length is unbounded, returns a malloc'd
 *    string the caller frees.
 *  - A nullable value is passed by pointer; NULL is "null" and gives `–`.
 *  - Output is always the C locale's (`.` decimal point, no grouping),
 *    whatever the process or thread locale is.
 *  - Fixed characters are UTF-8: × U+00D7, µ U+00B5, – U+2013, … U+2026.
 */
#ifndef NGCC_METHOD_FORMAT_H
#define NGCC_METHOD_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define FMT_MAX 96

#define FMT_DASH "\xe2\x80\x93"        /* – U+2013: missing value */
#define FMT_TIMES "\xc3\x97"           /* × U+00D7 */
#define FMT_MICRO "\xc2\xb5"           /* µ U+00B5 (never U+03BC) */
#define FMT_ELLIPSIS "\xe2\x80\xa6"    /* … U+2026 */
#define FMT_UNKNOWN_SHARE "??%"        /* summary: no ICCS-facing share */

/* Mean cycles: `2.15 G`, `12.63 M`, `61.0 k`, `1469`; NULL → `–`. */
const char *fmt_cycles(char *out, const double *x);
/* Seconds with the largest unit of s/ms/µs giving v ≥ 1, else ns; `%.3g`. */
const char *fmt_time(char *out, const double *seconds);
/* Operations per second, `%.3g`. */
/* A time interval's two ends in the low end's unit, with the fewest
 * significant digits (3 to 6) that tell them apart: "100.06 µs – 100.39 µs",
 * not "100 µs – 100 µs". */
const char *fmt_time_interval(char *out, double lo, double hi);
const char *fmt_ops(char *out, double ops_per_second);
/* Fraction as percent: `87%` from 0.095 up, else `6.6%`; NULL → `–`. */
const char *fmt_percent(char *out, const double *fraction);
/* Bytes as ⌊bytes/1024⌋ KiB. */
const char *fmt_rss(char *out, uint64_t bytes);
/* Plain decimal integer (ELF image, sizes). */
const char *fmt_uint(char *out, uint64_t v);
/* n column: `N (T × I)`, plus `; K failed signing attempts retried` if K > 0. */
const char *fmt_n(char *out, uint64_t measurements, int trials, long iters,
		  uint64_t sign_failures_retried);
/* Clock from kHz: `2.10 GHz`. */
const char *fmt_clock_khz(char *out, double khz);
/* Memory from kiB: ⌊kiB/1024⌋ MiB. */
const char *fmt_memory_kib(char *out, uint64_t kib);
/* ISO UTC string cut to its first 19 characters: `2026-09-25T10:02:21`. */
const char *fmt_date(char *out, const char *iso_utc);
/* First 16 hex digits, lowercased, then `…`. */
const char *fmt_digest_prefix(char *out, const char *hex);
/* Hash message length: `32 B`, `1 KiB`, `64 KiB`. */
const char *fmt_hash_message(char *out, uint64_t bytes);
/* Cycles per byte and MB/s: `%.1f`. */
const char *fmt_fixed1(char *out, double v);
/* Ratios in the additional sections: `%.2f`. */
const char *fmt_fixed2(char *out, double v);
/* Hash ratio against pseudoXOF: `(0.76×)`; NULL (no baseline) → `(ratio –)`. */
const char *fmt_hash_ratio(char *out, const double *ratio);
/* Dispersion (ours), a fraction shown as `%.2f` of 100x + `%`: 0.0012 → `0.12%`. */
const char *fmt_dispersion(char *out, double fraction);

/* Words around figures (ours: method and summary sentences, check-host). */
/* "a" or "an" before a name: "an Intel(R) Xeon(R)", "an AMD EPYC", "a Kunpeng". */
const char *fmt_article(const char *name);
/* A duration in words: 900 → `15 minutes`, 90 → `1.5 minutes`, 10 → `10 s`,
 * 0.5 → `0.5 s` (`%g`, three significant digits). */
const char *fmt_duration_words(char *out, double seconds);
/* "1 candidate", "3 candidates" (plural: noun + "s"). */
const char *fmt_count(char *out, long long n, const char *noun);
/*
 * The overhead of an empty counter bracket with its unit and its time at
 * the counter's rate, and the clock reads inside it:
 * `176 ticks (84 ns at 2.10 GHz); the two clock reads inside it 29 ns`.
 * unit: "ticks" or "cycles"; hz <= 0: no time given; clock_ns < 0: no clock
 * part.  Returns a malloc'd string.
 */
char *fmt_bracket_overhead(double count, const char *unit, double hz, double clock_ns);

/* One function's calls per operation (a profile's calls / operations). */
struct fn_calls {
	const char *fn;    /* drng, pseudoXOF, pseudohash, sm3hash */
	double per_op;
};
/*
 * `<fn> %.3g` per function with a positive count, functions in byte order,
 * joined by `, `; none → `–`.  The input array is not modified.
 * Returns a malloc'd string.
 */
char *fmt_calls_per_op(const struct fn_calls *v, size_t n);

#endif
