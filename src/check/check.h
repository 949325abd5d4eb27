/*
 * check.h — the check stage (`ngcc-perf check [ID…]`, `campaign --check`):
 * correctness beyond the KAT, memory safety and constant time, per built
 * instance, each check in its own child process with resource limits and
 * a hard timeout that kills its process group:
 *
 *   functional  bin/ngcc-perf-check on the timed library: 1000 random-seed
 *               round trips with every call checked (driver/check/suite.h)
 *   sanitizers  the same suite by bin/ngcc-perf-check-asan on the instance
 *               rebuilt with AddressSanitizer and UBSan (build/twin.h)
 *   memcheck    valgrind memcheck of a short round trip (3 rounds) on the
 *               -g twin, inputs read-only during their calls, leaks counted
 *   consttime   valgrind memcheck on the -g twin with the DRNG wrapper: the
 *               secret key and every DRNG output undefined, public outputs
 *               declassified, so each finding is a branch or memory index
 *               that depends on a secret; the candidate's suppressions file
 *               candidates/<ID>/check.supp (valgrind format) hides reviewed
 *               findings, which are then counted as suppressed
 *
 * One record per instance and check, build/<ID>/check/<label>__<check>.json
 * (evidence/check_json.h); valgrind's XML, the sanitizer report and the
 * call-context page stay beside it in build/<ID>/check/raw/.  A complete
 * record is kept on a later run while its library, plan and suppressions
 * are unchanged (--redo runs it again).
 */
#ifndef NGCC_CHECK_CHECK_H
#define NGCC_CHECK_CHECK_H

#include "check/opts.h"

/* Defaults (all four checks, 1000 rounds, 1800 s, 2 compilers). */
void check_opts_init(struct check_opts *o, const char *workspace, int tty);
void check_opts_free(struct check_opts *o);

/* Run the checks.  Prints one CHECK line per instance and check, then a
 * summary.  Returns EXIT_OK when every record is complete and clean,
 * EXIT_FAILED when some has findings or did not complete, EXIT_INPUT for
 * a bad workspace or candidate or when nothing was checked (unless
 * none_is_ok), EXIT_SYSTEM on an error of our own. */
int check_phase(const struct check_opts *o);

#endif
