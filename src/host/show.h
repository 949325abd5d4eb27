/*
 * show.h — `check-host` (docs/method.md §3): run the host checks for a benchmark
 * CPU and print them with the environment summary, or as JSON.
 */
#ifndef NGCC_HOST_SHOW_H
#define NGCC_HOST_SHOW_H

/* cpu < 0: the highest-numbered CPU this process may use.  Prints to
 * stdout; returns an ngcc_exit code: 0 host ready, 1 problems found,
 * 4 the CPU affinity cannot be read. */
int host_check_show(int cpu, int as_json);

#endif
