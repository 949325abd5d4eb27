/*
 * rundir.h — the run directory (docs/method.md §11.1): its folders, the path of
 * every unit's file, attempts/ (non-complete files moved aside, at most 3
 * attempts per unit over all resumes) and the sweep of temporary files left
 * by dead writers.
 */
#ifndef NGCC_RUNDIR_H
#define NGCC_RUNDIR_H

#include <jansson.h>

#include "evidence/unitfile.h"

#define RUNDIR_MAX_ATTEMPTS 3

/* Create <run>/{calibrate,records,attempts,locks} and sweep stale
 * "*.tmp.<pid>" files everywhere below <run>.  0, or -1 with a message. */
int rundir_prepare(const char *run);

/* A run directory being resumed may have been changed by someone else
 * (docs/security.md): each symbolic link or special file anywhere in it
 * is named in an error (phase: "measure", ...), and the phase must not
 * start (-1); 0 when there is none (or run does not exist yet). */
int rundir_refuse_unusual(const char *run, const char *phase);

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

/*
 * The resume rule (docs/method.md §11.2), one for every kind of unit file —
 * calibrations, timing records, memory records and profiles; the rule and
 * each kind's fingerprint are written out in docs/architecture.md:
 *
 *   missing                      run
 *   unreadable or corrupt        warned about by path, then as not complete
 *   not complete                 moved to attempts/<kind>/ and run again,
 *                                unless that would be attempt 4: given up
 *   complete, other inputs       refused unless --redo-stale (then moved
 *   (stale)                      and run); kinds with stale_redone set are
 *                                moved and run without it
 *   complete, current            kept
 */
enum resume_action {
	RESUME_RUN,       /* run the unit (any old file is under attempts/ now) */
	RESUME_KEEP,      /* keep the complete, current file (*doc) */
	RESUME_GIVE_UP,   /* attempts exhausted: the unit fails (*doc, NULL if corrupt; *why) */
	RESUME_STALE,     /* refused without --redo-stale (*why) */
};

struct resume_kind {
	const char *dir;                  /* "calibrate", "records", "memory", "profile" */
	const struct unit_format *format; /* schema and fingerprint (evidence/) */
	int stale_redone;                 /* derived files: a changed input means redo */
};

/* Decide for the unit <run>/<dir>/<cand>/<stem>.json; fp is the format's
 * fingerprint context.  *doc and *why (may be NULL) as described above. */
enum resume_action rundir_resume(const char *run, const struct resume_kind *k,
				 const char *cand, const char *stem, const void *fp,
				 int redo_stale, json_t **doc, char **why);

/* The same decision without acting on it (nothing is moved, nothing
 * printed; --redo-stale not given): what the next run of the phase will
 * do with the unit, for `status`.  *state gets the file's state. */
enum resume_action rundir_resume_peek(const char *run, const struct resume_kind *k,
				      const char *cand, const char *stem, const void *fp,
				      enum unit_state *state, char **why);

/* Remove stale temporary files in dir and every folder below it. */
void rundir_sweep(const char *dir);

#endif
