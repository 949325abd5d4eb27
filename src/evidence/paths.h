/*
 * paths.h — paths inside evidence (docs/method.md §11.1): written relative to the
 * workspace, the run directory or data/<SYS>/, with ngcc-perf's own tree
 * as `<ngcc-perf>/…`, so that a published dataset holds no absolute path.
 */
#ifndef NGCC_EVIDENCE_PATHS_H
#define NGCC_EVIDENCE_PATHS_H

#include <jansson.h>
#include <stddef.h>

/*
 * First string value of j that is an absolute path (starts with '/', except
 * a member holding a regular expression: "defer") or contains one of the
 * needles (NULL-terminated list, may be NULL).  Returns
 * 1 and *where = "<json path>: <value>" (malloc'd, value shortened), or 0.
 */
int json_find_absolute(const json_t *j, const char *const *needles, char **where);

/* One directory to hide in what is written to evidence. */
struct path_rule {
	const char *from;   /* a directory, no trailing '/'; NULL, "" and "/" are ignored */
	const char *to;     /* "" makes the paths below it relative; "<ngcc-perf>" names our tree */
};

/*
 * s with each rule's directory replaced wherever it appears as a whole
 * path: the match must end at a '/' (or, for a non-empty `to`, at the end
 * of s), so /opt/ngcc never matches /opt/ngcc-old.  Where several rules
 * match, the longest directory wins (a run inside the workspace).  With
 * `to` "" the '/' after the directory goes too, and the directory alone
 * stays as it is: it has no relative spelling.  Returns a new string.
 */
char *path_hide(const char *s, const struct path_rule *rules, size_t n);

/* path_hide with the usual rules: the run directory (may be NULL) and the
 * workspace made relative, ngcc-perf's own tree written <ngcc-perf>. */
char *path_hide_ours(const char *s, const char *workspace, const char *run);
/* The reverse for our tree: <ngcc-perf>/x → <ngcc_home()>/x, to run a
 * recorded command again. */
char *path_unhide_ours(const char *s);

#endif
