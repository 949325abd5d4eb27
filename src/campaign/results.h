/*
 * results.h — the results table a measuring command prints when it ends
 * (measure, campaign) and `status --figures` prints for a run: one row per
 * complete timing record with the instance, the operation, the mean with
 * its standard deviation, the median, the coefficient of variation, the
 * operations per second and the unit (cycles of the named counter, or ns of
 * the monotonic clock when the record has no cycles).  The same text on a
 * terminal and in a log file.
 */
#ifndef NGCC_CAMPAIGN_RESULTS_H
#define NGCC_CAMPAIGN_RESULTS_H

#include <stdio.h>

#include "build/select.h"
#include "campaign/engine.h"

/* Print the table of run (absolute) to out: the complete records of the
 * instances and operations o selects (o->ids, o->ops; none: every record).
 * Returns the number of rows (0: a line says there is no figure yet), or -1
 * after an error message (a selector that matches nothing). */
int results_print(const struct engine_opts *o, const char *run, FILE *out);
/* The same for a selection already resolved (or selecting everything):
 * the measuring phase's own, so that it is not resolved again. */
int results_print_selected(const struct selection *sel, const char *run, FILE *out);

#endif
