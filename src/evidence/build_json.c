/* build_json.c — see build_json.h. */
#include "evidence/build_json.h"
#include "evidence/check.h"
#include "evidence/json.h"
#include "util/lock.h"
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Every entry field in the order of docs/method.md §11.4, then our additions. */
static const char *const entry_keys[] = {
	"candidate", "label", "instance", "variant", "flags",
	"kat", "guide_result", "kat_not_passed", "excluded", "kat_log", "kat_log_sha256",
	"library", "library_sha256", "elf_load_bytes", "elf_sections",
	"compile_commands", "link_command", "compiler", "compiler_command", "compiler_target", "lto",
	"imports_allocator", "primitive_scan",
	"runtime", "build_log", "build_error", "patches",
	"cpu_extension", "cpu_flags", "cpu_features_required", "host_cpu",
	"reference_label", "kat_vs_reference",
};

char *build_json_path(const char *workspace, const char *id)
{
	char *rel = xasprintf("build/%s/build.json", id);
	char *p = path_join(workspace, rel);
	free(rel);
	return p;
}

char *build_json_key(const char *id, const char *stem)
{
	return xasprintf("%s/%s", id, stem);
}

static json_t *empty_doc(void)
{
	json_t *doc = json_object();
	json_object_set_new(doc, "schema", evidence_schema(BUILD_JSON_KIND, BUILD_JSON_VERSION));
	json_object_set_new(doc, "instances", json_object());
	return doc;
}

/* ---- the fields a reader relies on ----------------------------------------- */

static const struct field_rule build_rules[] = {
	FIELD("instances", J_OBJ),
	FIELD("instances{}", J_OBJ),
	FIELD_OPT("instances{}.candidate", J_STR | J_NULL),
	FIELD_OPT("instances{}.label", J_STR | J_NULL),
	FIELD_OPT("instances{}.instance", J_STR | J_NULL),
	FIELD_OPT("instances{}.variant", J_STR | J_NULL),
	FIELD_OPT("instances{}.algorithm", J_STR | J_NULL),
	FIELD_OPT("instances{}.type", J_STR | J_NULL),
	FIELD_OPT("instances{}.flags", J_STR | J_NULL),
	FIELD_OPT("instances{}.kat", J_STR | J_NULL),
	FIELD_OPT("instances{}.guide_result", J_STR | J_NULL),
	FIELD_OPT("instances{}.kat_not_passed", J_BOOL | J_NULL),
	FIELD_OPT("instances{}.excluded", J_BOOL | J_NULL),
	FIELD_OPT("instances{}.kat_log", J_STR | J_NULL),
	FIELD_OPT("instances{}.kat_log_sha256", J_STR | J_NULL),
	FIELD_OPT("instances{}.library", J_STR | J_NULL),
	FIELD_OPT("instances{}.library_sha256", J_STR | J_NULL),
	FIELD_NUM_OPT("instances{}.elf_load_bytes", J_INT | J_NULL, 0, MAX_BYTES),
	FIELD_OPT("instances{}.build_error", J_STR | J_NULL),
	FIELD_OPT("instances{}.cpu_extension", J_STR | J_NULL),
	FIELD_OPT("instances{}.cpu_flags", J_ARR | J_NULL),
	FIELD_OPT("instances{}.cpu_flags[]", J_STR),
	FIELD_OPT("instances{}.cpu_features_required", J_ARR | J_NULL),
	FIELD_OPT("instances{}.cpu_features_required[]", J_STR),
	FIELD_OPT("instances{}.host_cpu", J_OBJ | J_NULL),
	FIELD_OPT("instances{}.host_cpu.arch", J_STR),
	FIELD_OPT("instances{}.host_cpu.source", J_STR),
	FIELD_OPT("instances{}.host_cpu.features", J_ARR),
	FIELD_OPT("instances{}.host_cpu.features[]", J_STR),
	FIELD_OPT("instances{}.reference_label", J_STR | J_NULL),
	FIELD_OPT("instances{}.kat_vs_reference", J_STR | J_NULL),
	FIELD_OPT("instances{}.patches", J_ARR | J_NULL),
	FIELD_OPT("instances{}.patches[]", J_OBJ),
	FIELD_OPT("instances{}.patches[].file", J_STR),
	FIELD_OPT("instances{}.patches[].path", J_STR),
	FIELD_OPT("instances{}.patches[].sha256", J_STR),
	FIELD_OPT("instances{}.patches[].touches", J_ARR),
};

int build_json_check(const json_t *doc, char **why)
{
	return EVIDENCE_CHECK(doc, BUILD_JSON_KIND, BUILD_JSON_VERSION, build_rules, why);
}

json_t *build_json_load(const char *workspace, const char *id, char **err)
{
	char *path = build_json_path(workspace, id);
	json_t *doc = NULL;
	char *why = NULL;

	if (!path_exists(path)) {
		free(path);
		return empty_doc();
	}
	doc = evidence_load(path, &why);
	if (doc && build_json_check(doc, &why)) {
		json_decref(doc);
		doc = NULL;
	}
	if (!doc) {
		/* build rewrites the file from its own results: removing it
		 * loses only the KAT statuses, which `kat` records again */
		*err = xasprintf("%s: %s; remove it, then run 'ngcc-perf build %s' and "
				 "'ngcc-perf kat %s' again", path, why ? why : "unreadable", id, id);
	}
	free(why);
	free(path);
	return doc;
}

int build_json_save(const char *workspace, const char *id, const json_t *doc)
{
	char *path = build_json_path(workspace, id);
	char *dir = path_dirname(path);
	int rc = mkdir_p(dir, 0755);
	if (!rc)
		rc = evidence_write(path, doc);
	int e = errno;
	free(dir);
	free(path);
	errno = e;
	return rc;
}

json_t *build_json_entry(json_t *doc, const char *key)
{
	return json_object_get(json_object_get(doc, "instances"), key);
}

json_t *build_json_ensure(json_t *doc, const char *key)
{
	json_t *inst = json_object_get(doc, "instances");
	json_t *e = json_object_get(inst, key);
	if (e)
		return e;
	e = json_object();
	for (size_t i = 0; i < sizeof entry_keys / sizeof entry_keys[0]; i++)
		json_object_set_new(e, entry_keys[i], json_null());
	json_object_set_new(e, "kat_not_passed", json_false());
	json_object_set_new(e, "excluded", json_false());
	json_object_set_new(inst, key, e);
	return e;
}

void build_json_set_kat(json_t *entry, const char *status, int kat_not_passed,
			const char *kat_log, const char *kat_log_sha256)
{
	json_object_set_new(entry, "kat", jstr_or_null(status));
	json_object_set_new(entry, "kat_not_passed", json_boolean(kat_not_passed));
	json_object_set_new(entry, "kat_log", jstr_or_null(kat_log));
	json_object_set_new(entry, "kat_log_sha256", jstr_or_null(kat_log_sha256));
}

void build_json_clear_kat(json_t *entry)
{
	build_json_set_kat(entry, NULL, 0, NULL, NULL);
}

void build_json_set_guide_result(json_t *entry, const char *status)
{
	json_object_set_new(entry, "guide_result", jstr_or_null(status));
}

int build_json_lock(const char *workspace, const char *id)
{
	char *path = build_json_path(workspace, id);
	char *dir = path_dirname(path);
	char *lock = xasprintf("%s.lock", path);
	int fd = mkdir_p(dir, 0755) ? -1 : lock_path(lock, 1, 1);
	free(lock);
	free(dir);
	free(path);
	return fd;
}

void build_json_unlock(int fd)
{
	lock_release(fd);
}
