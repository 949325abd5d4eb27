/*
 * campaign.c — `campaign` (docs/method.md §2): add (for package paths), build, kat,
 * with --check the checks, then calibrate and measure, the memory pass,
 * profile, and finally the report pages, all in this process by calling
 * each stage in turn.
 * Instances whose KAT did not pass are still timed and marked; BUILDFAIL,
 * LOADFAIL and CRASH instances are not timed.
 */
#include "pipeline/campaign.h"

#include "build/batch.h"
#include "campaign/baseline.h"
#include "campaign/engine.h"
#include "campaign/memory.h"
#include "campaign/pool.h"
#include "campaign/sampling.h"
#include "campaign/profile.h"
#include "campaign/repeat.h"
#include "campaign/results.h"
#include "check/check.h"
#include "evidence/campaign_json.h"
#include "evidence/json.h"
#include "kat/gate.h"
#include "method/baseline.h"
#include "method/types.h"
#include "package/conf.h"
#include "package/discover.h"
#include "package/ingest.h"
#include "report/report_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A package path (relative to the workspace or the current directory), or
 * NULL when arg names no existing file. */
static char *package_path(const char *ws, const char *arg)
{
	char *conf = path_joinf(ws, "candidates/%s/candidate.conf", arg);
	int is_id = !strchr(arg, '/') && path_exists(conf);
	free(conf);
	if (is_id)
		return NULL;
	char *p = path_resolve(ws, arg);
	if (path_exists(p))
		return p;
	free(p);
	p = path_absolute(arg);
	if (path_exists(p))
		return p;
	free(p);
	return NULL;
}

/* Add the packages that are not candidates yet; collect all ids. */
static int add_phase(const struct campaign_request *r, struct strlist *ids)
{
	const struct strlist *args = &r->args;
	for (size_t i = 0; i < args->n; i++) {
		char *pkg = package_path(r->o.workspace, args->items[i]);
		if (!pkg) {
			sl_push(ids, args->items[i]);
			continue;
		}
		char *id = slug_from_package_name(pkg);
		char *conf = path_joinf(r->o.workspace, "candidates/%s/candidate.conf", id);
		int rc = EXIT_OK;
		if (!path_exists(conf)) {
			struct add_request a = { .workspace = r->o.workspace, .package = pkg };
			rc = package_add(&a);
		}
		if (rc == EXIT_OK && !sl_contains(ids, id))
			sl_push(ids, id);
		free(conf);
		free(id);
		free(pkg);
		if (rc)
			return rc;
	}
	return EXIT_OK;
}

struct phase_ctx {
	const char *phase;
	const char *started;
	int exit_code;
};

static int phase_cb(json_t *doc, void *vctx)
{
	struct phase_ctx *c = vctx;
	size_t i = campaign_phase_begin(doc, c->phase);
	json_t *e = json_array_get(json_object_get(doc, "phases"), i);
	json_object_set_new(e, "started_utc", json_string(c->started));
	campaign_phase_end(doc, i, c->exit_code);
	/* The campaign began with its first phase, not with this file. */
	if (strcmp(c->started, jget_str(doc, "started_utc", "")) < 0)
		json_object_set_new(doc, "started_utc", json_string(c->started));
	return 0;
}

static int run_build(const struct campaign_request *r, const struct strlist *ids)
{
	struct build_request b = { r->o.workspace, STRLIST_INIT, 0, r->o.tty };
	for (size_t i = 0; i < ids->n; i++)
		sl_push(&b.ids, ids->items[i]);
	int rc = build_candidates(&b);
	sl_free(&b.ids);
	return rc;
}

static int run_kat(const struct campaign_request *r, const struct strlist *ids)
{
	struct kat_gate_opts k;
	kat_gate_opts_init(&k, r->o.workspace, r->o.tty);
	for (size_t i = 0; i < r->skip_kat_files.n; i++)
		kat_gate_skip_file(&k, r->skip_kat_files.items[i]);
	int rc = kat_gate(&k, ids);
	kat_gate_opts_free(&k);
	return rc;
}

/* Whether any of ids is a candidate of a type (public-key or hash). */
static int any_candidate(const char *ws, const struct strlist *ids, int public_key)
{
	int found = 0;
	for (size_t i = 0; i < ids->n && !found; i++) {
		char *p = path_joinf(ws, "candidates/%s/candidate.conf", ids->items[i]), *err = NULL;
		struct candidate_conf c;
		if (conf_read(p, &c, &err) == 0) {
			for (size_t k = 0; k < c.n_inst && !found; k++) {
				const struct cand_type *t = cand_type_find(c.inst[k].type);
				found = t && c.inst[k].enabled && cand_type_public_key(t) == public_key;
			}
			conf_free(&c);
		}
		free(err);
		free(p);
	}
	return found;
}

/* Add the ICCS baseline to ids when the request wants it (written for the
 * workspace as it is after add).  An ngcc_exit code. */
static int baseline_phase(const struct campaign_request *r, struct strlist *ids)
{
	int want = r->baseline > 0 || (r->baseline < 0 && any_candidate(r->o.workspace, ids, 0));
	if (!want || sl_contains(ids, BASELINE_ID))
		return EXIT_OK;
	int rc = baseline_generate(r->o.workspace);
	if (rc == EXIT_OK)
		sl_push(ids, BASELINE_ID);
	return rc;
}

static int run_check(const struct campaign_request *r, const struct strlist *ids)
{
	struct check_opts c;
	check_opts_init(&c, r->o.workspace, r->o.tty);
	if (r->check_rounds > 0)
		c.rounds = r->check_rounds;
	c.none_is_ok = 1;
	for (size_t i = 0; i < ids->n; i++)
		sl_push(&c.ids, ids->items[i]);
	int rc = check_phase(&c);
	check_opts_free(&c);
	return rc;
}

/* Run one of build, kat and check, and record it as a phase of the run. */
static int timed_phase(const struct campaign_request *r, const char *name,
		       int (*fn)(const struct campaign_request *, const struct strlist *),
		       const struct strlist *ids, const char *run)
{
	char started[32];
	utc_now_iso(started);
	int rc = fn(r, ids);
	struct phase_ctx c = { name, started, rc };
	if (mkdir_p(run, 0755) == 0)
		campaign_update(r->o.workspace, run, phase_cb, &c);
	return rc;
}

/* The host is checked before anything is built, so a refusal costs nothing. */
static int host_first(const struct engine_opts *o)
{
	struct strlist problems = STRLIST_INIT;
	int cpu = o->cpu >= 0 ? o->cpu : host_default_cpu();
	host_check(cpu, &problems, NULL);
	int rc = host_gate("campaign", cpu, &problems, &o->ovr);
	sl_free(&problems);
	return rc;
}

/* The worse of two exit codes (they grow with severity). */
static int worse(int a, int b)
{
	return a > b ? a : b;
}

/* Render the run's pages like `ngcc-perf report` and say where they are. */
static int report_phase(const struct campaign_request *r, const char *run,
			const struct strlist *ids)
{
	struct report_written done;
	int rc = report_write_run(r->o.workspace, run, r->pages_out, NULL, 0, NULL, NULL, &done);
	if (rc == EXIT_OK) {
		const char *out = done.out_dir;
		printf("campaign: %zu page(s) in %s\n", done.n_pages, out);
		printf("  summary:    %s/%s/index.md\n", out, done.system_id);
		for (size_t i = 0; i < ids->n; i++) {
			char *page = xasprintf("%s/%s/%s.md", out, done.system_id, ids->items[i]);
			if (path_is_file(page))
				printf("  candidate:  %s\n", page);
			free(page);
		}
		printf("  size audit: %s/size_audit.json\n", run);
		report_written_free(&done);
	}
	return rc;
}

int campaign_run(struct campaign_request *r)
{
	struct strlist ids = STRLIST_INIT;
	struct engine_opts *o = &r->o;
	char *run = engine_run_dir(o);
	int rc = host_first(o);
	if (!rc)
		rc = add_phase(r, &ids);
	if (!rc)
		rc = baseline_phase(r, &ids);
	if (!rc) {
		int b = timed_phase(r, "build", run_build, &ids, run);
		int k = timed_phase(r, "kat", run_kat, &ids, run);
		if (b > EXIT_FAILED || k > EXIT_FAILED)
			ngcc_warning("campaign: build exited %d and kat %d; measuring what was built", b, k);
		if (r->check)
			k = worse(k, timed_phase(r, "check", run_check, &ids, run));
		for (size_t i = 0; i < ids.n; i++)
			sl_push(&o->ids, ids.items[i]);
		/* measure, memory and profile: one environment capture each */
		struct env_carry carry = { NULL, -1, 0 };
		o->carry = &carry;
		rc = measure_phase(o, 1);
		/* Profile and report only when measuring ran: a refusal or an
		 * error of our own stops the chain. */
		if (rc <= EXIT_FAILED) {
			rc = sampling_after_measure(o, rc);
			memory_record_option(o, r->memory_pass);
			if (r->memory_pass)
				rc = worse(rc, memory_phase(o));
			pool_record_options(o);
			/* The profile is the public-key candidates' (§2.3). */
			if (any_candidate(o->workspace, &ids, 1))
				rc = worse(rc, profile_phase(o));
			/* Repeatability: a sample timed again, before the pages
			 * that show it. */
			if (!r->no_repeat)
				rc = worse(rc, repeat_phase(o));
			rc = worse(rc, report_phase(r, run, &ids));
		}
		o->carry = NULL;
		env_carry_free(&carry);
		rc = worse(rc, worse(b, k));
	}
	free(run);
	sl_free(&ids);
	return rc;
}
