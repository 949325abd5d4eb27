/*
 * linediff.c — see linediff.h.  Lines are reduced to 64-bit hashes with
 * their content compared on a hash match; the common prefix and suffix are
 * dropped before the search, so an edit in a large file costs little.
 */
#include "util/linediff.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

#define DEFAULT_MAX_EDITS 20000

struct line {
	const char *p;
	size_t len;
	uint64_t h;
};

static uint64_t fnv1a(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
	return h;
}

static struct line *split_lines(const char *s, size_t len, size_t *n)
{
	size_t cap = 16, k = 0;
	struct line *v = xmalloc(cap * sizeof *v);
	size_t i = 0;
	while (i < len) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - s) : len;
		if (k == cap)
			v = xrealloc(v, (cap *= 2) * sizeof *v);
		/* the line end is part of the line: a last line without one
		 * differs from the same text with one, as diff(1) says */
		v[k].p = s + i;
		v[k].len = end - i + (nl ? 1 : 0);
		v[k].h = fnv1a(s + i, v[k].len);
		k++;
		i = end + 1;
	}
	*n = k;
	return v;
}

static int same(const struct line *x, const struct line *y)
{
	return x->h == y->h && x->len == y->len && !memcmp(x->p, y->p, x->len);
}

/* Myers' greedy forward search: the least number of insertions plus
 * deletions turning a[0..n) into b[0..m), or -1 beyond max. */
static long edit_distance(const struct line *a, long n, const struct line *b, long m, long max)
{
	long off = max + 1;
	long *v = xcalloc((size_t)(2 * max + 3), sizeof *v);
	long result = -1;
	for (long d = 0; d <= max && result < 0; d++) {
		for (long k = -d; k <= d; k += 2) {
			long x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
					 ? v[off + k + 1] : v[off + k - 1] + 1;
			long y = x - k;
			while (x < n && y < m && same(&a[x], &b[y]))
				x++, y++;
			v[off + k] = x;
			if (x >= n && y >= m) {
				result = d;
				break;
			}
		}
	}
	free(v);
	return result;
}

/* Lines of a whose content does not occur among b's lines (multiset). */
static size_t unmatched(const struct line *a, size_t n, const struct line *b, size_t m)
{
	char *used = xcalloc(m ? m : 1, 1);
	size_t miss = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < m && (used[j] || !same(&a[i], &b[j])))
			j++;
		if (j < m)
			used[j] = 1;
		else
			miss++;
	}
	free(used);
	return miss;
}

void line_diff_count(const char *a, size_t alen, const char *b, size_t blen,
		     size_t max_edits, struct line_counts *out)
{
	size_t n, m;
	struct line *la = split_lines(a, alen, &n), *lb = split_lines(b, blen, &m);
	size_t pre = 0, suf = 0;
	while (pre < n && pre < m && same(&la[pre], &lb[pre]))
		pre++;
	while (suf < n - pre && suf < m - pre && same(&la[n - 1 - suf], &lb[m - 1 - suf]))
		suf++;
	long an = (long)(n - pre - suf), bm = (long)(m - pre - suf);
	long max = (long)(max_edits ? max_edits : DEFAULT_MAX_EDITS);
	long d = edit_distance(la + pre, an, lb + pre, bm, max);
	memset(out, 0, sizeof *out);
	if (d >= 0) {
		long common = (an + bm - d) / 2;
		out->removed = (size_t)(an - common);
		out->added = (size_t)(bm - common);
	} else {
		out->approximate = 1;
		if ((double)an * (double)bm > 5e7) { /* too large to match: every line */
			out->removed = (size_t)an;
			out->added = (size_t)bm;
		} else {
			out->removed = unmatched(la + pre, (size_t)an, lb + pre, (size_t)bm);
			out->added = unmatched(lb + pre, (size_t)bm, la + pre, (size_t)an);
		}
	}
	free(la);
	free(lb);
}

int text_is_binary(const char *data, size_t len)
{
	return memchr(data, '\0', len < 8192 ? len : 8192) != NULL;
}
