/* build.c — compiling one attempt (instance × profile) and scheduling many
 * attempts over a pool of compiler processes.  See build.h. */
#include "build/build.h"
#include "build/elfinfo.h"
#include "build/job.h"
#include "evidence/paths.h"
#include "method/baseline.h"
#include "method/toolchain.h"
#include "method/types.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ERROR_TAIL_LINES 20

/* One attempt in progress: compile jobs, then the link job. */
struct plan {
	struct build_unit *unit;
	struct build_outcome *out;
	char *objdir;          /* workspace-relative */
	char *stem;
	struct job *jobs;      /* n_compile compile jobs, then the link job */
	size_t n_compile, next, running;
	size_t shim_index;     /* the shim is compiled after the sources */
	size_t n_sources;
	int failed, linking, link_started, finished;
	struct strlist objects; /* workspace-relative */
	struct strbuf log;
};

static char *runtime_dir(void)
{
	return path_join(ngcc_home(), "src/runtime");
}

int build_check_runtime(char **err)
{
	static const char *const files[] = {
		"shim.c", "exports.map", "drng.c", "auxfunc.c", "sm3.c", "drng.h", "auxfunc.h",
	};
	char *rt = runtime_dir();
	int rc = 0;
	for (size_t i = 0; i < sizeof files / sizeof files[0] && !rc; i++) {
		char *p = path_join(rt, files[i]);
		if (!path_is_file(p)) {
			*err = xasprintf("our runtime source %s is missing (runtime folder: %s); "
					 "run `make install` again, or set NGCC_PERF_HOME to the folder "
					 "holding src/runtime (see ngcc-perf --version and "
					 "docs/usage.md, \"Installation\")", p, ngcc_home_origin());
			rc = -1;
		}
		free(p);
	}
	free(rt);
	return rc;
}

/* Our paths are workspace-relative, as the compiler (run in the workspace)
 * sees them; our own file operations need them absolute. */
static char *ws_abs(const char *workspace, const char *rel)
{
	return path_join(workspace, rel);
}

static int is_cxx_source(const char *path)
{
	static const char *const ext[] = { ".cc", ".cpp", ".cxx", ".c++", ".C", NULL };
	for (const char *const *e = ext; *e; e++)
		if (str_ends_with(path, *e))
			return 1;
	return 0;
}

/* A C string literal for a -D value: the argv goes straight to the
 * compiler, so only C escaping is needed ('?' too, against trigraphs). */
static char *c_literal(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addc(&sb, '"');
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '"' || *p == '\\' || *p == '?')
			sb_addf(&sb, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			sb_addf(&sb, "\\%03o", *p);
		else
			sb_addc(&sb, (char)*p);
	}
	sb_addc(&sb, '"');
	return sb_detach(&sb);
}

static char *source_root(const struct candidate_conf *c, const struct instance_conf *ic)
{
	char *base = xasprintf("candidates/%s/source", c->id);
	char *root = (ic->source_dir && *ic->source_dir && strcmp(ic->source_dir, "."))
		? path_join(base, ic->source_dir) : xstrdup(base);
	free(base);
	return root;
}

static char *include_path(const char *srcroot, const char *dir)
{
	if (!*dir || !strcmp(dir, "."))
		return xstrdup(srcroot);
	return path_join(srcroot, dir);
}

/* Does the package ship header `name` in the instance's include path? */
static int package_has_header(const char *workspace, const char *srcroot,
			      const struct instance_conf *ic, const char *name)
{
	int found = 0;
	for (size_t i = 0; i <= ic->include_dirs.n && !found; i++) {
		char *dir = include_path(srcroot, i < ic->include_dirs.n ? ic->include_dirs.items[i] : ".");
		char *rel = path_join(dir, name);
		char *abs = ws_abs(workspace, rel);
		found = path_is_file(abs);
		free(abs);
		free(rel);
		free(dir);
	}
	return found;
}

static void add_instance_options(struct strlist *argv, const char *srcroot,
				 const struct instance_conf *ic)
{
	for (size_t i = 0; i < ic->cflags.n; i++)
		sl_push(argv, ic->cflags.items[i]);
	for (size_t i = 0; i < ic->defines.n; i++)
		sl_push_owned(argv, xasprintf("-D%s", ic->defines.items[i]));
	for (size_t i = 0; i < ic->include_dirs.n; i++) {
		char *dir = include_path(srcroot, ic->include_dirs.items[i]);
		sl_push_owned(argv, xasprintf("-I%s", dir));
		free(dir);
	}
}

static struct job *new_job(struct plan *p, const char *workspace)
{
	struct job *j = &p->jobs[p->n_compile++];
	j->cwd = workspace;
	j->owner = p;
	j->out_fd = -1;
	return j;
}

static void add_output(struct job *j, const char *obj)
{
	sl_push(&j->argv, "-o");
	sl_push(&j->argv, obj);
}

static void plan_sources(struct plan *p, const char *workspace, const char *srcroot,
			 int need_rt_include, const char *rt)
{
	const struct instance_conf *ic = p->unit->ic;
	for (size_t i = 0; i < ic->sources.n; i++) {
		const char *src = ic->sources.items[i];
		int cxx = is_cxx_source(src);
		struct job *j = new_job(p, workspace);
		char *base = xstrdup(path_basename(src));
		char *dot = strrchr(base, '.');
		if (dot)
			*dot = '\0';
		char *obj = xasprintf("%s/%03zu-%s.o", p->objdir, i, base);
		sl_push(&j->argv, cxx ? toolchain_cxx() : toolchain_cc());
		build_profile_flags(p->out->profile, cxx, &j->argv);
		build_ext_flags(ic, &j->argv);
		add_instance_options(&j->argv, srcroot, ic);
		if (need_rt_include)
			sl_push_owned(&j->argv, xasprintf("-I%s", rt));
		sl_push(&j->argv, "-c");
		sl_push_owned(&j->argv, path_join(srcroot, src));
		add_output(j, obj);
		sl_push_owned(&p->objects, obj);
		free(base);
	}
}

static const struct cand_type *instance_type(const struct candidate_conf *c,
					     const struct instance_conf *ic)
{
	const char *type = ic->type ? ic->type : c->type;
	return cand_type_find(type ? type : "kem");
}

static int is_hash(const struct candidate_conf *c, const struct instance_conf *ic)
{
	const struct cand_type *t = instance_type(c, ic);
	return t && !strcmp(t->name, "hash");
}

static const char *shim_type_define(const struct candidate_conf *c, const struct instance_conf *ic)
{
	const struct cand_type *t = instance_type(c, ic);
	/* An unknown type is compiled as the last row, as hash always was. */
	return t ? t->shim_define : cand_types[n_cand_types - 1].shim_define;
}

static const char *runtime_summary(const struct build_outcome *o)
{
	if (!o->runtime_auxfunc) /* a hash: the DRNG only */
		return o->runtime_drng;
	int pd = !strcmp(o->runtime_drng, "package"), pa = !strcmp(o->runtime_auxfunc, "package");
	if (pd == pa)
		return pd ? "package" : "ngcc-perf";
	return pd ? "drng:package auxfunc:ngcc-perf" : "drng:ngcc-perf auxfunc:package";
}

static void push_meta(struct strlist *argv, const char *name, const char *value)
{
	char *lit = c_literal(value);
	sl_push_owned(argv, xasprintf("-DNGCC_META_%s=%s", name, lit));
	free(lit);
}

/* Reserve the shim's job; its command is made once the sources are
 * compiled (plan_shim_command), when we know whether they define
 * drng_algorithm themselves. */
static void plan_shim(struct plan *p, const char *workspace)
{
	struct job *j = new_job(p, workspace);
	p->shim_index = (size_t)(j - p->jobs);
	sl_push_owned(&p->objects, xasprintf("%s/ngcc_shim.o", p->objdir));
}

/* Does a compiled candidate source define drng_algorithm (docs/iccs.md
 * §1.7)?  Then the shim must only declare it. */
static int sources_define_drng(const struct plan *p)
{
	for (size_t i = 0; i < p->n_sources; i++) {
		char *abs = ws_abs(p->unit->workspace, p->objects.items[i]);
		int def = elf_defines_symbol(abs, "drng_algorithm");
		free(abs);
		if (def == 1)
			return 1;
	}
	return 0;
}

static void plan_shim_command(struct plan *p)
{
	const struct candidate_conf *c = p->unit->c;
	const struct instance_conf *ic = p->unit->ic;
	struct job *j = &p->jobs[p->shim_index];
	char *rt = runtime_dir();
	char *srcroot = source_root(c, ic);

	sl_push(&j->argv, toolchain_cc());
	build_profile_flags(p->out->profile, 0, &j->argv);
	build_ext_flags(ic, &j->argv);
	add_instance_options(&j->argv, srcroot, ic);
	push_meta(&j->argv, "ID", c->id);
	push_meta(&j->argv, "ALGORITHM", c->algorithm);
	push_meta(&j->argv, "LABEL", ic->label);
	push_meta(&j->argv, "INSTANCE", ic->instance);
	push_meta(&j->argv, "VARIANT", ic->variant);
	push_meta(&j->argv, "COMPILER", build_compiler_version());
	push_meta(&j->argv, "FLAGS", build_profile_name(p->out->profile));
	push_meta(&j->argv, "RUNTIME", runtime_summary(p->out));
	if (ic->digest_bits)
		sl_push_owned(&j->argv, xasprintf("-DNGCC_META_DIGEST_BITS=%d", ic->digest_bits));
	sl_push(&j->argv, shim_type_define(c, ic));
	if (sources_define_drng(p))
		sl_push(&j->argv, "-DNGCC_SHIM_NO_DRNG_DEF");
	sl_push_owned(&j->argv, xasprintf("-I%s", rt));
	sl_push(&j->argv, "-c");
	sl_push_owned(&j->argv, path_join(rt, "shim.c"));
	add_output(j, p->objects.items[p->shim_index]);
	free(srcroot);
	free(rt);
}

/* Our clean-room runtime file `name`.c, compiled with the profile's flags. */
static void plan_runtime(struct plan *p, const char *workspace, const char *rt, const char *name)
{
	struct job *j = new_job(p, workspace);
	char *src = xasprintf("%s/%s.c", rt, name);
	char *obj = xasprintf("%s/ngcc_rt_%s.o", p->objdir, name);
	sl_push(&j->argv, toolchain_cc());
	build_profile_flags(p->out->profile, 0, &j->argv);
	sl_push(&j->argv, "-c");
	sl_push_owned(&j->argv, src);
	add_output(j, obj);
	sl_push_owned(&p->objects, obj);
}

static void plan_link(struct plan *p, const char *workspace, const char *rt, int any_cxx)
{
	const struct instance_conf *ic = p->unit->ic;
	struct job *j = &p->jobs[p->n_compile];
	j->cwd = workspace;
	j->owner = p;
	j->out_fd = -1;
	sl_push(&j->argv, any_cxx ? toolchain_cxx() : toolchain_cc());
	sl_push(&j->argv, "-shared");
	sl_push(&j->argv, "-o");
	sl_push_owned(&j->argv, xasprintf("%s/lib%s.so", p->objdir, p->stem));
	for (size_t i = 0; i < p->objects.n; i++)
		sl_push(&j->argv, p->objects.items[i]);
	sl_push_owned(&j->argv, xasprintf("-Wl,--version-script=%s/exports.map", rt));
	/* Unresolved symbols fail here, with the linker naming them, rather
	 * than as a LOADFAIL at dlopen(RTLD_NOW); gcc adds -lc itself. */
	sl_push(&j->argv, "-Wl,-z,defs");
	for (size_t i = 0; i < ic->libs.n; i++)
		sl_push(&j->argv, ic->libs.items[i]);
	sl_push(&j->argv, "-lm");
}

static int any_cxx_source(const struct instance_conf *ic)
{
	for (size_t i = 0; i < ic->sources.n; i++)
		if (is_cxx_source(ic->sources.items[i]))
			return 1;
	return 0;
}

/* Fresh object directory: stale objects never reach a link. */
static int prepare_objdir(const char *workspace, const char *objdir, char **err)
{
	char *abs = ws_abs(workspace, objdir);
	int rc = 0;
	if ((path_exists(abs) && rm_rf(abs)) || mkdir_p(abs, 0755)) {
		*err = xasprintf("cannot create %s: %s", abs, strerror(errno));
		rc = -1;
	}
	free(abs);
	return rc;
}

static struct plan *plan_create(struct build_unit *u, struct build_outcome *o)
{
	const char *ws = u->workspace;
	const struct instance_conf *ic = u->ic;
	struct plan *p = xcalloc(1, sizeof *p);
	char *rt = runtime_dir();
	char *srcroot = source_root(u->c, ic);

	p->unit = u;
	p->out = o;
	p->stem = build_stem(ic);
	p->objdir = xasprintf("build/%s/obj/%s/%s", u->c->id, p->stem,
			      build_profile_name(o->profile));
	/* API_CryptHash has the DRNG and no auxiliary functions (docs/iccs.md
	 * §1.1): a hash library gets none of ours, whose names could clash
	 * with a hash package's own unprefixed helpers.  The ICCS baseline's
	 * hash instances are those functions. */
	int hash = is_hash(u->c, ic);
	int aux = !hash || (ic->variant && !strcmp(ic->variant, BASELINE_VARIANT));
	o->runtime_drng = ic->own_drng ? "package" : "ngcc-perf";
	o->runtime_auxfunc = !aux ? NULL : ic->own_auxfunc ? "package" : "ngcc-perf";
	p->jobs = xcalloc(ic->sources.n + 5, sizeof *p->jobs);
	if (!ic->sources.n) {
		o->error = xasprintf("no sources listed for instance %s in candidates/%s/candidate.conf",
				     ic->label, u->c->id);
		p->failed = 1;
	} else if (hash && !ic->digest_bits) {
		o->error = xasprintf("hash instance %s has no digest length: set digest_bits = "
				     "DIGEST_BIT_LENGTH in [instance %s] of candidates/%s/candidate.conf",
				     ic->label, ic->label, u->c->id);
		p->failed = 1;
	} else if (prepare_objdir(ws, p->objdir, &o->error)) {
		p->failed = 1;
	} else {
		int need_rt = !package_has_header(ws, srcroot, ic, "drng.h") ||
			      (aux && !package_has_header(ws, srcroot, ic, "auxfunc.h"));
		plan_sources(p, ws, srcroot, need_rt, rt);
		p->n_sources = p->n_compile;
		if (!ic->own_drng)
			plan_runtime(p, ws, rt, "drng");
		if (aux && !ic->own_auxfunc)
			plan_runtime(p, ws, rt, "auxfunc");
		if (!ic->own_drng || (aux && !ic->own_auxfunc))
			plan_runtime(p, ws, rt, "sm3");
		plan_shim(p, ws);
		plan_link(p, ws, rt, any_cxx_source(ic));
	}
	free(srcroot);
	free(rt);
	return p;
}

static void plan_free(struct plan *p)
{
	for (size_t i = 0; i <= p->n_compile; i++)
		job_release(&p->jobs[i]);
	free(p->jobs);
	sl_free(&p->objects);
	sb_free(&p->log);
	free(p->objdir);
	free(p->stem);
	free(p);
}

static char *error_line(const char *out, int exit_code, const char *prog)
{
	static const char *const strong[] = { "error:", "undefined reference", "multiple definition", NULL };
	const char *best = NULL, *first = NULL;
	for (const char *line = out; line && *line; ) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		char *l = xstrndup(line, n);
		for (const char *const *s = strong; *s && !best; s++)
			if (strstr(l, *s))
				best = line;
		if (!first && *str_trim(l))
			first = line;
		free(l);
		if (best)
			break;
		line = end ? end + 1 : NULL;
	}
	const char *pick = best ? best : first;
	if (!pick)
		return xasprintf("%s exited with status %d and printed nothing", prog, exit_code);
	char *l = xstrndup(pick, strcspn(pick, "\n"));
	char *t = xstrdup(str_trim(l));
	free(l);
	return t;
}

static char *tail_lines(const char *s, int lines)
{
	size_t n = strlen(s);
	while (n && s[n - 1] == '\n')
		n--;
	size_t start = n;
	for (int seen = 0; start > 0; start--)
		if (s[start - 1] == '\n' && ++seen == lines)
			break;
	return xstrndup(s + start, n - start);
}

static void log_job(struct plan *p, const struct job *j)
{
	char *cmd = argv_render(&j->argv);
	sb_addf(&p->log, "$ %s\n", cmd);
	if (j->output && *j->output) {
		sb_adds(&p->log, j->output);
		if (j->output[strlen(j->output) - 1] != '\n')
			sb_addc(&p->log, '\n');
	}
	if (j->exit_code)
		sb_addf(&p->log, "[exit status %d]\n", j->exit_code);
	free(cmd);
}

/* Copy the linked library to build/<ID>/lib<stem>.so atomically. */
static int install_library(struct plan *p)
{
	const char *ws = p->unit->workspace;
	char *built = xasprintf("%s/lib%s.so", p->objdir, p->stem);
	char *dest = xasprintf("build/%s/lib%s.so", p->unit->c->id, p->stem);
	char *abs_built = ws_abs(ws, built), *abs_dest = ws_abs(ws, dest);
	char *tmp = xasprintf("%s.tmp.%d", abs_dest, (int)getpid());
	int rc = copy_file(abs_built, tmp);
	if (!rc && rename(tmp, abs_dest))
		rc = -1;
	if (rc) {
		p->out->error = xasprintf("cannot install %s: %s", abs_dest, strerror(errno));
		unlink(tmp);
	} else {
		p->out->library = dest;
		dest = NULL;
	}
	free(tmp);
	free(abs_built);
	free(abs_dest);
	free(dest);
	free(built);
	return rc;
}

static int objects_have_lto(const struct plan *p)
{
	for (size_t i = 0; i < p->objects.n; i++) {
		char *abs = ws_abs(p->unit->workspace, p->objects.items[i]);
		int lto = elf_has_lto(abs);
		free(abs);
		if (lto == 1)
			return 1;
	}
	return 0;
}

static void record_commands(struct plan *p)
{
	struct build_outcome *o = p->out;
	o->compile_commands = json_array();
	for (size_t i = 0; i < p->n_compile; i++)
		if (p->jobs[i].argv.n) /* the shim's is made only when its turn came */
			json_array_append_new(o->compile_commands, argv_recorded(&p->jobs[i].argv));
	o->link_command = p->link_started ? argv_recorded(&p->jobs[p->n_compile].argv) : json_null();
}

static void append_log_file(struct plan *p)
{
	char *rel = xasprintf("build/%s/%s.build.log", p->unit->c->id, p->stem);
	char *abs = ws_abs(p->unit->workspace, rel);
	char *dir = path_dirname(abs);
	char when[32];
	utc_now_iso(when);
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "# %s: %s %s with profile %s: %s\n", when, p->unit->c->id, p->stem,
		build_profile_name(p->out->profile), p->out->ok ? "ok" : "FAILED");
	if (p->out->error)
		sb_addf(&sb, "# error: %s\n", p->out->error);
	sb_add(&sb, p->log.buf ? p->log.buf : "", p->log.len);
	sb_addc(&sb, '\n');
	int fd = mkdir_p(dir, 0755) ? -1 : open(abs, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0 || write_full(fd, sb.buf, sb.len))
		ngcc_warning("cannot write the build log %s: %s", abs, strerror(errno));
	if (fd >= 0)
		close(fd);
	p->out->log = sb_detach(&sb);
	free(dir);
	free(abs);
	free(rel);
}

static void plan_finish(struct plan *p)
{
	struct build_outcome *o = p->out;
	p->finished = 1;
	record_commands(p);
	o->ok = !p->failed && install_library(p) == 0;
	if (o->ok)
		o->lto = objects_have_lto(p);
	append_log_file(p);
}

static struct job *plan_next_job(struct plan *p)
{
	if (p->finished || p->failed)
		return NULL;
	if (!p->linking) {
		if (p->next >= p->n_compile)
			return NULL;
		if (p->next == p->shim_index) {
			if (p->running)
				return NULL; /* the sources' objects are not all there yet */
			plan_shim_command(p);
		}
		p->running++;
		return &p->jobs[p->next++];
	}
	if (p->link_started)
		return NULL;
	p->link_started = 1;
	p->running++;
	return &p->jobs[p->n_compile];
}

static void plan_job_done(struct plan *p, struct job *j)
{
	p->running--;
	log_job(p, j);
	if (j->exit_code && !p->failed) {
		p->failed = 1;
		p->out->error = error_line(j->output, j->exit_code, j->argv.items[0]);
		p->out->error_tail = tail_lines(j->output ? j->output : "", ERROR_TAIL_LINES);
	}
	if (p->running)
		return;
	if (!p->failed && !p->linking) {
		if (p->next == p->n_compile)
			p->linking = 1;
		return;
	}
	plan_finish(p);
}

/* ---- units and the scheduler ---- */

struct sched {
	struct build_unit *units;
	size_t n;
	void (*on_done)(struct build_unit *, void *);
	void *arg;
};

/* Remove the unit's file build/<ID>/<prefix><stem><suffix>, if any. */
static void unlink_unit_file(const struct build_unit *u, const char *prefix, const char *suffix)
{
	char *stem = build_stem(u->ic);
	char *rel = xasprintf("build/%s/%s%s%s", u->c->id, prefix, stem, suffix);
	char *abs = ws_abs(u->workspace, rel);
	unlink(abs);
	free(abs);
	free(rel);
	free(stem);
}

static void start_attempt(struct build_unit *u, enum build_profile prof)
{
	struct build_outcome *o = &u->attempt[u->n_attempts++];
	memset(o, 0, sizeof *o);
	o->c = u->c;
	o->ic = u->ic;
	o->profile = prof;
	struct plan *p = plan_create(u, o);
	u->priv = p;
	if (p->failed && !p->running)
		plan_finish(p);
}

static void after_attempt(struct sched *s, struct build_unit *u)
{
	struct plan *p = u->priv;
	struct build_outcome *o = p->out;
	plan_free(p);
	u->priv = NULL;
	if (!o->ok && u->forced_profile < 0 && u->n_attempts == 1 &&
	    o->profile != PROFILE_HARNESS_DEFAULT) {
		start_attempt(u, PROFILE_HARNESS_DEFAULT);
		if (!((struct plan *)u->priv)->finished)
			return;
		after_attempt(s, u);
		return;
	}
	if (!o->ok && u->forced_profile < 0)
		unlink_unit_file(u, "lib", ".so"); /* no stale library */
	u->done = 1;
	if (s->on_done)
		s->on_done(u, s->arg);
}

/* Start as many jobs as there are free slots; 1 if anything changed. */
static int fill_slots(struct sched *s, struct job **running, size_t *n_running, size_t slots)
{
	int changed = 0;
	for (size_t i = 0; i < s->n && *n_running < slots; i++) {
		struct build_unit *u = &s->units[i];
		struct job *j;
		while (!u->done && *n_running < slots && (j = plan_next_job(u->priv))) {
			changed = 1;
			if (job_start(j) == 0) {
				running[(*n_running)++] = j;
				continue;
			}
			struct plan *p = u->priv;
			plan_job_done(p, j);
			if (p->finished)
				after_attempt(s, u);
		}
	}
	return changed;
}

static size_t online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (size_t)n : 1;
}

int build_units(struct build_unit *units, size_t n, int jobs,
		void (*on_done)(struct build_unit *u, void *arg), void *arg)
{
	struct sched s = { units, n, on_done, arg };
	size_t slots = jobs > 0 ? (size_t)jobs : online_cpus();
	struct job **running = xcalloc(slots, sizeof *running);
	size_t n_running = 0;

	build_compiler_version(); /* once, before any job runs */
	for (size_t i = 0; i < n; i++) {
		struct build_unit *u = &units[i];
		if (u->forced_profile < 0)
			unlink_unit_file(u, "", ".build.log"); /* fresh log */
		start_attempt(u, u->forced_profile >= 0 ? (enum build_profile)u->forced_profile
							: build_first_profile(u->ic));
		if (((struct plan *)u->priv)->finished)
			after_attempt(&s, u);
	}
	for (;;) {
		while (fill_slots(&s, running, &n_running, slots))
			;
		if (!n_running)
			break;
		struct job *j = job_wait_any(running, &n_running);
		if (!j)
			break;
		struct plan *p = j->owner;
		struct build_unit *u = p->unit;
		plan_job_done(p, j);
		if (p->finished)
			after_attempt(&s, u);
	}
	free(running);
	for (size_t i = 0; i < n; i++)
		if (!units[i].done)
			return -1;
	return 0;
}

const struct build_outcome *build_unit_final(const struct build_unit *u)
{
	return u->n_attempts ? &u->attempt[u->n_attempts - 1] : NULL;
}

void build_outcome_free(struct build_outcome *o)
{
	free(o->library);
	free(o->error);
	free(o->error_tail);
	json_decref(o->compile_commands);
	json_decref(o->link_command);
	free(o->log);
	memset(o, 0, sizeof *o);
}

void build_unit_free(struct build_unit *u)
{
	for (int i = 0; i < u->n_attempts; i++)
		build_outcome_free(&u->attempt[i]);
	if (u->priv)
		plan_free(u->priv);
	u->priv = NULL;
	u->n_attempts = 0;
}

int build_instance(const char *workspace, const struct candidate_conf *c,
		   const struct instance_conf *ic, enum build_profile prof,
		   struct build_outcome *out)
{
	struct build_unit u = {
		.workspace = workspace, .c = c, .ic = ic, .forced_profile = (int)prof,
	};
	char *err = NULL;
	if (build_check_runtime(&err)) {
		memset(out, 0, sizeof *out);
		out->c = c;
		out->ic = ic;
		out->profile = prof;
		out->error = err;
		return -1;
	}
	int rc = build_units(&u, 1, 0, NULL, NULL);
	if (rc) {
		build_unit_free(&u);
		memset(out, 0, sizeof *out);
		out->c = c;
		out->ic = ic;
		out->profile = prof;
		out->error = xstrdup("internal error: the build scheduler stopped early");
		return -1;
	}
	*out = u.attempt[0];
	return out->ok ? 0 : 1;
}
