/* run.c — see run.h. */
#include "check/run.h"

#include "check/finding.h"
#include "check/sanrep.h"
#include "check/vgxml.h"
#include "evidence/json.h"
#include "method/types.h"
#include "proc/command.h"
#include "proc/spawn.h"
#include "util/fsutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAIL_BYTES 8000
#define LIMIT_AS (8ULL << 30)
#define LIMIT_FSIZE (1ULL << 30)
#define LIMIT_NPROC 64
#define CALL_PREFIX "ngcc-check-call "   /* driver/check/watch.h WATCH_CALL_MSG */

enum vg_mode { VG_NONE, VG_MEMCHECK, VG_CONSTTIME };

static const struct spec {
	int twin;                  /* enum twin_kind, or -1: the timed library */
	const char *program;
	const char *suite;
	enum vg_mode vg;
	long rounds;               /* 0: --rounds (1000) */
} specs[CHECK_N] = {
	[CHECK_FUNCTIONAL] = { -1, CHECK_PROGRAM, "functional", VG_NONE, 0 },
	[CHECK_SANITIZERS] = { TWIN_ASAN, CHECK_PROGRAM_ASAN, "functional", VG_NONE, 0 },
	[CHECK_MEMCHECK] = { TWIN_DEBUG, CHECK_PROGRAM, "memcheck", VG_MEMCHECK, CHECK_MEMCHECK_ROUNDS },
	[CHECK_CONSTTIME] = { TWIN_CT, CHECK_PROGRAM, "consttime", VG_CONSTTIME, CHECK_CONSTTIME_ROUNDS },
};

/* Test order on pages and in records. */
static const char *const test_order[] = { "round trip", "returned lengths", "canaries",
	"inputs unmodified", "deterministic decapsulation", "deterministic verification",
	"tampered ciphertext", "tampered signature", "tampered message", "unaligned buffers",
	"overlapping buffers", "constant-time run", NULL };

long check_rounds(const struct check_opts *o, enum check_id id)
{
	return specs[id].rounds ? specs[id].rounds : o->rounds;
}

int check_uses_suppressions(enum check_id id)
{
	return specs[id].vg != VG_NONE;
}

const char *check_library(const struct check_target *t, enum check_id id, const char **sha,
			  const char **why)
{
	int k = specs[id].twin;
	*why = NULL;
	if (k < 0) {
		*sha = t->timed_sha;
		return t->timed_library;
	}
	const struct twin *tw = t->twins ? &t->twins->t[k] : NULL;
	if (!tw || !tw->ok) {
		*why = tw && tw->error ? tw->error : "the twin was not built";
		return NULL;
	}
	*sha = tw->sha256;
	return tw->library;
}

/* ---- the command ---------------------------------------------------------- */

static char *find_in_path(const char *name)
{
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : "/usr/bin:/bin"), *save = NULL;
	char *found = NULL;
	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *p = path_join(*d ? d : ".", name);
		if (access(p, X_OK) == 0)
			found = p;
		else
			free(p);
	}
	free(copy);
	return found;
}

/* The child command, and the files it writes beside its record. */
struct command {
	struct child_cmd cmd;
	char *raw;                 /* valgrind XML or sanitizer report prefix, rel */
	char *progress;            /* call-context page, rel */
};

static void valgrind_args(struct child_cmd *c, const struct check_target *t, enum vg_mode m,
			  const char *raw)
{
	child_cmd_arg(c, "--tool=memcheck");
	child_cmd_arg(c, "--xml=yes");
	child_cmd_argf(c, "--xml-file=%s", raw);
	child_cmd_argf(c, "--log-file=%.*s.log", (int)(strlen(raw) - 4), raw);
	child_cmd_arg(c, "--gen-suppressions=all");
	child_cmd_arg(c, "--num-callers=40");
	child_cmd_arg(c, "--error-limit=no");
	child_cmd_arg(c, "--child-silent-after-fork=yes");
	if (m == VG_MEMCHECK) {
		child_cmd_arg(c, "--leak-check=full");
		child_cmd_arg(c, "--show-leak-kinds=definite");
	} else {
		/* With --xml=yes memcheck does a full leak check whatever
		 * --leak-check says, and a crash leaves allocations (the
		 * loader's among them) that a normal exit frees: without this
		 * they became findings of the constant-time check. */
		child_cmd_arg(c, "--leak-check=no");
		child_cmd_arg(c, "--show-leak-kinds=none");
		child_cmd_arg(c, "--track-origins=yes");
	}
	if (t->supp)
		child_cmd_argf(c, "--suppressions=%s", t->supp);
}

static void program_args(struct command *c, const struct spec *s, const char *lib,
			 long rounds, double budget_s)
{
	child_cmd_program(&c->cmd, s->program);
	child_cmd_arg(&c->cmd, "--lib");
	child_cmd_arg(&c->cmd, lib);
	child_cmd_arg(&c->cmd, "--suite");
	child_cmd_arg(&c->cmd, s->suite);
	child_cmd_arg(&c->cmd, "--rounds");
	child_cmd_argf(&c->cmd, "%ld", rounds);
	if (budget_s > 0) {
		child_cmd_arg(&c->cmd, "--budget");
		child_cmd_argf(&c->cmd, "%ld", (long)budget_s);
	}
	child_cmd_arg(&c->cmd, "--progress");
	child_cmd_arg(&c->cmd, c->progress);
	if (s->vg != VG_NONE)
		child_cmd_arg(&c->cmd, "--tell-valgrind");
	if (s->twin == TWIN_ASAN) {
		child_cmd_arg(&c->cmd, "--report-path");
		child_cmd_arg(&c->cmd, c->raw);
	}
}

/* The command: the check program, under valgrind for its checks. */
static void command_init(struct command *c, const struct check_target *t, const struct spec *s,
			 const char *valgrind, const char *lib, long rounds, double budget_s)
{
	if (s->vg != VG_NONE) {
		child_cmd_init_tool(&c->cmd, valgrind, "valgrind");
		valgrind_args(&c->cmd, t, s->vg, c->raw);
	} else {
		memset(&c->cmd, 0, sizeof c->cmd);
		c->cmd.shown = json_array();
	}
	program_args(c, s, lib, rounds, budget_s);
}

static void command_free(struct command *c)
{
	child_cmd_free(&c->cmd);
	free(c->raw);
	free(c->progress);
}

/* ---- results ---------------------------------------------------------------- */

struct outcome {
	struct spawn_res res;
	int ran;
	json_t *child;             /* the check program's result, or NULL */
	char *page;                /* the call-context page at the end, or NULL */
	char *raw_text;            /* valgrind XML or sanitizer report */
	size_t raw_len;
	double timeout_s;
};

static char *read_page(const char *ws, const char *rel)
{
	char *abs = path_join(ws, rel), *data = NULL;
	size_t len;
	if (read_file(abs, &data, &len) || !data[0]) {
		free(data);
		data = NULL;
	}
	free(abs);
	return data;
}

/* The sanitizer writes <prefix>.<pid>. */
static char *read_san_report(const char *ws, const char *prefix, size_t *len)
{
	char *abs = path_join(ws, prefix), *dir = path_dirname(abs);
	const char *base = path_basename(abs);
	struct strlist names = STRLIST_INIT;
	char *text = NULL;
	dir_list(dir, DIR_PICK_FILES, &names);
	for (size_t i = 0; i < names.n && !text; i++)
		if (str_starts_with(names.items[i], base) && names.items[i][strlen(base)] == '.') {
			char *p = path_join(dir, names.items[i]);
			if (read_file(p, &text, len))
				text = NULL;
			free(p);
		}
	sl_free(&names);
	free(dir);
	free(abs);
	return text;
}

/* Remove what an earlier run of the same check left in raw/ (files
 * named <stem>__<check>.*). */
static void clear_raw(const char *ws, const struct command *c, const char *prefix)
{
	char *abs = path_join(ws, c->raw), *dir = path_dirname(abs);
	struct strlist names = STRLIST_INIT;
	dir_list(dir, DIR_PICK_FILES, &names);
	for (size_t i = 0; i < names.n; i++)
		if (str_starts_with(names.items[i], prefix)) {
			char *p = path_join(dir, names.items[i]);
			unlink(p);
			free(p);
		}
	sl_free(&names);
	free(dir);
	free(abs);
}

static int run_command(const struct check_target *t, const struct spec *s, struct command *c,
		       double timeout_s, struct outcome *out)
{
	char *page = path_join(t->workspace, c->progress);
	int rc = write_file(page, "", 0);
	free(page);
	if (rc)
		return -1;
	int sanitized = s->vg != VG_NONE || s->twin == TWIN_ASAN;
	struct spawn_req req = {
		.cwd = t->workspace, .cpu = -1, .timeout_s = timeout_s,
		.lim = { .as_bytes = sanitized ? 0 : LIMIT_AS, .cpu_s = (unsigned long long)timeout_s + 10,
			 .fsize_bytes = LIMIT_FSIZE, .nproc = LIMIT_NPROC },
		.want_result = 1, .tail_bytes = TAIL_BYTES,
	};
	out->timeout_s = timeout_s;
	out->ran = !child_cmd_run(&c->cmd, &req, &out->res);
	if (out->ran && out->res.result && out->res.result_len)
		out->child = json_loads(out->res.result, JSON_DISABLE_EOF_CHECK, NULL);
	out->page = read_page(t->workspace, c->progress);
	if (s->vg != VG_NONE) {
		char *abs = path_join(t->workspace, c->raw);
		if (read_file(abs, &out->raw_text, &out->raw_len))
			out->raw_text = NULL;
		free(abs);
	} else if (s->twin == TWIN_ASAN) {
		out->raw_text = read_san_report(t->workspace, c->raw, &out->raw_len);
	}
	return 0;
}

static void outcome_free(struct outcome *o)
{
	if (o->ran)
		spawn_res_free(&o->res);
	json_decref(o->child);
	free(o->page);
	free(o->raw_text);
}

/* ---- the record ----------------------------------------------------------------- */

static int order_of(const char *const *list, const char *s)
{
	int i = 0;
	for (; list[i]; i++)
		if (!strcmp(list[i], s))
			return i;
	return i;
}

static int test_cmp(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	int c = order_of(test_order, jget_str(x, "test", "")) - order_of(test_order, jget_str(y, "test", ""));
	return c ? c : cand_op_cmp(jget_str(x, "operation", ""), jget_str(y, "operation", ""));
}

static json_t *sorted_tests(const json_t *tests)
{
	size_t n = json_array_size(tests);
	json_t **v = xcalloc(n ? n : 1, sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = json_array_get(tests, i);
	qsort(v, n, sizeof *v, test_cmp);
	json_t *out = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append(out, v[i]);
	free(v);
	return out;
}

static void add_child_results(json_t *rec, const struct find_ctx *fc, const json_t *child)
{
	json_object_set(rec, "rounds_done", json_object_get(child, "rounds_done"));
	json_object_set(rec, "budget_reached", json_object_get(child, "budget_reached"));
	json_object_set_new(rec, "tests", sorted_tests(json_object_get(child, "tests")));
	json_t *findings = json_object_get(rec, "findings");
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(child, "findings"), i, f)
		json_array_append_new(findings, finding_from_child(fc, f));
}

/* The same kind at the same source line in the same operation (valgrind
 * tells errors apart by their whole stack: one line reached from two call
 * sites is two errors) is one finding; occurrences add up. */
static json_t *same_place(json_t *findings, size_t from, const json_t *f)
{
	const json_t *loc = json_object_get(f, "location");
	if (!json_is_object(loc))
		return NULL;
	for (size_t i = from; i < json_array_size(findings); i++) {
		json_t *g = json_array_get(findings, i);
		const json_t *gl = json_object_get(g, "location");
		if (json_is_object(gl) && !strcmp(jget_str(g, "kind", ""), jget_str(f, "kind", "")) &&
		    !strcmp(jget_str(g, "operation", ""), jget_str(f, "operation", "")) &&
		    !strcmp(jget_str(gl, "file", ""), jget_str(loc, "file", "")) &&
		    jget_int(gl, "line", 0) == jget_int(loc, "line", 0))
			return g;
	}
	return NULL;
}

static void add_valgrind_results(json_t *rec, const struct find_ctx *fc, const struct vg_report *vg)
{
	json_t *findings = json_object_get(rec, "findings");
	size_t first = json_array_size(findings);
	for (size_t i = 0; i < vg->nerrs; i++) {
		json_t *f = finding_from_vg_error(fc, &vg->errs[i]);
		json_t *g = same_place(findings, first, f);
		if (g) {
			json_object_set_new(g, "occurrences", json_integer(jget_int(g, "occurrences", 0) +
									   jget_int(f, "occurrences", 0)));
			json_decref(f);
		} else {
			json_array_append_new(findings, f);
		}
	}
	if (vg->fatal.present)
		json_array_append_new(findings, finding_from_vg_fatal(fc, &vg->fatal));
	json_t *supp = json_object_get(rec, "suppressed");
	for (size_t i = 0; i < vg->nsupps; i++)
		json_array_append_new(supp, json_pack("{s:s, s:I}", "name", vg->supps[i].name,
						      "count", (json_int_t)vg->supps[i].count));
}

/* Where the program was when it stopped, in words; NULL unless the page
 * says a candidate call was running. */
static char *last_call_text(const char *page)
{
	json_t *ctx = page ? json_loads(page, 0, NULL) : NULL;
	char *s = ctx && !strcmp(jget_str(ctx, "state", ""), "in call")
		? xasprintf("during %s (round %lld)", jget_str(ctx, "call", "?"), jget_int(ctx, "round", 0))
		: NULL;
	json_decref(ctx);
	return s;
}

static void set_status(json_t *rec, const char *status, char *detail)
{
	json_object_set_new(rec, "status", json_string(status));
	json_object_set_new(rec, "status_detail", jstr_or_null(detail));
	free(detail);
}

/* A sanitizer report, as a finding; 1 when there was one. */
static int add_san_result(json_t *rec, const struct find_ctx *fc, const struct outcome *o)
{
	struct san_report sr;
	san_parse(o->raw_text ? o->raw_text : (o->res.err_tail ? o->res.err_tail : ""), &sr);
	int present = sr.present;
	if (present)
		json_array_append_new(json_object_get(rec, "findings"), finding_from_san(fc, &sr, o->page));
	san_report_free(&sr);
	return present;
}

/* A valgrind XML, as findings; 1 when it held a fatal signal. */
static int add_vg_result(json_t *rec, const struct find_ctx *fc, const struct outcome *o)
{
	struct vg_report vg;
	vg_parse(o->raw_text, o->raw_len, CALL_PREFIX, &vg);
	add_valgrind_results(rec, fc, &vg);
	json_object_set_new(json_object_get(rec, "tool"), "checker",
			    vg.version ? json_sprintf("valgrind-%s memcheck", vg.version)
				       : json_string("valgrind memcheck"));
	int fatal = vg.fatal.present;
	vg_report_free(&vg);
	return fatal;
}

/*
 * Status and findings from everything the run left.  A program that ends
 * without its result while a candidate call is running (a signal, a
 * sanitizer abort, the candidate calling exit) is a complete check with a
 * finding in that call; one that ends so outside any call is a failure of
 * the check itself.
 */
static void judge(json_t *rec, const struct spec *s, const struct find_ctx *fc, struct outcome *o)
{
	const struct spawn_res *r = &o->res;
	char *how = spawn_describe(r, o->timeout_s);
	char *where = last_call_text(o->page);
	int reported = 0;
	if (o->child)
		add_child_results(rec, fc, o->child);
	if (s->vg != VG_NONE && o->raw_text)
		reported = add_vg_result(rec, fc, o);
	if (s->twin == TWIN_ASAN && !o->child)
		reported = add_san_result(rec, fc, o);
	if (r->timed_out) {
		set_status(rec, "timeout", xasprintf("%s%s%s", how, where ? " " : "", where ? where : ""));
	} else if (o->child && !strcmp(jget_str(o->child, "status", ""), "error")) {
		set_status(rec, "failed", xstrdup(jget_str(o->child, "error", "the check program failed")));
	} else if (s->vg != VG_NONE && !o->raw_text) {
		set_status(rec, "failed", xasprintf("valgrind wrote no XML (%s): %s", how,
						    r->err_tail ? r->err_tail : ""));
	} else if (o->child) {
		set_status(rec, "complete", NULL);
	} else if (reported || where) {
		if (!reported)
			json_array_append_new(json_object_get(rec, "findings"),
					      finding_from_crash(fc, how, o->page));
		set_status(rec, "complete", xasprintf("ended early: %s%s%s", how, where ? " " : "",
						      where ? where : ""));
	} else {
		set_status(rec, "failed", xasprintf("the check program ended without a result outside "
						    "any candidate call (%s)", how));
	}
	if (o->ran && r->strays_killed > 0)
		json_array_append_new(json_object_get(rec, "findings"),
				      finding_from_strays(fc, r->strays_killed));
	free(how);
	free(where);
}

static json_t *process_json(const struct outcome *o)
{
	const struct spawn_res *r = &o->res;
	return json_pack("{s:o, s:o, s:b, s:s?, s:o}",
			 "exit_code", o->ran && r->exited ? json_integer(r->exit_code) : json_null(),
			 "term_signal", o->ran && r->term_signal ? json_integer(r->term_signal) : json_null(),
			 "timed_out", o->ran && r->timed_out,
			 "stderr_tail", o->ran ? r->err_tail : NULL,
			 STRAYS_KILLED_KEY, evidence_strays_killed(o->ran ? r : NULL));
}

static void fill_identity(json_t *rec, const struct check_target *t, const struct spec *s,
			  const char *lib, const char *sha)
{
	json_object_set_new(rec, "library", jstr_or_null(lib));
	json_object_set_new(rec, "library_sha256", jstr_or_null(sha));
	json_object_set_new(rec, "timed_library", json_string(t->timed_library));
	json_object_set_new(rec, "timed_library_sha256", json_string(t->timed_sha));
	const struct twin *tw = s->twin >= 0 && t->twins ? &t->twins->t[s->twin] : NULL;
	json_object_set_new(rec, "build", tw ? json_deep_copy(tw->build) : json_null());
	json_t *checker = s->twin == TWIN_ASAN
		? json_sprintf("AddressSanitizer+UBSan (%s)", t->compiler ? t->compiler : "cc")
		: json_null();
	json_object_set_new(rec, "tool", json_pack("{s:s+, s:o}", "program", NGCC_TREE_TAG "/bin/",
						   s->program, "checker", checker));
	json_object_set_new(rec, "suppressions", s->vg != VG_NONE && t->supp
			    ? json_pack("{s:s, s:s}", "file", t->supp, "sha256", t->supp_sha)
			    : json_null());
}

static json_t *plan_json(long rounds, double budget_s, double timeout_s)
{
	char seed[97];
	for (int i = 0; i < 48; i++)
		snprintf(seed + 2 * i, 3, "%02x", i);
	return json_pack("{s:I, s:i, s:s, s:f, s:f}", "rounds", (json_int_t)rounds, "first_round", 0,
			 "seed_hex", seed, "budget_s", budget_s, "timeout_s", timeout_s);
}

json_t *check_run(const struct check_target *t, enum check_id id, const struct check_opts *o)
{
	const struct spec *s = &specs[id];
	json_t *rec = check_record_new(t->cand, t->label, t->instance, t->type, t->variant,
				       check_names[id]);
	const char *sha = NULL, *why = NULL;
	const char *lib = check_library(t, id, &sha, &why);
	long rounds = check_rounds(o, id);
	double budget = s->vg == VG_NONE ? o->timeout_s / 2 : 0;
	fill_identity(rec, t, s, lib, sha);
	json_object_set_new(rec, "plan", plan_json(rounds, budget, o->timeout_s));
	if (o->emulated && id != CHECK_FUNCTIONAL) {
		set_status(rec, "skipped", xasprintf("not run under user-mode emulation (%s): "
						     "AddressSanitizer and valgrind need the real "
						     "machine", o->emulated));
		check_record_derive(rec);
		return rec;
	}
	if (s->vg != VG_NONE && t->no_valgrind) {
		set_status(rec, "skipped", xasprintf("not run: %s", t->no_valgrind));
		check_record_derive(rec);
		return rec;
	}
	if (!lib) {
		set_status(rec, "failed", xasprintf("not run: %s", why));
		check_record_derive(rec);
		return rec;
	}
	struct command c;
	memset(&c, 0, sizeof c);
	const char *ext = s->vg != VG_NONE ? "xml" : "san";
	c.raw = xasprintf("build/%s/check/raw/%s__%s.%s", t->cand, t->stem, check_names[id], ext);
	c.progress = xasprintf("build/%s/check/raw/%s__%s.progress", t->cand, t->stem, check_names[id]);
	char *rawdir = xasprintf("%s/build/%s/check/raw", t->workspace, t->cand);
	char *valgrind = s->vg != VG_NONE ? find_in_path("valgrind") : NULL;
	struct outcome out;
	memset(&out, 0, sizeof out);
	char started[32], ended[32];
	utc_now_iso(started);
	if (s->vg != VG_NONE && !valgrind) {
		set_status(rec, "failed", xstrdup("valgrind is not installed (apt-get install valgrind)"));
	} else if (mkdir_p(rawdir, 0755)) {
		set_status(rec, "failed", xasprintf("cannot create %s: %s", rawdir, strerror(errno)));
	} else {
		char *prefix = xasprintf("%s__%s.", t->stem, check_names[id]);
		clear_raw(t->workspace, &c, prefix);
		free(prefix);
		command_init(&c, t, s, valgrind, lib, rounds, budget);
		json_object_set(rec, "command", c.cmd.shown);
		if (run_command(t, s, &c, o->timeout_s, &out)) {
			set_status(rec, "failed", xasprintf("cannot write %s: %s", c.progress, strerror(errno)));
		} else if (!out.ran) {
			set_status(rec, "failed", xstrdup("the check program could not be started"));
		} else {
			char *abs = path_join(t->workspace, lib);
			struct find_ctx fc = { t->workspace, abs, c.cmd.shown, s->vg == VG_CONSTTIME };
			judge(rec, s, &fc, &out);
			free(abs);
		}
	}
	utc_now_iso(ended);
	json_object_set_new(rec, "started_utc", json_string(started));
	json_object_set_new(rec, "ended_utc", json_string(ended));
	json_object_set_new(rec, "wall_s", out.ran ? json_real(out.res.wall_s) : json_null());
	json_object_set_new(rec, "process", process_json(&out));
	json_object_set_new(rec, "raw_output", out.raw_text ? json_string(c.raw) : json_null());
	check_record_derive(rec);
	outcome_free(&out);
	command_free(&c);
	free(rawdir);
	free(valgrind);
	return rec;
}
