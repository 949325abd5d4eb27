/*
 * engine_cli.c — the command-line options shared by calibrate, measure,
 * profile and campaign (campaign/engine.h holds what they set).
 */
#include "cli/cli.h"
#include "cli/engine_cli.h"
#include "campaign/cpus.h"
#include "util/numparse.h"

/* The largest --trials, --cpu or --disturbed-retries taken. */
#define ENGINE_INT_MAX 1000000

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char engine_options_help[] =
	"  --run DIR            run directory (created if missing; relative to the workspace)\n"
	"  --cpu N|auto         benchmark CPU (default: the highest allowed; auto: the\n"
	"                       highest allowed that no other measuring process holds)\n"
	"  --trials N           trials per operation (default 5)\n"
	"  --trial-target S     timed seconds aimed at per trial (default 1.0)\n"
	"  --op-budget S        timed budget per operation (default 900)\n"
	"  --allow-unfixed-host[=REASON]\n"
	"                       measure on a host that fails its checks; recorded\n"
	"  --redo-stale         redo complete records whose fingerprint changed\n"
	"  --max-timeout S      cap every process's hard timeout (tests)\n"
	"  --disturbed-retries N  rerun a disturbed timing process up to N times\n"
	"                       (default 3; tests on a shared machine: 0)\n"
	"  --counter auto|fallback  cycle counter of the drivers (default auto)\n"
	"  --shard K/N          measure shard K of N: the instances the greedy assignment\n"
	"                       gives it (each shard its own --run; `ngcc-perf merge`)\n"
	"  --defer REGEX        keep instances (<ID>/<label>) matching REGEX out of the shards\n"
	"  --deferred-only      measure only the --defer instances (their own worker)\n"
	"  --prior DIR          published dataset or run whose wall times weigh the\n"
	"                       assignment (repeatable; give every shard the same)\n"
	"  --op OP              only this operation (repeatable; globs as for\n"
	"                       SELECTOR; pass<N> or pass* is every KEX pass)\n"
	"  --seed-mode fixed|per-trial  DRNG seed of the timing processes (default\n"
	"                       fixed, 00..2f; per-trial: 00..2e, 0x30 + trial, R1)\n"
	"  --input-pool P       inputs of the input-pool pass after measure, for\n"
	"                       operations under 10 ms (default 16, or\n"
	"                       $NGCC_PERF_INPUT_POOL; 0: no pass, R2)\n"
	"  --warm-calibration   t1 is the median of 3 warm calls, not one cold call;\n"
	"                       changes n (R17; recorded in planning)\n";

const char selector_help[] =
	"SELECTOR (any number; none: every candidate) picks instances:\n"
	"  ID          every instance of candidate ID\n"
	"  ID/LABEL    one instance, e.g. kem-ex/ExampleKEM-128\n"
	"  LABEL       the instance of that label, if one candidate only has it\n"
	"  globs       shell patterns in either part, quoted: 'kem-*', '*/*-128'\n"
	"A selector that matches nothing is an error that lists what exists.\n"
	"Instances with enabled = no in candidate.conf are skipped, visibly.\n";

static int parse_pos_double(const char *arg, const char *name, double *out)
{
	char *end;
	double v = strtod(arg, &end);
	if (*end || end == arg || !(v > 0) || !isfinite(v)) {
		ngcc_error("%s needs a positive number of seconds, not '%s'", name, arg);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_int(const char *arg, const char *name, int min, int *out)
{
	if (parse_whole_int(arg, min, ENGINE_INT_MAX, out)) {
		ngcc_error("%s needs a whole number from %d to %d, not '%s'", name, min,
			   ENGINE_INT_MAX, arg);
		return -1;
	}
	return 0;
}

/* docs/method.md §14 R1, R2 and R17. */
static int engine_opt_seeds_pools(struct engine_opts *o, int c, const char *arg)
{
	if (c == 1101) {
		if (strcmp(arg, "fixed") && strcmp(arg, "per-trial")) {
			ngcc_error("--seed-mode is fixed or per-trial, not '%s'", arg);
			return -1;
		}
		o->seed_per_trial = !strcmp(arg, "per-trial");
		return 1;
	}
	if (c == 1102) {
		if (parse_whole_int(arg, 0, ENGINE_INPUT_POOL_MAX, &o->input_pool)) {
			ngcc_error("--input-pool needs a whole number from 0 (no pool pass) to %d, "
				   "not '%s'", ENGINE_INPUT_POOL_MAX, arg);
			return -1;
		}
		return 1;
	}
	o->planning.warm_calibration = 1;
	return 1;
}

int engine_opt(struct engine_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'r':
		o->run = arg;
		return 1;
	case 'c':
		if (!strcmp(arg, "auto")) {
			o->cpu = CPU_AUTO;
			return 1;
		}
		return parse_int(arg, "--cpu", 0, &o->cpu) ? -1 : 1;
	case 1001:
		return parse_int(arg, "--trials", 1, &o->planning.trials) ? -1 : 1;
	case 1002:
		return parse_pos_double(arg, "--trial-target", &o->planning.trial_target_s) ? -1 : 1;
	case 1003:
		return parse_pos_double(arg, "--op-budget", &o->planning.op_budget_s) ? -1 : 1;
	case 1004:
		host_override_set(&o->ovr, arg);
		return 1;
	case 1005:
		o->redo_stale = 1;
		return 1;
	case 1006:
		return parse_pos_double(arg, "--max-timeout", &o->max_timeout_s) ? -1 : 1;
	case 1007:
		if (!strcmp(arg, "fallback"))
			o->counter_fallback = 1;
		else if (strcmp(arg, "auto")) {
			ngcc_error("--counter is auto or fallback, not '%s'", arg);
			return -1;
		}
		return 1;
	case 1008: {
		char *err = NULL;
		if (shard_parse(arg, &o->shard, &err)) {
			ngcc_error("%s", err);
			free(err);
			return -1;
		}
		return 1;
	}
	case 1009:
		o->defer = arg;
		return 1;
	case 1010:
		o->deferred_only = 1;
		return 1;
	case 1011:
		sl_push(&o->priors, arg);
		return 1;
	case 1012:
		return parse_int(arg, "--disturbed-retries", 0, &o->planning.max_disturbed_retries) ? -1 : 1;
	case 1013:
		if (!sl_contains(&o->ops, arg))
			sl_push(&o->ops, arg);
		return 1;
	case 1101: case 1102: case 1103:
		return engine_opt_seeds_pools(o, c, arg);
	default:
		return 0;
	}
}

/* Shared by calibrate and measure: options and candidate ids. */
int engine_parse_cli(int argc, char **argv, struct engine_opts *o,
		     void (*usage)(FILE *))
{
	static const struct option opts[] = {
		ENGINE_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return -1;
		}
		int r = engine_opt(o, c, optarg);
		if (r < 0)
			return EXIT_USAGE;
		if (r == 0) {
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	for (int i = optind; i < argc; i++)
		sl_push(&o->ids, argv[i]);
	return 0;
}
