/*
 * changes.h — the "what changed" report between two package versions of
 * one candidate (docs/usage.md, "Package versions"), rendered as Markdown
 * from the workspace: the two versions' packages, instances added or
 * removed (and candidate.conf keys that differ), files changed, added or
 * removed with their added and removed line counts (util/linediff.h), the
 * KAT digests (the submitted KAT files, kat.sha256, and the KAT output
 * ngcc-perf reproduced when both versions were built), the sizes from the
 * KAT logs and libraries, and a timing section given by the caller (the
 * compare table of compare/compare.h) or a sentence saying it was not
 * measured.
 */
#ifndef NGCC_REPORT_CHANGES_H
#define NGCC_REPORT_CHANGES_H

#include "package/versions.h"
#include "util/util.h"

struct changes_input {
	const char *workspace;    /* absolute */
	const char *id;
	int from, to;             /* version numbers, from < to */
	const char *timing_md;    /* Markdown of the timing comparison (headings
				     from ###), or NULL */
	const char *timing_none;  /* the sentence when timing_md is NULL, or NULL
				     for the default */
};

/* Append the report to md.  0, or an ngcc_exit code with *err (malloc'd):
 * EXIT_USAGE for an unknown version, EXIT_INPUT for an unreadable one. */
int changes_render(const struct changes_input *in, struct strbuf *md, char **err);

/* The versions of a candidate, or an ngcc_exit code with *err (no such
 * candidate: EXIT_USAGE). */
int changes_versions(const char *workspace, const char *id, struct version_log *log, char **err);

#endif
