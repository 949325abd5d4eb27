/*
 * instrument.h — the instrumented relink of one reference instance
 * (docs/method.md §10.1): build/<ID>/instrumented/lib<label>.so, made from the
 * objects of the recorded link command plus our wrapper object
 * (src/runtime/profwrap.c), with -Wl,--wrap=<symbol> for each of
 * pseudohash, pseudoXOF, sm3hash and get_random_number that the
 * candidate's own objects reference.  The version script is ours plus the
 * ngcc_prof_* controls.  The timed library is never touched.
 *
 * Objects holding LTO bytecode are refused: --wrap does not see calls that
 * the link-time optimiser resolves.
 */
#ifndef NGCC_BUILD_INSTRUMENT_H
#define NGCC_BUILD_INSTRUMENT_H

#include <jansson.h>

#include "build/objscan.h"
#include "util/util.h"

/* The four symbols, in the order they are wrapped. */
extern const char *const instrument_symbols[4];

struct instrument_result {
	char *library;            /* build/<ID>/instrumented/lib<label>.so (workspace-relative) */
	char library_sha256[65];
	struct strlist wrapped;   /* symbols given --wrap */
	json_t *compile_command;  /* argv array, as recorded (<ngcc-perf>/...) */
	json_t *link_command;
	int lto_refused;          /* refused because of LTO objects */
	char *error;              /* why it failed (NULL when ok) */
	char *output;             /* compiler/linker output on failure */
};

/*
 * Relink the instance described by its build.json entry (candidate, label,
 * link_command, lto) from the objects of that link command, read once
 * (build/objscan.h).  Returns 0 when the library was written, 1 when it
 * was refused or the compile/link failed (out->error says why), -1 on a
 * system error (out->error set too).
 */
int instrument_instance(const char *workspace, const json_t *entry,
			const struct link_objects *objs, struct instrument_result *out);
void instrument_result_free(struct instrument_result *r);

/* Which of instrument_symbols the candidate's own objects reference (the
 * check twins wrap get_random_number too); the first object that could
 * not be read is the error.  0 or -1. */
int instrument_referenced(const struct link_objects *objs, struct strlist *wrapped, char **err);

#endif
