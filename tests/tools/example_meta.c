/*
 * example_meta.c — compiled once per ExampleKEM instance (mk/example.mk)
 * with -DEX_TAG=<tag> and the instance folder on the include path, to export
 * the instance's ALGORITHM_INSTANCE as <tag>_algorithm_instance.
 */
#include "KEM_AlgorithmInstance.h"

#define EX_CAT2(a, b) a##b
#define EX_CAT(a, b) EX_CAT2(a, b)

extern const char EX_CAT(EX_TAG, _algorithm_instance)[];
const char EX_CAT(EX_TAG, _algorithm_instance)[] = ALGORITHM_INSTANCE;
