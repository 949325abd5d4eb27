/* names.c — see names.h. */
#include "evidence/names.h"

#include <stdlib.h>
#include <string.h>

#include "util/untrusted.h"
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

int path_name_check(const char *name, char **why)
{
	size_t len = name ? strlen(name) : 0;
	const char *bad = NULL;
	char *longer = NULL;
	if (!len)
		bad = "it is empty";
	else if (len > NAME_PART_MAX)
		bad = longer = xasprintf("it is %zu bytes long, more than %d", len, NAME_PART_MAX);
	else if (name[0] == '.')
		bad = "it starts with '.'";
	else if (strchr(name, '/'))
		bad = "it contains '/'";
	else if (str_has_control(name, len))
		bad = "it contains a control character or bytes that are not UTF-8";
	if (bad && why)
		*why = xstrdup(bad);
	free(longer);
	return bad ? -1 : 0;
}

char *path_name_problem(const char *what, const char *name)
{
	char *why = NULL;
	if (!path_name_check(name, &why))
		return NULL;
	char *shown = str_printable(name ? name : "", 80);
	char *msg = xasprintf("%s '%s' cannot name a folder or file: %s", what, shown, why);
	free(shown);
	free(why);
	return msg;
}
