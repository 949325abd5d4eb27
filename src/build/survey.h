/*
 * survey.h — detection of uninstrumented own symmetric primitives (R13,
 * docs/method.md §10.6) and the per-candidate survey verdict.
 *
 * Per instance, the candidate's own objects (the recorded link command's
 * objects minus ours and minus the package's own ICCS files auxfunc.o and
 * drng.o) are scanned with libelf for evidence of what the code does:
 *   - constants: the Keccak round constants (in a table or as immediates)
 *     and rotation offsets, the SHA-256/512 K tables, the SM3 IV and T_j,
 *     the AES and SM4 S-boxes, "expand 32-byte k";
 *   - instruction patterns: a function rotating 64-bit words by Keccak's
 *     rho amounts (build/survey_insn.h);
 * and for hints: symbols named after Keccak, SHA-2, SHA-3/SHAKE, SM3, AES,
 * SM4 or ChaCha that do not call the ICCS themselves (match "symbol").
 * Each hit is reachable when a call graph built from the relocations leads
 * to it from the exported API (kem_*, sig_*, kex_*, CryptHash); the ICCS
 * functions (pseudohash, pseudoXOF, sm3hash, get_random_number) end a path.
 * Only reachable evidence counts: it sets coverage "partial".  A name is
 * never evidence: `shake256_absorb` around pseudoXOF is the ICCS.
 *
 * The verdict of a candidate: an instance with no reachable evidence is
 * ICCS-only; with evidence it is bypass, or mixed when it also calls the
 * ICCS hash helpers; instances that differ make it instance-dependent.
 * Reachable names without evidence of their kind are noted as hints.  A
 * line of the workspace's survey.conf (`ID; verdict; notes`) overrides it.
 * profile/<ID>/survey.json ("ngcc-perf/survey/1") records the facts.
 */
#ifndef NGCC_BUILD_SURVEY_H
#define NGCC_BUILD_SURVEY_H

#include <jansson.h>

#include "build/objscan.h"
#include "util/util.h"

#define SURVEY_KIND "survey"
#define SURVEY_VERSION 1

struct survey_hit {
	char *kind;        /* "Keccak", "SHA-2", "SHA-3", "SHAKE", "SM3", "AES", "SM4", "ChaCha" */
	char *match;       /* "symbol" (a name: a hint only), the constant's name, e.g.
			    * "Keccak round constants", or "Keccak-f[1600] rotations" */
	char *object;      /* workspace-relative object path */
	char *symbol;      /* the symbol it is (or lies in), or the section name */
	int reachable;
	struct strlist reached_from; /* the API roots that reach it, sorted */
};

struct survey_instance {
	char *label;
	struct strlist objects;      /* scanned objects */
	struct strlist roots;        /* API functions found */
	struct strlist iccs_refs;    /* ICCS functions the objects reference */
	struct survey_hit *hits;
	size_t n_hits;
	/* set by the caller from the profiles: -1 unknown, 0 no, 1 yes */
	int drng_called;
	int hash_called;
};

/* Scan one instance: its build.json entry (candidate, label) and the
 * objects of its link command, read once (build/objscan.h); ours and the
 * package's own auxfunc.o and drng.o are left out.  0, or -1 with *err. */
int survey_scan_instance(const json_t *entry, const struct link_objects *objs,
			 struct survey_instance *out, char **err);
void survey_instance_free(struct survey_instance *si);

/* Scan the given objects (paths as given, resolved against workspace).
 * Exposed for tests. */
int survey_scan_objects(const char *workspace, const struct strlist *objects,
			struct survey_instance *out, char **err);

/* Distinct descriptions of the reachable evidence ("Keccak round
 * constants", "Keccak-f[1600] rotations"), appended to out; names are
 * not evidence. */
void survey_reachable_hits(const struct survey_instance *si, struct strlist *out);

/* The distinct reachable symbols that are hits by their name alone
 * ("shake256_absorb"), appended to out. */
void survey_reachable_hints(const struct survey_instance *si, struct strlist *out);

/* {status "full"|"partial", hits [...]} for a profile record. */
json_t *survey_coverage(const struct survey_instance *si);

/* "ICCS-only", "bypass" or "mixed" for one instance. */
const char *survey_instance_class(const struct survey_instance *si);

/* The automatic verdict and notes of a candidate (notes malloc'd, "" when
 * none). */
const char *survey_verdict(const struct survey_instance *si, size_t n, char **notes);

/* The survey.conf line of a candidate: 1 found (verdict and notes
 * malloc'd), 0 none, -1 a malformed file (message in *err). */
int survey_conf_lookup(const char *path, const char *id, char **verdict, char **notes,
		       char **err);

/* The whole survey.json document. */
json_t *survey_json(const char *cand, const struct survey_instance *si, size_t n,
		    const char *conf_verdict, const char *conf_notes);

/* One candidate's survey.json documents of several shards joined into the
 * one a single run would have written: their instances in label order and
 * the verdict recomputed over all of them (a survey.conf verdict is kept).
 * NULL with *err (malloc'd; *err must be NULL on entry) when an instance
 * appears twice. */
json_t *survey_join(const json_t *const *docs, size_t n, char **err);

#endif
