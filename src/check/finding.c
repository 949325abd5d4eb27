/* finding.c — see finding.h. */
#include "check/finding.h"

#include "evidence/check_json.h"
#include "evidence/json.h"
#include "evidence/paths.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FRAMES 16

/* ---- paths and frames -------------------------------------------------- */

/* A relative path is the compiler's: workspace-relative for candidate
 * code, ngcc-perf-relative for our own programs (built in our tree).  The
 * check twins' debug information names the workspace "." (build/twin.c),
 * so their paths come as ./candidates/…: shown without the "./". */
static char *relative_shown(const char *workspace, const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	char *in_ws = path_join(workspace, p), *in_home = path_join(ngcc_home(), p);
	char *out = !path_exists(in_ws) && path_exists(in_home) ? xasprintf("%s/%s", NGCC_TREE_TAG, p)
								   : xstrdup(p);
	free(in_ws);
	free(in_home);
	return out;
}

char *finding_shown_path(const char *workspace, const char *dir, const char *file)
{
	if (!file)
		return NULL;
	char *full = dir && file[0] != '/' ? path_join(dir, file) : xstrdup(file);
	char *out;
	if (full[0] != '/') {
		out = relative_shown(workspace, full);
	} else {
		out = path_hide_ours(full, workspace, NULL);
		if (out[0] == '/') {   /* system code: its name only */
			char *base = xstrdup(path_basename(out));
			free(out);
			out = base;
		}
	}
	free(full);
	return out;
}

/* Code of the candidate library: its own sources or our runtime built
 * into it (by file), or the library's object (valgrind frames). */
static int in_library(const struct find_ctx *c, const char *obj, const char *shown_file)
{
	if (obj)
		return !strcmp(obj, c->library_abs);
	return shown_file && (str_starts_with(shown_file, "candidates/") ||
			      str_starts_with(shown_file, NGCC_TREE_TAG "/src/runtime/"));
}

struct frame_view {
	const char *fn, *obj, *dir, *file;
	long line;
};

/* file: the frame's file as finding_shown_path() shows it. */
static json_t *frame_json(const struct frame_view *v, const char *file)
{
	return json_pack("{s:s?, s:s?, s:o, s:s?}", "function", v->fn, "file", file,
			 "line", v->line > 0 ? json_integer(v->line) : json_null(),
			 "object", v->obj ? path_basename(v->obj) : NULL);
}

/* Fill the finding's stack and location from n frames. */
static void set_stack(const struct find_ctx *c, json_t *f, const struct frame_view *v, size_t n)
{
	json_t *stack = json_object_get(f, "stack");
	int located = 0;
	for (size_t i = 0; i < n && i < MAX_FRAMES; i++) {
		char *file = finding_shown_path(c->workspace, v[i].dir, v[i].file);
		json_array_append_new(stack, frame_json(&v[i], file));
		if (!located && in_library(c, v[i].obj, file)) {
			located = 1;
			json_object_set_new(f, "location", json_pack("{s:s?, s:s?, s:o}", "function",
				v[i].fn, "file", file, "line",
				v[i].line > 0 ? json_integer(v[i].line) : json_null()));
		}
		free(file);
	}
}

static void set_vg_stack(const struct find_ctx *c, json_t *f, const struct vg_stack *s)
{
	struct frame_view *v = xcalloc(s->n ? s->n : 1, sizeof *v);
	for (size_t i = 0; i < s->n; i++)
		v[i] = (struct frame_view){ s->f[i].fn, s->f[i].obj, s->f[i].dir, s->f[i].file,
					    s->f[i].line };
	set_stack(c, f, v, s->n);
	free(v);
}

/* ---- call context and reproduction ----------------------------------------- */

static int drop_with_value(const char *a)
{
	static const char *const opts[] = { "--progress", "--report-path", "--budget", "--rounds",
		"--first-round", NULL };
	for (const char *const *o = opts; *o; o++)
		if (!strcmp(a, *o))
			return 1;
	return 0;
}

static int drop_alone(const char *a)
{
	return !strcmp(a, "--xml=yes") || str_starts_with(a, "--xml-file=") ||
	       str_starts_with(a, "--log-file=") || !strcmp(a, "--gen-suppressions=all") ||
	       !strcmp(a, "--tell-valgrind");
}

json_t *finding_repro_command(const json_t *command, long round)
{
	json_t *out = json_array();
	size_t n = json_array_size(command);
	for (size_t i = 0; i < n; i++) {
		const char *a = json_string_value(json_array_get(command, i));
		if (!a || drop_alone(a))
			continue;
		if (drop_with_value(a)) {
			i++;
			continue;
		}
		json_array_append_new(out, json_string(a));
	}
	char *r = xasprintf("%ld", round < 0 ? 0 : round);
	json_array_append_new(out, json_string("--first-round"));
	json_array_append_new(out, json_string(r));
	json_array_append_new(out, json_string("--rounds"));
	json_array_append_new(out, json_string("1"));
	free(r);
	return out;
}

static void set_repro(const struct find_ctx *c, json_t *f)
{
	const json_t *round = json_object_get(f, "round");
	long r = json_is_integer(round) ? (long)json_integer_value(round) : 0;
	json_object_set_new(f, "repro", json_pack("{s:I, s:o}", "round", (json_int_t)r, "command",
						  finding_repro_command(c->command, r)));
}

/* A finding placed in the call the context names (or "load" before any). */
static json_t *new_in_context(const char *context, const char *kind, const char *what,
			      long occurrences, json_t **ctx_out)
{
	json_t *ctx = context ? json_loads(context, 0, NULL) : NULL;
	json_t *f = check_finding_new(kind, ctx ? jget_str(ctx, "op", "load") : "load", what,
				      ctx ? jget_str(ctx, "call", NULL) : NULL,
				      ctx ? (long)jget_int(ctx, "round", -1) : -1, occurrences);
	if (ctx_out)
		*ctx_out = ctx;
	else
		json_decref(ctx);
	return f;
}

/* Which buffer of the call an address falls in, in words; *input set when
 * it is inside the data of a read-only input. */
static char *where_in_buffers(const json_t *ctx, const char *hex, int *input)
{
	*input = 0;
	if (!ctx || !hex)
		return NULL;
	unsigned long long a = strtoull(hex, NULL, 16);
	size_t i;
	json_t *b;
	json_array_foreach(json_object_get(ctx, "buffers"), i, b) {
		unsigned long long map = strtoull(jget_str(b, "map", "0"), NULL, 16);
		unsigned long long data = strtoull(jget_str(b, "data", "0"), NULL, 16);
		unsigned long long cap = (unsigned long long)jget_int(b, "cap", 0);
		unsigned long long end = map + (unsigned long long)jget_int(b, "map_len", 0);
		const char *name = jget_str(b, "name", "?");
		if (a < map || a >= end)
			continue;
		if (a < data)
			return xasprintf("%llu byte(s) before the start of %s", data - a, name);
		if (a >= data + cap)
			return xasprintf("offset %llu of %s, past its end (%llu bytes)", a - data, name,
					 cap);
		*input = jget_bool(b, "readonly", 0);
		return xasprintf("byte %llu of %s", a - data, name);
	}
	return NULL;
}

/* The first 0x… in s. */
static char *first_hex(const char *s)
{
	const char *h = s ? strstr(s, "0x") : NULL;
	return h ? xstrndup(h, 2 + strspn(h + 2, "0123456789abcdefABCDEF")) : NULL;
}

/* ---- the check program's own findings ----------------------------------------- */

json_t *finding_from_child(const struct find_ctx *c, const json_t *child)
{
	json_t *f = check_finding_new(jget_str(child, "test", "?"), jget_str(child, "operation", "?"),
				      jget_str(child, "what", NULL), jget_str(child, "call", NULL),
				      (long)jget_int(child, "round", 0),
				      (long)jget_int(child, "occurrences", 1));
	set_repro(c, f);
	return f;
}

/* ---- valgrind --------------------------------------------------------------------- */

static const char *vg_kind(const struct find_ctx *c, const char *k, const char **phrase)
{
	*phrase = NULL;
	if (!k)
		return FK_OTHER;
	if (!strcmp(k, "UninitCondition")) {
		*phrase = c->consttime ? "a branch depends on secret data" : NULL;
		return c->consttime ? FK_SECRET_BRANCH : FK_UNINIT;
	}
	if (!strcmp(k, "UninitValue")) {
		*phrase = c->consttime ? "a memory address is computed from secret data" : NULL;
		return c->consttime ? FK_SECRET_INDEX : FK_UNINIT;
	}
	if (!strcmp(k, "SyscallParam")) {
		*phrase = c->consttime ? "secret data is passed to a system call" : NULL;
		return c->consttime ? FK_SECRET_SYSCALL : FK_UNINIT;
	}
	if (!strcmp(k, "InvalidRead"))
		return FK_INVALID_READ;
	if (!strcmp(k, "InvalidWrite"))
		return FK_INVALID_WRITE;
	if (!strcmp(k, "InvalidFree") || !strcmp(k, "MismatchedFree"))
		return FK_INVALID_FREE;
	if (str_starts_with(k, "Leak_"))
		return FK_LEAK;
	return FK_OTHER;
}

/* Where a marked secret came from (--track-origins). */
static const char *vg_origin(const struct vg_error *e)
{
	for (size_t i = 0; i < e->aux_stack.n; i++) {
		const char *fn = e->aux_stack.f[i].fn;
		if (fn && strstr(fn, "__wrap_get_random_number"))
			return "DRNG output";
		if (fn && strstr(fn, "watch_secret"))
			return "secret key";
	}
	if (e->aux && strstr(e->aux, "created by a stack allocation"))
		return "uninitialised stack memory (not a marked secret)";
	if (e->aux && strstr(e->aux, "created by a heap allocation"))
		return "uninitialised heap memory (not a marked secret)";
	return NULL;
}

/*
 * The suppression a reviewer can copy into candidates/<ID>/check.supp:
 * valgrind's generated one, named after the finding, with the frames kept
 * down to the finding's function and "..." after it (so the same line
 * reached from another call site is covered too), and absolute obj: paths
 * reduced to "obj:*" plus their base name.
 */
static char *reviewed_suppression(const char *raw, const char *name, const char *fn)
{
	if (!raw)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	int frames_done = 0, line_no = 0;
	for (const char *p = raw; *p; line_no++) {
		size_t n = strcspn(p, "\n");
		char *line = xstrndup(p, n);
		const char *t = line + strspn(line, " \t");
		int frame = str_starts_with(t, "fun:") || str_starts_with(t, "obj:") ||
			    !strcmp(t, "...");
		if (line_no == 1 && str_starts_with(t, "<"))
			sb_addf(&sb, "   %s\n", name);
		else if (frame && frames_done)
			;   /* cut below the finding's function */
		else if (str_starts_with(t, "obj:/"))
			sb_addf(&sb, "   obj:*/%s\n", path_basename(t + 4));
		else if (str_starts_with(t, "}") && frames_done)
			sb_addf(&sb, "   ...\n}\n");
		else
			sb_addf(&sb, "%s\n", line);
		if (frame && fn && !strcmp(t + 4, fn))
			frames_done = 1;
		free(line);
		p += n + (p[n] == '\n');
	}
	return sb_detach(&sb);
}

/* The operation key of an ICCS API function (or of our ngcc_ forwarder
 * of it), or NULL. */
static const char *op_of_function(const char *fn)
{
	static const char *const api[][2] = { { "kem_keygen", "keygen" }, { "kem_enc", "enc" },
		{ "kem_dec", "dec" }, { "sig_keygen", "keygen" }, { "sig_sign", "sign" },
		{ "sig_verify", "verify" }, { "kex_init_a", "init_a" }, { "kex_init_b", "init_b" },
		{ "kex_derive_ss_a", "derive_a" }, { "kex_derive_ss_b", "derive_b" },
		{ "kex_derive_a", "derive_a" }, { "kex_derive_b", "derive_b" },
		{ "kex_pass1", "pass1" } };
	static const char *const passes[] = { "pass1", "pass2", "pass3", "pass4", "pass5", "pass6",
		"pass7", "pass8", "pass9", "pass10", "pass11", "pass12", "pass13", "pass14", "pass15",
		"pass16" };
	if (str_starts_with(fn, "ngcc_"))
		fn += 5;
	for (size_t k = 0; k < sizeof api / sizeof *api; k++)
		if (!strcmp(fn, api[k][0]))
			return api[k][1];
	unsigned n;
	char party, tail;
	if (sscanf(fn, "kex_generate_pass%u_msg_%c%c", &n, &party, &tail) == 2 && n >= 1 &&
	    n <= sizeof passes / sizeof *passes)
		return passes[n - 1];
	return NULL;
}

/* Leaks are reported at exit: their operation is the API function on the
 * allocation stack. */
static const char *op_from_stack(const struct vg_stack *s)
{
	for (size_t i = 0; i < s->n; i++) {
		const char *op = s->f[i].fn ? op_of_function(s->f[i].fn) : NULL;
		if (op)
			return op;
	}
	return NULL;
}

json_t *finding_from_vg_error(const struct find_ctx *c, const struct vg_error *e)
{
	const char *phrase;
	const char *kind = vg_kind(c, e->kind, &phrase);
	json_t *ctx = NULL;
	int input = 0;
	char *hex = first_hex(e->aux);
	json_t *f = new_in_context(e->context, kind, NULL, e->count, &ctx);
	char *where = where_in_buffers(ctx, hex, &input);
	char *what = phrase ? xasprintf("%s (memcheck: %s)", phrase, e->what ? e->what : "?")
		     : where ? xasprintf("%s: %s", e->what ? e->what : "?", where)
		     : xstrdup(e->what ? e->what : (e->kind ? e->kind : "?"));
	json_object_set_new(f, "what", json_string(what));
	if (!strcmp(kind, FK_LEAK)) {
		const char *op = op_from_stack(&e->stack);
		json_object_set_new(f, "operation", json_string(op ? op : "unknown"));
		json_object_set_new(f, "call", json_null());
		json_object_set_new(f, "round", json_null());
	}
	set_vg_stack(c, f, &e->stack);
	const char *origin = c->consttime ? vg_origin(e) : NULL;
	json_object_set_new(f, "origin", jstr_or_null(origin));
	const json_t *loc = json_object_get(f, "location");
	char *name = xasprintf("ngcc-perf %s: %s at %s:%lld", kind, jget_str(loc, "function", "?"),
			       path_basename(jget_str(loc, "file", "?")), jget_int(loc, "line", 0));
	char *supp = reviewed_suppression(e->suppression, name, jget_str(loc, "function", NULL));
	free(name);
	json_object_set_new(f, "suppression", jstr_or_null(supp));
	set_repro(c, f);
	free(supp);
	free(what);
	free(where);
	free(hex);
	json_decref(ctx);
	return f;
}

json_t *finding_from_vg_fatal(const struct find_ctx *c, const struct vg_fatal *fs)
{
	json_t *ctx = NULL;
	int input = 0;
	json_t *f = new_in_context(fs->context, FK_CRASH, NULL, 1, &ctx);
	char *where = where_in_buffers(ctx, fs->siaddr, &input);
	char *what;
	if (input && fs->signo == 11) {
		json_object_set_new(f, "kind", json_string(FK_INPUT_WRITE));
		what = xasprintf("wrote to its input (%s), which the API passes for reading only: "
				 "SIGSEGV on the read-only page", where);
	} else {
		/* valgrind names no event when the program raised the signal itself */
		what = xasprintf("killed by %s%s%s%s%s%s", fs->signame ? fs->signame : "a signal",
				 fs->event ? " (" : "", fs->event ? fs->event : "", fs->event ? ")" : "",
				 where ? " at " : "", where ? where : "");
	}
	json_object_set_new(f, "what", json_string(what));
	set_vg_stack(c, f, &fs->stack);
	set_repro(c, f);
	free(what);
	free(where);
	json_decref(ctx);
	return f;
}

/* ---- sanitizers and crashes ------------------------------------------------------- */

static const char *san_kind(const struct san_report *s, int input)
{
	if (!strcmp(s->tool ? s->tool : "", "UndefinedBehaviorSanitizer"))
		return FK_UB;
	if (s->kind && !strcmp(s->kind, "SEGV"))
		return input ? FK_INPUT_WRITE : FK_CRASH;
	if (s->access && str_starts_with(s->access, "WRITE"))
		return FK_INVALID_WRITE;
	if (s->access && str_starts_with(s->access, "READ"))
		return FK_INVALID_READ;
	return FK_OTHER;
}

json_t *finding_from_san(const struct find_ctx *c, const struct san_report *s, const char *context)
{
	json_t *ctx = NULL;
	int input = 0;
	json_t *f = new_in_context(context, FK_OTHER, NULL, 1, &ctx);
	char *where = where_in_buffers(ctx, s->address, &input);
	if (!s->access || !strstr(s->access, "WRITE"))
		input = 0;   /* only a write into a read-only input is "input written" */
	json_object_set_new(f, "kind", json_string(san_kind(s, input)));
	char *what = s->what ? xasprintf("%s: %s", s->tool, s->what)
		     : xasprintf("%s: %s%s%s%s", s->tool ? s->tool : "sanitizer",
				 s->kind ? s->kind : "error", s->access ? " (" : "",
				 s->access ? s->access : "", s->access ? ")" : "");
	if (where) {
		char *w = xasprintf("%s at %s", what, where);
		free(what);
		what = w;
	}
	json_object_set_new(f, "what", json_string(what));
	struct frame_view *v = xcalloc(s->nframes ? s->nframes : 1, sizeof *v);
	for (size_t i = 0; i < s->nframes; i++)
		v[i] = (struct frame_view){ s->frames[i].fn, NULL, NULL, s->frames[i].file,
					    s->frames[i].line };
	set_stack(c, f, v, s->nframes);
	free(v);
	set_repro(c, f);
	free(what);
	free(where);
	json_decref(ctx);
	return f;
}

json_t *finding_from_crash(const struct find_ctx *c, const char *how, const char *context)
{
	json_t *f = new_in_context(context, FK_CRASH, NULL, 1, NULL);
	char *what = xasprintf("the process ended inside the call: %s", how);
	json_object_set_new(f, "what", json_string(what));
	set_repro(c, f);
	free(what);
	return f;
}

json_t *finding_from_strays(const struct find_ctx *c, int killed)
{
	char *what = xasprintf("%d process(es) the library started were still running when "
			       "the check program ended (started in the background or detached "
			       "with setsid()); they were killed", killed);
	json_t *f = check_finding_new(FK_STRAYS, "unknown", what, NULL, -1, killed);
	set_repro(c, f);
	free(what);
	return f;
}
