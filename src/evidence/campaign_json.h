/*
 * campaign_json.h — <run>/campaign.json, "ngcc-perf/campaign/1" (docs/method.md
 * §11.3).  Every change is a read-modify-write under an exclusive flock on
 * <run>/locks/campaign.lock and is written atomically.
 *
 * Keys in order: schema, tool {name, version, git_commit}, system_id,
 * run_id, started_utc (set once), ended_utc, environment_at_start,
 * environment_at_end, host_checks [{phase, cpu, shard, utc, problems}],
 * host_problems, host_overrides, planning, options {seed_mode,
 * input_pool, sampling, memory_pass, ...}, arch_config {reference_flags,
 * harness_additions, fallback_flags, performance_flags,
 * optimized_families}, shards {n, cpus, assignment_digest},
 * phases [{phase, shard, started_utc, ended_utc, exit_code}], notes.
 */
#ifndef NGCC_CAMPAIGN_JSON_H
#define NGCC_CAMPAIGN_JSON_H

#include <jansson.h>

#include "method/plan.h"

#define CAMPAIGN_KIND "campaign"
#define CAMPAIGN_VERSION 1

/* A fresh document (every key present) for a run directory. */
json_t *campaign_skeleton(const char *workspace, const char *run);

/* Apply fn to the document under the lock (created from the skeleton when
 * missing), then write it back if fn returned 0.  A corrupt campaign.json
 * is reported by path and not overwritten: CAMPAIGN_CORRUPT (bad input,
 * exit 3).  Returns fn's value, or -1 (lock or write failed). */
#define CAMPAIGN_CORRUPT (-3)
int campaign_update(const char *workspace, const char *run,
		    int (*fn)(json_t *doc, void *ctx), void *ctx);
/* doc's fields against the format's table (evidence/check.h); 0, or -1
 * with *why (malloc'd).  Every reader calls it. */
int campaign_check(const json_t *doc, char **why);
/* Load without the lock (readers), checked; NULL with *err. */
json_t *campaign_load(const char *run, char **err);

/* System id (docs/method.md §1): the workspace's systems.csv row whose Hostname is
 * this host, else the host's short name.  Caller frees. */
char *campaign_system_id(const char *workspace);

/* The planning object of campaign.json from constants, and back. */
json_t *campaign_planning_json(const struct planning *p);
/* The constants a planning object j holds replace those in p (no-op when
 * j is not an object). */
void campaign_planning_read(const json_t *j, struct planning *p);
/* 1 if doc's planning equals p (or is unset: then it is set); 0 and *why
 * otherwise. */
int campaign_planning_check(json_t *doc, const struct planning *p, char **why);

/* Helpers used inside an update callback. */
/* Append a phase entry {phase, shard, started_utc, ended_utc: null,
 * exit_code: null}; returns its index. */
size_t campaign_phase_begin(json_t *doc, const char *phase);
void campaign_phase_end(json_t *doc, size_t index, int exit_code);
void campaign_add_host_check(json_t *doc, const char *phase, int cpu,
			     json_t *problems /* stolen */);
/* Union into host_problems. */
void campaign_add_host_problems(json_t *doc, const json_t *problems);
void campaign_add_override(json_t *doc, json_t *entry /* stolen */);
void campaign_set_environment(json_t *doc, const char *key, const json_t *env);
void campaign_add_note(json_t *doc, const char *note);
/* The run's place in a sharded campaign from shards {n, shard}: "k/n",
 * "deferred of n", or NULL for an unsharded (or merged) run.  Caller frees. */
char *campaign_shard_name(const json_t *doc);
/* Set options.<key> (value stolen), e.g. memory_pass. */
void campaign_set_option(json_t *doc, const char *key, json_t *value);

#endif
