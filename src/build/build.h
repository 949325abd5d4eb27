/*
 * build.h — compile candidate instances into build/<ID>/lib<stem>.so
 * (docs/method.md §2.1, §8; docs/iccs.md §6.3).
 *
 * Per instance and flag profile: the listed sources, our ABI shim
 * (src/runtime/shim.c) and, when the package lacks its own copies, our ICCS
 * runtime (drng.c, auxfunc.c, sm3.c), all compiled with the profile's flags
 * into build/<ID>/obj/<stem>/<profile>/, then linked with
 * src/runtime/exports.map so only ngcc_* symbols are exported.
 *
 * The compiler runs with the workspace as its working directory and
 * workspace-relative paths, so the recorded command lines are relative;
 * paths into our runtime are recorded as <ngcc-perf>/src/runtime/….
 * Nothing shipped in a package is ever executed.
 */
#ifndef NGCC_BUILD_H
#define NGCC_BUILD_H

#include <jansson.h>

#include "method/flags.h"
#include "package/conf.h"

/* The first profile an instance is built with (guide, or guide-performance
 * for every variant beside the reference: optimized-*, additional). */
enum build_profile build_first_profile(const struct instance_conf *ic);

/* File stem: the label, plus the variant's tag ("+avx2", "+portable",
 * "+additional" ...: method/cpuext.h variant_tag) unless it ends so. */
char *build_stem(const struct instance_conf *ic);

/* Append the flags of the CPU extension the instance's code needs
 * (conf_cpu_ext: -mavx2, ...) to argv: every profile gets them. */
void build_ext_flags(const struct instance_conf *ic, struct strlist *argv);

/* What one build attempt (one profile) produced. */
struct build_outcome {
	const struct candidate_conf *c;   /* what was built (borrowed) */
	const struct instance_conf *ic;
	int ok;
	enum build_profile profile;
	char *library;           /* build/<ID>/lib<stem>.so, workspace-relative */
	char *error;             /* first error line (NULL when ok) */
	char *error_tail;        /* last lines of the failing command's output */
	json_t *compile_commands; /* array of argv arrays */
	json_t *link_command;    /* argv array, or null */
	int lto;                 /* an object holds LTO bytecode */
	const char *runtime_drng;    /* "ngcc-perf" or "package" */
	const char *runtime_auxfunc; /* "ngcc-perf" or "package" */
	char *log;               /* commands and compiler output of this attempt */
};

void build_outcome_free(struct build_outcome *o);

/*
 * Build one instance with one profile, synchronously (the KAT stage uses it
 * to rebuild with PROFILE_HARNESS_DEFAULT after a failed guide KAT).  The
 * library replaces build/<ID>/lib<stem>.so only on success.  The attempt is
 * appended to build/<ID>/<stem>.build.log.  Returns 0 when it built, 1 when
 * the compiler or linker failed (out->error says why), -1 on a system error.
 */
int build_instance(const char *workspace, const struct candidate_conf *c,
		   const struct instance_conf *ic, enum build_profile prof,
		   struct build_outcome *out);

/*
 * Fill the build fields of a build.json entry (evidence/build_json.h) from
 * a finished attempt: candidate, label, instance, variant, flags, library,
 * library_sha256, ELF facts, commands, compiler, lto, imports_allocator,
 * runtime, build_log, build_error.  A failed attempt sets kat = "BUILDFAIL"
 * and library = null; the other KAT fields are left to the caller.
 * 0, or -1 with *err (malloc'd).
 */
int build_record_outcome(const char *workspace, const struct candidate_conf *c,
			 const struct instance_conf *ic, json_t *entry,
			 const struct build_outcome *o, char **err);

/* The CPU fields of a build.json entry: cpu_extension, cpu_flags,
 * cpu_features_required and host_cpu (host/cpufeat.h). */
void build_record_cpu(json_t *entry, const struct instance_conf *ic);
/* The entry of an instance not compiled because its extension belongs to
 * another architecture (NEON code on x86-64): kat UNSUPPORTED_CPU, no
 * library, build_error = why. */
int build_record_unsupported(json_t *doc, const struct candidate_conf *c,
			     const struct instance_conf *ic, const char *why);

/* One instance of a multi-instance build and its final result. */
struct build_unit {
	const char *workspace;
	const struct candidate_conf *c;
	const struct instance_conf *ic;
	int forced_profile;           /* -1: first profile, then fallback */
	/* results: attempt[0] is the first profile, attempt[n_attempts - 1]
	 * the one that counts (harness-default after a failed guide build) */
	struct build_outcome attempt[2];
	int n_attempts;
	int done;
	void *priv;                   /* scheduler state */
};

/* The attempt that counts. */
const struct build_outcome *build_unit_final(const struct build_unit *u);

/*
 * Build all units, jobs compiler processes at a time (<= 0: online CPUs),
 * each with its first profile and, if that fails, once more with
 * harness-default (units with forced_profile >= 0: that profile only).
 * Initialise units with memset 0 and forced_profile = -1.  on_done (may be NULL) is called as each unit finishes.
 * Returns 0, or -1 on a system error.
 */
int build_units(struct build_unit *units, size_t n, int jobs,
		void (*on_done)(struct build_unit *u, void *arg), void *arg);
void build_unit_free(struct build_unit *u);

/*
 * Record a build_units() result in doc (build_json_load): the final
 * attempt's build fields; guide_result "BUILDFAIL" after a fallback; KAT
 * fields kept only when the library is byte-identical to the one they were
 * obtained with, reset otherwise.  0, or -1 with *err.
 */
int build_record_unit(json_t *doc, const struct build_unit *u, char **err);

/* 0 if our runtime sources (shim.c, exports.map, drng.c, auxfunc.c, sm3.c)
 * are found under ngcc_home()/src/runtime; else -1 with *err. */
int build_check_runtime(char **err);

/* First line of `<compiler> --version` (cached; the compiler of
 * method/toolchain.h); "unknown" if it cannot run. */
const char *build_compiler_version(void);
/* The machine the compiler builds for, `<compiler> -dumpmachine` (cached):
 * "x86_64-linux-gnu", "aarch64-linux-gnu"; "unknown" if it cannot run. */
const char *build_compiler_target(void);

#endif
