/*
 * toolchain.h — the compilers that compile candidate code (docs/method.md,
 * "Compilers"): `cc` and `c++` unless NGCC_PERF_CC / NGCC_PERF_CXX name
 * others, e.g. aarch64-linux-gnu-gcc for the libraries an AArch64 driver
 * loads, or clang.  One setting for every place that compiles candidate
 * code (build, the check twins, the profiling relink), recorded in
 * build.json with the machine the compiler targets.
 */
#ifndef NGCC_METHOD_TOOLCHAIN_H
#define NGCC_METHOD_TOOLCHAIN_H

/* The C compiler's command (one program name or path, no arguments). */
const char *toolchain_cc(void);
/* The C++ compiler's command. */
const char *toolchain_cxx(void);
/* NULL if both settings are usable, else why not (static text). */
const char *toolchain_problem(void);

#endif
