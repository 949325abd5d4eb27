/*
 * counter_unit.h — what a counter's figures are, as records and the
 * environment block say it (docs/method.md §6, §11.5): the facts beside
 * the counter's name that give its unit on AArch64.
 */
#ifndef NGCC_HOST_COUNTER_UNIT_H
#define NGCC_HOST_COUNTER_UNIT_H

#include <jansson.h>

#include "host/counter.h"

/* Adds to a counter object (a driver's result, the environment block):
 * "read" ("user-space" or "event-fd") for perf-user-cycles,
 * "counter_frequency_hz" (cntfrq_el0) for cntvct and pinned-clock-cycles,
 * and "pinned_clock_hz" for pinned-clock-cycles.  Nothing else. */
void counter_unit_json(const struct counter *c, json_t *j);

/* Does the counter of this name count reference ticks (tsc-fenced,
 * cntvct), rather than core cycles (perf-user-cycles, pinned-clock-cycles)
 * or nothing (none)? */
int counter_name_counts_ticks(const char *name);

/* The unit of a counter object's figures where the object says more than
 * its name (the facts above), as pages and check-host word it:
 *   "core cycles from the PMU, read in user space"
 *   "core cycles converted from cntvct_el0 at the pinned 2.71 GHz clock,
 *    cntvct_el0 at 24 MHz"
 *   "reference ticks of cntvct_el0 at 62.5 MHz, not core cycles"
 * NULL when the object has no such facts (every x86-64 counter, the PMU
 * read through the event's fd): the name alone says it.  Caller frees. */
char *counter_unit_text(const json_t *counter);

#endif
