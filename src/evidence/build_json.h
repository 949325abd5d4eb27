/*
 * build_json.h — build/<ID>/build.json (docs/method.md §11.4), the one place that
 * knows its layout.  `build` writes the build fields, `kat` the KAT fields.
 *
 *   { "schema": "ngcc-perf/build/1",
 *     "instances": { "<ID>/<label>[+avx2]": { candidate, label, instance,
 *        variant, flags, kat, guide_result, kat_not_passed, excluded,
 *        kat_log, kat_log_sha256, library, library_sha256, elf_load_bytes,
 *        elf_sections, compile_commands, link_command, compiler, lto,
 *        imports_allocator, primitive_scan, runtime, build_log,
 *        build_error, patches, cpu_extension, cpu_flags,
 *        cpu_features_required, host_cpu {arch, source, features},
 *        reference_label, kat_vs_reference } } }
 *
 * cpu_extension (none | avx2 | avx512 | neon), cpu_flags (what it adds to
 * the profile's flags) and cpu_features_required: what the variant's code
 * needs (issue #29); host_cpu: the features the building host has
 * (host/cpufeat.h).  kat is "UNSUPPORTED_CPU" when the host cannot run it.
 * reference_label and kat_vs_reference ("same", "differs", "not compared",
 * "no reference"): a variant's KAT output against its reference's, set by
 * `kat` (kat/gate_variants.c).
 *
 * patches: the `add --patch` files the source was patched with, in order,
 * as [{ file, path, sha256, touches: [...] }]; path is
 * candidates/<ID>/patches/<file> in the workspace and patches/<ID>/<file>
 * in a dataset.  [] for an unpatched source; absent in older files.
 *
 * Entries are created with every key present (null until known) so the key
 * order never depends on who writes first.  Typical update:
 *
 *   int lock = build_json_lock(ws, id);           // serialise writers
 *   json_t *doc = build_json_load(ws, id, &err);  // creates when missing
 *   json_t *e = build_json_entry(doc, key);       // NULL if absent
 *   build_json_set_kat(e, "PASS", 0, "build/kem-1/kat/X.log", hex);
 *   build_json_save(ws, id, doc);                 // atomic
 *   json_decref(doc); build_json_unlock(lock);
 */
#ifndef NGCC_BUILD_JSON_H
#define NGCC_BUILD_JSON_H

#include <jansson.h>

#define BUILD_JSON_KIND "build"
#define BUILD_JSON_VERSION 1

/* <workspace>/build/<id>/build.json */
char *build_json_path(const char *workspace, const char *id);
/* "<id>/<stem>"; stem is the label, "+avx2" appended for optimized builds. */
char *build_json_key(const char *id, const char *stem);

/* doc's fields against the format's table (evidence/check.h); 0, or -1
 * with *why (malloc'd).  Every reader calls it. */
int build_json_check(const json_t *doc, char **why);
/* Load, or create an empty document when the file does not exist.  NULL
 * with *err (malloc'd, names the path and the remedy) if it is unreadable,
 * corrupt or of another schema version. */
json_t *build_json_load(const char *workspace, const char *id, char **err);
/* Write atomically (creating build/<id>/); 0 or -1 with errno. */
int build_json_save(const char *workspace, const char *id, const json_t *doc);

/* The entry for key, or NULL (borrowed reference). */
json_t *build_json_entry(json_t *doc, const char *key);
/* The entry for key, created with every field null (kat_not_passed and
 * excluded false) when absent (borrowed reference). */
json_t *build_json_ensure(json_t *doc, const char *key);

/* KAT fields.  status: "PASS", "MISMATCH", ...; kat_log is relative to the
 * workspace; sha256 may be NULL. */
void build_json_set_kat(json_t *entry, const char *status, int kat_not_passed,
			const char *kat_log, const char *kat_log_sha256);
/* Reset the KAT fields to "not run" (after a rebuild changed the library). */
void build_json_clear_kat(json_t *entry);
/* The status of the first attempt when a fallback happened (or NULL). */
void build_json_set_guide_result(json_t *entry, const char *status);

/* Exclusive lock on build/<id>/build.json.lock (flock, close-on-exec);
 * returns the descriptor, or -1 with errno.  Held across load..save. */
int build_json_lock(const char *workspace, const char *id);
void build_json_unlock(int fd);

#endif
