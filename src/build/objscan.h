/*
 * objscan.h — a relocatable object (.o) read whole with libelf: sections
 * (with the bytes of allocated ones), the symbol table and the relocations.
 * Used by the instrumented relink (which symbols an instance references)
 * and by the symmetric-primitive survey (constants, call graph).
 */
#ifndef NGCC_BUILD_OBJSCAN_H
#define NGCC_BUILD_OBJSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

struct obj_section {
	char *name;
	uint32_t type;             /* SHT_* */
	uint64_t flags, size;
	unsigned char *data;       /* SHT_PROGBITS + SHF_ALLOC only, else NULL */
};

struct obj_sym {
	char *name;                /* "" for section symbols */
	int type;                  /* STT_* */
	int global;                /* STB_GLOBAL or STB_WEAK */
	unsigned shndx;            /* SHN_UNDEF for references */
	uint64_t value, size;
};

struct obj_reloc {
	unsigned applies_to;       /* section index the relocation patches */
	uint64_t offset;           /* in that section */
	size_t sym;                /* index into syms */
	int64_t addend;
	unsigned type;             /* r_type, machine-specific */
};

struct obj_file {
	char *path;
	unsigned machine;          /* e_machine (EM_X86_64, EM_AARCH64, ...) */
	struct obj_section *secs;
	size_t n_secs;
	struct obj_sym *syms;
	size_t n_syms;
	struct obj_reloc *rels;
	size_t n_rels;
};

/* 0, or -1 with *err (malloc'd) naming the path and the problem. */
int obj_load(const char *path, struct obj_file *o, char **err);
void obj_free(struct obj_file *o);

/* The offset a relocation against a section symbol points at: the addend,
 * plus 4 for x86-64 PC-relative types (the addend is counted from the end
 * of the 4-byte field). */
uint64_t obj_reloc_target_offset(const struct obj_file *o, const struct obj_reloc *r);

/* Names of the undefined global symbols (references) of o, appended to out
 * (no duplicates). */
void obj_undefined(const struct obj_file *o, struct strlist *out);

/* The defined FUNC/OBJECT symbol of section shndx that covers offset, or
 * -1.  Zero-sized symbols cover only their own address. */
long obj_symbol_at(const struct obj_file *o, unsigned shndx, uint64_t offset);

/*
 * The objects of an instance's recorded link command (build.json
 * link_command) that are the candidate's own: every *.o argument whose
 * file name does not start with "ngcc_" (our shim and runtime).  Paths are
 * as recorded (workspace-relative).
 */
struct json_t;
void link_command_candidate_objects(const struct json_t *link_command, struct strlist *out);

/*
 * Every object (*.o argument) of a recorded link command, each read once,
 * for everything the profile needs from them: the LTO refusal, the
 * symbols the relink wraps and the primitive survey.
 */
struct link_object {
	char *path;           /* as recorded (workspace-relative) */
	int ours;             /* our shim or runtime: the file name starts with ngcc_ */
	int loaded;           /* obj holds the object */
	struct obj_file obj;
	char *error;          /* why it could not be read, when not loaded */
	int lto;              /* holds GCC LTO bytecode (.gnu.lto_* sections) */
};

struct link_objects {
	struct link_object *v;
	size_t n;
};

/* Paths resolved against workspace (absolute ones as they are).  An
 * object that cannot be read keeps its error; nothing fails here. */
void link_objects_load(const char *workspace, const struct json_t *link_command,
		       struct link_objects *out);
void link_objects_free(struct link_objects *l);

#endif
