/*
 * example_instances.c — table of the ExampleKEM instances compiled into a
 * test program, and the drng_algorithm they all draw from (the role of the
 * official KAT driver or of our shim).
 */
#include "example_instances.h"

#include <string.h>

#include "runtime/drng.h"

DRNG_ctx drng_algorithm;

static int seed_algorithm_drng(const unsigned char *seed, unsigned long long len)
{
	return init_random_number(&drng_algorithm, seed, len);
}

/* tag = the label with '-' replaced by '_' (see mk/example.mk). */
#define EXAMPLE_INSTANCES(X) \
	X(ExampleKEM_128, "ExampleKEM-128") \
	X(ExampleKEM_256, "ExampleKEM-256")

#define DECLARE(tag, label) \
	unsigned long long tag##_kem_get_pk_len_bytes(void); \
	unsigned long long tag##_kem_get_sk_len_bytes(void); \
	unsigned long long tag##_kem_get_ct_len_bytes(void); \
	unsigned long long tag##_kem_get_ss_len_bytes(void); \
	int tag##_kem_keygen(unsigned char *, unsigned long long *, \
			     unsigned char *, unsigned long long *); \
	int tag##_kem_enc(unsigned char *, unsigned long long, \
			  unsigned char *, unsigned long long *, \
			  unsigned char *, unsigned long long *); \
	int tag##_kem_dec(unsigned char *, unsigned long long, \
			  unsigned char *, unsigned long long, \
			  unsigned char *, unsigned long long *); \
	extern const char tag##_algorithm_instance[];
EXAMPLE_INSTANCES(DECLARE)

#define ENTRY(tag, label_) \
	{ .label = label_, .instance = tag##_algorithm_instance, \
	  .api = { .seed = seed_algorithm_drng, .keygen = tag##_kem_keygen, \
		   .enc = tag##_kem_enc, .dec = tag##_kem_dec } },
static struct example_instance table[] = { EXAMPLE_INSTANCES(ENTRY) };

#define GETTERS(tag, label_) \
	{ tag##_kem_get_pk_len_bytes, tag##_kem_get_sk_len_bytes, \
	  tag##_kem_get_ct_len_bytes, tag##_kem_get_ss_len_bytes },
static unsigned long long (*const getters[][4])(void) = { EXAMPLE_INSTANCES(GETTERS) };

#define N_EXAMPLES (sizeof(table) / sizeof(table[0]))

/* The sizes are what the getters claim, asked once. */
static void fill_sizes(void)
{
	static int done;

	if (done)
		return;
	for (size_t i = 0; i < N_EXAMPLES; i++) {
		table[i].api.pk_bytes = getters[i][0]();
		table[i].api.sk_bytes = getters[i][1]();
		table[i].api.ct_bytes = getters[i][2]();
		table[i].api.ss_bytes = getters[i][3]();
	}
	done = 1;
}

size_t example_count(void)
{
	return N_EXAMPLES;
}

const struct example_instance *example_get(size_t i)
{
	fill_sizes();
	return i < N_EXAMPLES ? &table[i] : NULL;
}

const struct example_instance *example_find(const char *label)
{
	for (size_t i = 0; i < N_EXAMPLES; i++)
		if (!strcmp(table[i].label, label))
			return example_get(i);
	return NULL;
}

char *example_kat_path(const char *root, const struct example_instance *e)
{
	return xasprintf("%s/" EXAMPLE_PACKAGE "/Test_Vectors/KAT_KEM_%s.txt",
			 root, e->instance);
}
