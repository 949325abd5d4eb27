/*
 * counter_unit.c — what a counter object's figures are, in the words of the
 * pages and check-host (counter_unit.h).  The facts themselves are written
 * by counter_unit_json.c, apart, so that the timing driver links only that
 * (its resident size is part of the seed figures).
 */
#include "host/counter_unit.h"

#include <string.h>

#include "evidence/json.h"
#include "util/util.h"

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
