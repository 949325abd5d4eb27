/*
 * rundir.h — the run directory (method §11.1): its folders, the path of
 * every unit's file, attempts/ (non-complete files moved aside, at most 3
 * attempts per unit over all resumes) and the sweep of temporary files left
 * by dead writers.
 */
#ifndef NGCC_RUNDIR_H
#define NGCC_RUNDIR_H

#define RUNDIR_MAX_ATTEMPTS 3

/* Create <run>/{calibrate,records,attempts,locks} and sweep stale
 * "*.tmp.<pid>" files everywhere below <run>.  0, or -1 with a message. */
int rundir_prepare(const char *run);

/* <run>/<kind>/<cand>/<stem>.json, kind "records" or "calibrate". */
char *rundir_unit_path(const char *run, const char *kind, const char *cand,
		       const char *stem);
/* "<label>__<op>" */
char *rundir_stem(const char *label, const char *op);

/* How many earlier attempts of the unit are under attempts/<kind>/. */
int rundir_attempts(const char *run, const char *kind, const char *cand, const char *stem);
/* Move the unit's file to attempts/<kind>/<cand>/<stem>.<k>.json (k = next
 * free number, from 1).  Returns k, or -1 with errno. */
int rundir_move_to_attempts(const char *run, const char *kind, const char *cand,
			    const char *stem);
/* Path for a discarded (disturbed) process attempt:
 * attempts/disturbed/<cand>/<stem>.p<proc>.a<attempt>.json */
char *rundir_disturbed_path(const char *run, const char *cand, const char *stem,
			    int proc, int attempt);

/* Remove stale temporary files in dir and every folder below it. */
void rundir_sweep(const char *dir);

#endif
