/*
 * scheme_instances.c — table of the ExampleSIG, ExampleKEX and ExampleHash
 * variants compiled into a test program, and the drng_algorithm they all
 * draw from (the role of the official KAT driver or of our shim).
 */
#include "scheme_instances.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/drng.h"

DRNG_ctx drng_algorithm;

static int seed_algorithm_drng(const unsigned char *seed, unsigned long long len)
{
	return init_random_number(&drng_algorithm, seed, len);
}

typedef unsigned long long ull;
typedef unsigned char uc;

/* tag, package, label, hostile (see mk/example_schemes.mk) */
#define SIG_VARIANTS(X) \
	X(ExampleSIG_1, "ExampleSIG", "ExampleSIG-1", 0) \
	X(ExampleSIG_2, "ExampleSIG", "ExampleSIG-2", 0) \
	X(HostileSIG_accept_all, "ExampleSIG", "ExampleSIG-1", 1) \
	X(HostileSIG_sign_fails, "ExampleSIG", "ExampleSIG-1", 1) \
	X(HostileSIG_long_sig, "ExampleSIG", "ExampleSIG-2", 1)
#define KEX_VARIANTS(X) \
	X(ExampleKEX_2P, "ExampleKEX", "ExampleKEX-2P", 0) \
	X(ExampleKEX_3P, "ExampleKEX", "ExampleKEX-3P", 0) \
	X(HostileKEX_different, "ExampleKEX", "ExampleKEX-2P", 1) \
	X(HostileKEX_never_2P, "ExampleKEX", "ExampleKEX-2P", 1) \
	X(HostileKEX_never_3P, "ExampleKEX", "ExampleKEX-3P", 1) \
	X(HostileKEX_crash, "ExampleKEX", "ExampleKEX-3P", 1)
#define HASH_VARIANTS(X) \
	X(ExampleHash_256, "ExampleHash", "ExampleHash-256", 0) \
	X(ExampleHash_512, "ExampleHash", "ExampleHash-512", 0) \
	X(HostileHash_partial, "ExampleHash", "ExampleHash-256", 1) \
	X(HostileHash_crash, "ExampleHash", "ExampleHash-256", 1) \
	X(HostileHash_slow, "ExampleHash", "ExampleHash-512", 1)

#define META(t) \
	extern const char t##_algorithm_instance[]; \
	extern const int t##_digest_bits;

#define DECLARE_SIG(t, p, l, h) META(t) \
	ull t##_sig_get_pk_len_bytes(void); ull t##_sig_get_sk_len_bytes(void); \
	ull t##_sig_get_sn_len_bytes(void); \
	int t##_sig_keygen(uc *, ull *, uc *, ull *); \
	int t##_sig_sign(uc *, ull, uc *, ull, uc *, ull *); \
	int t##_sig_verify(uc *, ull, uc *, ull, uc *, ull);
#define DECLARE_KEX(t, p, l, h) META(t) \
	ull t##_kex_get_passes_num(void); ull t##_kex_get_pk_len_bytes(void); \
	ull t##_kex_get_sk_len_bytes(void); ull t##_kex_get_sta_len_bytes(void); \
	ull t##_kex_get_stb_len_bytes(void); ull t##_kex_get_ss_len_bytes(void); \
	ull t##_kex_get_total_msg_len_bytes(void); \
	int t##_kex_init_a(uc *, ull *, uc *, ull *, uc *, ull *); \
	int t##_kex_init_b(uc *, ull *, uc *, ull *, uc *, ull *); \
	int t##_kex_generate_pass1_msg_a(uc *, ull, uc *, ull, uc *, ull *, uc *, ull *); \
	int t##_kex_generate_pass2_msg_b(uc *, ull, uc *, ull, uc *, ull, uc *, ull *, uc *, ull *); \
	int t##_kex_generate_pass3_msg_a(uc *, ull, uc *, ull, uc *, ull, uc *, ull *, uc *, ull *); \
	int t##_kex_derive_ss_a(uc *, ull, uc *, ull, uc *, ull, uc *, ull, uc *, ull *); \
	int t##_kex_derive_ss_b(uc *, ull, uc *, ull, uc *, ull, uc *, ull, uc *, ull *);
#define DECLARE_HASH(t, p, l, h) META(t) \
	int t##_CryptHash(int, const uc *, ull, uc *);
SIG_VARIANTS(DECLARE_SIG)
KEX_VARIANTS(DECLARE_KEX)
HASH_VARIANTS(DECLARE_HASH)
/* Only the never-finishing builds define a fourth pass. */
int HostileKEX_never_2P_kex_generate_pass4_msg_b(uc *, ull, uc *, ull, uc *, ull, uc *, ull *, uc *, ull *);
int HostileKEX_never_3P_kex_generate_pass4_msg_b(uc *, ull, uc *, ull, uc *, ull, uc *, ull *, uc *, ull *);

#define COMMON(t, p, l, h, k) \
	.tag = #t, .package = p, .label = l, .instance = t##_algorithm_instance, \
	.kind = k, .hostile = h

#define ENTRY_SIG(t, p, l, h) \
	{ COMMON(t, p, l, h, SCHEME_SIG), \
	  .sig = { .seed = seed_algorithm_drng, .keygen = t##_sig_keygen, \
		   .sign = t##_sig_sign, .verify = t##_sig_verify } },
#define ENTRY_KEX(t, p, l, h) \
	{ COMMON(t, p, l, h, SCHEME_KEX), \
	  .kex = { .seed = seed_algorithm_drng, .init_a = t##_kex_init_a, \
		   .init_b = t##_kex_init_b, .pass1 = t##_kex_generate_pass1_msg_a, \
		   .pass = { [2] = t##_kex_generate_pass2_msg_b, \
			     [3] = t##_kex_generate_pass3_msg_a }, \
		   .derive_a = t##_kex_derive_ss_a, .derive_b = t##_kex_derive_ss_b } },
#define ENTRY_HASH(t, p, l, h) \
	{ COMMON(t, p, l, h, SCHEME_HASH), .hash = { .hash = t##_CryptHash } },
static struct scheme_instance table[] = {
	SIG_VARIANTS(ENTRY_SIG) KEX_VARIANTS(ENTRY_KEX) HASH_VARIANTS(ENTRY_HASH)
};
#define N_SCHEMES (sizeof(table) / sizeof(table[0]))

/* The sizes are what the getters claim, asked once. */
#define SIZES_SIG(t, p, l, h) \
	if (!strcmp(s->tag, #t)) { \
		s->sig.pk_bytes = t##_sig_get_pk_len_bytes(); \
		s->sig.sk_bytes = t##_sig_get_sk_len_bytes(); \
		s->sig.sn_bytes = t##_sig_get_sn_len_bytes(); \
	}
#define SIZES_KEX(t, p, l, h) \
	if (!strcmp(s->tag, #t)) { \
		s->kex.passes = t##_kex_get_passes_num(); \
		s->kex.pk_bytes = t##_kex_get_pk_len_bytes(); \
		s->kex.sk_bytes = t##_kex_get_sk_len_bytes(); \
		s->kex.sta_bytes = t##_kex_get_sta_len_bytes(); \
		s->kex.stb_bytes = t##_kex_get_stb_len_bytes(); \
		s->kex.ss_bytes = t##_kex_get_ss_len_bytes(); \
		s->kex.msg_bytes = t##_kex_get_total_msg_len_bytes(); \
	}
#define SIZES_HASH(t, p, l, h) \
	if (!strcmp(s->tag, #t)) \
		s->hash.digest_bits = t##_digest_bits;

static void fill_sizes(void)
{
	static int done;

	if (done)
		return;
	for (size_t i = 0; i < N_SCHEMES; i++) {
		struct scheme_instance *s = &table[i];
		SIG_VARIANTS(SIZES_SIG)
		KEX_VARIANTS(SIZES_KEX)
		HASH_VARIANTS(SIZES_HASH)
		if (!strcmp(s->tag, "HostileKEX_never_2P"))
			s->kex.pass[4] = HostileKEX_never_2P_kex_generate_pass4_msg_b;
		if (!strcmp(s->tag, "HostileKEX_never_3P"))
			s->kex.pass[4] = HostileKEX_never_3P_kex_generate_pass4_msg_b;
	}
	done = 1;
}

size_t scheme_count(void)
{
	return N_SCHEMES;
}

const struct scheme_instance *scheme_get(size_t i)
{
	fill_sizes();
	return i < N_SCHEMES ? &table[i] : NULL;
}

const struct scheme_instance *scheme_find(const char *tag)
{
	for (size_t i = 0; i < N_SCHEMES; i++)
		if (!strcmp(table[i].tag, tag))
			return scheme_get(i);
	return NULL;
}

char *scheme_kat_name(const struct scheme_instance *s, enum hash_kat_file f)
{
	if (s->kind == SCHEME_HASH)
		return katgen_hash_file_name(f, s->instance);
	return xasprintf("KAT_%s_%s.txt", s->kind == SCHEME_SIG ? "SIG" : "KEX", s->instance);
}

char *scheme_kat_path(const char *root, const struct scheme_instance *s,
		      enum hash_kat_file f)
{
	char *name = scheme_kat_name(s, f);
	char *path = xasprintf("%s/%s/Test_Vectors/%s", root, s->package, name);

	free(name);
	return path;
}

enum kat_status scheme_katgen(const struct scheme_instance *s, enum hash_kat_file f,
			      struct strbuf *text, char **detail)
{
	switch (s->kind) {
	case SCHEME_SIG:
		return katgen_sig(&s->sig, KAT_DEFAULT_RECORDS, text, detail);
	case SCHEME_KEX:
		return katgen_kex(&s->kex, KAT_DEFAULT_RECORDS, text, detail);
	default:
		return katgen_hash(&s->hash, f, text, detail);
	}
}
