/*
 * cmd_site.c — `ngcc-perf site --dataset DIR [--out DIR]`: the static HTML
 * site (report-format §10–§11) from the Markdown pages of `report`, with
 * charts, per-table CSVs and the data/<SYS>/ downloads.  The output is a
 * pure function of the data, so two builds are byte-identical; every local
 * link is checked before the command succeeds.
 */
#include "cli/cli.h"
#include "report/dataset.h"
#include "report/report.h"
#include "report/site.h"

#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NGCC_VERSION
#define NGCC_VERSION "0.0.0"
#endif

int cmd_site(int argc, char **argv, const struct cli_ctx *ctx);

static void site_usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf [-C DIR] site --dataset DIR [--out DIR] [--system ID]\n"
		"\n"
		"Write the static HTML site: every report page as HTML (one template, no\n"
		"JavaScript, relative links so it works from file:// and under any base\n"
		"URL), per-category summary pages, SVG charts, a CSV file per table, and\n"
		"data/<SYS>/ with the evidence, summary.csv, profiles.csv, sizes.csv,\n"
		"dataset.json, schema/ and SHA256SUMS.  No clock is read: rebuilding from\n"
		"the same data gives the same bytes.\n"
		"\n"
		"--dataset DIR is either a published dataset (DIR/data/<SYS>/ for each\n"
		"system, catalogs in DIR) or a run directory of 'ngcc-perf measure' (it\n"
		"holds campaign.json); a run directory is read with the workspace's\n"
		"build/ and catalogs, like 'ngcc-perf report --run'.\n"
		"\n"
		"Options:\n"
		"  --dataset DIR  published dataset or run directory (relative paths are\n"
		"                 taken from the workspace)\n"
		"  --out DIR      output folder (default: DIR/site for a dataset,\n"
		"                 <workspace>/site for a run); a previous site there is\n"
		"                 replaced, any other non-empty folder is refused\n"
		"  --system ID    system id of a run directory (default as for report)\n"
		"  -h, --help     show this help\n"
		"\n"
		"Exit: 0 site written; 1 written but a local link does not resolve;\n"
		"2 usage or refused --out; 3 missing or corrupt data; 4 cannot write.\n");
}

/* The systems of a published dataset: systems.csv order for those with
 * data, then any other data/<SYS>/ in byte order. */
static void published_systems(const char *dir, struct strlist *ids)
{
	struct strlist present = STRLIST_INIT;
	char *data = path_join(dir, "data");
	DIR *d = opendir(data);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char *p = path_join(data, e->d_name);
		if (e->d_name[0] != '.' && path_is_dir(p))
			sl_push(&present, e->d_name);
		free(p);
	}
	if (d)
		closedir(d);
	sl_sort(&present);
	char *cat = path_join(dir, "systems.csv"), *text = NULL;
	if (!read_file(cat, &text, NULL)) {
		char *save = NULL;
		for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			char *id = str_trim(l);
			id[strcspn(id, ";")] = '\0';
			str_trim(id);
			if (sl_contains(&present, id) && !sl_contains(ids, id))
				sl_push(ids, id);
		}
	}
	for (size_t i = 0; i < present.n; i++)
		if (!sl_contains(ids, present.items[i]))
			sl_push(ids, present.items[i]);
	free(text);
	free(cat);
	free(data);
	sl_free(&present);
}

struct loaded {
	struct dataset *ds;
	struct site_system *sys;
	char **roots;
	size_t n;
};

static int load_all(const char *dir, const char *system, const struct cli_ctx *ctx,
		    struct loaded *l, char **err)
{
	struct strlist ids = STRLIST_INIT;
	char *camp = path_join(dir, "campaign.json");
	int run_mode = path_is_file(camp);
	free(camp);
	if (run_mode)
		sl_push(&ids, system ? system : "");
	else
		published_systems(dir, &ids);
	if (!ids.n) {
		*err = xasprintf("%s: neither a run directory (no campaign.json) nor a published "
				 "dataset (no data/<SYS>/); give --dataset the folder that "
				 "'ngcc-perf measure --run' or 'publish' wrote", dir);
		return -1;
	}
	l->n = ids.n;
	l->ds = xcalloc(ids.n, sizeof *l->ds);
	l->sys = xcalloc(ids.n, sizeof *l->sys);
	l->roots = xcalloc(ids.n, sizeof *l->roots);
	int rc = 0;
	for (size_t i = 0; i < ids.n && !rc; i++) {
		if (run_mode) {
			rc = dataset_load_run(&l->ds[i], ctx->workspace, dir, system, err);
			l->roots[i] = xstrdup(dir);
		} else {
			rc = dataset_load_published(&l->ds[i], dir, ids.items[i], err);
			l->roots[i] = xasprintf("%s/data/%s", dir, ids.items[i]);
		}
		l->sys[i] = (struct site_system){ &l->ds[i], l->roots[i],
						  run_mode ? ctx->workspace : NULL };
	}
	sl_free(&ids);
	return rc;
}

static void free_all(struct loaded *l)
{
	for (size_t i = 0; i < l->n; i++) {
		dataset_free(&l->ds[i]);
		free(l->roots[i]);
	}
	free(l->ds);
	free(l->sys);
	free(l->roots);
}

/* Every system's pages; the shared top-level pages come from the first. */
/* All systems are rendered together so breadcrumbs, the survey's share
 * columns and the landing page know about every system. */
static void render_markdown(const struct loaded *l, struct site_files *md)
{
	struct report_out pages;
	report_render_systems(l->ds, l->n, 1, &pages);
	for (size_t k = 0; k < pages.n; k++) {
		struct report_file *f = &pages.f[k];
		site_files_add(md, f->path, f->data, f->len);
		f->data = NULL;
	}
	report_out_free(&pages);
}

static int build_and_write(const struct loaded *l, const char *out)
{
	struct site_files md = { NULL, 0 }, site = { NULL, 0 };
	struct site_input in = { l->sys, l->n, &md, NGCC_VERSION };
	char *err = NULL;
	int rc = EXIT_OK;
	render_markdown(l, &md);
	if (site_build(&in, &site, &err)) {
		ngcc_error("%s", err);
		rc = EXIT_INPUT;
	} else if (site_write(&site, out, &err)) {
		ngcc_error("%s", err);
		rc = strstr(err, "cannot write") || strstr(err, "cannot remove") ? EXIT_SYSTEM : EXIT_USAGE;
	} else {
		struct strlist problems = STRLIST_INIT;
		size_t bad = site_check_links(&site, &problems);
		for (size_t i = 0; i < problems.n; i++)
			ngcc_error("dangling link in %s/%s", out, problems.items[i]);
		if (bad) {
			ngcc_error("%zu local link(s) do not resolve; the site in %s is incomplete",
				   bad, out);
			rc = EXIT_FAILED;
		}
		sl_free(&problems);
		printf("site: %zu file(s) in %s\n", site.n, out);
	}
	free(err);
	site_files_free(&site);
	site_files_free(&md);
	return rc;
}

int cmd_site(int argc, char **argv, const struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "dataset", required_argument, NULL, 'd' },
		{ "out", required_argument, NULL, 'o' },
		{ "system", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *ds_arg = NULL, *out_arg = NULL, *system = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': ds_arg = optarg; break;
		case 'o': out_arg = optarg; break;
		case 's': system = optarg; break;
		case 'h': site_usage(stdout); return EXIT_OK;
		default: site_usage(stderr); return EXIT_USAGE;
		}
	}
	if (optind != argc || !ds_arg) {
		ngcc_error("site needs --dataset DIR (and no other arguments); see "
			   "'ngcc-perf site --help'");
		return EXIT_USAGE;
	}
	char *dir = ws_resolve(ctx, ds_arg);
	char *camp = path_join(dir, "campaign.json");
	char *out = out_arg ? ws_resolve(ctx, out_arg)
		: path_is_file(camp) ? ws_path(ctx, "site") : path_join(dir, "site");
	struct loaded l = { 0 };
	char *err = NULL;
	int rc;
	if (!path_is_dir(dir)) {
		ngcc_error("%s: dataset folder not found; give --dataset a published dataset or "
			   "a run directory", dir);
		rc = EXIT_INPUT;
	} else if (load_all(dir, system, ctx, &l, &err)) {
		ngcc_error("%s", err ? err : dir);
		rc = EXIT_INPUT;
	} else {
		rc = build_and_write(&l, out);
	}
	free_all(&l);
	free(err);
	free(camp);
	free(out);
	free(dir);
	return rc;
}
