/* objscan.c — see objscan.h. */
#include "build/objscan.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <jansson.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build/elfinfo.h"

static int load_sections(Elf *e, struct obj_file *o)
{
	size_t shstrndx, n;
	if (elf_getshdrstrndx(e, &shstrndx) || elf_getshdrnum(e, &n))
		return -1;
	o->secs = xcalloc(n ? n : 1, sizeof *o->secs);
	o->n_secs = n;
	for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
		size_t i = elf_ndxscn(scn);
		GElf_Shdr sh;
		if (i >= n || !gelf_getshdr(scn, &sh))
			return -1;
		const char *name = elf_strptr(e, shstrndx, sh.sh_name);
		struct obj_section *s = &o->secs[i];
		s->name = xstrdup(name ? name : "");
		s->type = sh.sh_type;
		s->flags = sh.sh_flags;
		s->size = sh.sh_size;
		if (sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_ALLOC) && sh.sh_size) {
			Elf_Data *d = elf_getdata(scn, NULL);
			if (!d || !d->d_buf || d->d_size != sh.sh_size)
				return -1;
			s->data = xmalloc(sh.sh_size);
			memcpy(s->data, d->d_buf, sh.sh_size);
		}
	}
	return 0;
}

static int load_symtab(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, struct obj_file *o)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || !sh->sh_entsize)
		return -1;
	size_t n = sh->sh_size / sh->sh_entsize;
	o->syms = xcalloc(n ? n : 1, sizeof *o->syms);
	o->n_syms = n;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		if (!gelf_getsym(d, (int)i, &s))
			return -1;
		const char *name = elf_strptr(e, sh->sh_link, s.st_name);
		struct obj_sym *y = &o->syms[i];
		y->name = xstrdup(name ? name : "");
		y->type = GELF_ST_TYPE(s.st_info);
		y->global = GELF_ST_BIND(s.st_info) != STB_LOCAL;
		y->shndx = s.st_shndx;
		y->value = s.st_value;
		y->size = s.st_size;
	}
	return 0;
}

static void add_rel(struct obj_file *o, size_t *cap, unsigned to, uint64_t off,
		    size_t sym, int64_t addend, unsigned type)
{
	if (o->n_rels == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		o->rels = xrealloc(o->rels, *cap * sizeof *o->rels);
	}
	o->rels[o->n_rels++] = (struct obj_reloc){ to, off, sym, addend, type };
}

static int load_relocs(Elf_Scn *scn, const GElf_Shdr *sh, struct obj_file *o, size_t *cap)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || !sh->sh_entsize)
		return -1;
	size_t n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < n; i++) {
		if (sh->sh_type == SHT_RELA) {
			GElf_Rela r;
			if (!gelf_getrela(d, (int)i, &r))
				return -1;
			add_rel(o, cap, sh->sh_info, r.r_offset, GELF_R_SYM(r.r_info), r.r_addend,
				(unsigned)GELF_R_TYPE(r.r_info));
		} else {
			GElf_Rel r;
			if (!gelf_getrel(d, (int)i, &r))
				return -1;
			add_rel(o, cap, sh->sh_info, r.r_offset, GELF_R_SYM(r.r_info), 0,
				(unsigned)GELF_R_TYPE(r.r_info));
		}
	}
	return 0;
}

static int load_tables(Elf *e, struct obj_file *o)
{
	size_t cap = 0;
	for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			return -1;
		if (sh.sh_type == SHT_SYMTAB && !o->syms && load_symtab(e, scn, &sh, o))
			return -1;
		if ((sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL) &&
		    load_relocs(scn, &sh, o, &cap))
			return -1;
	}
	return 0;
}

int obj_load(const char *path, struct obj_file *o, char **err)
{
	memset(o, 0, sizeof *o);
	o->path = xstrdup(path);
	if (elf_version(EV_CURRENT) == EV_NONE) {
		*err = xasprintf("%s: libelf is unusable: %s", path, elf_errmsg(-1));
		return -1;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = xasprintf("%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	GElf_Ehdr eh;
	int rc = -1;
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh))
		*err = xasprintf("%s: not an ELF file", path);
	else if (eh.e_type != ET_REL)
		*err = xasprintf("%s: not a relocatable object", path);
	else if ((o->machine = eh.e_machine), load_sections(e, o) || load_tables(e, o))
		*err = xasprintf("%s: unreadable ELF: %s", path, elf_errmsg(-1));
	else
		rc = 0;
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

void obj_free(struct obj_file *o)
{
	for (size_t i = 0; i < o->n_secs; i++) {
		free(o->secs[i].name);
		free(o->secs[i].data);
	}
	for (size_t i = 0; i < o->n_syms; i++)
		free(o->syms[i].name);
	free(o->secs);
	free(o->syms);
	free(o->rels);
	free(o->path);
	memset(o, 0, sizeof *o);
}

uint64_t obj_reloc_target_offset(const struct obj_file *o, const struct obj_reloc *r)
{
	int pcrel = o->machine == EM_X86_64 &&
		    (r->type == R_X86_64_PC32 || r->type == R_X86_64_PLT32 ||
		     r->type == R_X86_64_GOTPCREL || r->type == R_X86_64_GOTPCRELX ||
		     r->type == R_X86_64_REX_GOTPCRELX);
	return (uint64_t)r->addend + (pcrel ? 4 : 0);
}

void obj_undefined(const struct obj_file *o, struct strlist *out)
{
	for (size_t i = 1; i < o->n_syms; i++) {
		const struct obj_sym *s = &o->syms[i];
		if (s->shndx == SHN_UNDEF && s->global && s->name[0] &&
		    !sl_contains(out, s->name))
			sl_push(out, s->name);
	}
}

long obj_symbol_at(const struct obj_file *o, unsigned shndx, uint64_t offset)
{
	for (size_t i = 1; i < o->n_syms; i++) {
		const struct obj_sym *s = &o->syms[i];
		if (s->shndx != shndx || (s->type != STT_FUNC && s->type != STT_OBJECT))
			continue;
		uint64_t end = s->value + (s->size ? s->size : 1);
		if (offset >= s->value && offset < end)
			return (long)i;
	}
	return -1;
}

void link_command_candidate_objects(const struct json_t *link_command, struct strlist *out)
{
	size_t i;
	json_t *a;
	json_array_foreach((json_t *)link_command, i, a) {
		const char *s = json_string_value(a);
		if (s && str_ends_with(s, ".o") && !str_starts_with(path_basename(s), "ngcc_"))
			sl_push(out, s);
	}
}

/* ---- the objects of a link command ---- */

static int has_lto_sections(const struct obj_file *o)
{
	for (size_t i = 0; i < o->n_secs; i++)
		if (o->secs[i].name && str_starts_with(o->secs[i].name, ".gnu.lto_"))
			return 1;
	return 0;
}

void link_objects_load(const char *workspace, const json_t *link_command,
		       struct link_objects *out)
{
	size_t i;
	json_t *a;
	memset(out, 0, sizeof *out);
	json_array_foreach((json_t *)link_command, i, a) {
		const char *s = json_string_value(a);
		if (!s || !str_ends_with(s, ".o"))
			continue;
		out->v = xrealloc(out->v, (out->n + 1) * sizeof *out->v);
		struct link_object *lo = &out->v[out->n++];
		memset(lo, 0, sizeof *lo);
		lo->path = xstrdup(s);
		lo->ours = str_starts_with(path_basename(s), "ngcc_");
		char *full = s[0] == '/' ? xstrdup(s) : path_join(workspace, s);
		lo->loaded = obj_load(full, &lo->obj, &lo->error) == 0;
		/* What libelf cannot read as a whole may still show LTO sections. */
		lo->lto = lo->loaded ? has_lto_sections(&lo->obj) : elf_has_lto(full) == 1;
		free(full);
	}
}

void link_objects_free(struct link_objects *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].path);
		free(l->v[i].error);
		obj_free(&l->v[i].obj);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}
