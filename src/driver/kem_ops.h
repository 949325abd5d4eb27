/*
 * kem_ops.h — the KEM row of the child programs' operation interface
 * (driver/ops.h): buffers at API capacity + 64 bytes, the untimed setup
 * of docs/method.md §5.2 (enc on a fixed pk; dec on a fixed ct after an honest
 * decapsulation), single checked calls with lengths reset to capacity,
 * the timed loops and the output validation (R3).
 */
#ifndef NGCC_KEM_OPS_H
#define NGCC_KEM_OPS_H

#include "driver/ops.h"

extern const struct op_type kem_op_type;

#endif
