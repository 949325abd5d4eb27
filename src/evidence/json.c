/* json.c — see json.h. */
#include "evidence/json.h"
#include "proc/spawn.h"
#include "util/atomic.h"
#include "util/untrusted.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *evidence_dumps(const json_t *j)
{
	char *s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
				       JSON_REAL_PRECISION(17) | JSON_ENCODE_ANY);
	if (!s)
		ngcc_die(EXIT_SYSTEM, "cannot serialise JSON evidence");
	char *out = xasprintf("%s\n", s);
	free(s);
	return out;
}

int evidence_write(const char *path, const json_t *j)
{
	char *s = evidence_dumps(j);
	int rc = atomic_write(path, s, strlen(s));
	int e = errno;
	free(s);
	errno = e;
	return rc;
}

/* Parse a file's bytes; NUL bytes inside are an error (jansson stops). */
static json_t *parse_loaded(const char *path, const char *data, size_t len, char **err)
{
	json_error_t je;
	json_t *j = json_loadb(data, len, 0, &je);
	if (!j && err)
		*err = xasprintf("%s:%d: %s", path, je.line, je.text);
	return j;
}

static json_t *load_result(const char *path, int rc, char *data, size_t len, char **err)
{
	json_t *j = NULL;
	if (rc) {
		if (err)
			*err = xasprintf("%s: cannot read: %s", path, io_strerror(errno));
	} else {
		j = parse_loaded(path, data, len, err);
	}
	free(data);
	return j;
}

json_t *evidence_load(const char *path, char **err)
{
	char *data = NULL;
	size_t len = 0;
	int rc = read_file(path, &data, &len);
	return load_result(path, rc, data, len, err);
}

json_t *evidence_load_below(const char *root, const char *path, char **err)
{
	char *data = NULL;
	size_t len = 0;
	int rc = read_file_below(root, path, &data, &len);
	return load_result(path, rc, data, len, err);
}

json_t *evidence_schema(const char *kind, int version)
{
	char *s = xasprintf("ngcc-perf/%s/%d", kind, version);
	json_t *j = json_string(s);
	free(s);
	return j;
}

int evidence_check_schema(const json_t *j, const char *kind, int version)
{
	const char *s = jget_str(j, "schema", NULL);
	if (!s)
		return -1;
	char *want = xasprintf("ngcc-perf/%s/%d", kind, version);
	int rc = strcmp(s, want) ? -1 : 0;
	free(want);
	return rc;
}

json_t *jstr_or_null(const char *s) { return s ? json_string(s) : json_null(); }

const char *jget_str(const json_t *o, const char *key, const char *def)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : def;
}

long long jget_int(const json_t *o, const char *key, long long def)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? (long long)json_integer_value(v) : def;
}

double jget_real(const json_t *o, const char *key, double def)
{
	json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : def;
}

int jget_bool(const json_t *o, const char *key, int def)
{
	json_t *v = json_object_get(o, key);
	return json_is_boolean(v) ? json_is_true(v) : def;
}

/* ---- schemas ---- */

/* Every evidence kind a published dataset may hold, with the version this
 * tool reads (docs/method.md §11.1: readers reject unknown versions). */
static const struct {
	const char *kind;
	int version;
} known_schemas[] = {
	{ "campaign", 1 }, { "build", 1 }, { "record", 1 }, { "profile", 1 },
	{ "survey", 1 }, { "relink-failed", 1 }, { "publish", 1 },
	{ "size-audit", 1 }, { "memory", 1 }, { "samples", 1 }, { "pool", 1 },
	{ "calibration", 1 }, { "check", 1 },
};

/* ---- schemas --------------------------------------------------------------- */

int schema_known(const json_t *j, char **why)
{
	const char *s = jget_str(j, "schema", NULL);
	char kind[64];
	int version, used = 0;
	if (!s) {
		*why = xstrdup("no \"schema\" string");
		return -1;
	}
	if (sscanf(s, "ngcc-perf/%63[a-z0-9_-]/%d%n", kind, &version, &used) != 2 ||
	    (size_t)used != strlen(s)) {
		*why = xasprintf("schema \"%s\" is not ngcc-perf/<kind>/<version>", s);
		return -1;
	}
	for (size_t i = 0; i < sizeof known_schemas / sizeof *known_schemas; i++) {
		if (strcmp(known_schemas[i].kind, kind))
			continue;
		if (known_schemas[i].version == version)
			return 0;
		*why = xasprintf("unknown schema version \"%s\" (this tool reads "
				 "ngcc-perf/%s/%d)", s, kind, known_schemas[i].version);
		return -1;
	}
	*why = xasprintf("unknown schema kind \"%s\"", s);
	return -1;
}

json_t *evidence_strays_killed(const struct spawn_res *res)
{
	if (!res || !res->contained || res->strays_killed < 0)
		return json_null();
	return json_integer(res->strays_killed);
}
