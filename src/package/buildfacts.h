/*
 * buildfacts.h — the build facts a package states only in its own
 * Makefile or CMakeLists.txt (docs/iccs.md §6.3): preprocessor defines,
 * extra libraries and include folders, each with the file and line it came
 * from and the target or file it was stated for.  The files are read as
 * text: nothing is run, no shell or $(shell ...) is expanded, a variable
 * the file does not set expands to nothing.
 */
#ifndef NGCC_PACKAGE_BUILDFACTS_H
#define NGCC_PACKAGE_BUILDFACTS_H

#include "util/util.h"

enum fact_kind { FACT_DEFINE, FACT_LIB, FACT_INCLUDE };

struct build_fact {
	enum fact_kind kind;
	char *value;   /* NAME or NAME=VALUE; -lNAME; a folder as written */
	char *origin;  /* "<file>:<line>", the file as the caller named it */
};

/* One compiler command of a Makefile recipe, or one CMake target. */
struct build_rule {
	char *target;          /* the rule's first target / the CMake target */
	int compile_only;      /* -c: compiles one file, links nothing */
	struct strlist files;  /* the C/C++ sources it names, as written */
	struct build_fact *facts;
	size_t n_facts;
};

struct build_facts {
	struct build_fact *global; /* stated for every target */
	size_t n_global;
	struct build_rule *rules;
	size_t n_rules;
};

/* Read the Makefile or CMakeLists.txt text of file `name` (a CMake file
 * when name is CMakeLists.txt or ends in .cmake; any other: a Makefile),
 * adding its facts to out; origins are "<name>:<line>". */
void build_facts_parse(const char *name, const char *text, struct build_facts *out);
void build_facts_free(struct build_facts *f);

/* Is this a build file discovery reads (Makefile, makefile,
 * GNUmakefile, CMakeLists.txt)? */
int build_file_name(const char *name);

/* A target that builds tests or benchmarks (test*, bench*, speed*, clean),
 * whose defines say nothing about the library. */
int build_target_ignored(const char *target);

/* NAME of a define fact "NAME=VALUE" (malloc'd). */
char *fact_macro_name(const char *value);

#endif
