/*
 * newversion.c — see newversion.h: `add` of a package for a candidate id
 * that exists already.
 */
#include "package/newversion.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "package/pkgdigest.h"
#include "util/atomic.h"
#include "util/untrusted.h"
#include "util/util.h"

int version_add_begin(struct version_add *va)
{
	char *err = NULL;
	if (va->replace) {
		/* --force of the same package keeps the date it was added */
		if (versions_load(va->cand_dir, &va->forced, &err))
			free(err);
		return EXIT_OK;
	}
	if (versions_load(va->cand_dir, &va->log, &err)) {
		ngcc_error("candidate '%s': %s", va->id, err);
		free(err);
		return EXIT_INPUT;
	}
	if (!va->log.n) {
		ngcc_error("'%s' exists but holds no candidate.conf; use --force to replace it, "
			   "or pick another --id", va->cand_dir);
		return EXIT_USAGE;
	}
	char *conf = path_join(va->cand_dir, "candidate.conf");
	va->have_old = conf_read(conf, &va->old, &err) == 0;
	if (!va->have_old) {
		ngcc_error("%s; fix it (or use --force to replace candidate '%s' and its versions)",
			   err, va->id);
		free(err);
	}
	free(conf);
	return va->have_old ? EXIT_OK : EXIT_INPUT;
}

int version_add_imported(struct version_add *va, const char *stage, const char *package)
{
	char *source = path_join(stage, "source"), *listing = NULL, *err = NULL;
	char *dst = path_join(stage, PACKAGE_LISTING), hex[65], when[32];
	int rc = EXIT_OK;
	if (package_listing(source, &listing, &va->made.files, &err)) {
		ngcc_error("%s", err);
		rc = EXIT_SYSTEM;
	} else if (atomic_write(dst, listing, strlen(listing))) {
		ngcc_error("cannot write '%s': %s", dst, strerror(errno));
		rc = EXIT_SYSTEM;
	}
	if (!rc) {
		package_digest(listing, hex);
		utc_now_iso(when);
		va->made.sha256 = xstrdup(hex);
		const struct pkg_version *was = versions_current(&va->forced);
		int same = was && !strcmp(was->sha256, hex);
		va->made.added = xstrdup(same ? was->added : when);
		va->made.package = xstrdup(path_basename(package));
	}
	const struct pkg_version *cur = versions_current(&va->log);
	if (!rc && cur && !strcmp(cur->sha256, hex)) {
		printf("unchanged: %s is the package of version %d of candidate '%s' (package "
		       "SHA-256 %.16s…, %zu files, added %s); nothing was changed%s\n",
		       path_basename(package), cur->number, va->id, hex, va->made.files, cur->added,
		       va->has_manifest || va->has_patches
		       ? " (--kat-manifest and --patch were not applied: use --force to add the "
			 "package again as a new first version with them)" : "");
		rc = ADD_UNCHANGED;
	}
	for (size_t i = 0; !rc && cur && i + 1 < va->log.n; i++)
		if (!strcmp(va->log.v[i].sha256, hex))
			sl_push_owned(&va->notes, xasprintf(
				"this package equals version %d (added %s), kept in versions/%d/; it "
				"becomes the next version all the same", va->log.v[i].number,
				va->log.v[i].added, va->log.v[i].number));
	free(err);
	free(listing);
	free(dst);
	free(source);
	return rc;
}

/* The keys of an instance that differ between two candidate.conf files;
 * `enabled` is noted on its own. */
static void instance_differences(const struct instance_conf *a, const struct instance_conf *b,
				 struct strbuf *sb)
{
	struct strlist keys = STRLIST_INIT;
	conf_instance_differences(a, b, &keys);
	for (size_t i = 0; i < keys.n; i++)
		if (strcmp(keys.items[i], "enabled"))
			sb_addf(sb, "%s%s", sb->len ? ", " : "", keys.items[i]);
	sl_free(&keys);
}

static void carry_instances(struct version_add *va, struct candidate_conf *c, int n_old)
{
	for (size_t i = 0; i < c->n_inst; i++) {
		struct instance_conf *in = &c->inst[i];
		const struct instance_conf *was = conf_find_instance(&va->old, in->label);
		if (!was)
			continue;
		if (!was->enabled && in->enabled) {
			in->enabled = 0;
			sl_push_owned(&va->notes, xasprintf(
				"instance %s: kept 'enabled = no' of version %d", in->label, n_old));
		} else if (was->enabled && !in->enabled) {
			sl_push_owned(&va->notes, xasprintf(
				"instance %s: enabled in version %d, but discovery disables it in "
				"this version (an unsupported type or no API header)", in->label, n_old));
		}
		struct strbuf sb = STRBUF_INIT;
		instance_differences(was, in, &sb);
		if (sb.len)
			sl_push_owned(&va->notes, xasprintf(
				"instance %s: %s differ from version %d's candidate.conf (the package "
				"changed, or you had edited them); this candidate.conf has what "
				"discovery found now, version %d's file is versions/%d/candidate.conf",
				in->label, sb.buf, n_old, n_old, n_old));
		sb_free(&sb);
	}
	for (size_t i = 0; i < va->old.n_inst; i++)
		if (!conf_find_instance(c, va->old.inst[i].label))
			sl_push_owned(&va->notes, xasprintf("instance %s of version %d is not in this "
							    "version", va->old.inst[i].label, n_old));
}

/* The current version's patches and KAT manifest are not carried over:
 * they were made for its files. */
static void note_unkept(struct version_add *va, int n_old)
{
	if (va->old.n_patches) {
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < va->old.n_patches; i++)
			sb_addf(&sb, "%s%s", i ? ", " : "", va->old.patches[i].file);
		sl_push_owned(&va->notes, xasprintf(
			"version %d was patched with %s; the patches are kept in versions/%d/patches/ "
			"and were not applied to this version: give them again with --patch if they "
			"still apply", n_old, sb.buf, n_old));
		sb_free(&sb);
	}
	char *kat = path_join(va->cand_dir, "kat.sha256");
	if (path_exists(kat) && !va->has_manifest)
		sl_push_owned(&va->notes, xasprintf(
			"version %d's kat.sha256 is kept in versions/%d/ and not used for this version: "
			"give --kat-manifest for its KAT files", n_old, n_old));
	free(kat);
}

int version_add_discovered(struct version_add *va, struct candidate_conf *c,
			   const char *discovered)
{
	va->made.algorithm = xstrdup(discovered);
	va->made.type = xstrdup(c->type ? c->type : "?");
	const struct pkg_version *cur = versions_current(&va->log);
	if (va->replace || !cur)
		return EXIT_OK;
	if (strcasecmp(cur->algorithm, discovered) || strcmp(cur->type, va->made.type)) {
		ngcc_error("candidate '%s' already exists and holds %s (%s); this package is %s (%s), "
			   "not a new version of it: pick another --id, or use --force to replace "
			   "'%s' and its %zu version(s)", va->id, cur->algorithm, cur->type,
			   discovered, va->made.type, va->id, va->log.n);
		return EXIT_USAGE;
	}
	int n_old = cur->number;
	if (va->old.algorithm && strcmp(va->old.algorithm, cur->algorithm) &&
	    strcmp(va->old.algorithm, discovered)) {
		sl_push_owned(&va->notes, xasprintf("kept the algorithm name '%s' of version %d's "
						    "candidate.conf (discovery found '%s')",
						    va->old.algorithm, n_old, discovered));
		free(c->algorithm);
		c->algorithm = xstrdup(va->old.algorithm);
	}
	carry_instances(va, c, n_old);
	note_unkept(va, n_old);
	return EXIT_OK;
}

/* The staged files of the new version into cand_dir; back on failure. */
static int move_in(const char *stage, const char *cand_dir, char **err)
{
	size_t i;
	for (i = 0; version_items[i]; i++) {
		char *a = path_join(stage, version_items[i]), *b = path_join(cand_dir, version_items[i]);
		int bad = path_exists(a) && rename(a, b);
		if (bad)
			*err = xasprintf("cannot move '%s' to '%s': %s", a, b, strerror(errno));
		free(a);
		free(b);
		if (bad)
			return -1;
	}
	return 0;
}

static int install_version(struct version_add *va, const char *stage)
{
	char *err = NULL;
	int rc = EXIT_OK;
	sigset_t stop, old;
	/* A few renames: Ctrl-C between them would leave a version half moved. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &old);
	int n_old = versions_current(&va->log)->number;
	if (versions_keep_current(va->workspace, va->id, va->cand_dir, &va->log, &err)) {
		rc = EXIT_SYSTEM;
	} else if (move_in(stage, va->cand_dir, &err)) {
		rc = EXIT_SYSTEM;
		ngcc_error("%s; version %d is kept whole in '%s/versions/%d/': move its files back "
			   "to restore it", err, n_old, va->cand_dir, n_old);
		free(err);
		err = NULL;
	} else {
		va->made.number = versions_append(&va->log, &va->made);
		if (versions_save(va->cand_dir, &va->log)) {
			ngcc_error("cannot write '%s/%s': %s", va->cand_dir, VERSIONS_CONF,
				   strerror(errno));
			rc = EXIT_SYSTEM;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (err)
		ngcc_error("%s; candidate '%s' is unchanged", err, va->id);
	free(err);
	if (!rc)
		printf("version %d of candidate '%s' (package SHA-256 %.16s…); version %d is kept "
		       "in candidates/%s/versions/%d/; `ngcc-perf changes %s` says what changed\n",
		       va->made.number, va->id, va->made.sha256, n_old, va->id, n_old, va->id);
	return rc;
}

int version_add_install(struct version_add *va, const char *stage)
{
	if (!va->replace)
		return install_version(va, stage);
	struct version_log fresh = { 0 };
	va->made.number = versions_append(&fresh, &va->made);
	int rc = versions_save(stage, &fresh);
	if (rc)
		ngcc_error("cannot write '%s/%s': %s", stage, VERSIONS_CONF, strerror(errno));
	versions_free(&fresh);
	return rc ? EXIT_SYSTEM : EXIT_OK;
}

void version_add_print_notes(const struct version_add *va)
{
	for (size_t i = 0; i < va->notes.n; i++)
		printf("version: %s\n", va->notes.items[i]);
}

void version_add_free(struct version_add *va)
{
	versions_free(&va->log);
	versions_free(&va->forced);
	if (va->have_old)
		conf_free(&va->old);
	free(va->made.added);
	free(va->made.package);
	free(va->made.sha256);
	free(va->made.algorithm);
	free(va->made.type);
	sl_free(&va->notes);
}
