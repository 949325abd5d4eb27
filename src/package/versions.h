/*
 * versions.h — the versions of one candidate's package
 * (docs/usage.md, "Package versions").
 *
 * candidates/<ID>/ holds the current version (source/, candidate.conf,
 * kat.sha256, patches/, package.sha256: what build, kat and measure use);
 * candidates/<ID>/versions/<N>/ holds each older version N with the same
 * files, plus build/ (build.json and the KAT logs kat/<stem>.log as they
 * were when the next version was added, when it had been built).
 * candidates/<ID>/versions.conf lists them all, oldest first:
 *
 *   [version 1]
 *   added = 2026-12-04T18:40:00Z
 *   package = ExampleKEM            (the name given to add)
 *   package_sha256 = 3f2a…          (pkgdigest.h; "unknown" never occurs)
 *   files = 31
 *   algorithm = ExampleKEM          (as discovered, before any edit)
 *   type = kem
 *
 * The last section is the current version.  A candidate added before
 * versions were kept has no versions.conf: it reads as one version made
 * from its stored files (versions_load()).
 */
#ifndef NGCC_VERSIONS_H
#define NGCC_VERSIONS_H

#include <stddef.h>

#define VERSIONS_CONF "versions.conf"

struct pkg_version {
	int number;          /* 1, 2, … */
	char *added;         /* UTC, ISO 8601 */
	char *package;
	char *sha256;        /* package digest (pkgdigest.h) */
	size_t files;
	char *algorithm;     /* as discovered */
	char *type;          /* kem | sign | kex | hash */
	int legacy;          /* not read from versions.conf: made from the stored files */
};

struct version_log {
	struct pkg_version *v;  /* ascending numbers; the last is current */
	size_t n;
};

/* The versions of the candidate in cand_dir (candidates/<ID>).  No
 * versions.conf but a candidate.conf: one legacy version made from the
 * stored source (its digest over source/ as it is now, patches included),
 * dated by candidate.conf.  Neither: an empty log.  0, or -1 with *err. */
int versions_load(const char *cand_dir, struct version_log *log, char **err);
/* Write cand_dir/versions.conf atomically.  0 or -1 (errno). */
int versions_save(const char *cand_dir, const struct version_log *log);
void versions_free(struct version_log *log);

const struct pkg_version *versions_current(const struct version_log *log);
const struct pkg_version *versions_find(const struct version_log *log, int number);
/* Append a copy of v as the next number; returns that number. */
int versions_append(struct version_log *log, const struct pkg_version *v);

/* The folder holding version `number`'s files: cand_dir itself for the
 * current version, cand_dir/versions/<number> for an older one. */
char *version_dir(const char *cand_dir, const struct version_log *log, int number);

/* The folder holding version `number`'s build records (build.json and
 * kat/<stem>.log), or NULL when it has none: for the current version
 * workspace/build/<id>/ when its build.json was written after the version
 * was added (a build of an older version does not count), for an older
 * one versions/<number>/build/ as kept when the next version was added. */
char *version_build_dir(const char *workspace, const char *id, const char *cand_dir,
			const struct version_log *log, int number);

/* The version workspace/build/<id>/ was built from: the newest one added
 * at or before its build.json was last written; 0 when there is no
 * build.json (or it is older than every version). */
int version_of_build(const char *workspace, const char *id, const struct version_log *log);

/* The file listing of version `number` (pkgdigest.h): its package.sha256,
 * or for a legacy version the listing of its source/ now.  0, or -1 with
 * *err. */
int version_listing(const char *cand_dir, const struct version_log *log, int number,
		    char **listing, char **err);

/* The files of one version, moved together (kat.sha256, patches/ and
 * package.sha256 may be absent). */
extern const char *const version_items[];

/* Move the current version's files from cand_dir into
 * cand_dir/versions/<current>/ and copy its build records (build.json,
 * kat/<stem>.log of workspace/build/<id>/) into its build/.  0, or -1
 * with *err; on failure what was moved is moved back. */
int versions_keep_current(const char *workspace, const char *id, const char *cand_dir,
			  const struct version_log *log, char **err);

#endif
