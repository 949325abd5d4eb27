/*
 * repeat.c — repeatability, measured (repeat.h): the deterministic sample of
 * a run's units, re-timed as a phase of its own on <run>/repeat.run/, and
 * the complete records copied to <run>/repeat/.
 */
#include "campaign/repeat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/rundir.h"
#include "evidence/json.h"
#include "evidence/names.h"
#include "evidence/record.h"
#include "util/fsutil.h"

/* "<digest>\t<ID>/<stem>" for each complete record of candidate folder
 * records/<cand>/ of run. */
static void complete_units(const char *run, const char *cand, struct strlist *out)
{
	char *dir = path_joinf(run, "records/%s", cand);
	struct strlist names = STRLIST_INIT;
	dir_list(dir, DIR_PICK_FILES, &names);
	for (size_t i = 0; i < names.n; i++) {
		char *stem = NULL, *op = NULL, *err = NULL;
		const char *name = names.items[i];
		if (split_stem_op(name, &stem, &op) || strstr(name, ".tmp.")) {
			free(stem);
			free(op);
			continue;
		}
		char *path = path_join(dir, name);
		json_t *j = evidence_load_below(run, path, &err);
		if (j && !record_check(j, &err) &&
		    !strcmp(jget_str(j, "status", ""), ST_COMPLETE)) {
			char *unit = xasprintf("%s/%.*s", cand, (int)(strlen(name) - 5), name);
			char hex[65];
			sha256_hex(unit, strlen(unit), hex);
			sl_push_owned(out, xasprintf("%s\t%s", hex, unit));
			free(unit);
		}
		json_decref(j);
		free(err);
		free(path);
		free(stem);
		free(op);
	}
	sl_free(&names);
	free(dir);
}

void repeat_sample(const char *run, struct strlist *units)
{
	char *records = path_join(run, "records");
	struct strlist cands = STRLIST_INIT;
	dir_list(records, DIR_PICK_DIRS, &cands);
	sl_sort(&cands);
	for (size_t c = 0; c < cands.n; c++) {
		struct strlist keyed = STRLIST_INIT;
		complete_units(run, cands.items[c], &keyed);
		sl_sort(&keyed);
		size_t k = (keyed.n + REPEAT_SHARE_DIVISOR - 1) / REPEAT_SHARE_DIVISOR;
		for (size_t i = 0; i < k && i < keyed.n; i++)
			sl_push(units, strchr(keyed.items[i], '\t') + 1);
		sl_free(&keyed);
	}
	sl_free(&cands);
	free(records);
}

/* The calibration of each sampled unit, copied so the plan is the run's. */
static void copy_calibrations(const char *run, const char *rrun, const struct strlist *units)
{
	for (size_t i = 0; i < units->n; i++) {
		char *src = path_joinf(run, "calibrate/%s.json", units->items[i]);
		char *dst = path_joinf(rrun, "calibrate/%s.json", units->items[i]);
		char *dir = path_dirname(dst);
		if (path_is_file(src) && !path_exists(dst) && mkdir_p(dir, 0755) == 0)
			copy_file(src, dst);
		free(dir);
		free(src);
		free(dst);
	}
}

/* Keep the engine's units that are in the sample. */
static void keep_sampled(struct engine *e, const struct strlist *units)
{
	size_t w = 0;
	for (size_t i = 0; i < e->n_units; i++) {
		char *key = xasprintf("%s/%s", e->units[i].cand, e->units[i].stem);
		if (sl_contains(units, key))
			e->units[w++] = e->units[i];
		else
			engine_unit_free(&e->units[i]);
		free(key);
	}
	e->n_units = w;
}

/* The complete records of the repeat run, copied to <run>/repeat/. */
static int publish_records(const char *run, const char *rrun, const struct strlist *units)
{
	int missing = 0;
	for (size_t i = 0; i < units->n; i++) {
		char *src = path_joinf(rrun, "records/%s.json", units->items[i]);
		char *dst = path_joinf(run, REPEAT_DIR "/%s.json", units->items[i]);
		char *dir = path_dirname(dst), *err = NULL;
		json_t *j = evidence_load_below(rrun, src, &err);
		if (j && !strcmp(jget_str(j, "status", ""), ST_COMPLETE) && mkdir_p(dir, 0755) == 0 &&
		    copy_file(src, dst) == 0) {
			/* copied */
		} else {
			missing++;
		}
		json_decref(j);
		free(err);
		free(dir);
		free(src);
		free(dst);
	}
	return missing;
}

static void ids_of(const struct strlist *units, struct strlist *ids)
{
	for (size_t i = 0; i < units->n; i++) {
		char *id = xstrndup(units->items[i], strcspn(units->items[i], "/"));
		if (!sl_contains(ids, id))
			sl_push(ids, id);
		free(id);
	}
}

int repeat_phase(const struct engine_opts *o)
{
	char *run = engine_run_dir(o);
	struct strlist units = STRLIST_INIT;
	repeat_sample(run, &units);
	if (!units.n) {
		ngcc_error("repeat: %s holds no complete timing record to time again; measure first",
			   run);
		free(run);
		return EXIT_INPUT;
	}
	char *rrun = path_join(run, REPEAT_RUN_DIR);
	copy_calibrations(run, rrun, &units);
	struct engine_opts ro = *o;
	memset(&ro.ids, 0, sizeof ro.ids);
	memset(&ro.ops, 0, sizeof ro.ops);
	memset(&ro.shard, 0, sizeof ro.shard);
	memset(&ro.priors, 0, sizeof ro.priors);
	ro.defer = NULL;
	ro.deferred_only = 0;
	ro.run = rrun;
	/* only the timing records are compared: no input-pool pass (it runs
	 * inside the measure phase) */
	ro.input_pool = 0;
	ids_of(&units, &ro.ids);
	fprintf(stderr, "repeat: timing %zu sampled unit(s) again in %s\n", units.n, rrun);
	struct engine e;
	int rc = engine_begin(&e, &ro, "repeat");
	if (rc == EXIT_OK) {
		keep_sampled(&e, &units);
		rc = engine_measure(&e);
		engine_end(&e, rc);
	}
	engine_free(&e);
	if (rc <= EXIT_FAILED && publish_records(run, rrun, &units))
		rc = EXIT_FAILED;
	if (rc <= EXIT_FAILED)
		fprintf(stderr, "repeat: %zu record(s) in %s/%s\n", units.n, run, REPEAT_DIR);
	sl_free(&ro.ids);
	sl_free(&units);
	free(rrun);
	free(run);
	return rc;
}

int repeat_strip_option(int *argc, char **argv, const char *name)
{
	int found = 0, k = 1;
	for (int i = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "--")) {
			while (i < *argc)
				argv[k++] = argv[i++];
			break;
		}
		if (!strcmp(argv[i], name))
			found = 1;
		else
			argv[k++] = argv[i];
	}
	*argc = k;
	argv[k] = NULL;
	return found;
}
