/* json.c — see json.h. */
#include "evidence/json.h"
#include "proc/spawn.h"
#include "util/atomic.h"
#include "util/untrusted.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	if (!j && err && !*err)
		*err = xasprintf("%s:%d: %s", path, je.line, je.text);
	return j;
}

/* ---- limits ---- */

/* What this process has read of evidence JSON so far (all threads). */
static size_t evidence_bytes_read;

size_t evidence_total_max(void)
{
	static size_t max;
	if (!max) {
		const char *v = getenv(EVIDENCE_TOTAL_ENV);
		char *end = NULL;
		unsigned long long mib = v && *v ? strtoull(v, &end, 10) : 0;
		size_t m = EVIDENCE_TOTAL_MAX;
		if (end && !*end && mib > 0 && mib <= ((size_t)-1 >> 20))
			m = (size_t)mib << 20;
		max = m;
	}
	return max;
}

static char *mib_text(size_t bytes)
{
	return xasprintf("%.1f MiB", (double)bytes / (1 << 20));
}

/* Take size bytes out of this command's allowance; 0, or -1 with the
 * message. */
static int take_allowance(const char *path, size_t size, char **err)
{
	size_t max = evidence_total_max();
	size_t before = __atomic_fetch_add(&evidence_bytes_read, size, __ATOMIC_RELAXED);
	if (before + size <= max)
		return 0;
	__atomic_fetch_sub(&evidence_bytes_read, size, __ATOMIC_RELAXED);
	if (err) {
		char *lim = mib_text(max), *had = mib_text(before);
		*err = xasprintf("%s: not read: the evidence this command has read (%s) and this "
				 "file would pass the limit of %s of JSON evidence for one command "
				 "(%s raises it; docs/security.md, \"Evidence limits\")",
				 path, had, lim, EVIDENCE_TOTAL_ENV);
		free(lim);
		free(had);
	}
	return -1;
}

int evidence_read_fd(int fd, const char *path, char **data, size_t *len, char **err)
{
	struct stat st;
	if (fd < 0 || fstat(fd, &st)) {
		if (err)
			*err = xasprintf("%s: cannot read: %s", path, io_strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	int rc = -1;
	if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > EVIDENCE_FILE_MAX) {
		if (err) {
			char *size = mib_text((size_t)st.st_size), *lim = mib_text(EVIDENCE_FILE_MAX);
			*err = xasprintf("%s: too large for an evidence file (%s, the limit is %s; "
					 "docs/security.md, \"Evidence limits\")", path, size, lim);
			free(size);
			free(lim);
		}
	} else if (S_ISREG(st.st_mode) && take_allowance(path, (size_t)st.st_size, err)) {
		/* message set */
	} else if (fd_read_regular(fd, EVIDENCE_FILE_MAX, data, len)) {
		if (err)
			*err = xasprintf("%s: cannot read: %s", path, io_strerror(errno));
	} else if (utf8_bom_len(*data, *len)) {
		if (err)
			*err = xasprintf("%s: UTF-8 byte-order mark at start of %s: evidence JSON "
					 "never has one (was it saved by an editor? restore the file "
					 "ngcc-perf wrote)", path, path_basename(path));
		free(*data);
		*data = NULL;
	} else {
		rc = 0;
	}
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

static json_t *load_fd(int fd, const char *path, char **err)
{
	char *data = NULL, *why = NULL;
	size_t len = 0;
	json_t *j = NULL;
	if (evidence_read_fd(fd, path, &data, &len, &why) == 0)
		j = parse_loaded(path, data, len, &why);
	free(data);
	if (err)
		*err = why;
	else
		free(why);
	return j;
}

json_t *evidence_load(const char *path, char **err)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	return load_fd(open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK), path, err);
}

json_t *evidence_load_below(const char *root, const char *path, char **err)
{
	return load_fd(open_below(root, path), path, err);
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
