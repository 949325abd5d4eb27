/* campaign_json.c — see campaign_json.h. */
#include "evidence/campaign_json.h"
#include "evidence/check.h"
#include "evidence/json.h"
#include "evidence/names.h"
#include "method/arch.h"
#include "method/flags.h"
#include "method/shard.h"
#include "util/fsutil.h"
#include "util/lock.h"
#include "util/untrusted.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define GUIDE_REFERENCE_FLAGS "-std=c99 -Wpedantic -Wall -Wextra -O2"

/* ---- system id ------------------------------------------------------------ */

static char *host_name(void)
{
	char h[256] = "";
	if (gethostname(h, sizeof h - 1))
		strcpy(h, "unknown");
	return xstrdup(h);
}

struct host_match {
	const char *host, *shorthost, *arch;
	char *id;
};

static int match_system_row(char *f[SEMI_FIELDS], void *ctx)
{
	struct host_match *m = ctx;
	if (!f[0] || !f[2] || !strcmp(str_trim(f[0]), "ID"))
		return 0;
	const char *h = str_trim(f[2]);
	if (strcmp(h, m->host) && strcmp(h, m->shorthost))
		return 0;
	/* One host may hold two systems of different architectures (an
	 * AArch64 build run under emulation beside the native one): a row
	 * naming an Arch matches only that one. */
	const char *a = f[1] ? str_trim(f[1]) : "";
	if (*a && m->arch && !arch_matches(a, m->arch))
		return 0;
	m->id = xstrdup(str_trim(f[0]));
	return 1;
}

static char *systems_csv_lookup(const char *workspace, const char *host, const char *shorthost)
{
	char *path = path_join(workspace, "systems.csv");
	struct utsname u;
	struct host_match m = { host, shorthost, uname(&u) == 0 ? u.machine : NULL, NULL };
	semicolon_rows(path, match_system_row, &m);
	free(path);
	return m.id;
}

char *campaign_system_id(const char *workspace)
{
	char *host = host_name();
	char *shorthost = xstrndup(host, strcspn(host, "."));
	char *id = systems_csv_lookup(workspace, host, shorthost);
	free(host);
	if (id) {
		free(shorthost);
		return id;
	}
	return shorthost;
}

/* ---- skeleton ------------------------------------------------------------- */

/* The flags of profile p as one space-separated JSON string, leaving out
 * those that occur in the space-separated list `omit` (NULL: none). */
static json_t *flags_string(enum build_profile p, const char *omit)
{
	struct strlist sl = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	/* Padded with spaces so that " word " matches whole words only. */
	char *list = omit ? xasprintf(" %s ", omit) : NULL;
	build_profile_flags(p, 0, &sl);
	for (size_t i = 0; i < sl.n; i++) {
		if (list) {
			char *word = xasprintf(" %s ", sl.items[i]);
			int omitted = strstr(list, word) != NULL;
			free(word);
			if (omitted)
				continue;
		}
		if (sb.len)
			sb_addc(&sb, ' ');
		sb_adds(&sb, sl.items[i]);
	}
	free(list);
	sl_free(&sl);
	char *s = sb_detach(&sb);
	json_t *j = json_string(s);
	free(s);
	return j;
}

static json_t *profile_flags(enum build_profile p)
{
	return flags_string(p, NULL);
}

/* Guide flags minus the guide's reference flags: what the harness adds. */
static json_t *harness_additions(void)
{
	return flags_string(PROFILE_GUIDE, GUIDE_REFERENCE_FLAGS);
}

static json_t *arch_config(void)
{
	struct utsname u;
	int x86 = !uname(&u) && !strcmp(u.machine, "x86_64");
	json_t *a = json_object();
	json_object_set_new(a, "reference_flags", json_string(GUIDE_REFERENCE_FLAGS));
	json_object_set_new(a, "harness_additions", harness_additions());
	json_object_set_new(a, "fallback_flags", profile_flags(PROFILE_HARNESS_DEFAULT));
	json_object_set_new(a, "performance_flags", x86 ? profile_flags(PROFILE_GUIDE_PERFORMANCE) : json_null());
	json_object_set_new(a, "optimized_families", x86 ? json_pack("[s]", "avx2") : json_array());
	return a;
}

json_t *campaign_skeleton(const char *workspace, const char *run)
{
	char now[32];
	utc_now_iso(now);
	char *sys = campaign_system_id(workspace);
	json_t *d = json_object();
	json_object_set_new(d, "schema", evidence_schema(CAMPAIGN_KIND, CAMPAIGN_VERSION));
	json_object_set_new(d, "tool", json_pack("{ssssss}", "name", "ngcc-perf",
						 "version", NGCC_VERSION, "git_commit", NGCC_GIT_COMMIT));
	json_object_set_new(d, "system_id", json_string(sys));
	json_object_set_new(d, "run_id", json_string(path_basename(run)));
	json_object_set_new(d, "started_utc", json_string(now));
	json_object_set_new(d, "ended_utc", json_null());
	json_object_set_new(d, "environment_at_start", json_null());
	json_object_set_new(d, "environment_at_end", json_null());
	json_object_set_new(d, "host_checks", json_array());
	json_object_set_new(d, "host_problems", json_array());
	json_object_set_new(d, "host_overrides", json_array());
	json_object_set_new(d, "planning", json_null());
	json_object_set_new(d, "options", json_pack("{sssnsbsb}", "seed_mode", "fixed",
						    "input_pool", "sampling", 0, "memory_pass", 0));
	json_object_set_new(d, "arch_config", arch_config());
	json_object_set_new(d, "shards", json_pack("{sisns n}", "n", 1, "cpus", "assignment_digest"));
	json_object_set_new(d, "phases", json_array());
	json_object_set_new(d, "notes", json_array());
	free(sys);
	return d;
}

/* ---- update under the lock ----------------------------------------------- */

/* ---- the fields a reader relies on ----------------------------------------- */

static const struct field_rule campaign_rules[] = {
	FIELD_OPT("tool", J_OBJ | J_NULL),
	FIELD_OPT("system_id", J_STR | J_NULL), FIELD_OPT("run_id", J_STR | J_NULL),
	FIELD_OPT("started_utc", J_STR | J_NULL), FIELD_OPT("ended_utc", J_STR | J_NULL),
	FIELD_OPT("environment_at_start", J_OBJ | J_NULL),
	FIELD_OPT("environment_at_end", J_OBJ | J_NULL),
	FIELD_OPT("host_checks", J_ARR | J_NULL),
	FIELD_OPT("host_problems", J_ARR | J_NULL),
	FIELD_OPT("host_problems[]", J_STR),
	FIELD_OPT("host_overrides", J_ARR | J_NULL),
	FIELD_OPT("planning", J_OBJ | J_NULL),
	FIELD_NUM_OPT("planning.trials", J_INT, 0, 1e6),
	FIELD_NUM_OPT("planning.trial_target_s", J_NUM, 0, MAX_SECONDS),
	FIELD_OPT("options", J_OBJ | J_NULL),
	FIELD_OPT("options.candidates", J_ARR | J_NULL),
	FIELD_OPT("options.candidates[]", J_STR),
	FIELD_OPT("arch_config", J_OBJ | J_NULL),
	FIELD_OPT("shards", J_OBJ | J_NULL),
	FIELD_NUM_OPT("shards.n", J_INT, 1, SHARD_MAX),
	FIELD_OPT("shards.shard", J_INT | J_STR | J_NULL),
	FIELD_OPT("shards.cpus", J_ARR | J_NULL),
	FIELD_NUM_OPT("shards.cpus[]", J_INT, 0, 65535),
	FIELD_OPT("shards.merged_from", J_ARR),
	FIELD_OPT("shards.merged_from[]", J_OBJ),
	FIELD_OPT("shards.merged_from[].shard", J_STR),
	FIELD_OPT("phases", J_ARR | J_NULL),
	FIELD_OPT("phases[]", J_OBJ),
	FIELD_OPT("phases[].phase", J_STR),
	FIELD_NUM_OPT("phases[].exit_code", J_INT | J_NULL, 0, 255),
	FIELD_OPT("notes", J_ARR | J_NULL),
};

/* A shard's place as merge records it in merged_from[].shard: "k/n" of
 * this run's n, "deferred of n" or "unsharded". */
static int shard_name_ok(const char *name, long long n)
{
	struct shard_spec sp;
	char *err = NULL, *deferred = xasprintf("deferred of %lld", n);
	int ok = !strcmp(name, "unsharded") || !strcmp(name, deferred) ||
		 (!shard_parse(name, &sp, &err) && sp.n == n);
	free(err);
	free(deferred);
	return ok;
}

/* What the field table cannot say: the shard number lies in 1..n (or is
 * the deferred worker), each merged shard is one of n, and the system id
 * can name the data/<SYS>/ and report folders it becomes. */
static int campaign_check_values(const json_t *doc, char **why)
{
	const json_t *sh = json_object_get(doc, "shards");
	const json_t *k = json_object_get(sh, "shard");
	long long n = jget_int(sh, "n", 1);
	if (json_is_integer(k) && (json_integer_value(k) < 1 || json_integer_value(k) > n)) {
		*why = xasprintf("shards.shard is %lld, outside 1..%lld (shards.n)",
				 (long long)json_integer_value(k), n);
		return -1;
	}
	if (json_is_string(k) && strcmp(json_string_value(k), "deferred")) {
		char *shown = str_printable(json_string_value(k), 40);
		*why = xasprintf("shards.shard is \"%s\", neither a shard number nor \"deferred\"", shown);
		free(shown);
		return -1;
	}
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(sh, "merged_from"), i, m) {
		const char *name = jget_str(m, "shard", "");
		if (!shard_name_ok(name, n)) {
			char *shown = str_printable(name, 40);
			*why = xasprintf("shards.merged_from[%zu].shard is \"%s\", not k/%lld with 1 <= k <= %lld, "
					 "\"deferred of %lld\" or \"unsharded\"", i, shown, n, n, n);
			free(shown);
			return -1;
		}
	}
	const char *sys = jget_str(doc, "system_id", NULL);
	char *problem = sys ? path_name_problem("system_id", sys) : NULL;
	/* status takes the run's candidates from here: each names build/<ID>/ */
	json_t *id;
	json_array_foreach(json_object_get(json_object_get(doc, "options"), "candidates"), i, id)
		if (!problem && json_is_string(id)) {
			char *what = xasprintf("options.candidates[%zu]", i);
			problem = path_name_problem(what, json_string_value(id));
			free(what);
		}
	if (problem) {
		*why = problem;
		return -1;
	}
	return 0;
}

int campaign_check(const json_t *doc, char **why)
{
	if (EVIDENCE_CHECK(doc, CAMPAIGN_KIND, CAMPAIGN_VERSION, campaign_rules, why))
		return -1;
	return campaign_check_values(doc, why);
}

json_t *campaign_load(const char *run, char **err)
{
	char *path = path_join(run, "campaign.json"), *why = NULL;
	/* A run directory may come from another machine: never through a link. */
	json_t *d = evidence_load_below(run, path, err);
	if (d && campaign_check(d, &why)) {
		if (err)
			*err = xasprintf("%s: %s", path, why);
		json_decref(d);
		d = NULL;
	}
	free(why);
	free(path);
	return d;
}

int campaign_update(const char *workspace, const char *run,
		    int (*fn)(json_t *doc, void *ctx), void *ctx)
{
	char *lockdir = path_join(run, "locks");
	char *lockpath = path_join(lockdir, "campaign.lock");
	char *path = path_join(run, "campaign.json");
	int rc = -1;
	mkdir_p(lockdir, 0755);
	int fd = lock_path(lockpath, 1, 1);
	if (fd < 0) {
		ngcc_error("cannot lock %s: %s", lockpath, strerror(errno));
		goto out;
	}
	json_t *doc;
	if (path_exists(path)) {
		char *err = NULL;
		doc = campaign_load(run, &err);
		if (!doc) {
			ngcc_error("%s; fix or remove it (the records are kept elsewhere in the run)",
				   err ? err : path);
			free(err);
			lock_release(fd);
			rc = CAMPAIGN_CORRUPT;
			goto out;
		}
	} else {
		doc = campaign_skeleton(workspace, run);
	}
	rc = fn(doc, ctx);
	if (rc == 0 && evidence_write(path, doc)) {
		ngcc_error("cannot write %s: %s", path, strerror(errno));
		rc = -1;
	}
	json_decref(doc);
	lock_release(fd);
out:
	free(lockdir);
	free(lockpath);
	free(path);
	return rc;
}

/* ---- pieces ---------------------------------------------------------------- */

json_t *campaign_planning_json(const struct planning *p)
{
	json_t *j = json_object();
	json_object_set_new(j, "trials", json_integer(p->trials));
	json_object_set_new(j, "trial_target_s", json_real(p->trial_target_s));
	json_object_set_new(j, "min_total", json_integer(p->min_total));
	json_object_set_new(j, "max_iters_per_trial", json_integer(p->max_iters_per_trial));
	json_object_set_new(j, "op_budget_s", json_real(p->op_budget_s));
	json_object_set_new(j, "separate_process_setup_s", json_real(p->separate_process_setup_s));
	json_object_set_new(j, "max_disturbed_retries", json_integer(p->max_disturbed_retries));
	json_object_set_new(j, "max_invol_switches_per_trial", json_integer(p->max_invol_switches_per_trial));
	json_object_set_new(j, "warm_calibration", json_boolean(p->warm_calibration));
	return j;
}

void campaign_planning_read(const json_t *j, struct planning *p)
{
	if (!json_is_object(j))
		return;
	p->trials = (int)jget_int(j, "trials", p->trials);
	p->trial_target_s = jget_real(j, "trial_target_s", p->trial_target_s);
	p->min_total = (int)jget_int(j, "min_total", p->min_total);
	p->max_iters_per_trial = (int)jget_int(j, "max_iters_per_trial", p->max_iters_per_trial);
	p->op_budget_s = jget_real(j, "op_budget_s", p->op_budget_s);
	p->separate_process_setup_s = jget_real(j, "separate_process_setup_s",
						p->separate_process_setup_s);
	p->max_disturbed_retries = (int)jget_int(j, "max_disturbed_retries",
						 p->max_disturbed_retries);
	p->max_invol_switches_per_trial = (int)jget_int(j, "max_invol_switches_per_trial",
							p->max_invol_switches_per_trial);
	p->warm_calibration = jget_bool(j, "warm_calibration", p->warm_calibration);
}

int campaign_planning_check(json_t *doc, const struct planning *p, char **why)
{
	json_t *have = json_object_get(doc, "planning");
	json_t *want = campaign_planning_json(p);
	if (!json_is_object(have)) {
		json_object_set_new(doc, "planning", want);
		return 1;
	}
	const char *key;
	json_t *v;
	json_object_foreach(want, key, v) {
		json_t *h = json_object_get(have, key);
		if (!h || !json_equal(h, v)) {
			/* 10 digits: 0.3, not 0.29999999999999999 */
			char *a = h ? json_dumps(h, JSON_ENCODE_ANY | JSON_REAL_PRECISION(10))
				    : xstrdup("missing");
			char *b = json_dumps(v, JSON_ENCODE_ANY | JSON_REAL_PRECISION(10));
			*why = xasprintf("planning constant %s is %s in this run, %s now", key, a, b);
			free(a);
			free(b);
			json_decref(want);
			return 0;
		}
	}
	json_decref(want);
	return 1;
}

size_t campaign_phase_begin(json_t *doc, const char *phase)
{
	char now[32];
	utc_now_iso(now);
	json_t *phases = json_object_get(doc, "phases");
	json_array_append_new(phases, json_pack("{sssnsssnsn}", "phase", phase, "shard",
						"started_utc", now, "ended_utc", "exit_code"));
	return json_array_size(phases) - 1;
}

void campaign_phase_end(json_t *doc, size_t index, int exit_code)
{
	char now[32];
	utc_now_iso(now);
	json_t *e = json_array_get(json_object_get(doc, "phases"), index);
	if (!e)
		return;
	json_object_set_new(e, "ended_utc", json_string(now));
	json_object_set_new(e, "exit_code", json_integer(exit_code));
	json_object_set_new(doc, "ended_utc", json_string(now));
}

void campaign_add_host_check(json_t *doc, const char *phase, int cpu, json_t *problems)
{
	char now[32];
	utc_now_iso(now);
	json_array_append_new(json_object_get(doc, "host_checks"),
			      json_pack("{sssisnssso}", "phase", phase, "cpu", cpu, "shard",
					"utc", now, "problems", problems));
}

void campaign_add_host_problems(json_t *doc, const json_t *problems)
{
	json_t *all = json_object_get(doc, "host_problems");
	size_t i, j;
	json_t *p, *q;
	json_array_foreach(problems, i, p) {
		int seen = 0;
		json_array_foreach(all, j, q)
			seen |= json_equal(p, q);
		if (!seen)
			json_array_append(all, p);
	}
}

void campaign_add_override(json_t *doc, json_t *entry)
{
	json_array_append_new(json_object_get(doc, "host_overrides"), entry);
}

void campaign_set_environment(json_t *doc, const char *key, const json_t *env)
{
	json_object_set_new(doc, key, env ? json_deep_copy(env) : json_null());
}

void campaign_add_note(json_t *doc, const char *note)
{
	json_t *notes = json_object_get(doc, "notes");
	size_t i;
	json_t *n;
	json_array_foreach(notes, i, n)
		if (!strcmp(json_string_value(n), note))
			return;
	json_array_append_new(notes, json_string(note));
}

char *campaign_shard_name(const json_t *doc)
{
	const json_t *sh = json_object_get(doc, "shards");
	const json_t *k = json_object_get(sh, "shard");
	long long n = jget_int(sh, "n", 1);
	if (json_is_integer(k))
		return xasprintf("%lld/%lld", json_integer_value(k), n);
	if (json_is_string(k))
		return xasprintf("%s of %lld", json_string_value(k), n);
	return NULL;
}

void campaign_set_option(json_t *doc, const char *key, json_t *value)
{
	json_t *opts = json_object_get(doc, "options");
	if (!json_is_object(opts)) {
		opts = json_object();
		json_object_set_new(doc, "options", opts);
	}
	json_object_set_new(opts, key, value);
}
