/*
 * procmem.h — this process's memory facts for the child programs
 * (docs/method.md §8): resident set from /proc/self/statm, the high-water mark
 * VmHWM and its reset through /proc/self/clear_refs (R5).
 */
#ifndef NGCC_PROCMEM_H
#define NGCC_PROCMEM_H

/* Resident bytes now, or -1. */
long long procmem_resident_bytes(void);
/* VmHWM in KiB, or -1. */
long long procmem_hwm_kib(void);
/* Reset VmHWM to the current RSS (write "5" to clear_refs).  0, or the
 * errno value when the kernel refuses. */
int procmem_reset_hwm(void);

#endif
