/*
 * conf.h — candidates/<ID>/candidate.conf, the editable per-candidate
 * manifest written by `add` and read by `build` and every later phase.
 *
 * Format (INI-like, UTF-8, '#' comments, values run to end of line so paths
 * may contain spaces; list keys repeat, one value per line):
 *
 *   [candidate]
 *   id = kem-27
 *   algorithm = NTRE
 *   type = kem
 *   package = NTRE Submission.zip
 *
 *   [instance NTRE-128]
 *   type = kem
 *   variant = reference
 *   cpu_extension = avx2          (optional: none | avx2 | avx512 | neon)
 *   instance = NTRE_128
 *   source_dir = Implementations/Reference_Implementation/NTRE-128
 *   api_header = KEM_AlgorithmInstance.h
 *   source = KEM_AlgorithmInstance.c
 *   source = src/poly.c
 *   include = .
 *   include = src
 *   cflag = -DFOO
 *   define = BAR=1
 *   lib = -lm
 *   own_drng = no
 *   own_auxfunc = no
 *   kat_reference = Test_Vectors/KAT_KEM_NTRE_128.txt
 *   enabled = yes
 *
 * A patch given to `add --patch` (package/patch.h) is recorded, after
 * [candidate] and before the instances, as
 *
 *   [patch fix-include.diff]        (the file in candidates/<ID>/patches/)
 *   sha256 = 3f2a…                  (64 hex digits)
 *   touches = Implementations/Reference_Implementation/NTRE-128/poly.c
 *
 * with one touches line per file the patch changes, created or deleted.
 *
 * A hash instance has no kat_reference; instead
 *
 *   digest_bits = 256
 *   kat_file = Test_Vectors/KAT_2_12_FOO_256.txt     (one line per file)
 *
 * source_dir, kat_reference and kat_file are relative to
 * candidates/<ID>/source/; sources and include dirs are relative to
 * source_dir.
 */
#ifndef NGCC_CONF_H
#define NGCC_CONF_H

#include "method/cpuext.h"
#include "util/util.h"

struct instance_conf {
	char *label;        /* instance folder name: lib<label>.so */
	char *type;         /* kem | sign | kex | hash */
	char *variant;      /* reference | optimized-<ext> | additional | iccs-baseline */
	char *cpu_extension; /* none | avx2 | avx512 | neon; NULL: the variant's */
	char *instance;     /* ALGORITHM_INSTANCE (may be NULL if not found) */
	char *source_dir;
	char *api_header;   /* may be NULL */
	struct strlist sources;
	struct strlist include_dirs;
	struct strlist cflags;
	struct strlist defines;
	struct strlist libs;
	int own_drng;       /* the package's own drng.c is in sources */
	int own_auxfunc;    /* the package's own auxfunc.c is in sources */
	char *kat_reference; /* may be NULL */
	int digest_bits;    /* hash: DIGEST_BIT_LENGTH; 0 = not known */
	struct strlist kat_files; /* hash: the submitted KAT files */
	int enabled;
	struct strlist origins;   /* written as '# ' comment lines: where `add`
				     found the defines and libs (not read back) */
};

/* A patch applied by `add` (package/patch.h). */
struct patch_conf {
	char *file;         /* its name in candidates/<ID>/patches/ */
	char *sha256;       /* 64 lowercase hex digits */
	struct strlist touches; /* the files it patched, relative to source/ */
};

struct candidate_conf {
	char *id;
	char *algorithm;
	char *type;
	char *package;      /* what the user gave to `add` (basename) */
	struct instance_conf *inst;
	size_t n_inst;
	struct patch_conf *patches; /* in the order they were applied */
	size_t n_patches;
};

/* A file name a patch may be kept under in patches/ and named by in a
 * [patch FILE] header: [A-Za-z0-9._+-], not starting with '.', at most
 * 128 bytes. */
int conf_patch_name_valid(const char *name);

/* 0 on success; -1 with *err (malloc'd, "path:line: what") otherwise. */
int conf_read(const char *path, struct candidate_conf *out, char **err);
/* Write atomically, with explanatory comments. 0 or -1 (errno). */
int conf_write(const char *path, const struct candidate_conf *c);
void conf_free(struct candidate_conf *c);
/* The CPU extension the instance's code needs: cpu_extension, else the one
 * its variant implies (optimized-avx2: AVX2), else none. */
enum cpu_ext conf_cpu_ext(const struct instance_conf *ic);
struct instance_conf *conf_add_instance(struct candidate_conf *c, const char *label);
struct instance_conf *conf_find_instance(struct candidate_conf *c, const char *label);
/* Append to out the candidate.conf keys whose values differ between two
 * instances: variant, instance, source_dir, api_header, source, include,
 * cflag, define, lib, kat_reference, kat_file, enabled, own_drng,
 * own_auxfunc, in that order.  Callers skip the keys they do not report. */
void conf_instance_differences(const struct instance_conf *a, const struct instance_conf *b,
			       struct strlist *out);

#endif
