/*
 * dataset.h — everything a report page is rendered from, loaded into memory
 * once: the campaign, the candidates with their instances (build.json
 * entries, KAT status and log digest, timing records, profile records), and
 * the optional workspace catalogs and report configuration.
 *
 * Two sources give the same model: a run directory plus its workspace
 * (`report --run`), and a published dataset (`<dataset>/data/<SYS>/` plus
 * the catalogs copied to `<dataset>/`).  Rendering reads only this model,
 * so pages are a pure function of the data.
 */
#ifndef NGCC_MODEL_DATASET_H
#define NGCC_MODEL_DATASET_H

#include <jansson.h>
#include <stddef.h>

#include "evidence/check_json.h"
#include "model/variant.h"
#include "util/util.h"

/* A `;`-separated catalog: `#` comments and blank lines dropped, fields
 * trimmed, a header row (first field `ID`) dropped. */
struct csv_table {
	size_t n;
	char ***rows;      /* rows[i][j], NULL-terminated per row */
	size_t *ncols;
	int present;       /* the file existed */
};

struct ds_record {        /* records/<cand>/<stem>__<op>.json */
	char *op;
	char *relpath;        /* relative to the evidence root */
	json_t *j;
};

struct ds_profile {       /* profile/<cand>/<stem>__<op>.json */
	char *op;
	char *relpath;
	json_t *j;
};

struct ds_instance {
	char *label;          /* base label */
	char *stem;           /* label, or label+<tag> for another variant (+avx2 ...) */
	const struct ds_variant *variant;   /* from the stem's suffix (model/variant.h) */
	int optimized;        /* any build but the reference (variant != DS_REFERENCE) */
	json_t *build;        /* build.json entry (own reference) or NULL */
	char *kat_status;     /* PASS, MISMATCH, ..., NOLOG, NORESULT */
	char *kat_detail;     /* detail of the RESULT line, or NULL */
	char *kat_log_rel;    /* kat/<cand>/<stem>.log when the log exists */
	char kat_sha256[65];  /* of the log file, "" without one */
	int kat_ref;          /* enum katlog_ref: what the KAT run compared against */
	struct ds_record *rec;
	size_t n_rec;
	struct ds_profile *prof;
	size_t n_prof;
	/* extension records (memory/, samples/, pool/): "<kind> <op>" and
	 * the path relative to the evidence root, §4 order within a kind */
	char **extra_item, **extra_path;
	json_t **extra_json;  /* memory/, pool/ and samples/ records
	                       * (model/samples_view.h), else NULL */
	size_t n_extra;
	/* check records by enum check_id (check/<cand>/<stem>__<check>.json;
	 * a run reads them from the workspace's build/<cand>/check/), NULL
	 * when absent or of another schema version */
	json_t *check[CHECK_N];
	char *check_rel[CHECK_N];   /* check/<cand>/<stem>__<check>.json */
};

struct ds_candidate {
	char *id, *algorithm, *type;   /* type: kem sign kex hash */
	struct ds_instance *inst;      /* natural order, reference before its variants */
	size_t n_inst;
	json_t *survey;                /* profile/<cand>/survey.json or NULL */
};

struct ds_system {
	char *id, *arch, *hostname, *desc;
};

struct dataset {
	char *system_id;
	json_t *campaign;
	json_t *conf;                  /* report.json, or an empty object */
	struct ds_candidate *cand;     /* by category, then natural id */
	size_t n_cand;
	struct ds_system *systems;     /* systems.csv order */
	size_t n_systems;
	struct csv_table survey_conf, external_sizes, security_targets,
		summary_notes, kat_issues, size_notes;
	/* ID;Instance;PkABytes;PkBBytes;ProtocolMessageBytes (key exchange) */
	struct csv_table kex_bandwidth;
	json_t *size_audit;            /* size_audit.json or NULL */
	char **peers;                  /* other systems rendered into the same
	                                  tree (linked from breadcrumbs); owned */
	struct strlist *peer_cands;    /* the candidate ids of each peer */
	size_t n_peers;
	/* repeat/<ID>/<file>.json as read (JSON, NULL when unreadable; why
	 * then in repeat_error[i]), paired and checked by model/repeat.h */
	char **repeat_cand, **repeat_name, **repeat_error;
	json_t **repeat_json;
	size_t n_repeat;
	int has_repeat;                /* the repeat/ folder exists */
};

/* Load a run directory and its workspace's build/ and catalogs.  system:
 * --system override or NULL.  0, or -1 with *err (malloc'd, names the path). */
int dataset_load_run(struct dataset *ds, const char *workspace, const char *run,
		     const char *system, char **err);
/* Load <dataset>/data/<system>/ and the catalogs at <dataset>/. */
int dataset_load_published(struct dataset *ds, const char *dataset_dir,
			   const char *system, char **err);
void dataset_free(struct dataset *ds);

/* A selection to render (report's instance selectors and --op): instances
 * keep_instance() refuses go, and with keep_op (NULL: every operation) so
 * do the records, profiles and memory records of other operations, and an
 * instance left with none of them; a candidate left without instances
 * goes too. */
struct ds_keep {
	int (*keep_instance)(void *ctx, const char *cand, const char *label, const char *stem);
	int (*keep_op)(void *ctx, const char *op);
	void *ctx;
};
void dataset_keep(struct dataset *ds, const struct ds_keep *k);
/* The systems whose pages are in the same output tree, so that pages may
 * link to them (docs/report-format.md §1: a page without data is not linked).
 * Without a call only the dataset's own system is linked. */
void dataset_set_peers(struct dataset *ds, const struct dataset *const *all, size_t n);
/* 1 if pages of system id exist in the output tree (itself or a peer). */
int ds_system_rendered(const struct dataset *ds, const char *id);
/* 1 if system id (itself or a peer) has a page for candidate cand. */
int ds_system_has_candidate(const struct dataset *ds, const char *id, const char *cand);

/* ---- lookups used by the pages ---- */
/* The instance of candidate cand whose file stem is stem, or NULL. */
const struct ds_instance *ds_find_instance(const struct dataset *ds, const char *cand,
					   const char *stem);
const struct ds_record *ds_find_record(const struct ds_instance *in, const char *op);
const struct ds_profile *ds_find_profile(const struct ds_instance *in, const char *op);
/* The record's flattened status: "complete" or something else. */
int ds_record_complete(const struct ds_record *r);
int ds_profile_complete(const struct ds_profile *p);
/* The complete memory record (memory/<cand>/<stem>__<op>.json) of an
 * operation, or NULL. */
const json_t *ds_find_memory(const struct ds_instance *in, const char *op);
/* The complete extension record of kind ("memory", "pool") for op, or
 * NULL. */
const json_t *ds_find_extra(const struct ds_instance *in, const char *kind, const char *op);
/* The RSS after loading the library and the operation's peak RSS (bytes,
 * -1 when unknown) of a timed operation: from its memory record when the
 * memory pass made one (returned), else the largest over the record's
 * timing processes (NULL returned).  Table A.3 and the memory chart show
 * the same figures from here. */
const json_t *ds_operation_rss(const struct ds_instance *in, const struct ds_record *r,
			       long long *loaded, long long *op_peak);
/* 1 when some instance of the dataset has a check record. */
int ds_has_checks(const struct dataset *ds);
/* Catalog row whose first field is id (and second is label when label is
 * not NULL); NULL when none. */
char **csv_find(const struct csv_table *t, const char *id, const char *label);
/* POSIX ERE pattern found anywhere in s (catalog Label columns); an
 * invalid pattern matches nothing. */
int ds_regex_match(const char *pattern, const char *s);
/* The first kat_issues.csv row (ID;Label;Action;Cause) for an instance,
 * or NULL. */
char **ds_kat_issue(const struct dataset *ds, const char *id, const char *label);
/* report.json string with <SYS> and <cand> substituted, or def (same
 * substitution).  Caller frees. */
char *ds_conf_str(const struct dataset *ds, const char *key, const char *cand,
		  const char *def);
/* Per-candidate configuration (report.json candidates.<id>.<key>), or NULL. */
const char *ds_cand_conf(const struct dataset *ds, const char *cand, const char *key);
/* The profile pass ran on the candidate's reference builds (a profile
 * file or a survey exists). */
int ds_candidate_profiled(const struct ds_candidate *c);
/* The environment shown for a candidate: the first complete record on the
 * lowest CPU number (docs/method.md §5.2); NULL if none. */
const json_t *ds_candidate_env(const struct ds_candidate *c);
/* Architecture words: "x86-64"/"AArch64", and "x86"/"ARM" for the guide. */
const char *ds_arch_name(const struct dataset *ds);
int ds_is_arm(const struct dataset *ds);
/* The run's "emulated (…): not a performance figure" host problem (user-mode
 * emulation, docs/method.md §3.1), or NULL. */
const char *ds_emulated(const struct dataset *ds);
/* The environment for the system (campaign start, else any record). */
const json_t *ds_environment(const struct dataset *ds);


/* ---- published datasets (<dataset>/data/<SYS>/) ---- */
/* Systems of a dataset: the folders of <dataset>/data/, byte order. */
void dataset_systems(const char *dataset_dir, struct strlist *out);
/* The systems of a published dataset: the data/<SYS>/ folders in
 * systems.csv order, then the others in byte order. */
void dataset_published_systems(const char *dataset_dir, struct strlist *ids);
/* Those systems (ids) loaded into *ds, one dataset each, in the same order;
 * free with datasets_free(*ds, ids->n).  0, or -1 with *err (malloc'd) and
 * nothing left to free but ids. */
int dataset_load_all_published(const char *dataset_dir, struct strlist *ids,
			       struct dataset **ds, char **err);
void datasets_free(struct dataset *ds, size_t n);

#endif
