/*
 * cmd_selftest.c — `ngcc-perf selftest`: check the clean-room ICCS runtime
 * (SM3, DRNG, pseudoXOF, pseudohash) against published test vectors
 * (docs/iccs.md §8) and OpenSSL.
 * The checks live in src/selftest/ so the unit tests share them.
 */
#include <getopt.h>
#include <stdio.h>

#include "cli/cli.h"
#include "selftest/selftest.h"

static void selftest_usage(FILE *f)
{
	fputs("usage: ngcc-perf selftest [--help]\n"
	      "\n"
	      "Check ngcc-perf's clean-room ICCS runtime, the drng.c and auxfunc.c\n"
	      "linked into candidates that do not ship their own, before trusting any\n"
	      "KAT or profile built on it:\n"
	      "  - SM3, pseudoXOF and pseudohash against published and recomputed\n"
	      "    test vectors (docs/iccs.md §8), including input that is not\n"
	      "    byte-aligned;\n"
	      "  - return codes for unsupported digest lengths (-4);\n"
	      "  - the DRNG: the ten KAT seeds, V and C after instantiation, request\n"
	      "    granularity, zero-bit requests, masking, 440-bit arithmetic, the\n"
	      "    SIG messages and the hash-KAT messages (KAT_2_12, KAT_2_23, the\n"
	      "    ends of KAT_2_33, KAT_Loop's m0);\n"
	      "  - SM3's length field for messages of 2^32 bits or more, which the\n"
	      "    official code writes in a non-standard way;\n"
	      "  - SM3, pseudoXOF and pseudohash against OpenSSL's EVP_sm3 and\n"
	      "    HMAC-SM3 on pseudo-random byte-aligned input (skipped if this\n"
	      "    OpenSSL has no SM3).\n"
	      "\n"
	      "Prints one line per check (\"ok   NAME\" or \"FAIL NAME: expected ... got\n"
	      "...\") and a summary line \"selftest: N passed, M failed\".  Runs no\n"
	      "candidate code and writes nothing.\n"
	      "\n"
	      "Exit status: 0 all checks passed, 1 a check failed, 2 usage error.\n",
	      f);
}

int cmd_selftest(int argc, char **argv, const struct cli_ctx *ctx)
{
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	(void)ctx;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (c) {
		case 'h':
			selftest_usage(stdout);
			return EXIT_OK;
		default:
			fputs("usage: ngcc-perf selftest [--help]\n", stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		ngcc_error("selftest: unexpected argument '%s'; it takes no arguments "
			   "(see ngcc-perf selftest --help)", argv[optind]);
		return EXIT_USAGE;
	}

	return selftest_command(stdout);
}
