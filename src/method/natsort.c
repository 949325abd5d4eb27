/*
 * natsort.c — report-format §4 sort orders.
 */
#include "method/natsort.h"

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

enum op_class {
	OP_KEYGEN, OP_ENC, OP_DEC, OP_SIGN, OP_VERIFY, OP_EXCHANGE,
	OP_INIT_A, OP_INIT_B, OP_PASS, OP_DERIVE_A, OP_DERIVE_B, OP_HASH,
	OP_UNKNOWN,
};

/* `prefix<digits>` → 1 and the number; anything else → 0. */
static int numbered(const char *op, const char *prefix, unsigned long long *num)
{
	size_t lp = strlen(prefix);
	const char *p;

	if (strncmp(op, prefix, lp) != 0 || !op[lp])
		return 0;
	for (p = op + lp; *p; p++)
		if (!is_digit(*p))
			return 0;
	*num = strtoull(op + lp, NULL, 10);
	return 1;
}

static enum op_class op_class(const char *op, unsigned long long *num)
{
	static const char *const fixed[] = {
		[OP_KEYGEN] = "keygen", [OP_ENC] = "enc", [OP_DEC] = "dec",
		[OP_SIGN] = "sign", [OP_VERIFY] = "verify",
		[OP_EXCHANGE] = "exchange", [OP_INIT_A] = "init_a",
		[OP_INIT_B] = "init_b", [OP_DERIVE_A] = "derive_a",
		[OP_DERIVE_B] = "derive_b",
	};
	size_t i;

	*num = 0;
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (fixed[i] && strcmp(op, fixed[i]) == 0)
			return (enum op_class)i;
	if (numbered(op, "pass", num))
		return OP_PASS;
	if (numbered(op, "hash_", num))
		return OP_HASH;
	return OP_UNKNOWN;
}

int op_cmp(const char *a, const char *b)
{
	unsigned long long na, nb;
	enum op_class ca = op_class(a, &na), cb = op_class(b, &nb);

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
