/*
 * example_instances.h — the instances of examples/ExampleKEM linked into our
 * own test programs (mk/example.mk compiles each instance's sources with its
 * kem_* API renamed to <Label_with_underscores>_kem_*, so several instances
 * live side by side in one program).
 */
#ifndef NGCC_EXAMPLE_INSTANCES_H
#define NGCC_EXAMPLE_INSTANCES_H

#include <stddef.h>

#include "kat/katgen.h"

#define EXAMPLE_PACKAGE "examples/ExampleKEM"

struct example_instance {
	const char *label;    /* instance folder, e.g. "ExampleKEM-128" */
	const char *instance; /* its ALGORITHM_INSTANCE, e.g. "EXAMPLEKEM_128" */
	struct kem_api api;   /* sizes from the getters; seed() reseeds drng_algorithm */
};

size_t example_count(void);
const struct example_instance *example_get(size_t i);
const struct example_instance *example_find(const char *label); /* or NULL */

/* <root>/examples/ExampleKEM/Test_Vectors/KAT_KEM_<instance>.txt (malloc'd) */
char *example_kat_path(const char *root, const struct example_instance *e);

#endif
