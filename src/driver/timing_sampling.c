/* timing_sampling.c — see timing_sampling.h (docs/method.md §14 R11). */
#include "driver/timing_sampling.h"

#include <stdlib.h>
#include <string.h>

#include "method/sampling.h"

int sampling_take(struct op_ctx *k, struct counter *c, sampling_timed_fn timed,
		  double overhead_ns, volatile sig_atomic_t *interrupted, struct sampling_run *s)
{
	int per_call = !strcmp(ops_timing_scope(k), OPS_SCOPE_STEP);
	s->batch = sampling_batch(overhead_ns, s->call_ns, per_call);
	s->brackets = per_call ? s->batch : 1;
	s->done = 0;
	s->ns = calloc((size_t)s->samples, sizeof *s->ns);
	s->cycles = calloc((size_t)s->samples, sizeof *s->cycles);
	if (!s->ns || !s->cycles)
		return -1;
	for (long i = 0; i < s->samples; i++) {
		if (*interrupted)
			return 1;
		uint64_t cycles = 0, ns = 0;
		if (timed(k, s->batch, c, &cycles, &ns) != s->batch)
			return -1;
		s->ns[i] = ns;
		s->cycles[i] = c->kind == COUNTER_NONE ? 0 : cycles;
		s->done = i + 1;
	}
	return 0;
}

json_t *sampling_json(const struct sampling_run *s, const struct counter *c)
{
	json_t *j = json_object();
	json_t *ns = json_array(), *cy = json_array();
	for (long i = 0; i < s->done; i++) {
		json_array_append_new(ns, json_integer((json_int_t)s->ns[i]));
		if (c->kind != COUNTER_NONE)
			json_array_append_new(cy, json_integer((json_int_t)s->cycles[i]));
	}
	json_object_set_new(j, "samples", json_integer(s->samples));
	json_object_set_new(j, "call_ns", json_real(s->call_ns));
	json_object_set_new(j, "batch", json_integer(s->batch));
	json_object_set_new(j, "brackets_per_sample", json_integer(s->brackets));
	json_object_set_new(j, "batch_ns", ns);
	json_object_set_new(j, "batch_cycles", cy);
	return j;
}

void sampling_free(struct sampling_run *s)
{
	free(s->ns);
	free(s->cycles);
	s->ns = s->cycles = NULL;
}
