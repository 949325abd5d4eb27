/*
 * elfinfo.h — facts about a built library or object read with libelf
 * (docs/method.md §8): the loaded image (Σ p_memsz of PT_LOAD), the sizes of the
 * main sections, the dynamic imports and exports, LTO bytecode.
 */
#ifndef NGCC_BUILD_ELFINFO_H
#define NGCC_BUILD_ELFINFO_H

#include "util/util.h"

struct elf_facts {
	unsigned long long load_bytes;  /* Σ p_memsz over PT_LOAD headers */
	unsigned long long text, rodata, data, bss; /* section sizes */
	int imports_allocator;          /* malloc/calloc/realloc/free undefined */
	struct strlist exports;         /* defined global dynamic symbols */
	struct strlist imports;         /* undefined dynamic symbols */
};

/* 0, or -1 with *err (malloc'd) naming the file and the problem. */
int elf_read_facts(const char *path, struct elf_facts *out, char **err);
void elf_facts_free(struct elf_facts *f);
/* 1 if the object holds GCC LTO bytecode (.gnu.lto_* sections), 0 if not,
 * -1 if it cannot be read. */
int elf_has_lto(const char *path);

/* 1 if the object's symbol table defines `name` (a common symbol counts),
 * 0 if not, -1 if it cannot be read. */
int elf_defines_symbol(const char *path, const char *name);

/* 1 if section name holds the same bytes in both files, 0 if not, -1 if
 * either file or section cannot be read (the check twins: -g must not
 * change the code). */
int elf_section_same(const char *a, const char *b, const char *name);

#endif
