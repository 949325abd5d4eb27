/*
 * json.h — conventions shared by every evidence file (docs/method.md §11.1):
 * "schema": "ngcc-perf/<kind>/<version>", keys in insertion order, indent 1,
 * trailing LF, doubles with 17 significant digits, atomic writes.
 */
#ifndef NGCC_EVIDENCE_JSON_H
#define NGCC_EVIDENCE_JSON_H

#include <jansson.h>

/* Serialise with the evidence conventions; returns a malloc'd string. */
char *evidence_dumps(const json_t *j);
/* Atomically write j to path; 0 or -1 (errno). */
int evidence_write(const char *path, const json_t *j);
/*
 * Evidence limits (docs/security.md, "Evidence limits"): one evidence JSON
 * file holds at most EVIDENCE_FILE_MAX bytes, and one command reads at
 * most evidence_total_max() bytes of them in all (EVIDENCE_TOTAL_MAX, or
 * $NGCC_PERF_EVIDENCE_TOTAL_MIB MiB): jansson's tree of a document takes
 * several times its text, so these bound what a command holds.  Real
 * records are tens of KiB.  A file past either limit is refused with a
 * message naming it and the limit, as bad input.
 */
#define EVIDENCE_FILE_MAX ((size_t)16 << 20)
#define EVIDENCE_TOTAL_MAX ((size_t)1024 << 20)
#define EVIDENCE_TOTAL_ENV "NGCC_PERF_EVIDENCE_TOTAL_MIB"
size_t evidence_total_max(void);
/* Read an evidence file from fd (opened by the caller for path; closed
 * here) within both limits; 0, or -1 with the message in *err (naming
 * path; err may be NULL).  data is NUL-terminated. */
int evidence_read_fd(int fd, const char *path, char **data, size_t *len, char **err);

/* Load a JSON file (a regular file, the evidence limits above); NULL with a
 * message naming path in *err (caller frees; err may be NULL) on failure. */
json_t *evidence_load(const char *path, char **err);
/* The same for evidence we did not write ourselves: path is root/<rel> and
 * is opened without leaving root or following a link (util/untrusted.h). */
json_t *evidence_load_below(const char *root, const char *path, char **err);
/* Check "schema" equals "ngcc-perf/<kind>/<version>". 0 if it does. */
int evidence_check_schema(const json_t *j, const char *kind, int version);
/* "ngcc-perf/<kind>/<version>" */
json_t *evidence_schema(const char *kind, int version);

/*
 * "strays_killed" of a process entry (timing, memory, profile and check
 * evidence): how many processes the child left running that its
 * supervisor had to kill when it ended (proc/contain.h); null when the
 * count is unknown (the supervisor was killed itself).  Absent in
 * evidence made before children were supervised.
 */
#define STRAYS_KILLED_KEY "strays_killed"
struct spawn_res;
json_t *evidence_strays_killed(const struct spawn_res *res);

/* Small constructors that never return NULL for NULL input: they give json null. */
json_t *jstr_or_null(const char *s);
/* Typed getters with defaults. */
const char *jget_str(const json_t *o, const char *key, const char *def);
long long jget_int(const json_t *o, const char *key, long long def);
double jget_real(const json_t *o, const char *key, double def);
int jget_bool(const json_t *o, const char *key, int def);

/*
 * Check "schema": "ngcc-perf/<kind>/<version>" against the kinds and
 * versions this tool reads.  0 if known; otherwise -1 and *why (malloc'd).
 */
int schema_known(const json_t *j, char **why);

#endif
