/*
 * katlog.h — the KAT log, build/<ID>/kat/<label>.log (docs/method.md §2.2), and
 * the result stream of the KAT child it is made from:
 *
 *   key = value                 header lines (metadata, API sizes, ...)
 *   manifest <hex> <mode> <file>  the manifest entry compared against
 *   --- <what> (last N bytes at most) ---
 *   | <line>                    the candidate's output, each line prefixed
 *                               so it can never pass for one of ours
 *   RESULT <ID> <label> <STATUS> [detail]
 *
 * The KAT child and the gate write these lines here; the report's model and
 * validate read the RESULT line here.
 */
#ifndef NGCC_KAT_KATLOG_H
#define NGCC_KAT_KATLOG_H

#include "util/util.h"

/* The most bytes of one value, output line or RESULT detail shown in a
 * log (candidate text is escaped and cut there: util/untrusted.h). */
#define KATLOG_VALUE_MAX 512

/* "key = value\n", value escaped and bounded */
void katlog_field(struct strbuf *log, const char *key, const char *value);
void katlog_fieldf(struct strbuf *log, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The value of key among "key = value" lines; NULL when absent or empty. */
const char *katlog_meta_value(const struct strlist *lines, const char *key);

/* The value of a "key = value" header line of a whole log text
 * (malloc'd); NULL when absent or empty.  The candidate's output in a log
 * is prefixed with "| ", so it never passes for a header line. */
char *katlog_header_value(const char *log, const char *key);

/* "manifest <hex> <mode> <file>\n" */
void katlog_manifest(struct strbuf *log, const char *digest, const char *mode, const char *file);

/* A block of the candidate's output (nothing when tail is empty). */
void katlog_tail(struct strbuf *log, const char *what, const char *tail, int max_bytes);

/* "RESULT <id> <label> <status>", then " <detail>" when detail is not
 * NULL, escaped and bounded (malloc'd, no newline). */
char *katlog_result_line(const char *id, const char *label, const char *status,
			 const char *detail);

/* The last RESULT line anywhere in log: its status and detail (malloc'd;
 * both NULL when there is none, detail NULL when it has none). */
void katlog_last_result(const char *log, char **status, char **detail);
/* The status word of the log's final line when that line is
 * `RESULT <id> <label> <STATUS> ...`, with *id (both malloc'd); NULL (and
 * *id NULL) otherwise. */
char *katlog_final_result(const char *log, char **id);

/* What the run of the log was compared against: a kat.sha256 entry (a
 * `manifest` line), the package's KAT file (`reference = <path>`), nothing
 * (`reference = none`), or unknown (a log with neither line).  A hash
 * instance's log has a line per file (`<tag>.reference = ...` or
 * `manifest`): FILE when any file is the package's, MANIFEST when all
 * are entries, NONE when there is none. */
enum katlog_ref { KATLOG_REF_UNKNOWN, KATLOG_REF_MANIFEST, KATLOG_REF_FILE, KATLOG_REF_NONE };
enum katlog_ref katlog_reference(const char *log);

#endif
