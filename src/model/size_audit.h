/*
 * size_audit.h — the automatic size audit (docs/method.md §9, R16) and its
 * evidence file size_audit.json, schema "ngcc-perf/size-audit/1", in a run
 * directory and in each data/<SYS>/ of a published dataset (§11.1).
 *
 * For each reference instance of each non-hash candidate of one system,
 * and for each object with a figure anywhere (pk, sk, ct, ss, signature),
 * it sets side by side the API length (the records' sizes.<obj>_bytes),
 * the lengths observed in the timing runs (sizes.observed.<obj>, min and
 * max over all records of the instance) and the workspace catalog
 * external_sizes.csv (ID;Instance;PublicKeyBytes;CiphertextBytes;
 * SignatureBytes;Basis), and classifies the difference.
 *
 *   {"schema", "system_id", "catalog_present",
 *    "instances": [{"candidate", "label",
 *      "objects": [{"object", "api", "observed": {"min", "max"} | null,
 *                   "catalog", "basis", "classification"}]}]}
 *
 * Candidates in the dataset's order, instances in natural order, objects
 * in the order above; absent figures are null; classification is null
 * when everything agrees.  One computation serves the JSON file (report,
 * publish), the size-audit page and validate, so they cannot disagree.
 */
#ifndef NGCC_SIZE_AUDIT_H
#define NGCC_SIZE_AUDIT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "model/dataset.h"

#define SIZE_AUDIT_KIND "size-audit"
#define SIZE_AUDIT_VERSION 1
#define SIZE_AUDIT_FILE "size_audit.json"

#define SA_MISSING "missing"
#define SA_WRONG_API "wrong API length"
#define SA_ENCODING "encoding differs"
#define SA_PADDED "padded capacity"

/*
 * Classify one object; a negative api or cat means "no figure".  In order:
 * missing (no API length, or no length observed), wrong API length (a
 * returned length exceeds the API's), encoding differs (the catalog lies
 * outside the observed range), padded capacity (every returned length is
 * below the API's: the API gives a buffer capacity).  NULL: no difference.
 */
const char *size_audit_classify(long long api, int observed, long long mn, long long mx,
				long long cat);

/* The audit of one system's dataset (new reference; never NULL). */
json_t *size_audit_compute(const struct dataset *ds);

/* external_sizes.csv must not list an (ID, Instance) twice.  0, or -1 with
 * *err (malloc'd) naming the duplicate. */
int size_audit_catalog_check(const struct dataset *ds, char **err);

/* Check the catalog, compute and write the audit atomically to path.
 * 0, or -1 with *err (malloc'd). */
int size_audit_write(const struct dataset *ds, const char *path, char **err);



#endif
