/* progress.c — see progress.h. */
#include "campaign/progress.h"
#include "util/util.h"

#include <stdio.h>
#include <string.h>

void progress_init(struct progress *p, int enabled, int total, double est_total)
{
	memset(p, 0, sizeof *p);
	p->enabled = enabled;
	p->total = total;
	p->started = mono_now();
	p->est_total = est_total;
}

static void fmt_duration(char *out, size_t n, double s)
{
	long t = s < 0 ? 0 : (long)(s + 0.5);
	if (t >= 3600)
		snprintf(out, n, "%ldh%02ldm", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(out, n, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(out, n, "%lds", t);
}

void progress_unit(struct progress *p, int k, const char *id, const char *label,
		   const char *op)
{
	if (!p->enabled)
		return;
	double elapsed = mono_now() - p->started;
	char el[32], eta[32] = "?";
	fmt_duration(el, sizeof el, elapsed);
	/* ETA: scale the time spent by the estimated work left. */
	if (p->est_total > 0 && p->est_done > 0)
		fmt_duration(eta, sizeof eta,
			     elapsed * (p->est_total - p->est_done) / p->est_done);
	else if (p->est_total > 0)
		fmt_duration(eta, sizeof eta, p->est_total);
	fprintf(stderr, "\r\033[K[%d/%d] %s %s %s elapsed %s ETA %s", k, p->total,
		id, label, op, el, eta);
	fflush(stderr);
	p->shown = 1;
}

void progress_done(struct progress *p, double est)
{
	p->est_done += est > 0 ? est : 0;
}

void progress_clear(struct progress *p)
{
	if (p->enabled && p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->shown = 0;
	}
}
