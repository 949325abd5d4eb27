/* instrument.c — see instrument.h (docs/method.md §10.1). */
#include "build/instrument.h"

#include "build/elfinfo.h"
#include "build/job.h"
#include "build/objscan.h"
#include "evidence/json.h"
#include "evidence/paths.h"
#include "method/toolchain.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *const instrument_symbols[4] = {
	"pseudohash", "pseudoXOF", "sm3hash", "get_random_number",
};

void instrument_result_free(struct instrument_result *r)
{
	free(r->library);
	sl_free(&r->wrapped);
	json_decref(r->compile_command);
	json_decref(r->link_command);
	free(r->error);
	free(r->output);
	memset(r, 0, sizeof *r);
}

int instrument_referenced(const struct link_objects *objs, struct strlist *wrapped, char **err)
{
	struct strlist undef = STRLIST_INIT;
	int rc = 0;
	for (size_t i = 0; i < objs->n && !rc; i++) {
		const struct link_object *lo = &objs->v[i];
		if (lo->ours)
			continue;
		if (!lo->loaded) {
			*err = xstrdup(lo->error ? lo->error : "unreadable object");
			rc = -1;
		} else {
			obj_undefined(&lo->obj, &undef);
		}
	}
	for (size_t i = 0; i < 4 && !rc; i++)
		if (sl_contains(&undef, instrument_symbols[i]))
			sl_push(wrapped, instrument_symbols[i]);
	sl_free(&undef);
	return rc;
}

/* The first object holding LTO bytecode, or NULL. */
static const char *lto_object(const struct link_objects *objs)
{
	for (size_t i = 0; i < objs->n; i++)
		if (objs->v[i].lto)
			return objs->v[i].path;
	return NULL;
}

/* Our version script plus the profiling controls. */
static int write_version_script(const char *path, char **err)
{
	char *src = path_join(ngcc_home(), "src/runtime/exports.map"), *data = NULL;
	size_t len;
	if (read_file(src, &data, &len)) {
		*err = xasprintf("cannot read %s: %s", src, strerror(errno));
		free(src);
		return -1;
	}
	char *at = strstr(data, "global:");
	if (!at) {
		*err = xasprintf("%s has no 'global:' line", src);
		free(src);
		free(data);
		return -1;
	}
	at += strlen("global:");
	struct strbuf sb = STRBUF_INIT;
	sb_add(&sb, data, (size_t)(at - data));
	sb_adds(&sb, "\n\t\tngcc_prof_*;");
	sb_adds(&sb, at);
	int rc = write_file(path, sb.buf, sb.len);
	if (rc)
		*err = xasprintf("cannot write %s: %s", path, strerror(errno));
	sb_free(&sb);
	free(src);
	free(data);
	return rc;
}

static void upper_define(struct strlist *argv, const char *sym)
{
	char *d = xasprintf("-DNGCC_PROF_WRAP_%s", sym);
	for (char *p = d + strlen("-DNGCC_PROF_WRAP_"); *p; p++)
		*p = (char)toupper((unsigned char)*p);
	sl_push_owned(argv, d);
}

static int run_job(const char *workspace, struct strlist *argv, struct instrument_result *out,
		   const char *what)
{
	struct job j;
	memset(&j, 0, sizeof j);
	j.out_fd = -1;
	j.cwd = workspace;
	for (size_t i = 0; i < argv->n; i++)
		sl_push(&j.argv, argv->items[i]);
	int rc = job_run_sync(&j);
	if (rc) {
		out->error = xasprintf("the %s failed (exit %d)", what, rc);
		out->output = xstrdup(j.output ? j.output : "");
	}
	job_release(&j);
	return rc ? 1 : 0;
}

static int compile_wrappers(const char *workspace, const char *obj, struct instrument_result *out)
{
	struct strlist argv = STRLIST_INIT;
	sl_push(&argv, toolchain_cc());
	const char *fl[] = { "-std=c11", "-O2", "-fPIC", "-Wall", "-Wextra", "-D_GNU_SOURCE" };
	for (size_t i = 0; i < sizeof fl / sizeof *fl; i++)
		sl_push(&argv, fl[i]);
	for (size_t i = 0; i < out->wrapped.n; i++)
		upper_define(&argv, out->wrapped.items[i]);
	sl_push_owned(&argv, xasprintf("-I%s/src/runtime", ngcc_home()));
	sl_push(&argv, "-c");
	sl_push_owned(&argv, xasprintf("%s/src/runtime/profwrap.c", ngcc_home()));
	sl_push(&argv, "-o");
	sl_push(&argv, obj);
	out->compile_command = argv_recorded(&argv);
	int rc = run_job(workspace, &argv, out, "wrapper compile");
	sl_free(&argv);
	return rc;
}

/* The recorded link command with our output, wrapper object, version
 * script and --wrap options. */
static void relink_argv(const json_t *link_command, const char *lib, const char *wrapobj,
			const char *map, const struct strlist *wrapped, struct strlist *argv)
{
	size_t i;
	json_t *a;
	int skip_next = 0;
	json_array_foreach((json_t *)link_command, i, a) {
		const char *s = json_string_value(a);
		if (!s)
			continue;
		if (skip_next) {
			skip_next = 0;
			sl_push(argv, lib);
		} else if (!strcmp(s, "-o")) {
			skip_next = 1;
			sl_push(argv, s);
		} else if (str_starts_with(s, "-Wl,--version-script=")) {
			sl_push(argv, wrapobj);
			sl_push_owned(argv, xasprintf("-Wl,--version-script=%s", map));
			for (size_t k = 0; k < wrapped->n; k++)
				sl_push_owned(argv, xasprintf("-Wl,--wrap=%s", wrapped->items[k]));
		} else {
			sl_push_owned(argv, path_unhide_ours(s));
		}
	}
}

static int relink(const char *workspace, const json_t *entry, const char *cand, const char *label,
		  struct instrument_result *out)
{
	const json_t *link = json_object_get(entry, "link_command");
	char *dir = xasprintf("build/%s/instrumented", cand);
	char *objdir = xasprintf("%s/obj/%s", dir, label);
	char *absobj = path_join(workspace, objdir);
	char *wrapobj = xasprintf("%s/ngcc_profwrap.o", objdir);
	char *map = xasprintf("%s/%s.exports.map", dir, label);
	char *absmap = path_join(workspace, map);
	struct strlist argv = STRLIST_INIT;
	int rc = -1;
	out->library = xasprintf("%s/lib%s.so", dir, label);
	if (mkdir_p(absobj, 0755)) {
		out->error = xasprintf("cannot create %s: %s", absobj, strerror(errno));
		goto done;
	}
	if (write_version_script(absmap, &out->error))
		goto done;
	rc = compile_wrappers(workspace, wrapobj, out);
	if (rc)
		goto done;
	relink_argv(link, out->library, wrapobj, map, &out->wrapped, &argv);
	out->link_command = argv_recorded(&argv);
	rc = run_job(workspace, &argv, out, "instrumented link");
	if (!rc) {
		char *abslib = path_join(workspace, out->library);
		if (sha256_file_hex(abslib, out->library_sha256)) {
			out->error = xasprintf("cannot read %s", abslib);
			rc = -1;
		}
		free(abslib);
	}
done:
	sl_free(&argv);
	free(dir);
	free(objdir);
	free(absobj);
	free(wrapobj);
	free(map);
	free(absmap);
	return rc;
}

int instrument_instance(const char *workspace, const json_t *entry,
			const struct link_objects *objs, struct instrument_result *out)
{
	memset(out, 0, sizeof *out);
	const char *cand = jget_str(entry, "candidate", NULL);
	const char *label = jget_str(entry, "label", NULL);
	const json_t *link = json_object_get(entry, "link_command");
	const char *which = NULL;
	if (!cand || !label || !json_is_array(link) || !json_array_size(link)) {
		out->error = xasprintf("build.json entry %s/%s has no recorded link command; "
				       "run `ngcc-perf build %s` again", cand ? cand : "?",
				       label ? label : "?", cand ? cand : "ID");
		return 1;
	}
	if (jget_bool(entry, "lto", 0) || (which = lto_object(objs))) {
		out->lto_refused = 1;
		out->error = xasprintf("LTO objects present (%s): link-time wrappers would miss "
				       "calls resolved by the optimiser; rebuild without -flto "
				       "to profile", which ? which : "build.json lto: true");
		return 1;
	}
	if (instrument_referenced(objs, &out->wrapped, &out->error)) {
		char *e = out->error;
		out->error = xasprintf("%s; rebuild with `ngcc-perf build %s`", e, cand);
		free(e);
		return 1;
	}
	return relink(workspace, entry, cand, label, out);
}
