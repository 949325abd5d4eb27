/*
 * spin.h — busy user-mode work for the counter calibration, the clock
 * probe and the background probe (background.c): the windows must be spent
 * in user mode, since perf-user-cycles excludes the kernel and
 * clock_gettime may be a system call in a VM.
 */
#ifndef NGCC_HOST_SPIN_H
#define NGCC_HOST_SPIN_H

#define COUNTER_SPIN_CHUNK 4096u /* iterations between clock reads (µs scale) */

void counter_busy_spin(unsigned iterations);

#endif
