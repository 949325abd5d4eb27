/*
 * kex_ops.h — the key-exchange row of the child programs' operation
 * interface (driver/ops.h, docs/method.md §5.2).  Operations: `exchange`, the
 * whole official flow (init_a, init_b, the passes until one returns 1,
 * derive_a, derive_b, the secrets compared) timed as one call; and each
 * step alone — init_a, init_b, pass1 … pass<P> (P = kex_get_passes_num()),
 * derive_a, derive_b — whose timed call is that step of a whole flow, the
 * earlier steps done before and the later ones after it, untimed
 * (timing_scope per_call_step).  Setup is one honest exchange whose
 * secrets must agree.
 *
 * Lengths as the pitfalls of the interface want them: every length
 * out-param is preset before each call (key, state and secret buffers to
 * their getter value, messages to 0); a party's state length is then
 * what its previous call wrote, in and out, and what derive gets by
 * value.
 */
#ifndef NGCC_KEX_OPS_H
#define NGCC_KEX_OPS_H

#include "driver/ops.h"

extern const struct op_type kex_op_type;

#endif
