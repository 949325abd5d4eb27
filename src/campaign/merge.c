/* merge.c — see merge.h: shard run directories joined into one run. */
#include "campaign/merge.h"
#include "build/survey.h"
#include "evidence/campaign_json.h"
#include "util/fsutil.h"
#include "evidence/json.h"
#include "evidence/names.h"
#include "host/env.h"
#include "util/untrusted.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct src_run {
	char *dir;               /* as given */
	char *campaign_path;     /* <dir>/campaign.json, for messages */
	json_t *doc;
	char *shard;             /* "k/n", "deferred of n" or "unsharded" */
	struct strlist files;    /* relative paths of the evidence to copy */
};

/* ---- reading the runs ------------------------------------------------------ */

/* Top-level entries that are not copied: the lock files, the campaign
 * document (joined instead) and the size audit (report rewrites it). */
/* Not evidence: the lock files, what merge writes anew, and what is
 * rendered from a run (the pages `report` writes into <run>/reports/ and a
 * site built from the run directory), which the merged run renders again. */
static int skipped_top(const char *name)
{
	return !strcmp(name, "locks") || !strcmp(name, "campaign.json") ||
	       !strcmp(name, "size_audit.json") || !strcmp(name, "reports") ||
	       !strcmp(name, "site");
}

static int is_temporary(const char *name)
{
	return strstr(name, ".tmp.") != NULL;
}

static void list_files(const char *root, const char *rel, struct strlist *out)
{
	char *dir = rel[0] ? path_join(root, rel) : xstrdup(root);
	struct strlist subs = STRLIST_INIT, files = STRLIST_INIT;
	dir_list(dir, DIR_PICK_DIRS, &subs);
	dir_list(dir, DIR_PICK_FILES, &files);
	for (size_t i = 0; i < files.n; i++) {
		if (is_temporary(files.items[i]) || (!rel[0] && skipped_top(files.items[i])))
			continue;
		sl_push_owned(out, rel[0] ? xasprintf("%s/%s", rel, files.items[i]) :
					    xstrdup(files.items[i]));
	}
	for (size_t i = 0; i < subs.n; i++) {
		if (!rel[0] && skipped_top(subs.items[i]))
			continue;
		char *sub = rel[0] ? xasprintf("%s/%s", rel, subs.items[i]) : xstrdup(subs.items[i]);
		list_files(root, sub, out);
		free(sub);
	}
	sl_free(&subs);
	sl_free(&files);
	free(dir);
}

/* A shard folder comes from another machine or person (docs/security.md):
 * a symbolic link in it could pull in any file of this machine, a FIFO
 * would block the copy.  Each one is named; the merge writes nothing. */
static int refuse_unusual(const char *dir)
{
	struct strlist odd = STRLIST_INIT;
	tree_list_unusual(dir, "", &odd);
	for (size_t i = 0; i < odd.n; i++) {
		char *path = path_join(dir, odd.items[i]);
		char *shown = str_printable(path, 0);
		const char *kind = root_kind(dir, odd.items[i]) == 'l' ? "a symbolic link"
					 : "a special file (FIFO, device or socket)";
		ngcc_error("merge: %s is %s; shard folders are read without following links and only "
			   "regular files are copied: remove it (or put the file itself in its place)",
			   shown, kind);
		free(shown);
		free(path);
	}
	int rc = odd.n ? -1 : 0;
	sl_free(&odd);
	return rc;
}

static int open_run(struct src_run *r, const char *dir)
{
	char *err = NULL;
	memset(r, 0, sizeof *r);
	r->dir = xstrdup(dir);
	r->campaign_path = path_join(dir, "campaign.json");
	if (!path_is_dir(dir)) {
		ngcc_error("merge: %s is not a directory (give the shards' run directories)", dir);
		return -1;
	}
	if (refuse_unusual(dir))
		return -1;
	if (!path_exists(r->campaign_path)) {
		ngcc_error("merge: %s does not exist: %s is not a run directory", r->campaign_path, dir);
		return -1;
	}
	r->doc = campaign_load(dir, &err);
	if (!r->doc) {
		ngcc_error("merge: %s", err ? err : r->campaign_path);
		free(err);
		return -1;
	}
	r->shard = campaign_shard_name(r->doc);
	if (!r->shard)
		r->shard = xstrdup("unsharded");
	list_files(dir, "", &r->files);
	return 0;
}

static void close_run(struct src_run *r)
{
	free(r->dir);
	free(r->campaign_path);
	json_decref(r->doc);
	free(r->shard);
	sl_free(&r->files);
}

/* ---- the refusals ------------------------------------------------------------ */

static char *dump(const json_t *j)
{
	return j ? json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS) : xstrdup("missing");
}

/* One problem naming both files when run b's value of something differs
 * from run a's (a missing value differs from any other). */
static void differs(const struct src_run *ra, const json_t *a, const struct src_run *rb,
		    const json_t *b, const char *what, struct strlist *problems)
{
	if ((a || b) && !(a && b && json_equal(a, b))) {
		char *sa = dump(a), *sb = dump(b);
		sl_push_owned(problems, xasprintf("%s: %s has %s, %s has %s", what, ra->campaign_path,
						  sa, rb->campaign_path, sb));
		free(sa);
		free(sb);
	}
}

/* The same value of key in every run's campaign.json. */
static void same_key(const struct src_run *runs, size_t n, const char *key, const char *what,
		     struct strlist *problems)
{
	for (size_t i = 1; i < n; i++)
		differs(&runs[0], json_object_get(runs[0].doc, key), &runs[i],
			json_object_get(runs[i].doc, key), what, problems);
}

/* Options that change what is measured; max_timeout_s only caps tests. */
static void same_options(const struct src_run *runs, size_t n, struct strlist *problems)
{
	static const char *const keys[] = { "seed_mode", "input_pool", "sampling", "memory_pass",
					    "counter", "candidates", "selections" };
	const json_t *ref = json_object_get(runs[0].doc, "options");
	for (size_t i = 1; i < n; i++) {
		const json_t *o = json_object_get(runs[i].doc, "options");
		for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
			char *what = xasprintf("different measuring option %s", keys[k]);
			differs(&runs[0], json_object_get(ref, keys[k]), &runs[i],
				json_object_get(o, keys[k]), what, problems);
			free(what);
		}
	}
}

static int unfixed(const json_t *doc)
{
	return json_array_size(json_object_get(doc, "host_problems")) > 0;
}

static void same_host_state(const struct src_run *runs, size_t n, struct strlist *problems)
{
	for (size_t i = 1; i < n; i++)
		if (unfixed(runs[i].doc) != unfixed(runs[0].doc)) {
			const struct src_run *f = unfixed(runs[0].doc) ? &runs[i] : &runs[0];
			const struct src_run *u = unfixed(runs[0].doc) ? &runs[0] : &runs[i];
			sl_push_owned(problems, xasprintf("mixed host states: %s was measured on a fixed host, "
							  "%s on an unfixed one (host_problems); "
							  "a run is one host state", f->campaign_path,
							  u->campaign_path));
		}
}

/* The R10 keys across CPUs (docs/method.md §3): one system, one environment. */
static void same_environment(const struct src_run *runs, size_t n, struct strlist *problems)
{
	const json_t *ref = json_object_get(runs[0].doc, "environment_at_start");
	for (size_t i = 1; i < n; i++) {
		const json_t *env = json_object_get(runs[i].doc, "environment_at_start");
		struct strlist diffs = STRLIST_INIT;
		if (json_is_object(ref) && json_is_object(env) && !env_equal(ref, env, 0, &diffs)) {
			struct strbuf sb = STRBUF_INIT;
			for (size_t d = 0; d < diffs.n; d++)
				sb_addf(&sb, "%s%s", d ? "; " : "", diffs.items[d]);
			char *list = sb_detach(&sb);
			sl_push_owned(problems, xasprintf("different environments (environment_at_start of %s and %s): %s",
							  runs[0].campaign_path, runs[i].campaign_path, list));
			free(list);
		}
		sl_free(&diffs);
	}
}

static const json_t *shards_of(const struct src_run *r)
{
	return json_object_get(r->doc, "shards");
}

/* Numbered shards must come from one assignment (n and digest); every run,
 * the deferred worker's too, from one --defer expression; no shard twice. */
static void same_assignment(const struct src_run *runs, size_t n, struct strlist *problems)
{
	const struct src_run *ref = NULL;
	for (size_t i = 0; i < n; i++) {
		const json_t *b = shards_of(&runs[i]);
		if (!json_is_integer(json_object_get(b, "shard")))
			continue;
		if (!ref) {
			ref = &runs[i];
			continue;
		}
		const json_t *a = shards_of(ref);
		const char *da = jget_str(a, "assignment_digest", ""), *db = jget_str(b, "assignment_digest", "");
		if (jget_int(a, "n", 1) != jget_int(b, "n", 1) || strcmp(da, db))
			sl_push_owned(problems, xasprintf("shards of different assignments: %s is shard %s, "
							  "digest %s; %s is shard %s, digest %s",
							  ref->campaign_path, ref->shard, da,
							  runs[i].campaign_path, runs[i].shard, db));
	}
	for (size_t i = 1; i < n; i++) {
		const json_t *a = json_object_get(shards_of(&runs[0]), "defer");
		const json_t *b = json_object_get(shards_of(&runs[i]), "defer");
		/* null and missing both say "no --defer" */
		if ((a && !json_is_null(a)) || (b && !json_is_null(b)))
			differs(&runs[0], a, &runs[i], b, "different --defer expressions", problems);
		for (size_t j = 0; j < i; j++)
			if (strcmp(runs[i].shard, "unsharded") && !strcmp(runs[i].shard, runs[j].shard))
				sl_push_owned(problems, xasprintf("shard %s twice: %s and %s", runs[i].shard,
								  runs[j].campaign_path, runs[i].campaign_path));
	}
}

/* A candidate's survey (profile/<ID>/survey.json) covers the instances
 * each shard profiled: the shards' surveys are joined, not duplicates. */
static int joined_file(const char *rel)
{
	return str_starts_with(rel, "profile/") && str_ends_with(rel, "/survey.json");
}

/* The same file in two runs: every unit is measured by one shard. */
static void no_duplicates(const struct src_run *runs, size_t n, struct strlist *problems)
{
	for (size_t i = 1; i < n; i++)
		for (size_t f = 0; f < runs[i].files.n; f++)
			for (size_t j = 0; j < i && !joined_file(runs[i].files.items[f]); j++)
				if (sl_contains(&runs[j].files, runs[i].files.items[f])) {
					sl_push_owned(problems, xasprintf("duplicate evidence %s: in %s and in %s",
									  runs[i].files.items[f], runs[j].dir,
									  runs[i].dir));
					break;
				}
}

struct lib_seen {
	struct strlist keys, digests, files;
};

/* Kept evidence (not attempts/, which may hold files of an older library
 * moved aside by --redo-stale) must name one library per instance. */
static int names_timed_library(const char *rel)
{
	return str_starts_with(rel, "records/") || str_starts_with(rel, "calibrate/") ||
	       str_starts_with(rel, "memory/") || str_starts_with(rel, "samples/") ||
	       str_starts_with(rel, "pool/");
}

static void check_library(struct lib_seen *seen, const char *root, const char *path,
			  struct strlist *problems)
{
	json_t *doc = evidence_load_below(root, path, NULL);
	const char *cand = jget_str(doc, "candidate", NULL), *label = jget_str(doc, "label", NULL);
	const char *sha = jget_str(doc, "library_sha256", NULL);
	if (cand && label && sha) {
		char *key = xasprintf("%s/%s", cand, label);
		size_t k;
		for (k = 0; k < seen->keys.n && strcmp(seen->keys.items[k], key); k++)
			;
		if (k == seen->keys.n) {
			sl_push(&seen->keys, key);
			sl_push(&seen->digests, sha);
			sl_push(&seen->files, path);
		} else if (strcmp(seen->digests.items[k], sha)) {
			sl_push_owned(problems, xasprintf("different library digests for %s: %s has %.12s…, %s has %.12s…",
							  key, seen->files.items[k], seen->digests.items[k],
							  path, sha));
		}
		free(key);
	}
	json_decref(doc);
}

static void same_libraries(const struct src_run *runs, size_t n, struct strlist *problems)
{
	struct lib_seen seen = { STRLIST_INIT, STRLIST_INIT, STRLIST_INIT };
	size_t before = problems->n;
	for (size_t i = 0; i < n; i++)
		for (size_t f = 0; f < runs[i].files.n; f++) {
			if (!names_timed_library(runs[i].files.items[f]) ||
			    !str_ends_with(runs[i].files.items[f], ".json"))
				continue;
			char *path = path_join(runs[i].dir, runs[i].files.items[f]);
			check_library(&seen, runs[i].dir, path, problems);
			free(path);
			/* One message per instance is enough to act on. */
			if (problems->n > before + 20)
				break;
		}
	sl_free(&seen.keys);
	sl_free(&seen.digests);
	sl_free(&seen.files);
}

static void check_all(const struct src_run *runs, size_t n, struct strlist *problems)
{
	same_key(runs, n, "system_id", "different systems", problems);
	same_key(runs, n, "planning", "different planning constants", problems);
	same_options(runs, n, problems);
	same_host_state(runs, n, problems);
	same_environment(runs, n, problems);
	same_assignment(runs, n, problems);
	no_duplicates(runs, n, problems);
	same_libraries(runs, n, problems);
}

/* ---- the joined campaign.json --------------------------------------------------- */

static const char *earliest(const char *a, const char *b)
{
	return !a ? b : !b ? a : strcmp(a, b) <= 0 ? a : b;
}

static void append_all(json_t *dst, const json_t *src, const char *shard)
{
	size_t i;
	json_t *v;
	json_array_foreach(src, i, v) {
		json_t *c = json_deep_copy(v);
		if (json_is_object(c) && shard && json_is_null(json_object_get(c, "shard")))
			json_object_set_new(c, "shard", json_string(shard));
		json_array_append_new(dst, c);
	}
}

static void add_cpu(json_t *cpus, const json_t *cpu)
{
	size_t i;
	json_t *v;
	if (!json_is_integer(cpu))
		return;
	json_array_foreach(cpus, i, v)
		if (json_integer_value(v) == json_integer_value(cpu))
			return;
	/* keep them in ascending order */
	for (i = 0; i < json_array_size(cpus); i++)
		if (json_integer_value(json_array_get(cpus, i)) > json_integer_value(cpu))
			break;
	json_array_insert_new(cpus, i, json_deep_copy(cpu));
}

static json_t *joined_shards(const struct src_run *runs, size_t n)
{
	json_t *cpus = json_array(), *from = json_array();
	const json_t *first = shards_of(&runs[0]);
	for (size_t i = n; i-- > 0;)
		if (json_is_integer(json_object_get(shards_of(&runs[i]), "shard")))
			first = shards_of(&runs[i]);
	for (size_t i = 0; i < n; i++) {
		size_t k;
		json_t *v;
		json_array_foreach(json_object_get(shards_of(&runs[i]), "cpus"), k, v)
			add_cpu(cpus, v);
		json_array_foreach(json_object_get(runs[i].doc, "host_checks"), k, v)
			add_cpu(cpus, json_object_get(v, "cpu"));
		json_array_append_new(from, json_pack("{ssss}", "run", path_basename(runs[i].dir),
						      "shard", runs[i].shard));
	}
	json_t *sh = json_object();
	json_object_set_new(sh, "n", json_integer(jget_int(first, "n", 1)));
	json_object_set_new(sh, "cpus", cpus);
	json_object_set(sh, "assignment_digest", json_object_get(first, "assignment_digest") ?
			json_object_get(first, "assignment_digest") : json_null());
	json_object_set(sh, "defer", json_object_get(first, "defer") ? json_object_get(first, "defer") :
			json_null());
	json_object_set_new(sh, "priors", json_object_get(first, "priors") ?
			    json_deep_copy(json_object_get(first, "priors")) : json_array());
	json_object_set_new(sh, "merged_from", from);
	return sh;
}

static json_t *joined_campaign(const struct src_run *runs, size_t n, const char *into)
{
	size_t first = 0, last = 0;
	const char *start = NULL, *end = NULL;
	for (size_t i = 0; i < n; i++) {
		const char *s = jget_str(runs[i].doc, "started_utc", NULL);
		const char *e = jget_str(runs[i].doc, "ended_utc", NULL);
		if (s && earliest(start, s) == s && (!start || strcmp(s, start)))
			first = i;
		start = earliest(start, s);
		if (e && (!end || strcmp(e, end) > 0)) {
			end = e;
			last = i;
		}
	}
	json_t *d = json_deep_copy(runs[first].doc);
	json_object_set_new(d, "run_id", json_string(path_basename(into)));
	json_object_set_new(d, "started_utc", jstr_or_null(start));
	json_object_set_new(d, "ended_utc", jstr_or_null(end));
	json_object_set(d, "environment_at_end", json_object_get(runs[last].doc, "environment_at_end"));
	static const char *const lists[] = { "host_checks", "host_overrides", "phases", "background" };
	for (size_t l = 0; l < sizeof lists / sizeof *lists; l++) {
		json_t *all = json_array();
		for (size_t i = 0; i < n; i++)
			append_all(all, json_object_get(runs[i].doc, lists[l]), runs[i].shard);
		json_object_set_new(d, lists[l], all);
	}
	for (size_t i = 0; i < n; i++) {
		campaign_add_host_problems(d, json_object_get(runs[i].doc, "host_problems"));
		size_t k;
		json_t *note;
		json_array_foreach(json_object_get(runs[i].doc, "notes"), k, note)
			if (json_is_string(note))
				campaign_add_note(d, json_string_value(note));
	}
	json_object_set_new(d, "shards", joined_shards(runs, n));
	return d;
}

/* ---- writing ------------------------------------------------------------------------ */

/* Join the surveys of rel from every run holding it into dst_root. */
static int join_survey(const struct src_run *runs, size_t n, const char *rel, const char *dst_root)
{
	const json_t **docs = xcalloc(n, sizeof *docs);
	size_t k = 0;
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		if (!sl_contains(&runs[i].files, rel))
			continue;
		char *path = path_join(runs[i].dir, rel), *err = NULL;
		docs[k] = evidence_load_below(runs[i].dir, path, &err);
		if (!docs[k]) {
			ngcc_error("merge: %s", err ? err : path);
			rc = -1;
		} else {
			k++;
		}
		free(err);
		free(path);
	}
	char *err = NULL;
	json_t *joined = rc ? NULL : survey_join(docs, k, &err);
	char *dst = path_join(dst_root, rel), *dir = path_dirname(dst);
	if (!rc && !joined) {
		ngcc_error("merge: cannot join the surveys %s: %s", rel, err);
		rc = -1;
	} else if (!rc && (mkdir_p(dir, 0755) || evidence_write(dst, joined))) {
		ngcc_error("merge: cannot write %s: %s", dst, strerror(errno));
		rc = -1;
	}
	for (size_t i = 0; i < k; i++)
		json_decref((json_t *)docs[i]);
	free(docs);
	json_decref(joined);
	free(err);
	free(dir);
	free(dst);
	return rc;
}

static int copy_evidence(const struct src_run *r, const char *dst_root)
{
	for (size_t f = 0; f < r->files.n; f++) {
		if (joined_file(r->files.items[f]))
			continue;
		char *src = path_join(r->dir, r->files.items[f]);
		char *dst = path_join(dst_root, r->files.items[f]);
		char *dir = path_dirname(dst), *data = NULL;
		size_t len = 0;
		/* below the shard folder, never through a link (checked before,
		 * and again here in case the folder changed meanwhile) */
		int rc = root_read_file(r->dir, r->files.items[f], &data, &len);
		if (rc)
			ngcc_error("merge: cannot read %s: %s", src, io_strerror(errno));
		else if ((rc = mkdir_p(dir, 0755) || write_file(dst, data, len)))
			ngcc_error("merge: cannot copy %s to %s: %s", src, dst, strerror(errno));
		free(data);
		free(dir);
		free(dst);
		free(src);
		if (rc)
			return -1;
	}
	return 0;
}

/* A run written by merge (campaign.json names the runs it came from). */
static int is_merged_run(const char *dir)
{
	json_t *doc = campaign_load(dir, NULL);
	int merged = json_is_array(json_object_get(json_object_get(doc, "shards"), "merged_from"));
	json_decref(doc);
	return merged;
}

static int into_usable(const char *into, int replace)
{
	if (!path_exists(into))
		return 1;
	if (replace && is_merged_run(into))
		return 1;
	struct strlist any = STRLIST_INIT;
	int empty = path_is_dir(into) && dir_list(into, DIR_PICK_DIRS, &any) == 0 &&
		    dir_list(into, DIR_PICK_FILES, &any) == 0 && any.n == 0;
	sl_free(&any);
	return empty;
}

static int write_merged(const struct src_run *runs, size_t n, const char *into)
{
	char *tmp = xasprintf("%s.merge.tmp.%ld", into, (long)getpid());
	rm_rf(tmp);
	int rc = mkdir_p(tmp, 0755) ? -1 : 0;
	if (rc)
		ngcc_error("merge: cannot create %s: %s", tmp, strerror(errno));
	for (size_t i = 0; i < n && !rc; i++)
		rc = copy_evidence(&runs[i], tmp);
	struct strlist surveys = STRLIST_INIT;
	for (size_t i = 0; i < n; i++)
		for (size_t f = 0; f < runs[i].files.n; f++)
			if (joined_file(runs[i].files.items[f]) && !sl_contains(&surveys, runs[i].files.items[f]))
				sl_push(&surveys, runs[i].files.items[f]);
	for (size_t i = 0; i < surveys.n && !rc; i++)
		rc = join_survey(runs, n, surveys.items[i], tmp);
	sl_free(&surveys);
	if (!rc) {
		json_t *doc = joined_campaign(runs, n, into);
		char *path = path_join(tmp, "campaign.json");
		if (evidence_write(path, doc)) {
			ngcc_error("merge: cannot write %s: %s", path, strerror(errno));
			rc = -1;
		}
		free(path);
		json_decref(doc);
	}
	/* An earlier merge (--replace) or an empty directory makes way; the
	 * old merge is removed only once the new one is in place. */
	char *old = xasprintf("%s.merge.old.%ld", into, (long)getpid());
	int moved = 0;
	if (!rc && path_is_dir(into)) {
		if (rename(into, old)) {
			ngcc_error("merge: cannot move %s aside: %s", into, strerror(errno));
			rc = -1;
		} else {
			moved = 1;
		}
	}
	if (!rc && rename(tmp, into)) {
		ngcc_error("merge: cannot rename %s to %s: %s", tmp, into, strerror(errno));
		rc = -1;
	}
	if (rc) {
		rm_rf(tmp);
		if (moved)
			rename(old, into);
	} else {
		fsync_parent_dir(into);
		if (moved)
			rm_rf(old);
	}
	free(old);
	free(tmp);
	return rc;
}

/* ---- what an interrupted merge left ------------------------------------------------ */

/* A merge assembles <into>.merge.tmp.<pid> and moves an earlier merge to
 * <into>.merge.old.<pid> while it renames; killed in between, it leaves
 * them.  The pid of an entry named so, or 0 when the name is another. */
static long leftover_pid(const char *name, const char *base, const char **kind)
{
	size_t n = strlen(base);
	static const char *const kinds[] = { ".merge.tmp.", ".merge.old." };
	if (strncmp(name, base, n))
		return 0;
	for (size_t k = 0; k < 2; k++)
		if (!strncmp(name + n, kinds[k], strlen(kinds[k]))) {
			char *end;
			const char *digits = name + n + strlen(kinds[k]);
			long pid = strtol(digits, &end, 10);
			if (*digits < '0' || *digits > '9' || *end || pid <= 0)
				return 0;
			*kind = kinds[k];
			return pid;
		}
	return 0;
}

static int process_gone(long pid)
{
	return kill((pid_t)pid, 0) && errno == ESRCH;
}

void merge_leftovers(const char *into, struct strlist *old, struct strlist *tmp)
{
	char *dir = path_dirname(into), *base = xstrdup(path_basename(into));
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		const char *kind = NULL;
		long pid = leftover_pid(e->d_name, base, &kind);
		char *path = path_join(dir, e->d_name);
		struct stat st;
		if (pid && process_gone(pid) && !lstat(path, &st) && S_ISDIR(st.st_mode))
			sl_push(!strcmp(kind, ".merge.old.") ? old : tmp, path);
		free(path);
	}
	if (d)
		closedir(d);
	sl_sort(old);
	sl_sort(tmp);
	free(base);
	free(dir);
}

/* An earlier merge moved aside and never replaced goes back to --into (it
 * was complete); half-assembled merges and superseded old ones go.  Each
 * step is said on stderr. */
static int recover_interrupted(const char *into)
{
	struct strlist old = STRLIST_INIT, tmp = STRLIST_INIT;
	struct stat st;
	int rc = 0;
	merge_leftovers(into, &old, &tmp);
	for (size_t i = 0; i < old.n && !rc; i++) {
		if (lstat(into, &st) && errno == ENOENT && !rename(old.items[i], into)) {
			fprintf(stderr, "merge: restored %s from %s, where a merge that was interrupted "
				"had moved it\n", into, old.items[i]);
		} else if (rm_rf(old.items[i])) {
			ngcc_error("merge: cannot remove %s, left by an interrupted merge: %s",
				   old.items[i], strerror(errno));
			rc = -1;
		} else {
			fprintf(stderr, "merge: removed %s, left by an interrupted merge\n", old.items[i]);
		}
	}
	for (size_t i = 0; i < tmp.n && !rc; i++) {
		if (rm_rf(tmp.items[i])) {
			ngcc_error("merge: cannot remove %s, left by an interrupted merge: %s",
				   tmp.items[i], strerror(errno));
			rc = -1;
		} else {
			fprintf(stderr, "merge: removed %s, the unfinished work of an interrupted merge\n",
				tmp.items[i]);
		}
	}
	sl_free(&old);
	sl_free(&tmp);
	return rc;
}

int run_merge(const char *const *dirs, size_t n, const char *into, int replace)
{
	if (n < 1) {
		ngcc_error("merge needs the shards' run directories and --into RUN");
		return EXIT_USAGE;
	}
	char *into_abs = path_absolute(into);
	char *problem = path_name_problem("the --into run name", path_basename(into_abs));
	free(into_abs);
	if (problem) {
		ngcc_error("merge: %s", problem);
		free(problem);
		return EXIT_USAGE;
	}
	if (recover_interrupted(into))
		return EXIT_SYSTEM;
	if (!into_usable(into, replace)) {
		ngcc_error("merge: %s exists and is not empty%s; --into names a new run directory%s", into,
			   replace ? " nor an earlier merge" : "",
			   replace ? "" : " (--replace replaces an earlier merge)");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < n; i++) {
		char *a = path_absolute(dirs[i]), *b = path_absolute(into);
		int same = !strcmp(a, b);
		free(a);
		free(b);
		if (same) {
			ngcc_error("merge: %s is both a source and --into", into);
			return EXIT_USAGE;
		}
	}
	struct src_run *runs = xcalloc(n, sizeof *runs);
	int rc = EXIT_OK;
	for (size_t i = 0; i < n && !rc; i++)
		if (open_run(&runs[i], dirs[i]))
			rc = EXIT_INPUT;
	struct strlist problems = STRLIST_INIT;
	if (!rc)
		check_all(runs, n, &problems);
	if (!rc && problems.n) {
		for (size_t i = 0; i < problems.n; i++)
			ngcc_error("merge refused: %s", problems.items[i]);
		fprintf(stderr, "merge: %zu problem(s); nothing was written to %s\n", problems.n, into);
		rc = EXIT_USAGE;
	}
	if (!rc && write_merged(runs, n, into))
		rc = EXIT_SYSTEM;
	if (!rc) {
		size_t files = 0;
		for (size_t i = 0; i < n; i++)
			files += runs[i].files.n;
		printf("merge: %zu run(s), %zu evidence file(s) into %s\n", n, files, into);
	}
	sl_free(&problems);
	for (size_t i = 0; i < n; i++)
		close_run(&runs[i]);
	free(runs);
	return rc;
}
