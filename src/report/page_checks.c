/*
 * page_checks.c — what `ngcc-perf check` found, on three kinds of page:
 * the candidate page's additional section "A.10 Correctness and side
 * channels" (docs/report-format.md §5.9 shape: rows start with the label code
 * span, per-operation rows with "`label` op"), the summary's checks
 * column, and the system page <SYS>/checks.md listing every checked
 * instance and every finding.  All of it from the check records
 * (evidence/check_json.h) the dataset holds.
 */
#include "report/pages.h"

#include <stdlib.h>
#include <string.h>

#include "evidence/check_json.h"
#include "evidence/json.h"
#include "method/format.h"
#include "method/types.h"

#define DASH FMT_DASH

static const char *const column_text =
	"Columns: *functional*, random-seed round trips on the timed library with every call "
	"checked (return codes, lengths, canaries around every buffer, inputs unmodified, "
	"deterministic decapsulation or verification, a tampered ciphertext rejected or giving "
	"another secret, a tampered signature or message rejected, both parties of a key "
	"exchange agreeing and a tampered pass message making a later step fail or the "
	"secrets differ, unaligned buffers); "
	"*ASan+UBSan*, the same on a rebuild with AddressSanitizer and "
	"UndefinedBehaviorSanitizer; *memcheck*, valgrind memcheck of a short round trip on a "
	"`-g` rebuild with every input read-only during its call; *constant time*, valgrind "
	"memcheck with the secret keys (key exchange: and the parties' initial states) and "
	"every DRNG output marked secret and the public outputs declassified, so that each finding is a branch or a memory index depending "
	"on a secret. `\xe2\x80\x93` means not checked.";

/* ---- cells ------------------------------------------------------------------- */

static int any_check(const struct ds_instance *in)
{
	for (int k = 0; k < CHECK_N; k++)
		if (in->check[k])
			return 1;
	return 0;
}

static long long suppressed_count(const json_t *rec)
{
	long long n = 0;
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(rec, "suppressed"), i, s)
		n += jget_int(s, "count", 0);
	return n;
}

/* "clean (1000 rounds)", "2 findings", "failed", "timeout", "–" */
static char *record_cell(const json_t *rec)
{
	if (!rec)
		return xstrdup(DASH);
	const char *verdict = jget_str(rec, "verdict", NULL);
	if (!verdict)
		return xstrdup(jget_str(rec, "status", "failed"));
	struct strbuf sb = STRBUF_INIT;
	long long n = jget_int(rec, "findings_count", 0);
	if (n)
		sb_addf(&sb, "%lld finding%s", n, n == 1 ? "" : "s");
	else
		sb_adds(&sb, "clean");
	const json_t *done = json_object_get(rec, "rounds_done");
	long long planned = jget_int(json_object_get(rec, "plan"), "rounds", 0);
	if (json_is_integer(done) && json_integer_value(done) == planned)
		sb_addf(&sb, " (%lld rounds)", planned);
	else if (json_is_integer(done))
		sb_addf(&sb, " (%lld of %lld rounds)", (long long)json_integer_value(done), planned);
	long long hidden = suppressed_count(rec);
	if (hidden)
		sb_addf(&sb, "; %lld reviewed suppressed", hidden);
	return sb_detach(&sb);
}

char *check_summary_cell(const struct ds_instance *in)
{
	long long found = 0;
	int present = 0, incomplete = 0;
	for (int k = 0; k < CHECK_N; k++) {
		const json_t *r = in->check[k];
		if (!r)
			continue;
		present++;
		found += jget_int(r, "findings_count", 0);
		incomplete += !jget_str(r, "verdict", NULL);
	}
	if (!present)
		return xstrdup(DASH);
	if (found)
		return xasprintf("%lld finding%s", found, found == 1 ? "" : "s");
	if (incomplete)
		return xstrdup("incomplete");
	return present == CHECK_N ? xstrdup("clean") : xasprintf("clean (%d of %d checks)",
								   present, CHECK_N);
}

/* The file and line of a finding, shown from the package's root:
 * `Implementations/…/poly.c:75` (`poly_uniform`). */
static char *location_cell(const char *cand, const json_t *loc)
{
	const char *file = jget_str(loc, "file", NULL);
	if (!file)
		return xstrdup(DASH);
	char *prefix = xasprintf("candidates/%s/source/", cand);
	const char *shown = str_starts_with(file, prefix) ? file + strlen(prefix) : file;
	char *where = xasprintf("%s:%lld", shown, jget_int(loc, "line", 0));
	char *code = md_code(where), *out;
	const char *fn = jget_str(loc, "function", NULL);
	if (fn) {
		char *fc = md_code(fn);
		out = xasprintf("%s (%s)", code, fc);
		free(fc);
		free(code);
	} else {
		out = code;
	}
	free(where);
	free(prefix);
	return out;
}

static int is_secret_kind(const char *kind)
{
	return !strcmp(kind, FK_SECRET_BRANCH) || !strcmp(kind, FK_SECRET_INDEX) ||
	       !strcmp(kind, FK_SECRET_SYSCALL);
}

/* A constant-time finding by its kind and the secret it came from; the
 * others by what the check said. */
static char *finding_text(const json_t *f)
{
	const char *kind = jget_str(f, "kind", "?");
	const char *origin = jget_str(f, "origin", NULL);
	if (is_secret_kind(kind))
		return origin ? xasprintf("%s (%s)", kind, origin) : xstrdup(kind);
	return xstrdup(jget_str(f, "what", kind));
}

/* ---- tables ------------------------------------------------------------------ */

static const char *const status_hdr[] = { "id", "instance", "functional", "ASan+UBSan",
	"memcheck", "constant time" };

/* The rows of the status table (with_id: the id column first). */
static void status_rows(struct md_page *md, const struct ds_candidate *c, int with_id)
{
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct ds_instance *in = &c->inst[i];
		if (!any_check(in))
			continue;
		char *cells[6];
		int n = 0;
		if (with_id)
			cells[n++] = xasprintf("[%s](%s.md)", c->id, c->id);
		cells[n++] = instance_cell(in);
		for (int k = 0; k < CHECK_N; k++)
			cells[n++] = record_cell(in->check[k]);
		md_row(md, (const char *const *)cells);
		for (int k = 0; k < n; k++)
			free(cells[k]);
	}
}

/* Constant time per operation: every operation the run exercised, with
 * zero counts too. */
static void consttime_table(struct md_page *md, const struct ds_candidate *c)
{
	static const char *const hdr[] = { "instance \xc2\xb7 operation", "secret-dependent branches",
		"secret-dependent memory indices", "other findings" };
	int started = 0;
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct ds_instance *in = &c->inst[i];
		const json_t *r = in->check[CHECK_CONSTTIME];
		if (!r || !jget_str(r, "verdict", NULL))
			continue;
		size_t t;
		json_t *test;
		json_array_foreach(json_object_get(r, "tests"), t, test) {
			if (strcmp(jget_str(test, "test", ""), "constant-time run"))
				continue;
			if (!started++)
				md_table(md, hdr, 4);
			const char *op = jget_str(test, "operation", "?");
			const json_t *e = json_object_get(json_object_get(r, "operations"), op);
			const json_t *kinds = json_object_get(e, "kinds");
			long long br = jget_int(kinds, FK_SECRET_BRANCH, 0);
			long long ix = jget_int(kinds, FK_SECRET_INDEX, 0);
			long long other = jget_int(e, "findings", 0) - br - ix;
			char *inst = instance_cell(in);
			char *cell = xasprintf("%s %s", inst, op);
			char a[32], b[32], o[32];
			snprintf(a, sizeof a, "%lld", br);
			snprintf(b, sizeof b, "%lld", ix);
			snprintf(o, sizeof o, "%lld", other);
			const char *cells[4] = { cell, a, b, o };
			md_row(md, cells);
			free(cell);
			free(inst);
		}
	}
}

static void findings_table(struct md_page *md, const struct ds_candidate *c, int with_id,
			   int *started)
{
	static const char *const hdr[] = { "id", "instance \xc2\xb7 operation", "check", "finding",
		"source line", "occurrences" };
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct ds_instance *in = &c->inst[i];
		for (int k = 0; k < CHECK_N; k++) {
			size_t n;
			json_t *f;
			json_array_foreach(json_object_get(in->check[k], "findings"), n, f) {
				if (!(*started)++)
					md_table(md, with_id ? hdr : hdr + 1, with_id ? 6 : 5);
				char *cells[6];
				int m = 0;
				if (with_id)
					cells[m++] = xasprintf("[%s](%s.md)", c->id, c->id);
				char *inst = instance_cell(in);
				cells[m++] = xasprintf("%s %s", inst, jget_str(f, "operation", "?"));
				free(inst);
				cells[m++] = xstrdup(check_titles[k]);
				cells[m++] = finding_text(f);
				cells[m++] = location_cell(c->id, json_object_get(f, "location"));
				cells[m++] = xasprintf("%lld", jget_int(f, "occurrences", 0));
				md_row(md, (const char *const *)cells);
				for (int j = 0; j < m; j++)
					free(cells[j]);
			}
		}
	}
}

/* "Reviewed findings hidden by …": one sentence per candidate, or none. */
static void suppressed_note(struct md_page *md, const struct ds_candidate *c)
{
	struct strbuf sb = STRBUF_INIT;
	const char *file = NULL;
	for (size_t i = 0; i < c->n_inst; i++)
		for (int k = 0; k < CHECK_N; k++) {
			long long n = suppressed_count(c->inst[i].check[k]);
			if (!n)
				continue;
			const json_t *s = json_object_get(c->inst[i].check[k], "suppressions");
			file = file ? file : jget_str(s, "file", NULL);
			char *inst = instance_cell(&c->inst[i]);
			sb_addf(&sb, "%s%lld in %s %s", sb.len ? "; " : "", n, inst, check_titles[k]);
			free(inst);
		}
	if (sb.len) {
		char *code = md_code(file ? file : "check.supp");
		md_blockf(md, "Occurrences of reviewed findings suppressed by %s: %s.", code, sb.buf);
		free(code);
	}
	sb_free(&sb);
}

static int candidate_checked(const struct ds_candidate *c)
{
	for (size_t i = 0; i < c->n_inst; i++)
		if (any_check(&c->inst[i]))
			return 1;
	return 0;
}

void candidate_checks(struct md_page *md, const struct ds_candidate *c)
{
	if (!candidate_checked(c))
		return;
	md_block(md, "### A.10 Correctness and side channels");
	md_block(md, column_text);
	md_table(md, status_hdr + 1, 5);
	status_rows(md, c, 0);
	consttime_table(md, c);
	int started = 0;
	findings_table(md, c, 0, &started);
	suppressed_note(md, c);
	md_block(md, "Each finding's record (A.9) holds the call, the stack and a command that "
		 "replays its round alone.");
}

char *page_checks(const struct dataset *ds, size_t *len)
{
	struct md_page md = MD_PAGE_INIT;
	md_blockf(&md, "[Performance measurements](../index.md) \xe2\x80\xba [%s](index.md) "
		  "\xe2\x80\xba checks", ds->system_id);
	md_blockf(&md, "# Correctness and side channels \xe2\x80\x94 system %s", ds->system_id);
	md_blockf(&md, "What `ngcc-perf check` found for every checked instance of the dataset, "
		  "beyond the KAT. These checks are ours, not part of the guide. They cover %s "
		  "instances; instances of other types are not listed.", cand_types_checked());
	md_block(&md, column_text);
	md_block(&md, "## Instances");
	md_table(&md, status_hdr, 6);
	for (size_t i = 0; i < ds->n_cand; i++)
		status_rows(&md, &ds->cand[i], 1);
	md_block(&md, "## Findings");
	int started = 0;
	for (size_t i = 0; i < ds->n_cand; i++)
		findings_table(&md, &ds->cand[i], 1, &started);
	if (!started)
		md_block(&md, "None.");
	return md_finish(&md, len);
}
