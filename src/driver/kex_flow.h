/*
 * kex_flow.h — the facts of an official key-exchange flow that the timing
 * row (kex_ops.c) and the check suite (check/kex.c) both follow
 * (docs/iccs.md §1.5, §4.4): the steps init_a, init_b, pass1 … pass<P>,
 * derive_a, derive_b and their names, and which return of a pass the
 * official flow accepts.
 *
 * Step s: 0 init_a, 1 init_b, 2 … P + 1 pass1 … pass<P>, P + 2 derive_a,
 * P + 3 derive_b.
 */
#ifndef NGCC_KEX_FLOW_H
#define NGCC_KEX_FLOW_H

#include "runtime/ngcc_abi.h"

#include <stddef.h>

/* kex_get_passes_num() when 1 … NGCC_KEX_MAX_PASSES, else 0 (no flow). */
unsigned kex_flow_passes(const struct ngcc_meta *m);
/* P + 4. */
unsigned kex_flow_steps(unsigned passes);
/* The step's operation key ("init_a", "pass2", …), static storage. */
const char *kex_flow_step_name(unsigned passes, unsigned s);
/* "m1" … "m16", static storage. */
const char *kex_flow_msg_name(unsigned k);
/* The pass a step is (1 … P), or 0 for init and derive. */
unsigned kex_flow_pass_of(unsigned passes, unsigned s);

/*
 * Pass k of P returned rc >= 0; next_defined: the library defines pass
 * k + 1.  1 ends the passes and must come at pass P; when the last
 * announced pass returns anything else the official flow still derives,
 * but only when no further pass exists and at least 3 passes ran (the
 * unmodified driver derives after pass 3 whatever it returned).  NULL
 * when the return is accepted, else why not (in buf).
 */
const char *kex_flow_pass_return_problem(unsigned k, unsigned passes, int rc, int next_defined,
					 char *buf, size_t cap);

#endif
