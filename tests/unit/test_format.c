/*
 * test_format.c — every example and edge case of docs/report-format.md §3, the
 * same again under a non-C LC_NUMERIC when one is installed, and a golden
 * check against the Performance tables (§4) of the seed pages.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "method/plan.h"
#include "method/format.h"

static char buf[FMT_MAX];

static const double *d(double x)
{
	static double slot[8];
	static unsigned next;

	slot[next % 8] = x;
	return &slot[next++ % 8];
}

#define CYC(x, s) assert_string_equal(fmt_cycles(buf, d(x)), s)
#define TIME(x, s) assert_string_equal(fmt_time(buf, d(x)), s)
#define OPS(x, s) assert_string_equal(fmt_ops(buf, x), s)
#define PCT(x, s) assert_string_equal(fmt_percent(buf, d(x)), s)

static void cycles_cases(void)
{
	assert_string_equal(fmt_cycles(buf, NULL), "\xe2\x80\x93");
	CYC(2.15e9, "2.15 G");
	CYC(12630000, "12.63 M");
	CYC(61040, "61.0 k");
	CYC(142300, "142.3 k");
	CYC(349000, "349.0 k");
	CYC(1469, "1469");
	CYC(318, "318");
	/* edge cases */
	CYC(9999.6, "10000");
	CYC(999960, "1000.0 k");
	CYC(999999999, "1000.00 M");
	CYC(10000, "10.0 k");
	CYC(2.5, "2");
	/* seed summary figures */
	CYC(48.20e9, "48.20 G");
	CYC(935.98e9, "935.98 G");
}

static void time_cases(void)
{
	assert_string_equal(fmt_time(buf, NULL), "\xe2\x80\x93");
	TIME(0.00603, "6.03 ms");
	TIME(2.91e-5, "29.1 \xc2\xb5s");
	TIME(1.03, "1.03 s");
	TIME(6.8e-5, "68 \xc2\xb5s");
	TIME(0.01, "10 ms");
	TIME(0.0015, "1.5 ms");
	TIME(5.13e-8, "51.3 ns");
	/* edge cases */
	TIME(1840, "1.84e+03 s");
	TIME(999.6, "1e+03 s");
	TIME(0.0009996, "1e+03 \xc2\xb5s");
	TIME(4e-10, "0.4 ns");
	/* summary caption: 1 M cycles at 2.10 GHz */
	TIME(1e6 / 2.1e9, "476 \xc2\xb5s");
}

static void ops_cases(void)
{
	OPS(166.2, "166");
	OPS(100, "100");
	OPS(70.8, "70.8");
	OPS(0.967, "0.967");
	OPS(0.49, "0.49");
	OPS(2940, "2.94e+03");
	OPS(34300, "3.43e+04");
	/* edge cases */
	OPS(6000, "6e+03");
	OPS(999.5, "1e+03");
	OPS(19500000, "1.95e+07");
	OPS(1.23e-5, "1.23e-05");
}

static void percent_cases(void)
{
	assert_string_equal(fmt_percent(buf, NULL), "\xe2\x80\x93");
	PCT(0.87, "87%");
	PCT(0.28, "28%");
	PCT(0.12, "12%");
	PCT(0.066, "6.6%");
	PCT(0.003, "0.3%");
	PCT(0, "0.0%");
	/* edge cases */
	PCT(0.0951, "10%");
	PCT(0.0949, "9.5%");
	PCT(0.0004, "0.0%");
	PCT(0.9951, "100%");
	assert_string_equal(FMT_UNKNOWN_SHARE, "??%");
}

static void check_calls(const struct fn_calls *v, size_t n, const char *want)
{
	char *s = fmt_calls_per_op(v, n);

	assert_string_equal(s, want);
	free(s);
}

static void calls_cases(void)
{
	/* given out of order: byte order puts pseudoXOF before pseudohash */
	const struct fn_calls a[] = { { "pseudohash", 1 }, { "drng", 177 } };
	const struct fn_calls b[] = { { "sm3hash", 1 }, { "pseudoXOF", 2 }, { "drng", 1 } };
	const struct fn_calls c[] = { { "pseudohash", 1 }, { "pseudoXOF", 36500 } };
	const struct fn_calls e1[] = { { "pseudohash", 3 }, { "drng", 1080 } };
	const struct fn_calls e2[] = { { "pseudoXOF", 4e5 }, { "pseudohash", 1 } };
	const struct fn_calls e3[] = { { "sm3hash", 4 }, { "pseudohash", 1 }, { "pseudoXOF", 73000 } };
	const struct fn_calls zero[] = { { "drng", 0 } };

	check_calls(a, 2, "drng 177, pseudohash 1");
	check_calls(b, 3, "drng 1, pseudoXOF 2, sm3hash 1");
	check_calls(c, 2, "pseudoXOF 3.65e+04, pseudohash 1");
	check_calls(e1, 2, "drng 1.08e+03, pseudohash 3");
	check_calls(e2, 2, "pseudoXOF 4e+05, pseudohash 1");
	check_calls(e3, 3, "pseudoXOF 7.3e+04, pseudohash 1, sm3hash 4");
	check_calls(NULL, 0, "\xe2\x80\x93");
	check_calls(zero, 1, "\xe2\x80\x93");
}

static void other_cases(void)
{
	assert_string_equal(fmt_rss(buf, 1830912), "1788 KiB");
	assert_string_equal(fmt_rss(buf, 1831935), "1788 KiB");
	assert_string_equal(fmt_rss(buf, 1831936), "1789 KiB");
	assert_string_equal(fmt_uint(buf, 26833), "26833");
	assert_string_equal(fmt_uint(buf, 12644449), "12644449");
	assert_string_equal(fmt_uint(buf, 64), "64");
	assert_string_equal(fmt_uint(buf, UINT64_MAX), "18446744073709551615");
	assert_string_equal(fmt_n(buf, 825, 5, 165, 0), "825 (5 \xc3\x97 165)");
	assert_string_equal(fmt_n(buf, 100000, 5, 20000, 0), "100000 (5 \xc3\x97 20000)");
	assert_string_equal(fmt_n(buf, 100, 5, 20, 0), "100 (5 \xc3\x97 20)");
	assert_string_equal(fmt_n(buf, 1, 1, 1, 0), "1 (1 \xc3\x97 1)");
	assert_string_equal(fmt_n(buf, 100, 5, 20, 3),
			    "100 (5 \xc3\x97 20); 3 failed signing attempts retried");
	assert_string_equal(fmt_clock_khz(buf, 2100000), "2.10 GHz");
	assert_string_equal(fmt_memory_kib(buf, 32550912), "31788 MiB");
	assert_string_equal(fmt_memory_kib(buf, 32551935), "31788 MiB");
	assert_string_equal(fmt_memory_kib(buf, 32551936), "31789 MiB");
	assert_string_equal(fmt_date(buf, "2026-09-25T10:02:21Z"), "2026-09-25T10:02:21");
	assert_string_equal(fmt_date(buf, "2026-09-25T10:02:21.123456Z"), "2026-09-25T10:02:21");
	assert_string_equal(fmt_digest_prefix(buf,
		"AB39C026E265DC9C0123456789abcdef0123456789abcdef0123456789abcdef"),
		"ab39c026e265dc9c\xe2\x80\xa6");
	assert_string_equal(fmt_hash_message(buf, 32), "32 B");
	assert_string_equal(fmt_hash_message(buf, 512), "512 B");
	assert_string_equal(fmt_hash_message(buf, 1024), "1 KiB");
	assert_string_equal(fmt_hash_message(buf, 65536), "64 KiB");
	assert_string_equal(fmt_hash_message(buf, 1536), "1536 B");
	assert_string_equal(fmt_fixed1(buf, 71.3), "71.3");
	assert_string_equal(fmt_fixed1(buf, 71.25), "71.2");   /* 71.25 is exact: tie to even */
	assert_string_equal(fmt_fixed2(buf, 0.755), "0.76");   /* 0.755 is stored above .755 */
	assert_string_equal(fmt_hash_ratio(buf, d(0.76)), "(0.76\xc3\x97)");
	assert_string_equal(fmt_hash_ratio(buf, NULL), "(ratio \xe2\x80\x93)");
	assert_string_equal(fmt_dispersion(buf, 0.0012), "0.12%");
}

static void all_cases(void)
{
	cycles_cases();
	time_cases();
	ops_cases();
	percent_cases();
	calls_cases();
	other_cases();
}

static void test_cycles(void **state) { (void)state; cycles_cases(); }
static void test_time(void **state) { (void)state; time_cases(); }
static void test_ops(void **state) { (void)state; ops_cases(); }

/* A.2's confidence interval: the two ends told apart, in one unit. */
static void test_time_interval(void **state)
{
	char b[FMT_MAX];
	(void)state;
	assert_string_equal(fmt_time_interval(b, 100.059e-6, 100.385e-6),
			    "100.1 \xc2\xb5s \xe2\x80\x93 100.4 \xc2\xb5s");
	assert_string_equal(fmt_time_interval(b, 136e-6, 149e-6),
			    "136 \xc2\xb5s \xe2\x80\x93 149 \xc2\xb5s");
	/* the low end's unit for both */
	assert_string_equal(fmt_time_interval(b, 0.9995e-3, 1.02e-3),
			    "999.5 \xc2\xb5s \xe2\x80\x93 1020 \xc2\xb5s");
	assert_string_equal(fmt_time_interval(b, 100.0201e-6, 100.0249e-6),
			    "100.02 \xc2\xb5s \xe2\x80\x93 100.025 \xc2\xb5s");
	/* equal ends stay equal at 6 digits */
	assert_string_equal(fmt_time_interval(b, 2.5, 2.5), "2.5 s \xe2\x80\x93 2.5 s");
}
static void test_percent(void **state) { (void)state; percent_cases(); }
static void test_calls(void **state) { (void)state; calls_cases(); }
static void test_other(void **state) { (void)state; other_cases(); }

/* The output must not follow a non-C LC_NUMERIC (decimal comma). */
static void test_non_c_locale(void **state)
{
	static const char *const names[] = {
		"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8",
		"ru_RU.UTF-8", "nl_NL.UTF-8", "es_ES.UTF-8", "it_IT.UTF-8",
	};
	const char *used = NULL;
	char probe[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && !used; i++)
		if (setlocale(LC_ALL, names[i]))
			used = names[i];
	if (!used) {
		printf("no decimal-comma locale installed; locale test skipped\n");
		skip();
	}
	/* Prove the locale bites plain printf, so this test can fail. */
	snprintf(probe, sizeof(probe), "%.1f", 1.5);
	if (strcmp(probe, "1,5") != 0) {
		setlocale(LC_ALL, "C");
		printf("%s has no decimal comma; locale test skipped\n", used);
		skip();
	}
	all_cases();
	setlocale(LC_ALL, "C");
}

/*
 * Golden rows: §4 Performance of seeds 001 (kem-12) and 004 (kem-27), plus
 * rows of 000 (kem-23) and 002 (hep-qc) with the G and s units.
 */
struct seed_row {
	const char *instance, *op, *cycles, *time, *ops, *median, *n;
};

static const struct seed_row seed_rows[] = {
	{ "CTL-257-512", "keygen", "17.76 M", "8.48 ms", "118", "8.49 ms", "595 (5 × 119)" },
	{ "CTL-257-512", "enc", "61.0 k", "29.1 µs", "3.43e+04", "29.1 µs", "100000 (5 × 20000)" },
	{ "CTL-257-512", "dec", "349.0 k", "167 µs", "6e+03", "167 µs", "28460 (5 × 5692)" },
	{ "CTL-769-1024", "keygen", "79.80 M", "38.2 ms", "26.2", "38.2 ms", "155 (5 × 31)" },
	{ "CTL-769-1024", "enc", "113.7 k", "54.3 µs", "1.84e+04", "54.3 µs", "80625 (5 × 16125)" },
	{ "CTL-769-1024", "dec", "711.3 k", "340 µs", "2.94e+03", "340 µs", "14345 (5 × 2869)" },
	{ "CTL-3329-2048", "keygen", "2.15 G", "1.03 s", "0.967", "1.04 s", "100 (5 × 20)" },
	{ "CTL-3329-2048", "enc", "11.91 M", "5.72 ms", "175", "5.72 ms", "880 (5 × 176)" },
	{ "CTL-3329-2048", "dec", "79.73 M", "38.4 ms", "26", "38.4 ms", "135 (5 × 27)" },
	{ "NTRE-128", "keygen", "142.3 k", "68 µs", "1.47e+04", "67.9 µs", "63495 (5 × 12699)" },
	{ "NTRE-128", "enc", "113.7 k", "54.3 µs", "1.84e+04", "54.3 µs", "80195 (5 × 16039)" },
	{ "NTRE-128", "dec", "113.2 k", "54.1 µs", "1.85e+04", "54.1 µs", "80620 (5 × 16124)" },
	{ "NTRE-256", "keygen", "261.1 k", "125 µs", "8.02e+03", "125 µs", "36490 (5 × 7298)" },
	{ "NTRE-256", "enc", "220.1 k", "105 µs", "9.51e+03", "105 µs", "44055 (5 × 8811)" },
	{ "NTRE-256", "dec", "230.7 k", "110 µs", "9.07e+03", "110 µs", "42380 (5 × 8476)" },
	{ "NTRE-512", "keygen", "574.5 k", "274 µs", "3.64e+03", "274 µs", "17400 (5 × 3480)" },
	{ "NTRE-512", "enc", "535.8 k", "256 µs", "3.91e+03", "256 µs", "18895 (5 × 3779)" },
	{ "NTRE-512", "dec", "541.9 k", "259 µs", "3.86e+03", "259 µs", "18455 (5 × 3691)" },
	{ "Mito-1-128", "keygen", "12.63 M", "6.03 ms", "166", "6.03 ms", "825 (5 × 165)" },
	{ "Mito-1-128", "enc", "20.92 M", "10 ms", "100", "10 ms", "505 (5 × 101)" },
	{ "hep-qc-7", "keygen", "4.22 G", "2.04 s", "0.49", "2.01 s", "100 (5 × 20)" },
	{ "hep-qc-7", "dec", "3.39 G", "1.63 s", "0.614", "1.63 s", "100 (5 × 20)" },
};

struct range {
	double lo, hi;   /* the values that print as the cell: [lo, hi) */
};

/* "12.63 M" → value and decimals of the number; unit factor from the suffix. */
static double parse_cell(const char *cell, int *decimals, double *unit)
{
	const char *dot = strchr(cell, '.'), *sp = strchr(cell, ' ');
	char *end;
	double v = strtod(cell, &end);

	*decimals = dot && (!sp || dot < sp) ? (int)(strcspn(dot + 1, " e")) : 0;
	*unit = 1;
	if (sp) {
		const char *u = sp + 1;

		if (!strcmp(u, "G")) *unit = 1e9;
		else if (!strcmp(u, "M")) *unit = 1e6;
		else if (!strcmp(u, "k")) *unit = 1e3;
		else if (!strcmp(u, "s")) *unit = 1;
		else if (!strcmp(u, "ms")) *unit = 1e-3;
		else if (!strcmp(u, "\xc2\xb5s")) *unit = 1e-6;
		else if (!strcmp(u, "ns")) *unit = 1e-9;
		else fail_msg("unknown unit in %s", cell);
	}
	return v;
}

/* A fixed-decimals cell (cycles): ± half a unit of the last decimal. */
static struct range fixed_range(const char *cell)
{
	int dec;
	double unit, v = parse_cell(cell, &dec, &unit), h = 0.5 * pow(10, -dec);

	return (struct range){ (v - h) * unit, (v + h) * unit };
}

/*
 * A `%.3g` cell (time, ops/s): ± half a unit of the third significant
 * digit; below a power of ten the digits are one place finer (9.995 → 10).
 */
static struct range g3_range(const char *cell)
{
	int dec;
	double unit, v = parse_cell(cell, &dec, &unit);
	double e = floor(log10(v)), h = 0.5 * pow(10, e - 2);
	double h_low = v == pow(10, e) ? h / 10 : h;

	return (struct range){ (v - h_low) * unit, (v + h) * unit };
}

/* Points just inside both ends and the middle of a range. */
static void check_range(struct range r, const char *cell,
			const char *(*fmt)(char *, const double *))
{
	double pts[3] = { r.lo + (r.hi - r.lo) * 1e-6, (r.lo + r.hi) / 2,
			  r.hi - (r.hi - r.lo) * 1e-6 };
	int i;

	for (i = 0; i < 3; i++)
		assert_string_equal(fmt(buf, &pts[i]), cell);
}

/*
 * For each row: the cycles and median cells round-trip over their whole
 * range; a mean time exists that prints as the time cell while 1/mean
 * prints as the ops/s cell; cycles / time matches the 2.10 GHz clock (so
 * the unit prefixes agree); and the plan of a t1 consistent with the
 * iterations prints the n cell.
 */
static void check_seed_row(const struct seed_row *row)
{
	struct range t = g3_range(row->time), o = g3_range(row->ops), m;
	double mean, ghz, t1;
	struct planning pl;
	struct plan plan;
	unsigned long long n;
	int trials;
	long iters;

	print_message("%s %s\n", row->instance, row->op);
	check_range(fixed_range(row->cycles), row->cycles, fmt_cycles);
	check_range(g3_range(row->median), row->median, fmt_time);
	check_range(t, row->time, fmt_time);

	m.lo = fmax(t.lo, 1 / o.hi);
	m.hi = fmin(t.hi, 1 / o.lo);
	assert_true(m.lo < m.hi);
	mean = (m.lo + m.hi) / 2;
	assert_string_equal(fmt_time(buf, &mean), row->time);
	assert_string_equal(fmt_ops(buf, 1 / mean), row->ops);

	ghz = (fixed_range(row->cycles).lo + fixed_range(row->cycles).hi) / 2 / mean / 1e9;
	assert_true(ghz > 2.05 && ghz < 2.11);

	assert_int_equal(sscanf(row->n, "%llu (%d \xc3\x97 %ld)", &n, &trials, &iters), 3);
	assert_true(n == (unsigned long long)trials * (unsigned long long)iters);
	if (iters == 20000)
		t1 = mean;                        /* cap: any t1 ≤ 50 µs */
	else if (iters == 20)
		t1 = 1.0;                         /* floor: 50 ms ≤ t1 ≤ 9 s */
	else
		t1 = 1 / ((double)iters - 0.5);   /* ⌈1/t1⌉ = iters */
	planning_defaults(&pl);
	plan_compute(&pl, t1, 0.01, &plan);
	assert_string_equal(fmt_n(buf, (uint64_t)plan.trials * (uint64_t)plan.iterations_per_trial,
				  plan.trials, plan.iterations_per_trial, 0), row->n);
}

static void test_seed_rows(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(seed_rows) / sizeof(seed_rows[0]); i++)
		check_seed_row(&seed_rows[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cycles),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_time_interval),
		cmocka_unit_test(test_percent),
		cmocka_unit_test(test_calls),
		cmocka_unit_test(test_other),
		cmocka_unit_test(test_seed_rows),
		cmocka_unit_test(test_non_c_locale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
