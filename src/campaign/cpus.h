/*
 * cpus.h — benchmark and housekeeping CPUs (docs/method.md §13).
 *
 * A benchmark CPU is taken with its host-wide lock (lock_cpu), so one
 * measuring process runs per CPU across every run and shard on the host.
 * `--cpu auto` takes the highest allowed CPU whose lock is free at that
 * moment — how shards started together, or Slurm tasks confined to a CPU
 * set, find a CPU each.  The orchestrator itself (and what it runs besides
 * the timed drivers) stays on the housekeeping CPUs: the CPUs it was
 * allowed at start, minus its own benchmark CPU and every CPU another
 * measuring process holds now; with none left it shares the allowed CPUs
 * (minus its own benchmark CPU when that leaves any).  The set is
 * recomputed before each unit, as shards start and end.
 */
#ifndef NGCC_CPUS_H
#define NGCC_CPUS_H

#include <jansson.h>
#include <sched.h>

#define CPU_AUTO (-2)

/* The CPUs this process was allowed when first asked (before any pinning
 * of ours). */
void cpus_allowed(cpu_set_t *set);

/* Take benchmark CPU `cpu` (CPU_AUTO: the highest allowed free one; when
 * every one is busy, wait for the highest), waiting while another process
 * measures there (said on stderr, prefixed with phase, naming the holder's
 * pid and command).  Returns the lock descriptor and sets *taken, or -1
 * with a message (without one when Ctrl-C ended the wait). */
int cpus_take_benchmark(int cpu, const char *phase, int *taken);

/* The allowed CPUs whose host-wide lock is held now (ours included). */
void cpus_busy(cpu_set_t *busy);

/* Pin this process to the housekeeping CPUs of benchmark CPU `bench`. */
void cpus_pin_housekeeping(int bench);

/* Ascending JSON array of the CPUs in set. */
json_t *cpus_json(const cpu_set_t *set);

#endif
