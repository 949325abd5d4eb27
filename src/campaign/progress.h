/*
 * progress.h — one status line on a terminal while units run:
 * "[k/N] <ID> <label> <op> elapsed 1m02s ETA 3m10s", redrawn with \r on
 * stderr.  Quiet when stderr is not a terminal.
 */
#ifndef NGCC_PROGRESS_H
#define NGCC_PROGRESS_H

struct progress {
	int enabled;
	int total;
	double started;     /* mono_now() at the start */
	double est_total;   /* estimated seconds of all units (0: unknown) */
	double est_done;    /* estimated seconds of the units finished */
	int shown;          /* a line is on screen */
};

void progress_init(struct progress *p, int enabled, int total, double est_total);
/* Unit k (1-based) starts. */
void progress_unit(struct progress *p, int k, const char *id, const char *label,
		   const char *op);
/* Unit finished; est is its estimate (adds to est_done). */
void progress_done(struct progress *p, double est);
/* Clear the line (before other output and at the end). */
void progress_clear(struct progress *p);

#endif
