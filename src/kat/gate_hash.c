/*
 * gate_hash.c — the KAT gate of a hash instance (docs/iccs.md §4.5,
 * docs/method.md §2.2): its four files KAT_2_12, KAT_2_23, KAT_2_33 and
 * KAT_Loop, each replayed in its own KAT child with the gate's limits and
 * the --timeout, so that a slow or crashing file gets its own status
 * while the others are still run (the official driver stops at the first
 * failure; we report all four).  KAT_2_33's 1 GiB message lives in the
 * child, never here: the orchestrator holds only each file's text.
 *
 * Per file: the kat.sha256 entry of "<label>/<tag>_<instance>.txt" (that
 * exact name), else the conf's kat_file of that tag, else no reference
 * (NOKAT).  The instance passes only when all four pass; otherwise its
 * status is the most severe of the files', or PARTIAL when every file
 * that ran passed and some were skipped on request (--skip-kat-file).
 */
#include "kat/gate_int.h"

#include "kat/gate.h"

#include "evidence/paths.h"
#include "kat/katcompare.h"
#include "kat/katlog.h"
#include "method/types.h"
#include "util/atomic.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define MAX_FILES 8

/* Most severe first: an instance is as bad as its worst file. */
static const enum kat_status severity[] = {
	KAT_LOADFAIL, KAT_CRASH, KAT_OVERFLOW, KAT_CRYPTOFAIL, KAT_MISMATCH, KAT_TIMEOUT,
	KAT_NOKAT, KAT_PASS,
};

struct file_result {
	const char *tag;
	int skipped;
	struct kat_ref ref;
	struct kat_run run;
};

/* ---- progress -------------------------------------------------------------- */

struct feed {
	const struct kat_unit *u;
	const char *tag;
	double start;
	char line[48];
	size_t n;
	int overlong;       /* the current line does not fit: not PROGRESS */
};

static void show_progress(const struct feed *f, unsigned long long done, unsigned long long total)
{
	double t = mono_now() - f->start;
	double pct = total ? 100.0 * (double)done / (double)total : 0;
	fprintf(stderr, "\r\033[K[%d/%d] kat %s %s %s %.0f%%, %.0f s", f->u->k, f->u->n,
		f->u->id, f->u->stem, f->tag, pct, t);
	if (done && done < total)
		fprintf(stderr, ", about %.0f s left", t * (double)(total - done) / (double)done);
	fflush(stderr);
}

/* The child's result stream, piece by piece: show its PROGRESS lines. */
void gate_progress_feed(void *arg, const char *data, size_t len)
{
	struct feed *f = arg;
	for (size_t i = 0; i < len; i++) {
		if (data[i] != '\n') {
			if (f->n + 1 < sizeof f->line)
				f->line[f->n++] = data[i];
			else
				f->overlong = 1;
			continue;
		}
		f->line[f->n] = '\0';
		unsigned long long done, total;
		if (!f->overlong && sscanf(f->line, "PROGRESS %llu %llu", &done, &total) == 2)
			show_progress(f, done, total);
		f->n = 0;
		f->overlong = 0;
	}
}

/* ---- one file ---------------------------------------------------------------- */

/* The conf's kat_file of this tag ("<tag>_..."), or NULL. */
static const char *conf_kat_file(const struct instance_conf *ic, const char *tag)
{
	size_t n = strlen(tag);
	for (size_t i = 0; i < ic->kat_files.n; i++) {
		const char *base = path_basename(ic->kat_files.items[i]);
		if (!strncasecmp(base, tag, n) && base[n] == '_')
			return ic->kat_files.items[i];
	}
	return NULL;
}

static void say_file(const struct kat_unit *u, const struct file_result *fr)
{
	if (u->o->tty)
		fprintf(stderr, "\r\033[K");
	if (fr->skipped)
		fprintf(stderr, "kat %s %s %s: SKIPPED (--skip-kat-file %s)\n", u->id, u->stem,
			fr->tag, fr->tag);
	else
		fprintf(stderr, "kat %s %s %s: %s in %.1f s, %ld MiB peak%s%s\n", u->id, u->stem,
			fr->tag, kat_status_name(fr->run.st), fr->run.wall_s,
			fr->run.max_rss_kib / 1024, fr->run.detail ? ": " : "",
			fr->run.detail ? fr->run.detail : "");
	fflush(stderr);
}

/* 0 when the file ran or was skipped, -1 on a system error. */
static int run_file(const struct kat_unit *u, const char *library,
		    const struct kat_gate_opts *o, struct file_result *fr)
{
	struct kat_unit fu = *u;
	char *name = u->ic->instance ? xasprintf("%s_%s.txt", fr->tag, u->ic->instance) : NULL;
	int rc = gate_find_reference(&fu, name, conf_kat_file(u->ic, fr->tag), 1);
	free(name);
	fr->ref = fu.ref;
	if (rc)
		return -1;
	fr->skipped = sl_contains(&o->skip_files, fr->tag);
	if (!fr->skipped) {
		struct feed feed = { .u = u, .tag = fr->tag, .start = mono_now() };
		fu.hash_file = fr->tag;
		fu.progress = o->tty ? &feed : NULL;
		if (o->tty)
			show_progress(&feed, 0, 0);
		rc = gate_run_child(&fu, library, o, &fr->run);
	}
	if (rc == 0)
		say_file(u, fr);
	return rc;
}

/* ---- the instance ------------------------------------------------------------- */

static int rank(enum kat_status st)
{
	for (size_t i = 0; i < sizeof severity / sizeof severity[0]; i++)
		if (severity[i] == st)
			return (int)i;
	return 0;
}

static enum kat_status combined_status(const struct file_result *fr, size_t n)
{
	enum kat_status worst = KAT_PASS;
	int any_skipped = 0;
	for (size_t i = 0; i < n; i++) {
		if (fr[i].skipped)
			any_skipped = 1;
		else if (rank(fr[i].run.st) < rank(worst))
			worst = fr[i].run.st;
	}
	return worst == KAT_PASS && any_skipped ? KAT_PARTIAL : worst;
}

/* "KAT_2_33: CRASH killed by signal 11 (SIGSEGV); KAT_2_12, KAT_2_23,
 * KAT_Loop: PASS" — every file that did not pass, then those that did;
 * NULL when all passed. */
static char *combined_detail(const struct file_result *fr, size_t n)
{
	struct strbuf sb = STRBUF_INIT, ok = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		if (!fr[i].skipped && fr[i].run.st == KAT_PASS) {
			sb_addf(&ok, "%s%s", ok.len ? ", " : "", fr[i].tag);
			continue;
		}
		sb_addf(&sb, "%s%s: ", sb.len ? "; " : "", fr[i].tag);
		if (fr[i].skipped)
			sb_addf(&sb, "SKIPPED (--skip-kat-file %s)", fr[i].tag);
		else
			sb_addf(&sb, "%s%s%s", kat_status_name(fr[i].run.st),
				fr[i].run.detail ? " " : "", fr[i].run.detail ? fr[i].run.detail : "");
	}
	if (sb.len && ok.len)
		sb_addf(&sb, "; %s: PASS", ok.buf);
	sb_free(&ok);
	return sb.len ? sb_detach(&sb) : NULL;
}

/* The file's reference: its manifest line, or "<tag>.reference = ...".
 * All four come in the header, before any candidate output. */
static void log_reference(struct strbuf *log, const struct file_result *fr)
{
	char key[64];
	if (fr->ref.manifest.file) {
		char *mode = kat_mode_format(&fr->ref.manifest.mode);
		katlog_manifest(log, fr->ref.manifest.digest, mode, fr->ref.manifest.file);
		free(mode);
	} else {
		snprintf(key, sizeof key, "%s.reference", fr->tag);
		katlog_field(log, key, fr->ref.path_rel ? fr->ref.path_rel : "none");
	}
}

/* A stand-in the child ran instead of the official size (tests: the
 * NGCC_PERF_KAT_2_33_BITS and NGCC_PERF_KAT_LOOP_ITERATIONS variables), as
 * "<tag>.message_bits" / "<tag>.iterations = N (stand-in for ...)", so a log
 * never passes a stand-in off as the official file. */
static void log_stand_ins(struct strbuf *log, const struct file_result *fr)
{
	static const struct {
		const char *meta, *suffix;
	} stand_ins[] = {
		{ "kat_2_33_bits", "message_bits" },
		{ "kat_loop_iterations", "iterations" },
	};
	char key[64];
	for (size_t i = 0; i < sizeof stand_ins / sizeof stand_ins[0]; i++) {
		const char *v = katlog_meta_value(&fr->run.meta, stand_ins[i].meta);
		if (v) {
			snprintf(key, sizeof key, "%s.%s", fr->tag, stand_ins[i].suffix);
			katlog_field(log, key, v);
		}
	}
}

/* The file's run in the instance's log. */
static void log_file(struct strbuf *log, const struct file_result *fr, const char *text_rel)
{
	const struct kat_run *r = &fr->run;
	char key[64];
	if (!fr->skipped) {
		log_stand_ins(log, fr);
		snprintf(key, sizeof key, "%s.child", fr->tag);
		katlog_field(log, key, r->child ? r->child : "");
		snprintf(key, sizeof key, "%s.wall_s", fr->tag);
		katlog_fieldf(log, key, "%.3f", r->wall_s);
		snprintf(key, sizeof key, "%s.max_rss_kib", fr->tag);
		katlog_fieldf(log, key, "%ld", r->max_rss_kib);
		struct kat_mode strict = { 0, 0 };
		char hex[65];
		kat_canonical_digest(r->text, r->text_len, &strict, hex);
		snprintf(key, sizeof key, "%s.generated_sha256", fr->tag);
		katlog_field(log, key, hex);
		if (text_rel) {
			snprintf(key, sizeof key, "%s.text", fr->tag);
			katlog_field(log, key, text_rel);
		}
		char *what = xasprintf("%s candidate stderr", fr->tag);
		katlog_tail(log, what, r->err_tail, GATE_TAIL_BYTES);
		free(what);
		what = xasprintf("%s candidate stdout", fr->tag);
		katlog_tail(log, what, r->out_tail, GATE_TAIL_BYTES);
		free(what);
	}
	sb_addf(log, "FILE %s %s%s%s\n", fr->tag, fr->skipped ? "SKIPPED" : kat_status_name(r->st),
		!fr->skipped && r->detail ? " " : "", !fr->skipped && r->detail ? r->detail : "");
}

/* <stem>.<tag>.txt for the run that counts; a skipped file leaves none.
 * Its workspace-relative path, or NULL. */
static char *write_text(const struct kat_unit *u, const struct file_result *fr, int *rc)
{
	char *rel = xasprintf("build/%s/kat/%s.%s.txt", u->id, u->stem, fr->tag);
	char *abs = path_join(u->o->workspace, rel);
	if (fr->skipped) {
		unlink(abs);
		free(rel);
		rel = NULL;
	} else if (atomic_write(abs, fr->run.text, fr->run.text_len) != 0) {
		ngcc_error("cannot write %s: %s", abs, strerror(errno));
		*rc = -1;
	}
	free(abs);
	return rel;
}

static char *compose_log(const struct kat_unit *u, struct file_result *fr, size_t n,
			 const struct kat_run *r, const struct log_facts *f, int main_run,
			 int *rc)
{
	struct strbuf log = STRBUF_INIT;
	gate_add_header(&log, u, r, f, u->o->timeout_s);
	katlog_field(&log, "timeout_applies_to", "each KAT file");
	for (size_t i = 0; i < n; i++)
		log_reference(&log, &fr[i]);
	for (size_t i = 0; i < n; i++) {
		char *text_rel = main_run ? write_text(u, &fr[i], rc) : NULL;
		log_file(&log, &fr[i], text_rel);
		free(text_rel);
	}
	sb_addf(&log, "%s\n", r->result_line);
	char *rel = path_hide_ours(log.buf, u->o->workspace, NULL);
	sb_free(&log);
	return rel;
}

int gate_test_hash(const struct kat_unit *u, const char *library, json_t *entry,
		   const struct kat_gate_opts *o, const char *suffix, const char *guide_result,
		   struct kat_run *r)
{
	const struct cand_type *t = cand_type_find(u->ic->type);
	struct file_result fr[MAX_FILES];
	size_t n = 0;
	int rc = 0;
	memset(fr, 0, sizeof fr);
	for (const char *const *tag = t->kat_files; *tag && n < MAX_FILES && !rc; tag++) {
		fr[n].tag = *tag;
		rc = run_file(u, library, o, &fr[n++]);
	}
	if (!rc) {
		r->st = combined_status(fr, n);
		r->detail = combined_detail(fr, n);
		r->result_line = katlog_result_line(u->id, u->stem, kat_status_name(r->st), r->detail);
		for (size_t i = 0; i < n && !r->meta.n; i++)
			for (size_t k = 0; k < fr[i].run.meta.n; k++)
				sl_push(&r->meta, fr[i].run.meta.items[k]);
		char sha[65];
		struct log_facts f;
		gate_log_facts(&f, entry, library, guide_result, sha);
		f.per_file_references = 1;
		char *log = compose_log(u, fr, n, r, &f, !*suffix, &rc), *log_rel = NULL;
		char hex[65];
		if (!rc)
			rc = gate_write_files(u, suffix, log, NULL, &log_rel, hex);
		if (!rc && !*suffix)
			rc = gate_record_status(u, r->st, log_rel, hex, guide_result);
		free(log_rel);
		free(log);
	}
	for (size_t i = 0; i < n; i++) {
		gate_run_free(&fr[i].run);
		kat_manifest_entry_free(&fr[i].ref.manifest);
		free(fr[i].ref.path);
		free(fr[i].ref.path_rel);
	}
	return rc;
}
