/*
 * check.h — checking an evidence document against its format's table of
 * fields (docs/security.md: every read checks what it reads, not only
 * `validate`).  Each format module owns one table of `struct field_rule`
 * and a function `<format>_check()` that runs it; readers (report,
 * publish, site, validate, resume) call that function on every document
 * they load, so a record with a wrong type, a negative or an absurd value
 * is refused with its path and field wherever it is read.
 *
 * A rule's path names a field: "plan.trials" is key trials of object
 * plan; "trials[].ns" is key ns of every element of array trials.  A
 * type mask lists the JSON types allowed; numbers must lie in [min, max];
 * a string may be restricted to a list of words.  A format that gains
 * fields (new candidate types) adds rows to its table.
 */
#ifndef NGCC_EVIDENCE_CHECK_H
#define NGCC_EVIDENCE_CHECK_H

#include <jansson.h>

enum {
	J_STR = 1, J_INT = 2, J_REAL = 4, J_NUM = J_INT | J_REAL, J_BOOL = 8,
	J_NULL = 16, J_OBJ = 32, J_ARR = 64,
};

/* Field flags. */
#define F_REQUIRED 1   /* absent is an error (else only checked when present) */
#define F_RANGE 2      /* numbers must lie in [min, max] */

struct field_rule {
	const char *path;
	unsigned types;
	unsigned flags;
	double min, max;
	const char *const *words;   /* allowed strings, NULL-terminated; or NULL */
};

/* Shorthands for the tables. */
#define FIELD(path, types) { path, types, F_REQUIRED, 0, 0, NULL }
#define FIELD_OPT(path, types) { path, types, 0, 0, 0, NULL }
#define FIELD_NUM(path, types, lo, hi) { path, types, F_REQUIRED | F_RANGE, lo, hi, NULL }
#define FIELD_NUM_OPT(path, types, lo, hi) { path, types, F_RANGE, lo, hi, NULL }
#define FIELD_WORD(path, types, words) { path, types, F_REQUIRED, 0, 0, words }
#define FIELD_WORD_OPT(path, types, words) { path, types, 0, 0, 0, words }

/* Where a counter's rate came from (host/counter.h COUNTER_HZ_*): the
 * process's own calibration or its phase's, in timing records
 * (counter.hz_source) and profiles (meta.tick_hz_source).  Optional:
 * records made before drivers were given their phase's rate lack it. */
extern const char *const counter_hz_sources[];

/* Generous upper bounds for "absurd": far above any real measurement. */
#define MAX_SECONDS 1e7        /* 115 days */
#define MAX_COUNT 1e15
#define MAX_BYTES 1e13         /* 10 TB */
#define MAX_CYCLES 1e19

/* Check doc against rules (n of them); 0, or -1 with *why (malloc'd)
 * naming the first field that is wrong. */
int evidence_check_fields(const json_t *doc, const struct field_rule *rules, size_t n,
			  char **why);
/* The schema "ngcc-perf/<kind>/<version>" first, then the fields: what a
 * format's check function does.  0, or -1 with *why (malloc'd). */
int evidence_check_doc(const json_t *doc, const char *kind, int version,
		       const struct field_rule *rules, size_t n, char **why);
#define EVIDENCE_CHECK(doc, kind, version, rules, why) \
	evidence_check_doc(doc, kind, version, rules, sizeof rules / sizeof *rules, why)

#endif
