/*
 * cmd_kat.c — `ngcc-perf kat [SELECTOR...] [--timeout SECONDS] [--no-fallback]
 * [--skip-kat-file TAG]...`:
 * the options of the KAT gate (docs/method.md §2.2, kat/gate.h).
 */
#include "cli/cli.h"
#include "kat/gate.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static void kat_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] kat [SELECTOR...] [--timeout SECONDS] [--no-fallback]\n"
		"                              [--skip-kat-file TAG]...\n"
		"\n"
		"Reproduce the submitted Known-Answer Tests of every enabled instance\n"
		"built by `ngcc-perf build` (all candidates of the workspace when no ID is\n"
		"given).  Each library is loaded by the child program ngcc-perf-kat in its\n"
		"own process group (8 GiB address space, 1 GiB files, 64 processes, a\n"
		"hard timeout), which replays the official KAT driver and compares the\n"
		"text with candidates/<ID>/kat.sha256 or the submitted KAT file.\n"
		"\n"
		"A hash instance has four KAT files, each run in its own child with its\n"
		"own status (a `kat <ID> <label> <file>: <STATUS> in <t> s` line on\n"
		"stderr, and a FILE line in the log): KAT_2_12, KAT_2_23, KAT_2_33 (a\n"
		"1 GiB message: about 1 GiB of memory in the child, 2 GiB if the\n"
		"candidate copies its input, and minutes of CPU) and KAT_Loop (10^6\n"
		"chained calls).  It passes only when all four match; otherwise its\n"
		"status is its worst file's.  An ICCS baseline instance (candidate iccs)\n"
		"runs its self-test against OpenSSL instead.\n"
		"\n"
		"Prints one line per instance:  RESULT <ID> <label> <STATUS> [detail]\n"
		"  PASS        the text matches the reference\n"
		"  MISMATCH    it differs (the detail names the first Count and field)\n"
		"  NOKAT       no reference (no kat.sha256 entry, no kat_reference)\n"
		"  CRYPTOFAIL  an API call failed or decapsulation disagreed\n"
		"  OVERFLOW    a buffer guard zone was overwritten, or a returned\n"
		"              length exceeds the getter\n"
		"  LOADFAIL    the library could not be loaded\n"
		"  TIMEOUT     killed at the time limit\n"
		"  CRASH       the child died without a result (signal, exit())\n"
		"  BUILDFAIL   no library: the build failed (not run)\n"
		"  PARTIAL     a hash instance whose files that ran passed while some\n"
		"              were skipped with --skip-kat-file (timed, marked)\n"
		"A MISMATCH's detail gives both values, shortened, and the line in each\n"
		"file; a line on stderr gives the diff command that shows every difference.\n"
		"A guide-built library that does not PASS (NOKAT aside) is rebuilt with\n"
		"the harness-default flags and tested again; build.json keeps the first\n"
		"status as guide_result.  Not after a MISMATCH that is the reference\n"
		"file's (no record, cut short): flags cannot change that.  An instance on\n"
		"such a harness-default build is rebuilt with the guide flags at the next\n"
		"kat, and a PASS gives the guide build back.\n"
		"\n"
		"Writes build/<ID>/kat/<label>.log (header, candidate output tail, the\n"
		"RESULT line) and <label>.txt (the generated text; a hash instance:\n"
		"<label>.<file>.txt per file), and the KAT fields of build/<ID>/build.json.\n"
		"\n"
		"%s"
		"\n"
		"Options:\n"
		"  --timeout SECONDS  hard limit per instance, and per file of a hash\n"
		"                     instance (default 900)\n"
		"  --no-fallback      do not rebuild with harness-default flags\n"
		"  --skip-kat-file TAG  do not run this hash KAT file (KAT_2_12, KAT_2_23,\n"
		"                     KAT_2_33 or KAT_Loop; repeatable), e.g. KAT_2_33 on a\n"
		"                     small machine: the file shows SKIPPED and the\n"
		"                     instance PARTIAL, never PASS\n"
		"  -h, --help         show this help\n"
		"\n"
		"Exit: 0 every instance passed; 1 some did not; 2 usage; 3 bad\n"
		"workspace or candidate (not added, not built, bad kat.sha256);\n"
		"4 system error.\n",
		selector_help);
}

static int parse_timeout(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || !(v > 0) || v > 30 * 86400.0)
		return -1;
	*out = v;
	return 0;
}

int cmd_kat(int argc, char **argv, const struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "timeout", required_argument, NULL, 't' },
		{ "no-fallback", no_argument, NULL, 'F' },
		{ "skip-kat-file", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kat_gate_opts o;
	kat_gate_opts_init(&o, ctx->workspace, ctx->tty);
	int c;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_timeout(optarg, &o.timeout_s) != 0) {
				ngcc_error("--timeout %s: expected a positive number of seconds",
					   optarg);
				kat_gate_opts_free(&o);
				return EXIT_USAGE;
			}
			break;
		case 'F':
			o.fallback = 0;
			break;
		case 'S':
			if (kat_gate_skip_file(&o, optarg) != 0) {
				ngcc_error("--skip-kat-file %s: expected KAT_2_12, KAT_2_23, KAT_2_33 "
					   "or KAT_Loop", optarg);
				kat_gate_opts_free(&o);
				return EXIT_USAGE;
			}
			break;
		case 'h':
			kat_usage(stdout);
			kat_gate_opts_free(&o);
			return EXIT_OK;
		default:
			kat_usage(stderr);
			kat_gate_opts_free(&o);
			return EXIT_USAGE;
		}
	}
	struct strlist ids = STRLIST_INIT;
	for (int i = optind; i < argc; i++)
		sl_push(&ids, argv[i]);
	int rc = kat_gate(&o, &ids);
	sl_free(&ids);
	kat_gate_opts_free(&o);
	return rc;
}
