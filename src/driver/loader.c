/*
 * loader.c — see loader.h.
 *
 * RTLD_NOW makes an unresolved candidate symbol fail here, at load time,
 * rather than as a crash in the middle of a KAT; RTLD_LOCAL keeps two
 * candidates' internal names from binding to each other.
 */
#include "driver/loader.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The error text, allocated.  Formatted here rather than with util.c's
 * xasprintf so that the small child programs (timing, profile, memory)
 * need nothing from util.c. */
static char *load_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *load_error(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fprintf(stderr, "%s: out of memory\n", program_invocation_short_name);
		exit(4);
	}
	return s;
}

/* dlsym() returns void *; ISO C has no conversion to function pointers,
 * so copy the bits (POSIX guarantees they fit). */
static int resolve(void *handle, const char *path, const char *name,
		   void *fn_out, size_t fn_size, char **err)
{
	dlerror();
	void *sym = dlsym(handle, name);
	const char *why = dlerror();
	if (!sym || why) {
		*err = load_error("%s: missing symbol %s%s%s "
				  "(was the library built by `ngcc-perf build`?)",
				  path, name, why ? ": " : "", why ? why : "");
		return -1;
	}
	memcpy(fn_out, &sym, fn_size);
	return 0;
}

#define RESOLVE(h, path, name, field, err) \
	resolve((h), (path), (name), &(field), sizeof(field), (err))

static int check_meta(const char *path, const struct ngcc_meta *meta, char **err)
{
	if (!meta) {
		*err = load_error("%s: ngcc_meta() returned NULL", path);
		return -1;
	}
	if (meta->magic != NGCC_ABI_MAGIC) {
		*err = load_error("%s: ngcc_meta() magic is 0x%08x, expected 0x%08x "
				  "(not an ngcc-perf candidate library)",
				  path, meta->magic, NGCC_ABI_MAGIC);
		return -1;
	}
	if (meta->abi_version != NGCC_ABI_VERSION) {
		*err = load_error("%s: ABI version %u, this program expects %d "
				  "(rebuild the candidate with `ngcc-perf build`)",
				  path, meta->abi_version, NGCC_ABI_VERSION);
		return -1;
	}
	return 0;
}

/* Pass 1 and the pass table of a key exchange (ngcc_kex_pass). */
static int resolve_kex_passes(struct candidate_lib *lib, const char *path, char **err)
{
	ngcc_kex_pass_lookup_fn lookup = NULL;
	if (RESOLVE(lib->handle, path, "ngcc_kex_pass1", lib->kex_pass1, err) ||
	    RESOLVE(lib->handle, path, "ngcc_kex_pass", lookup, err))
		return -1;
	for (int k = 2; k <= NGCC_KEX_MAX_PASSES; k++)
		lib->kex_pass[k] = lookup(k);
	return 0;
}

/* The operation forwarders of the library's type (runtime/ngcc_abi.h):
 * one case per type; a type without a case has none resolved yet. */
static int resolve_forwarders(struct candidate_lib *lib, const char *path, char **err)
{
	switch (lib->meta->type) {
	case NGCC_TYPE_KEM:
		return RESOLVE(lib->handle, path, "ngcc_kem_keygen", lib->kem_keygen, err) ||
		       RESOLVE(lib->handle, path, "ngcc_kem_enc", lib->kem_enc, err) ||
		       RESOLVE(lib->handle, path, "ngcc_kem_dec", lib->kem_dec, err);
	case NGCC_TYPE_SIG:
		return RESOLVE(lib->handle, path, "ngcc_sig_keygen", lib->sig_keygen, err) ||
		       RESOLVE(lib->handle, path, "ngcc_sig_sign", lib->sig_sign, err) ||
		       RESOLVE(lib->handle, path, "ngcc_sig_verify", lib->sig_verify, err);
	case NGCC_TYPE_KEX:
		return RESOLVE(lib->handle, path, "ngcc_kex_init_a", lib->kex_init_a, err) ||
		       RESOLVE(lib->handle, path, "ngcc_kex_init_b", lib->kex_init_b, err) ||
		       RESOLVE(lib->handle, path, "ngcc_kex_derive_a", lib->kex_derive_a, err) ||
		       RESOLVE(lib->handle, path, "ngcc_kex_derive_b", lib->kex_derive_b, err) ||
		       resolve_kex_passes(lib, path, err);
	case NGCC_TYPE_HASH:
		return RESOLVE(lib->handle, path, "ngcc_hash", lib->hash, err);
	default:
		return 0;
	}
}

/* ---- the library's machine, before dlopen ---------------------------------
 * dlopen of a library built for another machine fails with "cannot open
 * shared object file" or "wrong ELF class", which hides the cause (a
 * candidate compiler for the wrong target: NGCC_PERF_CC).  The ELF header
 * says it plainly. */

#if defined(__x86_64__)
#define OWN_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define OWN_MACHINE EM_AARCH64
#elif defined(__i386__)
#define OWN_MACHINE EM_386
#elif defined(__arm__)
#define OWN_MACHINE EM_ARM
#elif defined(__riscv)
#define OWN_MACHINE EM_RISCV
#endif
#define OWN_CLASS (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32)

static const char *machine_name(unsigned machine, unsigned elf_class)
{
	switch (machine) {
	case EM_X86_64:
		return elf_class == ELFCLASS32 ? "x32" : "x86-64";
	case EM_AARCH64:
		return elf_class == ELFCLASS32 ? "AArch64 ILP32" : "AArch64";
	case EM_386:
		return "i386";
	case EM_ARM:
		return "32-bit ARM";
	case EM_RISCV:
		return elf_class == ELFCLASS32 ? "RISC-V 32-bit" : "RISC-V 64-bit";
	case EM_PPC64:
		return "PowerPC 64-bit";
	case EM_S390:
		return "s390x";
	default:
		return NULL;
	}
}

static char *describe_machine(unsigned machine, unsigned elf_class)
{
	const char *name = machine_name(machine, elf_class);
	return name ? load_error("%s", name) : load_error("ELF machine %u", machine);
}

/* 0 if path is an ELF file for this program's machine and class (or cannot
 * be read: dlopen then says why); -1 with *err otherwise. */
static int check_machine(const char *path, char **err)
{
	unsigned char h[EI_NIDENT + 4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, h, sizeof h);
	close(fd);
	if (n < (ssize_t)sizeof h || memcmp(h, ELFMAG, SELFMAG))
		return 0; /* not ELF at all: dlopen says what it is */
	unsigned elf_class = h[EI_CLASS];
	unsigned machine = h[EI_DATA] == ELFDATA2MSB ? (unsigned)h[EI_NIDENT + 2] << 8 | h[EI_NIDENT + 3]
						     : (unsigned)h[EI_NIDENT + 3] << 8 | h[EI_NIDENT + 2];
#ifdef OWN_MACHINE
	if (machine == OWN_MACHINE && elf_class == OWN_CLASS)
		return 0;
	char *theirs = describe_machine(machine, elf_class);
	char *ours = describe_machine(OWN_MACHINE, OWN_CLASS);
	*err = load_error("%s is %s, this driver is %s: build the candidate with a compiler "
			  "for this machine (NGCC_PERF_CC, e.g. NGCC_PERF_CC=%s), then run "
			  "`ngcc-perf build` again", path, theirs, ours,
			  OWN_MACHINE == EM_AARCH64 ? "aarch64-linux-gnu-gcc" : "cc");
	free(theirs);
	free(ours);
	return -1;
#else
	(void)elf_class;
	(void)machine;
	return 0;
#endif
}

int candidate_load(const char *path, struct candidate_lib *lib, char **err)
{
	memset(lib, 0, sizeof *lib);
	*err = NULL;
	if (check_machine(path, err))
		return -1;
	lib->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib->handle) {
		const char *why = dlerror();
		size_t pl = strlen(path);
		/* dlerror() usually repeats the path: say it once. */
		if (why && !strncmp(why, path, pl) && !strncmp(why + pl, ": ", 2))
			why += pl + 2;
		*err = load_error("cannot load %s: %s", path,
				  why ? why : "unknown dlopen error");
		return -1;
	}
	ngcc_meta_fn meta_fn = NULL;
	if (RESOLVE(lib->handle, path, "ngcc_meta", meta_fn, err) ||
	    RESOLVE(lib->handle, path, "ngcc_seed", lib->seed, err))
		goto fail;
	lib->meta = meta_fn();
	if (check_meta(path, lib->meta, err))
		goto fail;
	if (resolve_forwarders(lib, path, err))
		goto fail;
	return 0;

fail:
	candidate_unload(lib);
	return -1;
}

void candidate_unload(struct candidate_lib *lib)
{
	if (lib->handle)
		dlclose(lib->handle);
	memset(lib, 0, sizeof *lib);
}
