/*
 * newversion.h — what `add` does when the candidate id exists already
 * (docs/usage.md, "Package versions"): the new package becomes the next
 * version and the current one is kept in candidates/<ID>/versions/<N>/
 * (package/versions.h); a package equal to the current version changes
 * nothing; a package of another algorithm or type is refused.  The user's
 * edits to candidate.conf are carried over where they still mean the same
 * (the algorithm name, `enabled = no` of an instance with the same label)
 * and every other difference is reported; the old file stays in
 * versions/<N>/candidate.conf.  package/ingest.c calls these in order.
 */
#ifndef NGCC_NEWVERSION_H
#define NGCC_NEWVERSION_H

#include "package/conf.h"
#include "package/versions.h"

/* Returned by version_add_imported() for an unchanged package: `add`'s
 * exit code then (EXIT_FAILED: nothing was done). */
#define ADD_UNCHANGED 1

struct version_add {
	const char *workspace, *id, *cand_dir;
	int replace;              /* --force, or a new candidate: no versions kept */
	int has_manifest;         /* --kat-manifest given */
	int has_patches;          /* --patch given */
	struct version_log log;   /* the stored versions (empty: a new candidate) */
	struct version_log forced;/* replace: the versions being replaced */
	struct candidate_conf old;/* the current candidate.conf, edits included */
	int have_old;
	struct pkg_version made;  /* the version being added (number at install) */
	struct strlist notes;     /* what happened to the edits, after the summary */
};

/* Load the stored versions (unless replace).  0, or an ngcc_exit code with
 * the error printed. */
int version_add_begin(struct version_add *va);
/* After the package is in stage/source/ (before patches): its listing is
 * written to stage/package.sha256 and its digest compared with the current
 * version.  0; ADD_UNCHANGED with a message; or an ngcc_exit code. */
int version_add_imported(struct version_add *va, const char *stage, const char *package);
/* After discovery made c (before it is written): refuse another algorithm
 * or type (EXIT_USAGE), carry the edits over into c.  `discovered` is the
 * algorithm name discovery found. */
int version_add_discovered(struct version_add *va, struct candidate_conf *c,
			   const char *discovered);
/* Install: for a new version, keep the current one in versions/<N>/, move
 * the staged files in and record the version in versions.conf; otherwise
 * write stage/versions.conf with version 1 (the caller moves the stage in).
 * 0 or an ngcc_exit code with the error printed. */
int version_add_install(struct version_add *va, const char *stage);
void version_add_print_notes(const struct version_add *va);
void version_add_free(struct version_add *va);

#endif
