/* accept.c — see accept.h. */
#include "evidence/accept.h"
#include "evidence/build_json.h"
#include "evidence/campaign_json.h"
#include "evidence/check_json.h"
#include "evidence/json.h"
#include "evidence/memory_json.h"
#include "evidence/names.h"
#include "evidence/pool_json.h"
#include "evidence/profile_json.h"
#include "evidence/record.h"
#include "evidence/samples_json.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* The unit files: one folder per format, <dir>/<cand>/<label>__<op>.json. */
struct unit_kind {
	const char *dir;
	const char *kind;                            /* its schema's kind; NULL: any */
	int (*fields)(const json_t *, char **);      /* the format's check; NULL: schema only */
	const char *op_key;                          /* the field naming the operation */
	const char *library_key;                     /* the library it was made from */
	int library_optional;                        /* older documents lack library_key */
	int (*consistent)(const json_t *, char **);  /* what else must agree inside it */
};

/* A timing record: the status its processes and plan make, no more trials
 * than planned, and the flattened trials equal to the processes' ones. */
static int record_consistent(const json_t *r, char **why)
{
	const json_t *processes = json_object_get(r, "processes");
	long long planned = jget_int(json_object_get(r, "plan"), "trials", -1);
	const char *status = jget_str(r, "status", "");
	const char *derived = record_status(processes, (int)planned);
	if (strcmp(status, derived)) {
		*why = xasprintf("status is \"%s\", but its processes and plan make it %s", status,
				 derived);
		return -1;
	}
	const json_t *flat = json_object_get(r, "trials");
	size_t i, j, k = 0;
	json_t *p, *t;
	json_array_foreach(processes, i, p) {
		json_array_foreach(json_object_get(p, "trials"), j, t) {
			if (!json_equal(t, json_array_get(flat, k))) {
				*why = xasprintf("trials[%zu] differs from processes[%zu].trials[%zu]",
						 k, i, j);
				return -1;
			}
			k++;
		}
	}
	if (k != json_array_size(flat)) {
		*why = xasprintf("trials has %zu entries, the processes %zu", json_array_size(flat),
				 k);
		return -1;
	}
	if (planned >= 0 && k > (size_t)planned) {
		*why = xasprintf("%zu trial(s), more than the %lld of its plan", k, planned);
		return -1;
	}
	return 0;
}

static const struct unit_kind unit_kinds[] = {
	{ "records", RECORD_KIND, record_check, "op_key", "library_sha256", 0, record_consistent },
	/* a sample of the units timed again (campaign/repeat.h) */
	{ "repeat", RECORD_KIND, record_check, "op_key", "library_sha256", 0, record_consistent },
	{ "memory", MEMORY_KIND, memory_check, "op_key", "library_sha256", 0, NULL },
	/* profiles made before they named the timed library lack it */
	{ "profile", PROFILE_KIND, profile_check_fields, "op_key", "library_sha256", 1, NULL },
	{ "check", CHECK_KIND, check_record_check, "check", "timed_library_sha256", 0, NULL },
	{ "calibrate", NULL, NULL, NULL, NULL, 0, NULL },
	{ "samples", SAMPLES_KIND, samples_check, "op_key", "library_sha256", 0, NULL },
	{ "pool", POOL_KIND, pool_check, "op_key", "library_sha256", 0, NULL },
};

/* The check function of the format a document names, for the files that
 * are not unit files (build.json, campaign.json, ...). */
static int (*format_of(const json_t *j))(const json_t *, char **)
{
	static const struct {
		const char *kind;
		int (*check)(const json_t *, char **);
	} formats[] = {
		{ RECORD_KIND, record_check }, { PROFILE_KIND, profile_check_fields },
		{ MEMORY_KIND, memory_check }, { BUILD_JSON_KIND, build_json_check },
		{ CAMPAIGN_KIND, campaign_check }, { CHECK_KIND, check_record_check },
		{ POOL_KIND, pool_check },
		{ SAMPLES_KIND, samples_check },
	};
	for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
		if (!evidence_check_schema(j, formats[i].kind, 1))
			return formats[i].check;
	return NULL;
}

static int known_and_checked(const json_t *doc, int (*fields)(const json_t *, char **),
			     char **why)
{
	if (schema_known(doc, why))
		return -1;
	return fields && fields(doc, why) ? -1 : 0;
}

/* The document names the candidate, label and operation its file name
 * says. */
static int same_identity(const struct unit_kind *k, const json_t *doc, const char *cand,
			 const char *label, const char *op, char **why)
{
	const char *c = jget_str(doc, "candidate", "");
	const char *l = jget_str(doc, "label", "");
	/* op_key is an extension of memory and profile records: "operation"
	 * in older ones */
	const char *o = jget_str(doc, k->op_key, jget_str(doc, "operation", ""));
	/* an optimized instance's files add "+avx2" (or the like) to its label */
	size_t ln = strlen(l);
	int label_ok = !strcmp(l, label) || (ln && !strncmp(l, label, ln) && label[ln] == '+');
	if (strcmp(c, cand))
		*why = xasprintf("candidate is \"%s\", the folder says %s", c, cand);
	else if (!label_ok)
		*why = xasprintf("label is \"%s\", the file name says %s", l, label);
	else if (strcmp(o, op))
		*why = xasprintf("%s is \"%s\", the file name says %s", k->op_key, o, op);
	else
		return 0;
	return -1;
}

/* Made from the library build.json lists for the instance. */
static int same_build(const struct unit_kind *k, const json_t *doc, const json_t *instances,
		      const char *cand, const char *label, char **why)
{
	char *key = xasprintf("%s/%s", cand, label);
	const json_t *e = json_object_get(instances, key);
	const char *built = jget_str(e, "library_sha256", NULL);
	const char *used = jget_str(doc, k->library_key, "");
	int rc = 0;
	if (!e) {
		*why = xasprintf("instance %s is not in build.json", key);
		rc = -1;
	} else if (built && strcmp(built, used)) {
		*why = xasprintf("made on another build of %s: %s %.16s… differs from "
				 "build.json's %.16s… (stale)",
				 key, k->library_key, *used ? used : "(none)", built);
		rc = -1;
	}
	free(key);
	return rc;
}

static int accept_unit(const struct unit_kind *k, const char *rel, const json_t *doc,
		       const json_t *instances, char **why)
{
	const char *first = strchr(rel, '/');
	const char *second = first ? strchr(first + 1, '/') : NULL;
	char *stem = NULL, *op = NULL;
	/* profile/<cand>/ also holds the survey and relink-failure notes */
	if (!strcmp(k->dir, "profile") && second && !strchr(second + 1, '/') &&
	    evidence_check_schema(doc, PROFILE_KIND, PROFILE_VERSION))
		return known_and_checked(doc, format_of(doc), why);
	if (!second || strchr(second + 1, '/') || split_stem_op(second + 1, &stem, &op)) {
		*why = xasprintf("not a %s/<cand>/<label>__<op>.json file", k->dir);
		return -1;
	}
	char *cand = xstrndup(first + 1, (size_t)(second - first - 1));
	int rc = 0;
	if (k->kind && evidence_check_schema(doc, k->kind, 1)) {
		if (schema_known(doc, why) == 0)
			*why = xasprintf("not a %s document (schema \"%s\")", k->kind,
					 jget_str(doc, "schema", ""));
		rc = -1;
	} else if (known_and_checked(doc, k->fields, why)) {
		rc = -1;
	} else if (k->op_key && same_identity(k, doc, cand, stem, op, why)) {
		rc = -1;
	} else if (k->library_key && instances &&
		   !(k->library_optional && !json_object_get(doc, k->library_key)) &&
		   same_build(k, doc, instances, cand, stem, why)) {
		rc = -1;
	} else if (k->consistent && k->consistent(doc, why)) {
		rc = -1;
	}
	free(cand);
	free(stem);
	free(op);
	return rc;
}

int evidence_accept(const char *rel, const json_t *doc, const json_t *instances, char **why)
{
	*why = NULL;
	for (size_t i = 0; i < sizeof unit_kinds / sizeof *unit_kinds; i++) {
		size_t n = strlen(unit_kinds[i].dir);
		if (!strncmp(rel, unit_kinds[i].dir, n) && rel[n] == '/')
			return accept_unit(&unit_kinds[i], rel, doc, instances, why);
	}
	return known_and_checked(doc, format_of(doc), why);
}
