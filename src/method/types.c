/* types.c — see types.h. */
#include "method/types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kem_api[] = { "kem_keygen", "kem_enc", "kem_dec", NULL };
static const char *const sign_api[] = { "sig_sign", "sig_verify", "sig_keygen", NULL };
static const char *const kex_api[] = { "kex_init_a", "kex_init_b", NULL };
static const char *const hash_api[] = { "CryptHash", NULL };

static const char *const kem_ops[] = { "keygen", "enc", "dec", NULL };
static const char *const sign_ops[] = { "keygen", "sign", "verify", NULL };
static const char *const kex_ops[] = { "exchange", "init_a", "init_b", "pass<N>",
				       "derive_a", "derive_b", NULL };
static const char *const hash_kat_files[] = { "KAT_2_12", "KAT_2_23", "KAT_2_33",
					      "KAT_Loop", NULL };

static const char *const hash_ops[] = { "hash_<L>", NULL };
/* The eight message lengths of docs/method.md §5.2 (guide S1-S8), in bytes. */
static const char *const hash_timed[] = { "hash_32", "hash_128", "hash_512", "hash_1024",
					  "hash_4096", "hash_8192", "hash_16384",
					  "hash_65536", NULL };

const struct cand_type cand_types[] = {
	{ "kem", 1, "Key encapsulation", "KEM_", "KAT_KEM_", NULL, "-DNGCC_SHIM_KEM",
	  kem_api, kem_ops, kem_ops, NULL, 1 },
	{ "sign", 2, "Digital signatures", "SIG_", "KAT_SIG_", NULL, "-DNGCC_SHIM_SIG",
	  sign_api, sign_ops, sign_ops, NULL, 1 },
	{ "kex", 3, "Key exchange", "KEX_", "KAT_KEX_", NULL, "-DNGCC_SHIM_KEX",
	  kex_api, kex_ops, kex_ops, "exchange", 1 },
	{ "hash", 4, "Hash functions", "CryptHash_", "KAT_CryptHash", hash_kat_files,
	  "-DNGCC_SHIM_HASH", hash_api, hash_ops, hash_timed, NULL, 0 },
};
const size_t n_cand_types = sizeof cand_types / sizeof cand_types[0];

const struct cand_type *cand_type_find(const char *name)
{
	if (!name)
		return NULL;
	if (!strcmp(name, "sig"))
		name = "sign";
	for (size_t i = 0; i < n_cand_types; i++)
		if (!strcmp(cand_types[i].name, name))
			return &cand_types[i];
	return NULL;
}

const struct cand_type *cand_type_by_abi(int abi)
{
	for (size_t i = 0; i < n_cand_types; i++)
		if (cand_types[i].abi == abi)
			return &cand_types[i];
	return NULL;
}

int cand_type_supported(const struct cand_type *t)
{
	return t && t->timed_ops;
}

const char *cand_types_checked(void)
{
	static char text[64];
	if (text[0])
		return text;
	size_t n = 0;
	for (size_t i = 0; i < n_cand_types; i++)
		if (cand_types[i].checked)
			n += (size_t)snprintf(text + n, sizeof text - n, "%s`%s`", n ? ", " : "",
					      cand_types[i].name);
	return text;
}

int cand_type_public_key(const struct cand_type *t)
{
	return t && strcmp(t->name, "hash") != 0;
}

static int op_matches(const char *op, const char *key, unsigned long long *num);

const struct cand_type *cand_type_of_op(const char *op, int *shared)
{
	const struct cand_type *found = NULL;
	unsigned long long num;
	*shared = 0;
	for (size_t t = 0; t < n_cand_types; t++)
		for (const char *const *k = cand_types[t].ops; *k; k++)
			if (op_matches(op, *k, &num) && found != &cand_types[t]) {
				if (found) {
					*shared = 1;
					return NULL;
				}
				found = &cand_types[t];
			}
	return found;
}

/* op matches key: equal, or key is "<prefix><N>"-style and op is the
 * prefix followed by decimal digits (*num gets them). */
static int op_matches(const char *op, const char *key, unsigned long long *num)
{
	const char *lt = strchr(key, '<');
	if (!lt)
		return !strcmp(op, key);
	size_t lp = (size_t)(lt - key);
	if (strncmp(op, key, lp) || !op[lp])
		return 0;
	for (const char *p = op + lp; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	*num = strtoull(op + lp, NULL, 10);
	return 1;
}

const char *cand_op_whole(const char *op)
{
	int shared;
	const struct cand_type *t = cand_type_of_op(op, &shared);
	return t && t->whole_op && strcmp(op, t->whole_op) ? t->whole_op : NULL;
}

unsigned cand_op_rank(const char *op, unsigned long long *num)
{
	unsigned rank = 0;
	*num = 0;
	for (size_t t = 0; t < n_cand_types; t++)
		for (const char *const *k = cand_types[t].ops; *k; k++, rank++)
			if (op_matches(op, *k, num))
				return rank;
	*num = 0;
	return (unsigned)n_cand_types * 64;
}

int cand_op_cmp(const char *a, const char *b)
{
	unsigned long long na, nb;
	unsigned ra = cand_op_rank(a, &na), rb = cand_op_rank(b, &nb);
	if (ra != rb)
		return ra < rb ? -1 : 1;
	return na < nb ? -1 : na > nb;
}
