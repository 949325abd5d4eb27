/*
 * cmd_compare.c — `ngcc-perf compare A B`: the options of comparing two run
 * directories or published datasets (dataset/compare_cmd.h).
 */
#include "cli/cli.h"
#include "dataset/compare_cmd.h"
#include "util/numparse.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void compare_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] compare A B [--threshold P] [--system ID]\n"
		"                 [--markdown FILE] [--csv FILE] [--out DIR] [options]\n"
		"\n"
		"Compare B against A, each a run directory (it holds campaign.json; read\n"
		"with the closest folder above it that holds build/, else the -C\n"
		"workspace) or a published dataset (it holds data/<SYS>/).  Per instance\n"
		"and operation measured on both sides: the ratio B/A of the mean time per\n"
		"call (and of the mean cycles where both sides have them) with a 95 %%\n"
		"interval from a deterministic percentile bootstrap over the trials of\n"
		"each record, and a verdict: regression when the whole interval lies above\n"
		"1 + P %%, improvement when it lies below 1 - P %%, otherwise no\n"
		"significant change.  Also sizes, KAT status and hash/DRNG shares, what\n"
		"only one side has (the intersection is compared), and every setting that\n"
		"differs (host, CPU, kernel, compiler, flags, planning constants, options,\n"
		"tool version): each output lists them.\n"
		"\n"
		"Options:\n"
		"  --threshold P      percent beyond which a change counts (default %g)\n"
		"  --system ID        system of a dataset holding several (both sides)\n"
		"  --system-a ID, --system-b ID   the same for one side\n"
		"  --markdown FILE    write the comparison as Markdown\n"
		"  --csv FILE         write it as CSV (one row per item, column kind)\n"
		"  --out DIR          write it as a small site: index.html with a ratio\n"
		"                     chart, style.css, compare.md, compare.csv and the\n"
		"                     chart's SVG and CSV (a previous one there is\n"
		"                     replaced, any other non-empty folder refused)\n"
		"  --map A_ID=B_ID    compare A's candidate A_ID with B's candidate B_ID\n"
		"                     (e.g. two versions measured side by side in one run:\n"
		"                     give the same run as A and B; no drift between runs)\n"
		"  --resamples N      bootstrap resamples (default %d)\n"
		"  --seed N           xor-ed into every row's bootstrap seed (default 0)\n"
		"  -h, --help         show this help\n"
		"\n"
		"Relative paths are taken from the workspace.  The table goes to stdout.\n"
		"\n"
		"Exit: 0 no significant regression beyond the threshold; 1 a regression;\n"
		"2 usage (a dataset with several systems and no --system, a refused\n"
		"--out); 3 a side missing or corrupt, or nothing measured on both sides;\n"
		"4 cannot write.\n",
		100 * CMP_DEFAULT_THRESHOLD, CMP_DEFAULT_RESAMPLES);
}

static int parse_threshold(const char *arg, double *out)
{
	char *end;
	double v = strtod(arg, &end);
	if (*end == '%')
		end++;
	if (*end || end == arg || !(v >= 0 && v < 100) || !isfinite(v)) {
		ngcc_error("--threshold needs a percentage from 0 to below 100 (e.g. 5), not '%s'",
			   arg);
		return -1;
	}
	*out = v / 100;
	return 0;
}

struct compare_args {
	struct compare_request req;
	const char *system, *md, *csv, *out;
};

static int parse_options(int argc, char **argv, struct compare_args *a)
{
	static const struct option opts[] = {
		{ "threshold", required_argument, NULL, 't' },
		{ "system", required_argument, NULL, 's' },
		{ "system-a", required_argument, NULL, 'A' },
		{ "system-b", required_argument, NULL, 'B' },
		{ "markdown", required_argument, NULL, 'm' },
		{ "csv", required_argument, NULL, 'c' },
		{ "out", required_argument, NULL, 'o' },
		{ "resamples", required_argument, NULL, 'r' },
		{ "map", required_argument, NULL, 'M' },
		{ "seed", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, n;
	long long seed;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_threshold(optarg, &a->req.opts.threshold))
				return EXIT_USAGE;
			break;
		case 's': a->system = optarg; break;
		case 'A': a->req.system_a = optarg; break;
		case 'B': a->req.system_b = optarg; break;
		case 'm': a->md = optarg; break;
		case 'c': a->csv = optarg; break;
		case 'o': a->out = optarg; break;
		case 'r':
			if (parse_whole_int(optarg, 100, CMP_MAX_RESAMPLES, &n)) {
				ngcc_error("--resamples needs a whole number from 100 to %d, not '%s'",
					   CMP_MAX_RESAMPLES, optarg);
				return EXIT_USAGE;
			}
			a->req.opts.resamples = (unsigned)n;
			break;
		case 'S':
			if (parse_whole(optarg, 0, (long long)1 << 62, &seed)) {
				ngcc_error("--seed needs a whole number from 0 to 2^62, not '%s'", optarg);
				return EXIT_USAGE;
			}
			a->req.opts.seed = (uint64_t)seed;
			break;
		case 'M': {
			char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg || !eq[1] || strchr(eq + 1, '=')) {
				ngcc_error("--map needs A_ID=B_ID, not '%s'", optarg);
				return EXIT_USAGE;
			}
			*eq = '\0';
			a->req.opts.map_a = optarg;
			a->req.opts.map_b = eq + 1;
			break;
		}
		case 'h': compare_usage(stdout); return -1;
		default: compare_usage(stderr); return EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		ngcc_error("compare needs two arguments, A and B (run directories or published "
			   "datasets); see 'ngcc-perf compare --help'");
		return EXIT_USAGE;
	}
	return 0;
}

int cmd_compare(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct compare_args a = { .req = { .opts = CMP_OPTS_DEFAULT } };
	int rc = parse_options(argc, argv, &a);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	struct compare_request *r = &a.req;
	char *pa = ws_resolve(ctx, argv[optind]), *pb = ws_resolve(ctx, argv[optind + 1]);
	char *md = a.md ? ws_resolve(ctx, a.md) : NULL, *csv = a.csv ? ws_resolve(ctx, a.csv) : NULL;
	char *out = a.out ? ws_resolve(ctx, a.out) : NULL;
	r->workspace = ctx->workspace;
	r->a = pa;
	r->b = pb;
	r->opts.name_a = argv[optind];
	r->opts.name_b = argv[optind + 1];
	if (!r->system_a)
		r->system_a = a.system;
	if (!r->system_b)
		r->system_b = a.system;
	r->markdown = md;
	r->csv = csv;
	r->out = out;
	rc = compare_make(r);
	free(pa);
	free(pb);
	free(md);
	free(csv);
	free(out);
	return rc;
}
