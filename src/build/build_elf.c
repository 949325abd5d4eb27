/* build_elf.c — see elfinfo.h. */
#include "build/elfinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const allocator_names[] = { "malloc", "calloc", "realloc", "free" };

/* Open path as ELF; returns the handle (fd in *fd) or NULL with *err. */
static Elf *elf_open_file(const char *path, int *fd, char **err)
{
	if (elf_version(EV_CURRENT) == EV_NONE) {
		*err = xasprintf("%s: libelf initialisation failed: %s", path, elf_errmsg(-1));
		return NULL;
	}
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0) {
		*err = xasprintf("%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	Elf *e = elf_begin(*fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		*err = xasprintf("%s: not an ELF file: %s", path, elf_errmsg(-1));
		if (e)
			elf_end(e);
		close(*fd);
		return NULL;
	}
	return e;
}

static int sum_load_segments(Elf *e, unsigned long long *total)
{
	size_t n;
	if (elf_getphdrnum(e, &n))
		return -1;
	*total = 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph))
			return -1;
		if (ph.p_type == PT_LOAD)
			*total += ph.p_memsz;
	}
	return 0;
}

static int is_allocator(const char *name)
{
	for (size_t i = 0; i < sizeof allocator_names / sizeof allocator_names[0]; i++)
		if (!strcmp(name, allocator_names[i]))
			return 1;
	return 0;
}

static void read_dynsym(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, struct elf_facts *f)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || !sh->sh_entsize)
		return;
	size_t n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym))
			continue;
		const char *name = elf_strptr(e, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		if (sym.st_shndx == SHN_UNDEF) {
			sl_push(&f->imports, name);
			if (is_allocator(name))
				f->imports_allocator = 1;
		} else if (GELF_ST_BIND(sym.st_info) != STB_LOCAL) {
			sl_push(&f->exports, name);
		}
	}
}

static void add_section_size(const char *name, const GElf_Shdr *sh, struct elf_facts *f)
{
	if (!strcmp(name, ".text"))
		f->text += sh->sh_size;
	else if (!strcmp(name, ".rodata"))
		f->rodata += sh->sh_size;
	else if (!strcmp(name, ".data"))
		f->data += sh->sh_size;
	else if (!strcmp(name, ".bss"))
		f->bss += sh->sh_size;
}

int elf_read_facts(const char *path, struct elf_facts *f, char **err)
{
	int fd;
	size_t shstrndx;

	memset(f, 0, sizeof *f);
	Elf *e = elf_open_file(path, &fd, err);
	if (!e)
		return -1;
	if (sum_load_segments(e, &f->load_bytes) || elf_getshdrstrndx(e, &shstrndx)) {
		*err = xasprintf("%s: unreadable ELF headers: %s", path, elf_errmsg(-1));
		elf_end(e);
		close(fd);
		return -1;
	}
	for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *name = elf_strptr(e, shstrndx, sh.sh_name);
		if (name)
			add_section_size(name, &sh, f);
		if (sh.sh_type == SHT_DYNSYM)
			read_dynsym(e, scn, &sh, f);
	}
	sl_sort(&f->exports);
	sl_sort(&f->imports);
	elf_end(e);
	close(fd);
	return 0;
}

void elf_facts_free(struct elf_facts *f)
{
	sl_free(&f->exports);
	sl_free(&f->imports);
}

int elf_has_lto(const char *path)
{
	int fd, found = 0;
	size_t shstrndx;
	char *err = NULL;

	Elf *e = elf_open_file(path, &fd, &err);
	free(err);
	if (!e)
		return -1;
	if (elf_getshdrstrndx(e, &shstrndx) == 0)
		for (Elf_Scn *scn = elf_nextscn(e, NULL); scn && !found; scn = elf_nextscn(e, scn)) {
			GElf_Shdr sh;
			const char *name;
			if (gelf_getshdr(scn, &sh) &&
			    (name = elf_strptr(e, shstrndx, sh.sh_name)) &&
			    str_starts_with(name, ".gnu.lto_"))
				found = 1;
		}
	elf_end(e);
	close(fd);
	return found;
}

static int symtab_defines(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, const char *name)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || !sh->sh_entsize)
		return 0;
	size_t n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *s;
		if (gelf_getsym(d, (int)i, &sym) && sym.st_shndx != SHN_UNDEF &&
		    GELF_ST_BIND(sym.st_info) != STB_LOCAL &&
		    (s = elf_strptr(e, sh->sh_link, sym.st_name)) && !strcmp(s, name))
			return 1;
	}
	return 0;
}

int elf_defines_symbol(const char *path, const char *name)
{
	int fd, found = 0;
	char *err = NULL;
	Elf *e = elf_open_file(path, &fd, &err);
	free(err);
	if (!e)
		return -1;
	for (Elf_Scn *scn = elf_nextscn(e, NULL); scn && !found; scn = elf_nextscn(e, scn)) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			found = symtab_defines(e, scn, &sh, name);
	}
	elf_end(e);
	close(fd);
	return found;
}

/* The bytes of section name in e, or NULL. */
static Elf_Data *section_data(Elf *e, const char *name)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
		GElf_Shdr sh;
		const char *s;
		if (gelf_getshdr(scn, &sh) && (s = elf_strptr(e, shstrndx, sh.sh_name)) &&
		    !strcmp(s, name))
			return elf_getdata(scn, NULL);
	}
	return NULL;
}

int elf_section_same(const char *a, const char *b, const char *name)
{
	int fa, fb, same = -1;
	char *err = NULL;
	Elf *ea = elf_open_file(a, &fa, &err);
	free(err);
	err = NULL;
	if (!ea)
		return -1;
	Elf *eb = elf_open_file(b, &fb, &err);
	free(err);
	if (eb) {
		Elf_Data *da = section_data(ea, name), *db = section_data(eb, name);
		if (da && db)
			same = da->d_size == db->d_size &&
			       (!da->d_size || !memcmp(da->d_buf, db->d_buf, da->d_size));
		elf_end(eb);
		close(fb);
	}
	elf_end(ea);
	close(fa);
	return same;
}
