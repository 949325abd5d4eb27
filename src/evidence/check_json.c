/* check_json.c — see check_json.h. */
#include "evidence/check_json.h"

#include "evidence/check.h"
#include "evidence/json.h"
#include "method/types.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

const char *const check_names[CHECK_N] = { "functional", "sanitizers", "memcheck", "consttime" };
const char *const check_titles[CHECK_N] = { "functional", "ASan+UBSan", "memcheck", "constant time" };

enum check_id check_by_name(const char *name)
{
	for (int i = 0; i < CHECK_N; i++)
		if (name && !strcmp(name, check_names[i]))
			return (enum check_id)i;
	return CHECK_N;
}

json_t *check_record_new(const char *candidate, const char *label, const char *instance,
			 const char *type, const char *variant, const char *check)
{
	json_t *j = json_object();
	json_object_set_new(j, "schema", evidence_schema(CHECK_KIND, CHECK_VERSION));
	json_object_set_new(j, "status", json_string("failed"));
	json_object_set_new(j, "status_detail", json_null());
	json_object_set_new(j, "verdict", json_null());
	json_object_set_new(j, "candidate", jstr_or_null(candidate));
	json_object_set_new(j, "label", jstr_or_null(label));
	json_object_set_new(j, "instance", jstr_or_null(instance));
	json_object_set_new(j, "type", jstr_or_null(type));
	json_object_set_new(j, "variant", jstr_or_null(variant));
	json_object_set_new(j, "check", jstr_or_null(check));
	static const char *const nulls[] = { "library", "library_sha256", "timed_library",
		"timed_library_sha256", "build", "tool", "command", "suppressions", "plan",
		"started_utc", "ended_utc", "wall_s", "process", "raw_output", "rounds_done",
		"budget_reached", NULL };
	for (const char *const *k = nulls; *k; k++)
		json_object_set_new(j, *k, json_null());
	json_object_set_new(j, "tests", json_array());
	json_object_set_new(j, "findings", json_array());
	json_object_set_new(j, "suppressed", json_array());
	json_object_set_new(j, "operations", json_object());
	json_object_set_new(j, "findings_count", json_integer(0));
	return j;
}

json_t *check_finding_new(const char *kind, const char *operation, const char *what,
			  const char *call, long round, long occurrences)
{
	json_t *f = json_object();
	json_object_set_new(f, "id", json_integer(0));
	json_object_set_new(f, "kind", jstr_or_null(kind));
	json_object_set_new(f, "operation", jstr_or_null(operation));
	json_object_set_new(f, "what", jstr_or_null(what));
	json_object_set_new(f, "call", jstr_or_null(call));
	json_object_set_new(f, "round", round < 0 ? json_null() : json_integer(round));
	json_object_set_new(f, "occurrences", json_integer(occurrences));
	json_object_set_new(f, "location", json_null());
	json_object_set_new(f, "stack", json_array());
	json_object_set_new(f, "origin", json_null());
	json_object_set_new(f, "suppression", json_null());
	json_object_set_new(f, "repro", json_null());
	return f;
}

/* The operations of the findings, each once, in page order (cand_op_cmp;
 * keys it does not know after the others, in order of appearance). */
static const char **finding_operations(const json_t *findings, size_t *n)
{
	const char **ops = xcalloc(json_array_size(findings) + 1, sizeof *ops);
	size_t i, k;
	json_t *f;
	*n = 0;
	json_array_foreach((json_t *)findings, i, f) {
		const char *op = jget_str(f, "operation", "unknown");
		for (k = 0; k < *n && strcmp(ops[k], op); k++)
			;
		if (k < *n)
			continue;
		/* insertion: stable for keys that compare equal */
		for (k = *n; k > 0 && cand_op_cmp(ops[k - 1], op) > 0; k--)
			ops[k] = ops[k - 1];
		ops[k] = op;
		(*n)++;
	}
	return ops;
}

/* The operations object derived from findings, in page order. */
static json_t *derive_operations(const json_t *findings)
{
	json_t *ops = json_object();
	size_t n;
	const char **order = finding_operations(findings, &n);
	for (size_t k = 0; k < n; k++)
		json_object_set_new(ops, order[k], json_pack("{s:i, s:i, s:{}}", "findings", 0,
							     "occurrences", 0, "kinds"));
	free(order);
	size_t i;
	json_t *f;
	json_array_foreach((json_t *)findings, i, f) {
		const char *op = jget_str(f, "operation", "unknown");
		json_t *e = json_object_get(ops, op);
		json_object_set_new(e, "findings", json_integer(jget_int(e, "findings", 0) + 1));
		json_object_set_new(e, "occurrences", json_integer(jget_int(e, "occurrences", 0) +
								   jget_int(f, "occurrences", 0)));
		json_t *kinds = json_object_get(e, "kinds");
		const char *kind = jget_str(f, "kind", "unknown");
		json_object_set_new(kinds, kind, json_integer(jget_int(kinds, kind, 0) + 1));
	}
	return ops;
}

static const char *derive_verdict(const json_t *rec)
{
	if (strcmp(jget_str(rec, "status", ""), "complete"))
		return NULL;
	return json_array_size(json_object_get(rec, "findings")) ? "findings" : "clean";
}

void check_record_derive(json_t *rec)
{
	json_t *findings = json_object_get(rec, "findings");
	size_t i;
	json_t *f;
	json_array_foreach(findings, i, f)
		json_object_set_new(f, "id", json_integer((json_int_t)i + 1));
	json_object_set_new(rec, "operations", derive_operations(findings));
	json_object_set_new(rec, "findings_count", json_integer((json_int_t)json_array_size(findings)));
	json_object_set_new(rec, "verdict", jstr_or_null(derive_verdict(rec)));
}

int check_record_recompute(const json_t *rec, char **why)
{
	const json_t *findings = json_object_get(rec, "findings");
	if (!json_is_array(findings)) {
		*why = xstrdup("findings is not an array");
		return -1;
	}
	if (check_by_name(jget_str(rec, "check", NULL)) == CHECK_N) {
		*why = xasprintf("unknown check '%s'", jget_str(rec, "check", ""));
		return -1;
	}
	size_t i;
	json_t *f;
	json_array_foreach((json_t *)findings, i, f)
		if (jget_int(f, "id", 0) != (long long)i + 1) {
			*why = xasprintf("finding %zu has id %lld", i + 1, jget_int(f, "id", 0));
			return -1;
		}
	json_t *ops = derive_operations(findings);
	int same = json_equal(ops, json_object_get(rec, "operations"));
	json_decref(ops);
	const char *verdict = derive_verdict(rec);
	const json_t *v = json_object_get(rec, "verdict");
	if (!same)
		*why = xstrdup("operations is not the count of findings per operation and kind");
	else if (jget_int(rec, "findings_count", -1) != (long long)json_array_size(findings))
		*why = xasprintf("findings_count is not the number of findings (%zu)",
				 json_array_size(findings));
	else if (verdict ? !json_is_string(v) || strcmp(json_string_value(v), verdict) : !json_is_null(v))
		*why = xasprintf("verdict is not %s", verdict ? verdict : "null (status not complete)");
	else
		return 0;
	return -1;
}

char *check_record_path(const char *cand, const char *stem, const char *check)
{
	return xasprintf("build/%s/check/%s__%s.json", cand, stem, check);
}

char *check_record_published(const char *cand, const char *stem, const char *check)
{
	return xasprintf("check/%s/%s__%s.json", cand, stem, check);
}

/* ---- the field check on every read (evidence/check.h) ------------------- */

static const char *const check_statuses[] = { "complete", "failed", "timeout", "skipped", NULL };
static const char *const check_verdicts[] = { "clean", "findings", NULL };
static const char *const check_words[] = { "functional", "sanitizers", "memcheck", "consttime",
	NULL };

static const struct field_rule check_rules[] = {
	FIELD_WORD("status", J_STR, check_statuses),
	FIELD_OPT("status_detail", J_STR | J_NULL),
	{ "verdict", J_STR | J_NULL, F_REQUIRED, 0, 0, check_verdicts },
	FIELD("candidate", J_STR), FIELD("label", J_STR),
	FIELD_OPT("instance", J_STR | J_NULL), FIELD_OPT("type", J_STR | J_NULL),
	FIELD_OPT("variant", J_STR | J_NULL),
	FIELD_WORD("check", J_STR, check_words),
	FIELD_OPT("library", J_STR | J_NULL), FIELD_OPT("library_sha256", J_STR | J_NULL),
	FIELD_OPT("timed_library", J_STR | J_NULL),
	FIELD_OPT("timed_library_sha256", J_STR | J_NULL),
	FIELD_OPT("build", J_OBJ | J_NULL), FIELD_OPT("tool", J_OBJ | J_NULL),
	FIELD_OPT("command", J_ARR | J_NULL), FIELD_OPT("suppressions", J_OBJ | J_NULL),
	FIELD_OPT("plan", J_OBJ | J_NULL),
	FIELD_NUM_OPT("plan.rounds", J_INT, 0, MAX_COUNT),
	FIELD_NUM_OPT("plan.budget_s", J_NUM, 0, MAX_SECONDS),
	FIELD_NUM_OPT("plan.timeout_s", J_NUM, 0, MAX_SECONDS),
	FIELD_OPT("started_utc", J_STR | J_NULL), FIELD_OPT("ended_utc", J_STR | J_NULL),
	FIELD_NUM_OPT("wall_s", J_NUM | J_NULL, 0, MAX_SECONDS),
	FIELD_OPT("process", J_OBJ | J_NULL),
	FIELD_NUM_OPT("process." STRAYS_KILLED_KEY, J_INT | J_NULL, 0, MAX_COUNT),
	FIELD_OPT("raw_output", J_STR | J_NULL),
	FIELD_NUM_OPT("rounds_done", J_INT | J_NULL, 0, MAX_COUNT),
	FIELD_OPT("budget_reached", J_BOOL | J_NULL),
	FIELD("tests", J_ARR),
	FIELD_OPT("tests[].test", J_STR), FIELD_OPT("tests[].operation", J_STR | J_NULL),
	FIELD_NUM_OPT("tests[].checks", J_INT, 0, MAX_COUNT),
	FIELD_NUM_OPT("tests[].failures", J_INT, 0, MAX_COUNT),
	FIELD("findings", J_ARR),
	FIELD_NUM("findings[].id", J_INT, 1, MAX_COUNT),
	FIELD("findings[].kind", J_STR), FIELD_OPT("findings[].operation", J_STR | J_NULL),
	FIELD_OPT("findings[].what", J_STR | J_NULL), FIELD_OPT("findings[].call", J_STR | J_NULL),
	FIELD_NUM_OPT("findings[].round", J_INT | J_NULL, 0, MAX_COUNT),
	FIELD_NUM("findings[].occurrences", J_INT, 0, MAX_COUNT),
	FIELD_OPT("findings[].location", J_OBJ | J_NULL),
	FIELD_OPT("findings[].stack", J_ARR | J_NULL),
	FIELD_OPT("suppressed", J_ARR | J_NULL),
	FIELD("operations", J_OBJ),
	FIELD_NUM("findings_count", J_INT, 0, MAX_COUNT),
};

int check_record_check(const json_t *doc, char **why)
{
	return EVIDENCE_CHECK(doc, CHECK_KIND, CHECK_VERSION, check_rules, why);
}
