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

#endif
