/*
 * discover_int.h — what the files of discovery share (discover.c: finding
 * instance folders and their code; discover_facts.c: the package's build
 * files applied to a parameter set, ALGORITHM_INSTANCE under #if;
 * discover_headers.c: one header, one folder).  Not for other modules.
 */
#ifndef NGCC_PACKAGE_DISCOVER_INT_H
#define NGCC_PACKAGE_DISCOVER_INT_H

#include "package/buildfacts.h"
#include "util/util.h"

struct discovery;
struct found_instance;
struct text_cache;

/* One instance being put together. */
struct inst_builder {
	const char *root;
	const struct strlist *all;   /* every file of the package */
	struct found_instance *fi;
	char *abs_dir;               /* root/source_dir */
	struct text_cache *read;     /* what dsc_read_rel has read, kept for its next ask */
};

/* The package being scanned. */
struct scan {
	const char *root;
	const char *fallback_label;
	struct strlist all;
	struct strlist instance_dirs; /* every folder holding a chosen API header */
	struct discovery *d;
};

/* ---- discover.c ---- */

/* Add a line of reasoning to fi->why (add --explain). */
void dsc_why(struct found_instance *fi, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A file of the instance (relative to source_dir), or NULL if unreadable
 * or too large to be ours to parse.  Read once per instance folder: its
 * parameter sets and every question asked of them share the text. */
char *dsc_read_rel(const struct inst_builder *b, const char *rel);
char *dsc_read_small(const char *path);
/* A value as one printable line (control characters as '?'). */
char *dsc_printable(const char *s);
/* The part of rel inside folder dir ("." is the package root), or NULL. */
const char *dsc_inside(const char *rel, const char *dir);
/* "Reference_Implementation", "Optimized Implementations", ... */
int dsc_container_like(const char *name);
/* The first `#define ALGORITHM_INSTANCE "..."` outside comment lines. */
char *dsc_parse_instance_macro(const char *text);
/* The next preprocessor directive from *cursor on (the text after '#' and
 * blanks), *cursor moved past its line; NULL at the end:
 * for (const char *p = text, *q; (q = dsc_next_directive(&p));) ... */
const char *dsc_next_directive(const char **cursor);

/* ---- discover_facts.c ---- */

/* When the headers define ALGORITHM_INSTANCE several times under #if:
 * the definition the instance's defines select. */
void dsc_instance_macro_by_defines(struct inst_builder *b);
/* The facts of the Makefile and CMakeLists.txt of the instance folder and
 * its ancestors up to the implementation folder. */
void dsc_read_build_facts(const struct scan *sc, const char *source_dir, struct build_facts *bf,
			  struct found_instance *fi);
/* The link rules whose defines select a parameter set (into out). */
size_t dsc_target_rules(const struct inst_builder *b, const struct build_facts *bf,
			const struct build_rule **out);
/* Do those rules tell parameter sets apart (two or more, none alike)? */
int dsc_targets_split(const struct build_rule **targets, size_t n);
/* Apply the build facts to one parameter set: level_file its own source,
 * target its own build target (NULL, NULL: a lone instance). */
void dsc_apply_build_facts(struct inst_builder *b, const struct build_facts *bf,
			   const char *level_file, const struct build_rule *target);

/* ---- discover_headers.c ---- */

/* The error when a header an instance's file includes is in two of its
 * include folders as different files, else NULL; includes whose file
 * differs only in case are added to notes. */
char *dsc_ambiguous_header(const struct inst_builder *b, struct strlist *notes);

#endif
