/* unitfile.c — see unitfile.h. */
#include "evidence/unitfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "evidence/json.h"
#include "util/util.h"

int unit_match_library(const json_t *doc, const void *sha256, char **why)
{
	const char *was = jget_str(doc, "library_sha256", "");
	if (!strcmp(was, sha256))
		return 1;
	*why = xasprintf("library changed (sha256 %.12s… now %.12s…)", was, (const char *)sha256);
	return 0;
}

static enum unit_state classify(const char *root, const char *path, const struct unit_format *f,
				const void *ctx, json_t **doc, char **why)
{
	struct stat sb;
	*why = NULL;
	if (doc)
		*doc = NULL;
	/* lstat: a dangling link is there too (and refused below) */
	if (root ? lstat(path, &sb) && errno == ENOENT : !path_exists(path))
		return UNIT_MISSING;
	char *err = NULL;
	json_t *j = root ? evidence_load_below(root, path, &err) : evidence_load(path, &err);
	if (!j) {
		*why = xasprintf("corrupt %s %s: %s", f->what, path, err ? err : "unreadable");
		free(err);
		return UNIT_CORRUPT;
	}
	if (evidence_check_schema(j, f->kind, f->version) ||
	    !json_is_string(json_object_get(j, "status"))) {
		*why = xasprintf("corrupt %s %s: no ngcc-perf/%s/%d schema or status",
				 f->what, path, f->kind, f->version);
		json_decref(j);
		return UNIT_CORRUPT;
	}
	char *bad = NULL;
	if (f->check && f->check(j, &bad)) {
		*why = xasprintf("corrupt %s %s: %s", f->what, path, bad ? bad : "fields");
		free(bad);
		json_decref(j);
		return UNIT_CORRUPT;
	}
	const char *status = json_string_value(json_object_get(j, "status"));
	enum unit_state st;
	if (strcmp(status, "complete")) {
		*why = xasprintf("%s %s is %s", f->what, path, status);
		st = UNIT_REDO;
	} else {
		st = f->match(j, ctx, why) ? UNIT_DONE : UNIT_STALE;
	}
	if (doc)
		*doc = j;
	else
		json_decref(j);
	return st;
}

enum unit_state unit_file_classify(const char *path, const struct unit_format *f,
				   const void *ctx, json_t **doc, char **why)
{
	return classify(NULL, path, f, ctx, doc, why);
}

enum unit_state unit_file_classify_below(const char *root, const char *path,
					 const struct unit_format *f, const void *ctx,
					 json_t **doc, char **why)
{
	return classify(root, path, f, ctx, doc, why);
}
