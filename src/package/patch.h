/*
 * patch.h — patches as a recorded input of `add` (docs/usage.md "Patching a
 * package", docs/method.md §2.1): unified diffs applied to the candidate's
 * copy of its package (candidates/<ID>/source/), never to the original,
 * kept as candidates/<ID>/patches/<name> and recorded with their SHA-256
 * and the files they touch in candidate.conf ([patch NAME] sections), then
 * in every build.json entry built from that source.
 *
 * A patch is untrusted input, and it is applied here rather than by a
 * patch program: only what a unified diff of text files can say is
 * understood (change, create or delete a regular file), every path must
 * stay below the source folder (no absolute path, no '..', no symbolic
 * link on the way), and every hunk must match exactly — at its line or
 * shifted, never fuzzily.  All files a patch changes are computed in
 * memory first; nothing is written unless all of them apply.
 *
 * Paths are taken from the package's top.  A first folder that differs
 * between the `---` and `+++` names (git's a/ and b/, or pkg.orig/ and pkg/
 * of `diff -ru`) is dropped, and so are git's a/ and b/ against /dev/null.
 */
#ifndef NGCC_PACKAGE_PATCH_H
#define NGCC_PACKAGE_PATCH_H

#include "package/conf.h"

/* The largest patch file read. */
#define PATCH_MAX_BYTES (16u << 20)

/*
 * Apply the patch files (absolute paths, in order) to source_root, copy
 * each to patches_dir/<its basename> and append its record to c->patches.
 * 0, or with *err (malloc'd) naming the patch file, and for a hunk that
 * does not apply the file it patches and the hunk's line: -1 for a patch
 * that is refused or does not apply (nothing of it is written), -2 when a
 * file could not be written.  The caller discards source_root on failure
 * (earlier patches are applied).
 */
int patch_apply_files(const char *source_root, const char *patches_dir,
		      const char *const *files, size_t n, struct candidate_conf *c, char **err);

/*
 * Apply the unified diff text (named `name` in messages) to root.  touched
 * (may be NULL) receives the patched paths, relative to root, in the order
 * of the diff.  0, or with *err (malloc'd) -1 (nothing written) or -2 (a
 * write failed).
 */
int patch_apply_text(const char *root, const char *name, const char *text, size_t len,
		     struct strlist *touched, char **err);

/* Every recorded patch of c is candidates/<ID>/patches/<file> with its
 * recorded SHA-256.  0, or -1 with *err (malloc'd) naming the file and the
 * remedy. */
int patch_verify(const char *workspace, const struct candidate_conf *c, char **err);

#endif
