/* twin.c — see twin.h. */
#include "build/twin.h"

#include "build/elfinfo.h"
#include "build/instrument.h"
#include "build/job.h"
#include "build/objscan.h"
#include "evidence/json.h"
#include "evidence/paths.h"
#include "method/toolchain.h"
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define TWIN_STAMP_KIND "check-twins"
#define TWIN_STAMP_VERSION 1

const char *const twin_names[TWIN_N] = { "debug", "ct", "asan" };

static const char *const debug_flags[] = { "-g", NULL };
static const char *const asan_flags[] = { "-g", "-fsanitize=address,undefined",
	"-fno-omit-frame-pointer", "-fno-sanitize-recover=undefined", NULL };
static const char *const wrap_symbol = "get_random_number";

struct twin_ctx {
	const char *ws;
	char *ws_map;              /* -ffile-prefix-map=<the workspace, resolved>=. */
	const json_t *entry;
	const char *cand;
	char *stem;
	char *dir;                 /* build/<cand>/check (workspace-relative) */
	char *timed;               /* the timed library, absolute */
	char timed_sha[65];
	struct strbuf log;
	int jobs;
	struct strlist map_from, map_to;   /* object paths: recorded → twin */
};

static json_t *flags_json(const char *const *flags)
{
	json_t *a = json_array();
	for (; *flags; flags++)
		json_array_append_new(a, json_string(*flags));
	return a;
}

/* "build/<cand>/lib<stem>.so" → stem */
static char *stem_of(const char *library)
{
	const char *base = path_basename(library);
	size_t n = strlen(base);
	if (!str_starts_with(base, "lib") || n < 7 || !str_ends_with(base, ".so"))
		return NULL;
	return xstrndup(base + 3, n - 6);
}

static void log_command(struct twin_ctx *c, const struct strlist *argv, const char *output)
{
	char *line = argv_render(argv);
	sb_addf(&c->log, "$ %s\n%s", line, output ? output : "");
	if (output && *output && output[strlen(output) - 1] != '\n')
		sb_addc(&c->log, '\n');
	free(line);
}

/* ---- compiling ---------------------------------------------------------- */

/* Debug information names our runtime sources <ngcc-perf>/…, not where
 * ngcc-perf is installed (as our evidence does), and the workspace —
 * the compiler's working directory, recorded as the compilation directory
 * — "." (candidate sources are compiled by their workspace-relative
 * names), so the twins, their stacks and the sanitizer reports show the
 * same paths everywhere, and a twin's objects are the same in every
 * workspace (a compiler cache reuses them).  GCC applies the last map that
 * matches: the workspace's goes last, as it may lie inside ngcc-perf's
 * tree. */
static void push_prefix_maps(const struct twin_ctx *c, struct strlist *argv)
{
	sl_push_owned(argv, xasprintf("-ffile-prefix-map=%s=%s", ngcc_home(), NGCC_TREE_TAG));
	sl_push(argv, c->ws_map);
}

/* argv as the record shows it: argv_recorded(), and the prefix maps,
 * whose old directories end at '=' rather than at a path boundary,
 * written -ffile-prefix-map=<ngcc-perf>=<ngcc-perf> and
 * -ffile-prefix-map=<workspace>=. */
static json_t *recorded(const struct twin_ctx *c, const struct strlist *argv)
{
	json_t *a = argv_recorded(argv);
	for (size_t i = 0; i < argv->n; i++) {
		const char *s = argv->items[i];
		if (!strcmp(s, c->ws_map))
			json_array_set_new(a, i, json_string("-ffile-prefix-map=<workspace>=."));
		else if (str_starts_with(s, "-ffile-prefix-map="))
			json_array_set_new(a, i, json_sprintf("-ffile-prefix-map=%s=%s", NGCC_TREE_TAG,
							      NGCC_TREE_TAG));
	}
	return a;
}

/* The recorded compile command with its output moved to objdir and flags
 * appended; the object mapping is remembered for the link. */
static void twin_compile_argv(struct twin_ctx *c, const json_t *cmd, const char *objdir,
			      const char *const *flags, struct strlist *argv, int remember)
{
	size_t i;
	json_t *a;
	int next_is_out = 0;
	json_array_foreach((json_t *)cmd, i, a) {
		const char *s = json_string_value(a);
		if (!s)
			continue;
		if (next_is_out) {
			char *to = xasprintf("%s/%s", objdir, path_basename(s));
			if (remember) {
				sl_push(&c->map_from, s);
				sl_push(&c->map_to, to);
			}
			sl_push_owned(argv, to);
			next_is_out = 0;
			continue;
		}
		next_is_out = !strcmp(s, "-o");
		sl_push_owned(argv, path_unhide_ours(s));
	}
	for (; *flags; flags++)
		sl_push(argv, *flags);
	push_prefix_maps(c, argv);
}

/* Run the jobs, at most c->jobs at a time; the first failure's message in
 * *err.  0 when all succeeded, 1 when one failed, -1 when one could not
 * start. */
static int run_jobs(struct twin_ctx *c, struct job *js, size_t n, char **err)
{
	struct job **running = xcalloc(n ? n : 1, sizeof *running);
	size_t next = 0, nrun = 0;
	int rc = 0;
	while (next < n || nrun) {
		while (next < n && nrun < (size_t)c->jobs) {
			js[next].out_fd = -1;
			js[next].cwd = c->ws;
			if (job_start(&js[next]) == 0)
				running[nrun++] = &js[next];
			else if (!rc) {
				rc = -1;
				*err = xasprintf("cannot run %s: %s", js[next].argv.items[0],
						 js[next].output ? js[next].output : "");
			}
			next++;
		}
		if (!nrun)
			break;
		struct job *done = job_wait_any(running, &nrun);
		if (!done)
			break;
		log_command(c, &done->argv, done->output);
		if (done->exit_code && !rc) {
			rc = 1;
			char *line = argv_render(&done->argv);
			*err = xasprintf("compile failed (exit %d): %s", done->exit_code, line);
			free(line);
		}
	}
	free(running);
	return rc;
}

/* Compile every recorded command into build/<cand>/check/obj/<stem>/<sub>/
 * with flags; the commands as run in *shown. */
static int compile_set(struct twin_ctx *c, const char *sub, const char *const *flags,
		       json_t **shown, char **err)
{
	const json_t *cmds = json_object_get(c->entry, "compile_commands");
	size_t n = json_array_size(cmds);
	char *objdir = xasprintf("%s/obj/%s/%s", c->dir, c->stem, sub);
	char *abs = path_join(c->ws, objdir);
	int rc = -1;
	struct job *js = xcalloc(n ? n : 1, sizeof *js);
	*shown = json_array();
	if (mkdir_p(abs, 0755)) {
		*err = xasprintf("cannot create %s: %s", abs, strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		twin_compile_argv(c, json_array_get(cmds, i), objdir, flags, &js[i].argv,
				  !strcmp(sub, "debug"));
		json_array_append_new(*shown, recorded(c, &js[i].argv));
	}
	rc = run_jobs(c, js, n, err);
out:
	for (size_t i = 0; i < n; i++)
		job_release(&js[i]);
	free(js);
	free(objdir);
	free(abs);
	return rc;
}

static int compile_ctwrap(struct twin_ctx *c, const char *obj, json_t *shown, char **err)
{
	struct job j;
	memset(&j, 0, sizeof j);
	sl_push(&j.argv, toolchain_cc());
	const char *fl[] = { "-std=c11", "-O2", "-g", "-fPIC", "-Wall", "-Wextra", "-c" };
	for (size_t i = 0; i < sizeof fl / sizeof *fl; i++)
		sl_push(&j.argv, fl[i]);
	push_prefix_maps(c, &j.argv);
	sl_push_owned(&j.argv, path_join(ngcc_home(), "src/runtime/ctwrap.c"));
	sl_push(&j.argv, "-o");
	sl_push(&j.argv, obj);
	json_array_append_new(shown, recorded(c, &j.argv));
	int rc = run_jobs(c, &j, 1, err);
	if (rc > 0) {
		char *e = *err;
		*err = xasprintf("%s (is valgrind installed? ctwrap.c needs <valgrind/memcheck.h>)", e);
		free(e);
	}
	job_release(&j);
	return rc;
}

/* ---- linking -------------------------------------------------------------- */

/* The recorded link command with the twin's objects and output, objects
 * of set sub, and extra arguments appended. */
static void twin_link_argv(struct twin_ctx *c, const char *sub, const char *lib,
			   const char *const *extra, struct strlist *argv)
{
	const json_t *link = json_object_get(c->entry, "link_command");
	size_t i;
	json_t *a;
	int next_is_out = 0;
	char *from_dir = xasprintf("/%s/debug/", c->stem), *to_dir = xasprintf("/%s/%s/", c->stem, sub);
	json_array_foreach((json_t *)link, i, a) {
		const char *s = json_string_value(a);
		if (!s)
			continue;
		if (next_is_out) {
			sl_push(argv, lib);
			next_is_out = 0;
			continue;
		}
		next_is_out = !strcmp(s, "-o");
		size_t k;
		for (k = 0; k < c->map_from.n && strcmp(c->map_from.items[k], s); k++)
			;
		if (k == c->map_from.n) {
			sl_push_owned(argv, path_unhide_ours(s));
			continue;
		}
		/* The debug set's path, moved to the set being linked. */
		const char *to = c->map_to.items[k];
		const char *at = strstr(to, from_dir);
		if (at)
			sl_push_owned(argv, xasprintf("%.*s%s%s", (int)(at - to), to, to_dir,
						      at + strlen(from_dir)));
		else
			sl_push(argv, to);
	}
	for (; extra && *extra; extra++)
		sl_push(argv, *extra);
	free(from_dir);
	free(to_dir);
}

static int link_twin(struct twin_ctx *c, struct twin *t, const char *sub,
		     const char *const *extra, char **err)
{
	struct job j;
	memset(&j, 0, sizeof j);
	twin_link_argv(c, sub, t->library, extra, &j.argv);
	json_object_set_new(t->build, "link_command", argv_recorded(&j.argv));
	int rc = run_jobs(c, &j, 1, err);
	job_release(&j);
	if (rc)
		return rc;
	char *abs = path_join(c->ws, t->library);
	if (sha256_file_hex(abs, t->sha256)) {
		*err = xasprintf("cannot read %s: %s", abs, strerror(errno));
		rc = -1;
	}
	free(abs);
	return rc;
}

/* ---- the three twins -------------------------------------------------------- */

/* The record's build object, every key present in order. */
static json_t *build_object(void)
{
	return json_pack("{s:[], s:[], s:[], s:n, s:n, s:n}", "flags_added", "link_added",
			 "compile_commands", "link_command", "text_identical_to_timed",
			 "drng_wrapped");
}

static void twin_init(struct twin_ctx *c, struct twin *t, enum twin_kind k)
{
	memset(t, 0, sizeof *t);
	t->library = xasprintf("%s/lib%s.%s.so", c->dir, c->stem, twin_names[k]);
	t->build = build_object();
}

static void twin_failed(struct twin *t, char *err)
{
	t->ok = 0;
	t->error = err ? err : xstrdup("unknown failure");
}

static int build_debug_and_ct(struct twin_ctx *c, struct twin *dbg, struct twin *ct)
{
	json_t *cmds = NULL;
	char *err = NULL;
	int rc = compile_set(c, "debug", debug_flags, &cmds, &err);
	json_object_set_new(dbg->build, "flags_added", flags_json(debug_flags));
	json_object_set_new(dbg->build, "link_added", json_array());
	json_object_set_new(dbg->build, "compile_commands", cmds);
	if (rc) {
		twin_failed(dbg, err);
		twin_failed(ct, xasprintf("not built: %s", dbg->error));
		return rc < 0 ? -1 : 0;
	}
	if ((rc = link_twin(c, dbg, "debug", NULL, &err)) != 0) {
		twin_failed(dbg, err);
		twin_failed(ct, xasprintf("not built: %s", dbg->error));
		return rc < 0 ? -1 : 0;
	}
	dbg->ok = 1;
	char *abs = path_join(c->ws, dbg->library);
	int same = elf_section_same(c->timed, abs, ".text");
	free(abs);
	json_object_set_new(dbg->build, "text_identical_to_timed", same < 0 ? json_null() : json_boolean(same));

	/* ct: the debug objects, plus the DRNG wrapper when it is called. */
	struct strlist wrapped = STRLIST_INIT;
	struct link_objects objs;
	char *why = NULL;
	link_objects_load(c->ws, json_object_get(c->entry, "link_command"), &objs);
	int wrap = !instrument_referenced(&objs, &wrapped, &why) && sl_contains(&wrapped, wrap_symbol);
	link_objects_free(&objs);
	sl_free(&wrapped);
	free(why);
	json_t *ct_cmds = json_deep_copy(json_object_get(dbg->build, "compile_commands"));
	char *wrapobj = xasprintf("%s/obj/%s/debug/ngcc_ctwrap.o", c->dir, c->stem);
	char *wrapopt = xasprintf("-Wl,--wrap=%s", wrap_symbol);
	const char *extra[] = { wrapobj, wrapopt, NULL };
	json_object_set_new(ct->build, "flags_added", flags_json(debug_flags));
	json_object_set_new(ct->build, "link_added", wrap ? flags_json(extra) : json_array());
	json_object_set_new(ct->build, "drng_wrapped", json_boolean(wrap));
	rc = wrap ? compile_ctwrap(c, wrapobj, ct_cmds, &err) : 0;
	json_object_set_new(ct->build, "compile_commands", ct_cmds);
	if (!rc)
		rc = link_twin(c, ct, "debug", wrap ? extra : NULL, &err);
	if (rc)
		twin_failed(ct, err);
	else
		ct->ok = 1;
	free(wrapobj);
	free(wrapopt);
	return rc < 0 ? -1 : 0;
}

static int build_asan(struct twin_ctx *c, struct twin *t)
{
	json_t *cmds = NULL;
	char *err = NULL;
	int rc = compile_set(c, "asan", asan_flags, &cmds, &err);
	json_object_set_new(t->build, "flags_added", flags_json(asan_flags));
	json_object_set_new(t->build, "link_added", flags_json(asan_flags + 1));
	json_object_set_new(t->build, "compile_commands", cmds);
	if (!rc)
		rc = link_twin(c, t, "asan", asan_flags + 1, &err);
	if (rc)
		twin_failed(t, err);
	else
		t->ok = 1;
	return rc < 0 ? -1 : 0;
}

/* ---- the stamp (reuse while the timed library is unchanged) --------------- */

/* What the twins are built with: a stamp of another recipe is not reused. */
static char *recipe(void)
{
	struct strbuf sb = STRBUF_INIT;
	for (const char *const *f = debug_flags; *f; f++)
		sb_addf(&sb, "debug %s; ", *f);
	for (const char *const *f = asan_flags; *f; f++)
		sb_addf(&sb, "asan %s; ", *f);
	sb_addf(&sb, "all -ffile-prefix-map=<home>=%s -ffile-prefix-map=<workspace>=.; ct --wrap=%s",
		NGCC_TREE_TAG, wrap_symbol);
	return sb_detach(&sb);
}

static char *stamp_path(const struct twin_ctx *c)
{
	return xasprintf("%s/%s/%s.twins.json", c->ws, c->dir, c->stem);
}

static int reuse(struct twin_ctx *c, struct twin_set *out)
{
	char *path = stamp_path(c);
	json_t *st = path_exists(path) ? evidence_load(path, NULL) : NULL;
	free(path);
	char *how = recipe();
	int ok = st && !evidence_check_schema(st, TWIN_STAMP_KIND, TWIN_STAMP_VERSION) &&
		 !strcmp(jget_str(st, "timed_library_sha256", ""), c->timed_sha) &&
		 !strcmp(jget_str(st, "recipe", ""), how);
	free(how);
	for (int k = 0; ok && k < TWIN_N; k++) {
		const json_t *e = json_object_get(json_object_get(st, "twins"), twin_names[k]);
		struct twin *t = &out->t[k];
		t->ok = jget_bool(e, "ok", 0);
		t->error = jget_str(e, "error", NULL) ? xstrdup(jget_str(e, "error", NULL)) : NULL;
		json_decref(t->build);
		t->build = json_deep_copy(json_object_get(e, "build"));
		if (!t->build)
			t->build = build_object();
		if (t->ok) {
			char *abs = path_join(c->ws, t->library), sha[65];
			ok = !sha256_file_hex(abs, sha) && !strcmp(sha, jget_str(e, "sha256", ""));
			memcpy(t->sha256, sha, sizeof sha);
			free(abs);
		}
	}
	json_decref(st);
	return ok;
}

static int save_stamp(struct twin_ctx *c, const struct twin_set *s)
{
	json_t *twins = json_object();
	for (int k = 0; k < TWIN_N; k++) {
		const struct twin *t = &s->t[k];
		json_object_set_new(twins, twin_names[k], json_pack("{s:b, s:s, s:s?, s:O, s:s?}",
			"ok", t->ok, "library", t->library, "sha256", t->ok ? t->sha256 : NULL,
			"build", t->build, "error", t->error));
	}
	char *how = recipe();
	json_t *st = json_pack("{s:o, s:s, s:s, s:o}", "schema",
			       evidence_schema(TWIN_STAMP_KIND, TWIN_STAMP_VERSION),
			       "timed_library_sha256", c->timed_sha, "recipe", how, "twins", twins);
	free(how);
	char *path = stamp_path(c);
	int rc = evidence_write(path, st);
	free(path);
	json_decref(st);
	return rc;
}

/* ---- entry point ------------------------------------------------------------ */

static int usable_entry(struct twin_ctx *c, struct twin_set *out)
{
	const char *lib = jget_str(c->entry, "library", NULL);
	c->cand = jget_str(c->entry, "candidate", NULL);
	if (!c->cand || !lib || !(c->stem = stem_of(lib)) ||
	    !json_array_size(json_object_get(c->entry, "compile_commands")) ||
	    !json_array_size(json_object_get(c->entry, "link_command"))) {
		out->t[0].error = xasprintf("build.json entry %s/%s has no library or no recorded "
					    "commands; run `ngcc-perf build %s` again",
					    c->cand ? c->cand : "?", jget_str(c->entry, "label", "?"),
					    c->cand ? c->cand : "ID");
		return -1;
	}
	c->timed = path_join(c->ws, lib);
	if (sha256_file_hex(c->timed, c->timed_sha)) {
		out->t[0].error = xasprintf("%s: cannot read the timed library (run `ngcc-perf "
					    "build %s`)", c->timed, c->cand);
		return -1;
	}
	c->dir = xasprintf("build/%s/check", c->cand);
	return 0;
}

static void ctx_free(struct twin_ctx *c)
{
	free(c->ws_map);
	free(c->stem);
	free(c->dir);
	free(c->timed);
	sb_free(&c->log);
	sl_free(&c->map_from);
	sl_free(&c->map_to);
}

static int append_log(struct twin_ctx *c, const char *rel)
{
	char *abs = path_join(c->ws, rel), *old = NULL;
	size_t len = 0;
	struct strbuf all = STRBUF_INIT;
	if (!read_file(abs, &old, &len))
		sb_add(&all, old, len);
	sb_add(&all, c->log.buf, c->log.len);
	int rc = write_file(abs, all.buf, all.len);
	free(old);
	free(abs);
	sb_free(&all);
	return rc;
}

int twin_build(const char *workspace, const json_t *entry, int jobs, struct twin_set *out)
{
	struct twin_ctx c;
	memset(&c, 0, sizeof c);
	memset(out, 0, sizeof *out);
	c.ws = workspace;
	/* The compiler's working directory as it records it: symbolic links
	 * resolved. */
	char *real = realpath(workspace, NULL);
	c.ws_map = xasprintf("-ffile-prefix-map=%s=.", real ? real : workspace);
	free(real);
	c.entry = entry;
	c.jobs = jobs > 0 ? jobs : 1;
	if (usable_entry(&c, out)) {
		ctx_free(&c);
		return -1;
	}
	for (int k = 0; k < TWIN_N; k++)
		twin_init(&c, &out->t[k], (enum twin_kind)k);
	out->log = xasprintf("%s/%s.build.log", c.dir, c.stem);
	if (reuse(&c, out)) {
		out->reused = 1;
		ctx_free(&c);
		return 0;
	}
	for (int k = 0; k < TWIN_N; k++) {
		free(out->t[k].error);
		out->t[k].error = NULL;
		json_decref(out->t[k].build);
		out->t[k].build = build_object();
		out->t[k].ok = 0;
	}
	char *absdir = path_join(workspace, c.dir);
	int rc = mkdir_p(absdir, 0755);
	free(absdir);
	if (!rc)
		rc = build_debug_and_ct(&c, &out->t[TWIN_DEBUG], &out->t[TWIN_CT]);
	if (!rc)
		rc = build_asan(&c, &out->t[TWIN_ASAN]);
	if (append_log(&c, out->log) || (!rc && save_stamp(&c, out))) {
		if (!out->t[0].error)
			out->t[0].error = xasprintf("cannot write %s/%s: %s", workspace, c.dir,
						    strerror(errno));
		rc = -1;
	}
	ctx_free(&c);
	return rc;
}

void twin_set_free(struct twin_set *s)
{
	for (int k = 0; k < TWIN_N; k++) {
		free(s->t[k].library);
		free(s->t[k].error);
		json_decref(s->t[k].build);
	}
	free(s->log);
	memset(s, 0, sizeof *s);
}
