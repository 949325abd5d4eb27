/*
 * check_json.h — the check record, build/<ID>/check/<label>__<check>.json
 * ("ngcc-perf/check/1"; published as data/<SYS>/check/<ID>/...), the one
 * place that knows its layout.  `ngcc-perf check` writes one per instance
 * and check; report, publish and validate read them.  Keys, in order:
 *
 *   schema, status ("complete" | "failed" | "timeout"), status_detail,
 *   verdict ("clean" | "findings" | null unless complete),
 *   candidate, label, instance, type, variant, check,
 *   library, library_sha256          the library that was exercised
 *   timed_library, timed_library_sha256
 *   build        null, or how the twin was built {flags_added, link_added,
 *                compile_commands, link_command, text_identical_to_timed,
 *                drng_wrapped}
 *   tool         {program, checker}
 *   command      argv as run (<ngcc-perf>/… for our programs)
 *   suppressions null, or {file, sha256} (candidates/<ID>/check.supp)
 *   plan         {rounds, first_round, seed_hex, budget_s, timeout_s}
 *   started_utc, ended_utc, wall_s
 *   process      {exit_code, term_signal, timed_out, stderr_tail,
 *                +strays_killed (evidence/json.h)}
 *   raw_output   the tool's own output kept in the workspace, or null
 *   rounds_done, budget_reached
 *   tests        [{test, operation, checks, failures, note}]
 *   findings     [{id, kind, operation, what, call, round, occurrences,
 *                  location {function, file, line} | null,
 *                  stack [{function, file, line, object}],
 *                  origin, suppression, repro {round, command}}]
 *   suppressed   [{name, count}]   reviewed findings the suppressions hid
 *   operations   {<op>: {findings, occurrences, kinds {<kind>: n}}}
 *   findings_count
 *
 * operations, findings_count and verdict are derived from findings and
 * status (check_record_derive); validate recomputes them.
 */
#ifndef NGCC_CHECK_JSON_H
#define NGCC_CHECK_JSON_H

#include <jansson.h>

#define CHECK_KIND "check"
#define CHECK_VERSION 1

/* The checks, in the order pages and files list them. */
enum check_id { CHECK_FUNCTIONAL, CHECK_SANITIZERS, CHECK_MEMCHECK, CHECK_CONSTTIME, CHECK_N };
extern const char *const check_names[CHECK_N];   /* "functional", ... */
extern const char *const check_titles[CHECK_N];  /* "functional", "ASan+UBSan", "memcheck", "constant time" */
/* CHECK_N when name is not a check. */
enum check_id check_by_name(const char *name);

/* Finding kinds (the "kind" field).  Functional kinds are the test names
 * of the check program; the others: */
#define FK_CRASH "crash"
#define FK_INPUT_WRITE "input written"
#define FK_INVALID_READ "invalid read"
#define FK_INVALID_WRITE "invalid write"
#define FK_INVALID_FREE "invalid free"
#define FK_UNINIT "uninitialised value"
#define FK_LEAK "memory leak"
#define FK_UB "undefined behaviour"
#define FK_SECRET_BRANCH "secret-dependent branch"
#define FK_SECRET_INDEX "secret-dependent memory index"
#define FK_SECRET_SYSCALL "secret data passed to the kernel"
#define FK_OTHER "other memory error"
/* Processes the library started that outlived the check program (killed
 * by its supervisor, proc/contain.h). */
#define FK_STRAYS "processes left running"

/* A record with every key, in order, from the identity fields; the rest
 * null or empty until set. */
json_t *check_record_new(const char *candidate, const char *label, const char *instance,
			 const char *type, const char *variant, const char *check);
/* A finding with its keys in order (location, stack, origin, suppression
 * and repro null or empty until set). */
json_t *check_finding_new(const char *kind, const char *operation, const char *what,
			  const char *call, long round, long occurrences);
/* Number the findings, then set operations, findings_count and verdict. */
void check_record_derive(json_t *rec);
/* Validation: the derived fields agree with findings and status; 0, or
 * -1 with *why (malloc'd). */
int check_record_recompute(const json_t *rec, char **why);

/* The schema and every field's type and range (evidence/check.h), run on
 * every read (report, publish, site, validate, resume); 0, or -1 with
 * *why (malloc'd) naming the field. */
int check_record_check(const json_t *doc, char **why);

/* Workspace path of a record, relative: build/<cand>/check/<stem>__<check>.json */
char *check_record_path(const char *cand, const char *stem, const char *check);
/* Path inside a published dataset (data/<SYS>/): check/<cand>/<stem>__<check>.json */
char *check_record_published(const char *cand, const char *stem, const char *check);

#endif
