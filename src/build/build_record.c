/* build_record.c — build fields of build.json entries (docs/method.md §11.4). */
#include "build/build.h"
#include "build/elfinfo.h"
#include "evidence/build_json.h"
#include "evidence/json.h"
#include "host/cpufeat.h"
#include "method/toolchain.h"

#include <stdlib.h>
#include <string.h>

static void set(json_t *e, const char *key, json_t *v)
{
	json_object_set_new(e, key, v);
}

static json_t *sections_json(const struct elf_facts *f)
{
	json_t *s = json_object();
	json_object_set_new(s, "text", json_integer((json_int_t)f->text));
	json_object_set_new(s, "rodata", json_integer((json_int_t)f->rodata));
	json_object_set_new(s, "data", json_integer((json_int_t)f->data));
	json_object_set_new(s, "bss", json_integer((json_int_t)f->bss));
	return s;
}

static int record_library(const char *workspace, json_t *e, const struct build_outcome *o, char **err)
{
	char *abs = path_join(workspace, o->library);
	char hex[65];
	struct elf_facts f;
	int rc = -1;

	if (sha256_file_hex(abs, hex)) {
		*err = xasprintf("%s: cannot read the built library", abs);
	} else if (elf_read_facts(abs, &f, err) == 0) {
		set(e, "library", json_string(o->library));
		set(e, "library_sha256", json_string(hex));
		set(e, "elf_load_bytes", json_integer((json_int_t)f.load_bytes));
		set(e, "elf_sections", sections_json(&f));
		set(e, "imports_allocator", json_boolean(f.imports_allocator));
		elf_facts_free(&f);
		rc = 0;
	}
	free(abs);
	return rc;
}

static void clear_library(json_t *e)
{
	static const char *const keys[] = {
		"library", "library_sha256", "elf_load_bytes", "elf_sections",
		"imports_allocator", "lto",
	};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		set(e, keys[i], json_null());
}

/* The patches of the source this was built from (package/patch.h). */
static json_t *patches_json(const struct candidate_conf *c)
{
	json_t *a = json_array();
	for (size_t i = 0; i < c->n_patches; i++) {
		const struct patch_conf *p = &c->patches[i];
		json_t *t = json_array();
		for (size_t k = 0; k < p->touches.n; k++)
			json_array_append_new(t, json_string(p->touches.items[k]));
		char *path = xasprintf("candidates/%s/patches/%s", c->id, p->file);
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:o}", "file", p->file,
						   "path", path, "sha256", p->sha256, "touches", t));
		free(path);
	}
	return a;
}

static json_t *error_json(const struct build_outcome *o)
{
	if (!o->error)
		return json_null();
	if (!o->error_tail || !*o->error_tail)
		return json_string(o->error);
	/* The tail usually holds the first error line too, with its context. */
	if (strstr(o->error_tail, o->error))
		return json_string(o->error_tail);
	char *s = xasprintf("%s\n...\n%s", o->error, o->error_tail);
	json_t *j = json_string(s);
	free(s);
	return j;
}

int build_record_outcome(const char *workspace, const struct candidate_conf *c,
			 const struct instance_conf *ic, json_t *e,
			 const struct build_outcome *o, char **err)
{
	char *stem = build_stem(ic);
	char *log = xasprintf("build/%s/%s.build.log", c->id, stem);
	json_t *rt = json_object();
	int rc = 0;

	set(e, "candidate", json_string(c->id));
	set(e, "label", json_string(ic->label));
	set(e, "instance", jstr_or_null(ic->instance));
	set(e, "variant", jstr_or_null(ic->variant));
	set(e, "flags", json_string(build_profile_name(o->profile)));
	if (o->ok) {
		rc = record_library(workspace, e, o, err);
		set(e, "lto", json_boolean(o->lto));
	} else {
		clear_library(e);
		set(e, "kat", json_string("BUILDFAIL"));
		set(e, "kat_not_passed", json_false());
		set(e, "kat_log", json_null());
		set(e, "kat_log_sha256", json_null());
	}
	set(e, "compile_commands", o->compile_commands ? json_deep_copy(o->compile_commands) : json_array());
	set(e, "link_command", o->link_command ? json_deep_copy(o->link_command) : json_null());
	set(e, "compiler", json_string(build_compiler_version()));
	set(e, "compiler_command", json_string(toolchain_cc()));
	set(e, "compiler_target", json_string(build_compiler_target()));
	json_object_set_new(rt, "drng", jstr_or_null(o->runtime_drng));
	json_object_set_new(rt, "auxfunc", jstr_or_null(o->runtime_auxfunc));
	set(e, "runtime", rt);
	set(e, "build_log", json_string(log));
	set(e, "build_error", error_json(o));
	set(e, "patches", patches_json(c));
	build_record_cpu(e, ic);
	free(log);
	free(stem);
	return rc;
}

void build_record_cpu(json_t *e, const struct instance_conf *ic)
{
	enum cpu_ext ext = conf_cpu_ext(ic);
	json_t *flags = json_array(), *need = json_array();
	for (const char *const *f = cpu_ext_flags(ext); *f; f++)
		json_array_append_new(flags, json_string(*f));
	for (const char *const *f = cpu_ext_features(ext); *f; f++)
		json_array_append_new(need, json_string(*f));
	set(e, "cpu_extension", json_string(cpu_ext_name(ext)));
	set(e, "cpu_flags", flags);
	set(e, "cpu_features_required", need);
	set(e, "host_cpu", host_cpu_json(host_cpu()));
}

int build_record_unsupported(json_t *doc, const struct candidate_conf *c,
			     const struct instance_conf *ic, const char *why)
{
	char *stem = build_stem(ic);
	char *key = build_json_key(c->id, stem);
	json_t *e = build_json_ensure(doc, key);
	set(e, "candidate", json_string(c->id));
	set(e, "label", json_string(ic->label));
	set(e, "instance", jstr_or_null(ic->instance));
	set(e, "variant", jstr_or_null(ic->variant));
	set(e, "flags", json_null());
	clear_library(e);
	set(e, "kat", json_string("UNSUPPORTED_CPU"));
	set(e, "kat_not_passed", json_false());
	set(e, "kat_log", json_null());
	set(e, "kat_log_sha256", json_null());
	set(e, "compile_commands", json_array());
	set(e, "link_command", json_null());
	set(e, "build_error", json_string(why));
	set(e, "patches", patches_json(c));
	build_record_cpu(e, ic);
	free(key);
	free(stem);
	return 0;
}

int build_record_unit(json_t *doc, const struct build_unit *u, char **err)
{
	const struct build_outcome *o = build_unit_final(u);
	char *stem = build_stem(u->ic);
	char *key = build_json_key(u->c->id, stem);
	json_t *e = build_json_ensure(doc, key);
	char *old_sha = xstrdup(jget_str(e, "library_sha256", ""));
	char *old_flags = xstrdup(jget_str(e, "flags", ""));
	int rc = build_record_outcome(u->workspace, u->c, u->ic, e, o, err);

	if (o->ok) {
		const char *sha = jget_str(e, "library_sha256", "");
		int same = *old_sha && !strcmp(old_sha, sha) &&
			   !strcmp(old_flags, build_profile_name(o->profile));
		if (!same) {
			build_json_clear_kat(e);
			build_json_set_guide_result(e, NULL);
		}
	}
	if (u->n_attempts > 1)
		build_json_set_guide_result(e, "BUILDFAIL");
	free(old_flags);
	free(old_sha);
	free(key);
	free(stem);
	return rc;
}
