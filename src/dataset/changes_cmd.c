/*
 * changes_cmd.c — see changes_cmd.h: `ngcc-perf changes`.
 */
#include "dataset/changes_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "report/changes.h"
#include "util/atomic.h"
#include "util/untrusted.h"

char *changes_compare_md(const struct dataset *a, const struct dataset *b, const char *id,
			 int from, int to, double threshold, int *regression, char **err)
{
	struct cmp_opts o = CMP_OPTS_DEFAULT;
	struct cmp_result r;
	char *na = xasprintf("version %d", from), *nb = xasprintf("version %d", to), *md = NULL;
	o.threshold = threshold;
	o.name_a = na;
	o.name_b = nb;
	o.only_candidate = id;
	if (!cmp_compute(a, b, &o, &r, err)) {
		md = cmp_markdown(&r, 3, NULL);
		*regression = cmp_exit_status(&r) != 0;
		cmp_free(&r);
	}
	free(na);
	free(nb);
	return md;
}

/* A run directory (campaign.json, read with the -C workspace) or a
 * published dataset (data/: its only system, or `system`). */
static int load_measurement(const struct changes_request *r, const char *dir,
			    struct dataset *ds, char **err)
{
	char *campaign = path_join(dir, "campaign.json"), *data = path_join(dir, "data");
	struct strlist ids = STRLIST_INIT;
	int rc = EXIT_OK;
	memset(ds, 0, sizeof *ds);
	if (path_exists(campaign)) {
		if (dataset_load_run(ds, r->workspace, dir, r->system, err))
			rc = EXIT_INPUT;
	} else if (path_is_dir(data)) {
		dataset_published_systems(dir, &ids);
		const char *sys = r->system ? r->system : ids.n == 1 ? ids.items[0] : NULL;
		if (!sys) {
			*err = xasprintf("%s holds %zu systems: name one with --system ID", dir, ids.n);
			rc = ids.n ? EXIT_USAGE : EXIT_INPUT;
		} else if (dataset_load_published(ds, dir, sys, err)) {
			rc = EXIT_INPUT;
		}
	} else {
		*err = xasprintf("%s is neither a run directory (no campaign.json) nor a published "
				 "dataset (no data/)", dir);
		rc = EXIT_INPUT;
	}
	sl_free(&ids);
	free(campaign);
	free(data);
	return rc;
}

/* The timing section from --a and --b, or NULL (none given). */
static int timing(const struct changes_request *r, int from, int to, char **md, int *regr,
		  char **err)
{
	struct dataset a, b;
	*md = NULL;
	if (!r->a && !r->b)
		return EXIT_OK;
	if (!r->a || !r->b) {
		*err = xstrdup("--a and --b go together: a measurement of each version");
		return EXIT_USAGE;
	}
	int rc = load_measurement(r, r->a, &a, err);
	if (rc)
		return rc;
	if ((rc = load_measurement(r, r->b, &b, err)) == 0) {
		*md = changes_compare_md(&a, &b, r->id, from, to, r->threshold, regr, err);
		rc = *md ? EXIT_OK : EXIT_INPUT;
		dataset_free(&b);
	}
	dataset_free(&a);
	return rc;
}

static int write_out(const char *path, const struct strbuf *md)
{
	if (!path) {
		fwrite(md->buf, 1, md->len, stdout);
		return EXIT_OK;
	}
	if (atomic_write(path, md->buf, md->len)) {
		ngcc_error("cannot write '%s': %s", path, strerror(errno));
		return EXIT_SYSTEM;
	}
	printf("changes: %s\n", path);
	return EXIT_OK;
}

int changes_make(const struct changes_request *r)
{
	struct version_log log;
	struct strbuf md = STRBUF_INIT;
	char *err = NULL, *timing_md = NULL;
	int regression = 0;
	int rc = changes_versions(r->workspace, r->id, &log, &err);
	int to = r->to, from = r->from;
	if (!rc) {
		to = to ? to : versions_current(&log)->number;
		from = from ? from : to - 1;
		if (log.n < 2) {
			err = xasprintf("candidate '%s' has one package version: nothing to compare "
					"(add a newer package with `ngcc-perf add PACKAGE --id %s`)",
					r->id, r->id);
			rc = EXIT_USAGE;
		}
		versions_free(&log);
	}
	if (!rc)
		rc = timing(r, from, to, &timing_md, &regression, &err);
	if (!rc) {
		struct changes_input in = { r->workspace, r->id, from, to, timing_md, NULL };
		rc = changes_render(&in, &md, &err);
	}
	if (rc)
		ngcc_error("changes: %s", err ? err : "failed");
	else
		rc = write_out(r->output, &md);
	if (!rc && regression)
		rc = EXIT_FAILED;
	sb_free(&md);
	free(timing_md);
	free(err);
	return rc;
}
