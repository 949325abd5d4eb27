/*
 * cmd_changes.c — `ngcc-perf changes ID [--from N] [--to M] [--a A --b B]
 * [--output FILE]`: the options of the "what changed" report between two
 * package versions of a candidate (dataset/changes_cmd.h).
 */
#include "cli/cli.h"
#include "compare/compare.h"
#include "dataset/changes_cmd.h"
#include "util/numparse.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void changes_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] changes ID [--from N] [--to M]\n"
		"                 [--a A --b B] [--system SYS] [--threshold P] [--output FILE]\n"
		"\n"
		"What changed between two package versions of candidate ID (`add` of a\n"
		"newer package for an existing id keeps the older one): the two\n"
		"packages and their SHA-256, instances added or removed and the\n"
		"candidate.conf entries that differ, files changed, added or removed\n"
		"with their added and removed line counts, the SHA-256 of the submitted\n"
		"KAT files and of the KAT output reproduced from each built version, the\n"
		"sizes from the KAT logs and libraries of each built version, and with\n"
		"--a and --b the timing comparison of `ngcc-perf compare` restricted to\n"
		"ID.  Markdown, to stdout unless --output.\n"
		"\n"
		"Options:\n"
		"  --from N        the older version (default: the one before --to)\n"
		"  --to M          the newer version (default: the current one)\n"
		"  --a A, --b B    measurements of the two versions: run directories or\n"
		"                  published datasets.  A run of an older version is read\n"
		"                  with the build records kept with that version\n"
		"  --system SYS    the system of a dataset holding several\n"
		"  --threshold P   percent beyond which a timing change counts (default %g)\n"
		"  --output FILE   write the Markdown to FILE\n"
		"  -h, --help      show this help\n"
		"\n"
		"Exit: 0 written; 1 the timing comparison found a regression beyond the\n"
		"threshold; 2 usage (one version only, an unknown version, --a without\n"
		"--b); 3 a version or a measurement missing or unreadable; 4 cannot\n"
		"write.\n", 100 * CMP_DEFAULT_THRESHOLD);
}

struct changes_args {
	struct changes_request req;
	const char *a, *b, *output;
};

static int parse_version(const char *opt, const char *arg, int *out)
{
	if (parse_whole_int(arg, 1, 1000000, out)) {
		ngcc_error("%s needs a version number (1, 2, …), not '%s'", opt, arg);
		return -1;
	}
	return 0;
}

static int parse_options(int argc, char **argv, struct changes_args *a)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "a", required_argument, NULL, 'a' },
		{ "b", required_argument, NULL, 'b' },
		{ "system", required_argument, NULL, 's' },
		{ "threshold", required_argument, NULL, 'T' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	char *end;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (parse_version("--from", optarg, &a->req.from))
				return EXIT_USAGE;
			break;
		case 't':
			if (parse_version("--to", optarg, &a->req.to))
				return EXIT_USAGE;
			break;
		case 'a': a->a = optarg; break;
		case 'b': a->b = optarg; break;
		case 's': a->req.system = optarg; break;
		case 'o': a->output = optarg; break;
		case 'T':
			a->req.threshold = strtod(optarg, &end) / 100;
			if (*end || end == optarg || !(a->req.threshold >= 0 && a->req.threshold < 1)) {
				ngcc_error("--threshold needs a percentage from 0 to below 100, not '%s'",
					   optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h': changes_usage(stdout); return -1;
		default: changes_usage(stderr); return EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		ngcc_error("changes needs one candidate id; see 'ngcc-perf changes --help'");
		return EXIT_USAGE;
	}
	return 0;
}

int cmd_changes(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct changes_args a = { .req = { .threshold = CMP_DEFAULT_THRESHOLD } };
	int rc = parse_options(argc, argv, &a);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	char *pa = a.a ? ws_resolve(ctx, a.a) : NULL, *pb = a.b ? ws_resolve(ctx, a.b) : NULL;
	char *out = a.output ? ws_resolve(ctx, a.output) : NULL;
	a.req.workspace = ctx->workspace;
	a.req.id = argv[optind];
	a.req.a = pa;
	a.req.b = pb;
	a.req.output = out;
	rc = changes_make(&a.req);
	free(pa);
	free(pb);
	free(out);
	return rc;
}
