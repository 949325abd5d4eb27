/*
 * size_audit.h — the automatic size audit (docs/method.md §9, R16) and its
 * evidence file size_audit.json, schema "ngcc-perf/size-audit/1", in a run
 * directory and in each data/<SYS>/ of a published dataset (§11.1).
 *
 * For each reference instance of each non-hash candidate of one system,
 * and for each object of its type with a figure anywhere (KEM: pk, sk,
 * ct, ss; signature: pk, sk, signature; key exchange: pk_a, pk_b, sk_a,
 * sk_b, ss, messages), it sets side by side the API length (the records'
 * sizes.<obj>_bytes; a KEX's two parties share pk_bytes and sk_bytes;
 * its messages have none), the lengths observed (sizes.observed.<obj>,
 * min and max over all records of the instance, widened by the memory
 * pass's observed.<obj> — the 100 signatures of sign, whose mean is kept;
 * a KEX's messages are kex.protocol_message_bytes) and the workspace
 * catalogs — external_sizes.csv (ID;Instance;PublicKeyBytes;
 * CiphertextBytes;SignatureBytes;Basis) and, for key exchange,
 * kex_bandwidth.csv (ID;Instance;PkABytes;PkBBytes;ProtocolMessageBytes)
 * — and classifies the difference.
 *
 *   {"schema", "system_id", "catalog_present",
 *    "instances": [{"candidate", "label",
 *      "objects": [{"object", "api",
 *                   "observed": {"min", "max"[, "mean", "count"]} | null,
 *                   "catalog", "basis", "classification"}]}]}
 *
 * Candidates in the dataset's order, instances in natural order, objects
 * in the order above; absent figures are null; classification is null
 * when everything agrees (for an object without an API figure: unless the
 * catalog lies outside the observed range).  One computation serves the JSON file (report,
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
/* The name of an audit object on the pages ("pk" → "public key"). */
const char *size_audit_object_name(const char *key);
/* The objects array of one instance (new reference, maybe empty). */
json_t *size_audit_instance(const struct dataset *ds, const struct ds_candidate *c,
			    const struct ds_instance *in);

/*
 * The sizes a key-exchange instance is shown with (docs/report-format.md
 * §5.6, §6): from its exchange record's kex facts (else any record's),
 * with kex_bandwidth.csv's public keys A and B and protocol-message bytes
 * where the catalog lists the instance; bandwidth = messages + public key
 * A + public key B.  Figures are -1 when unknown.
 */
struct kex_sizes {
	long long passes;
	const json_t *messages;   /* the record's kex.message_bytes, or NULL */
	long long protocol, pk_a, pk_b, bandwidth, sk, ss;
};
/* 0, or -1 when no record of the instance has key-exchange facts. */
int kex_instance_sizes(const struct dataset *ds, const char *cand,
		       const struct ds_instance *in, struct kex_sizes *k);

/* external_sizes.csv and kex_bandwidth.csv must not list an (ID, Instance)
 * twice.  0, or -1 with *err (malloc'd) naming the duplicate. */
int size_audit_catalog_check(const struct dataset *ds, char **err);

/* Check the catalog, compute and write the audit atomically to path.
 * 0, or -1 with *err (malloc'd). */
int size_audit_write(const struct dataset *ds, const char *path, char **err);



#endif
