/*
 * fuzz_evidence.c — libFuzzer target: the JSON evidence loaders.  The input
 * is parsed as JSON and given to every format's field check
 * (evidence/check.h); a document a check accepts is then used the way
 * the readers use it (the record's trials flattened and their statistics
 * computed, the profile's, memory and sample record's derived values
 * recomputed),
 * which must not crash whatever the values.
 */
#include <stdint.h>
#include <stdlib.h>

#include "evidence/build_json.h"
#include "evidence/campaign_json.h"
#include "evidence/check_json.h"
#include "evidence/json.h"
#include "evidence/memory_json.h"
#include "evidence/profile_json.h"
#include "evidence/record.h"
#include "evidence/samples_json.h"
#include "stats/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void use_record(const json_t *j)
{
	char *why = NULL;
	if (record_check(j, &why)) {
		free(why);
		return;
	}
	struct trial *t = NULL;
	size_t n = record_flatten_trials(json_object_get(j, "processes"), &t);
	if (n) {
		struct timing_stats s;
		stats_compute(t, n, &s);
	}
	free(t);
	record_status(json_object_get(j, "processes"),
		      (int)jget_int(json_object_get(j, "plan"), "trials", -1));
}

/* Each format's field check and, for a document it accepts, what the
 * readers then do with it (NULL: nothing more). */
typedef int (*json_check_fn)(const json_t *doc, char **why);
static const struct {
	json_check_fn check, then;
} formats[] = {
	{ profile_check_fields, profile_check },
	{ memory_check, memory_recompute_check },
	{ samples_check, samples_recompute_check },
	{ build_json_check, NULL },
	{ campaign_check, NULL },
	{ check_record_check, check_record_recompute },
	{ schema_known, NULL },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *j = json_loadb((const char *)data, size, 0, NULL);
	if (!j)
		return 0;
	use_record(j);
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		char *why = NULL;
		if (!formats[i].check(j, &why) && formats[i].then) {
			char *w = NULL;
			formats[i].then(j, &w);
			free(w);
		}
		free(why);
	}
	json_decref(j);
	return 0;
}
