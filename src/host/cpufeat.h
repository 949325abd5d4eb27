/*
 * cpufeat.h — the instruction-set features of this host, read before any
 * candidate code runs (issue #29): cpuid (with the OS's register-state
 * check, xgetbv) on x86-64, the kernel's HWCAP bits (getauxval) on AArch64.
 * `build` records them in build.json (host_cpu) beside what each variant
 * needs, and kat, measure, memory, profile and check refuse a variant whose
 * features the host lacks (status UNSUPPORTED_CPU) instead of letting it
 * die of SIGILL.
 *
 * NGCC_PERF_TEST_CPU_FEATURES replaces what was read, for the test suite
 * only (so the refusal can be tested on a host that has the feature):
 * "ARCH:feat,feat,..." or "feat,feat,..." (the real architecture); the
 * source is then "override" and every record says so.
 */
#ifndef NGCC_HOST_CPUFEAT_H
#define NGCC_HOST_CPUFEAT_H

#include <jansson.h>

#include "method/cpuext.h"
#include "util/util.h"

#define CPUFEAT_OVERRIDE_ENV "NGCC_PERF_TEST_CPU_FEATURES"

struct host_cpu {
	char *arch;              /* "x86_64", "aarch64", ... (uname machine) */
	struct strlist features; /* lower case: "avx2", "avx512f", "asimd", ... */
	const char *source;      /* "cpuid", "hwcap", "none", "override" */
};

/* This host's features, read once (the override applied). */
const struct host_cpu *host_cpu(void);
/* Parse an override value into hc (arch defaults to real_arch).  0, or -1
 * for an empty or malformed value. */
int host_cpu_parse_override(const char *value, const char *real_arch, struct host_cpu *hc);
void host_cpu_free(struct host_cpu *hc);

/* NULL when hc can run code needing ext; else why not (malloc'd), e.g.
 * "needs AVX-512 (avx512f avx512bw avx512dq avx512vl); this x86_64 host
 * (cpuid) lacks avx512bw" or "needs NEON, an aarch64 extension; this host
 * is x86_64". */
char *host_cpu_refusal(const struct host_cpu *hc, enum cpu_ext ext);
/* Does the refusal come from another architecture (nothing can be built)? */
int host_cpu_other_arch(const struct host_cpu *hc, enum cpu_ext ext);

/* {arch, source, features: [...]} for build.json and the records. */
json_t *host_cpu_json(const struct host_cpu *hc);

#endif
