/*
 * gate.c — the KAT gate (docs/method.md §2.2), behind `ngcc-perf kat` and
 * `campaign`.
 *
 * For every enabled instance that `build` compiled, run bin/ngcc-perf-kat
 * in its own process group with resource limits and a hard timeout; the
 * candidate never runs in this process.  The child's RESULT line (on fd 3)
 * is the status only if its exit code confirms it; a child that ends
 * without one is a CRASH, a killed one a TIMEOUT.  Evidence:
 * build/<ID>/kat/<label>.log (kat/katlog.h) and .txt, and the KAT fields of
 * build/<ID>/build.json.  A guide-built library that does not PASS is
 * rebuilt once with the harness-default profile and retested (docs/method.md
 * §2.1); the first status is kept as guide_result.
 */
#include "kat/gate.h"
#include "kat/gate_int.h"

#include "build/build.h"
#include "build/select.h"
#include "evidence/build_json.h"
#include "evidence/json.h"
#include "evidence/paths.h"
#include "host/cpufeat.h"
#include "kat/katcompare.h"
#include "kat/katgen.h"
#include "kat/katlog.h"
#include "method/baseline.h"
#include "method/cpuext.h"
#include "method/types.h"
#include "package/conf.h"
#include "proc/command.h"
#include "proc/spawn.h"
#include "util/atomic.h"
#include "util/fsutil.h"
#include "util/untrusted.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Address space: KAT_2_33's 1 GiB message (docs/iccs.md §4.5), a copy of
 * it a candidate may make, the 1 GiB of text the gate's pipe accepts at
 * most, and room for the candidate's own state. */
#define LIMIT_AS (8ULL << 30)
#define LIMIT_FSIZE (1ULL << 30)
#define LIMIT_NPROC 64
#define CPU_LIMIT_MARGIN_S 10

void gate_run_free(struct kat_run *r)
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

/* ---- finding candidates and references ---- */

static int list_candidates(const char *workspace, struct strlist *ids)
{
	char *dir = path_joinf(workspace, "candidates");
	if (dir_list_having(dir, "candidate.conf", ids)) {
		ngcc_error("no candidates in workspace %s (%s: %s); add one with "
			   "`ngcc-perf add PACKAGE`", workspace, dir, strerror(errno));
		free(dir);
		return -1;
	}
	free(dir);
	return 0;
}

/* A hash instance tested file by file (an ICCS baseline instance has its
 * one self-test instead). */
static int is_hash_files(const struct kat_unit *u)
{
	const struct cand_type *t = cand_type_find(u->ic->type);
	return t && t->kat_files && !u->selftest;
}

/* The instance directory's name: the label without its variant's tag
 * ("+avx2" and the like), which a variant shares with its reference; a '+'
 * of the folder's own name ("Foo+-I") stays. */
static char *manifest_label(const struct instance_conf *ic)
{
	const char *tag = variant_tag(ic->variant);
	char *suffix = tag ? xasprintf("+%s", tag) : NULL;
	size_t n = strlen(ic->label);
	char *label = suffix && str_ends_with(ic->label, suffix)
		? xstrndup(ic->label, n - strlen(suffix)) : xstrdup(ic->label);
	free(suffix);
	return label;
}

/* The submitted KAT file of the instance: its type's prefix and
 * ALGORITHM_INSTANCE, else the name of the conf's kat_reference. */
static char *kat_file_name(const struct instance_conf *ic)
{
	const struct cand_type *t = cand_type_find(ic->type ? ic->type : "kem");
	if (ic->instance)
		return xasprintf("%s%s.txt", t ? t->kat_prefix : "KAT_KEM_", ic->instance);
	if (ic->kat_reference)
		return xstrdup(path_basename(ic->kat_reference));
	return NULL;
}

int gate_find_reference(struct kat_unit *u, const char *file, const char *fallback, int exact)
{
	memset(&u->ref, 0, sizeof u->ref);
	if (u->manifest) {
		char *label = manifest_label(u->ic), *err = NULL;
		int found = kat_manifest_find(u->manifest, label, file, &u->ref.manifest, &err);
		free(label);
		if (found < 0) {
			ngcc_error("%s: %s", u->manifest_path, err);
			free(err);
			return -1;
		}
		if (found && exact && (!file || strcmp(path_basename(u->ref.manifest.file), file))) {
			kat_manifest_entry_free(&u->ref.manifest);
			memset(&u->ref.manifest, 0, sizeof u->ref.manifest);
			found = 0;
		}
		if (found)
			return 0;
	}
	if (fallback) {
		u->ref.path_rel = xasprintf("candidates/%s/source/%s", u->id, fallback);
		u->ref.path = path_join(u->o->workspace, u->ref.path_rel);
	}
	return 0;
}

/* A kat.sha256 entry first, then the conf's kat_reference (a hash
 * instance's four files are looked up one by one in gate_hash.c). */
static int find_reference(struct kat_unit *u)
{
	if (is_hash_files(u)) {
		memset(&u->ref, 0, sizeof u->ref);
		return 0;
	}
	char *file = kat_file_name(u->ic);
	int rc = gate_find_reference(u, file, u->ic->kat_reference, 0);
	free(file);
	return rc;
}

static void child_command(const struct kat_unit *u, const char *library,
			  struct child_cmd *cmd)
{
	child_cmd_init(cmd, "ngcc-perf-kat");
	child_cmd_arg(cmd, "--lib");
	child_cmd_arg(cmd, library);
	child_cmd_arg(cmd, "--id");
	child_cmd_arg(cmd, u->id);
	child_cmd_arg(cmd, "--label");
	child_cmd_arg(cmd, u->stem);
	if (u->records > 0) {
		child_cmd_arg(cmd, "--records");
		child_cmd_argf(cmd, "%d", u->records);
	}
	if (u->hash_file) {
		child_cmd_arg(cmd, "--hash-file");
		child_cmd_arg(cmd, u->hash_file);
	}
	if (u->selftest)
		child_cmd_arg(cmd, "--selftest");
	if (u->ref.manifest.file) {
		char *mode = kat_mode_format(&u->ref.manifest.mode);
		child_cmd_arg(cmd, "--manifest-digest");
		child_cmd_arg(cmd, u->ref.manifest.digest);
		child_cmd_arg(cmd, "--manifest-mode");
		child_cmd_arg(cmd, mode);
		child_cmd_arg(cmd, "--manifest-file");
		child_cmd_arg(cmd, u->ref.manifest.file);
		free(mode);
	} else if (u->ref.path) {
		child_cmd_arg(cmd, "--reference");
		child_cmd_arg(cmd, u->ref.path);
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
		/* rebuilt rather than kept: the detail quotes candidate text */
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
	r->result_line = katlog_result_line(u->id, u->stem, kat_status_name(r->st), r->detail);
}

/* A scratch working directory: candidates may write files (an output/
 * folder, debug dumps) and must not litter the evidence. */
static char *make_scratch(const struct kat_unit *u)
{
	char *dir = path_joinf(u->o->workspace, "build/%s/kat/.work-%s", u->id, u->stem);
	rm_rf(dir);
	if (mkdir_p(dir, 0755) != 0) {
		ngcc_error("cannot create %s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

/* 0 if the child ran (whatever its status), -1 on a system error. */
int gate_run_child(const struct kat_unit *u, const char *library,
		   const struct kat_gate_opts *o, struct kat_run *r)
{
	char *scratch = make_scratch(u);
	if (!scratch)
		return -1;
	struct child_cmd cmd;
	child_command(u, library, &cmd);
	struct spawn_req req = {
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
		.tail_bytes = GATE_TAIL_BYTES,
		.on_result = u->progress ? gate_progress_feed : NULL,
		.on_result_arg = u->progress,
	};
	struct spawn_res res;
	int rc = child_cmd_run(&cmd, &req, &res);
	rm_rf(scratch);
	free(scratch);
	child_cmd_free(&cmd);
	if (rc != 0)
		return -1;
	if (res.strays_killed > 0)
		ngcc_warning("%s %s: the KAT child left %d process(es) running after it ended; "
			     "they were killed (see its log's child line)", u->id, u->stem,
			     res.strays_killed);
	parse_child_output(res.result, res.result_len, r);
	decide_status(u, &res, o->timeout_s, r);
	char *rel = path_hide_ours(r->result_line, u->o->workspace, NULL);
	free(r->result_line);
	r->result_line = rel;
	r->child = spawn_describe(&res, o->timeout_s);
	r->wall_s = res.wall_s;
	r->max_rss_kib = res.ru.ru_maxrss;
	r->out_tail = res.out_tail;
	r->err_tail = res.err_tail;
	res.out_tail = res.err_tail = NULL;
	spawn_res_free(&res);
	return 0;
}

void gate_add_header(struct strbuf *log, const struct kat_unit *u,
		       const struct kat_run *r, const struct log_facts *f,
		       double timeout_s)
{
	const struct strlist *m = &r->meta;
	const char *v;
	katlog_field(log, "id", u->id);
	katlog_field(log, "label", u->stem);
	v = katlog_meta_value(m, "instance");
	katlog_field(log, "instance", v ? v : u->ic->instance ? u->ic->instance : "");
	v = katlog_meta_value(m, "variant");
	katlog_field(log, "variant", v ? v : u->ic->variant ? u->ic->variant : "");
	v = katlog_meta_value(m, "flags");
	katlog_field(log, "flags", v ? v : f->flags ? f->flags : "");
	static const char *const copied[] = { "compiler", "runtime", "pk_bytes",
		"sk_bytes", "ct_bytes", "ss_bytes", "sig_bytes", "sta_bytes", "stb_bytes",
		"msg_bytes", "passes", "digest_bits", "library_label" };
	for (size_t i = 0; i < sizeof copied / sizeof copied[0]; i++)
		if ((v = katlog_meta_value(m, copied[i])))
			katlog_field(log, copied[i], v);
	katlog_field(log, "library", f->library ? f->library : "");
	katlog_field(log, "library_sha256", f->library_sha256 ? f->library_sha256 : "");
	if (u->ref.manifest.file) {
		char *mode = kat_mode_format(&u->ref.manifest.mode);
		katlog_manifest(log, u->ref.manifest.digest, mode, u->ref.manifest.file);
		free(mode);
	} else if (!f->per_file_references) {
		katlog_field(log, "reference", u->ref.path_rel ? u->ref.path_rel : "none");
	}
	if ((v = katlog_meta_value(m, "records")))
		katlog_field(log, "records", v);
	katlog_fieldf(log, "timeout", "%g", timeout_s);
	if (r->child) {
		katlog_field(log, "child", r->child);
		katlog_fieldf(log, "wall_s", "%.3f", r->wall_s);
	}
	if (f->guide_result)
		katlog_field(log, "guide_result", f->guide_result);
	if (f->note)
		katlog_field(log, "note", f->note);
}

static char *compose_log(const struct kat_unit *u, const struct kat_run *r,
			 const struct log_facts *f, double timeout_s)
{
	struct strbuf log = STRBUF_INIT;
	gate_add_header(&log, u, r, f, timeout_s);
	if (r->child) {
		struct kat_mode strict = { 0, 0 };
		char hex[65];
		kat_canonical_digest(r->text, r->text_len, &strict, hex);
		katlog_fieldf(&log, "generated_records", "%d",
			      kat_count_records(r->text, r->text_len));
		katlog_field(&log, "generated_sha256", hex);
	}
	katlog_tail(&log, "candidate stderr", r->err_tail, GATE_TAIL_BYTES);
	katlog_tail(&log, "candidate stdout", r->out_tail, GATE_TAIL_BYTES);
	sb_addf(&log, "%s\n", r->result_line);
	char *rel = path_hide_ours(log.buf, u->o->workspace, NULL);
	sb_free(&log);
	return rel;
}

/* Write <stem><suffix>.log and, when text is given, <stem>.txt; fill the
 * log's workspace-relative path and SHA-256.  0 or -1 (printed). */
int gate_write_files(const struct kat_unit *u, const char *suffix, const char *log,
		     const struct kat_run *r, char **log_rel, char hex[65])
{
	char *dir = path_joinf(u->o->workspace, "build/%s/kat", u->id);
	int rc = mkdir_p(dir, 0755);
	free(dir);
	*log_rel = xasprintf("build/%s/kat/%s%s.log", u->id, u->stem, suffix);
	char *log_path = path_join(u->o->workspace, *log_rel);
	if (rc == 0)
		rc = atomic_write(log_path, log, strlen(log));
	if (rc == 0 && r && r->child && !*suffix) {
		char *txt = path_joinf(u->o->workspace, "build/%s/kat/%s.txt", u->id, u->stem);
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
int gate_record_status(const struct kat_unit *u, enum kat_status st, const char *log_rel,
		       const char *log_sha, const char *guide_result)
{
	const char *ws = u->o->workspace;
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
	int lock = build_json_lock(u->o->workspace, u->id);
	char *err = NULL;
	json_t *doc = build_json_load(u->o->workspace, u->id, &err);
	int rc = -1;
	if (doc) {
		build_json_set_guide_result(build_json_ensure(doc, u->key), status);
		rc = build_json_save(u->o->workspace, u->id, doc);
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
	char *path = path_join(u->o->workspace, lib);
	if (!path_is_file(path)) {
		*why = xasprintf("%s is missing (run `ngcc-perf build %s` again)", lib, u->id);
		free(path);
		return NULL;
	}
	return path;
}

void gate_log_facts(struct log_facts *f, json_t *entry, const char *library,
		    const char *guide_result, char sha[65])
{
	if (sha256_file_hex(library, sha) != 0)
		sha[0] = '\0';
	memset(f, 0, sizeof *f);
	f->flags = jget_str(entry, "flags", NULL);
	f->library = jget_str(entry, "library", NULL);
	f->library_sha256 = sha;
	f->guide_result = guide_result;
}

/* Run the child once and write its evidence (log suffix "" for the run
 * that counts).  0, or -1 on a system error. */
static int test_library(const struct kat_unit *u, const char *library,
			json_t *entry, const struct kat_gate_opts *o,
			const char *suffix, const char *guide_result,
			struct kat_run *r)
{
	if (is_hash_files(u))
		return gate_test_hash(u, library, entry, o, suffix, guide_result, r);
	if (gate_run_child(u, library, o, r) != 0)
		return -1;
	char sha[65];
	struct log_facts f;
	gate_log_facts(&f, entry, library, guide_result, sha);
	char *log = compose_log(u, r, &f, o->timeout_s), *log_rel = NULL;
	char hex[65];
	int rc = gate_write_files(u, suffix, log, r, &log_rel, hex);
	if (rc == 0 && !*suffix)
		rc = gate_record_status(u, r->st, log_rel, hex, guide_result);
	free(log_rel);
	free(log);
	return rc;
}

/* The instance was not run: no library (KAT_BUILDFAIL), or the host cannot
 * run the variant's code (KAT_UNSUPPORTED_CPU, host/cpufeat.h; nothing of
 * the candidate's is loaded).  Record and print st with the reason why
 * (freed here) and the log's note.  Returns st, or -1 on a system error. */
static int report_not_run(const struct kat_unit *u, json_t *entry,
			  const struct kat_gate_opts *o, enum kat_status st, char *why,
			  const char *note)
{
	struct kat_run r = { .st = st };
	r.text = xstrdup("");
	r.result_line = katlog_result_line(u->id, u->stem, kat_status_name(st), why);
	struct log_facts f = {
		.flags = jget_str(entry, "flags", NULL),
		.note = note,
	};
	char *log = compose_log(u, &r, &f, o->timeout_s), *log_rel = NULL;
	char hex[65];
	int rc = gate_write_files(u, "", log, NULL, &log_rel, hex);
	/* No text was generated: drop an earlier run's. */
	char *txt = path_joinf(u->o->workspace, "build/%s/kat/%s.txt", u->id, u->stem);
	unlink(txt);
	free(txt);
	/* An instance without a build.json entry was never built: leave
	 * build.json to `build`. */
	if (rc == 0 && entry)
		rc = gate_record_status(u, st, log_rel, hex, NULL);
	printf("%s\n", r.result_line);
	free(log_rel);
	free(log);
	free(why);
	gate_run_free(&r);
	return rc == 0 ? (int)st : -1;
}

/* Rebuild the instance with profile and record the new build in
 * build.json (*entry_doc receives the document, entry its entry).
 * Returns 1 built, 0 the compile failed (a warning says why), -1 on a
 * system error. */
static int rebuild_as(const struct kat_unit *u, enum build_profile profile, json_t **doc_out,
		      json_t **entry_out, char **library)
{
	struct build_outcome out;
	memset(&out, 0, sizeof out);
	*doc_out = NULL;
	int rc = build_instance(u->o->workspace, u->conf, u->ic, profile, &out);
	if (rc != 0) {
		if (rc > 0)
			ngcc_warning("%s %s: %s rebuild failed (%s)", u->id, u->stem,
				     build_profile_name(profile), out.error ? out.error : "no details");
		build_outcome_free(&out);
		return rc > 0 ? 0 : -1;
	}
	/* Record the new build's fields before testing it. */
	int lock = build_json_lock(u->o->workspace, u->id);
	char *err = NULL;
	json_t *doc = build_json_load(u->o->workspace, u->id, &err);
	json_t *entry = doc ? build_json_ensure(doc, u->key) : NULL;
	if (!doc || build_record_outcome(u->o->workspace, u->conf, u->ic, entry,
						&out, &err) != 0 ||
	    build_json_save(u->o->workspace, u->id, doc) != 0) {
		ngcc_error("%s %s: cannot record the %s build: %s", u->id, u->stem,
			   build_profile_name(profile), err ? err : strerror(errno));
		free(err);
		json_decref(doc);
		build_json_unlock(lock);
		build_outcome_free(&out);
		return -1;
	}
	build_json_unlock(lock);
	*library = path_join(u->o->workspace, out.library);
	*doc_out = doc;
	*entry_out = entry;
	build_outcome_free(&out);
	return 1;
}

/*
 * Method §2.1: rebuild with the harness-default profile and retest.
 * Returns 1 if a retest ran (into *retest), 0 if the rebuild failed, -1 on
 * a system error.
 */
static int fallback_rebuild(const struct kat_unit *u, const struct kat_gate_opts *o,
			    const char *guide_status, struct kat_run *retest)
{
	json_t *doc, *entry;
	char *library = NULL;
	int rc = rebuild_as(u, PROFILE_HARNESS_DEFAULT, &doc, &entry, &library);
	if (rc <= 0) {
		if (rc == 0)
			ngcc_warning("%s %s: keeping the guide result", u->id, u->stem);
		return rc;
	}
	rc = test_library(u, library, entry, o, "", guide_status, retest);
	free(library);
	json_decref(doc);
	return rc == 0 ? 1 : -1;
}

/*
 * An instance that runs on a harness-default build because its guide
 * build once failed its KAT: rebuild it with the guide flags first, so
 * that a failure since mended (a reference file restored, a source fixed)
 * gives the guide build back; if the guide build still does not pass, the
 * caller falls back again as the first time.  Returns 1 with the guide
 * build recorded and *library its path, 0 when nothing is to restore (or
 * the guide compile fails: the harness-default build stays), -1 on a
 * system error.
 */
static int restore_guide_build(const struct kat_unit *u, const struct kat_gate_opts *o,
			       json_t *entry, char **library, json_t **doc, json_t **fresh)
{
	const char *guide_result = jget_str(entry, "guide_result", NULL);
	if (!o->fallback || !guide_result || !strcmp(guide_result, "BUILDFAIL") ||
	    strcmp(jget_str(entry, "flags", ""), build_profile_name(PROFILE_HARNESS_DEFAULT)))
		return 0;
	fprintf(stderr, "ngcc-perf: %s %s: runs on the harness-default build since its guide "
		"build gave %s; rebuilding with the guide flags to test that again\n", u->id,
		u->stem, guide_result);
	int rc = rebuild_as(u, PROFILE_GUIDE, doc, fresh, library);
	if (rc <= 0)
		return rc;
	build_json_set_guide_result(*fresh, NULL);
	return record_guide_result(u, NULL) ? -1 : 1;
}

/*
 * Method §2.2: a timed-out run gets a one-record recheck, so that a slow
 * but correct candidate can be told from a broken one (the campaign calls
 * it PARTIAL).  Only against a reference file: a manifest digest covers a
 * fixed number of records.  Writes <label>.recheck.log; the status stays
 * TIMEOUT.
 */
static int recheck_timeout(const struct kat_unit *u, const char *library,
			   json_t *entry, const struct kat_gate_opts *o)
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
	gate_run_free(&r);
	return rc;
}

static int wants_fallback(const struct kat_gate_opts *o, const char *flags,
			  const struct kat_run *r)
{
	/* NOKAT says nothing about the build, and PARTIAL (files skipped on
	 * request, the others passed) nothing against it; a MISMATCH whose
	 * reference file is at fault (cut short, no record) says nothing of
	 * the build either: other flags cannot help. */
	if (r->st == KAT_MISMATCH && kat_detail_blames_reference(r->detail))
		return 0;
	return o->fallback && r->st != KAT_PASS && r->st != KAT_NOKAT && r->st != KAT_PARTIAL &&
	       !strcmp(flags, build_profile_name(PROFILE_GUIDE));
}

/* Keep the guide run's log as <label>.guide.log before the retest
 * replaces <label>.log. */
static void keep_guide_log(const struct kat_unit *u)
{
	char *log_path = path_joinf(u->o->workspace, "build/%s/kat/%s.log", u->id, u->stem);
	char *log = NULL, *guide_log = NULL, hex[65];
	size_t len;
	if (read_file(log_path, &log, &len) == 0)
		gate_write_files(u, ".guide", log, NULL, &guide_log, hex);
	free(log);
	free(log_path);
	free(guide_log);
}

/* After a MISMATCH against a reference file: the command that shows every
 * difference, on the canonical form's terms (CRLF, trailing blanks and
 * blank lines ignored), with both texts' paths. */
static void print_diff_hint(const struct kat_unit *u)
{
	if (!u->ref.path)
		return;
	char *gen = path_joinf(u->o->workspace, "build/%s/kat/%s.txt", u->id, u->stem);
	char *qr = sh_quote(u->ref.path), *qg = sh_quote(gen);
	fprintf(stderr, "ngcc-perf: %s %s: every difference: diff --strip-trailing-cr -Z -B %s %s\n",
		u->id, u->stem, qr, qg);
	free(qr);
	free(qg);
	free(gen);
}

/* Test one instance, with the fallback and the timeout recheck.  Returns
 * its final status, or -1 on a system error. */
static int kat_instance(const struct kat_unit *u, json_t *entry,
			const struct kat_gate_opts *o)
{
	char *why = host_cpu_refusal(host_cpu(), conf_cpu_ext(u->ic));
	if (why)
		return report_not_run(u, entry, o, KAT_UNSUPPORTED_CPU, why,
				      "not run: this host lacks the CPU features the variant needs");
	char *library = built_library(u, entry, &why);
	if (!library)
		return report_not_run(u, entry, o, KAT_BUILDFAIL, why, "not run: no library");

	char *guide_library = NULL;
	json_t *guide_doc = NULL, *guide_entry = NULL;
	int restored = restore_guide_build(u, o, entry, &guide_library, &guide_doc, &guide_entry);
	if (restored < 0) {
		free(library);
		return -1;
	}
	if (restored) {
		free(library);
		library = guide_library;
		entry = guide_entry;
	}
	/* The flags the library was built with, as recorded now. */
	const char *flags = restored ? build_profile_name(PROFILE_GUIDE) : jget_str(entry, "flags", "");
	struct kat_run first = { 0 }, retest = { 0 };
	int rc = test_library(u, library, entry, o, "", NULL, &first);
	int final = rc == 0 ? (int)first.st : -1;
	const struct kat_run *shown = &first;
	if (rc == 0 && restored && first.st == KAT_PASS)
		fprintf(stderr, "ngcc-perf: %s %s: PASS with the guide flags: the guide build is "
			"back\n", u->id, u->stem);
	if (rc == 0 && first.st == KAT_MISMATCH && kat_detail_blames_reference(first.detail))
		fprintf(stderr, "ngcc-perf: %s %s: MISMATCH from the reference file (%s); not "
			"rebuilding with other flags, which cannot change it\n", u->id, u->stem,
			first.detail);
	if (rc == 0 && wants_fallback(o, flags, &first)) {
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
	if (u->o->tty)
		fprintf(stderr, "\r\033[K");
	if (final >= 0 && shown->result_line)
		printf("%s\n", shown->result_line);
	fflush(stdout);
	if (final == KAT_MISMATCH && !is_hash_files(u))
		print_diff_hint(u);
	free(library);
	json_decref(guide_doc);
	gate_run_free(&first);
	gate_run_free(&retest);
	return final;
}

/* ---- one candidate ---- */

/* The candidate's kat.sha256, checked whole before any entry is used
 * (NUL bytes, conflicting entries: package/manifest.h).  NULL when there is
 * none; -1 in *bad (message printed) when it is there but not usable. */
static char *read_manifest(const char *path, int *bad)
{
	char *data = NULL, *err = NULL;
	size_t len;
	int entries;
	*bad = 0;
	if (!path_exists(path))
		return NULL;
	if (read_file(path, &data, &len) != 0) {
		ngcc_error("%s: cannot read: %s", path, io_strerror(errno));
		*bad = -1;
	} else if (kat_manifest_check_text(data, len, NULL, &entries, &err)) {
		ngcc_error("%s:%s; fix it (or add the package again with a corrected "
			   "--kat-manifest)", path, err + 5);
		*bad = -1;
		free(err);
		free(data);
		data = NULL;
	}
	return data;
}

struct kat_totals {
	int tested, passed, unsupported;
	int worst_exit;
	int k, n; /* progress */
};

static void progress(const struct kat_gate_opts *o, struct kat_totals *t,
		     const char *id, const char *label)
{
	if (!o->tty)
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

static void kat_candidate(const struct kat_gate_opts *o, const struct selection *sel, const char *id,
			  struct stage_conf *sc, struct kat_totals *t)
{
	char *conf_path = path_joinf(o->workspace, "candidates/%s/candidate.conf", id);
	char *manifest_path = path_joinf(o->workspace, "candidates/%s/kat.sha256", id);
	char *bj_path = build_json_path(o->workspace, id);
	struct candidate_conf *conf = &sc->conf;
	char *err = NULL;
	if (!path_is_file(conf_path)) {
		ngcc_error("%s: no such candidate in %s (no %s); add it with "
			   "`ngcc-perf add PACKAGE --id %s`", id, o->workspace,
			   conf_path, id);
		note_exit(t, EXIT_INPUT);
		goto out;
	}
	if (!sc->ok) {
		ngcc_error("%s (fix the file, or re-add the candidate)", sc->err);
		note_exit(t, EXIT_INPUT);
		goto out;
	}
	if (!path_is_file(bj_path)) {
		ngcc_error("%s: not built (no %s); run `ngcc-perf build %s` first",
			   id, bj_path, id);
		note_exit(t, EXIT_INPUT);
		goto out;
	}
	json_t *doc = build_json_load(o->workspace, id, &err);
	if (!doc) {
		ngcc_error("%s", err);
		note_exit(t, EXIT_INPUT);
		goto out;
	}
	int manifest_bad;
	char *manifest = read_manifest(manifest_path, &manifest_bad);
	if (manifest_bad) {
		note_exit(t, EXIT_INPUT);
		json_decref(doc);
		goto out;
	}
	char *kat_dir = path_joinf(o->workspace, "build/%s/kat", id);
	if (path_is_dir(kat_dir))
		atomic_sweep_stale(kat_dir);
	free(kat_dir);
	for (size_t i = 0; i < conf->n_inst; i++) {
		struct instance_conf *ic = &conf->inst[i];
		if (!selection_has_instance(sel, id, ic->label))
			continue;
		if (!ic->enabled) {
			fprintf(stderr, "kat: %s %s skipped (enabled = no in candidates/%s/candidate.conf)\n",
				id, ic->label, id);
			continue;
		}
		struct kat_unit u = { .o = o, .conf = conf, .ic = ic, .id = id };
		u.stem = build_stem(ic);
		u.key = build_json_key(id, u.stem);
		u.selftest = ic->variant && !strcmp(ic->variant, BASELINE_VARIANT);
		t->k++;
		u.k = t->k;
		u.n = t->n;
		progress(o, t, id, u.stem);
		u.manifest = manifest;
		u.manifest_path = manifest_path;
		if (find_reference(&u) != 0) {
			note_exit(t, EXIT_INPUT);
		} else {
			int st = kat_instance(&u, build_json_entry(doc, u.key), o);
			progress(o, t, NULL, NULL);
			if (st < 0)
				note_exit(t, EXIT_SYSTEM);
			/* not this candidate's failure: this host's limits */
			if (st == KAT_UNSUPPORTED_CPU)
				t->unsupported++;
			else
				t->tested++;
			t->passed += st == KAT_PASS;
		}
		kat_manifest_entry_free(&u.ref.manifest);
		free(u.ref.path);
		free(u.ref.path_rel);
		free(u.stem);
		free(u.key);
	}
	gate_report_equal_sizes(o->workspace, id, conf);
	free(manifest);
	json_decref(doc);
	gate_compare_variants(o->workspace, id, conf, sel);
out:
	free(err);
	free(conf_path);
	free(manifest_path);
	free(bj_path);
}

static int count_instances(const struct selection *sel, const struct strlist *ids,
			   const struct stage_conf *confs)
{
	int n = 0;
	for (size_t i = 0; i < ids->n; i++)
		for (size_t k = 0; confs[i].ok && k < confs[i].conf.n_inst; k++)
			n += confs[i].conf.inst[k].enabled &&
			     selection_has_instance(sel, ids->items[i], confs[i].conf.inst[k].label);
	return n;
}

void kat_gate_opts_init(struct kat_gate_opts *o, const char *workspace, int tty)
{
	memset(o, 0, sizeof *o);
	o->workspace = workspace;
	o->timeout_s = KAT_GATE_DEFAULT_TIMEOUT_S;
	o->fallback = 1;
	o->tty = tty;
}

void kat_gate_opts_free(struct kat_gate_opts *o)
{
	sl_free(&o->skip_files);
}

int kat_gate_skip_file(struct kat_gate_opts *o, const char *tag)
{
	const struct cand_type *t = cand_type_find("hash");
	for (const char *const *f = t->kat_files; *f; f++)
		if (!strcmp(*f, tag)) {
			if (!sl_contains(&o->skip_files, tag))
				sl_push(&o->skip_files, tag);
			return 0;
		}
	return -1;
}

int kat_gate(const struct kat_gate_opts *o, const struct strlist *given)
{
	struct strlist ids = STRLIST_INIT;
	struct selection sel;
	int rc = selection_from_ids(&sel, given, o->workspace, &ids);
	if (rc || (ids.n == 0 && list_candidates(o->workspace, &ids) != 0)) {
		sl_free(&ids);
		selection_free(&sel);
		return rc ? rc : EXIT_INPUT;
	}
	struct kat_totals t = { 0 };
	struct stage_conf *confs = stage_confs_read(o->workspace, &ids);
	t.n = count_instances(&sel, &ids, confs);
	for (size_t i = 0; i < ids.n; i++)
		kat_candidate(o, &sel, ids.items[i], &confs[i], &t);
	progress(o, &t, NULL, NULL);
	stage_confs_free(confs, ids.n);
	sl_free(&ids);
	selection_free(&sel);
	if (t.worst_exit > EXIT_FAILED)
		return t.worst_exit;
	if (t.tested == 0 && t.unsupported) {
		ngcc_error("nothing to test in %s: every selected instance (%d) needs CPU features "
			   "this host lacks (UNSUPPORTED_CPU above); run it on a host that has them",
			   o->workspace, t.unsupported);
		return EXIT_FAILED;
	}
	if (t.tested == 0) {
		ngcc_error("no enabled instance to test in %s", o->workspace);
		return EXIT_INPUT;
	}
	return t.passed == t.tested ? EXIT_OK : EXIT_FAILED;
}
