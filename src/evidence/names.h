/*
 * names.h — the names of the per-unit evidence files (docs/method.md §11.1): one
 * file per instance and operation, `<label>__<opkey>.json`, in records/,
 * calibrate/, memory/, profile/ ... of a run directory and of a published
 * dataset.  Writers build the stem here and readers split it here.
 */
#ifndef NGCC_EVIDENCE_NAMES_H
#define NGCC_EVIDENCE_NAMES_H

/* "<label>__<op>" (malloc'd) */
char *evidence_stem(const char *label, const char *op);
/* "<stem>__<op>.json" → stem and op (malloc'd); 0 on success, -1 if the
 * name has another form (survey.json, …). */
int split_stem_op(const char *name, char **stem, char **op);

/*
 * The one rule for an identifier that becomes a path component (a system
 * id, a run name, a candidate id, an instance label; docs/security.md):
 * 1 to NAME_PART_MAX bytes, not starting with '.' (".", ".." and hidden
 * names that listings skip), no '/', no control character and nothing
 * that is not UTF-8 (str_has_control).  0 if name keeps it; else -1 and
 * *why (malloc'd) says what breaks it, e.g. "contains '/'".
 */
#define NAME_PART_MAX 200
int path_name_check(const char *name, char **why);
/* The same as a message: "<what> '<name, escaped>' cannot name a folder or
 * file: <why>" (malloc'd), or NULL when name keeps the rule. */
char *path_name_problem(const char *what, const char *name);

#endif
