/*
 * twin.h — the check twins of one built instance (`ngcc-perf check`):
 * the instance recompiled from its recorded compile commands (build.json)
 * into build/<ID>/check/, never replacing the timed library:
 *
 *   debug  the same flags plus -g:  build/<ID>/check/lib<stem>.debug.so.
 *          GCC emits the same code with and without -g; the twin's .text
 *          is compared with the timed library's and the result recorded.
 *          valgrind memcheck runs on it, so its findings have source lines.
 *   ct     the debug objects relinked with src/runtime/ctwrap.c and
 *          -Wl,--wrap=get_random_number (when the candidate's objects call
 *          it), so every DRNG output is marked secret for memcheck:
 *          build/<ID>/check/lib<stem>.ct.so.
 *   asan   the same flags plus -g -fsanitize=address,undefined
 *          -fno-omit-frame-pointer -fno-sanitize-recover=undefined:
 *          build/<ID>/check/lib<stem>.asan.so, loaded by
 *          bin/ngcc-perf-check-asan.
 *
 * Objects go to build/<ID>/check/obj/<stem>/{debug,asan}/, every command
 * and its output to build/<ID>/check/<stem>.build.log, and a stamp,
 * build/<ID>/check/<stem>.twins.json, lets a later check reuse the twins
 * while the timed library (SHA-256) is unchanged.  Compiler jobs run in
 * parallel like `build -j`.  Nothing shipped in a package is executed.
 */
#ifndef NGCC_BUILD_TWIN_H
#define NGCC_BUILD_TWIN_H

#include <jansson.h>

enum twin_kind { TWIN_DEBUG, TWIN_CT, TWIN_ASAN, TWIN_N };

/* "debug", "ct", "asan" */
extern const char *const twin_names[TWIN_N];

struct twin {
	int ok;
	char *library;             /* workspace-relative */
	char sha256[65];
	/* For the record: {flags_added, link_added, compile_commands,
	 * link_command, text_identical_to_timed, drng_wrapped}. */
	json_t *build;
	char *error;               /* why it was not built (NULL when ok) */
};

struct twin_set {
	struct twin t[TWIN_N];
	char *log;                 /* build/<ID>/check/<stem>.build.log */
	int reused;                /* taken from the stamp, nothing compiled */
};

/*
 * Build the twins of the instance whose build.json entry is given (it must
 * have a library, compile_commands and link_command), or reuse them.  Up
 * to jobs compilers run at once.  Returns 0 when every twin was attempted
 * (each says whether it built), -1 when the entry cannot be used or on a
 * system error, with t[0].error saying why.
 */
int twin_build(const char *workspace, const json_t *entry, int jobs, struct twin_set *out);
void twin_set_free(struct twin_set *s);

#endif
