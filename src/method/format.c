/*
 * format.c — docs/report-format.md §3 formatters.  printf does the rounding
 * (correct rounding of the exact binary value, ties to even), always under
 * the C locale so a page never depends on the environment.
 */
#include "method/format.h"

#include <ctype.h>
#include <locale.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/*
 * snprintf into out[FMT_MAX] under the C locale for this thread only.
 * glibc hands out its static C locale object here, so this does not
 * allocate; if newlocale ever fails we still print, and only a process
 * that set a non-C LC_NUMERIC could see a different decimal point.
 */
static const char *c_printf(char *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static const char *c_printf(char *out, const char *fmt, ...)
{
	locale_t c_loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	locale_t old = c_loc ? uselocale(c_loc) : (locale_t)0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, FMT_MAX, fmt, ap);
	va_end(ap);
	if (c_loc) {
		uselocale(old);
		freelocale(c_loc);
	}
	return out;
}

static const char *dash(char *out)
{
	return c_printf(out, "%s", FMT_DASH);
}

const char *fmt_cycles(char *out, const double *x)
{
	if (!x)
		return dash(out);
	if (*x >= 1e9)
		return c_printf(out, "%.2f G", *x / 1e9);
	if (*x >= 1e6)
		return c_printf(out, "%.2f M", *x / 1e6);
	if (*x >= 1e4)
		return c_printf(out, "%.1f k", *x / 1e3);
	return c_printf(out, "%.0f", *x);
}

const char *fmt_time(char *out, const double *seconds)
{
	double x;

	if (!seconds)
		return dash(out);
	x = *seconds;
	if (x >= 1)
		return c_printf(out, "%.3g s", x);
	if (x * 1e3 >= 1)
		return c_printf(out, "%.3g ms", x * 1e3);
	if (x * 1e6 >= 1)
		return c_printf(out, "%.3g " FMT_MICRO "s", x * 1e6);
	return c_printf(out, "%.3g ns", x * 1e9);
}

const char *fmt_time_interval(char *out, double lo, double hi)
{
	static const struct { double scale; const char *unit; } units[] = {
		{ 1, "s" }, { 1e3, "ms" }, { 1e6, FMT_MICRO "s" }, { 1e9, "ns" },
	};
	size_t u = 0;
	while (u + 1 < sizeof units / sizeof *units && lo * units[u].scale < 1)
		u++;
	char a[FMT_MAX], b[FMT_MAX];
	/* never fewer digits than the high end's whole part: no "1e+03" */
	int first = 3;
	while (first < 6 && hi * units[u].scale >= pow(10, first))
		first++;
	for (int digits = first; digits <= 6; digits++) {
		snprintf(a, sizeof a, "%.*g", digits, lo * units[u].scale);
		snprintf(b, sizeof b, "%.*g", digits, hi * units[u].scale);
		if (strcmp(a, b))
			break;
	}
	return c_printf(out, "%s %s \xe2\x80\x93 %s %s", a, units[u].unit, b, units[u].unit);
}

const char *fmt_ops(char *out, double ops_per_second)
{
	return c_printf(out, "%.3g", ops_per_second);
}

const char *fmt_percent(char *out, const double *fraction)
{
	if (!fraction)
		return dash(out);
	if (*fraction >= 0.095)
		return c_printf(out, "%.0f%%", 100 * *fraction);
	return c_printf(out, "%.1f%%", 100 * *fraction);
}

const char *fmt_rss(char *out, uint64_t bytes)
{
	return c_printf(out, "%llu KiB", (unsigned long long)(bytes / 1024));
}

const char *fmt_uint(char *out, uint64_t v)
{
	return c_printf(out, "%llu", (unsigned long long)v);
}

const char *fmt_n(char *out, uint64_t measurements, int trials, long iters,
		  uint64_t sign_failures_retried)
{
	if (sign_failures_retried > 0)
		return c_printf(out, "%llu (%d " FMT_TIMES " %ld); %llu failed signing attempts retried",
				(unsigned long long)measurements, trials, iters,
				(unsigned long long)sign_failures_retried);
	return c_printf(out, "%llu (%d " FMT_TIMES " %ld)",
			(unsigned long long)measurements, trials, iters);
}

const char *fmt_clock_khz(char *out, double khz)
{
	return c_printf(out, "%.2f GHz", khz / 1e6);
}

const char *fmt_memory_kib(char *out, uint64_t kib)
{
	return c_printf(out, "%llu MiB", (unsigned long long)(kib / 1024));
}

const char *fmt_date(char *out, const char *iso_utc)
{
	return c_printf(out, "%.19s", iso_utc ? iso_utc : "");
}

const char *fmt_digest_prefix(char *out, const char *hex)
{
	size_t i;

	for (i = 0; i < 16 && hex && hex[i]; i++)
		out[i] = (char)tolower((unsigned char)hex[i]);
	strcpy(out + i, FMT_ELLIPSIS);
	return out;
}

const char *fmt_hash_message(char *out, uint64_t bytes)
{
	if (bytes >= 1024 && bytes % 1024 == 0)
		return c_printf(out, "%llu KiB", (unsigned long long)(bytes / 1024));
	return c_printf(out, "%llu B", (unsigned long long)bytes);
}

const char *fmt_fixed1(char *out, double v)
{
	return c_printf(out, "%.1f", v);
}

const char *fmt_fixed2(char *out, double v)
{
	return c_printf(out, "%.2f", v);
}

const char *fmt_hash_ratio(char *out, const double *ratio)
{
	if (!ratio)
		return c_printf(out, "(ratio %s)", FMT_DASH);
	return c_printf(out, "(%.2f" FMT_TIMES ")", *ratio);
}

const char *fmt_dispersion(char *out, double fraction)
{
	return c_printf(out, "%.2f%%", 100 * fraction);
}

static int fn_calls_cmp(const void *a, const void *b)
{
	const struct fn_calls *x = a, *y = b;

	return strcmp(x->fn, y->fn);
}

char *fmt_calls_per_op(const struct fn_calls *v, size_t n)
{
	struct fn_calls *sorted;
	struct strbuf sb = STRBUF_INIT;
	char num[FMT_MAX];
	size_t i;

	sorted = xmalloc((n ? n : 1) * sizeof(*sorted));
	if (n)
		memcpy(sorted, v, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), fn_calls_cmp);
	for (i = 0; i < n; i++) {
		if (!(sorted[i].per_op > 0))
			continue;
		if (sb.len)
			sb_adds(&sb, ", ");
		sb_adds(&sb, sorted[i].fn);
		sb_addc(&sb, ' ');
		sb_adds(&sb, c_printf(num, "%.3g", sorted[i].per_op));
	}
	free(sorted);
	if (!sb.len)
		sb_adds(&sb, FMT_DASH);
	return sb_detach(&sb);
}

const char *fmt_article(const char *name)
{
	char c = name ? (char)toupper((unsigned char)*name) : 0;
	return c && strchr("AEIOU", c) ? "an" : "a";
}

const char *fmt_duration_words(char *out, double seconds)
{
	if (seconds >= 60)
		return c_printf(out, "%.3g minute%s", seconds / 60, seconds == 60 ? "" : "s");
	return c_printf(out, "%.3g s", seconds);
}

const char *fmt_count(char *out, long long n, const char *noun)
{
	return c_printf(out, "%lld %s%s", n, noun, n == 1 ? "" : "s");
}

char *fmt_bracket_overhead(double count, const char *unit, double hz, double clock_ns)
{
	char c[FMT_MAX], t[FMT_MAX], g[FMT_MAX], k[FMT_MAX];
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s %s", fmt_cycles(c, &count), unit);
	if (hz > 0) {
		double s = count / hz;
		sb_addf(&sb, " (%s at %s)", fmt_time(t, &s), fmt_clock_khz(g, hz / 1e3));
	}
	if (clock_ns >= 0) {
		double s = clock_ns / 1e9;
		sb_addf(&sb, "; the two clock reads inside it %s", fmt_time(k, &s));
	}
	return sb_detach(&sb);
}
