/*
 * cscan.h — lexical questions discovery asks of a package's C text
 * (docs/iccs.md §6): which files it #includes by quoted name, which
 * functions it defines with external linkage, and whether it uses a macro
 * for its value or only tests whether it is defined.  Comments, strings and
 * character literals are skipped; nothing is preprocessed or compiled.
 */
#ifndef NGCC_PACKAGE_CSCAN_H
#define NGCC_PACKAGE_CSCAN_H

#include "util/util.h"

/* The names of every `#include "name"` (quoted form only), in order. */
void cscan_quoted_includes(const char *text, struct strlist *out);

/* The functions the text defines outside any #if/#ifdef block and without
 * `static`: what the linker would see twice if two such files were linked
 * together. */
void cscan_defined_functions(const char *text, struct strlist *out);

/* Does the text use macro `name` for its value (in code, in another
 * macro's body, or in an #if expression outside defined())?  A macro only
 * tested with #ifdef, #ifndef or defined() is a switch, not a value. */
int cscan_uses_value(const char *text, const char *name);

/* Does the text name macro `name` at all (a use, a test, a definition)
 * outside comments and strings? */
int cscan_mentions(const char *text, const char *name);

/* Does an `#error` directive appear in the text? */
int cscan_has_error_directive(const char *text);

#endif
