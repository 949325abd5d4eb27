/*
 * progress.h — progress of a phase that works unit by unit (calibrate,
 * measure, the memory pass, profile).  On a terminal, one status line
 * redrawn with \r on stderr:
 *     measure [3/12] <ID> <label> <op>  elapsed 1m02s  ETA 3m10s
 * otherwise (stderr piped to a log) the same text as one plain line per
 * unit, so a log shows where a long phase is.
 *
 * The ETA is the plan's estimate of the units left plus, per unit left,
 * the time the finished units took beyond their estimates (process start,
 * evidence writes, environment checks): an additive correction, so cheap
 * units run first cannot inflate the estimate of the expensive ones.
 */
#ifndef NGCC_PROGRESS_H
#define NGCC_PROGRESS_H

enum progress_mode {
	PROGRESS_LINES,     /* a plain line per unit (not a terminal) */
	PROGRESS_TTY,       /* one live line */
};

struct progress {
	enum progress_mode mode;
	const char *phase;
	int total;
	double started;     /* mono_now() at the start */
	double est_total;   /* estimated seconds of all units (0: unknown) */
	double est_done;    /* estimated seconds of the units finished */
	int n_done;         /* units finished */
	double spent_done;  /* wall seconds the finished units took */
	double unit_started;
	int shown;          /* a live line is on screen */
};

/* tty: stderr is a terminal.  phase names the lines ("measure").  Says
 * how many units there are to do (and the plan's estimate of them). */
void progress_init(struct progress *p, int tty, const char *phase, int total,
		   double est_total);
/* The same, for a phase whose progress steps are not the units it
 * counts (profile: one step per instance relink, a record per operation):
 * says `<phase>: <said>` instead of the unit count. */
void progress_init_said(struct progress *p, int tty, const char *phase, int total,
			const char *said);
/* Unit k (1-based) starts. */
void progress_unit(struct progress *p, int k, const char *id, const char *label,
		   const char *op);
/* The unit finished; est is its plan estimate (0: none). */
void progress_done(struct progress *p, double est);
/* Clear the live line (before other output and at the end). */
void progress_clear(struct progress *p);

/* Seconds still to go after the finished units, from the fields above;
 * < 0 before the first unit has finished. */
double progress_eta(const struct progress *p);

#endif
