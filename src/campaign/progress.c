/* progress.c — see progress.h. */
#include "campaign/progress.h"
#include "util/util.h"

#include <stdio.h>
#include <string.h>

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

void progress_init(struct progress *p, int tty, const char *phase, int total,
		   double est_total)
{
	memset(p, 0, sizeof *p);
	p->mode = tty ? PROGRESS_TTY : PROGRESS_LINES;
	p->phase = phase;
	p->total = total;
	p->started = mono_now();
	p->est_total = est_total;
	if (total <= 0)
		return;
	char est[32];
	fmt_duration(est, sizeof est, est_total);
	fprintf(stderr, "%s: %d unit(s) to do%s%s%s\n", phase, total,
		est_total > 0 ? ", " : "", est_total > 0 ? est : "",
		est_total > 0 ? " by the plan's estimates (retried processes and our own work "
				"add to that; the ETA learns it from the units done)" : "");
}

void progress_init_said(struct progress *p, int tty, const char *phase, int total,
			const char *said)
{
	progress_init(p, tty, phase, 0, 0);
	p->total = total;
	fprintf(stderr, "%s: %s\n", phase, said);
}

double progress_eta(const struct progress *p)
{
	int left = p->total - p->n_done;
	double est_left = p->est_total - p->est_done;
	if (est_left < 0)
		est_left = 0;
	/* Nothing is known of what the plan leaves out (retries, start-up,
	 * evidence writes) before a unit has finished. */
	if (!p->n_done)
		return -1;
	/* What each finished unit took beyond its estimate, on average. */
	double beyond = (p->spent_done - p->est_done) / p->n_done;
	double eta = est_left + left * beyond;
	return eta < 0 ? 0 : eta;
}

void progress_unit(struct progress *p, int k, const char *id, const char *label,
		   const char *op)
{
	double now = mono_now();
	char el[32], eta[32] = "?";
	double left = progress_eta(p);
	p->unit_started = now;
	fmt_duration(el, sizeof el, now - p->started);
	if (left >= 0)
		fmt_duration(eta, sizeof eta, left);
	if (p->mode == PROGRESS_TTY) {
		fprintf(stderr, "\r\033[K%s [%d/%d] %s %s %s  elapsed %s  ETA %s", p->phase, k,
			p->total, id, label, op, el, eta);
		p->shown = 1;
	} else {
		fprintf(stderr, "%s [%d/%d] %s %s %s  elapsed %s  ETA %s\n", p->phase, k, p->total,
			id, label, op, el, eta);
	}
	fflush(stderr);
}

void progress_done(struct progress *p, double est)
{
	p->n_done++;
	p->est_done += est > 0 ? est : 0;
	if (p->unit_started > 0)
		p->spent_done += mono_now() - p->unit_started;
	p->unit_started = 0;
}

void progress_clear(struct progress *p)
{
	if (p->mode == PROGRESS_TTY && p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->shown = 0;
	}
}
