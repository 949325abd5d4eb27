/* check.c — see check.h. */
#include "evidence/check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/json.h"
#include "util/util.h"

const char *const counter_hz_sources[] = { "process", "phase", NULL };

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

static unsigned type_bit(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return J_OBJ;
	case JSON_ARRAY: return J_ARR;
	case JSON_STRING: return J_STR;
	case JSON_INTEGER: return J_INT;
	case JSON_REAL: return J_REAL;
	case JSON_TRUE:
	case JSON_FALSE: return J_BOOL;
	default: return J_NULL;
	}
}

static char *wanted(unsigned types)
{
	static const struct { unsigned bit; const char *name; } names[] = {
		{ J_STR, "a string" }, { J_INT, "an integer" }, { J_REAL, "a real number" },
		{ J_BOOL, "a boolean" }, { J_OBJ, "an object" }, { J_ARR, "an array" },
		{ J_NULL, "null" },
	};
	struct strbuf sb = STRBUF_INIT;
	if ((types & J_NUM) == J_NUM)
		types = (types & ~J_NUM) | J_REAL, sb_adds(&sb, "a number");
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (types & names[i].bit) {
			if (names[i].bit == J_REAL && sb.len && !strcmp(sb.buf, "a number"))
				continue;
			sb_addf(&sb, "%s%s", sb.len ? " or " : "", names[i].name);
		}
	return sb_detach(&sb);
}

static int in_words(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (!strcmp(s, *words))
			return 1;
	return 0;
}

/* One value against a rule; where: the field as shown in messages. */
static int check_value(const json_t *v, const struct field_rule *r, const char *where,
		       char **why)
{
	if (!(type_bit(v) & r->types)) {
		char *w = wanted(r->types);
		*why = xasprintf("%s is %s, expected %s", where, type_name(v), w);
		free(w);
		return -1;
	}
	if ((r->flags & F_RANGE) && json_is_number(v)) {
		double x = json_number_value(v);
		if (!isfinite(x) || x < r->min || x > r->max) {
			*why = xasprintf("%s is %.17g, outside [%g, %g]", where, x, r->min, r->max);
			return -1;
		}
	}
	if (r->words && json_is_string(v) && !in_words(json_string_value(v), r->words)) {
		char *shown = xstrndup(json_string_value(v), 40);
		for (char *p = shown; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = '?';
		*why = xasprintf("%s is \"%s\", not a value this format has", where, shown);
		free(shown);
		return -1;
	}
	return 0;
}

/* The rest of the path below one element of an array or member of an
 * object, or the element itself at the end of the path. */
static int check_element(const json_t *el, const char *rest, const struct field_rule *r,
			 const char *at, char **why);

/* Walk the remaining path from v; where: what has been walked so far.
 * "key[]" walks every element of an array, "key{}" every member of an
 * object. */
static int check_path(const json_t *v, const char *path, const struct field_rule *r,
		      const char *where, char **why)
{
	size_t n = strcspn(path, ".");
	int array = n >= 2 && !strncmp(path + n - 2, "[]", 2);
	int members = n >= 2 && !strncmp(path + n - 2, "{}", 2);
	char *key = xstrndup(path, array || members ? n - 2 : n);
	char *here = *where ? xasprintf("%s.%s", where, key) : xstrdup(key);
	const json_t *child = json_is_object(v) ? json_object_get(v, key) : NULL;
	const char *rest = path[n] ? path + n + 1 : NULL;
	int rc = 0;
	if (!child) {
		/* required means: required in its parent, when the parent is there */
		if ((r->flags & F_REQUIRED) && !rest)
			*why = xasprintf("%s is missing", here), rc = -1;
	} else if ((array || members) && json_is_null(child)) {
		/* a null collection has no elements to check */
	} else if (array || members) {
		if (array ? !json_is_array(child) : !json_is_object(child)) {
			*why = xasprintf("%s is %s, expected %s", here, type_name(child),
					 array ? "an array" : "an object");
			rc = -1;
		} else if (array) {
			size_t i;
			const json_t *el;
			json_array_foreach(child, i, el) {
				char *at = xasprintf("%s[%zu]", here, i);
				rc = check_element(el, rest, r, at, why);
				free(at);
				if (rc)
					break;
			}
		} else {
			const char *k;
			json_t *el;
			json_object_foreach((json_t *)child, k, el) {
				char *at = xasprintf("%s[\"%s\"]", here, k);
				rc = check_element(el, rest, r, at, why);
				free(at);
				if (rc)
					break;
			}
		}
	} else if (rest) {
		/* a null parent object: its fields are not there */
		if (!json_is_null(child))
			rc = check_path(child, rest, r, here, why);
	} else {
		rc = check_value(child, r, here, why);
	}
	free(here);
	free(key);
	return rc;
}

static int check_element(const json_t *el, const char *rest, const struct field_rule *r,
			 const char *at, char **why)
{
	return rest ? check_path(el, rest, r, at, why) : check_value(el, r, at, why);
}

int evidence_check_fields(const json_t *doc, const struct field_rule *rules, size_t n,
			  char **why)
{
	*why = NULL;
	if (!json_is_object(doc)) {
		*why = xstrdup("the document is not a JSON object");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (check_path(doc, rules[i].path, &rules[i], "", why))
			return -1;
	return 0;
}

int evidence_check_doc(const json_t *doc, const char *kind, int version,
		       const struct field_rule *rules, size_t n, char **why)
{
	if (evidence_check_schema(doc, kind, version)) {
		*why = xasprintf("schema '%s' is not ngcc-perf/%s/%d; this ngcc-perf cannot read it",
				 jget_str(doc, "schema", "missing"), kind, version);
		return -1;
	}
	return evidence_check_fields(doc, rules, n, why);
}
