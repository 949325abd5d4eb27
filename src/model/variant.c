/* variant.c — see variant.h. */
#include "model/variant.h"

#include <string.h>

#include "util/util.h"

/* The contract of issue #29: the build name is the label plus +<tag>; an
 * optimized tree that needs no CPU extension is "portable". */
const struct ds_variant ds_variants[] = {
	{ "reference", "", NULL, "reference" },
	{ "optimized-avx2", "+avx2", "AVX2", "optimized (AVX2)" },
	{ "optimized-avx512", "+avx512", "AVX-512", "optimized (AVX-512)" },
	{ "optimized-neon", "+neon", "NEON", "optimized (NEON)" },
	{ "optimized-portable", "+portable", "portable", "optimized (portable)" },
	{ "additional", "+additional", "additional", "additional" },
};
const size_t n_ds_variants = sizeof ds_variants / sizeof *ds_variants;

const struct ds_variant *ds_variant_of_stem(const char *stem, char **label)
{
	size_t len = strlen(stem);
	for (size_t i = 1; i < n_ds_variants; i++) {
		size_t sl = strlen(ds_variants[i].suffix);
		/* a suffix alone is no label */
		if (len > sl && !strcmp(stem + len - sl, ds_variants[i].suffix)) {
			*label = xstrndup(stem, len - sl);
			return &ds_variants[i];
		}
	}
	*label = xstrdup(stem);
	return DS_REFERENCE;
}

const struct ds_variant *ds_variant_find(const char *name)
{
	for (size_t i = 0; name && i < n_ds_variants; i++)
		if (!strcmp(ds_variants[i].name, name))
			return &ds_variants[i];
	return NULL;
}

char *ds_variant_display(const char *label, const struct ds_variant *v)
{
	return v && v->tag ? xasprintf("%s (%s)", label, v->tag) : xstrdup(label);
}

int ds_variant_rank(const struct ds_variant *v)
{
	return (int)(v - ds_variants);
}
