/*
 * cmd_add.c — `ngcc-perf add PACKAGE [--id ID] [--kat-manifest FILE]
 * [--patch FILE]... [--force] [--explain]`: the options of `add` (package/ingest.h).
 */
#include "cli/cli.h"
#include "package/ingest.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

struct add_opts {
	const char *package;
	const char *id;
	const char *manifest;
	int force;
	struct strlist patches;   /* as given */
	int explain;
};

static void add_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] add PACKAGE [--id ID] [--kat-manifest FILE]\n"
		"                             [--patch FILE]... [--force] [--explain]\n"
		"\n"
		"Ingest an NGCC submission package (a folder, or a .zip/.rar/.7z/.tar\n"
		"archive) into the workspace: copy or unpack it into\n"
		"candidates/<ID>/source/, discover its parameter sets and write the\n"
		"editable manifest candidates/<ID>/candidate.conf.  Nothing from the\n"
		"package is executed; symlinks are skipped; entries escaping the package\n"
		"('..', absolute names) are refused; at most 4 GiB are unpacked.\n"
		"\n"
		"Options:\n"
		"  --id ID             candidate id ([A-Za-z0-9._-]+, e.g. kem-27);\n"
		"                      default: a slug of the package name\n"
		"  --kat-manifest FILE reference KAT digests, copied to\n"
		"                      candidates/<ID>/kat.sha256; lines are\n"
		"                      '<sha256> strict|nolen[:N] <label>/<file>'\n"
		"  --patch FILE        a unified diff applied to the copy in\n"
		"                      candidates/<ID>/source/ (never to the package),\n"
		"                      kept in candidates/<ID>/patches/ and recorded with\n"
		"                      its SHA-256 in candidate.conf, build.json and the\n"
		"                      candidate page; repeatable, applied in order.\n"
		"                      Paths are from the package's top; absolute paths,\n"
		"                      '..', links and hunks that do not match exactly\n"
		"                      are refused\n"
		"  --force             replace an existing candidate with the same id\n"
		"                      whole, its older versions included\n"
		"  --explain           print, per instance, what discovery saw and chose:\n"
		"                      its files, include folders, defines and libraries\n"
		"                      (with the build-file line each came from), KAT file\n"
		"                      and why\n"
		"  -h, --help          show this help\n"
		"\n"
		"A package for an id that exists already becomes its next version: the\n"
		"current one is kept in candidates/<ID>/versions/<N>/ and listed with\n"
		"its date and package SHA-256 in candidates/<ID>/versions.conf; the\n"
		"algorithm name and 'enabled = no' edited in candidate.conf are carried\n"
		"over, other differences listed; `ngcc-perf changes ID` says what\n"
		"changed.  A package equal to the current version changes nothing.\n"
		"\n"
		"Relative paths are taken from the workspace (-C), then from the\n"
		"current directory.  Exit: 0 added; 1 unchanged (the package equals the\n"
		"current version); 2 usage or refused (an id holding another\n"
		"algorithm or type); 3 bad package,\n"
		"manifest or patch (no implementation, unreadable archive, path escape,\n"
		"a header in two include folders of one instance, a patch that does not\n"
		"apply); 4 system error.\n");
}

/* Like git -C, relative paths are taken from the workspace; a path that
 * only exists relative to the current directory is accepted too. */
static char *resolve_input(const struct cli_ctx *ctx, const char *user)
{
	char *p = ws_resolve(ctx, user);
	if (path_exists(p) || user[0] == '/')
		return p;
	char *cwd_rel = path_absolute(user);
	if (path_exists(cwd_rel)) {
		free(p);
		return cwd_rel;
	}
	free(cwd_rel);
	return p;
}

static int parse_add_args(int argc, char **argv, struct add_opts *o)
{
	static const struct option opts[] = {
		{ "id", required_argument, NULL, 'i' },
		{ "kat-manifest", required_argument, NULL, 'k' },
		{ "force", no_argument, NULL, 'f' },
		{ "patch", required_argument, NULL, 'p' },
		{ "explain", no_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o->id = optarg;
			break;
		case 'k':
			o->manifest = optarg;
			break;
		case 'f':
			o->force = 1;
			break;
		case 'p':
			sl_push(&o->patches, optarg);
			break;
		case 'e':
			o->explain = 1;
			break;
		case 'h':
			add_usage(stdout);
			return -1;
		default:
			add_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		ngcc_error("add takes exactly one PACKAGE (a folder or an archive)");
		add_usage(stderr);
		return EXIT_USAGE;
	}
	o->package = argv[optind];
	return EXIT_OK;
}

/* The --patch files, resolved like the package: each must be a file. */
static int resolve_patches(const struct cli_ctx *ctx, const struct strlist *given,
			   struct strlist *out)
{
	for (size_t i = 0; i < given->n; i++) {
		char *p = resolve_input(ctx, given->items[i]);
		if (!path_is_file(p)) {
			ngcc_error("patch '%s' not found or not a file (looked at '%s')",
				   given->items[i], p);
			free(p);
			return EXIT_INPUT;
		}
		sl_push_owned(out, p);
	}
	return EXIT_OK;
}

int cmd_add(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct add_opts o = { 0 };
	struct strlist patches = STRLIST_INIT;
	int rc = parse_add_args(argc, argv, &o);
	if (rc) {
		sl_free(&o.patches);
		return rc < 0 ? EXIT_OK : rc;
	}
	char *pkg = resolve_input(ctx, o.package);
	if (!path_exists(pkg)) {
		ngcc_error("package '%s' not found (looked at '%s')", o.package, pkg);
		free(pkg);
		sl_free(&o.patches);
		return EXIT_INPUT;
	}
	char *manifest = o.manifest ? resolve_input(ctx, o.manifest) : NULL;
	rc = resolve_patches(ctx, &o.patches, &patches);
	if (!rc) {
		struct add_request r = { .workspace = ctx->workspace, .package = pkg, .id = o.id,
					 .manifest = manifest, .force = o.force,
					 .patches = (const char *const *)patches.items,
					 .n_patches = patches.n, .explain = o.explain };
		rc = package_add(&r);
	}
	sl_free(&patches);
	sl_free(&o.patches);
	free(manifest);
	free(pkg);
	return rc;
}
