/* unitpass.c — see unitpass.h. */
#include "campaign/unitpass.h"

#include "evidence/campaign_json.h"
#include "evidence/json.h"
#include "evidence/record.h"
#include "proc/spawn.h"
#include "util/interrupt.h"
#include "util/untrusted.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct todo {
	void *inputs;               /* NULL: no record for this unit */
	enum resume_action r;
};

static void classify(struct unit_pass *ps, const struct unit_pass_ops *ops, struct unit *u,
		     struct todo *td)
{
	struct engine *e = ps->e;
	const void *fp = NULL;
	td->inputs = ops->prepare(ps, u, &fp);
	if (!td->inputs)
		return;
	td->r = rundir_resume(e->run, ops->resume, u->cand, u->stem, fp, e->o.redo_stale, NULL,
			      NULL);
	if (td->r == RESUME_KEEP) {
		ps->t.kept++;
	} else if (td->r == RESUME_GIVE_UP) {
		char *path = rundir_unit_path(e->run, ops->resume->dir, u->cand, u->stem);
		fprintf(stderr, "%s %s %s: %s pass failed %d times; giving up (see %s)\n", u->cand,
			u->label, u->op, ops->word, RUNDIR_MAX_ATTEMPTS, path);
		free(path);
		ps->t.failed++;
	}
}

/* The record goes to disk unless the run was interrupted or its host
 * changed under it (then nothing of this unit is kept). */
static void store(struct unit_pass *ps, const struct unit_pass_ops *ops, struct unit *u,
		  json_t *rec)
{
	struct engine *e = ps->e;
	char *path = rundir_unit_path(e->run, ops->resume->dir, u->cand, u->stem);
	char *dir = path_dirname(path);
	if (interrupt_pending()) {
		tally_cut(&ps->t, u);
		ps->t.left++;
	} else if (engine_env_still_equal(e)) {
		ps->refused = 1;
	} else if (mkdir_p(dir, 0755) || evidence_write(path, rec)) {
		ngcc_error("cannot write %s: %s", path, strerror(errno));
		ps->t.failed++;
	} else {
		ops->print(u, rec);
		if (strcmp(jget_str(rec, "status", ""), ST_COMPLETE))
			ps->t.failed++;
		else
			ps->t.made++;
	}
	free(dir);
	free(path);
}

static void run_one(struct unit_pass *ps, const struct unit_pass_ops *ops, struct unit *u,
		    void *inputs)
{
	if (interrupt_pending()) {
		ps->t.left++;
		return;
	}
	progress_unit(&ps->progress, ++ps->k, u->cand, u->label, u->op);
	json_t *rec = ops->run(ps, u, inputs);
	progress_done(&ps->progress, 0);
	progress_clear(&ps->progress);
	store(ps, ops, u, rec);
	json_decref(rec);
}

void unit_pass_run(struct unit_pass *ps, const struct unit_pass_ops *ops)
{
	struct engine *e = ps->e;
	struct todo *td = xcalloc(e->n_units ? e->n_units : 1, sizeof *td);
	int n = 0;
	for (size_t i = 0; i < e->n_units; i++) {
		classify(ps, ops, &e->units[i], &td[i]);
		n += td[i].inputs && td[i].r == RESUME_RUN;
	}
	if (ops->before)
		ops->before(ps, n);
	progress_init(&ps->progress, e->o.tty, ops->word, n, 0);
	for (size_t i = 0; i < e->n_units; i++) {
		if (td[i].inputs && td[i].r == RESUME_RUN && !ps->refused)
			run_one(ps, ops, &e->units[i], td[i].inputs);
		if (td[i].inputs)
			ops->release(td[i].inputs);
	}
	free(td);
}

json_t *unit_pass_process_json(const struct spawn_res *r, json_t *command, const char *status,
			       const char *detail)
{
	json_t *p = json_object();
	json_object_set_new(p, "status", json_string(status));
	json_object_set_new(p, "exit_code", r && r->exited ? json_integer(r->exit_code) : json_null());
	json_object_set_new(p, "command", json_incref(command));
	json_object_set_new(p, "wall_s", r ? json_real(r->wall_s) : json_null());
	json_object_set_new(p, "error", jstr_or_null(detail));
	json_object_set_new(p, "stderr_tail", jstr_or_null(r ? r->err_tail : NULL));
	json_object_set_new(p, STRAYS_KILLED_KEY, evidence_strays_killed(r));
	return p;
}

void unit_pass_spawn(const struct engine *e, const struct child_cmd *cmd, double timeout_s,
		     struct pass_child *c)
{
	utc_now_iso(c->started);
	c->load_start = record_load_average();
	c->ran = !engine_spawn(e, cmd, timeout_s, 2000, &c->res);
	utc_now_iso(c->ended);
	c->load_end = record_load_average();
	c->result = c->ran && c->res.result && c->res.result_len ?
		json_loads(c->res.result, 0, NULL) : NULL;
}

void unit_pass_child_free(struct pass_child *c)
{
	json_decref(c->result);
	json_decref(c->load_start);
	json_decref(c->load_end);
	if (c->ran)
		spawn_res_free(&c->res);
}

const char *unit_pass_child_status(const struct spawn_res *r, const json_t *result,
				   double timeout_s, const char *program, char **detail)
{
	*detail = NULL;
	if (!r) {
		*detail = xasprintf("the %s could not be started", program);
		return ST_FAILED;
	}
	if (r->timed_out) {
		*detail = spawn_describe(r, timeout_s);
		return ST_HARD_TIMEOUT;
	}
	if (!result) {
		char *how = spawn_describe(r, timeout_s);
		*detail = xasprintf("no result from the %s (%s)", program, how);
		free(how);
		return ST_FAILED;
	}
	if (!(r->exited && r->exit_code == 0) || strcmp(jget_str(result, "status", ""), ST_COMPLETE)) {
		const char *err = jget_str(result, "error", NULL);
		char *how = spawn_describe(r, timeout_s);
		if (!err)
			*detail = how;
		else {
			*detail = xasprintf("%s (%s)", err, how);
			free(how);
		}
		return ST_FAILED;
	}
	return ST_COMPLETE;
}

void unit_pass_copy_keys(json_t *to, const json_t *from, const char *const *keys)
{
	for (; *keys; keys++) {
		json_t *v = json_object_get(from, *keys);
		json_object_set_new(to, *keys, v ? json_deep_copy(v) : json_null());
	}
}

void unit_print_detail(const char *tag, const struct unit *u, const char *status, const json_t *rec)
{
	/* the detail may quote what the candidate's process said */
	char *d = str_printable(jget_str(rec, "status_detail", ""), 300);
	printf("%s %s %s %s %s: %s\n", tag, u->cand, u->label, u->op, status, d);
	free(d);
}

void unit_pass_update_campaign(const struct engine_opts *o, int (*fn)(json_t *doc, void *ctx),
			       void *ctx)
{
	if (!o->run)
		return;
	char *run = engine_run_dir(o);
	if (!mkdir_p(run, 0755))
		campaign_update(o->workspace, run, fn, ctx);
	free(run);
}
