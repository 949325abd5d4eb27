/*
 * scheme_meta.c — compiled once per ExampleSIG / ExampleKEX / ExampleHash
 * variant (mk/example_schemes.mk) with -DXS_TAG=<tag>, -DXS_API_HEADER and
 * the instance folder on the include path, to export the instance's
 * ALGORITHM_INSTANCE (and DIGEST_BIT_LENGTH) under the variant's tag.
 */
#include XS_API_HEADER

#define XS_CAT2(a, b) a##b
#define XS_CAT(a, b) XS_CAT2(a, b)

#ifndef DIGEST_BIT_LENGTH
#define DIGEST_BIT_LENGTH 0
#endif

extern const char XS_CAT(XS_TAG, _algorithm_instance)[];
const char XS_CAT(XS_TAG, _algorithm_instance)[] = ALGORITHM_INSTANCE;
extern const int XS_CAT(XS_TAG, _digest_bits);
const int XS_CAT(XS_TAG, _digest_bits) = DIGEST_BIT_LENGTH;
