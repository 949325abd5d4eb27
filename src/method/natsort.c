/*
 * natsort.c — docs/report-format.md §4 sort orders.
 */
#include "method/natsort.h"
#include "method/types.h"

#include <stdlib.h>
#include <string.h>

static int is_digit(char c)
{
	return c >= '0' && c <= '9';   /* ASCII only, whatever the locale */
}

static size_t run_length(const char *s, int digits)
{
	size_t n = 0;

	while (s[n] && is_digit(s[n]) == digits)
		n++;
	return n;
}

/* Byte order; a run that is a prefix of the other comes first. */
static int text_run_cmp(const char *a, size_t la, const char *b, size_t lb)
{
	int c = memcmp(a, b, la < lb ? la : lb);

	if (c)
		return c < 0 ? -1 : 1;
	return la < lb ? -1 : la > lb;
}

/* Numeric value of arbitrary length, then the shorter spelling first. */
static int digit_run_cmp(const char *a, size_t la, const char *b, size_t lb)
{
	size_t za = 0, zb = 0;
	int c;

	while (za + 1 < la && a[za] == '0')
		za++;
	while (zb + 1 < lb && b[zb] == '0')
		zb++;
	if (la - za != lb - zb)
		return la - za < lb - zb ? -1 : 1;
	c = memcmp(a + za, b + zb, la - za);
	if (c)
		return c < 0 ? -1 : 1;
	return la < lb ? -1 : la > lb;
}

int natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		int da = is_digit(*a), db = is_digit(*b);
		size_t la, lb;
		int c;

		/* A digit run against a text run: the first bytes decide. */
		if (da != db)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		la = run_length(a, da);
		lb = run_length(b, db);
		c = da ? digit_run_cmp(a, la, b, lb) : text_run_cmp(a, la, b, lb);
		if (c)
			return c;
		a += la;
		b += lb;
	}
	return *a ? 1 : (*b ? -1 : 0);
}

int op_cmp(const char *a, const char *b)
{
	unsigned long long na, nb;
	unsigned ca = cand_op_rank(a, &na), cb = cand_op_rank(b, &nb);

	if (ca != cb)
		return ca < cb ? -1 : 1;
	if (na != nb)
		return na < nb ? -1 : 1;
	return byte_cmp(a, b);
}

int byte_cmp(const char *a, const char *b)
{
	int c = strcmp(a, b);

	return c < 0 ? -1 : c > 0;
}

int natural_qsort_cmp(const void *a, const void *b)
{
	return natural_cmp(*(const char *const *)a, *(const char *const *)b);
}

int op_qsort_cmp(const void *a, const void *b)
{
	return op_cmp(*(const char *const *)a, *(const char *const *)b);
}

int byte_qsort_cmp(const void *a, const void *b)
{
	return byte_cmp(*(const char *const *)a, *(const char *const *)b);
}
