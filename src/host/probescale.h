/*
 * probescale.h — NGCC_PERF_HOST_PROBE_SCALE (docs/method.md §6.4): every
 * probe of the host — the clock probe's windows, the background probe's
 * windows, the pause between steady-clock probes and the counter's 100 ms
 * rate calibrations (§6.2, §10.3) — lasts this factor times its default
 * length.  Read once; 1 when unset, or (with a warning) when not a number
 * from 0.01 to 10.  The tool's own test suite sets it; a campaign whose
 * results count leaves it unset.
 */
#ifndef NGCC_HOST_PROBESCALE_H
#define NGCC_HOST_PROBESCALE_H

#define HOST_PROBE_SCALE_ENV "NGCC_PERF_HOST_PROBE_SCALE"
double host_probe_scale(void);
/* The factor in v (0.01 to 10): 0, else -1 with *scale untouched. */
int host_probe_scale_parse(const char *v, double *scale);
/* ms × host_probe_scale(), at least 1 ms. */
int host_probe_scaled_ms(int ms);

#endif
