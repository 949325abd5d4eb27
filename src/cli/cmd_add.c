/*
 * cmd_add.c — `ngcc-perf add PACKAGE [--id ID] [--kat-manifest FILE] [--force]`
 *
 * Brings a submission package into candidates/<ID>/source/, discovers its
 * instances and writes candidates/<ID>/candidate.conf (method §2.1).  The
 * new candidate is assembled in a staging folder and moved into place only
 * when everything succeeded, so a failed or refused add never leaves half a
 * candidate behind and never damages the one being replaced.
 */
#include "cli/cli.h"
#include "kat/katcompare.h"
#include "package/conf.h"
#include "package/discover.h"
#include "package/extract.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void add_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] add PACKAGE [--id ID] [--kat-manifest FILE] [--force]\n"
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
		"  --force             replace an existing candidate with the same id\n"
		"  -h, --help          show this help\n"
		"\n"
		"Relative paths are taken from the workspace (-C), then from the\n"
		"current directory.  Exit: 0 added; 2 usage or refused; 3 bad package\n"
		"or manifest (no implementation, unreadable archive, path escape);\n"
		"4 system error.\n");
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

/* ---- KAT manifest ---- */


/* One manifest line; returns NULL if fine, else what is wrong. */
static char *check_manifest_line(char *line, struct strlist *labels)
{
	char *p = str_trim(line);
	if (!*p || *p == '#')
		return NULL;
	size_t hn = strcspn(p, " \t");
	if (!kat_is_sha256_hex(p, hn))
		return xasprintf("expected a 64-digit SHA-256 in hex first, got '%.*s'", (int)hn, p);
	p += hn;
	p += strspn(p, " \t");
	size_t mn = strcspn(p, " \t");
	/* the same grammar `kat` applies when it reads the manifest */
	char *mode = xstrndup(p, mn);
	struct kat_mode parsed;
	int mode_ok = kat_mode_parse(mode, &parsed) == 0;
	free(mode);
	if (!mode_ok)
		return xasprintf("mode must be strict or nolen, optionally with :N (N > 0), got '%.*s'",
				 (int)mn, p);
	p += mn;
	p += strspn(p, " \t");
	if (!*p)
		return xstrdup("missing '<label>/<KAT file>' after the mode");
	if (p[0] == '/' || strstr(p, "..") || str_ends_with(p, "/"))
		return xasprintf("'%s' must be '<label>/<file>' or a bare file name", p);
	const char *slash = strchr(p, '/');
	if (slash && strchr(slash + 1, '/'))
		return xasprintf("'%s' must be '<label>/<file>' (one folder level) or a bare file name", p);
	if (slash)
		sl_push_owned(labels, xstrndup(p, (size_t)(slash - p)));
	return NULL;
}

/* Validate FILE, then copy it verbatim to dst.  labels gets the labels named. */
static int import_manifest(const char *file, const char *dst, struct strlist *labels)
{
	char *data;
	size_t len;
	if (read_file(file, &data, &len)) {
		ngcc_error("cannot read KAT manifest '%s': %s", file, strerror(errno));
		return EXIT_INPUT;
	}
	char *copy = xstrdup(data);
	int line_no = 0, rc = EXIT_OK, entries = 0;
	for (char *p = copy; p && rc == EXIT_OK;) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		line_no++;
		char *trimmed = str_trim(p);
		int blank = !*trimmed || *trimmed == '#';
		char *why = check_manifest_line(p, labels);
		if (why) {
			ngcc_error("%s:%d: %s (fix the manifest and run add again)", file, line_no, why);
			free(why);
			rc = EXIT_INPUT;
		} else if (!blank) {
			entries++;
		}
		p = nl ? nl + 1 : NULL;
	}
	free(copy);
	if (rc == EXIT_OK && !entries) {
		ngcc_error("KAT manifest '%s' has no entries", file);
		rc = EXIT_INPUT;
	}
	if (rc == EXIT_OK && write_file(dst, data, len)) {
		ngcc_error("cannot write '%s': %s", dst, strerror(errno));
		rc = EXIT_SYSTEM;
	}
	free(data);
	return rc;
}

/* ---- summary ---- */

static const char *iccs_copy(int own)
{
	return own ? "package" : "ngcc-perf";
}

static char *folder_label(const char *label)
{
	const char *plus = strchr(label, '+');
	return plus ? xstrndup(label, (size_t)(plus - label)) : xstrdup(label);
}

static void print_summary(const struct candidate_conf *c, const struct discovery *d,
			  const struct strlist *manifest_labels, const struct import_result *imp)
{
	printf("added %s (%s, %s): %zu instance(s), %zu file(s), %llu bytes\n",
	       c->id, c->algorithm, c->type ? c->type : "?", c->n_inst, imp->files, imp->bytes);
	printf("%-24s %-5s %-15s %-24s %5s %-20s %-3s %s\n", "label", "type", "variant",
	       "ALGORITHM_INSTANCE", "#src", "ICCS drng/auxfunc", "on", "KAT reference");
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct instance_conf *in = &c->inst[i];
		char *fl = folder_label(in->label);
		const char *kat = "none";
		if (sl_contains(manifest_labels, fl))
			kat = "manifest";
		else if (in->kat_reference)
			kat = path_basename(in->kat_reference);
		char *iccs = xasprintf("%s/%s", iccs_copy(in->own_drng), iccs_copy(in->own_auxfunc));
		printf("%-24s %-5s %-15s %-24s %5zu %-20s %-3s %s\n", in->label, in->type,
		       in->variant, in->instance ? in->instance : "(none)", in->sources.n, iccs,
		       in->enabled ? "yes" : "no", kat);
		free(iccs);
		free(fl);
	}
	for (size_t i = 0; i < imp->notes.n; i++)
		printf("note: %s\n", imp->notes.items[i]);
	for (size_t i = 0; i < d->notes.n; i++)
		printf("note: %s\n", d->notes.items[i]);
	for (size_t i = 0; i < manifest_labels->n; i++)
		if (!conf_find_instance((struct candidate_conf *)c, manifest_labels->items[i]))
			printf("note: kat.sha256 names label '%s', which is not an instance here\n",
			       manifest_labels->items[i]);
}

/* ---- the command ---- */

struct add_opts {
	const char *package;
	const char *id;
	const char *manifest;
	int force;
};

static int parse_add_args(int argc, char **argv, struct add_opts *o)
{
	static const struct option opts[] = {
		{ "id", required_argument, NULL, 'i' },
		{ "kat-manifest", required_argument, NULL, 'k' },
		{ "force", no_argument, NULL, 'f' },
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

static int import_status_exit(enum import_status st)
{
	return st == IMPORT_SYSTEM ? EXIT_SYSTEM : EXIT_INPUT;
}

/* Fill stage/ (source/, kat.sha256, candidate.conf); prints the summary. */
static int assemble(const struct add_opts *o, const char *pkg, const char *id,
		    const char *stage, const struct cli_ctx *ctx)
{
	char *source = path_join(stage, "source");
	char *err = NULL;
	struct import_result imp = { 0 };
	struct discovery d = { 0 };
	struct strlist mlabels = STRLIST_INIT;
	struct candidate_conf c = { 0 };
	int rc = EXIT_OK;
	enum import_status st = package_import(pkg, source, NULL, &imp, &err);
	if (st != IMPORT_OK) {
		ngcc_error("%s", err);
		rc = import_status_exit(st);
		goto out;
	}
	c.algorithm = algorithm_from_package_name(pkg);
	if (!discover_package(source, c.algorithm, &d)) {
		ngcc_error("no implementation found in package '%s': expected instance folders "
			   "such as Implementations/Reference_Implementation/<instance>/ holding an "
			   "ICCS API header (KEM_*.h, SIG_*.h, KEX_*.h or CryptHash_*.h)", pkg);
		rc = EXIT_INPUT;
		goto out;
	}
	if (o->manifest) {
		char *mpath = resolve_input(ctx, o->manifest);
		char *dst = path_join(stage, "kat.sha256");
		rc = import_manifest(mpath, dst, &mlabels);
		free(dst);
		free(mpath);
		if (rc)
			goto out;
	}
	c.id = xstrdup(id);
	c.package = xstrdup(path_basename(pkg));
	discovery_to_conf(&d, &c);
	char *conf_path = path_join(stage, "candidate.conf");
	if (conf_write(conf_path, &c)) {
		ngcc_error("cannot write '%s': %s", conf_path, strerror(errno));
		rc = EXIT_SYSTEM;
	}
	free(conf_path);
	if (!rc)
		print_summary(&c, &d, &mlabels, &imp);
out:
	conf_free(&c);
	sl_free(&mlabels);
	discovery_free(&d);
	import_result_free(&imp);
	free(err);
	free(source);
	return rc;
}

/* Hidden work folders of an add that was killed: ".<id>.new.<pid>" and
 * ".<id>.old.<pid>" whose process no longer runs. */
static void sweep_stale_stages(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *dot = strrchr(e->d_name, '.');
		if (e->d_name[0] != '.' || !dot || dot == e->d_name)
			continue;
		char *end;
		long pid = strtol(dot + 1, &end, 10);
		int stage = strstr(e->d_name, ".new.") || strstr(e->d_name, ".old.");
		if (!stage || *end || pid <= 0)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue; /* its add is still running */
		char *p = path_join(dir, e->d_name);
		rm_rf(p);
		free(p);
	}
	closedir(d);
}

/* Replace candidates/<id> by the staged folder. */
static int install_stage(const char *dir, const char *id, const char *stage, const char *final)
{
	char *old = NULL;
	if (path_exists(final)) {
		old = xasprintf("%s/.%s.old.%ld", dir, id, (long)getpid());
		if (rename(final, old)) {
			ngcc_error("cannot move '%s' aside: %s", final, strerror(errno));
			free(old);
			return EXIT_SYSTEM;
		}
	}
	if (rename(stage, final)) {
		ngcc_error("cannot move '%s' to '%s': %s", stage, final, strerror(errno));
		if (old)
			rename(old, final);
		free(old);
		return EXIT_SYSTEM;
	}
	if (old && rm_rf(old))
		ngcc_warning("could not remove the replaced candidate at '%s'", old);
	free(old);
	return EXIT_OK;
}

int cmd_add(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct add_opts o = { 0 };
	int rc = parse_add_args(argc, argv, &o);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	char *pkg = resolve_input(ctx, o.package);
	if (!path_exists(pkg)) {
		ngcc_error("package '%s' not found (looked at '%s')", o.package, pkg);
		free(pkg);
		return EXIT_INPUT;
	}
	char *id = o.id ? xstrdup(o.id) : slug_from_package_name(pkg);
	char *dir = ws_path(ctx, "candidates");
	char *final = path_join(dir, id);
	char *stage = xasprintf("%s/.%s.new.%ld", dir, id, (long)getpid());
	if (!valid_candidate_id(id)) {
		ngcc_error("invalid candidate id '%s': use letters, digits, '.', '_' and '-' "
			   "(e.g. --id kem-27)", id);
		rc = EXIT_USAGE;
	} else if (path_exists(final) && !o.force) {
		ngcc_error("candidate '%s' already exists at '%s'; use --force to replace it "
			   "(this discards its candidate.conf and kat.sha256), or pick another --id",
			   id, final);
		rc = EXIT_USAGE;
	} else if (mkdir_p(dir, 0755)) {
		ngcc_error("cannot create '%s': %s", dir, strerror(errno));
		rc = EXIT_SYSTEM;
	} else {
		sweep_stale_stages(dir);
		rm_rf(stage);
		rc = assemble(&o, pkg, id, stage, ctx);
		if (!rc)
			rc = install_stage(dir, id, stage, final);
		rm_rf(stage);
	}
	free(stage);
	free(final);
	free(dir);
	free(id);
	free(pkg);
	return rc;
}
