/* validate.c — see validate.h. */
#include "dataset/validate.h"
#include "model/size_audit.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/accept.h"
#include "evidence/check_json.h"
#include "dataset/history.h"
#include "dataset/publish_util.h"
#include "evidence/build_json.h"
#include "evidence/json.h"
#include "evidence/memory_json.h"
#include "evidence/pool_json.h"
#include "evidence/names.h"
#include "evidence/paths.h"
#include "evidence/profile_json.h"
#include "evidence/record.h"
#include "evidence/samples_json.h"
#include "host/env.h"
#include "kat/katlog.h"
#include "method/hashmsg.h"
#include "model/dataset.h"
#include "report/report.h"
#include "site/site.h"
#include "stats/robust.h"
#include "stats/stats.h"
#include "evidence/campaign_json.h"
#include "util/fsutil.h"
#include "util/untrusted.h"
#include "util/util.h"

/* A loaded evidence file of one system. */
struct vfile {
	char *rel;        /* relative to data/<SYS>/ */
	json_t *j;
};

/* The first complete record's environment per CPU (R10 reference). */
struct env_ref {
	long long cpu;
	const json_t *env;
	const char *rel;
};

struct val {
	const struct validate_opts *o;
	const char *dataset;
	FILE *out;
	struct validate_counts c;
	/* the system being checked */
	const char *sys;
	char *root;                 /* <dataset>/data/<SYS> */
	int unfixed_ok;
	json_t *instances;          /* build.json "instances" (borrowed) */
	struct vfile *files;
	size_t n_files;
	struct env_ref *envs;
	size_t n_envs;
};

int validate_close(double a, double b)
{
	double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
	return a == b || fabs(a - b) <= 1e-12 * scale;
}

/* ---- output ------------------------------------------------------------------- */

static void problem(struct val *v, const char *rel, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* rel: relative to data/<SYS>/ when v->sys is set, else to the dataset. */
static void vproblem(struct val *v, int count_as_mismatch, const char *rel,
		     const char *fmt, va_list ap)
{
	char *what = xvasprintf(fmt, ap);
	if (v->sys && !count_as_mismatch)
		fprintf(v->out, "PROBLEM data/%s/%s: %s\n", v->sys, rel, what);
	else
		fprintf(v->out, "PROBLEM %s: %s\n", rel, what);
	free(what);
	if (count_as_mismatch)
		v->c.mismatches++;
	else
		v->c.problems++;
}

static void problem(struct val *v, const char *rel, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vproblem(v, 0, rel, fmt, ap);
	va_end(ap);
}

static void mismatch(struct val *v, const char *rel, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void mismatch(struct val *v, const char *rel, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vproblem(v, 1, rel, fmt, ap);
	va_end(ap);
}

/* ---- (1) files, schemas, absolute paths ----------------------------------------- */

static const json_t *find_file(const struct val *v, const char *rel)
{
	for (size_t i = 0; i < v->n_files; i++)
		if (!strcmp(v->files[i].rel, rel))
			return v->files[i].j;
	return NULL;
}

/* A text file (KAT log): no `key = /absolute` line. */
static void check_text_paths(struct val *v, const char *rel, const char *data)
{
	for (const char *line = data; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		if (memmem(line, n, " = /", 4)) {
			problem(v, rel, "absolute path in line \"%.*s\"", n > 80 ? 80 : (int)n, line);
			return;
		}
		line = nl ? nl + 1 : NULL;
	}
}

/* Links and special files anywhere in the dataset: never followed. */
static void check_unusual(struct val *v)
{
	struct strlist odd = STRLIST_INIT;
	tree_list_unusual(v->dataset, "", &odd);
	for (size_t i = 0; i < odd.n; i++)
		problem(v, odd.items[i], "a symbolic link or special file; a dataset holds only "
			"regular files and folders (not followed)");
	sl_free(&odd);
}

static void load_files(struct val *v)
{
	struct strlist files = STRLIST_INIT;
	tree_list_files(v->root, "", &files);
	for (size_t i = 0; i < files.n; i++) {
		const char *rel = files.items[i];
		char *path = path_join(v->root, rel), *data = NULL, *why = NULL;
		size_t len = 0;
		int json = str_ends_with(rel, ".json");
		/* evidence within the evidence limits (evidence/json.h) */
		if (json && evidence_read_fd(open_below(v->root, path), rel, &data, &len, &why)) {
			problem(v, rel, "%s", why + strlen(rel) + 2);
		} else if (!json && read_file_below(v->root, path, &data, &len)) {
			problem(v, rel, "cannot be read: %s", io_strerror(errno));
		} else if (json) {
			json_error_t je;
			json_t *j = json_loadb(data, len, 0, &je);
			if (!j) {
				problem(v, rel, "not valid JSON (line %d: %s)", je.line, je.text);
			} else {
				/* schema and fields: check_evidence, with build.json */
				if (json_find_absolute(j, NULL, &why))
					problem(v, rel, "absolute path at %s", why);
				v->files = xrealloc(v->files, (v->n_files + 1) * sizeof *v->files);
				v->files[v->n_files++] = (struct vfile){ xstrdup(rel), j };
			}
		} else if (!str_starts_with(rel, "patches/")) {
			/* a patch is the candidate's text, checked by its digest */
			check_text_paths(v, rel, data);
		}
		free(why);
		free(data);
		free(path);
	}
	sl_free(&files);
}

static void check_system_id(struct val *v, const struct strlist *systems_csv, int have_csv)
{
	const json_t *c = find_file(v, "campaign.json");
	const char *sys = jget_str(c, "system_id", NULL);
	if (!c)
		problem(v, "campaign.json", "missing or unreadable");
	else if (!sys || strcmp(sys, v->sys))
		problem(v, "campaign.json", "system_id is \"%s\", but the folder is data/%s/",
			sys ? sys : "(missing)", v->sys);
	if (have_csv && !sl_contains(systems_csv, v->sys))
		problem(v, "campaign.json", "system %s is not in the dataset's systems.csv", v->sys);
	const json_t *pub = find_file(v, "publish.json");
	v->unfixed_ok = v->o->publish_unfixed ||
			jget_bool(json_object_get(pub, "options"), "publish_unfixed", 0);
}

/* ---- (2) build.json and KAT logs -------------------------------------------------- */

/* Statuses that come from a KAT run's RESULT line (docs/method.md §2.2). */
static int status_has_log(const char *s)
{
	static const char *const st[] = { "PASS", "MISMATCH", "NOKAT", "CRYPTOFAIL",
					  "OVERFLOW", "LOADFAIL", "TIMEOUT", "CRASH",
					  "PARTIAL" };
	for (size_t i = 0; s && i < sizeof st / sizeof *st; i++)
		if (!strcmp(s, st[i]))
			return 1;
	return 0;
}

/* A PARTIAL status rests on the one-record recheck: its published log
 * katcheck/<cand>/<stem>.log must end with a PASS. */
static void check_recheck(struct val *v, const char *log_rel)
{
	char *rel = xasprintf("katcheck/%s", str_starts_with(log_rel, "kat/") ? log_rel + 4 : log_rel);
	char *path = path_join(v->root, rel), *log = NULL, *id = NULL, *status = NULL;
	if (read_file_below(v->root, path, &log, NULL))
		problem(v, rel, "missing or unreadable (%s): the PARTIAL KAT status needs the "
			"recheck log", io_strerror(errno));
	else if (!(status = katlog_final_result(log, &id)) || strcmp(status, "PASS"))
		problem(v, rel, "recheck does not end with a PASS RESULT line (%s)",
			status ? status : "none");
	free(status);
	free(id);
	free(log);
	free(path);
	free(rel);
}

static void check_kat_log(struct val *v, const char *key, const json_t *e,
			  struct strlist *referenced)
{
	const char *kat = jget_str(e, "kat", NULL);
	const char *log_rel = jget_str(e, "kat_log", NULL);
	const char *want = jget_str(e, "kat_log_sha256", NULL);
	const char *cand = jget_str(e, "candidate", "");
	if (!log_rel) {
		if (status_has_log(kat))
			problem(v, "build.json", "%s: KAT status %s but no kat_log", key, kat);
		return;
	}
	sl_push(referenced, log_rel);
	char *path = path_join(v->root, log_rel), *log = NULL, *id = NULL;
	size_t len = 0;
	char hex[65];
	if (read_file_below(v->root, path, &log, &len)) {
		/* a path out of data/<SYS>/, a link or a FIFO is never read */
		char *shown = str_printable(log_rel, 200);
		problem(v, shown, "KAT log of %s cannot be read: %s", key,
			errno == ENOENT ? "missing" : io_strerror(errno));
		free(shown);
		free(path);
		return;
	}
	v->c.kat_logs++;
	sha256_hex(log, len, hex);
	if (!want || strcmp(hex, want))
		problem(v, log_rel, "SHA-256 %.16s… differs from build.json's kat_log_sha256 %.16s…",
			hex, want ? want : "(none)");
	char *status = katlog_final_result(log, &id);
	/* PARTIAL is a TIMEOUT whose one-record recheck matched (docs/method.md
	 * §2.2), or a hash instance's own PARTIAL. */
	int same = status && kat && (!strcmp(status, kat) ||
				     (!strcmp(kat, "PARTIAL") && !strcmp(status, "TIMEOUT")));
	if (!status)
		problem(v, log_rel, "last line is not a RESULT line");
	else if (!same)
		problem(v, log_rel, "RESULT says %s, build.json's kat is %s", status,
			kat ? kat : "null");
	else if (*cand && strcmp(id, cand))
		problem(v, log_rel, "RESULT names candidate %s, build.json %s", id, cand);
	/* A hash instance's PARTIAL (files skipped on request) says so in its
	 * own RESULT line; only a timed-out run rests on a recheck. */
	if (kat && !strcmp(kat, "PARTIAL") && status && !strcmp(status, "TIMEOUT"))
		check_recheck(v, log_rel);
	free(status);
	free(id);
	free(log);
	free(path);
}

/* The patches an entry names (add --patch): patches/<cand>/<file> in the
 * dataset, with the recorded SHA-256. */
static void check_patches(struct val *v, const char *key, const json_t *e,
			  struct strlist *referenced)
{
	const char *cand = jget_str(e, "candidate", "");
	size_t i;
	json_t *pj;
	json_array_foreach(json_object_get(e, "patches"), i, pj) {
		const char *rel = jget_str(pj, "path", ""), *want = jget_str(pj, "sha256", "");
		char *expect = xasprintf("patches/%s/%s", cand, jget_str(pj, "file", ""));
		char *path = path_join(v->root, rel), *data = NULL, hex[65];
		size_t len = 0;
		if (strcmp(rel, expect)) {
			problem(v, "build.json", "%s: patch path %s, expected %s", key, rel, expect);
		} else if (read_file_below(v->root, path, &data, &len)) {
			problem(v, rel, "patch of %s cannot be read: %s", key,
				errno == ENOENT ? "missing" : io_strerror(errno));
		} else {
			sha256_hex(data, len, hex);
			if (strcmp(hex, want))
				problem(v, rel, "SHA-256 %.16s… differs from build.json's %.16s… (%s)",
					hex, want, key);
			if (!sl_contains(referenced, rel))
				sl_push(referenced, rel);
		}
		free(data);
		free(path);
		free(expect);
	}
}

static void check_build(struct val *v)
{
	const json_t *b = find_file(v, "build.json");
	struct strlist referenced = STRLIST_INIT, logs = STRLIST_INIT;
	v->instances = json_object_get(b, "instances");
	if (!json_is_object(v->instances)) {
		problem(v, "build.json", "%s", b ? "has no \"instances\" object" : "missing or unreadable");
		v->instances = NULL;
		return;
	}
	const char *key;
	json_t *e;
	json_object_foreach(v->instances, key, e) {
		check_kat_log(v, key, e, &referenced);
		check_patches(v, key, e, &referenced);
	}
	tree_list_files(v->root, "kat", &logs);
	tree_list_files(v->root, "patches", &logs);
	for (size_t i = 0; i < logs.n; i++)
		if (!sl_contains(&referenced, logs.items[i]))
			problem(v, logs.items[i], "%s not referenced by build.json",
				str_starts_with(logs.items[i], "patches/") ? "patch" : "KAT log");
	sl_free(&logs);
	sl_free(&referenced);
}

/* ---- (3) timing records ---------------------------------------------------------------- */

/* "<cand>/<stem>" of records/<cand>/<stem>__<op>.json, and the op. */
static int evidence_key(const char *rel, char **key, char **op)
{
	const char *s1 = strchr(rel, '/');
	const char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
	char *stem = NULL;
	if (!s2 || strchr(s2 + 1, '/') || split_stem_op(s2 + 1, &stem, op))
		return -1;
	*key = xasprintf("%.*s/%s", (int)(s2 - s1 - 1), s1 + 1, stem);
	free(stem);
	return 0;
}

static void check_real(struct val *v, const char *rel, const json_t *obj, const char *prefix,
		       const char *name, int present, double want)
{
	const json_t *got = json_object_get(obj, name);
	int expect = present && isfinite(want);
	if (!expect && json_is_null(got))
		return;
	if (!expect)
		problem(v, rel, "%s%s is %.17g, recomputed null", prefix, name, json_number_value(got));
	else if (!json_is_number(got))
		problem(v, rel, "%s%s is missing or not a number, recomputed %.17g", prefix, name, want);
	else if (!validate_close(json_number_value(got), want))
		problem(v, rel, "%s%s is %.17g, recomputed %.17g from the raw trials", prefix,
			name, json_number_value(got), want);
}

static void check_bool(struct val *v, const char *rel, const json_t *r, const char *name, int want)
{
	const json_t *got = json_object_get(r, name);
	if (!json_is_boolean(got) || json_is_true(got) != !!want)
		problem(v, rel, "%s is %s, recomputed %s", name,
			json_is_boolean(got) ? (json_is_true(got) ? "true" : "false") : "not a boolean",
			want ? "true" : "false");
}

static void check_statistics(struct val *v, const char *rel, const json_t *r, const char *op)
{
	struct trial *t = NULL;
	struct timing_stats s;
	size_t n = record_flatten_trials(json_object_get(r, "processes"), &t);
	if (!n) {
		problem(v, rel, "complete record without trials");
		return;
	}
	stats_compute(t, n, &s);
	unsigned long long len = hash_op_bytes(op);
	double mbs = 0;
	int has_mbs = len && !stats_throughput_mb_per_s(t, n, len, &mbs);
	free(t);
	const json_t *m = json_object_get(r, "measurements");
	if (!json_is_integer(m) || (uint64_t)json_integer_value(m) != s.measurements)
		problem(v, rel, "measurements is %lld, but the trials hold N = %llu calls",
			json_is_integer(m) ? (long long)json_integer_value(m) : -1LL,
			(unsigned long long)s.measurements);
	check_bool(v, rel, r, "guide_100_measurements_met", s.guide_100_measurements_met);
	int cyc = s.has_mean_cycles;
	/* Presence follows record.c: a value whenever there are trials. */
	check_real(v, rel, r, "", "mean_seconds", 1, s.mean_seconds);
	check_real(v, rel, r, "", "mean_cycles", cyc, s.mean_cycles);
	check_real(v, rel, r, "", "operations_per_second", 1, s.operations_per_second);
	check_real(v, rel, r, "", "median_trial_seconds", 1, s.median_trial_seconds);
	check_real(v, rel, r, "", "min_trial_seconds", 1, s.min_trial_seconds);
	check_real(v, rel, r, "", "max_trial_seconds", 1, s.max_trial_seconds);
	check_real(v, rel, r, "", "median_trial_cycles", cyc, s.median_trial_cycles);
	check_real(v, rel, r, "", "throughput_MB_per_second", has_mbs, mbs);
	const json_t *d = json_object_get(r, "dispersion");
	if (!json_is_object(d)) {
		problem(v, rel, "dispersion is missing");
	} else {
		check_real(v, rel, d, "dispersion.", "sd_trial_seconds", 1, s.sd_trial_seconds);
		check_real(v, rel, d, "dispersion.", "cv_trial_seconds", 1, s.cv_trial_seconds);
		check_real(v, rel, d, "dispersion.", "spread_trial_seconds", 1, s.spread_trial_seconds);
		check_real(v, rel, d, "dispersion.", "sd_trial_cycles", cyc, s.sd_trial_cycles);
		check_real(v, rel, d, "dispersion.", "cv_trial_cycles", cyc, s.cv_trial_cycles);
		check_real(v, rel, d, "dispersion.", "spread_trial_cycles", cyc, s.spread_trial_cycles);
	}
	check_bool(v, rel, r, "noisy", s.noisy);
}

static void check_environment(struct val *v, const char *rel, const json_t *r)
{
	const json_t *env = json_object_get(r, "environment");
	if (!json_is_object(env)) {
		problem(v, rel, "complete record without an environment block");
		return;
	}
	long long cpu = jget_int(env, "cpu_number", jget_int(r, "cpu", -1));
	const struct env_ref *ref = NULL;
	for (size_t i = 0; i < v->n_envs && !ref; i++)
		if (v->envs[i].cpu == cpu)
			ref = &v->envs[i];
	const struct env_ref *cmp = ref ? ref : (v->n_envs ? &v->envs[0] : NULL);
	struct strlist diffs = STRLIST_INIT;
	if (cmp && !env_equal(cmp->env, env, ref != NULL, &diffs)) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < diffs.n; i++)
			sb_addf(&sb, "%s%s", i ? "; " : "", diffs.items[i]);
		problem(v, rel, "environment differs from data/%s/%s: %s", v->sys, cmp->rel,
			sb.buf ? sb.buf : "?");
		sb_free(&sb);
	}
	sl_free(&diffs);
	if (!ref) {
		v->envs = xrealloc(v->envs, (v->n_envs + 1) * sizeof *v->envs);
		v->envs[v->n_envs++] = (struct env_ref){ cpu, env, rel };
	}
}

static void check_complete_record(struct val *v, const char *rel, const json_t *r,
				  const char *op)
{
	/* the trials against the plan and the processes: evidence_accept() */
	check_environment(v, rel, r);
	check_statistics(v, rel, r, op);
}

static void check_unfixed(struct val *v, const char *rel, const json_t *r)
{
	const json_t *host = json_object_get(r, "host");
	if (!jget_bool(host, "unfixed", 0) || v->unfixed_ok)
		return;
	problem(v, rel, "measured on an unfixed host (override: %s), but the dataset was not "
		"published with --publish-unfixed", jget_str(host, "override_reason", "not given"));
}

/* A timing record, or one of the repeatability sample (campaign/repeat.h,
 * not counted: its ratio to the first record is recomputed with the method
 * page).  Name, build, status and trials: evidence_accept() in
 * check_evidence. */
static void check_repeat_record(struct val *v, const char *rel, const json_t *r)
{
	char *key = NULL, *op = NULL;
	if (evidence_key(rel, &key, &op))
		return;
	check_unfixed(v, rel, r);
	if (!strcmp(jget_str(r, "status", ""), ST_COMPLETE))
		check_complete_record(v, rel, r, op);
	free(key);
	free(op);
}

static void check_record(struct val *v, const char *rel, const json_t *r)
{
	v->c.records++;
	check_repeat_record(v, rel, r);
}

/* ---- (4) profiles ---------------------------------------------------------------------- */

static void check_profile(struct val *v, const char *rel, const json_t *p)
{
	char *key = NULL, *op = NULL, *why = NULL;
	v->c.profiles++;
	if (evidence_key(rel, &key, &op))
		return;
	check_unfixed(v, rel, p);
	if (!strcmp(jget_str(p, "status", ""), "complete") && profile_check(p, &why))
		problem(v, rel, "%s (recomputed from calls and total)", why ? why : "derived values differ");
	free(why);
	free(key);
	free(op);
}

/* ---- (4b) memory records ---------------------------------------------------------------- */

static void check_memory(struct val *v, const char *rel, const json_t *m)
{
	char *key = NULL, *op = NULL, *why = NULL;
	if (evidence_key(rel, &key, &op))
		return;
	check_unfixed(v, rel, m);
	if (memory_recompute_check(m, &why))
		problem(v, rel, "%s (recomputed from the per_call arrays)", why ? why : "derived values differ");
	free(why);
	free(key);
	free(op);
}

/* R2: the per-input medians, their ratio and the flag, recomputed from
 * the raw batches. */
static void check_pool(struct val *v, const char *rel, const json_t *p)
{
	char *why = NULL;
	check_unfixed(v, rel, p);
	if (pool_recompute_check(p, &why))
		problem(v, rel, "%s (recomputed from the per-input batches)", why);
	free(why);
}

/* ---- (4b') sample records (R11) -------------------------------------------------------- */

/* Every robust figure recomputed from the kept samples; a document of
 * another kind in samples/ is refused by evidence_accept() already. */
static void check_samples(struct val *v, const char *rel, const json_t *s)
{
	char *why = NULL;
	if (evidence_check_schema(s, SAMPLES_KIND, SAMPLES_VERSION))
		return;
	check_unfixed(v, rel, s);
	if (samples_recompute_check(s, &why))
		problem(v, rel, "%s (recomputed from the kept samples)", why ? why : "derived values differ");
	free(why);
}

/* ---- (4c) check records ------------------------------------------------------------------ */

/* check/<cand>/<stem>__<check>.json: a check this tool knows, and the
 * derived fields recomputed (the name, the instance in build.json and the
 * record made on its library: evidence_accept()). */
static void check_check_record(struct val *v, const char *rel, const json_t *c)
{
	char *key = NULL, *name = NULL, *why = NULL;
	if (evidence_key(rel, &key, &name) || check_by_name(name) == CHECK_N)
		problem(v, rel, "not a check/<cand>/<label>__<check>.json file of its check");
	else if (check_record_recompute(c, &why))
		problem(v, rel, "%s (recomputed from the findings)", why);
	free(why);
	free(key);
	free(name);
}

static void check_evidence(struct val *v)
{
	for (size_t i = 0; i < v->n_files; i++) {
		const char *rel = v->files[i].rel;
		const json_t *j = v->files[i].j;
		char *why = NULL;
		/* the rule report and publish apply too */
		if (evidence_accept(rel, j, v->instances, &why))
			problem(v, rel, "%s", why);
		free(why);
		if (str_starts_with(rel, "records/"))
			check_record(v, rel, j);
		else if (str_starts_with(rel, "repeat/"))
			check_repeat_record(v, rel, j);
		else if (str_starts_with(rel, "profile/") &&
			 !evidence_check_schema(j, PROFILE_KIND, PROFILE_VERSION))
			check_profile(v, rel, j);
		else if (str_starts_with(rel, "memory/") &&
			 !evidence_check_schema(j, MEMORY_KIND, MEMORY_VERSION))
			check_memory(v, rel, j);
		else if (str_starts_with(rel, "pool/") &&
			 !evidence_check_schema(j, POOL_KIND, POOL_VERSION))
			check_pool(v, rel, j);
		else if (str_starts_with(rel, "samples/"))
			check_samples(v, rel, j);
		else if (str_starts_with(rel, "check/") &&
			 !evidence_check_schema(j, CHECK_KIND, CHECK_VERSION))
			check_check_record(v, rel, j);
		else if (!str_starts_with(rel, "profile/") && strchr(rel, '/') &&
			 jget_bool(json_object_get(j, "host"), "unfixed", 0))
			check_unfixed(v, rel, j);
	}
}

/* ---- one system ------------------------------------------------------------------------ */

static void free_system(struct val *v)
{
	for (size_t i = 0; i < v->n_files; i++) {
		free(v->files[i].rel);
		json_decref(v->files[i].j);
	}
	free(v->files);
	free(v->envs);
	free(v->root);
	v->files = NULL;
	v->n_files = 0;
	v->envs = NULL;
	v->n_envs = 0;
	v->root = NULL;
	v->instances = NULL;
	v->sys = NULL;
}

static void validate_system(struct val *v, const char *sys, const struct strlist *csv_ids,
			    int have_csv)
{
	v->sys = sys;
	v->root = xasprintf("%s/data/%s", v->dataset, sys);
	load_files(v);
	check_system_id(v, csv_ids, have_csv);
	check_build(v);
	check_evidence(v);
	free_system(v);
}

/* ---- (5) pages --------------------------------------------------------------------------- */

static size_t first_difference(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t i = 0;
	while (i < alen && i < blen && a[i] == b[i])
		i++;
	return i;
}

/* One regenerated file and its bytes. */
struct regen {
	const char *path;
	const char *data;
	size_t len;
};

/* Compare the files under <dataset>/<top>/ with the regenerated ones:
 * differing, missing and extra files are each a mismatch. */
static void compare_tree(struct val *v, const char *top, const struct regen *files, size_t n)
{
	struct strlist on_disk = STRLIST_INIT, made = STRLIST_INIT;
	char *dir = path_join(v->dataset, top);
	tree_list_files(dir, "", &on_disk);
	for (size_t i = 0; i < n; i++) {
		char *path = path_join(dir, files[i].path), *data = NULL;
		char *rel = xasprintf("%s/%s", top, files[i].path);
		size_t len = 0;
		sl_push(&made, files[i].path);
		if (read_file_below(dir, path, &data, &len))
			mismatch(v, rel, "missing or unreadable (the dataset generates this file): %s",
				 io_strerror(errno));
		else if (len != files[i].len || memcmp(data, files[i].data, len))
			mismatch(v, rel, "differs from the page regenerated from the dataset "
				 "(first difference at byte %zu)",
				 first_difference(data, len, files[i].data, files[i].len));
		free(rel);
		free(data);
		free(path);
	}
	for (size_t i = 0; i < on_disk.n; i++)
		if (!sl_contains(&made, on_disk.items[i])) {
			char *rel = xasprintf("%s/%s", top, on_disk.items[i]);
			mismatch(v, rel, "not a file the dataset generates");
			free(rel);
		}
	sl_free(&made);
	sl_free(&on_disk);
	free(dir);
}

/* Every system of the dataset loaded once, for the size audits, the pages
 * and the site alike. */
struct loaded {
	struct strlist ids;     /* dataset_published_systems order */
	struct dataset *ds;     /* NULL when a system did not load */
	char *err;              /* why (the first that did not) */
};

static void load_all(const char *dataset, struct loaded *l)
{
	memset(l, 0, sizeof *l);
	if (dataset_load_all_published(dataset, &l->ids, &l->ds, &l->err))
		l->ds = NULL;
}

static void free_loaded(struct loaded *l)
{
	if (l->ds)
		datasets_free(l->ds, l->ids.n);
	sl_free(&l->ids);
	free(l->err);
}

/* The Markdown tree regenerated from the loaded systems and compared with
 * reports/; *pages keeps it for the site (NULL when it cannot be made). */
static void check_pages(struct val *v, struct loaded *l, struct report_out *pages)
{
	memset(pages, 0, sizeof *pages);
	if (!l->ds || report_render_systems(l->ds, l->ids.n, 1, pages)) {
		mismatch(v, "reports", "cannot regenerate the pages: %s", l->err ? l->err : "?");
		return;
	}
	struct regen *r = xcalloc(pages->n ? pages->n : 1, sizeof *r);
	for (size_t i = 0; i < pages->n; i++)
		r[i] = (struct regen){ pages->f[i].path, pages->f[i].data, pages->f[i].len };
	compare_tree(v, "reports", r, pages->n);
	free(r);
}

/* The dataset digest as the site's footer shows it ("dataset sha256
 * <code>…</code>" on index.html), so that validate prints the same. */
static char *footer_digest(const struct site_files *site)
{
	static const char mark[] = "dataset sha256 <code>";
	for (size_t i = 0; i < site->n; i++) {
		if (strcmp(site->v[i].path, "index.html"))
			continue;
		char *text = xstrndup(site->v[i].data, site->v[i].len);
		char *at = strstr(text, mark), *end = at ? strstr(at, "</code>") : NULL;
		char *digest = end ? xstrndup(at + sizeof mark - 1, (size_t)(end - at) - (sizeof mark - 1)) : NULL;
		free(text);
		return digest;
	}
	return NULL;
}

/* The HTML site of docs/report-format.md §10–§11, built from the same
 * loaded systems and Markdown tree: compared with site/ when the dataset
 * has one, and its footer's dataset digest printed either way. */
static void check_site(struct val *v, struct loaded *l, const struct report_out *pages)
{
	char *dir = path_join(v->dataset, "site");
	int present = path_is_dir(dir);
	free(dir);
	struct site_files site = { NULL, 0 };
	char *err = NULL;
	if (!l->ds || site_render_loaded(v->dataset, &l->ids, l->ds, pages, &site, &err)) {
		if (present)
			mismatch(v, "site", "cannot regenerate the site: %s",
				 err ? err : l->err ? l->err : "?");
		free(err);
		site_files_free(&site);
		return;
	}
	char *digest = footer_digest(&site);
	if (digest)
		fprintf(v->out, "dataset sha256 %s (as the site's footer shows it)\n", digest);
	free(digest);
	if (!present) {
		site_files_free(&site);
		return;
	}
	struct regen *r = xcalloc(site.n ? site.n : 1, sizeof *r);
	for (size_t i = 0; i < site.n; i++)
		r[i] = (struct regen){ site.v[i].path, site.v[i].data, site.v[i].len };
	compare_tree(v, "site", r, site.n);
	fprintf(v->out, "site: %zu file(s) regenerated and compared byte for byte\n", site.n);
	free(r);
	site_files_free(&site);
}

/* A reviewer's survey.conf verdict "ICCS-only" over a scan that found own
 * primitives reachable from the API (docs/method.md §10.6): not a failure,
 * because the reading may be right, but worth a second look. */
static void warn_iccs_only_with_hits(const struct loaded *l)
{
	for (size_t s = 0; l->ds && s < l->ids.n; s++)
		for (size_t i = 0; i < l->ds[s].n_cand; i++) {
			const struct ds_candidate *c = &l->ds[s].cand[i];
			const json_t *scan = json_object_get(json_object_get(c->survey, "automatic"), "scan");
			size_t hits = json_is_array(scan) ? json_array_size(scan) : 0;
			if (!c->survey || strcmp(jget_str(c->survey, "verdict", ""), "ICCS-only") || !hits)
				continue;
			/* the dataset's words, escaped before the terminal sees them */
			const char *first = json_string_value(json_array_get(scan, 0));
			char *src = str_printable(jget_str(c->survey, "source", "?"), 300);
			char *hit = str_printable(first ? first : "?", 300);
			ngcc_warning("data/%s/profile/%s/survey.json: verdict ICCS-only (from %s) but "
				     "the scan found %zu own primitive(s) reachable from the API, "
				     "first: %s; re-read the source or correct survey.conf",
				     l->ids.items[s], c->id, src, hits, hit);
			free(src);
			free(hit);
		}
}

/* history/: the change history of the candidates (dataset/history.h). */
static void check_history(struct val *v)
{
	struct strlist problems = STRLIST_INIT;
	history_validate(v->dataset, &problems);
	for (size_t i = 0; i < problems.n; i++)
		problem(v, "history", "%s", problems.items[i]);
	sl_free(&problems);
}

/* ---- main ------------------------------------------------------------------------------------ */

static int push_system_id(char *f[SEMI_FIELDS], void *ids)
{
	char *id = f[0] ? str_trim(f[0]) : "";
	if (*id && strcmp(id, "ID"))
		sl_push(ids, id);
	return 0;
}

static void load_systems_csv(const char *dataset, struct strlist *ids, int *present)
{
	char *path = path_join(dataset, "systems.csv");
	*present = semicolon_rows(path, push_system_id, ids) == 0;
	free(path);
}

int validate_dataset(const char *dataset, const struct validate_opts *o,
		     struct validate_counts *counts)
{
	struct val v;
	struct strlist systems = STRLIST_INIT, csv_ids = STRLIST_INIT;
	int have_csv = 0;
	memset(&v, 0, sizeof v);
	v.o = o;
	v.dataset = dataset;
	v.out = o->out ? o->out : stdout;
	dataset_systems(dataset, &systems);
	if (!systems.n) {
		ngcc_error("%s is not a dataset: no data/<SYS>/ folder; give the --dataset "
			   "folder of 'ngcc-perf publish'", dataset);
		return EXIT_INPUT;
	}
	load_systems_csv(dataset, &csv_ids, &have_csv);
	check_unusual(&v);
	for (size_t i = 0; i < systems.n; i++)
		validate_system(&v, systems.items[i], &csv_ids, have_csv);
	struct loaded l;
	struct report_out pages;
	load_all(dataset, &l);
	v.c.problems += size_audit_check_loaded(dataset, &l.ids, l.ds, v.out);
	warn_iccs_only_with_hits(&l);
	check_pages(&v, &l, &pages);
	check_site(&v, &l, pages.n ? &pages : NULL);
	check_history(&v);
	report_out_free(&pages);
	free_loaded(&l);
	fprintf(v.out, "%zu timing record(s), %zu profile(s), %zu KAT log(s), %zu problem(s); "
		"report check: ", v.c.records, v.c.profiles, v.c.kat_logs, v.c.problems);
	if (v.c.mismatches)
		fprintf(v.out, "%zu mismatch(es)\n", v.c.mismatches);
	else
		fprintf(v.out, "ok\n");
	if (counts)
		*counts = v.c;
	sl_free(&systems);
	sl_free(&csv_ids);
	return v.c.problems || v.c.mismatches ? EXIT_FAILED : EXIT_OK;
}
