/*
 * gate_int.h — what the KAT gate's files share (gate.c: one child run per
 * instance; gate_hash.c: a hash instance's four files): the unit tested,
 * what a child run gave, and the evidence writers.  Not for other stages.
 */
#ifndef NGCC_KAT_GATE_INT_H
#define NGCC_KAT_GATE_INT_H

#include <jansson.h>

#include "kat/katstatus.h"
#include "package/conf.h"
#include "package/manifest.h"
#include "util/util.h"

struct kat_gate_opts;

/* The end of the candidate's stdout and stderr a log keeps, in bytes. */
#define GATE_TAIL_BYTES 4000

/* Where the expected text comes from. */
struct kat_ref {
	struct kat_manifest_entry manifest; /* .file set when used */
	char *path;     /* reference file, absolute */
	char *path_rel; /* the same, relative to the workspace */
};

/* One instance to test. */
struct kat_unit {
	const struct kat_gate_opts *o;
	struct candidate_conf *conf;
	struct instance_conf *ic;
	const char *id;
	char *stem;         /* label in file names and RESULT lines */
	char *key;          /* build.json key */
	struct kat_ref ref;
	int records;        /* 0: the child's default (10, or the manifest's N) */
	const char *hash_file; /* a hash KAT file's tag (--hash-file), or NULL */
	int selftest;       /* an ICCS baseline instance: its self-test */
	int k, n;           /* position in the gate's progress */
	void *progress;     /* gate_progress_feed's state while a file runs */
	const char *manifest;      /* the candidate's kat.sha256 text, or NULL */
	const char *manifest_path;
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
	long max_rss_kib;   /* the child's peak resident memory (wait4) */
	char *out_tail, *err_tail;
};

struct log_facts {
	const char *flags;          /* build.json "flags" */
	const char *library;        /* workspace-relative */
	const char *library_sha256;
	const char *guide_result;   /* set on a fallback retest */
	const char *note;           /* free text, e.g. why there was no run */
	int per_file_references;    /* a hash: each file names its own */
};

void gate_run_free(struct kat_run *r);
/* The log facts of a run of library (its build.json entry; sha receives
 * the library's SHA-256, "" when unreadable). */
void gate_log_facts(struct log_facts *f, json_t *entry, const char *library,
		    const char *guide_result, char sha[65]);
/* u->ref: the kat.sha256 entry of file (under the instance's label; with
 * exact, only an entry of that very file name), else the package file
 * fallback (relative to candidates/<ID>/source/; may be NULL).  0, or -1
 * for a malformed manifest (printed). */
int gate_find_reference(struct kat_unit *u, const char *file, const char *fallback, int exact);
/* Run the KAT child once for u (its hash_file or selftest included) and
 * decide the status.  0 if it ran, -1 on a system error. */
int gate_run_child(const struct kat_unit *u, const char *library,
		   const struct kat_gate_opts *o, struct kat_run *r);
/* The log's header lines: identity, the child's metadata, the library, the
 * reference (u->ref), the limits and facts f. */
void gate_add_header(struct strbuf *log, const struct kat_unit *u, const struct kat_run *r,
		     const struct log_facts *f, double timeout_s);
/* Write build/<ID>/kat/<stem><suffix>.log and, for the run that counts
 * (suffix "") of a single-text run (r->child set), <stem>.txt; the log's
 * workspace-relative path and SHA-256 come back.  0 or -1 (printed). */
int gate_write_files(const struct kat_unit *u, const char *suffix, const char *log,
		     const struct kat_run *r, char **log_rel, char hex[65]);
/* The KAT fields of build.json, under its lock.  0 or -1. */
int gate_record_status(const struct kat_unit *u, enum kat_status st, const char *log_rel,
		       const char *log_sha, const char *guide_result);

/* gate_hash.c: the four KAT files of a hash instance, each in its own
 * child (--hash-file), per-file statuses in the instance's log, the
 * instance's status the worst of them (PARTIAL when files were skipped
 * and the others passed).  Writes the log (<stem><suffix>.log), the texts
 * <stem>.<tag>.txt and, for suffix "", build.json.  r gets the combined
 * status and RESULT line.  0, or -1 on a system error. */
int gate_test_hash(const struct kat_unit *u, const char *library, json_t *entry,
		   const struct kat_gate_opts *o, const char *suffix, const char *guide_result,
		   struct kat_run *r);
/* A kat_unit's live progress line (tty) as the child reports PROGRESS. */
void gate_progress_feed(void *arg, const char *data, size_t len);

/* gate_sizes.c: warn about two instances of the candidate, same type and
 * variant, whose KAT logs show the same sizes from the getters. */
void gate_report_equal_sizes(const char *workspace, const char *id,
			     const struct candidate_conf *conf);

/* gate_variants.c: each selected variant's KAT output (and status) against
 * its reference's, printed as "VARIANT <id> <stem> SAME as|DIFFERS from|
 * not compared with reference <stem>: ..." and recorded in build.json
 * (reference_label, kat_vs_reference). */
struct selection;
void gate_compare_variants(const char *ws, const char *id, const struct candidate_conf *conf,
			   const struct selection *sel);

#endif
