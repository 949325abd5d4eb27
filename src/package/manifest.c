/* manifest.c — see manifest.h. */
#include "package/manifest.h"
#include "util/untrusted.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int kat_mode_parse(const char *s, struct kat_mode *mode)
{
	struct kat_mode m = { 0, 0 };
	size_t name_len = strcspn(s, ":");
	if (name_len == 6 && !strncmp(s, "strict", 6))
		m.nolen = 0;
	else if (name_len == 5 && !strncmp(s, "nolen", 5))
		m.nolen = 1;
	else
		return -1;
	if (s[name_len] == ':') {
		const char *num = s + name_len + 1;
		char *end;
		long n = strtol(num, &end, 10);
		if (!isdigit((unsigned char)num[0]) || *end || n < 1 || n > 1000000)
			return -1;
		m.records = (int)n;
	}
	*mode = m;
	return 0;
}

char *kat_mode_format(const struct kat_mode *mode)
{
	const char *name = mode->nolen ? "nolen" : "strict";
	if (mode->records > 0)
		return xasprintf("%s:%d", name, mode->records);
	return xstrdup(name);
}

/* ---- manifest ---- */

int kat_is_sha256_hex(const char *s, size_t n)
{
	if (n != 64)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* What is wrong with the file field of an entry, or NULL: it names a file
 * in one folder level at most, each part no longer than a file name may be
 * (it becomes an argument of the KAT child), no control characters (it
 * reaches logs and terminals). */
static char *file_field_problem(const char *p)
{
	const char *slash = strchr(p, '/');
	size_t first = slash ? (size_t)(slash - p) : strlen(p);
	size_t second = slash ? strlen(slash + 1) : 0;
	if (p[0] == '/' || strstr(p, "..") || str_ends_with(p, "/"))
		return xstrdup("must be '<label>/<file>' or a bare file name");
	if (slash && strchr(slash + 1, '/'))
		return xstrdup("must be '<label>/<file>' (one folder level) or a bare file name");
	if (first > MANIFEST_NAME_MAX || second > MANIFEST_NAME_MAX)
		return xasprintf("names a file or folder longer than %d bytes", MANIFEST_NAME_MAX);
	if (str_has_control(p, strlen(p)))
		return xstrdup("has control characters in the file name");
	return NULL;
}

/* Parse "<hex> <mode> <file>" (file may contain spaces).  1 = entry,
 * 0 = blank or comment, -1 = malformed. */
static int parse_manifest_line(char *line, struct kat_manifest_entry *e)
{
	char *s = str_trim(line);
	if (!*s || *s == '#')
		return 0;
	size_t hex_len = strcspn(s, " \t");
	if (!kat_is_sha256_hex(s, hex_len))
		return -1;
	char *mode = s + hex_len;
	mode += strspn(mode, " \t");
	size_t mode_len = strcspn(mode, " \t");
	char *file = mode + mode_len;
	file += strspn(file, " \t");
	if (!mode_len || !*file)
		return -1;
	mode[mode_len] = '\0';
	char *problem = file_field_problem(file);
	int bad = problem != NULL;
	free(problem);
	if (bad || kat_mode_parse(mode, &e->mode) != 0)
		return -1;
	for (size_t i = 0; i < 64; i++)
		e->digest[i] = (char)tolower((unsigned char)s[i]);
	e->digest[64] = '\0';
	e->file = xstrdup(file);
	return 1;
}

enum match_rank { NO_MATCH, UNDER_LABEL, BARE_FILE, EXACT };

static enum match_rank rank_entry(const char *file, const char *label,
				  const char *file_name)
{
	size_t ll = strlen(label);
	int under_label = !strncmp(file, label, ll) && file[ll] == '/';
	if (under_label && file_name && !strcmp(file + ll + 1, file_name))
		return EXACT;
	if (file_name && !strcmp(file, file_name))
		return BARE_FILE;
	return under_label ? UNDER_LABEL : NO_MATCH;
}

int kat_manifest_find(const char *manifest, const char *label,
		      const char *file_name, struct kat_manifest_entry *out,
		      char **err)
{
	char *copy = xstrdup(manifest), *save = NULL;
	enum match_rank best = NO_MATCH;
	int under_label = 0, lineno = 0, rc = 0;

	memset(out, 0, sizeof *out);
	*err = NULL;
	/* a UTF-8 byte-order mark left by an editor is not part of line 1 */
	char *text = copy + utf8_bom_len(copy, strlen(copy));
	for (char *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct kat_manifest_entry e = { 0 };
		lineno++;
		int got = parse_manifest_line(line, &e);
		if (got < 0) {
			*err = xasprintf("line %d: expected \"<sha256-hex> <strict|nolen>[:N] <label>/<file>\"",
					 lineno);
			rc = -1;
			break;
		}
		if (!got)
			continue;
		enum match_rank r = rank_entry(e.file, label, file_name);
		under_label += r == UNDER_LABEL;
		if (r > best) {
			kat_manifest_entry_free(out);
			*out = e;
			best = r;
		} else {
			kat_manifest_entry_free(&e);
		}
	}
	free(copy);
	/* Several entries under the label but none named: ambiguous. */
	if (rc == 0 && best == UNDER_LABEL && under_label > 1)
		best = NO_MATCH;
	if (rc != 0 || best == NO_MATCH) {
		kat_manifest_entry_free(out);
		return rc;
	}
	return 1;
}

void kat_manifest_entry_free(struct kat_manifest_entry *e)
{
	free(e->file);
	memset(e, 0, sizeof *e);
}

/* ---- checking a manifest before `add` copies it ---- */

/* One manifest line; returns NULL if fine, else what is wrong. */
static char *check_manifest_line(char *line, struct strlist *labels)
{
	char *p = str_trim(line);
	if (!*p || *p == '#')
		return NULL;
	size_t hn = strcspn(p, " \t");
	if (!kat_is_sha256_hex(p, hn))
		return xasprintf("expected a 64-digit SHA-256 in hex first, got '%.*s'", (int)hn, p);
	p += hn;
	p += strspn(p, " \t");
	size_t mn = strcspn(p, " \t");
	/* the same grammar `kat` applies when it reads the manifest */
	char *mode = xstrndup(p, mn);
	struct kat_mode parsed;
	int mode_ok = kat_mode_parse(mode, &parsed) == 0;
	free(mode);
	if (!mode_ok)
		return xasprintf("mode must be strict or nolen, optionally with :N (N > 0), got '%.*s'",
				 (int)mn, p);
	p += mn;
	p += strspn(p, " \t");
	if (!*p)
		return xstrdup("missing '<label>/<KAT file>' after the mode");
	char *bad = file_field_problem(p);
	if (bad) {
		char *shown = str_printable(p, 80);
		char *why = xasprintf("'%s' %s", shown, bad);
		free(shown);
		free(bad);
		return why;
	}
	const char *slash = strchr(p, '/');
	if (slash && labels)
		sl_push_owned(labels, xstrndup(p, (size_t)(slash - p)));
	return NULL;
}

/* An entry seen earlier in the text: its line, file and what it says. */
struct seen_entry {
	int line;
	struct kat_manifest_entry e;
};

/* The same file listed twice must say the same: otherwise which one the
 * gate uses would depend on the order of the lines. */
static char *conflict(struct seen_entry **seen, size_t *n, int line, char *text)
{
	struct kat_manifest_entry e = { 0 };
	if (parse_manifest_line(text, &e) != 1)
		return NULL;
	for (size_t i = 0; i < *n; i++) {
		const struct kat_manifest_entry *o = &(*seen)[i].e;
		if (strcmp(o->file, e.file))
			continue;
		int same = !strcmp(o->digest, e.digest) && o->mode.nolen == e.mode.nolen &&
			   o->mode.records == e.mode.records;
		char *why = same ? NULL
			    : xasprintf("'%s' is listed again with another digest or mode "
					"(first on line %d); keep one entry", e.file, (*seen)[i].line);
		kat_manifest_entry_free(&e);
		return why;
	}
	*seen = xrealloc(*seen, (*n + 1) * sizeof **seen);
	(*seen)[(*n)++] = (struct seen_entry){ line, e };
	return NULL;
}

int kat_manifest_check_text(const char *data, size_t len, struct strlist *labels,
			    int *entries, char **err)
{
	struct seen_entry *seen = NULL;
	size_t n_seen = 0;
	int line_no = 0;
	*err = NULL;
	*entries = 0;
	for (size_t pos = utf8_bom_len(data, len); pos < len && !*err;) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - data) : len;
		char *line = xstrndup(data + pos, end - pos);
		line_no++;
		if (strlen(line) != end - pos) {
			*err = xasprintf("line %d: a NUL byte; kat.sha256 is a text file", line_no);
		} else {
			char *copy = xstrdup(line), *t = str_trim(copy);
			char *why = check_manifest_line(line, labels);
			if (!why && *t && *t != '#') {
				(*entries)++;
				why = conflict(&seen, &n_seen, line_no, t);
			}
			if (why)
				*err = xasprintf("line %d: %s", line_no, why);
			free(why);
			free(copy);
		}
		free(line);
		pos = end + 1;
	}
	for (size_t i = 0; i < n_seen; i++)
		kat_manifest_entry_free(&seen[i].e);
	free(seen);
	return *err ? -1 : 0;
}

int kat_manifest_import(const char *file, const char *dst, struct strlist *labels)
{
	char *data, *why = NULL;
	size_t len;
	if (read_file(file, &data, &len)) {
		ngcc_error("cannot read KAT manifest '%s': %s", file, io_strerror(errno));
		return EXIT_INPUT;
	}
	int rc = EXIT_OK, entries = 0;
	if (kat_manifest_check_text(data, len, labels, &entries, &why)) {
		ngcc_error("%s:%s (fix the manifest and run add again)", file, why + 5);
		free(why);
		rc = EXIT_INPUT;
	}
	if (rc == EXIT_OK && !entries) {
		ngcc_error("KAT manifest '%s' has no entries", file);
		rc = EXIT_INPUT;
	}
	if (rc == EXIT_OK && write_file(dst, data, len)) {
		ngcc_error("cannot write '%s': %s", dst, strerror(errno));
		rc = EXIT_SYSTEM;
	}
	free(data);
	return rc;
}
