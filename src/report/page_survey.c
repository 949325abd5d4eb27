/*
 * page_survey.c — symmetric-survey.md (docs/report-format.md §8): the verdict of
 * every public-key candidate, the automatic scan beside it, and the
 * largest hash share per system.
 */
#include "report/pages.h"

#include <stdlib.h>
#include <string.h>

#include "evidence/json.h"
#include "method/format.h"
#include "method/natsort.h"

#define DASH FMT_DASH

static int survey_rank(const char *type)
{
	return !strcmp(type, "kem") ? 0 : !strcmp(type, "kex") ? 1 : !strcmp(type, "sign") ? 2 : 3;
}

static int survey_cmp(const void *a, const void *b)
{
	const struct ds_candidate *x = *(const struct ds_candidate *const *)a;
	const struct ds_candidate *y = *(const struct ds_candidate *const *)b;
	int c = survey_rank(x->type) - survey_rank(y->type);
	return c ? c : natural_cmp(x->id, y->id);
}

/* `49% (NTRE-128 enc)`: the largest hash share; ties keep the first row in
 * instance and operation order. */
static char *largest_share(const struct ds_candidate *c)
{
	const struct ds_instance *best_in = NULL;
	const struct ds_profile *best = NULL;
	double best_h = -1;
	for (size_t i = 0; i < c->n_inst; i++)
		for (size_t k = 0; k < c->inst[i].n_prof; k++) {
			const struct ds_profile *p = &c->inst[i].prof[k];
			double h, d;
			if (c->inst[i].optimized || !ds_profile_complete(p))
				continue;
			profile_shares(p->j, &h, &d);
			if (h > best_h) {
				best_h = h;
				best = p;
				best_in = &c->inst[i];
			}
		}
	if (!best)
		return xstrdup(DASH);
	char pct[FMT_MAX];
	return xasprintf("%s (%s %s)", fmt_percent(pct, &best_h), best_in->label, best->op);
}

static char *automatic_scan(const struct ds_candidate *c)
{
	const json_t *scan = json_object_get(json_object_get(c->survey, "automatic"), "scan");
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	json_t *h;
	if (!ds_candidate_profiled(c)) {
		sb_adds(&sb, DASH); /* no scan ran: not "none found" */
		return sb_detach(&sb);
	}
	json_array_foreach(scan, i, h)
		if (json_is_string(h))
			sb_addf(&sb, "%s%s", sb.len ? ", " : "", json_string_value(h));
	if (!sb.len)
		sb_adds(&sb, "none");
	return sb_detach(&sb);
}

/* The dataset of system id among those of the tree, or NULL. */
static const struct dataset *system_data(const struct dataset *const *systems, size_t n,
					 const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(systems[i]->system_id, id))
			return systems[i];
	return NULL;
}

static const struct ds_candidate *find_candidate(const struct dataset *ds, const char *id)
{
	for (size_t i = 0; ds && i < ds->n_cand; i++)
		if (!strcmp(ds->cand[i].id, id))
			return &ds->cand[i];
	return NULL;
}

char *page_survey(const struct dataset *const *systems, size_t nsystems, size_t *len)
{
	const struct dataset *ds = systems[0];
	struct md_page md = MD_PAGE_INIT;
	const struct ds_candidate **rows = xcalloc(ds->n_cand + 1, sizeof *rows);
	size_t n = 0;
	int counts[4] = { 0 };
	static const char *const verdicts[4] = { "ICCS-only", "bypass", "mixed", "instance-dependent" };
	for (size_t i = 0; i < ds->n_cand; i++)
		if (strcmp(ds->cand[i].type, "hash"))
			rows[n++] = &ds->cand[i];
	qsort(rows, n, sizeof *rows, survey_cmp);
	for (size_t i = 0; i < n; i++) {
		char *v, *notes;
		candidate_verdict(ds, rows[i], &v, &notes);
		for (int k = 0; v && k < 4; k++)
			counts[k] += !strcmp(v, verdicts[k]);
		free(v);
		free(notes);
	}
	md_block(&md, "[Performance measurements](index.md) \xe2\x80\xba symmetric primitives survey");
	md_block(&md, "# Symmetric primitives survey");
	md_block(&md, "Submissions were asked to hash and to draw randomness only through the ICCS "
		 "placeholder functions pseudohash, pseudoXOF and sm3hash and the ICCS DRNG, so that "
		 "the hash function NGCC finally chooses can be substituted later. This survey "
		 "records which candidates keep to that interface.");
	char total[FMT_MAX];
	int unprofiled = 0;
	for (size_t i = 0; i < n; i++)
		unprofiled += !ds_candidate_profiled(rows[i]);
	char *rest = unprofiled ? xasprintf(", %d not profiled in this run", unprofiled) : xstrdup("");
	md_blockf(&md, "**Totals:** %d ICCS-only, %d bypass, %d mixed, %d instance-dependent "
		  "(%s%s).", counts[0], counts[1], counts[2], counts[3],
		  fmt_count(total, (long long)n, "public-key candidate"), rest);
	free(rest);
	md_block(&md, "Verdicts are derived from call-graph reachability and constant and "
		 "instruction scans of each instance's objects (ngcc-perf docs/method.md \xc2\xa7"
		 "10.6) and curated by reading the source where `survey.conf` overrides them. Code "
		 "that is compiled but unreachable from the API does not count, and a function's "
		 "name is only noted as a hint. The automatic scan is shown beside the verdict; it "
		 "never overrides a `survey.conf` line.");
	/* Registered systems, then any system of the tree the registry lacks. */
	struct strlist cols = STRLIST_INIT;
	for (size_t s = 0; s < ds->n_systems; s++)
		sl_push(&cols, ds->systems[s].id);
	for (size_t s = 0; s < nsystems; s++)
		if (!sl_contains(&cols, systems[s]->system_id))
			sl_push(&cols, systems[s]->system_id);
	size_t nsys = cols.n;
	const char **hdr = xcalloc(5 + nsys, sizeof *hdr);
	char **owned = xcalloc(nsys, sizeof *owned);
	hdr[0] = "id";
	hdr[1] = "algorithm";
	hdr[2] = "verdict";
	hdr[3] = "notes";
	hdr[4] = "automatic scan";
	for (size_t s = 0; s < nsys; s++) {
		owned[s] = xasprintf("largest hash share on %s (op)", cols.items[s]);
		hdr[5 + s] = owned[s];
	}
	md_table(&md, hdr, 5 + nsys);
	for (size_t i = 0; i < n; i++) {
		const struct ds_candidate *c = rows[i];
		char *v, *notes;
		candidate_verdict(ds, c, &v, &notes);
		char **cells = xcalloc(5 + nsys, sizeof *cells);
		cells[0] = xasprintf("[%s](%s/%s.md)", c->id, ds->system_id, c->id);
		cells[1] = xstrdup(c->algorithm);
		cells[2] = xstrdup(v ? v : ds_candidate_profiled(c) ? "not surveyed"
						       : "not profiled in this run");
		cells[3] = xstrdup(notes ? notes : DASH);
		cells[4] = automatic_scan(c);
		for (size_t s = 0; s < nsys; s++) {
			const struct ds_candidate *on = find_candidate(
				system_data(systems, nsystems, cols.items[s]), c->id);
			cells[5 + s] = on ? largest_share(on) : xstrdup(DASH);
		}
		md_row(&md, (const char *const *)cells);
		for (size_t k = 0; k < 5 + nsys; k++)
			free(cells[k]);
		free(cells);
		free(v);
		free(notes);
	}
	for (size_t s = 0; s < nsys; s++)
		free(owned[s]);
	free(owned);
	sl_free(&cols);
	free(hdr);
	free(rows);
	return md_finish(&md, len);
}
