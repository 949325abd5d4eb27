/*
 * sig_ops.h — the signature row of the child programs' operation
 * interface (driver/ops.h, docs/method.md §5.2): keygen; sign of the fixed
 * 64-byte message, error returns retried (up to SIG_SIGN_RETRIES times,
 * timed and counted) and up to SIG_EXCESS_MAX bytes over the API's
 * maximum tolerated (the largest excess recorded); verify of a fixed
 * honest triple, rejections counted.  The memory pass also signs
 * SIG_OBSERVED_SIGNATURES times to observe the signature lengths.
 */
#ifndef NGCC_SIG_OPS_H
#define NGCC_SIG_OPS_H

#include "driver/ops.h"

#define SIG_MESSAGE_BYTES 64
#define SIG_SIGN_RETRIES 64
#define SIG_EXCESS_MAX 4096
#define SIG_HONEST_TRIES 16
#define SIG_HONEST_TWEAKS 16
#define SIG_OBSERVED_SIGNATURES 100

extern const struct op_type sig_op_type;

#endif
