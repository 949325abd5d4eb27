/*
 * page_index.c — the landing page index.md (docs/report-format.md §1, §10.2):
 * scope, the systems table and the links.
 */
#include "report/pages.h"

#include <stdlib.h>
#include <string.h>

#include "evidence/json.h"
#include "method/format.h"

static void system_row(struct md_page *md, const char *id, int linked, const char *arch,
		       const char *machine)
{
	char *cell = linked ? xasprintf("[%s](%s/index.md)", id, id) : xstrdup(id);
	const char *cells[3] = { cell, arch, machine };
	md_row(md, cells);
	free(cell);
}

char *page_index(const struct dataset *const *systems, size_t n, size_t *len)
{
	const struct dataset *ds = systems[0];
	struct md_page md = MD_PAGE_INIT;
	static const char *const hdr[] = { "system", "architecture", "machine" };
	md_block(&md, "# Performance measurements");
	md_block(&md, "Independent performance measurements of the NGCC Round 1 public-key and "
		 "hash submissions, following the structure of the NICCS self-assessment guides: "
		 "functional testing against the submitted KATs, cycles and time per operation, "
		 "memory, sizes and the share of the ICCS placeholder functions. They are not NICCS "
		 "results or submitter self-assessments.");
	md_block(&md, "## Systems");
	md_table(&md, hdr, 3);
	for (size_t i = 0; i < ds->n_systems; i++) {
		const struct ds_system *s = &ds->systems[i];
		system_row(&md, s->id, ds_system_rendered(ds, s->id), s->arch, s->desc);
	}
	for (size_t k = 0; k < n; k++) {
		int registered = 0;
		for (size_t i = 0; i < ds->n_systems; i++)
			registered |= !strcmp(ds->systems[i].id, systems[k]->system_id);
		if (registered)
			continue;
		const json_t *env = ds_environment(systems[k]);
		system_row(&md, systems[k]->system_id, 1, jget_str(env, "architecture", FMT_DASH),
			   jget_str(env, "cpu_model", FMT_DASH));
	}
	md_begin(&md);
	for (size_t k = 0; k < n; k++)
		md_linef(&md, "- [Summary for %s](%s/index.md) and its [method and limitations](%s/method.md)",
			 systems[k]->system_id, systems[k]->system_id, systems[k]->system_id);
	md_linef(&md, "- [Symmetric primitives survey](symmetric-survey.md)");
	md_linef(&md, "- [Size accounting and audit](size-audit.md)");
	return md_finish(&md, len);
}
