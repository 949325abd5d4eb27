/*
 * counter_unit_json.c — the unit facts of a counter object (counter_unit.h):
 * how the PMU was read, and the frequencies that turn cntvct_el0 ticks into
 * what the records hold.  A file of its own, with nothing but jansson
 * calls, because the timing driver links it and its resident size is part
 * of the seed figures (docs/architecture.md).
 */
#include "host/counter_unit.h"

void counter_unit_json(const struct counter *c, json_t *j)
{
	if (c->kind == COUNTER_PERF)
		json_object_set_new(j, "read", json_string(c->user_page ? "user-space" : "event-fd"));
	if ((c->kind == COUNTER_CNTVCT || c->kind == COUNTER_PINNED) && c->counter_frequency_hz > 0)
		json_object_set_new(j, "counter_frequency_hz", json_real(c->counter_frequency_hz));
	if (c->kind == COUNTER_PINNED)
		json_object_set_new(j, "pinned_clock_hz", json_real(c->pinned_clock_hz));
}
