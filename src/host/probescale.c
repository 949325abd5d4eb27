/*
 * probescale.c — the host probes' length factor (host/probescale.h).  The
 * drivers link it through the counter's calibration, so it uses the C
 * library alone: util/ would bring all of util.o into the timing driver,
 * whose RSS is part of the seed figures.
 */
#include "host/probescale.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int host_probe_scale_parse(const char *v, double *scale)
{
	char *end = NULL;
	double f = strtod(v, &end);
	if (end == v || *end || !(f >= 0.01 && f <= 10))
		return -1;
	*scale = f;
	return 0;
}

double host_probe_scale(void)
{
	static double scale;
	if (scale > 0)
		return scale;
	scale = 1;
	const char *v = getenv(HOST_PROBE_SCALE_ENV);
	if (v && *v && host_probe_scale_parse(v, &scale))
		fprintf(stderr, "%s: warning: %s=%s: expected a factor from 0.01 to 10; the host "
			"probes keep their default lengths\n", program_invocation_short_name,
			HOST_PROBE_SCALE_ENV, v);
	return scale;
}

int host_probe_scaled_ms(int ms)
{
	long scaled = (long)(ms * host_probe_scale() + 0.5);
	return scaled < 1 ? 1 : (int)scaled;
}
