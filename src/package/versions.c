/*
 * versions.c — see versions.h: versions.conf, the folders of older
 * versions and moving the current version aside when a newer one is added.
 */
#include "package/versions.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "package/conf.h"
#include "package/pkgdigest.h"
#include "util/atomic.h"
#include "util/fsutil.h"
#include "util/numparse.h"
#include "util/untrusted.h"
#include "util/util.h"

const char *const version_items[] = {
	"source", "candidate.conf", "kat.sha256", "patches", PACKAGE_LISTING, NULL,
};

void versions_free(struct version_log *log)
{
	for (size_t i = 0; i < log->n; i++) {
		struct pkg_version *v = &log->v[i];
		free(v->added);
		free(v->package);
		free(v->sha256);
		free(v->algorithm);
		free(v->type);
	}
	free(log->v);
	log->v = NULL;
	log->n = 0;
}

static struct pkg_version *push(struct version_log *log)
{
	log->v = xrealloc(log->v, (log->n + 1) * sizeof *log->v);
	struct pkg_version *v = &log->v[log->n++];
	memset(v, 0, sizeof *v);
	return v;
}

static char **field(struct pkg_version *v, const char *key)
{
	if (!strcmp(key, "added"))
		return &v->added;
	if (!strcmp(key, "package"))
		return &v->package;
	if (!strcmp(key, "package_sha256"))
		return &v->sha256;
	if (!strcmp(key, "algorithm"))
		return &v->algorithm;
	if (!strcmp(key, "type"))
		return &v->type;
	return NULL;
}

/* One line of versions.conf; 0 or -1 with *why. */
static int parse_line(struct version_log *log, char *line, char **why)
{
	line = str_trim(line);
	if (!*line || *line == '#')
		return 0;
	if (*line == '[') {
		int n;
		char *end = strchr(line, ']');
		if (!str_starts_with(line, "[version ") || !end || end[1]) {
			*why = xstrdup("expected '[version N]'");
			return -1;
		}
		*end = '\0';
		if (parse_whole_int(line + 9, 1, 1000000, &n) ||
		    n != (log->n ? log->v[log->n - 1].number + 1 : 1)) {
			*why = xasprintf("version '%s' is not the next number", line + 9);
			return -1;
		}
		push(log)->number = n;
		return 0;
	}
	char *eq = strchr(line, '=');
	if (!eq || !log->n) {
		*why = xstrdup("expected 'key = value' inside a [version N] section");
		return -1;
	}
	*eq = '\0';
	char *key = str_trim(line), *val = str_trim(eq + 1);
	struct pkg_version *v = &log->v[log->n - 1];
	long long files;
	if (!strcmp(key, "files")) {
		if (parse_whole(val, 0, 100000000, &files)) {
			*why = xasprintf("files = '%s' is not a count", val);
			return -1;
		}
		v->files = (size_t)files;
		return 0;
	}
	char **slot = field(v, key);
	if (!slot || *slot) {
		*why = xasprintf(slot ? "'%s' given twice" : "unknown key '%s'", key);
		return -1;
	}
	*slot = xstrdup(val);
	return 0;
}

static int complete(const struct version_log *log, char **why)
{
	for (size_t i = 0; i < log->n; i++) {
		const struct pkg_version *v = &log->v[i];
		if (!v->added || !v->package || !v->sha256 || !v->algorithm || !v->type) {
			*why = xasprintf("[version %d] lacks one of added, package, package_sha256, "
					 "algorithm, type", v->number);
			return -1;
		}
	}
	if (!log->n) {
		*why = xstrdup("no [version N] section");
		return -1;
	}
	return 0;
}

static int read_conf(const char *path, struct version_log *log, char **err)
{
	char *data, *why = NULL;
	size_t len;
	if (read_file(path, &data, &len)) {
		*err = xasprintf("%s: cannot read: %s", path, io_strerror(errno));
		return -1;
	}
	int line = 0, rc = 0;
	for (char *p = data; p && !rc;) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		line++;
		rc = parse_line(log, p, &why);
		p = nl ? nl + 1 : NULL;
	}
	if (!rc && complete(log, &why))
		rc = -1, line = 0;
	free(data);
	if (rc) {
		*err = line ? xasprintf("%s:%d: %s; the file is written by `add` only: restore it "
					"or add the package again with --force", path, line, why)
			    : xasprintf("%s: %s", path, why);
		free(why);
		versions_free(log);
	}
	return rc;
}

/* A candidate added before versions were kept: version 1 is what is stored. */
static int legacy_version(const char *cand_dir, struct version_log *log, char **err)
{
	char *conf_path = path_join(cand_dir, "candidate.conf");
	char *source = path_join(cand_dir, "source");
	struct candidate_conf c;
	char *listing = NULL;
	size_t files = 0;
	int rc = conf_read(conf_path, &c, err);
	if (!rc && (rc = package_listing(source, &listing, &files, err)) == 0) {
		struct pkg_version *v = push(log);
		struct stat st;
		char when[32] = "unknown";
		if (!stat(conf_path, &st)) {
			struct tm tm;
			gmtime_r(&st.st_mtime, &tm);
			strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
		}
		char hex[65];
		package_digest(listing, hex);
		v->number = 1;
		v->added = xstrdup(when);
		v->package = xstrdup(c.package ? c.package : "?");
		v->sha256 = xstrdup(hex);
		v->files = files;
		v->algorithm = xstrdup(c.algorithm ? c.algorithm : "?");
		v->type = xstrdup(c.type ? c.type : "?");
		v->legacy = 1;
	}
	if (!rc)
		conf_free(&c);
	free(listing);
	free(source);
	free(conf_path);
	return rc;
}

int versions_load(const char *cand_dir, struct version_log *log, char **err)
{
	memset(log, 0, sizeof *log);
	char *path = path_join(cand_dir, VERSIONS_CONF);
	char *conf = path_join(cand_dir, "candidate.conf");
	int rc = 0;
	if (path_exists(path))
		rc = read_conf(path, log, err);
	else if (path_exists(conf))
		rc = legacy_version(cand_dir, log, err);
	free(conf);
	free(path);
	return rc;
}

int versions_save(const char *cand_dir, const struct version_log *log)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "# The package versions of this candidate, oldest first; the last is the\n"
		     "# current one (candidate.conf, source/).  Older ones are in versions/<N>/.\n"
		     "# Written by `ngcc-perf add`: do not edit.\n");
	for (size_t i = 0; i < log->n; i++) {
		const struct pkg_version *v = &log->v[i];
		sb_addf(&sb, "\n[version %d]\nadded = %s\npackage = %s\npackage_sha256 = %s\n"
			     "files = %zu\nalgorithm = %s\ntype = %s\n", v->number, v->added,
			v->package, v->sha256, v->files, v->algorithm, v->type);
	}
	char *path = path_join(cand_dir, VERSIONS_CONF);
	int rc = atomic_write(path, sb.buf, sb.len);
	free(path);
	sb_free(&sb);
	return rc;
}

const struct pkg_version *versions_current(const struct version_log *log)
{
	return log->n ? &log->v[log->n - 1] : NULL;
}

const struct pkg_version *versions_find(const struct version_log *log, int number)
{
	for (size_t i = 0; i < log->n; i++)
		if (log->v[i].number == number)
			return &log->v[i];
	return NULL;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

int versions_append(struct version_log *log, const struct pkg_version *v)
{
	int number = log->n ? log->v[log->n - 1].number + 1 : 1;
	struct pkg_version *n = push(log);
	n->number = number;
	n->added = dup_or_null(v->added);
	n->package = dup_or_null(v->package);
	n->sha256 = dup_or_null(v->sha256);
	n->files = v->files;
	n->algorithm = dup_or_null(v->algorithm);
	n->type = dup_or_null(v->type);
	return number;
}

char *version_dir(const char *cand_dir, const struct version_log *log, int number)
{
	const struct pkg_version *cur = versions_current(log);
	if (cur && cur->number == number)
		return xstrdup(cand_dir);
	return path_joinf(cand_dir, "versions/%d", number);
}

/* Was path written at or after the ISO time `added`?  (Whole seconds:
 * a build in the second its version was added counts.) */
static int written_since(const char *path, const char *added)
{
	struct stat st;
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	if (stat(path, &st))
		return 0;
	const char *end = strptime(added, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!end || *end)
		return 1; /* a legacy version's unknown date: whatever is there */
	return st.st_mtime >= timegm(&tm);
}

int version_of_build(const char *workspace, const char *id, const struct version_log *log)
{
	char *json = path_joinf(workspace, "build/%s/build.json", id);
	int number = 0;
	for (size_t i = 0; i < log->n; i++)
		if (written_since(json, log->v[i].added))
			number = log->v[i].number;
	free(json);
	return number;
}

char *version_build_dir(const char *workspace, const char *id, const char *cand_dir,
			const struct version_log *log, int number)
{
	const struct pkg_version *v = versions_find(log, number);
	if (!v)
		return NULL;
	char *dir = v == versions_current(log) ? path_joinf(workspace, "build/%s", id)
					       : path_joinf(cand_dir, "versions/%d/build", number);
	char *json = path_join(dir, "build.json");
	int ok = v == versions_current(log) ? written_since(json, v->added) : path_is_file(json);
	free(json);
	if (!ok) {
		free(dir);
		return NULL;
	}
	return dir;
}

int version_listing(const char *cand_dir, const struct version_log *log, int number,
		    char **listing, char **err)
{
	char *dir = version_dir(cand_dir, log, number);
	char *path = path_join(dir, PACKAGE_LISTING);
	size_t len, files;
	int rc = 0;
	if (path_exists(path)) {
		if (read_file(path, listing, &len)) {
			*err = xasprintf("%s: cannot read: %s", path, io_strerror(errno));
			rc = -1;
		}
	} else {
		char *source = path_join(dir, "source");
		rc = package_listing(source, listing, &files, err);
		free(source);
	}
	free(path);
	free(dir);
	return rc;
}

/* build/<id>/build.json and the KAT logs kat/<stem>.log into dst/build/
 * (absent: nothing). */
static int copy_build_records(const char *workspace, const char *id, const char *dst)
{
	char *bdir = path_joinf(workspace, "build/%s", id);
	char *json = path_join(bdir, "build.json"), *kat = path_join(bdir, "kat");
	char *out = path_join(dst, "build"), *out_kat = path_join(out, "kat");
	struct strlist logs = STRLIST_INIT;
	int rc = 0;
	if (path_is_file(json)) {
		char *to = path_join(out, "build.json");
		rc = mkdir_p(out, 0755) || copy_file(json, to) ? -1 : 0;
		free(to);
	}
	if (!rc && path_is_dir(kat) && !dir_list(kat, DIR_PICK_FILES, &logs)) {
		for (size_t i = 0; i < logs.n && !rc; i++) {
			if (!str_ends_with(logs.items[i], ".log"))
				continue;
			char *from = path_join(kat, logs.items[i]), *to = path_join(out_kat, logs.items[i]);
			rc = mkdir_p(out_kat, 0755) || copy_file(from, to) ? -1 : 0;
			free(from);
			free(to);
		}
	}
	sl_free(&logs);
	free(out_kat);
	free(out);
	free(kat);
	free(json);
	free(bdir);
	return rc;
}

/* Move items named in version_items from `from` to `to` (both folders);
 * on failure, move back what was moved. */
static int move_items(const char *from, const char *to, char **err)
{
	size_t i;
	for (i = 0; version_items[i]; i++) {
		char *a = path_join(from, version_items[i]), *b = path_join(to, version_items[i]);
		int bad = path_exists(a) && rename(a, b);
		if (bad)
			*err = xasprintf("cannot move '%s' to '%s': %s", a, b, strerror(errno));
		free(a);
		free(b);
		if (bad)
			break;
	}
	if (!version_items[i])
		return 0;
	while (i-- > 0) {
		char *a = path_join(from, version_items[i]), *b = path_join(to, version_items[i]);
		if (path_exists(b))
			rename(b, a);
		free(a);
		free(b);
	}
	return -1;
}

int versions_keep_current(const char *workspace, const char *id, const char *cand_dir,
			  const struct version_log *log, char **err)
{
	const struct pkg_version *cur = versions_current(log);
	char *built = version_build_dir(workspace, id, cand_dir, log, cur->number);
	char *tmp = path_joinf(cand_dir, "versions/.%d.new", cur->number);
	char *dst = path_joinf(cand_dir, "versions/%d", cur->number);
	int rc = -1;
	rm_rf(tmp);
	if (path_exists(dst))
		*err = xasprintf("'%s' exists already: versions.conf does not list it as an older "
				 "version; move it away and add again", dst);
	else if (mkdir_p(tmp, 0755))
		*err = xasprintf("cannot create '%s': %s", tmp, strerror(errno));
	else if (built && copy_build_records(workspace, id, tmp))
		*err = xasprintf("cannot copy the build records of '%s' into '%s': %s", id, tmp,
				 strerror(errno));
	else if (move_items(cand_dir, tmp, err) == 0) {
		rc = rename(tmp, dst);
		if (rc) {
			*err = xasprintf("cannot move '%s' to '%s': %s", tmp, dst, strerror(errno));
			char *ignored = NULL;
			move_items(tmp, cand_dir, &ignored);
			free(ignored);
		}
	}
	if (rc)
		rm_rf(tmp);
	free(dst);
	free(tmp);
	free(built);
	return rc;
}
