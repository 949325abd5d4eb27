/*
 * accept.h — whether one evidence document of a run or a published
 * dataset may be used at all: the one rule that `validate`, the model
 * behind `report` and `site`, and `publish` apply alike (docs/security.md,
 * "The same checks everywhere"), so that evidence validate would reject
 * never reaches a page or a dataset.
 *
 * A document is named by its path below the run directory or data/<SYS>/
 * ("records/<cand>/<label>__<op>.json", "check/<cand>/<label>__<check>.json",
 * "build.json", ...).  Accepted means:
 *   - its schema is one this tool reads, and its format's table of fields
 *     holds (the format's own check function: record_check(), ...);
 *   - for a unit file: the name has the form <kind>/<cand>/<label>__<op>.json
 *     and the document's candidate, label and operation are the name's;
 *   - given build.json's "instances", the instance is there and the
 *     document was made from the library build.json lists (library_sha256,
 *     a check record's timed_library_sha256): a record of an earlier build
 *     is stale;
 *   - a timing record's status is the one its processes and plan make,
 *     it has no more trials than its plan, and its flattened trials are
 *     its processes' trials.
 * What `validate` alone recomputes (statistics, derived shares, pages) is
 * not part of this.
 */
#ifndef NGCC_EVIDENCE_ACCEPT_H
#define NGCC_EVIDENCE_ACCEPT_H

#include <jansson.h>

/* 0 if accepted, else -1 with *why (malloc'd, without the path).
 * instances: build.json's "instances" object, or NULL to skip the build
 * checks (build.json itself, or a caller that has none). */
int evidence_accept(const char *rel, const json_t *doc, const json_t *instances, char **why);

#endif
