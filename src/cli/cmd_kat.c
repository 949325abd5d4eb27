/*
 * cmd_kat.c — `ngcc-perf kat [ID...] [--timeout SECONDS] [--no-fallback]`,
 * the KAT gate (method §2.2).
 *
 * For every enabled instance that `build` compiled, run bin/ngcc-perf-kat
 * in its own process group with resource limits and a hard timeout; the
 * candidate never runs in this process.  The child's RESULT line (on fd 3)
 * is the status only if its exit code confirms it; a child that ends
 * without one is a CRASH, a killed one a TIMEOUT.  Evidence:
 * build/<ID>/kat/<label>.log and .txt, and the KAT fields of
 * build/<ID>/build.json.  A guide-built library that does not PASS is
 * rebuilt once with the harness-default profile and retested (method
 * §2.1); the first status is kept as guide_result.
 */
#include "build/build.h"
#include "proc/spawn.h"
#include "cli/cli.h"
#include "util/atomic.h"
#include "evidence/build_json.h"
#include "util/fsutil.h"
#include "evidence/json.h"
#include "kat/katcompare.h"
#include "kat/katgen.h"
#include "package/conf.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_TIMEOUT_S 900.0
#define TAIL_BYTES 4000
#define LIMIT_AS (8ULL << 30)
#define LIMIT_FSIZE (1ULL << 30)
#define LIMIT_NPROC 64
#define CPU_LIMIT_MARGIN_S 10

struct kat_opts {
	double timeout_s;
	int fallback;
};

/* Where the expected text comes from. */
struct kat_ref {
	struct kat_manifest_entry manifest; /* .file set when used */
	char *path;     /* reference file, absolute */
	char *path_rel; /* the same, relative to the workspace */
};

/* One instance to test. */
struct kat_unit {
	const struct cli_ctx *ctx;
	struct candidate_conf *conf;
	struct instance_conf *ic;
	const char *id;
	char *stem;         /* label in file names and RESULT lines */
	char *key;          /* build.json key */
	struct kat_ref ref;
	int records;        /* 0: the child's default (10, or the manifest's N) */
};

/* What one run of the KAT child gave. */
struct kat_run {
	enum kat_status st;
	char *detail;
	char *result_line;  /* "RESULT <id> <label> <STATUS> [detail]" */
	struct strlist meta; /* the child's "key = value" lines */
	char *text;         /* generated KAT text */
	size_t text_len;
	char *child;        /* "exit 0", "killed by signal 11 (SIGSEGV)", ... */
	double wall_s;
	char *out_tail, *err_tail;
};

static void kat_run_free(struct kat_run *r)
{
	free(r->detail);
	free(r->result_line);
	sl_free(&r->meta);
	free(r->text);
	free(r->child);
	free(r->out_tail);
	free(r->err_tail);
	memset(r, 0, sizeof *r);
}

static void kat_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] kat [ID...] [--timeout SECONDS] [--no-fallback]\n"
		"\n"
		"Reproduce the submitted Known-Answer Tests of every enabled instance\n"
		"built by `ngcc-perf build` (all candidates of the workspace when no ID is\n"
		"given).  Each library is loaded by the child program ngcc-perf-kat in its\n"
		"own process group (8 GiB address space, 1 GiB files, 64 processes, a\n"
		"hard timeout), which replays the official KAT driver and compares the\n"
		"text with candidates/<ID>/kat.sha256 or the submitted KAT file.\n"
		"\n"
		"Prints one line per instance:  RESULT <ID> <label> <STATUS> [detail]\n"
		"  PASS        the text matches the reference\n"
		"  MISMATCH    it differs (the detail names the first Count and field)\n"
		"  NOKAT       no reference (no kat.sha256 entry, no kat_reference)\n"
		"  CRYPTOFAIL  an API call failed or decapsulation disagreed\n"
		"  OVERFLOW    a buffer guard zone was overwritten, or a returned\n"
		"              length exceeds the getter\n"
		"  LOADFAIL    the library could not be loaded\n"
		"  TIMEOUT     killed at the time limit\n"
		"  CRASH       the child died without a result (signal, exit())\n"
		"  BUILDFAIL   no library: the build failed (not run)\n"
		"A guide-built library that does not PASS (NOKAT aside) is rebuilt with\n"
		"the harness-default flags and tested again; build.json keeps the first\n"
		"status as guide_result.\n"
		"\n"
		"Writes build/<ID>/kat/<label>.log (header, candidate output tail, the\n"
		"RESULT line) and <label>.txt (the generated text), and the KAT fields\n"
		"of build/<ID>/build.json.\n"
		"\n"
		"Options:\n"
		"  --timeout SECONDS  hard limit per instance (default 900)\n"
		"  --no-fallback      do not rebuild with harness-default flags\n"
		"  -h, --help         show this help\n"
		"\n"
		"Exit: 0 every instance passed; 1 some did not; 2 usage; 3 bad\n"
		"workspace or candidate (not added, not built, bad kat.sha256);\n"
		"4 system error.\n");
}

/* ---- finding candidates and references ---- */

static int list_candidates(const struct cli_ctx *ctx, struct strlist *ids)
{
	char *dir = ws_path(ctx, "candidates");
	if (dir_list_having(dir, "candidate.conf", ids)) {
		ngcc_error("no candidates in workspace %s (%s: %s); add one with "
			   "`ngcc-perf add PACKAGE`", ctx->workspace, dir, strerror(errno));
		free(dir);
		return -1;
	}
	free(dir);
	return 0;
}

/* The instance directory's name: the label without "+avx2" and the like. */
static char *manifest_label(const char *label)
{
	return xstrndup(label, strcspn(label, "+"));
}

static char *kat_file_name(const struct instance_conf *ic)
{
	if (ic->instance)
		return xasprintf("KAT_KEM_%s.txt", ic->instance);
	if (ic->kat_reference)
		return xstrdup(path_basename(ic->kat_reference));
	return NULL;
}

/* A kat.sha256 entry first, then the conf's kat_reference.  0, or -1 for
 * a malformed manifest (message printed). */
static int find_reference(struct kat_unit *u, const char *manifest,
			  const char *manifest_path)
{
	memset(&u->ref, 0, sizeof u->ref);
	if (manifest) {
		char *label = manifest_label(u->ic->label), *err = NULL;
		char *file = kat_file_name(u->ic);
		int found = kat_manifest_find(manifest, label, file, &u->ref.manifest, &err);
		free(label);
		free(file);
		if (found < 0) {
			ngcc_error("%s: %s", manifest_path, err);
			free(err);
			return -1;
		}
		if (found)
			return 0;
	}
	if (u->ic->kat_reference) {
		u->ref.path_rel = xasprintf("candidates/%s/source/%s", u->id,
					    u->ic->kat_reference);
		u->ref.path = path_join(u->ctx->workspace, u->ref.path_rel);
	}
	return 0;
}

/* ---- running the child ---- */

/* Evidence holds no absolute paths (method §11.1): make the workspace's
 * relative, and write our installation as <ngcc-perf>. */
static char *relativize(const char *s, const char *workspace)
{
	const char *from[2] = { workspace, ngcc_home() };
	const char *to[2] = { "", "<ngcc-perf>/" };
	char *cur = xstrdup(s);
	for (int k = 0; k < 2; k++) {
		if (!from[k] || !*from[k] || !strcmp(from[k], "/"))
			continue;
		char *prefix = xasprintf("%s/", from[k]);
		struct strbuf sb = STRBUF_INIT;
		const char *p = cur, *hit;
		while ((hit = strstr(p, prefix))) {
			sb_add(&sb, p, (size_t)(hit - p));
			sb_adds(&sb, to[k]);
			p = hit + strlen(prefix);
		}
		sb_adds(&sb, p);
		free(prefix);
		free(cur);
		cur = sb_detach(&sb);
	}
	return cur;
}

static void build_child_argv(const struct kat_unit *u, const char *library,
			     struct strlist *argv)
{
	sl_push_owned(argv, ngcc_program("ngcc-perf-kat"));
	sl_push(argv, "--lib");
	sl_push(argv, library);
	sl_push(argv, "--id");
	sl_push(argv, u->id);
	sl_push(argv, "--label");
	sl_push(argv, u->stem);
	if (u->records > 0) {
		sl_push(argv, "--records");
		sl_push_owned(argv, xasprintf("%d", u->records));
	}
	if (u->ref.manifest.file) {
		sl_push(argv, "--manifest-digest");
		sl_push(argv, u->ref.manifest.digest);
		sl_push(argv, "--manifest-mode");
		sl_push_owned(argv, kat_mode_format(&u->ref.manifest.mode));
		sl_push(argv, "--manifest-file");
		sl_push(argv, u->ref.manifest.file);
	} else if (u->ref.path) {
		sl_push(argv, "--reference");
		sl_push(argv, u->ref.path);
	}
}

/* Split the child's fd-3 output: "key = value" lines, "TEXT <n>" and n
 * bytes of text, and the final "RESULT ..." line.  Tolerates a truncated
 * stream (the child died): whatever is there is kept. */
static void parse_child_output(const char *out, size_t len, struct kat_run *r)
{
	size_t pos = 0;
	while (pos < len) {
		const char *nl = memchr(out + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - out) : len;
		char *line = xstrndup(out + pos, end - pos);
		pos = nl ? end + 1 : len;
		if (str_starts_with(line, "TEXT ")) {
			size_t n = strtoull(line + 5, NULL, 10);
			if (n > len - pos)
				n = len - pos;
			free(r->text);
			r->text = xstrndup(out + pos, n);
			r->text_len = n;
			pos += n;
		} else if (str_starts_with(line, "RESULT ")) {
			free(r->result_line);
			r->result_line = line;
			continue;
		} else if (strstr(line, " = ")) {
			sl_push(&r->meta, line);
		}
		free(line);
	}
	if (!r->text)
		r->text = xstrdup("");
}

/* The status: the RESULT line when the exit code confirms it. */
static void decide_status(const struct kat_unit *u, const struct spawn_res *res,
			  double timeout_s, struct kat_run *r)
{
	char *prefix = xasprintf("RESULT %s %s ", u->id, u->stem);
	int claimed = -1;
	const char *detail = NULL;
	if (r->result_line && str_starts_with(r->result_line, prefix)) {
		const char *word = r->result_line + strlen(prefix);
		size_t n = strcspn(word, " ");
		char *name = xstrndup(word, n);
		claimed = kat_status_parse(name);
		free(name);
		/* The child reports PASS..LOADFAIL; anything else is forged. */
		if (claimed > KAT_LOADFAIL)
			claimed = -1;
		detail = word[n] ? word + n + 1 : NULL;
	}
	free(prefix);

	if (res->timed_out) {
		r->st = KAT_TIMEOUT;
		r->detail = spawn_describe(res, timeout_s);
	} else if (!res->exited && res->term_signal == SIGXCPU) {
		/* Threads can burn CPU time faster than the wall clock runs. */
		r->st = KAT_TIMEOUT;
		r->detail = xasprintf("CPU time limit of %llu s exceeded (SIGXCPU)",
				      (unsigned long long)timeout_s + CPU_LIMIT_MARGIN_S);
	} else if (claimed >= 0 && res->exited && res->exit_code == claimed) {
		r->st = (enum kat_status)claimed;
		r->detail = detail ? xstrdup(detail) : NULL;
		return; /* keep the child's own line */
	} else if (res->exited) {
		r->st = KAT_CRASH;
		r->detail = claimed >= 0
			? xasprintf("exit=%d after reporting %s", res->exit_code,
				    kat_status_name((enum kat_status)claimed))
			: xasprintf("exit=%d", res->exit_code);
	} else {
		r->st = KAT_CRASH;
		r->detail = spawn_describe(res, timeout_s);
	}
	free(r->result_line);
	r->result_line = xasprintf("RESULT %s %s %s %s", u->id, u->stem,
				   kat_status_name(r->st), r->detail);
}

/* A scratch working directory: candidates may write files (an output/
 * folder, debug dumps) and must not litter the evidence. */
static char *make_scratch(const struct kat_unit *u)
{
	char *dir = ws_path(u->ctx, "build/%s/kat/.work-%s", u->id, u->stem);
	rm_rf(dir);
	if (mkdir_p(dir, 0755) != 0) {
		ngcc_error("cannot create %s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

/* 0 if the child ran (whatever its status), -1 on a system error. */
static int run_child(const struct kat_unit *u, const char *library,
		     const struct kat_opts *o, struct kat_run *r)
{
	struct strlist argv = STRLIST_INIT;
	build_child_argv(u, library, &argv);
	sl_push_owned(&argv, NULL); /* terminator (n counts it; harmless) */
	char *scratch = make_scratch(u);
	if (!scratch) {
		sl_free(&argv);
		return -1;
	}
	struct spawn_req req = {
		.path = argv.items[0],
		.argv = argv.items,
		.cwd = scratch,
		.cpu = -1,
		.timeout_s = o->timeout_s,
		.lim = {
			.as_bytes = LIMIT_AS,
			.cpu_s = (unsigned long long)o->timeout_s + CPU_LIMIT_MARGIN_S,
			.fsize_bytes = LIMIT_FSIZE,
			.nproc = LIMIT_NPROC,
		},
		.want_result = 1,
		.tail_bytes = TAIL_BYTES,
	};
	struct spawn_res res;
	int rc = spawn_run(&req, &res);
	rm_rf(scratch);
	free(scratch);
	sl_free(&argv);
	if (rc != 0)
		return -1;
	parse_child_output(res.result, res.result_len, r);
	decide_status(u, &res, o->timeout_s, r);
	char *rel = relativize(r->result_line, u->ctx->workspace);
	free(r->result_line);
	r->result_line = rel;
	r->child = spawn_describe(&res, o->timeout_s);
	r->wall_s = res.wall_s;
	r->out_tail = res.out_tail;
	r->err_tail = res.err_tail;
	res.out_tail = res.err_tail = NULL;
	spawn_res_free(&res);
	return 0;
}

/* ---- evidence ---- */

/* The child's value for key; NULL when absent or empty. */
static const char *meta_value(const struct strlist *meta, const char *key)
{
	size_t kl = strlen(key);
	for (size_t i = 0; i < meta->n; i++)
		if (!strncmp(meta->items[i], key, kl) &&
		    !strncmp(meta->items[i] + kl, " = ", 3))
			return meta->items[i][kl + 3] ? meta->items[i] + kl + 3 : NULL;
	return NULL;
}

static void add_tail(struct strbuf *log, const char *what, const char *tail)
{
	if (!tail || !*tail)
		return;
	sb_addf(log, "--- %s (last %d bytes at most) ---\n", what, TAIL_BYTES);
	const char *p = tail;
	while (*p) {
		size_t n = strcspn(p, "\n");
		/* Prefixed so that candidate output can never pass for one of
		 * our header or RESULT lines. */
		sb_adds(log, "| ");
		sb_add(log, p, n);
		sb_addc(log, '\n');
		p += n + (p[n] == '\n');
	}
}

struct log_facts {
	const char *flags;          /* build.json "flags" */
	const char *library;        /* workspace-relative */
	const char *library_sha256;
	const char *guide_result;   /* set on a fallback retest */
	const char *note;           /* free text, e.g. why there was no run */
};

static void add_header(struct strbuf *log, const struct kat_unit *u,
		       const struct kat_run *r, const struct log_facts *f,
		       double timeout_s)
{
	const struct strlist *m = &r->meta;
	const char *v;
	sb_addf(log, "id = %s\nlabel = %s\n", u->id, u->stem);
	v = meta_value(m, "instance");
	sb_addf(log, "instance = %s\n", v ? v : u->ic->instance ? u->ic->instance : "");
	v = meta_value(m, "variant");
	sb_addf(log, "variant = %s\n", v ? v : u->ic->variant ? u->ic->variant : "");
	v = meta_value(m, "flags");
	sb_addf(log, "flags = %s\n", v ? v : f->flags ? f->flags : "");
	static const char *const copied[] = { "compiler", "runtime", "pk_bytes",
		"sk_bytes", "ct_bytes", "ss_bytes", "library_label" };
	for (size_t i = 0; i < sizeof copied / sizeof copied[0]; i++)
		if ((v = meta_value(m, copied[i])))
			sb_addf(log, "%s = %s\n", copied[i], v);
	sb_addf(log, "library = %s\n", f->library ? f->library : "");
	sb_addf(log, "library_sha256 = %s\n", f->library_sha256 ? f->library_sha256 : "");
	if (u->ref.manifest.file) {
		char *mode = kat_mode_format(&u->ref.manifest.mode);
		sb_addf(log, "manifest %s %s %s\n", u->ref.manifest.digest, mode,
			u->ref.manifest.file);
		free(mode);
	} else {
		sb_addf(log, "reference = %s\n", u->ref.path_rel ? u->ref.path_rel : "none");
	}
	if ((v = meta_value(m, "records")))
		sb_addf(log, "records = %s\n", v);
	sb_addf(log, "timeout = %g\n", timeout_s);
	if (r->child)
		sb_addf(log, "child = %s\nwall_s = %.3f\n", r->child, r->wall_s);
	if (f->guide_result)
		sb_addf(log, "guide_result = %s\n", f->guide_result);
	if (f->note)
		sb_addf(log, "note = %s\n", f->note);
}

static char *compose_log(const struct kat_unit *u, const struct kat_run *r,
			 const struct log_facts *f, double timeout_s)
{
	struct strbuf log = STRBUF_INIT;
	add_header(&log, u, r, f, timeout_s);
	if (r->child) {
		struct kat_mode strict = { 0, 0 };
		char hex[65];
		kat_canonical_digest(r->text, r->text_len, &strict, hex);
		sb_addf(&log, "generated_records = %d\n",
			kat_count_records(r->text, r->text_len));
		sb_addf(&log, "generated_sha256 = %s\n", hex);
	}
	add_tail(&log, "candidate stderr", r->err_tail);
	add_tail(&log, "candidate stdout", r->out_tail);
	sb_addf(&log, "%s\n", r->result_line);
	char *rel = relativize(log.buf, u->ctx->workspace);
	sb_free(&log);
	return rel;
}

/* Write <stem><suffix>.log and, when text is given, <stem>.txt; fill the
 * log's workspace-relative path and SHA-256.  0 or -1 (printed). */
static int write_kat_files(const struct kat_unit *u, const char *suffix,
			   const char *log, const struct kat_run *r,
			   char **log_rel, char hex[65])
{
	char *dir = ws_path(u->ctx, "build/%s/kat", u->id);
	int rc = mkdir_p(dir, 0755);
	free(dir);
	*log_rel = xasprintf("build/%s/kat/%s%s.log", u->id, u->stem, suffix);
	char *log_path = path_join(u->ctx->workspace, *log_rel);
	if (rc == 0)
		rc = atomic_write(log_path, log, strlen(log));
	if (rc == 0 && r && r->child && !*suffix) {
		char *txt = ws_path(u->ctx, "build/%s/kat/%s.txt", u->id, u->stem);
		rc = atomic_write(txt, r->text, r->text_len);
		if (rc != 0)
			ngcc_error("cannot write %s: %s", txt, strerror(errno));
		free(txt);
	} else if (rc != 0) {
		ngcc_error("cannot write %s: %s", log_path, strerror(errno));
	}
	sha256_hex(log, strlen(log), hex);
	free(log_path);
	return rc;
}

/* Record the KAT fields under the build.json lock. */
static int record_status(const struct kat_unit *u, enum kat_status st,
			 const char *log_rel, const char *log_sha,
			 const char *guide_result)
{
	const char *ws = u->ctx->workspace;
	int lock = build_json_lock(ws, u->id);
	char *err = NULL;
	json_t *doc = build_json_load(ws, u->id, &err);
	if (!doc) {
		ngcc_error("%s", err);
		free(err);
		build_json_unlock(lock);
		return -1;
	}
	json_t *e = build_json_ensure(doc, u->key);
	build_json_set_kat(e, kat_status_name(st), st != KAT_PASS, log_rel, log_sha);
	if (guide_result)
		build_json_set_guide_result(e, guide_result);
	int rc = build_json_save(ws, u->id, doc);
	if (rc != 0)
		ngcc_error("cannot write %s/build/%s/build.json: %s", ws, u->id,
			   strerror(errno));
	json_decref(doc);
	build_json_unlock(lock);
	return rc;
}

/* guide_result alone, when the fallback rebuild failed. */
static int record_guide_result(const struct kat_unit *u, const char *status)
{
	int lock = build_json_lock(u->ctx->workspace, u->id);
	char *err = NULL;
	json_t *doc = build_json_load(u->ctx->workspace, u->id, &err);
	int rc = -1;
	if (doc) {
		build_json_set_guide_result(build_json_ensure(doc, u->key), status);
		rc = build_json_save(u->ctx->workspace, u->id, doc);
	}
	if (rc != 0)
		ngcc_error("cannot update build/%s/build.json: %s", u->id,
			   err ? err : strerror(errno));
	free(err);
	json_decref(doc);
	build_json_unlock(lock);
	return rc;
}

/* ---- one instance ---- */

/* The line of a compiler's output that says what failed (RESULT lines are
 * one line; the build log has the rest). */
static char *telling_line(const char *output)
{
	static const char *const marks[] = { "undefined reference", "error:", "error" };
	for (size_t k = 0; k < sizeof marks / sizeof marks[0]; k++) {
		const char *hit = strstr(output, marks[k]);
		if (!hit)
			continue;
		const char *start = hit;
		while (start > output && start[-1] != '\n')
			start--;
		return xstrndup(start, strcspn(start, "\r\n"));
	}
	output += strspn(output, "\r\n");
	return xstrndup(output, strcspn(output, "\r\n"));
}

/* The library of the instance per build.json, or NULL with *why. */
static char *built_library(const struct kat_unit *u, json_t *entry, char **why)
{
	const char *lib = jget_str(entry, "library", NULL);
	if (!entry) {
		*why = xasprintf("not built: no entry %s in build/%s/build.json "
				 "(run `ngcc-perf build %s`)", u->key, u->id, u->id);
		return NULL;
	}
	if (!lib) {
		const char *err = jget_str(entry, "build_error", NULL);
		*why = err ? telling_line(err) : xstrdup("the build produced no library");
		return NULL;
	}
	char *path = path_join(u->ctx->workspace, lib);
	if (!path_is_file(path)) {
		*why = xasprintf("%s is missing (run `ngcc-perf build %s` again)", lib, u->id);
		free(path);
		return NULL;
	}
	return path;
}

/* Run the child once and write its evidence (log suffix "" for the run
 * that counts).  0, or -1 on a system error. */
static int test_library(const struct kat_unit *u, const char *library,
			json_t *entry, const struct kat_opts *o,
			const char *suffix, const char *guide_result,
			struct kat_run *r)
{
	if (run_child(u, library, o, r) != 0)
		return -1;
	char sha[65];
	if (sha256_file_hex(library, sha) != 0)
		sha[0] = '\0';
	struct log_facts f = {
		.flags = jget_str(entry, "flags", NULL),
		.library = jget_str(entry, "library", NULL),
		.library_sha256 = sha,
		.guide_result = guide_result,
	};
	char *log = compose_log(u, r, &f, o->timeout_s), *log_rel = NULL;
	char hex[65];
	int rc = write_kat_files(u, suffix, log, r, &log_rel, hex);
	if (rc == 0 && !*suffix)
		rc = record_status(u, r->st, log_rel, hex, guide_result);
	free(log_rel);
	free(log);
	return rc;
}

static int report_buildfail(const struct kat_unit *u, json_t *entry,
			    const struct kat_opts *o, char *why)
{
	struct kat_run r = { .st = KAT_BUILDFAIL };
	r.text = xstrdup("");
	r.result_line = xasprintf("RESULT %s %s BUILDFAIL %s", u->id, u->stem, why);
	struct log_facts f = {
		.flags = jget_str(entry, "flags", NULL),
		.note = "not run: no library",
	};
	char *log = compose_log(u, &r, &f, o->timeout_s), *log_rel = NULL;
	char hex[65];
	int rc = write_kat_files(u, "", log, NULL, &log_rel, hex);
	/* No text was generated: drop an earlier run's. */
	char *txt = ws_path(u->ctx, "build/%s/kat/%s.txt", u->id, u->stem);
	unlink(txt);
	free(txt);
	/* An instance without a build.json entry was never built: leave
	 * build.json to `build`. */
	if (rc == 0 && entry)
		rc = record_status(u, KAT_BUILDFAIL, log_rel, hex, NULL);
	printf("%s\n", r.result_line);
	free(log_rel);
	free(log);
	free(why);
	kat_run_free(&r);
	return rc;
}

/*
 * Method §2.1: rebuild with the harness-default profile and retest.
 * Returns 1 if a retest ran (into *retest), 0 if the rebuild failed, -1 on
 * a system error.
 */
static int fallback_rebuild(const struct kat_unit *u, const struct kat_opts *o,
			    const char *guide_status, struct kat_run *retest)
{
	struct build_outcome out;
	memset(&out, 0, sizeof out);
	int rc = build_instance(u->ctx->workspace, u->conf, u->ic,
				PROFILE_HARNESS_DEFAULT, &out);
	if (rc != 0) {
		if (rc > 0)
			ngcc_warning("%s %s: harness-default rebuild failed (%s); "
				     "keeping the guide result", u->id, u->stem,
				     out.error ? out.error : "no details");
		build_outcome_free(&out);
		return rc > 0 ? 0 : -1;
	}
	/* Record the new build's fields before testing it. */
	int lock = build_json_lock(u->ctx->workspace, u->id);
	char *err = NULL;
	json_t *doc = build_json_load(u->ctx->workspace, u->id, &err);
	json_t *entry = doc ? build_json_ensure(doc, u->key) : NULL;
	if (!doc || build_record_outcome(u->ctx->workspace, u->conf, u->ic, entry,
						&out, &err) != 0 ||
	    build_json_save(u->ctx->workspace, u->id, doc) != 0) {
		ngcc_error("%s %s: cannot record the harness-default build: %s", u->id,
			   u->stem, err ? err : strerror(errno));
		free(err);
		json_decref(doc);
		build_json_unlock(lock);
		build_outcome_free(&out);
		return -1;
	}
	build_json_unlock(lock);
	char *library = path_join(u->ctx->workspace, out.library);
	rc = test_library(u, library, entry, o, "", guide_status, retest);
	free(library);
	json_decref(doc);
	build_outcome_free(&out);
	return rc == 0 ? 1 : -1;
}

/*
 * Method §2.2: a timed-out run gets a one-record recheck, so that a slow
 * but correct candidate can be told from a broken one (the campaign calls
 * it PARTIAL).  Only against a reference file: a manifest digest covers a
 * fixed number of records.  Writes <label>.recheck.log; the status stays
 * TIMEOUT.
 */
static int recheck_timeout(const struct kat_unit *u, const char *library,
			   json_t *entry, const struct kat_opts *o)
{
	if (!u->ref.path)
		return 0;
	struct kat_unit one = *u;
	one.records = 1;
	struct kat_run r = { 0 };
	int rc = test_library(&one, library, entry, o, ".recheck", NULL, &r);
	if (rc == 0)
		fprintf(stderr, "ngcc-perf: %s %s: timed out; one-record recheck: %s "
			"(build/%s/kat/%s.recheck.log)\n", u->id, u->stem,
			kat_status_name(r.st), u->id, u->stem);
	kat_run_free(&r);
	return rc;
}

static int wants_fallback(const struct kat_opts *o, json_t *entry,
			  enum kat_status st)
{
	const char *flags = jget_str(entry, "flags", "");
	/* NOKAT says nothing about the build: other flags cannot help. */
	return o->fallback && st != KAT_PASS && st != KAT_NOKAT &&
	       !strcmp(flags, build_profile_name(PROFILE_GUIDE));
}

/* Keep the guide run's log as <label>.guide.log before the retest
 * replaces <label>.log. */
static void keep_guide_log(const struct kat_unit *u)
{
	char *log_path = ws_path(u->ctx, "build/%s/kat/%s.log", u->id, u->stem);
	char *log = NULL, *guide_log = NULL, hex[65];
	size_t len;
	if (read_file(log_path, &log, &len) == 0)
		write_kat_files(u, ".guide", log, NULL, &guide_log, hex);
	free(log);
	free(log_path);
	free(guide_log);
}

/* Test one instance, with the fallback and the timeout recheck.  Returns
 * its final status, or -1 on a system error. */
static int kat_instance(const struct kat_unit *u, json_t *entry,
			const struct kat_opts *o)
{
	char *why = NULL;
	char *library = built_library(u, entry, &why);
	if (!library)
		return report_buildfail(u, entry, o, why) == 0 ? KAT_BUILDFAIL : -1;

	struct kat_run first = { 0 }, retest = { 0 };
	int rc = test_library(u, library, entry, o, "", NULL, &first);
	int final = rc == 0 ? (int)first.st : -1;
	const struct kat_run *shown = &first;
	if (rc == 0 && wants_fallback(o, entry, first.st)) {
		fprintf(stderr, "ngcc-perf: %s %s: %s with the guide flags; rebuilding "
			"with harness-default and testing again\n", u->id, u->stem,
			kat_status_name(first.st));
		keep_guide_log(u);
		int fb = fallback_rebuild(u, o, kat_status_name(first.st), &retest);
		if (fb < 0)
			final = -1;
		else if (fb == 1) {
			final = (int)retest.st;
			shown = &retest;
		} else if (record_guide_result(u, kat_status_name(first.st)) != 0) {
			/* The rebuild failed: the guide status stands. */
			final = -1;
		}
	}
	/* The library path is the same after a fallback rebuild. */
	if (final == KAT_TIMEOUT && recheck_timeout(u, library, entry, o) != 0)
		final = -1;
	if (u->ctx->tty)
		fprintf(stderr, "\r\033[K");
	if (final >= 0 && shown->result_line)
		printf("%s\n", shown->result_line);
	fflush(stdout);
	free(library);
	kat_run_free(&first);
	kat_run_free(&retest);
	return final;
}

/* ---- one candidate ---- */

static char *read_optional(const char *path)
{
	char *data = NULL;
	size_t len;
	if (!path_is_file(path) || read_file(path, &data, &len) != 0)
		return NULL;
	return data;
}

struct kat_totals {
	int tested, passed;
	int worst_exit;
	int k, n; /* progress */
};

static void progress(const struct cli_ctx *ctx, struct kat_totals *t,
		     const char *id, const char *label)
{
	if (!ctx->tty)
		return;
	if (id)
		fprintf(stderr, "\r\033[K[%d/%d] kat %s %s ...", t->k, t->n, id, label);
	else
		fprintf(stderr, "\r\033[K");
	fflush(stderr);
}

static void note_exit(struct kat_totals *t, int code)
{
	if (code > t->worst_exit)
		t->worst_exit = code;
}

static void kat_candidate(const struct cli_ctx *ctx, const char *id,
			  const struct kat_opts *o, struct kat_totals *t)
{
	char *conf_path = ws_path(ctx, "candidates/%s/candidate.conf", id);
	char *manifest_path = ws_path(ctx, "candidates/%s/kat.sha256", id);
	char *bj_path = build_json_path(ctx->workspace, id);
	struct candidate_conf conf;
	char *err = NULL;
	memset(&conf, 0, sizeof conf);
	if (!path_is_file(conf_path)) {
		ngcc_error("%s: no such candidate in %s (no %s); add it with "
			   "`ngcc-perf add PACKAGE --id %s`", id, ctx->workspace,
			   conf_path, id);
		note_exit(t, EXIT_INPUT);
		goto out;
	}
	if (conf_read(conf_path, &conf, &err) != 0) {
		ngcc_error("%s (fix the file, or re-add the candidate)", err);
		note_exit(t, EXIT_INPUT);
		goto out;
	}
	if (!path_is_file(bj_path)) {
		ngcc_error("%s: not built (no %s); run `ngcc-perf build %s` first",
			   id, bj_path, id);
		note_exit(t, EXIT_INPUT);
		goto out;
	}
	json_t *doc = build_json_load(ctx->workspace, id, &err);
	if (!doc) {
		ngcc_error("%s", err);
		note_exit(t, EXIT_INPUT);
		goto out;
	}
	char *manifest = read_optional(manifest_path);
	char *kat_dir = ws_path(ctx, "build/%s/kat", id);
	if (path_is_dir(kat_dir))
		atomic_sweep_stale(kat_dir);
	free(kat_dir);
	for (size_t i = 0; i < conf.n_inst; i++) {
		struct instance_conf *ic = &conf.inst[i];
		if (!ic->enabled)
			continue;
		struct kat_unit u = { .ctx = ctx, .conf = &conf, .ic = ic, .id = id };
		u.stem = build_stem(ic);
		u.key = build_json_key(id, u.stem);
		t->k++;
		progress(ctx, t, id, u.stem);
		if (find_reference(&u, manifest, manifest_path) != 0) {
			note_exit(t, EXIT_INPUT);
		} else {
			int st = kat_instance(&u, build_json_entry(doc, u.key), o);
			progress(ctx, t, NULL, NULL);
			if (st < 0)
				note_exit(t, EXIT_SYSTEM);
			t->tested++;
			t->passed += st == KAT_PASS;
		}
		kat_manifest_entry_free(&u.ref.manifest);
		free(u.ref.path);
		free(u.ref.path_rel);
		free(u.stem);
		free(u.key);
	}
	free(manifest);
	json_decref(doc);
out:
	free(err);
	conf_free(&conf);
	free(conf_path);
	free(manifest_path);
	free(bj_path);
}

static int count_instances(const struct cli_ctx *ctx, const struct strlist *ids)
{
	int n = 0;
	for (size_t i = 0; i < ids->n; i++) {
		char *p = ws_path(ctx, "candidates/%s/candidate.conf", ids->items[i]);
		struct candidate_conf c;
		char *err = NULL;
		memset(&c, 0, sizeof c);
		if (conf_read(p, &c, &err) == 0)
			for (size_t k = 0; k < c.n_inst; k++)
				n += c.inst[k].enabled;
		free(err);
		conf_free(&c);
		free(p);
	}
	return n;
}

static int parse_timeout(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || !(v > 0) || v > 30 * 86400.0)
		return -1;
	*out = v;
	return 0;
}

int cmd_kat(int argc, char **argv, const struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "timeout", required_argument, NULL, 't' },
		{ "no-fallback", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kat_opts o = { DEFAULT_TIMEOUT_S, 1 };
	int c;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_timeout(optarg, &o.timeout_s) != 0) {
				ngcc_error("--timeout %s: expected a positive number of seconds",
					   optarg);
				return EXIT_USAGE;
			}
			break;
		case 'F':
			o.fallback = 0;
			break;
		case 'h':
			kat_usage(stdout);
			return EXIT_OK;
		default:
			kat_usage(stderr);
			return EXIT_USAGE;
		}
	}
	struct strlist ids = STRLIST_INIT;
	for (int i = optind; i < argc; i++)
		sl_push(&ids, argv[i]);
	if (ids.n == 0 && list_candidates(ctx, &ids) != 0) {
		sl_free(&ids);
		return EXIT_INPUT;
	}
	struct kat_totals t = { 0 };
	t.n = count_instances(ctx, &ids);
	for (size_t i = 0; i < ids.n; i++)
		kat_candidate(ctx, ids.items[i], &o, &t);
	progress(ctx, &t, NULL, NULL);
	sl_free(&ids);
	if (t.worst_exit > EXIT_FAILED)
		return t.worst_exit;
	if (t.tested == 0) {
		ngcc_error("no enabled instance to test in %s", ctx->workspace);
		return EXIT_INPUT;
	}
	return t.passed == t.tested ? EXIT_OK : EXIT_FAILED;
}
