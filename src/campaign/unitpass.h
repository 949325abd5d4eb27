/*
 * unitpass.h — the loop the passes after the timing records share: the
 * memory pass (memory.c), the per-call sampling pass (sampling.c, R11) and
 * the input-pool pass (pool.c, R2).  Every unit is first classified (does it
 * get a record at all; the resume rule of campaign/rundir.h), so that the
 * progress line counts only what will run; then each unit to run gets its
 * child process, its record written atomically, one line on stdout and its
 * place in the tally.  A pass supplies only what differs (unit_pass_ops).
 */
#ifndef NGCC_CAMPAIGN_UNITPASS_H
#define NGCC_CAMPAIGN_UNITPASS_H

#include <jansson.h>

#include "campaign/engine.h"
#include "campaign/progress.h"
#include "campaign/rundir.h"
#include "proc/spawn.h"

struct unit_pass {
	struct engine *e;
	void *ctx;                  /* the pass's own state, or NULL */
	struct tally t;
	int refused;                /* the environment changed: stop (R10) */
	struct progress progress;
	int k;                      /* units started */
};

struct unit_pass_ops {
	const char *word;                   /* "memory", "sampling", "pool": messages */
	const struct resume_kind *resume;   /* the folder and its format */
	/* The unit's inputs (its complete timing record, its plan), or NULL when
	 * the unit gets no record of this pass; *fp: the format's fingerprint
	 * context for rundir_resume(), valid while the inputs live. */
	void *(*prepare)(struct unit_pass *ps, struct unit *u, const void **fp);
	/* One child process; the unit's new record (never NULL). */
	json_t *(*run)(struct unit_pass *ps, struct unit *u, void *inputs);
	void (*print)(const struct unit *u, const json_t *rec);
	void (*release)(void *inputs);
	/* Optional: called once n, the number of units to run, is known. */
	void (*before)(struct unit_pass *ps, int n);
};

void unit_pass_run(struct unit_pass *ps, const struct unit_pass_ops *ops);

/* A pass record's "process" object: {status, exit_code, command, wall_s,
 * error, stderr_tail, strays_killed} of its child (r NULL: not started). */
json_t *unit_pass_process_json(const struct spawn_res *r, json_t *command, const char *status,
			       const char *detail);

/* A pass's child process: started and ended (UTC), the load averages around
 * it, and its fd-3 JSON result (NULL when none or not started). */
struct pass_child {
	char started[32], ended[32];
	json_t *load_start, *load_end;
	json_t *result;
	struct spawn_res res;       /* valid when ran */
	int ran;                    /* 0: could not be started */
};
struct child_cmd;
/* Run cmd (engine_spawn, 2000 bytes of stderr tail) within timeout_s. */
void unit_pass_spawn(const struct engine *e, const struct child_cmd *cmd, double timeout_s,
		     struct pass_child *c);
void unit_pass_child_free(struct pass_child *c);

/* The status of a pass's child from how it ended and its fd-3 result:
 * ST_FAILED (not started, no result, not exited 0 or not "complete") or
 * ST_HARD_TIMEOUT with *detail set (program names the child in it), or
 * ST_COMPLETE with *detail NULL, for the pass's own checks to follow. */
const char *unit_pass_child_status(const struct spawn_res *r, const json_t *result,
				   double timeout_s, const char *program, char **detail);

/* Copy each of the NULL-ended keys from a timing record into a pass record
 * (null where the timing record has none). */
void unit_pass_copy_keys(json_t *to, const json_t *from, const char *const *keys);

/* The stdout line of a record that is not complete: "TAG cand label op
 * status: detail" (the detail made printable, at most 300 bytes). */
void unit_print_detail(const char *tag, const struct unit *u, const char *status, const json_t *rec);

/* Record a pass's options in the run's campaign.json (campaign_update with
 * fn); nothing when o names no run. */
void unit_pass_update_campaign(const struct engine_opts *o, int (*fn)(json_t *doc, void *ctx),
			       void *ctx);

#endif
