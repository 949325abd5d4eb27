/*
 * test_site.c — the HTML site (docs/report-format.md §10–§11) built from a small
 * published dataset made here and a hand-written Markdown tree:
 * byte-identical rebuilds, titles with underscores kept, every local link
 * resolving (and the checker catching a broken one), one CSV per table,
 * the versioned stylesheet, SHA256SUMS, the per-category pages, pages
 * without data neither written nor linked, and a chart whose marks are
 * recomputed from the CSV it links.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "evidence/json.h"
#include "charts/csv.h"
#include "report/pages.h"
#include "report/report.h"
#include "site/site.h"

#define SYS "x86_1"
#define SYS2 "arm_1"

static char tmpdir[64];

static void put(const char *rel, const char *text)
{
	char *p = path_join(tmpdir, rel), *d = path_dirname(p);
	assert_int_equal(mkdir_p(d, 0755), 0);
	assert_int_equal(write_file(p, text, strlen(text)), 0);
	free(d);
	free(p);
}

static void put_json(const char *rel, json_t *j)
{
	char *s = evidence_dumps(j);
	put(rel, s);
	free(s);
	json_decref(j);
}

/* A complete timing record with two trials of 10 calls, made by one
 * process (a record's status must be the one its processes make,
 * evidence/accept.h). */
static json_t *record(const char *cand, const char *label, const char *op, double c1, double c2)
{
	json_t *trials = json_pack("[{s:i,s:f},{s:i,s:f}]", "calls", 10, "cycles", c1 * 10,
				   "calls", 10, "cycles", c2 * 10);
	json_t *processes = json_pack("[{s:s,s:O}]", "status", "complete", "trials", trials);
	json_t *r = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:o,s:f,s:f,s:i,s:{s:i,s:i},"
			 "s:{s:i,s:i,s:i,s:i},s:{s:s,s:f}}",
			 "schema", "ngcc-perf/record/1", "status", "complete",
			 "candidate", cand, "label", label, "instance", label,
			 "variant", "reference", "operation", op, "trials", trials,
			 "mean_cycles", (c1 + c2) / 2, "mean_seconds", (c1 + c2) / 2e9,
			 "measurements", 20, "plan", "trials", 2, "iterations_per_trial", 10,
			 "sizes", "pk_bytes", 800, "sk_bytes", 1632, "ct_bytes", 768, "ss_bytes", 32,
			 "counter", "name", "tsc", "hz", 2.1e9);
	json_object_set_new(r, "processes", processes);
	return r;
}

/* System sys: kem-1 with two instances, kem-2 with one that is twice as
 * fast; every figure times scale (and enc of KEM-1-128 times enc_scale). */
static void make_system(const char *sys, double scale, double enc_scale)
{
	char rel[160];
	snprintf(rel, sizeof rel, "data/%s/campaign.json", sys);
	put_json(rel, json_pack("{s:s,s:s,s:s,s:s}", "schema", "ngcc-perf/campaign/1",
				"system_id", sys, "started_utc", "2026-09-25T10:02:21Z",
				"ended_utc", "2026-09-28T10:51:21Z"));
	static const char *const ops[] = { "keygen", "enc", "dec" };
	static const struct { const char *cand, *label; double f; } inst[] = {
		{ "kem-1", "KEM-1-128", 1 }, { "kem-1", "KEM-1-256", 100 }, { "kem-2", "KEM-2-128", 0.5 },
	};
	for (int l = 0; l < 3; l++) {
		for (int o = 0; o < 3; o++) {
			snprintf(rel, sizeof rel, "data/%s/records/%s/%s__%s.json", sys,
				 inst[l].cand, inst[l].label, ops[o]);
			double base = 1000.0 * (o + 1) * inst[l].f * scale;
			if (!l && o == 1)
				base *= enc_scale;
			put_json(rel, record(inst[l].cand, inst[l].label, ops[o], base * 0.9, base * 1.1));
		}
	}
	/* a hash candidate and the pseudoXOF baseline at two lengths */
	static const struct { const char *cand, *label; double f; } hashes[] = {
		{ "hash-1", "HASH-1-256", 3 }, { "iccs", "pseudoXOF-256", 2 },
	};
	for (int l = 0; l < 2; l++) {
		for (int L = 32; L <= 1024; L *= 32) {
			char op[32];
			snprintf(op, sizeof op, "hash_%d", L);
			snprintf(rel, sizeof rel, "data/%s/records/%s/%s__%s.json", sys,
				 hashes[l].cand, hashes[l].label, op);
			double cyc = hashes[l].f * L * scale;
			put_json(rel, record(hashes[l].cand, hashes[l].label, op, cyc, cyc));
		}
	}
}

static void make_dataset(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test_site.XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	make_system(SYS, 1, 1);
	make_system(SYS2, 2, 10);
	put("systems.csv", "ID;Arch;Hostname;Description\n" SYS ";x86_64;host1;test box\n"
	    SYS2 ";aarch64;host2;second box\n");
	put("security_targets.csv", "ID;Instance;TargetBits\nkem-1;KEM-1-128;128\n"
	    "kem-1;KEM-1-256;128\nkem-2;KEM-2-128;128\n");
}

static const char md_summary[] =
	"[Performance measurements](../index.md) \xe2\x80\xba system: **x86_1**\n\n"
	"# Performance \xe2\x80\x94 x86-64, system x86_1\n\n"
	"## Key encapsulation\n\n"
	"Cycles at 2.10 GHz; 1 M cycles = 476 \xc2\xb5s.\n\n"
	"| id | instance |\n|---|---|\n| [kem-1](kem-1.md) | `KEM-1-128` |\n\n"
	"## Hash functions\n\n| id |\n|---|\n| hash-1 |\n";
static const char md_cand[] =
	"[Performance measurements](../index.md) \xe2\x80\xba [x86_1](index.md) \xe2\x80\xba kem-1\n\n"
	"# kem-1 KEM One \xe2\x80\x94 performance on x86-64 (system x86_1)\n\n"
	"## 3. Functional testing (KAT)\n\n"
	"| instance | build flags | KAT |\n|---|---|---|\n| `KEM-1-128` | guide | PASS |\n\n"
	"## 4. Performance\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
	"See the [method](method.md).\n\n"
	"## 7. Raw evidence index\n\n| instance | item | file |\n|---|---|---|\n"
	"| `KEM-1-128` | timing keygen | `records/kem-1/KEM-1-128__keygen.json` |\n"
	"| `KEM-1-128` | KAT log | `kat/kem-1/KEM-1-128.log` |\n";
static const char md_method[] = "# Performance method and limitations \xe2\x80\x94 system x86_1\n\n"
	"## Measurement\n\nText.\n";
static const char md_index[] = "# NGCC performance measurements\n\n"
	"[x86_1 summary](x86_1/index.md)\n";

struct fixture {
	struct dataset ds, ds2;
	struct site_system sys[2];
	struct site_files md;
	struct site_files a, b, two;   /* one system twice; both systems */
};

/* The page as the report writes it: with its chart links (A.8 on a
 * candidate page, the KEM scatter on a summary). */
static void add_with_charts(struct site_files *md, const char *path, const char *text,
			    const struct dataset *ds, const struct ds_candidate *c)
{
	struct site_charts ch = { NULL, 0 };
	struct strbuf sb = STRBUF_INIT;
	char *page;
	if (c) {
		site_candidate_charts(ds, c, &ch);
		sb_adds(&sb, text);
		if (ch.n)
			sb_adds(&sb, "\n### A.8 Charts\n");
		for (size_t i = 0; i < ch.n; i++)
			sb_addf(&sb, "\n![%s](charts/%s.svg)\n", ch.v[i].title, ch.v[i].name);
		page = sb_detach(&sb);
	} else {
		/* each summary chart follows its section's table */
		site_summary_charts(ds, &ch);
		page = report_summary_with_charts(text, &ch);
	}
	site_charts_free(&ch);
	site_files_add(md, path, page, strlen(page));
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	char *err = NULL, *dir;
	make_dataset();
	if (dataset_load_published(&f->ds, tmpdir, SYS, &err))
		fail_msg("load: %s", err);
	if (dataset_load_published(&f->ds2, tmpdir, SYS2, &err))
		fail_msg("load: %s", err);
	dir = xasprintf("%s/data/" SYS, tmpdir);
	f->sys[0] = (struct site_system){ &f->ds, dir, NULL };
	dir = xasprintf("%s/data/" SYS2, tmpdir);
	f->sys[1] = (struct site_system){ &f->ds2, dir, NULL };
	site_files_add_str(&f->md, "index.md", md_index);
	add_with_charts(&f->md, SYS "/index.md", md_summary, &f->ds, NULL);
	add_with_charts(&f->md, SYS "/kem-1.md", md_cand, &f->ds, &f->ds.cand[0]);
	site_files_add_str(&f->md, SYS "/method.md", md_method);
	struct site_input in = { f->sys, 1, &f->md, "9.9.9" };
	assert_int_equal(site_build(&in, &f->a, &err), 0);
	assert_int_equal(site_build(&in, &f->b, &err), 0);
	/* With two systems the report's tree has compare.md (report/page_compare.c). */
	const struct dataset *both[2] = { &f->ds, &f->ds2 };
	struct site_charts cmp_charts[2] = { { NULL, 0 }, { NULL, 0 } };
	size_t cmp_len;
	char *cmp = page_compare(both, 2, cmp_charts, &cmp_len);
	assert_non_null(cmp);
	site_files_add(&f->md, "compare.md", cmp, cmp_len);
	/* and compare-<ID>.md per candidate measured on both, which it links */
	for (size_t i = 0; i < f->ds.n_cand; i++) {
		char *page = page_compare_candidate(both, 2, f->ds.cand[i].id, &cmp_len);
		char *name = compare_candidate_page_name(f->ds.cand[i].id);
		if (page)
			site_files_add(&f->md, name, page, cmp_len);
		free(name);
	}
	/* they link every compared candidate's page on both systems, as the
	 * report's tree has them */
	char *summary2 = xasprintf("%s/index.md", both[1]->system_id);
	site_files_add_str(&f->md, summary2, "# summary\n");
	free(summary2);
	for (size_t s = 0; s < 2; s++)
		for (size_t i = 0; i < both[s]->n_cand; i++) {
			char *path = xasprintf("%s/%s.md", both[s]->system_id, both[s]->cand[i].id);
			if (!site_files_find(&f->md, path)) {
				char *stub = xasprintf("# %s\n", both[s]->cand[i].id);
				site_files_add(&f->md, path, stub, strlen(stub));
			}
			free(path);
		}
	site_charts_free(&cmp_charts[0]);
	site_charts_free(&cmp_charts[1]);
	in.n_sys = 2;
	assert_int_equal(site_build(&in, &f->two, &err), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	site_files_free(&f->a);
	site_files_free(&f->b);
	site_files_free(&f->two);
	site_files_free(&f->md);
	free((char *)f->sys[0].evidence_dir);
	free((char *)f->sys[1].evidence_dir);
	dataset_free(&f->ds);
	dataset_free(&f->ds2);
	rm_rf(tmpdir);
	free(f);
	return 0;
}

static const char *file_text(const struct site_files *s, const char *path)
{
	const struct site_file *f = site_files_find(s, path);
	if (!f)
		fail_msg("missing %s", path);
	return f->data;
}

static void deterministic(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(f->a.n, f->b.n);
	for (size_t i = 0; i < f->a.n; i++) {
		assert_string_equal(f->a.v[i].path, f->b.v[i].path);
		assert_int_equal(f->a.v[i].len, f->b.v[i].len);
		assert_memory_equal(f->a.v[i].data, f->b.v[i].data, f->a.v[i].len);
	}
}

static void template(void **state)
{
	struct fixture *f = *state;
	const char *cand = file_text(&f->a, SYS "/kem-1.html");
	assert_non_null(strstr(cand, "<title>ngcc-perf: kem-1 KEM One \xe2\x80\x94 performance on "
			       "x86-64 (system x86_1)</title>"));
	char v[9], *link;
	site_css_version(v);
	link = xasprintf("href=\"../style.css?v=%s\"", v);
	assert_non_null(strstr(cand, link));
	free(link);
	char hex[65];
	const struct site_file *css = site_files_find(&f->a, "style.css");
	sha256_hex(css->data, css->len, hex);
	assert_memory_equal(hex, v, 8);
	assert_non_null(strstr(css->data, "prefers-color-scheme: dark"));
	assert_non_null(strstr(css->data, "@media print"));
	assert_non_null(strstr(css->data, "position: sticky"));
	assert_non_null(strstr(cand, "<p class=\"crumb\"><a href=\"../index.html\">"));
	assert_non_null(strstr(cand, "Data as of 2026-09-28T10:51:21"));
	assert_non_null(strstr(cand, "ngcc-perf 9.9.9"));
	assert_non_null(strstr(cand, "<td class=\"ok\">PASS</td>"));
	assert_non_null(strstr(cand, "href=\"method.html\""));
	/* evidence paths link to their copy; a missing file stays plain */
	assert_non_null(strstr(cand, "<td><a href=\"../data/x86_1/records/kem-1/KEM-1-128__keygen.json\">"
			       "<code>records/kem-1/KEM-1-128__keygen.json</code></a></td>"));
	assert_non_null(strstr(cand, "<td><code>kat/kem-1/KEM-1-128.log</code></td>"));
	assert_null(strstr(cand, "<script"));
	/* one system: no comparison page, and no link to one */
	assert_null(site_files_find(&f->a, "compare.html"));
	assert_null(strstr(cand, "Compare"));
	/* pages of the report only: no survey page was given, none is linked */
	assert_null(strstr(cand, "symmetric-survey.html"));
}

static void tables_have_csv(void **state)
{
	struct fixture *f = *state;
	for (size_t i = 0; i < f->a.n; i++) {
		const struct site_file *p = &f->a.v[i];
		if (!str_ends_with(p->path, ".html"))
			continue;
		size_t k = 0;
		for (const char *t = p->data; (t = strstr(t, "<table>")); t++)
			k++;
		char *stem = xstrndup(p->path, strlen(p->path) - 5);
		for (size_t j = 1; j <= k + 1; j++) {
			char *csv = xasprintf("%s-table%zu.csv", stem, j);
			if (j <= k)
				assert_non_null(site_files_find(&f->a, csv));
			else
				assert_null(site_files_find(&f->a, csv));
			free(csv);
		}
		free(stem);
	}
	assert_string_equal(file_text(&f->a, SYS "/kem-1-table1.csv"),
			    "instance,build flags,KAT\nKEM-1-128,guide,PASS\n");
}

static void links_resolve(void **state)
{
	struct fixture *f = *state;
	struct strlist problems = STRLIST_INIT;
	size_t n = site_check_links(&f->a, &problems);
	for (size_t i = 0; i < problems.n; i++)
		print_message("dangling: %s\n", problems.items[i]);
	assert_int_equal(n, 0);
	sl_free(&problems);
	/* and the checker does catch one */
	struct site_files broken = { NULL, 0 };
	site_files_add_str(&broken, "a/x.html", "<a href=\"../b.html#top\">b</a>"
			   "<img src=\"../a/x.html\"><a href=\"https://e.org/\">e</a>"
			   "<a href=\"../../up.html\">up</a>");
	n = site_check_links(&broken, &problems);
	assert_int_equal(n, 2);
	assert_string_equal(problems.items[0], "a/x.html: ../b.html");
	sl_free(&problems);
	site_files_free(&broken);
}

static void category_pages(void **state)
{
	struct fixture *f = *state;
	const char *kem = file_text(&f->a, SYS "/kem.html");
	assert_non_null(strstr(kem, "<title>ngcc-perf: Key encapsulation \xe2\x80\x94 system x86_1</title>"));
	assert_non_null(strstr(kem, "href=\"kem-1.html\""));
	assert_null(site_files_find(&f->a, SYS "/sign.html"));
	/* the hash page carries the cycles-per-byte chart: 2 lines × 2 lengths */
	const char *hash = file_text(&f->a, SYS "/hash.html");
	const char *csv = file_text(&f->a, SYS "/charts/hash-cycles-per-byte.csv");
	size_t marks = 0;
	for (const char *q = hash; (q = strstr(q, "class=\"mark\"")); q++)
		marks++;
	assert_int_equal(marks, 4);
	assert_non_null(strstr(csv, "\nhash-1,HASH-1-256,32,96,3\n"));
	assert_non_null(strstr(csv, "\niccs,pseudoXOF-256,1024,2048,2\n"));
	assert_non_null(strstr(hash, "stroke-dasharray=\"5 3\""));
	const char *sum = file_text(&f->a, SYS "/index.html");
	assert_non_null(strstr(sum, "<nav class=\"jump\">"));
	assert_non_null(strstr(sum, "href=\"kem.html\""));
}

static void downloads(void **state)
{
	struct fixture *f = *state;
	const char *sums = file_text(&f->a, "data/" SYS "/SHA256SUMS");
	size_t lines = 0;
	for (const char *l = sums; *l; l = strchr(l, '\n') + 1) {
		char hex[65], calc[65], path[256];
		assert_int_equal(sscanf(l, "%64s  %255s", hex, path), 2);
		char *full = xasprintf("data/" SYS "/%s", path);
		const struct site_file *d = site_files_find(&f->a, full);
		assert_non_null(d);
		sha256_hex(d->data, d->len, calc);
		assert_string_equal(hex, calc);
		free(full);
		lines++;
	}
	/* campaign + 13 records (copied as they are) + 3 CSVs + dataset.json +
	 * 6 schemas (campaign, build, record, profile, check, dataset) */
	assert_int_equal(lines, 1 + 13 + 3 + 1 + 6);
	const char *summary = file_text(&f->a, "data/" SYS "/summary.csv");
	assert_true(str_starts_with(summary, CSV_SUMMARY_COLUMNS "\n"));
	assert_non_null(strstr(summary, "\nx86_1,kem-1,KEM-1-128,reference,keygen,complete,128,1000,"));
	assert_non_null(site_files_find(&f->a, "data/" SYS "/records/kem-1/KEM-1-256__dec.json"));
	assert_non_null(site_files_find(&f->a, "data/" SYS "/schema/record.schema.json"));
	assert_non_null(site_files_find(&f->a, "data/" SYS "/schema/check.schema.json"));
}

/* Recompute the cycles chart's marks from the CSV it links: one mark per
 * row, each circle at the log-axis position of the row's mean. */
static void chart_matches_csv(void **state)
{
	struct fixture *f = *state;
	const char *svg = file_text(&f->a, SYS "/charts/kem-1-cycles.svg");
	const char *href = strstr(svg, "<a href=\"");
	assert_non_null(href);
	href += 9;
	char *csv_name = xstrndup(href, strcspn(href, "\""));
	assert_string_equal(csv_name, "kem-1-cycles.csv");
	char *csv_path = xasprintf(SYS "/charts/%s", csv_name);
	char ***rows;
	size_t *nc;
	size_t n = csv_parse(file_text(&f->a, csv_path), &rows, &nc);
	assert_int_equal(n, 1 + 6);
	size_t marks = 0;
	for (const char *p = svg; (p = strstr(p, "class=\"mark\"")); p++)
		marks++;
	assert_int_equal(marks, n - 1);
	double lo = INFINITY, hi = 0;
	for (size_t i = 1; i < n; i++) {
		lo = fmin(lo, strtod(rows[i][3], NULL));
		hi = fmax(hi, strtod(rows[i][4], NULL));
	}
	double d0 = floor(log10(lo)), d1 = ceil(log10(hi));
	/* the chart's plot spans x 240 to 736 */
	for (size_t i = 1; i < n; i++) {
		double v = strtod(rows[i][2], NULL);
		char want[64];
		snprintf(want, sizeof want, "<circle cx=\"%.2f\"",
			 240 + (log10(v) - d0) / (d1 - d0) * (736 - 240));
		assert_non_null(strstr(svg, want));
	}
	/* the inline copy on the page links the same CSV from the page dir */
	assert_non_null(strstr(file_text(&f->a, SYS "/kem-1.html"), "href=\"charts/kem-1-cycles.csv\""));
	csv_rows_free(rows, nc, n);
	free(csv_path);
	free(csv_name);
}

/* One row per candidate at 128 bits, its representative the faster
 * instance; ties share the average rank; rows by enc cycles. */
static void equal_security(void **state)
{
	struct fixture *f = *state;
	const char *p = file_text(&f->a, SYS "/equal-security-128.html");
	assert_null(site_files_find(&f->a, SYS "/equal-security-256.html"));
	assert_non_null(site_files_find(&f->a, SYS "/equal-security-128-by-rank.html"));
	assert_non_null(site_files_find(&f->a, SYS "/equal-security-128-by-pk.html"));
	const char *k2 = strstr(p, "<code>KEM-2-128</code>");
	const char *k1 = strstr(p, "<code>KEM-1-128</code>");
	assert_non_null(k2);
	assert_non_null(k1);
	assert_true(k2 < k1);
	assert_null(strstr(p, "<code>KEM-1-256</code>"));
	assert_non_null(strstr(p, "<td>1.25</td>"));
	assert_non_null(strstr(p, "<td>1.75</td>"));
	assert_non_null(strstr(p, "<td>800 <small class=\"rank\">(#1.5)</small></td>"));
	assert_non_null(strstr(p, "class=\"mark\""));
	assert_non_null(strstr(file_text(&f->a, SYS "/index.html"), "href=\"equal-security-128.html\""));
}

/* With two systems: compare.html with ratios and the outlier flagged,
 * linked from the navigation; with one, neither. */
static void compare(void **state)
{
	struct fixture *f = *state;
	const char *p = file_text(&f->two, "compare.html");
	assert_non_null(strstr(p, "<td>2.00</td>"));
	assert_non_null(strstr(p, "<td>20.00</td>"));
	assert_int_equal(strstr(strstr(p, "<td>20.00</td>") + 1, "outlier") != NULL, 1);
	size_t outliers = 0;
	for (const char *q = p; (q = strstr(q, "<td>outlier</td>")); q++)
		outliers++;
	assert_int_equal(outliers, 1);
	assert_non_null(strstr(file_text(&f->two, SYS "/kem-1.html"), "href=\"../compare.html\""));
	assert_non_null(strstr(p, "href=\"compare-kem-1.html\""));
	assert_non_null(strstr(file_text(&f->two, "compare-kem-1.html"), "<td>2.00</td>"));
	assert_non_null(strstr(p, "<svg"));
	struct strlist problems = STRLIST_INIT;
	size_t bad = site_check_links(&f->two, &problems);
	for (size_t i = 0; i < problems.n; i++)
		print_message("dangling: %s\n", problems.items[i]);
	assert_int_equal(bad, 0);
	sl_free(&problems);
	assert_null(site_files_find(&f->a, "compare.html"));
}

/* What `site --dataset DIR` writes: two renders, through two spellings
 * of the folder, are byte-identical and hold no path of it; the candidate
 * page inlines the charts its A.8 links. */
static void render_published(void **state)
{
	(void)state;
	struct site_files x, y;
	char *err = NULL, *alt = xasprintf("%s/data/../", tmpdir);
	if (site_render_published(tmpdir, &x, &err) || site_render_published(alt, &y, &err))
		fail_msg("render: %s", err);
	assert_int_equal(x.n, y.n);
	for (size_t i = 0; i < x.n; i++) {
		assert_string_equal(x.v[i].path, y.v[i].path);
		assert_int_equal(x.v[i].len, y.v[i].len);
		assert_memory_equal(x.v[i].data, y.v[i].data, x.v[i].len);
		char *text = xstrndup(x.v[i].data, x.v[i].len);
		if (strstr(text, tmpdir))
			fail_msg("%s holds the dataset path", x.v[i].path);
		free(text);
	}
	/* the cycles chart is inline right after the §4 table, A.8 lists it */
	const char *page = file_text(&x, SYS "/kem-1.html");
	const char *perf = strstr(page, "4. Performance</h2>");
	const char *res = strstr(page, "5. Resource consumption</h2>");
	const char *a8 = strstr(page, "A.8 Charts");
	assert_non_null(perf);
	assert_non_null(res);
	assert_non_null(a8);
	const char *svg = strstr(perf, "<svg");
	assert_true(svg && svg < res);
	assert_non_null(strstr(a8, "href=\"charts/kem-1-cycles.svg\""));
	assert_non_null(site_files_find(&x, SYS "/charts/kem-1-cycles.svg"));
	struct strlist problems = STRLIST_INIT;
	assert_int_equal(site_check_links(&x, &problems), 0);
	sl_free(&problems);
	struct site_files none;
	assert_int_equal(site_render_published("/nonexistent-ngcc", &none, &err), -1);
	assert_int_equal(none.n, 0);
	assert_non_null(strstr(err, "/nonexistent-ngcc"));
	free(err);
	site_files_free(&x);
	site_files_free(&y);
	free(alt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(deterministic),
		cmocka_unit_test(template),
		cmocka_unit_test(tables_have_csv),
		cmocka_unit_test(links_resolve),
		cmocka_unit_test(category_pages),
		cmocka_unit_test(downloads),
		cmocka_unit_test(chart_matches_csv),
		cmocka_unit_test(equal_security),
		cmocka_unit_test(compare),
		cmocka_unit_test(render_published),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
