/*
 * kex_flow.h — the facts of an official key-exchange flow that the timing
 * row (kex_ops.c) and the check suite (check/kex.c) both follow
 * (docs/iccs.md §1.5, §4.4): the steps init_a, init_b, pass1 … pass<P>,
 * derive_a, derive_b and their names, which libraries can run it, and
 * which return of a pass the official flow accepts.
 *
 * Step s: 0 init_a, 1 init_b, 2 … P + 1 pass1 … pass<P>, P + 2 derive_a,
 * P + 3 derive_b.
 */
#ifndef NGCC_KEX_FLOW_H
#define NGCC_KEX_FLOW_H

#include "driver/loader.h"
#include "runtime/ngcc_abi.h"

#include <stddef.h>

/* kex_get_passes_num() when 1 … NGCC_KEX_MAX_PASSES, else 0 (no flow). */
unsigned kex_flow_passes(const struct ngcc_meta *m);
/* Why lib's flow cannot be run (in buf): kex_get_passes_num() outside
 * 1 … NGCC_KEX_MAX_PASSES, a zero secret or message length, or one of
 * pass2 … pass<P> undefined; NULL when it can. */
const char *kex_flow_unusable(const struct candidate_lib *lib, char *buf, size_t cap);
/* P + 4. */
unsigned kex_flow_steps(unsigned passes);
/* The step's operation key ("init_a", "pass2", …), static storage. */
const char *kex_flow_step_name(unsigned passes, unsigned s);
/* "m1" … "m16", static storage. */
const char *kex_flow_msg_name(unsigned k);
/* The pass a step is (1 … P), or 0 for init and derive. */
unsigned kex_flow_pass_of(unsigned passes, unsigned s);

/*
 * Pass k of P of lib returned rc >= 0.  1 ends the passes and must come at pass P; when the last
 * announced pass returns anything else the official flow still derives,
 * but only when no further pass exists and at least 3 passes ran (the
 * unmodified driver derives after pass 3 whatever it returned).  NULL
 * when the return is accepted, else why not (in buf).
 */
const char *kex_flow_pass_return_problem(const struct candidate_lib *lib, unsigned k,
					 unsigned passes, int rc, char *buf, size_t cap);

#endif
