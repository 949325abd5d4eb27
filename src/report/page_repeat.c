/*
 * page_repeat.c — the method page's "Repeatability" section: the sample of
 * units timed again at the end of the campaign (campaign/repeat.h), each
 * unit's ratio to its first record and their median and largest
 * |ratio − 1| (model/repeat.h), or why there is none.
 */
#include "report/pages.h"

#include <stdio.h>
#include <stdlib.h>

#include "method/format.h"
#include "model/repeat.h"
#include "report/md.h"

static void repeat_table(struct md_page *md, const struct repeat_set *r)
{
	static const char *const head[] = { "Candidate", "Instance", "Operation", "First",
					     "Again", "Again / first" };
	md_table(md, head, 6);
	for (size_t i = 0; i < r->n; i++) {
		const struct repeat_unit *u = &r->u[i];
		char a[FMT_MAX], b[FMT_MAX], q[FMT_MAX];
		char *inst = stem_cell(u->stem);
		snprintf(q, sizeof q, "%.3f", u->ratio);
		const char *cells[] = { u->cand, inst, u->op, fmt_time(a, &u->first_s),
					fmt_time(b, &u->again_s), q };
		md_row(md, cells);
		free(inst);
	}
}

void method_repeatability(struct md_page *md, const struct dataset *ds)
{
	md_block(md, "## Repeatability");
	struct repeat_set *r = NULL;
	char *err = NULL;
	if (repeat_compute(ds, &r, &err)) {
		md_blockf(md, "\xe2\x9a\xa0 The units timed again cannot be used: %s.", err);
		free(err);
		return;
	}
	if (!r || !r->n) {
		md_block(md, "No unit of this run was timed again (a campaign with `--no-repeat`, or "
			 "`measure` without `--repeat`), so the variation between two runs on this "
			 "host is not measured here.");
		repeat_free(r);
		return;
	}
	md_blockf(md, "After the timing, %zu unit(s) of %zu candidate(s) were timed again, "
		  "with the same plan, in processes of their own: per candidate the first "
		  "\xe2\x8c\x88n / 20\xe2\x8c\x89 of its n complete timing records (at least one, "
		  "about 5 %%) in the byte order of the SHA-256 of `<ID>/<label>__<op>`, a choice "
		  "that does not depend on the times. Their mean time per call differed from the first record by a "
		  "median of %.1f %% and at most %.1f %% (`%s`): a difference between two runs on "
		  "this host smaller than that is within its run-to-run variation. The records are "
		  "in `repeat/`.",
		  r->n, r->n_candidates, 100 * r->median_dev, 100 * r->max_dev, r->max_unit);
	repeat_table(md, r);
	repeat_free(r);
}
