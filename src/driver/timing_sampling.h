/*
 * timing_sampling.h — the timing driver's sampling mode (docs/method.md §14
 * R11): after setup, the bracket overhead (R8) and the warm-ups, S samples
 * of B calls each, every sample bracketed by the counter and the clock as a
 * trial is, so that the sampling pass gets per-call figures without the
 * counter ever being read per call inside a trial (§6.5).  B is chosen here
 * (method/sampling.h) from this process's own bracket overhead and the
 * per-call time the orchestrator passes (the timing record's mean).
 *
 * Linked into bin/ngcc-perf-driver only (Makefile: the other child programs
 * do not link the archive this needs).
 */
#ifndef NGCC_DRIVER_TIMING_SAMPLING_H
#define NGCC_DRIVER_TIMING_SAMPLING_H

#include <jansson.h>
#include <signal.h>
#include <stdint.h>

#include "driver/ops.h"
#include "host/counter.h"

/* The driver's bracketed calls: `calls` calls in one bracket (or each in
 * its own, summed); returns the calls that succeeded. */
typedef long (*sampling_timed_fn)(struct op_ctx *k, long calls, struct counter *c,
				  uint64_t *cycles, uint64_t *ns);

struct sampling_run {
	long samples;               /* asked for */
	double call_ns;             /* the per-call time B is chosen for */
	long batch;                 /* calls per sample */
	long brackets;              /* brackets per sample: 1, or batch (per_call_step) */
	long done;                  /* samples taken */
	uint64_t *ns, *cycles;      /* per sample (cycles 0 without a counter) */
};

/* Choose the batch and take the samples.  overhead_ns: this process's
 * median empty bracket (R8).  0 when every sample was taken, 1 when a
 * signal stopped it between samples, -1 on an operation failure or when
 * the tables cannot be allocated. */
int sampling_take(struct op_ctx *k, struct counter *c, sampling_timed_fn timed,
		  double overhead_ns, volatile sig_atomic_t *interrupted, struct sampling_run *s);
/* The result's "samples" object: {samples, call_ns, batch, brackets_per_sample,
 * batch_ns[], batch_cycles[]} (batch_cycles empty without a counter). */
json_t *sampling_json(const struct sampling_run *s, const struct counter *c);
void sampling_free(struct sampling_run *s);

#endif
