/*
 * op_types.c — the types the measuring child programs can run: one row per
 * type, looked up by the library's ngcc_meta type (driver/ops.h).  A new
 * type includes its header and adds its row here.
 */
#include "driver/hash_ops.h"
#include "driver/kem_ops.h"
#include "driver/kex_ops.h"
#include "driver/ops.h"
#include "driver/sig_ops.h"

const struct op_type *const op_types[] = {
	&kem_op_type,
	&sig_op_type,
	&kex_op_type,
	&hash_op_type,
	NULL,
};
