/*
 * ingest.c — `add` (docs/method.md §2.1): bring a submission package into
 * candidates/<ID>/source/, discover its instances and write
 * candidates/<ID>/candidate.conf.  The new candidate is assembled in a
 * staging folder and moved into place only when everything succeeded, so
 * a failed or refused add never leaves half a candidate behind and never
 * damages the one being replaced.
 */
#include "package/ingest.h"

#include "package/conf.h"
#include "package/discover.h"
#include "package/extract.h"
#include "package/manifest.h"
#include "package/newversion.h"
#include "package/patch.h"
#include "util/untrusted.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- summary ---- */

static const char *iccs_copy(int own)
{
	return own ? "package" : "ngcc-perf";
}

/* The label without its variant's tag ("+avx2"): the folder's name. */
static char *folder_label(const struct instance_conf *in)
{
	const char *tag = variant_tag(in->variant);
	size_t n = strlen(in->label), k = tag ? strlen(tag) + 1 : 0;
	if (tag && n > k && in->label[n - k] == '+' && !strcmp(in->label + n - k + 1, tag))
		return xstrndup(in->label, n - k);
	return xstrdup(in->label);
}

/* Each implementation variant beside the references, with how discovery
 * decided it (the tree and the intrinsics of its code). */
static void print_variants(const struct discovery *d)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct found_instance *fi = &d->inst[i];
		if (!strcmp(fi->variant, "reference") && fi->cpu_ext == CPU_EXT_NONE)
			continue;
		for (size_t k = 0; k < fi->why.n; k++)
			if (str_starts_with(fi->why.items[k], "variant "))
				printf("variant: %s: %s\n", fi->label, fi->why.items[k] + 8);
	}
}

static void print_summary(const struct candidate_conf *c, const struct discovery *d,
			  const struct strlist *manifest_labels, const struct import_result *imp)
{
	printf("added %s (%s, %s): %zu instance(s), %zu file(s), %llu bytes\n",
	       c->id, c->algorithm, c->type ? c->type : "?", c->n_inst, imp->files, imp->bytes);
	printf("%-24s %-5s %-18s %-24s %5s %-20s %-3s %s\n", "label", "type", "variant",
	       "ALGORITHM_INSTANCE", "#src", "ICCS drng/auxfunc", "on", "KAT reference");
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct instance_conf *in = &c->inst[i];
		char *fl = folder_label(in);
		const char *kat = "none";
		char *files = NULL;
		int hash = !strcmp(in->type, "hash");
		if (sl_contains(manifest_labels, fl))
			kat = "manifest";
		else if (in->kat_reference)
			kat = path_basename(in->kat_reference);
		else if (in->kat_files.n)
			kat = files = xasprintf("%zu/4 hash KAT files", in->kat_files.n);
		/* A hash package has the DRNG and no auxiliary functions. */
		char *iccs = xasprintf("%s/%s", iccs_copy(in->own_drng),
				       hash ? "-" : iccs_copy(in->own_auxfunc));
		printf("%-24s %-5s %-18s %-24s %5zu %-20s %-3s %s\n", in->label, in->type,
		       in->variant, in->instance ? in->instance : "(none)", in->sources.n, iccs,
		       in->enabled ? "yes" : "no", kat);
		free(iccs);
		free(files);
		free(fl);
	}
	print_variants(d);
	for (size_t i = 0; i < imp->notes.n; i++)
		printf("note: %s\n", imp->notes.items[i]);
	for (size_t i = 0; i < d->notes.n; i++)
		printf("note: %s\n", d->notes.items[i]);
	for (size_t i = 0; i < manifest_labels->n; i++)
		if (!conf_find_instance((struct candidate_conf *)c, manifest_labels->items[i]))
			printf("note: kat.sha256 names label '%s', which is not an instance here\n",
			       manifest_labels->items[i]);
}

/* add --explain: what discovery saw and chose, per instance. */
static void print_explanation(const struct discovery *d)
{
	for (size_t i = 0; i < d->n; i++) {
		struct strlist lines = STRLIST_INIT;
		discovery_explain(&d->inst[i], &lines);
		printf("\n");
		for (size_t k = 0; k < lines.n; k++)
			printf("%s\n", lines.items[k]);
		sl_free(&lines);
	}
}

/* ---- adding ---- */

/* The patches of `add --patch`, applied to stage/source/ before discovery
 * (a patch may add the file discovery needs) and kept in stage/patches/. */
static int apply_patches(const struct add_request *r, const char *stage, const char *source,
			 struct candidate_conf *c)
{
	char *dir = path_join(stage, "patches"), *err = NULL;
	int rc = patch_apply_files(source, dir, r->patches, r->n_patches, c, &err);
	if (rc) {
		ngcc_error("%s; nothing was added (the package itself is never changed)", err);
		rc = rc == -2 ? EXIT_SYSTEM : EXIT_INPUT;
	}
	for (size_t i = 0; !rc && i < c->n_patches; i++)
		printf("patched with %s (sha256 %.16s…): %zu file(s)\n", c->patches[i].file,
		       c->patches[i].sha256, c->patches[i].touches.n);
	free(err);
	free(dir);
	return rc;
}

static int import_status_exit(enum import_status st)
{
	return st == IMPORT_SYSTEM ? EXIT_SYSTEM : EXIT_INPUT;
}

/* Fill stage/ (source/, kat.sha256, candidate.conf, package.sha256);
 * prints the summary.  va: the versions of the id (package/newversion.h). */
static int assemble(const struct add_request *r, const char *id, const char *stage,
		    struct version_add *va)
{
	char *source = path_join(stage, "source");
	char *err = NULL, *name_source = NULL;
	struct import_result imp = { 0 };
	struct discovery d = { 0 };
	struct strlist mlabels = STRLIST_INIT;
	struct candidate_conf c = { 0 };
	int rc = EXIT_OK;
	const char *pkg = r->package;
	if (str_has_control(path_basename(pkg), strlen(path_basename(pkg)))) {
		char *shown = str_printable(pkg, 200);
		ngcc_error("package name '%s' has a control character (line break, escape) or "
			   "bytes that are not UTF-8; rename the package and add it again", shown);
		free(shown);
		rc = EXIT_INPUT;
		goto out;
	}
	enum import_status st = package_import(pkg, source, NULL, &imp, &err);
	if (st != IMPORT_OK) {
		ngcc_error("%s", err);
		rc = import_status_exit(st);
		goto out;
	}
	if ((rc = version_add_imported(va, stage, pkg)))
		goto out;
	if (r->n_patches && (rc = apply_patches(r, stage, source, &c)))
		goto out;
	/* The package name names generic instance folders (ref/, x86_64/). */
	char *fallback = algorithm_from_package_name(pkg);
	size_t found = discover_package(source, fallback, &d);
	free(fallback);
	if (!found) {
		ngcc_error("no implementation found in package '%s': expected instance folders "
			   "such as Implementations/Reference_Implementation/<instance>/ holding an "
			   "ICCS API header (KEM_*.h, SIG_*.h, KEX_*.h or CryptHash_*.h)", pkg);
		rc = EXIT_INPUT;
		goto out;
	}
	if (d.error) {
		ngcc_error("package '%s' refused: %s", pkg, d.error);
		rc = EXIT_INPUT;
		goto out;
	}
	if (r->manifest) {
		char *dst = path_join(stage, "kat.sha256");
		rc = kat_manifest_import(r->manifest, dst, &mlabels);
		free(dst);
		if (rc)
			goto out;
	}
	c.algorithm = algorithm_name(pkg, source, &d, &name_source);
	c.id = xstrdup(id);
	c.package = xstrdup(path_basename(pkg));
	discovery_to_conf(&d, &c);
	if ((rc = version_add_discovered(va, &c, c.algorithm)))
		goto out;
	char *conf_path = path_join(stage, "candidate.conf");
	if (conf_write(conf_path, &c)) {
		int bad_value = errno == EINVAL;
		ngcc_error("cannot write '%s': %s", conf_path, bad_value
			   ? "a discovered name has a control character or blanks at its ends; "
			     "rename it in the package and add it again" : strerror(errno));
		rc = bad_value ? EXIT_INPUT : EXIT_SYSTEM;
	}
	free(conf_path);
	if (!rc) {
		print_summary(&c, &d, &mlabels, &imp);
		printf("algorithm name: %s (from %s); pages show it as written in "
		       "candidates/%s/candidate.conf: edit its 'algorithm =' line to change it\n",
		       c.algorithm, name_source, id);
		version_add_print_notes(va);
		if (r->explain)
			print_explanation(&d);
	}
out:
	free(name_source);
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

int package_add(const struct add_request *r)
{
	int rc;
	char *id = r->id ? xstrdup(r->id) : slug_from_package_name(r->package);
	char *dir = path_join(r->workspace, "candidates");
	char *final = path_join(dir, id);
	char *stage = xasprintf("%s/.%s.new.%ld", dir, id, (long)getpid());
	/* An existing id gets a new version (package/newversion.h) unless
	 * --force replaces it whole. */
	struct version_add va = { .workspace = r->workspace, .id = id, .cand_dir = final,
				  .replace = r->force || !path_exists(final),
				  .has_manifest = r->manifest != NULL,
				  .has_patches = r->n_patches > 0 };
	if (!valid_candidate_id(id)) {
		ngcc_error("invalid candidate id '%s': use letters, digits, '.', '_' and '-' "
			   "(e.g. --id kem-27)", id);
		rc = EXIT_USAGE;
	} else if (mkdir_p(dir, 0755)) {
		ngcc_error("cannot create '%s': %s", dir, strerror(errno));
		rc = EXIT_SYSTEM;
	} else if (!(rc = version_add_begin(&va))) {
		sweep_stale_stages(dir);
		rm_rf(stage);
		rc = assemble(r, id, stage, &va);
		if (!rc)
			rc = version_add_install(&va, stage);
		if (!rc && va.replace)
			rc = install_stage(dir, id, stage, final);
		rm_rf(stage);
	}
	version_add_free(&va);
	free(stage);
	free(final);
	free(dir);
	free(id);
	return rc;
}
