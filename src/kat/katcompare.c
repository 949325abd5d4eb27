/*
 * katcompare.c — see katcompare.h.
 *
 * Submitted KAT files carry CRLF, stripped trailing spaces on blank `_Len`
 * lines and stray empty lines, so everything here works on canonical lines
 * (docs/iccs.md §5), never on raw bytes.
 */
#include "kat/katcompare.h"
#include "util/untrusted.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One canonical line: [p, p+len), never empty. */
struct cline {
	const char *p;
	size_t len;
};

struct clines {
	struct cline *v;
	size_t n, cap;
	const char *base;   /* the text split: line numbers for messages */
};

static int is_trailing_blank(char c)
{
	return c == '\r' || c == ' ' || c == '\t';
}

/* Split text on LF, strip trailing CR/space/tab, drop empty lines; a
 * UTF-8 byte-order mark before the first line is not part of it (some
 * editors add one to the reference files). */
static void split_canonical(const char *text, size_t len, struct clines *out)
{
	size_t pos = utf8_bom_len(text, len);
	out->base = text;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		size_t n = end - pos;
		while (n > 0 && is_trailing_blank(text[pos + n - 1]))
			n--;
		if (n > 0) {
			if (out->n == out->cap) {
				out->cap = out->cap ? 2 * out->cap : 256;
				out->v = xrealloc(out->v, out->cap * sizeof *out->v);
			}
			out->v[out->n++] = (struct cline){ text + pos, n };
		}
		pos = end + 1;
	}
}

/* Key: the text before the first '=', trailing blanks removed.  Returns
 * its length, or -1 if the line has no '='. */
static long line_key(const struct cline *l)
{
	const char *eq = memchr(l->p, '=', l->len);
	if (!eq)
		return -1;
	size_t k = (size_t)(eq - l->p);
	while (k > 0 && (l->p[k - 1] == ' ' || l->p[k - 1] == '\t'))
		k--;
	return (long)k;
}

static int key_is(const struct cline *l, const char *name)
{
	long k = line_key(l);
	return k >= 0 && (size_t)k == strlen(name) && !memcmp(l->p, name, (size_t)k);
}

static int key_ends_with_len(const struct cline *l)
{
	long k = line_key(l);
	return k >= 4 && !memcmp(l->p + k - 4, "_Len", 4);
}

/* Value: the text after the first '=', leading blanks removed. */
static struct cline line_value(const struct cline *l)
{
	const char *eq = memchr(l->p, '=', l->len);
	if (!eq)
		return (struct cline){ l->p + l->len, 0 };
	const char *v = eq + 1, *end = l->p + l->len;
	while (v < end && (*v == ' ' || *v == '\t'))
		v++;
	return (struct cline){ v, (size_t)(end - v) };
}

/* Apply the mode to canonical lines: nolen filter and record cut-off. */
static void apply_mode(struct clines *lines, const struct kat_mode *mode)
{
	size_t kept = 0;
	int counts = 0;
	for (size_t i = 0; i < lines->n; i++) {
		const struct cline *l = &lines->v[i];
		if (key_is(l, "Count") && ++counts > mode->records && mode->records > 0)
			break;
		if (mode->nolen && key_ends_with_len(l))
			continue;
		lines->v[kept++] = *l;
	}
	lines->n = kept;
}

void kat_canonical(const char *text, size_t len, const struct kat_mode *mode,
		   struct strbuf *out)
{
	struct clines lines = { 0 };
	split_canonical(text, len, &lines);
	apply_mode(&lines, mode);
	for (size_t i = 0; i < lines.n; i++) {
		sb_add(out, lines.v[i].p, lines.v[i].len);
		sb_addc(out, '\n');
	}
	free(lines.v);
}

void kat_canonical_digest(const char *text, size_t len,
			  const struct kat_mode *mode, char hex[65])
{
	struct strbuf canon = STRBUF_INIT;
	kat_canonical(text, len, mode, &canon);
	sha256_hex(canon.buf ? canon.buf : "", canon.len, hex);
	sb_free(&canon);
}

int kat_count_records(const char *text, size_t len)
{
	struct clines lines = { 0 };
	int n = 0;
	split_canonical(text, len, &lines);
	for (size_t i = 0; i < lines.n; i++)
		n += key_is(&lines.v[i], "Count");
	free(lines.v);
	return n;
}

/* ---- comparison ---- */

/* The field name of a line for messages: candidate text, so bounded and
 * escaped (util/untrusted.h). */
static char *key_str(const struct cline *l)
{
	long k = line_key(l);
	struct strbuf sb = STRBUF_INIT;
	sb_add_printable(&sb, l->p, k < 0 ? l->len : (size_t)k, 40);
	return sb_detach(&sb);
}

/* The endings of the details below that blame the reference. */
#define REF_NO_RECORD "the reference file has no \"Count =\" record"
#define REF_CUT_SHORT "the reference file is cut short"
#define REF_ENDS_FIRST "only the generated text has it"
#define REF_ENDS_INSIDE "the reference file ends inside this line (cut short?)"

int kat_detail_blames_reference(const char *detail)
{
	return detail && (strstr(detail, REF_NO_RECORD) || strstr(detail, REF_CUT_SHORT) ||
			  strstr(detail, REF_ENDS_FIRST) || strstr(detail, REF_ENDS_INSIDE));
}

static int lines_match(const struct cline *gen, const struct cline *ref)
{
	if (gen->len == ref->len && !memcmp(gen->p, ref->p, gen->len))
		return 1;
	/* A blank-mode `X_Len =` in the reference matches any X_Len. */
	if (key_ends_with_len(ref) && line_value(ref).len == 0) {
		long k = line_key(ref);
		return line_key(gen) == k && !memcmp(gen->p, ref->p, (size_t)k);
	}
	return 0;
}

/* The line number of l in the text lines was split from (1-based). */
static size_t line_number(const struct clines *lines, const struct cline *l)
{
	size_t n = 1;
	for (const char *q = lines->base; q < l->p; q++)
		n += *q == '\n';
	return n;
}

/* A value shortened around byte d, where it starts to differ from the
 * other: "…0F854BD7819B89E5…" (candidate text: escaped, bounded). */
static void add_value_excerpt(struct strbuf *sb, struct cline v, size_t d)
{
	enum { BEFORE = 6, SHOWN = 24 };
	size_t start = d > BEFORE ? d - BEFORE : 0;
	size_t n = v.len - start < SHOWN ? v.len - start : SHOWN;
	if (!v.len) {
		sb_adds(sb, "(empty)");
		return;
	}
	if (start)
		sb_adds(sb, "…");
	sb_add_printable(sb, v.p + start, n, 0);
	if (start + n < v.len)
		sb_adds(sb, "…");
}

/* "first difference at <where>, field X (reference line R, generated line
 * G): expected …, got … (from byte k of n)", or the two fields when the
 * keys differ. */
static char *describe_difference(const struct clines *gl, const struct cline *gen,
				 const struct clines *rl, const struct cline *ref, const char *where)
{
	char *gk = key_str(gen), *rk = key_str(ref);
	struct strbuf sb = STRBUF_INIT;
	size_t gline = line_number(gl, gen), rline = line_number(rl, ref);
	if (strcmp(gk, rk)) {
		sb_addf(&sb, "first difference at %s: reference has field %s (line %zu), generated "
			"%s (line %zu)", where, rk, rline, gk, gline);
	} else {
		struct cline gv = line_value(gen), rv = line_value(ref);
		size_t d = 0;
		while (d < gv.len && d < rv.len && gv.p[d] == rv.p[d])
			d++;
		sb_addf(&sb, "first difference at %s, field %s (reference line %zu, generated line "
			"%zu): expected ", where, gk, rline, gline);
		add_value_excerpt(&sb, rv, d);
		sb_adds(&sb, ", got ");
		add_value_excerpt(&sb, gv, d);
		sb_addf(&sb, " (from byte %zu; lengths %zu and %zu)", d + 1, rv.len, gv.len);
	}
	free(gk);
	free(rk);
	return sb_detach(&sb);
}

/* Where a line is: at a record's first line `<key> = v` update where to
 * "Count = v" (PKC) or "record k (Msg_Len = v)" (hash). */
static void note_record(const struct cline *l, const char *key, int *records, char *where,
			size_t size)
{
	if (!key_is(l, key))
		return;
	struct cline v = line_value(l);
	/* candidate text: escaped and bounded before it reaches a message */
	struct strbuf sb = STRBUF_INIT;
	sb_add_printable(&sb, v.p, v.len > 8 ? 8 : v.len, 0);
	++*records;
	if (!strcmp(key, "Count"))
		snprintf(where, size, "Count = %s", sb.buf);
	else
		snprintf(where, size, "record %d (%s = %s)", *records, key, sb.buf);
	sb_free(&sb);
}

/* Line by line; records start at record_key lines.  KAT_PASS, or
 * KAT_MISMATCH with *detail. */
static enum kat_status compare_lines(const struct clines *gen, const struct clines *ref,
				     const char *record_key, char *where, size_t size,
				     char **detail)
{
	int records = 0;
	size_t i;
	for (i = 0; i < gen->n && i < ref->n; i++) {
		note_record(&gen->v[i], record_key, &records, where, size);
		if (lines_match(&gen->v[i], &ref->v[i]))
			continue;
		const struct cline *g = &gen->v[i], *r = &ref->v[i];
		if (i + 1 == ref->n && r->len < g->len && !memcmp(g->p, r->p, r->len)) {
			/* the reference's last line is the start of ours: a file cut short */
			char *k = key_str(g);
			*detail = xasprintf("first difference at %s, field %s (reference line %zu, "
					    "its last): %s", where, k, line_number(ref, r), REF_ENDS_INSIDE);
			free(k);
		} else {
			*detail = describe_difference(gen, g, ref, r, where);
		}
		return KAT_MISMATCH;
	}
	if (gen->n == ref->n)
		return KAT_PASS;
	const struct cline *extra = gen->n > ref->n ? &gen->v[i] : &ref->v[i];
	char *k = key_str(extra);
	*detail = gen->n > ref->n ?
		  xasprintf("first difference at %s, field %s (generated line %zu): %s (the "
			    "reference file ends first: cut short?)", where, k,
			    line_number(gen, extra), REF_ENDS_FIRST) :
		  xasprintf("first difference at %s, field %s (reference line %zu): only the "
			    "reference has it", where, k, line_number(ref, extra));
	free(k);
	return KAT_MISMATCH;
}

enum kat_status kat_compare_reference(const char *generated, size_t glen,
				      const char *reference, size_t rlen, int cut_replay,
				      char **detail)
{
	struct clines gen = { 0 }, ref = { 0 };
	int gen_records = kat_count_records(generated, glen);
	int ref_records = kat_count_records(reference, rlen);
	char where[64] = "Count = ?";

	*detail = NULL;
	if (ref_records == 0) {
		*detail = xstrdup(REF_NO_RECORD);
		return KAT_MISMATCH;
	}
	/* Fewer generated records is a cut replay (a timeout recheck); fewer
	 * reference records is a reference cut short, which proves nothing
	 * about the records it lacks. */
	if (ref_records < gen_records) {
		*detail = xasprintf("the reference has %d record(s), the replay made %d: "
				    REF_CUT_SHORT, ref_records, gen_records);
		return KAT_MISMATCH;
	}
	/* A full replay writes every record the official driver writes: more
	 * in the reference are records no driver made. */
	if (!cut_replay && ref_records > gen_records) {
		*detail = xasprintf("the reference has %d record(s), the replay made %d: the "
				    "reference file has %d record(s) the official driver does "
				    "not write", ref_records, gen_records, ref_records - gen_records);
		return KAT_MISMATCH;
	}
	/* Compare the records both texts have. */
	struct kat_mode cut = { 0, gen_records < ref_records ? gen_records : ref_records };
	split_canonical(generated, glen, &gen);
	split_canonical(reference, rlen, &ref);
	apply_mode(&gen, &cut);
	apply_mode(&ref, &cut);
	enum kat_status st = compare_lines(&gen, &ref, "Count", where, sizeof where, detail);
	if (st == KAT_PASS && ref_records != gen_records)
		*detail = xasprintf("compared %d records (generated %d, reference has %d)",
				    cut.records, gen_records, ref_records);
	free(gen.v);
	free(ref.v);
	return st;
}

enum kat_status kat_compare_hash_reference(const char *generated, size_t glen,
					   const char *reference, size_t rlen, char **detail)
{
	struct clines gen = { 0 }, ref = { 0 };
	char where[64] = "the start";

	*detail = NULL;
	split_canonical(generated, glen, &gen);
	split_canonical(reference, rlen, &ref);
	enum kat_status st = compare_lines(&gen, &ref, "Msg_Len", where, sizeof where, detail);
	free(gen.v);
	free(ref.v);
	return st;
}

enum kat_status kat_compare_digest(const char *generated, size_t glen,
				   const struct kat_manifest_entry *entry,
				   char **detail)
{
	char hex[65];
	kat_canonical_digest(generated, glen, &entry->mode, hex);
	*detail = NULL;
	if (!strcmp(hex, entry->digest))
		return KAT_PASS;
	char *mode = kat_mode_format(&entry->mode);
	*detail = xasprintf("canonical digest %s differs from the manifest's %s (%s, %s)",
			    hex, entry->digest, mode, entry->file);
	free(mode);
	return KAT_MISMATCH;
}
