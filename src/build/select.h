/*
 * select.h — instance selectors, the one parser every phase shares (build,
 * kat, check, calibrate, measure, the memory pass, profile, plan):
 *
 *   ID          every instance of candidate ID
 *   ID/LABEL    one instance (LABEL: its candidate.conf label or its build
 *               stem, e.g. "Foo-128+avx2")
 *   LABEL       the instance of that label, when only one candidate has it
 *   globs       fnmatch(3) patterns in either part: 'kem-*', 'X-*', 'kem-?/X-128'
 *               (a bare glob matches candidate ids first, else labels)
 *   --op OP     (measuring phases, repeatable, globs too) only these
 *               operations
 *
 * Commands push what the user typed (selection_add, selection_add_op);
 * selection_resolve() checks it against the workspace's candidate.conf
 * files and fails, naming the selector and listing what exists, when a
 * selector matches nothing.  Stages then ask selection_has_instance() and
 * selection_has_op().  An empty selection selects everything.
 */
#ifndef NGCC_BUILD_SELECT_H
#define NGCC_BUILD_SELECT_H

#include "package/conf.h"
#include "util/util.h"

struct selection {
	struct strlist patterns;    /* instance selectors as given */
	struct strlist ops;         /* --op values as given */
	/* filled by selection_resolve() */
	int resolved;
	struct strlist ids;         /* candidates with a selected instance, sorted */
	struct strlist keys;        /* "ID/LABEL" and "ID/STEM" of each selected instance */
	size_t n_instances;         /* selected instances (each once) */
	size_t n_available;         /* instances in the candidates' conf files */
};

void selection_init(struct selection *s);
void selection_free(struct selection *s);
void selection_add(struct selection *s, const char *pattern);
void selection_add_op(struct selection *s, const char *op);
/* No instance selector and no --op: everything. */
int selection_is_all(const struct selection *s);

/* Resolve against workspace/candidates/<ID>/candidate.conf.  0, or an
 * exit code after an error message: EXIT_INPUT for a selector that
 * matches nothing (as an unknown candidate id always was), a workspace
 * without candidates or an unreadable candidate.conf; EXIT_USAGE for an
 * --op that matches no operation or a bare LABEL more than one candidate
 * has. */
int selection_resolve(struct selection *s, const char *workspace);

/* A stage's list of selectors (candidate ids are selectors too): s gets
 * them and is resolved; with none, s selects everything and *ids gets
 * nothing.  Then *ids (may be NULL) receives the candidates to visit.
 * Returns as selection_resolve(). */
int selection_from_ids(struct selection *s, const struct strlist *selectors,
		       const char *workspace, struct strlist *ids);

/* The candidate.conf of each candidate a stage visits, read once for
 * both its count of units and its work: confs[i] is ids->items[i]'s;
 * ok is 0 when it could not be read (err says why: conf_read). */
struct stage_conf {
	struct candidate_conf conf;
	int ok;
	char *err;
};
struct stage_conf *stage_confs_read(const char *workspace, const struct strlist *ids);
void stage_confs_free(struct stage_conf *confs, size_t n);

/* After selection_resolve(): is instance name (label or stem) of
 * candidate id selected?  Is operation op? (op "pass3" is matched by
 * "pass3", "pass*" and the family name "pass<N>".) */
int selection_has_instance(const struct selection *s, const char *id, const char *name);
int selection_has_op(const struct selection *s, const char *op);

/* "kem-ex/X-128, kem-ex/X-256; operations keygen, enc" or "everything":
 * for messages and campaign.json. */
char *selection_describe(const struct selection *s);

#endif
