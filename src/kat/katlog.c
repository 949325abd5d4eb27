/* katlog.c — see katlog.h. */
#include "kat/katlog.h"
#include "util/untrusted.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void katlog_field(struct strbuf *log, const char *key, const char *value)
{
	/* values may come from the candidate's library (its label, compiler
	 * string): one line, escaped, bounded */
	sb_addf(log, "%s = ", key);
	sb_add_printable(log, value, strlen(value), KATLOG_VALUE_MAX);
	sb_addc(log, '\n');
}

void katlog_fieldf(struct strbuf *log, const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *value = xvasprintf(fmt, ap);
	va_end(ap);
	katlog_field(log, key, value);
	free(value);
}

const char *katlog_meta_value(const struct strlist *lines, const char *key)
{
	size_t kl = strlen(key);
	for (size_t i = 0; i < lines->n; i++)
		if (!strncmp(lines->items[i], key, kl) &&
		    !strncmp(lines->items[i] + kl, " = ", 3))
			return lines->items[i][kl + 3] ? lines->items[i] + kl + 3 : NULL;
	return NULL;
}

char *katlog_header_value(const char *log, const char *key)
{
	size_t kl = strlen(key);
	for (const char *p = log; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, kl) || strncmp(p + kl, " = ", 3))
			continue;
		const char *v = p + kl + 3;
		size_t n = strcspn(v, "\n");
		return n ? xstrndup(v, n) : NULL;
	}
	return NULL;
}

void katlog_manifest(struct strbuf *log, const char *digest, const char *mode, const char *file)
{
	sb_addf(log, "manifest %s %s %s\n", digest, mode, file);
}

void katlog_tail(struct strbuf *log, const char *what, const char *tail, int max_bytes)
{
	if (!tail || !*tail)
		return;
	sb_addf(log, "--- %s (last %d bytes at most) ---\n", what, max_bytes);
	const char *p = tail;
	while (*p) {
		size_t n = strcspn(p, "\n");
		sb_adds(log, "| ");
		sb_add_printable(log, p, n, KATLOG_VALUE_MAX);
		sb_addc(log, '\n');
		p += n + (p[n] == '\n');
	}
}

char *katlog_result_line(const char *id, const char *label, const char *status,
			 const char *detail)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "RESULT %s %s %s", id, label, status);
	if (detail) {
		/* the detail quotes KAT text and the candidate's messages */
		sb_addc(&sb, ' ');
		sb_add_printable(&sb, detail, strlen(detail), KATLOG_VALUE_MAX);
	}
	return sb_detach(&sb);
}

void katlog_last_result(const char *log, char **status, char **detail)
{
	const char *last = NULL;
	for (const char *p = log; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (str_starts_with(p, "RESULT "))
			last = p;
	*status = *detail = NULL;
	if (!last)
		return;
	char *line = xstrndup(last, strcspn(last, "\r\n"));
	char *save = NULL, *tok;
	strtok_r(line, " ", &save);          /* RESULT */
	strtok_r(NULL, " ", &save);          /* id */
	strtok_r(NULL, " ", &save);          /* label */
	if ((tok = strtok_r(NULL, " ", &save))) {
		*status = xstrdup(tok);
		if (save && *str_trim(save))
			*detail = xstrdup(str_trim(save));
	}
	free(line);
}

char *katlog_final_result(const char *log, char **id)
{
	const char *end = log + strlen(log);
	while (end > log && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	const char *start = end;
	while (start > log && start[-1] != '\n')
		start--;
	char *line = xstrndup(start, (size_t)(end - start));
	char *save = NULL, *w[4] = { NULL, NULL, NULL, NULL };
	w[0] = strtok_r(line, " ", &save);
	for (int k = 1; k < 4 && w[k - 1]; k++)
		w[k] = strtok_r(NULL, " ", &save);
	char *status = NULL;
	*id = NULL;
	if (w[0] && !strcmp(w[0], "RESULT") && w[3]) {
		status = xstrdup(w[3]);
		*id = xstrdup(w[1]);
	}
	free(line);
	return status;
}

/* "reference = X" or a hash file's "<tag>.reference = X": X, else NULL. */
static const char *reference_value(const char *line)
{
	if (str_starts_with(line, "reference = "))
		return line + 12;
	size_t k = strcspn(line, ". =\n");
	return line[k] == '.' && str_starts_with(line + k, ".reference = ") ? line + k + 13 : NULL;
}

enum katlog_ref katlog_reference(const char *log)
{
	int manifest = 0, file = 0, none = 0;
	for (const char *p = log; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *v = reference_value(p);
		if (str_starts_with(p, "manifest "))
			manifest++;
		else if (v && str_starts_with(v, "none") && (v[4] == '\n' || !v[4]))
			none++;
		else if (v)
			file++;
		else if (str_starts_with(p, "--- "))
			break; /* the candidate's output follows: none of our lines */
	}
	/* A hash instance's files may differ: any package file makes it
	 * FILE, none at all NONE. */
	if (file)
		return KATLOG_REF_FILE;
	if (manifest)
		return KATLOG_REF_MANIFEST;
	return none ? KATLOG_REF_NONE : KATLOG_REF_UNKNOWN;
}
