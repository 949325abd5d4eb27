/*
 * ingest.h — `add` (docs/method.md §2.1): a submission package (folder or archive)
 * becomes candidates/<ID>/ — its unpacked source, the editable
 * candidate.conf of its discovered instances and, when given, a checked
 * copy of its KAT manifest — or nothing at all when anything fails.
 * Prints the summary of what was found.  `add` and `campaign` call it.
 */
#ifndef NGCC_PACKAGE_INGEST_H
#define NGCC_PACKAGE_INGEST_H

#include <stddef.h>

struct add_request {
	const char *workspace;   /* absolute */
	const char *package;     /* the folder or archive, absolute */
	const char *id;          /* NULL: a slug of the package name */
	const char *manifest;    /* kat.sha256 to check and copy (absolute), or NULL */
	int force;               /* replace an existing candidate of that id,
				    its versions included */
	const char *const *patches; /* unified diffs to apply to the copy (absolute), */
	size_t n_patches;           /* in order (package/patch.h); may be 0 */
	int explain;             /* print discovery's reasoning per instance */
};

/* An existing id gets the package as its next version, the current one
 * kept (package/newversion.h).  Returns an ngcc_exit code: 0 added; 1 the
 * package equals the current version (nothing changed); 2 a bad id, or one
 * holding another algorithm; 3 a bad package or manifest; 4 a system error. */
int package_add(const struct add_request *r);

#endif
