/*
 * discover.h — find the parameter sets (instances) of an unpacked
 * submission package (docs/iccs.md §6): where each one lives, its type,
 * ALGORITHM_INSTANCE, the exact list of sources to compile, its include
 * folders, whether it ships its own drng/auxfunc, and its submitted KAT
 * file.  Pure file inspection: nothing from the package is executed.
 */
#ifndef NGCC_DISCOVER_H
#define NGCC_DISCOVER_H

#include "package/conf.h"

struct found_instance {
	char *label;        /* folder name; "+avx2", "+portable", "+additional"...
			       for the variants (method/cpuext.h variant_tag) */
	char *type;         /* kem | sign | kex | hash */
	char *variant;      /* reference | optimized-<ext> | additional */
	int cpu_ext;        /* enum cpu_ext its code needs (package/cpuscan.h) */
	char *instance;     /* ALGORITHM_INSTANCE, NULL if none found */
	int placeholder;    /* instance is the template's "AlgorithmInstance" */
	char *source_dir;   /* relative to the package root */
	char *api_header;   /* relative to source_dir */
	struct strlist sources;      /* relative to source_dir, sorted */
	struct strlist include_dirs; /* relative to source_dir */
	int own_drng, own_auxfunc;
	char *kat_reference; /* relative to the package root, or NULL */
	int digest_bits;    /* hash: DIGEST_BIT_LENGTH, 0 if not found */
	char *digest_expr;  /* hash: its text when it is no number */
	struct strlist kat_files; /* hash: the files found, relative to the root */
	int enabled;
	int in_bundle;      /* lives under Others/, 中文资料/ or similar */
	char digest[65];    /* content hash of sources, headers and defines */
	char *level;        /* the parameter set's own name when the folder holds
			       several (a level folder, file, or build target) */
	struct strlist headers;  /* relative to source_dir */
	struct strlist defines;  /* NAME[=VALUE] from the package's build files */
	struct strlist libs;     /* -lNAME from the package's build files */
	struct strlist facts;    /* "define X=1: Makefile:3 (...)": where each came from */
	struct strlist why;      /* what discovery saw and chose (add --explain) */
};

struct discovery {
	struct found_instance *inst;
	size_t n;
	struct strlist notes; /* skipped duplicates, unsupported types, ... */
	char *error;          /* set: the package is refused (a header in two
				 include folders of one instance, ...) */
};

/* Scan root (the unpacked package).  fallback_label names an instance whose
 * folders are all generic (ref/, x86_64/, common/) and whose
 * ALGORITHM_INSTANCE is the placeholder: use the algorithm name.  Returns
 * the number of instances kept (enabled or not); 0: no implementation.
 * d->error set (instances may still be listed): refuse the package. */
size_t discover_package(const char *root, const char *fallback_label, struct discovery *d);
void discovery_free(struct discovery *d);

/* Fill conf instances from a discovery (copies). */
void discovery_to_conf(const struct discovery *d, struct candidate_conf *c);

/* The reasoning of discovery for one instance, as `add --explain` prints
 * it: lines without a trailing newline, appended to out. */
void discovery_explain(const struct found_instance *fi, struct strlist *out);

/* Lexical check: does this C source define (or declare at file scope) a
 * function called main?  Comments, strings and char literals are skipped. */
int source_defines_main(const char *text);

/* names.c: */
/* "NTRE Submission v1.2.zip" -> "NTRE" (editable later in the conf). */
char *algorithm_from_package_name(const char *name);
/* The algorithm name of an unpacked package (root) as the package says
 * it: an "Algorithm name:" (算法名称：) line of a README-like file near the
 * top or of an API header comment, else the instance folders' common stem
 * or the package name (whichever names it better).  *source (malloc'd)
 * says where it came from. */
char *algorithm_name(const char *package, const char *root, const struct discovery *d,
		     char **source);
/* "NTRE Submission.zip" -> "ntre-submission"; "candidate" if nothing left. */
char *slug_from_package_name(const char *name);
/* [A-Za-z0-9._-]+, not starting with '.'. */
int valid_candidate_id(const char *id);

#endif
