/*
 * linediff.h — how many lines one text adds and removes against another:
 * the sizes of a shortest edit script (Myers' O((N+M)D) greedy search over
 * the lines, compared by content), as `diff` would count them.  Used by the
 * "what changed" report of package versions (report/changes.c).
 */
#ifndef NGCC_LINEDIFF_H
#define NGCC_LINEDIFF_H

#include <stddef.h>

struct line_counts {
	size_t added;      /* lines of b not matched in a */
	size_t removed;    /* lines of a not matched in b */
	int approximate;   /* the search stopped at its bound: the counts are
			      of lines whose content is missing from the other
			      text (or, for two very long texts, all lines) */
};

/* A text's lines end at '\n'; a last line without one is a line.  The
 * search is bounded to max_edits (0: a default of 20000) insertions plus
 * deletions; beyond it the counts are approximate (see above). */
void line_diff_count(const char *a, size_t alen, const char *b, size_t blen,
		     size_t max_edits, struct line_counts *out);

/* Does data look binary (a NUL byte in its first 8 KiB)? */
int text_is_binary(const char *data, size_t len);

#endif
