/*
 * paths.h — paths inside evidence (method §11.1): written relative to the
 * workspace, the run directory or data/<SYS>/, with ngcc-perf's own tree
 * as `<ngcc-perf>/…`, so that a published dataset holds no absolute path.
 */
#ifndef NGCC_EVIDENCE_PATHS_H
#define NGCC_EVIDENCE_PATHS_H

#include <jansson.h>

/*
 * First string value of j that is an absolute path (starts with '/') or
 * contains one of the needles (NULL-terminated list, may be NULL).  Returns
 * 1 and *where = "<json path>: <value>" (malloc'd, value shortened), or 0.
 */
int json_find_absolute(const json_t *j, const char *const *needles, char **where);

#endif
