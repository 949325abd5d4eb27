/*
 * unitfile.h — the state of one unit's file in a run directory (a
 * calibration, a timing record, a memory record, a profile; docs/method.md §11.2):
 * missing, unreadable or corrupt, not complete, complete but made from
 * other inputs (stale), or complete and current.  Each format supplies its
 * schema and its fingerprint test; campaign/rundir.h turns the state into
 * what to do.
 */
#ifndef NGCC_EVIDENCE_UNITFILE_H
#define NGCC_EVIDENCE_UNITFILE_H

#include <jansson.h>

enum unit_state {
	UNIT_MISSING,    /* no file */
	UNIT_DONE,       /* complete and fingerprint matches: skip */
	UNIT_STALE,      /* complete, other fingerprint */
	UNIT_REDO,       /* present but not complete */
	UNIT_CORRUPT,    /* unreadable, not JSON, unknown schema, no status */
};

/* 1 if doc was made from the current inputs; 0 and *why (malloc'd) if not. */
typedef int (*unit_match_fn)(const json_t *doc, const void *ctx, char **why);

struct unit_format {
	const char *kind;          /* schema kind, e.g. "record" */
	int version;
	const char *what;          /* in messages: "record", "calibration", ... */
	unit_match_fn match;
	/* the format's field check (evidence/check.h), or NULL: a document
	 * that fails it is CORRUPT, never kept as complete */
	int (*check)(const json_t *doc, char **why);
};

/* A match for formats whose only input is the library: ctx is the
 * library's SHA-256 now, compared with the document's library_sha256. */
int unit_match_library(const json_t *doc, const void *sha256, char **why);

/*
 * Classify the file at path.  *why (malloc'd) explains STALE, REDO and
 * CORRUPT, naming the path.  *doc (may be NULL) gets the document for
 * DONE, STALE and REDO (new reference), NULL otherwise.
 */
enum unit_state unit_file_classify(const char *path, const struct unit_format *f,
				   const void *ctx, json_t **doc, char **why);
/* The same for a file of a run directory root (path is root/<rel>): it is
 * read below root without following a symbolic link, so a link (or a
 * special file) in its place or on the way is CORRUPT, with the reason,
 * never a complete unit (docs/security.md). */
enum unit_state unit_file_classify_below(const char *root, const char *path,
					 const struct unit_format *f, const void *ctx,
					 json_t **doc, char **why);

#endif
