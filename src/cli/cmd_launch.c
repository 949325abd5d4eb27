/*
 * cmd_launch.c — `ngcc-perf launch parallel|slurm [ID...] --run RUN
 * --shards N [options]`: write the scripts that run a sharded campaign on
 * GNU parallel or Slurm (docs/method.md §13; src/campaign/launch.h says what they
 * do).  Nothing is started: the command prints how to start them.
 */
#include "campaign/launch.h"
#include "method/shard.h"
#include "cli/cli.h"
#include "util/numparse.h"

#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void launch_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] launch parallel|slurm [SELECTOR...] --run RUN --shards N\n"
		"                 [options]\n"
		"\n"
		"Write the scripts of a sharded campaign for an existing job engine.\n"
		"They build and run the KATs once, measure (calibrate, measure, memory\n"
		"pass) and profile each shard k of N into its own run directory\n"
		"RUN.shards/shard-<k> (`measure --shard k/N`), the instances matching\n"
		"--defer in one more worker (RUN.shards/deferred), then merge them into\n"
		"RUN, check `status` and write the pages with `report` when every unit\n"
		"is complete, failed for good or deferred.  Rerunning a job resumes it.\n"
		"\n"
		"  parallel  RUN.shards/run-parallel.sh: the shards as GNU parallel jobs\n"
		"            on this machine's benchmark CPUs (bash run-parallel.sh)\n"
		"  slurm     RUN.shards/submit.sh and .sbatch files: prep (build, KAT),\n"
		"            one array task per shard after it, the final job (merge,\n"
		"            status, report) after all of them (./submit.sh)\n"
		"\n"
		"Options:\n"
		"  --run RUN            the merged run directory (relative to the workspace)\n"
		"  --shards N           number of shards (benchmark CPUs)\n"
		"  --cpus LIST          benchmark CPU of each shard, e.g. 3,2 (default: each\n"
		"                       shard takes the highest free allowed CPU, --cpu auto)\n"
		"  --defer REGEX        measure matching instances (<ID>/<label>) apart\n"
		"  --deferred-cpu C     the deferred worker's CPU (default auto)\n"
		"  --prior DATASET      published dataset or run whose wall times weigh the\n"
		"                       shards (repeatable; every shard must see the same)\n"
		"  --out DIR            where the scripts go (default RUN.shards)\n"
		"  --trials N, --trial-target S, --op-budget S, --counter auto|fallback,\n"
		"  --max-timeout S, --disturbed-retries N, --allow-unfixed-host[=REASON],\n"
		"  --redo-stale, --no-memory-pass, --op OP, --seed-mode M, --input-pool P,\n"
		"  --warm-calibration, --no-sampling\n"
		"                       passed to every shard's measure and profile\n"
		"  --no-repeat          the final job does not time a sample of the units\n"
		"                       again (as campaign --no-repeat)\n"
		"SELECTOR: instance selectors as for `ngcc-perf measure --help`, passed to\n"
		"build, kat, measure and profile.\n"
		"GNU parallel:\n"
		"  --sshlogin LOGINS    run on these machines too (parallel -S syntax); each\n"
		"                       machine is its own system, measured into\n"
		"                       RUN-<host>: workspace and ngcc-perf must be at the\n"
		"                       same paths there\n"
		"Slurm:\n"
		"  --partition P, --nodelist NODE, --time LIMIT\n"
		"                       #SBATCH settings (give --nodelist: one system is one\n"
		"                       node, and merge refuses shards of different hosts)\n"
		"  --sbatch-option OPT  one more #SBATCH line, verbatim (repeatable)\n"
		"  -h, --help           show this help\n"
		"\n"
		"Paths and names are quoted for the shell and for #SBATCH lines; a run\n"
		"name that cannot be a folder name, and (slurm) a line break in anything\n"
		"written into an #SBATCH line, are refused before anything is written.\n"
		"\n"
		"Exit: 0 scripts written; 2 usage error (a number out of range, a name\n"
		"refused); 4 they cannot be written.\n");
}

enum {
	OPT_RUN = 256, OPT_SHARDS, OPT_CPUS, OPT_DEFER, OPT_DEFERRED_CPU, OPT_PRIOR, OPT_OUT,
	OPT_SSH, OPT_PARTITION, OPT_NODELIST, OPT_TIME, OPT_SBATCH, OPT_NO_MEMORY, OPT_NO_REPEAT,
	OPT_NO_SAMPLING,
	OPT_PASS_ARG, OPT_PASS_FLAG,
};

/* Options handed to every shard as they were given. */
static const struct option opts[] = {
	{ "run", required_argument, NULL, OPT_RUN },
	{ "shards", required_argument, NULL, OPT_SHARDS },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "defer", required_argument, NULL, OPT_DEFER },
	{ "deferred-cpu", required_argument, NULL, OPT_DEFERRED_CPU },
	{ "prior", required_argument, NULL, OPT_PRIOR },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "sshlogin", required_argument, NULL, OPT_SSH },
	{ "partition", required_argument, NULL, OPT_PARTITION },
	{ "nodelist", required_argument, NULL, OPT_NODELIST },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "sbatch-option", required_argument, NULL, OPT_SBATCH },
	{ "no-memory-pass", no_argument, NULL, OPT_NO_MEMORY },
	{ "no-repeat", no_argument, NULL, OPT_NO_REPEAT },
	{ "trials", required_argument, NULL, OPT_PASS_ARG },
	{ "trial-target", required_argument, NULL, OPT_PASS_ARG },
	{ "op-budget", required_argument, NULL, OPT_PASS_ARG },
	{ "counter", required_argument, NULL, OPT_PASS_ARG },
	{ "max-timeout", required_argument, NULL, OPT_PASS_ARG },
	{ "disturbed-retries", required_argument, NULL, OPT_PASS_ARG },
	{ "op", required_argument, NULL, OPT_PASS_ARG },
	{ "allow-unfixed-host", optional_argument, NULL, OPT_PASS_FLAG },
	{ "redo-stale", no_argument, NULL, OPT_PASS_FLAG },
	{ "seed-mode", required_argument, NULL, OPT_PASS_ARG },
	{ "input-pool", required_argument, NULL, OPT_PASS_ARG },
	{ "warm-calibration", no_argument, NULL, OPT_PASS_FLAG },
	{ "no-sampling", no_argument, NULL, OPT_NO_SAMPLING },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int split_cpus(const char *arg, struct strlist *out)
{
	char *copy = xstrdup(arg), *save = NULL;
	int rc = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		long long v;
		if (parse_whole(t, 0, 65535, &v)) {
			ngcc_error("launch: --cpus takes CPU numbers separated by commas, not '%s'", arg);
			rc = -1;
			break;
		}
		sl_push(out, t);
	}
	free(copy);
	return rc;
}

/* The whole-number options handed on to every shard are checked here, as
 * measure will check them, so that a script is never written with a value
 * every shard would refuse (or, before, wrap). */
static int check_whole_option(const char *name, const char *arg)
{
	static const struct { const char *name; int min; } whole[] = {
		{ "trials", 1 }, { "disturbed-retries", 0 }, { "deferred-cpu", 0 }, { "input-pool", 0 },
	};
	int v;
	for (size_t i = 0; i < sizeof whole / sizeof *whole; i++)
		if (!strcmp(name, whole[i].name) && parse_whole_int(arg, whole[i].min, 1000000, &v)) {
			ngcc_error("launch: --%s takes a whole number from %d to 1000000, not '%s'", name,
				   whole[i].min, arg);
			return -1;
		}
	return 0;
}

static int take_option(struct launch_opts *o, int c, int index, const char *arg, const char **out)
{
	switch (c) {
	case OPT_RUN: o->run = arg; return 0;
	case OPT_SHARDS:
		if (parse_whole_int(arg, 1, SHARD_MAX, &o->shards)) {
			ngcc_error("launch: --shards takes a number from 1 to %d, not '%s'", SHARD_MAX, arg);
			return -1;
		}
		return 0;
	case OPT_CPUS: return split_cpus(arg, &o->cpus);
	case OPT_DEFER: o->defer = arg; return 0;
	case OPT_DEFERRED_CPU:
		if (strcmp(arg, "auto") && check_whole_option("deferred-cpu", arg))
			return -1;
		o->deferred_cpu = arg;
		return 0;
	case OPT_OUT: *out = arg; return 0;
	case OPT_SSH: o->sshlogin = arg; return 0;
	case OPT_PARTITION: o->partition = arg; return 0;
	case OPT_NODELIST: o->nodelist = arg; return 0;
	case OPT_TIME: o->time_limit = arg; return 0;
	case OPT_SBATCH: sl_push(&o->sbatch_extra, arg); return 0;
	case OPT_NO_MEMORY: o->memory_pass = 0; return 0;
	case OPT_NO_REPEAT: o->repeat = 0; return 0;
	case OPT_NO_SAMPLING: o->sampling = 0; return 0;
	case OPT_PASS_ARG:
		if (check_whole_option(opts[index].name, arg))
			return -1;
		/* fall through */
	case OPT_PRIOR:
		sl_push_owned(&o->pass, xasprintf("--%s", opts[index].name));
		sl_push(&o->pass, arg);
		return 0;
	case OPT_PASS_FLAG:
		sl_push_owned(&o->pass, arg ? xasprintf("--%s=%s", opts[index].name, arg) :
					      xasprintf("--%s", opts[index].name));
		return 0;
	default:
		return -1;
	}
}

static int check_options(const struct launch_opts *o)
{
	regex_t re;
	if (!o->run || !o->shards) {
		ngcc_error("launch needs --run RUN and --shards N");
		return -1;
	}
	if (o->cpus.n && (int)o->cpus.n != o->shards) {
		ngcc_error("launch: --cpus lists %zu CPU(s) for %d shard(s); give one per shard",
			   o->cpus.n, o->shards);
		return -1;
	}
	if (o->defer && regcomp(&re, o->defer, REG_EXTENDED | REG_NOSUB)) {
		ngcc_error("launch: --defer '%s' is not an extended regular expression", o->defer);
		return -1;
	}
	if (o->defer)
		regfree(&re);
	if (o->sshlogin && o->engine != LAUNCH_PARALLEL) {
		ngcc_error("launch: --sshlogin is for GNU parallel; Slurm places jobs itself");
		return -1;
	}
	return 0;
}

static void print_next_step(const struct launch_opts *o, const struct strlist *written)
{
	for (size_t i = 0; i < written->n; i++)
		printf("launch: wrote %s\n", written->items[i]);
	char *start = sh_quote(written->items[o->engine == LAUNCH_PARALLEL ? 0 : written->n - 1]);
	/* quoted for the shell, so that the line can be pasted as it is */
	printf("launch: start the campaign with: %s%s\n",
	       o->engine == LAUNCH_PARALLEL ? "bash " : "", start);
	free(start);
}

int cmd_launch(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct launch_opts o;
	const char *out = NULL;
	int c, index = 0, rc = EXIT_USAGE;
	launch_opts_init(&o);
	if (argc < 2 || (strcmp(argv[1], "parallel") && strcmp(argv[1], "slurm"))) {
		if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
			launch_usage(stdout);
			return EXIT_OK;
		}
		ngcc_error("launch: say which engine: `launch parallel` or `launch slurm`");
		launch_usage(stderr);
		return EXIT_USAGE;
	}
	o.engine = !strcmp(argv[1], "slurm") ? LAUNCH_SLURM : LAUNCH_PARALLEL;
	argc--;
	argv++;
	while ((c = getopt_long(argc, argv, "h", opts, &index)) != -1) {
		if (c == 'h') {
			launch_usage(stdout);
			launch_opts_free(&o);
			return EXIT_OK;
		}
		if (c == '?' || take_option(&o, c, index, optarg, &out)) {
			launch_usage(stderr);
			goto done;
		}
	}
	for (int i = optind; i < argc; i++)
		sl_push(&o.ids, argv[i]);
	if (check_options(&o))
		goto done;
	char *self = ngcc_self();
	o.ngcc = self;
	o.workspace = ctx->workspace;
	char *rel = out ? xstrdup(out) : xasprintf("%s.shards", o.run);
	char *dir = ws_resolve(ctx, rel);
	struct strlist written = STRLIST_INIT;
	int wrote = launch_write(&o, dir, &written);
	rc = wrote == LAUNCH_REFUSED ? EXIT_USAGE : wrote ? EXIT_SYSTEM : EXIT_OK;
	if (!rc)
		print_next_step(&o, &written);
	sl_free(&written);
	free(dir);
	free(rel);
	free(self);
done:
	launch_opts_free(&o);
	return rc;
}
