/* report.c — see report.h. */
#include "report/report.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "charts/charts.h"
#include "report/pages.h"
#include "util/util.h"

static void add(struct report_out *out, char *path, char *data, size_t len)
{
	out->f = xrealloc(out->f, (out->n + 1) * sizeof *out->f);
	out->f[out->n++] = (struct report_file){ path, data, len };
}

/* <SYS>/charts/<name>.svg and the CSV each was drawn from (docs/report-format.md
 * §10.4): the Markdown tree holds the files its image links name. */
static void chart_files(const struct dataset *ds, const struct site_charts *ch,
			struct report_out *out)
{
	for (size_t i = 0; i < ch->n; i++) {
		const struct site_chart *c = &ch->v[i];
		add(out, xasprintf("%s/charts/%s.svg", ds->system_id, c->name),
		    xstrdup(c->svg_file), strlen(c->svg_file));
		add(out, xasprintf("%s/charts/%s.csv", ds->system_id, c->name),
		    xstrdup(c->csv), strlen(c->csv));
	}
}

/* Which summary section each summary chart illustrates; a chart that had
 * to leave an instance out is followed by a sentence naming it. */
static const struct {
	const char *heading, *chart;
} summary_chart_sections[] = {
	{ "## Key encapsulation\n", "kem-cost" },
	{ "## Digital signatures\n", "sign-cost" },
	{ "## Key exchange\n", "kex-cost" },
	{ "## Hash functions\n", "hash-cycles-per-byte" },
};

char *report_summary_with_charts(const char *md, const struct site_charts *ch)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, md);
	for (size_t s = 0; s < sizeof summary_chart_sections / sizeof *summary_chart_sections; s++) {
		const struct site_chart *c = NULL;
		for (size_t i = 0; i < ch->n && !c; i++)
			if (!strcmp(ch->v[i].name, summary_chart_sections[s].chart))
				c = &ch->v[i];
		const char *h = strstr(sb.buf, summary_chart_sections[s].heading);
		if (!c || !h || (h != sb.buf && h[-1] != '\n'))
			continue;
		/* the section ends at the next heading; the chart follows its table */
		const char *next = strstr(h + strlen(summary_chart_sections[s].heading), "\n## ");
		size_t at = next ? (size_t)(next - sb.buf + 1) : sb.len;
		char *note = c->omitted ? xasprintf("\nNot on the chart (nothing to draw): %s.\n",
						    c->omitted) : xstrdup("");
		char *img = xasprintf("%s![%s](charts/%s.svg)\n%s%s", next ? "" : "\n", c->title,
				      c->name, note, next ? "\n" : "");
		free(note);
		char *page = xasprintf("%.*s%s%s", (int)at, sb.buf, img, sb.buf + at);
		free(img);
		sb_free(&sb);
		sb_adds(&sb, page);
		free(page);
	}
	return sb_detach(&sb);
}

static void system_pages(const struct dataset *ds, int extensions, struct report_out *out)
{
	size_t len;
	struct site_charts sum = { NULL, 0 };
	char *d = page_summary(ds, &len);
	if (extensions) {
		site_summary_charts(ds, &sum);
		char *with = report_summary_with_charts(d, &sum);
		free(d);
		d = with;
		len = strlen(d);
	}
	add(out, xasprintf("%s/index.md", ds->system_id), d, len);
	d = page_method(ds, &len);
	add(out, xasprintf("%s/method.md", ds->system_id), d, len);
	/* each candidate's charts, drawn once: shown on its page, then written */
	struct site_charts *ch = xcalloc(ds->n_cand + 1, sizeof *ch);
	for (size_t i = 0; i < ds->n_cand; i++) {
		if (extensions)
			site_candidate_charts(ds, &ds->cand[i], &ch[i]);
		d = page_candidate_charted(ds, &ds->cand[i], extensions ? &ch[i] : NULL, &len);
		add(out, xasprintf("%s/%s.md", ds->system_id, ds->cand[i].id), d, len);
	}
	if (extensions && ds_has_checks(ds)) {
		d = page_checks(ds, &len);
		add(out, xasprintf("%s/checks.md", ds->system_id), d, len);
	}
	/* in page order, so two renders list the same files */
	for (size_t i = 0; i < ds->n_cand; i++) {
		chart_files(ds, &ch[i], out);
		site_charts_free(&ch[i]);
	}
	free(ch);
	chart_files(ds, &sum, out);
	site_charts_free(&sum);
}

static void shared_pages(const struct dataset *const *sys, size_t n, struct report_out *out)
{
	size_t len;
	char *d = page_index(sys, n, &len);
	add(out, xstrdup("index.md"), d, len);
	d = page_survey(sys, n, &len);
	add(out, xstrdup("symmetric-survey.md"), d, len);
	d = page_size_audit(sys[0], &len);
	add(out, xstrdup("size-audit.md"), d, len);
}

/* compare.md and its ratio charts, with two or more systems. */
static void compare_page(const struct dataset *const *sys, size_t n, struct report_out *out)
{
	struct site_charts *ch = xcalloc(n ? n : 1, sizeof *ch);
	size_t len;
	char *d = page_compare(sys, n, ch, &len);
	if (d) {
		add(out, xstrdup("compare.md"), d, len);
		for (size_t i = 0; i < n; i++)
			chart_files(sys[i], &ch[i], out);
		for (size_t k = 0; k < sys[0]->n_cand; k++) {
			const char *cand = sys[0]->cand[k].id;
			char *page = page_compare_candidate(sys, n, cand, &len);
			if (page)
				add(out, compare_candidate_page_name(cand), page, len);
		}
	}
	for (size_t i = 0; i < n; i++)
		site_charts_free(&ch[i]);
	free(ch);
}

int report_render(const struct dataset *ds, int extensions, struct report_out *out)
{
	memset(out, 0, sizeof *out);
	shared_pages(&ds, 1, out);
	system_pages(ds, extensions, out);
	return 0;
}

int report_render_systems(struct dataset *ds, size_t n, int extensions, struct report_out *out)
{
	memset(out, 0, sizeof *out);
	if (!n)
		return -1;
	const struct dataset **sys = xcalloc(n, sizeof *sys);
	for (size_t i = 0; i < n; i++)
		sys[i] = &ds[i];
	for (size_t i = 0; i < n; i++)
		dataset_set_peers(&ds[i], sys, n);
	shared_pages(sys, n, out);
	for (size_t i = 0; i < n; i++)
		system_pages(&ds[i], extensions, out);
	if (extensions)
		compare_page(sys, n, out);
	free(sys);
	return 0;
}

int report_render_published(const char *dataset_dir, struct report_out *out, char **err)
{
	struct strlist ids = STRLIST_INIT;
	struct dataset *ds;
	memset(out, 0, sizeof *out);
	*err = NULL;
	int rc = dataset_load_all_published(dataset_dir, &ids, &ds, err);
	if (!rc) {
		rc = report_render_systems(ds, ids.n, 1, out);
		datasets_free(ds, ids.n);
	}
	sl_free(&ids);
	return rc;
}

void report_out_free(struct report_out *out)
{
	for (size_t i = 0; i < out->n; i++) {
		free(out->f[i].path);
		free(out->f[i].data);
	}
	free(out->f);
	memset(out, 0, sizeof *out);
}
