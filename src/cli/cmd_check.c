/*
 * cmd_check.c — `ngcc-perf check [SELECTOR...]`: options, then the check stage
 * (src/check/check.h) does the work.
 */
#include "check/check.h"
#include "cli/cli.h"
#include "util/numparse.h"
#include "evidence/check_json.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] check [SELECTOR...] [--only LIST] [--rounds N]\n"
		"                                [--timeout SECONDS] [-j N] [--redo]\n"
		"\n"
		"Correctness, memory safety and constant time of every built instance\n"
		"(all candidates when no ID is given): KEM, signature and key-exchange\n"
		"instances; hash functions are not checked.  Each check runs in its own\n"
		"process group with resource limits and a hard timeout:\n"
		"  functional  random-seed round trips on the timed library: return codes,\n"
		"              lengths within the getters, canaries around every buffer,\n"
		"              inputs unmodified, deterministic decapsulation, tampered\n"
		"              ciphertexts rejected or giving another secret, unaligned\n"
		"              buffers\n"
		"  sanitizers  the same on the instance rebuilt with ASan and UBSan\n"
		"  memcheck    valgrind memcheck of a short round trip (-g build), inputs\n"
		"              read-only during their calls, leaks\n"
		"  consttime   valgrind memcheck with the secret key and every DRNG output\n"
		"              marked secret: branches and memory indices depending on a\n"
		"              secret.  Reviewed findings go in candidates/<ID>/check.supp\n"
		"              (valgrind suppressions; each finding's record holds one)\n"
		"\n"
		"Prints CHECK <ID> <label> <check> clean|<n> finding(s)|failed|timeout,\n"
		"with each finding's operation, kind and source line.  Writes one record\n"
		"per instance and check, build/<ID>/check/<label>__<check>.json, with the\n"
		"tool output in build/<ID>/check/raw/ and the rebuilt libraries in\n"
		"build/<ID>/check/.  A complete record is kept while its library, plan and\n"
		"suppressions are unchanged.\n"
		"\n"
		"%s"
		"\n"
		"Options:\n"
		"  --only LIST        comma-separated checks to run (default: all four)\n"
		"  --rounds N         functional and sanitizer round trips (default 1000)\n"
		"  --timeout SECONDS  hard limit per check process (default 1800); the\n"
		"                     round trips stop starting new rounds at half of it\n"
		"  -j N               compilers at once for the rebuilt libraries (default 2)\n"
		"  --redo             run again even where a complete record exists\n"
		"  -h, --help         show this help\n"
		"\n"
		"Exit: 0 every record complete and clean; 1 findings, or a check that\n"
		"failed or timed out; 2 usage; 3 bad workspace or candidate, or nothing\n"
		"to check; 4 system error.\n",
		selector_help);
}

static int parse_only(const char *list, int *mask)
{
	char *copy = xstrdup(list), *save = NULL;
	int rc = 0;
	*mask = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		enum check_id id = check_by_name(t);
		if (id == CHECK_N) {
			ngcc_error("--only: unknown check '%s' (functional, sanitizers, memcheck, "
				   "consttime)", t);
			rc = -1;
		} else {
			*mask |= 1 << id;
		}
	}
	free(copy);
	return rc || !*mask ? -1 : 0;
}

static int parse_number(const char *s, double min, double max, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || !(v >= min) || v > max)
		return -1;
	*out = v;
	return 0;
}

int cmd_check(int argc, char **argv, const struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "only", required_argument, NULL, 'o' },
		{ "rounds", required_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 't' },
		{ "redo", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct check_opts o;
	check_opts_init(&o, ctx->workspace, ctx->tty);
	long long rounds = 0;
	int c, rc = EXIT_OK;
	while (rc == EXIT_OK && (c = getopt_long(argc, argv, "hj:", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (parse_only(optarg, &o.only))
				rc = EXIT_USAGE;
			break;
		case 'n':
			if (parse_whole(optarg, 1, 1000000000, &rounds)) {
				ngcc_error("--rounds %s: expected a whole number from 1 to 1000000000", optarg);
				rc = EXIT_USAGE;
			}
			o.rounds = (long)rounds;
			break;
		case 't':
			if (parse_number(optarg, 1, 30 * 86400.0, &o.timeout_s)) {
				ngcc_error("--timeout %s: expected a number of seconds >= 1", optarg);
				rc = EXIT_USAGE;
			}
			break;
		case 'j':
			if (parse_whole_int(optarg, 1, 256, &o.jobs)) {
				ngcc_error("-j %s: expected a whole number from 1 to 256", optarg);
				rc = EXIT_USAGE;
			}
			break;
		case 'R':
			o.redo = 1;
			break;
		case 'h':
			check_usage(stdout);
			check_opts_free(&o);
			return EXIT_OK;
		default:
			check_usage(stderr);
			rc = EXIT_USAGE;
		}
	}
	for (int i = optind; rc == EXIT_OK && i < argc; i++)
		sl_push(&o.ids, argv[i]);
	if (rc == EXIT_OK)
		rc = check_phase(&o);
	check_opts_free(&o);
	return rc;
}
