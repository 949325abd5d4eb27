/*
 * cscan.c — see cscan.h.  The text is first copied with comments, string
 * and character literals blanked (newlines kept, so lines stay lines), then
 * read line by line: a line starting with '#' is a directive, any other is
 * code.
 */
#include "package/cscan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A copy of text with comments and literals replaced by blanks; a quoted
 * #include name is kept (it is what cscan_quoted_includes reads). */
static char *blank_comments(const char *text)
{
	size_t n = strlen(text);
	char *out = xmalloc(n + 1);
	int line_start = 1, include_line = 0;
	for (size_t i = 0; i < n;) {
		char c = text[i];
		if (c == '/' && text[i + 1] == '*') {
			out[i] = out[i + 1] = ' ';
			i += 2;
			while (i < n && !(text[i] == '*' && text[i + 1] == '/')) {
				out[i] = text[i] == '\n' ? '\n' : ' ';
				i++;
			}
			if (i < n)
				out[i] = out[i + 1] = ' ', i += 2;
			continue;
		}
		if (c == '/' && text[i + 1] == '/') {
			while (i < n && text[i] != '\n')
				out[i++] = ' ';
			continue;
		}
		if ((c == '"' || c == '\'') && !include_line) {
			out[i++] = c;
			while (i < n && text[i] != c && text[i] != '\n') {
				if (text[i] == '\\' && i + 1 < n && text[i + 1] != '\n')
					out[i++] = ' ';
				out[i++] = ' ';
			}
			if (i < n && text[i] == c)
				out[i++] = c;
			continue;
		}
		if (c == '\n') {
			line_start = 1;
			include_line = 0;
		} else if (line_start && c == '#') {
			size_t k = i + 1;
			while (text[k] == ' ' || text[k] == '\t')
				k++;
			include_line = !strncmp(text + k, "include", 7);
			line_start = 0;
		} else if (!isspace((unsigned char)c)) {
			line_start = 0;
		}
		out[i] = c;
		i++;
	}
	out[n] = '\0';
	return out;
}

/* The directive of a line ("include", "if", ...; NULL for code) and where
 * its arguments start. */
static const char *directive(const char *line, size_t len, size_t *word_len, const char **args)
{
	size_t i = 0;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (i >= len || line[i] != '#')
		return NULL;
	i++;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	size_t s = i;
	while (i < len && isalpha((unsigned char)line[i]))
		i++;
	*word_len = i - s;
	*args = line + i;
	return line + s;
}

static int word_is(const char *w, size_t n, const char *lit)
{
	return n == strlen(lit) && !memcmp(w, lit, n);
}

/* Calls fn(line, len, ctx) for each logical line (backslash-newline joined
 * lines are passed one by one; that is enough for these questions). */
typedef void (*cline_fn)(const char *line, size_t len, void *ctx);

static void for_each_cline(const char *clean, cline_fn fn, void *ctx)
{
	for (const char *p = clean; *p;) {
		size_t len = strcspn(p, "\n");
		fn(p, len, ctx);
		p += len;
		if (*p)
			p++;
	}
}

/* ---- includes ---- */

static void include_line(const char *line, size_t len, void *ctx)
{
	size_t wl;
	const char *args;
	const char *d = directive(line, len, &wl, &args);
	if (!d || !word_is(d, wl, "include"))
		return;
	const char *end = line + len;
	while (args < end && (*args == ' ' || *args == '\t'))
		args++;
	if (args >= end || *args != '"')
		return;
	const char *close = memchr(args + 1, '"', (size_t)(end - args - 1));
	if (close && close > args + 1)
		sl_push_owned(ctx, xstrndup(args + 1, (size_t)(close - args - 1)));
}

void cscan_quoted_includes(const char *text, struct strlist *out)
{
	char *clean = blank_comments(text);
	for_each_cline(clean, include_line, out);
	free(clean);
}

/* ---- #error ---- */

static void error_line(const char *line, size_t len, void *ctx)
{
	size_t wl;
	const char *args;
	const char *d = directive(line, len, &wl, &args);
	if (d && word_is(d, wl, "error"))
		*(int *)ctx = 1;
}

int cscan_has_error_directive(const char *text)
{
	int found = 0;
	char *clean = blank_comments(text);
	for_each_cline(clean, error_line, &found);
	free(clean);
	return found;
}

/* ---- function definitions ---- */

struct defs {
	struct strlist *out;
	int cond;        /* #if nesting */
	int braces;      /* { } nesting of code */
	int parens;
	int is_static;   /* `static` seen in the current declaration */
	char last_ident[128];
	char candidate[128]; /* identifier just before a top-level '(' */
	int after_params;    /* top-level ')' closed a candidate's parameters */
};

static void defs_code(struct defs *s, const char *line, size_t len)
{
	for (size_t i = 0; i < len;) {
		char c = line[i];
		if (isalpha((unsigned char)c) || c == '_') {
			size_t st = i;
			while (i < len && (isalnum((unsigned char)line[i]) || line[i] == '_'))
				i++;
			size_t n = i - st < sizeof(s->last_ident) - 1 ? i - st : sizeof(s->last_ident) - 1;
			memcpy(s->last_ident, line + st, n);
			s->last_ident[n] = '\0';
			if (!s->braces && !s->parens && !strcmp(s->last_ident, "static"))
				s->is_static = 1;
			if (s->after_params)
				s->after_params = 0; /* e.g. an attribute or K&R list: not a body next */
			continue;
		}
		i++;
		if (s->braces) {
			s->braces += (c == '{') - (c == '}');
			if (!s->braces)
				s->is_static = 0;
			continue;
		}
		if (c == '(') {
			if (!s->parens)
				memcpy(s->candidate, s->last_ident, sizeof(s->candidate));
			s->parens++;
		} else if (c == ')' && s->parens) {
			if (!--s->parens)
				s->after_params = s->candidate[0] != '\0';
		} else if (c == '{' && !s->parens) {
			if (s->after_params && !s->is_static && !s->cond && !sl_contains(s->out, s->candidate))
				sl_push(s->out, s->candidate);
			s->braces = 1;
			s->after_params = 0;
		} else if (c == ';' && !s->parens) {
			s->is_static = 0;
			s->after_params = 0;
			s->candidate[0] = '\0';
		} else if (!isspace((unsigned char)c) && !s->parens) {
			s->after_params = 0;
		}
	}
}

static void defs_line(const char *line, size_t len, void *ctx)
{
	struct defs *s = ctx;
	size_t wl;
	const char *args;
	const char *d = directive(line, len, &wl, &args);
	if (!d) {
		defs_code(s, line, len);
		return;
	}
	if (word_is(d, wl, "if") || word_is(d, wl, "ifdef") || word_is(d, wl, "ifndef"))
		s->cond++;
	else if (word_is(d, wl, "endif") && s->cond)
		s->cond--;
}

void cscan_defined_functions(const char *text, struct strlist *out)
{
	char *clean = blank_comments(text);
	struct defs s = { .out = out };
	for_each_cline(clean, defs_line, &s);
	free(clean);
}

/* ---- macro uses ---- */

struct uses {
	const char *name;
	size_t len;
	int found;
};

/* Is the identifier at line[i] (length n) preceded by `defined` or
 * `defined(`? */
static int after_defined(const char *line, size_t i)
{
	while (i && (line[i - 1] == ' ' || line[i - 1] == '\t' || line[i - 1] == '('))
		i--;
	return i >= 7 && !memcmp(line + i - 7, "defined", 7);
}

static void uses_in(struct uses *u, const char *line, size_t len, int in_if)
{
	for (size_t i = 0; i < len && !u->found;) {
		if (isalpha((unsigned char)line[i]) || line[i] == '_') {
			size_t st = i;
			while (i < len && (isalnum((unsigned char)line[i]) || line[i] == '_'))
				i++;
			if (i - st == u->len && !memcmp(line + st, u->name, u->len) &&
			    !(in_if && after_defined(line, st)))
				u->found = 1;
		} else {
			i++;
		}
	}
}

static void uses_line(const char *line, size_t len, void *ctx)
{
	struct uses *u = ctx;
	size_t wl;
	const char *args;
	const char *d = directive(line, len, &wl, &args);
	if (!d) {
		uses_in(u, line, len, 0);
		return;
	}
	size_t rest = len - (size_t)(args - line);
	if (word_is(d, wl, "if") || word_is(d, wl, "elif")) {
		uses_in(u, args, rest, 1);
	} else if (word_is(d, wl, "define")) {
		/* the macro being defined is no use; its body is */
		size_t i = 0;
		while (i < rest && (args[i] == ' ' || args[i] == '\t'))
			i++;
		while (i < rest && (isalnum((unsigned char)args[i]) || args[i] == '_'))
			i++;
		uses_in(u, args + i, rest - i, 0);
	}
}

int cscan_uses_value(const char *text, const char *name)
{
	char *clean = blank_comments(text);
	struct uses u = { .name = name, .len = strlen(name) };
	for_each_cline(clean, uses_line, &u);
	free(clean);
	return u.found;
}

static void mention_line(const char *line, size_t len, void *ctx)
{
	uses_in(ctx, line, len, 0);
}

int cscan_mentions(const char *text, const char *name)
{
	char *clean = blank_comments(text);
	struct uses u = { .name = name, .len = strlen(name) };
	for_each_cline(clean, mention_line, &u);
	free(clean);
	return u.found;
}
