/*
 * cmd_campaign.c — `ngcc-perf campaign PACKAGE|ID... --run DIR [options]`:
 * add (for package paths), build, kat, then calibrate and measure, profile,
 * and finally the report pages, all in this process by calling the other
 * phases (method §2).  Instances whose KAT did not pass are still timed and
 * marked; BUILDFAIL, LOADFAIL and CRASH instances are not timed.
 */
#include "campaign/engine.h"
#include "campaign/memory.h"
#include "campaign/profile.h"
#include "cli/cli.h"
#include "evidence/campaign_json.h"
#include "evidence/json.h"
#include "package/discover.h"
#include "report/report_write.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The other phases; weak so a tree without one still links (it is then
 * reported instead of run). */
#pragma weak cmd_add
#pragma weak cmd_build
#pragma weak cmd_kat

static void campaign_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] campaign PACKAGE|ID... --run DIR [options]\n"
		"\n"
		"Run the whole pipeline for the given submission packages (paths; added\n"
		"as candidates unless already present) or candidate ids: add, build,\n"
		"kat, calibrate, measure, the memory pass, profile and report.\n"
		"Instances whose KAT did not pass are still timed and marked\n"
		"kat_not_passed; BUILDFAIL, LOADFAIL and CRASH instances are not timed.\n"
		"Rerunning the same command resumes.\n"
		"The host is checked first: an unfixed host is refused (exit 2) unless\n"
		"--allow-unfixed-host is given.  The pages (and <run>/size_audit.json)\n"
		"are written as by `ngcc-perf report`; their location is printed.\n"
		"\n"
		"Options (as for measure):\n"
		"%s"
		"  --out DIR            folder of the pages (default: <workspace>/reports)\n"
		"  --no-memory-pass     skip the memory pass (method §8) after measure\n"
		"  -h, --help           show this help\n"
		"\n"
		"Exit: 0 every phase succeeded (all KATs PASS, every record and profile\n"
		"complete, pages written); 1 some check failed, record or profile failed\n"
		"or an instance was not timed; 2 usage or refusal; 3 bad input; 4 system\n"
		"error.\n",
		engine_options_help);
}

/* Call another command with a fresh argv and getopt state. */
static int call_cmd(int (*fn)(int, char **, const struct cli_ctx *), const char *name,
		    const struct strlist *args, const struct cli_ctx *ctx)
{
	if (!fn) {
		ngcc_error("campaign: this ngcc-perf has no `%s` command", name);
		return EXIT_SYSTEM;
	}
	int argc = (int)args->n + 1;
	char **argv = xcalloc((size_t)argc + 1, sizeof *argv);
	argv[0] = xstrdup(name);
	for (size_t i = 0; i < args->n; i++)
		argv[i + 1] = xstrdup(args->items[i]);
	optind = 0;
	int rc = fn(argc, argv, ctx);
	optind = 0;
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
	return rc;
}

/* A package path (relative to the workspace or the current directory), or
 * NULL when arg names no existing file. */
static char *package_path(const struct cli_ctx *ctx, const char *arg)
{
	char *conf = ws_path(ctx, "candidates/%s/candidate.conf", arg);
	int is_id = !strchr(arg, '/') && path_exists(conf);
	free(conf);
	if (is_id)
		return NULL;
	char *p = ws_resolve(ctx, arg);
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
static int add_phase(const struct strlist *args, struct strlist *ids, const struct cli_ctx *ctx)
{
	for (size_t i = 0; i < args->n; i++) {
		char *pkg = package_path(ctx, args->items[i]);
		if (!pkg) {
			sl_push(ids, args->items[i]);
			continue;
		}
		char *id = slug_from_package_name(pkg);
		char *conf = ws_path(ctx, "candidates/%s/candidate.conf", id);
		int rc = EXIT_OK;
		if (!path_exists(conf)) {
			struct strlist a = STRLIST_INIT;
			sl_push(&a, pkg);
			rc = call_cmd(cmd_add, "add", &a, ctx);
			sl_free(&a);
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

static int timed_phase(const struct engine_opts *o, const char *name,
		       int (*fn)(int, char **, const struct cli_ctx *),
		       const struct strlist *ids, const struct cli_ctx *ctx, const char *run)
{
	char started[32];
	utc_now_iso(started);
	int rc = call_cmd(fn, name, ids, ctx);
	struct phase_ctx c = { name, started, rc };
	if (mkdir_p(run, 0755) == 0)
		campaign_update(o->workspace, run, phase_cb, &c);
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

static int measure_phase(struct engine_opts *o, const struct strlist *ids)
{
	struct engine e;
	for (size_t i = 0; i < ids->n; i++)
		sl_push(&o->ids, ids->items[i]);
	int rc = engine_begin(&e, o, "measure");
	/* The memory pass runs on the same benchmark CPU, now off our
	 * affinity. */
	if (o->cpu < 0)
		o->cpu = e.cpu;
	if (rc == EXIT_OK) {
		rc = engine_measure(&e);
		if (rc == EXIT_OK && e.not_timed.n)
			rc = EXIT_FAILED;
		engine_end(&e, rc);
	}
	engine_free(&e);
	return rc;
}

/* The worse of two exit codes (they grow with severity). */
static int worse(int a, int b)
{
	return a > b ? a : b;
}

/* Render the run's pages like `ngcc-perf report` and say where they are. */
static int report_phase(const struct cli_ctx *ctx, const char *run, const char *out_arg,
			const struct strlist *ids)
{
	char *out = out_arg ? ws_resolve(ctx, out_arg) : ws_path(ctx, "reports");
	struct report_written done;
	int rc = report_write_run(ctx->workspace, run, out, NULL, NULL, &done);
	if (rc == EXIT_OK) {
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
	free(out);
	return rc;
}

/* Remove `--out DIR` / `--out=DIR` (ours, not the engine's) from argv. */
static const char *take_out_option(int *argc, char **argv)
{
	const char *out = NULL;
	int w = 1;
	for (int r = 1; r < *argc; r++) {
		if (!strcmp(argv[r], "--")) {
			while (r < *argc)
				argv[w++] = argv[r++];
			break;
		}
		if (!strcmp(argv[r], "--out") && r + 1 < *argc)
			out = argv[++r];
		else if (str_starts_with(argv[r], "--out="))
			out = argv[r] + 6;
		else
			argv[w++] = argv[r];
	}
	*argc = w;
	argv[w] = NULL;
	return out;
}

int cmd_campaign(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct engine_opts o;
	struct strlist ids = STRLIST_INIT, args = STRLIST_INIT;
	engine_opts_init(&o, ctx->workspace, ctx->tty);
	const char *pages_out = take_out_option(&argc, argv);
	int memory_pass = !memory_strip_option(&argc, argv);
	int rc = engine_parse_cli(argc, argv, &o, campaign_usage);
	if (rc) {
		engine_opts_free(&o);
		return rc < 0 ? EXIT_OK : rc;
	}
	/* engine_parse_cli put the operands in o.ids; they may be packages. */
	for (size_t i = 0; i < o.ids.n; i++)
		sl_push(&args, o.ids.items[i]);
	sl_free(&o.ids);
	if (!args.n || !o.run) {
		ngcc_error("campaign needs at least one PACKAGE or ID and --run DIR");
		campaign_usage(stderr);
		rc = EXIT_USAGE;
		goto out;
	}
	char *run = engine_run_dir(&o);
	rc = host_first(&o);
	if (!rc)
		rc = add_phase(&args, &ids, ctx);
	if (!rc) {
		int b = timed_phase(&o, "build", cmd_build, &ids, ctx, run);
		int k = timed_phase(&o, "kat", cmd_kat, &ids, ctx, run);
		if (b > EXIT_FAILED || k > EXIT_FAILED)
			ngcc_warning("campaign: build exited %d and kat %d; measuring what was built", b, k);
		rc = measure_phase(&o, &ids);
		/* Profile and report only when measuring ran: a refusal or an
		 * error of our own stops the chain. */
		if (rc <= EXIT_FAILED) {
			memory_record_option(&o, memory_pass);
			if (memory_pass)
				rc = worse(rc, memory_phase(&o));
			rc = worse(rc, profile_phase(&o));
			rc = worse(rc, report_phase(ctx, run, pages_out, &ids));
		}
		rc = worse(rc, worse(b, k));
	}
	free(run);
out:
	sl_free(&ids);
	sl_free(&args);
	engine_opts_free(&o);
	return rc;
}
