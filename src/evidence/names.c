/* names.c — see names.h. */
#include "evidence/names.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

char *evidence_stem(const char *label, const char *op)
{
	return xasprintf("%s__%s", label, op);
}

int split_stem_op(const char *name, char **stem, char **op)
{
	const char *sep = NULL;
	if (!str_ends_with(name, ".json"))
		return -1;
	for (const char *p = name; (p = strstr(p, "__")); p++)
		sep = p;
	if (!sep || sep == name || strlen(sep + 2) <= 5)
		return -1;
	*stem = xstrndup(name, (size_t)(sep - name));
	*op = xstrndup(sep + 2, strlen(sep + 2) - 5);
	return 0;
}
