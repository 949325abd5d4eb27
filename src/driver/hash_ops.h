/*
 * hash_ops.h — the hash row of the child programs' operation interface
 * (driver/ops.h): hash_<L> hashes the fixed L-byte message of
 * docs/method.md §5.2 (byte[i] = (131 i + L) mod 256) with the library's
 * DIGEST_BIT_LENGTH, into a digest buffer followed by a guard zone.  The
 * first call in setup gives the reference digest; validation (R3) checks
 * that the last call gave it again, that the guard zone and the message
 * are untouched.  The ICCS baseline's instances are hash libraries too.
 */
#ifndef NGCC_HASH_OPS_H
#define NGCC_HASH_OPS_H

#include "driver/ops.h"

extern const struct op_type hash_op_type;

#endif
