/*
 * counter_unit.c — the unit facts of a counter object (counter_unit.h):
 * how the PMU was read, and the frequencies that turn cntvct_el0 ticks
 * into what the records hold.
 */
#include "host/counter_unit.h"

#include <string.h>

#include "evidence/json.h"
#include "util/util.h"

void counter_unit_json(const struct counter *c, json_t *j)
{
	if (c->kind == COUNTER_PERF)
		json_object_set_new(j, "read", json_string(c->user_page ? "user-space" : "event-fd"));
	if ((c->kind == COUNTER_CNTVCT || c->kind == COUNTER_PINNED) && c->counter_frequency_hz > 0)
		json_object_set_new(j, "counter_frequency_hz", json_real(c->counter_frequency_hz));
	if (c->kind == COUNTER_PINNED)
		json_object_set_new(j, "pinned_clock_hz", json_real(c->pinned_clock_hz));
}

int counter_name_counts_ticks(const char *name)
{
	return strcmp(name, "perf-user-cycles") && strcmp(name, "pinned-clock-cycles") &&
	       strcmp(name, "none");
}

char *counter_unit_text(const json_t *counter)
{
	const char *name = jget_str(counter, "name", "none");
	const char *read = jget_str(counter, "read", "");
	double frq = jget_real(counter, "counter_frequency_hz", 0);
	double pinned = jget_real(counter, "pinned_clock_hz", 0);

	if (!strcmp(name, "perf-user-cycles") && !strcmp(read, "user-space"))
		return xstrdup("core cycles from the PMU, read in user space");
	if (!strcmp(name, "pinned-clock-cycles") && pinned > 0 && frq > 0)
		return xasprintf("core cycles converted from cntvct_el0 at the pinned %.2f GHz clock, "
				 "cntvct_el0 at %.6g MHz", pinned / 1e9, frq / 1e6);
	if (!strcmp(name, "cntvct") && frq > 0)
		return xasprintf("reference ticks of cntvct_el0 at %.6g MHz, not core cycles", frq / 1e6);
	return NULL;
}
