/* sanrep.c — see sanrep.h. */
#include "check/sanrep.h"

#include "util/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* "<file>:<line>[:<col>]" → file and line; 0 when it does not end in
 * digits after a colon. */
static int split_location(const char *loc, char **file, long *line)
{
	const char *end = loc + strlen(loc);
	const char *colon[2] = { NULL, NULL };
	int n = 0;
	for (const char *p = end; p > loc && n < 2; p--)
		if (p[-1] == ':') {
			const char *d = p;
			while (d < end && isdigit((unsigned char)*d))
				d++;
			if (d == p || (d != end && *d != ':'))
				break;
			colon[n++] = p - 1;
		}
	if (!n)
		return 0;
	/* file:line:col has two numeric fields; file:line one. */
	const char *cut = n == 2 ? colon[1] : colon[0];
	*file = xstrndup(loc, (size_t)(cut - loc));
	*line = strtol(cut + 1, NULL, 10);
	return 1;
}

/* "    #3 0x7f00 in fn file.c:12:5" or "... in fn (mod+0x12)" or
 * "    #3 0x7f00 (mod+0x12)".  0 when line is not a frame. */
static int parse_frame(const char *line, struct san_frame *f)
{
	memset(f, 0, sizeof *f);
	const char *p = line + strspn(line, " \t");
	if (*p != '#' || !isdigit((unsigned char)p[1]))
		return 0;
	p = strchr(p, ' ');
	if (!p)
		return 0;
	p += strspn(p, " ");
	p += strcspn(p, " ");            /* the address */
	p += strspn(p, " ");
	if (str_starts_with(p, "in ")) {
		p += 3;
		const char *last = strrchr(p, ' ');
		if (!last) {
			f->fn = xstrdup(p);
			return 1;
		}
		f->fn = xstrndup(p, (size_t)(last - p));
		p = last + 1;
	}
	if (*p == '(') {
		f->module = xstrndup(p + 1, strcspn(p + 1, ")"));
	} else if (*p && !split_location(p, &f->file, &f->line)) {
		f->file = xstrdup(p);
	}
	return 1;
}

static char *hex_after(const char *s, const char *key)
{
	const char *at = strstr(s, key);
	if (!at)
		return NULL;
	at += strlen(key);
	return xstrndup(at, strspn(at, "0x123456789abcdefABCDEF"));
}

/* The "==N==ERROR: <Tool>: <kind> ..." line. */
static void parse_error_line(const char *line, struct san_report *r)
{
	const char *p = strstr(line, "ERROR: ") + strlen("ERROR: ");
	size_t tl = strcspn(p, ":");
	r->tool = xstrndup(p, tl);
	p += tl;
	p += strspn(p, ": ");
	r->kind = xstrndup(p, strcspn(p, " "));
	r->address = hex_after(line, " address ");
}

static void add_frame(struct san_report *r, struct san_frame *f)
{
	r->frames = xrealloc(r->frames, (r->nframes + 1) * sizeof *r->frames);
	r->frames[r->nframes++] = *f;
}

/* The UBSan "<file>:<line>:<col>: runtime error: <what>" line. */
static void parse_ubsan_line(const char *line, struct san_report *r)
{
	const char *m = strstr(line, ": runtime error: ");
	r->tool = xstrdup("UndefinedBehaviorSanitizer");
	r->kind = xstrdup("undefined-behavior");
	r->what = xstrdup(m + strlen(": runtime error: "));
	struct san_frame f;
	memset(&f, 0, sizeof f);
	char *loc = xstrndup(line, (size_t)(m - line));
	if (split_location(loc, &f.file, &f.line))
		add_frame(r, &f);
	free(loc);
}

void san_parse(const char *text, struct san_report *out)
{
	memset(out, 0, sizeof *out);
	int in_stack = 0, stack_done = 0, ubsan_first = 0;
	const char *p = text;
	while (p && *p && !stack_done) {
		size_t n = strcspn(p, "\n");
		char *line = xstrndup(p, n);
		p = p[n] ? p + n + 1 : NULL;
		struct san_frame f;
		if (!out->present && strstr(line, "ERROR: ") && strstr(line, "Sanitizer")) {
			out->present = 1;
			parse_error_line(line, out);
		} else if (!out->present && strstr(line, ": runtime error: ")) {
			out->present = 1;
			ubsan_first = 1;
			parse_ubsan_line(line, out);
		} else if (out->present && !out->access &&
			   (strstr(line, "READ of size") || strstr(line, "WRITE of size"))) {
			const char *start = line + strspn(line, " ");
			const char *size = strstr(line, "of size ") + strlen("of size ");
			out->access = xstrndup(start, (size_t)(size + strcspn(size, " ") - start));
		} else if (out->present && !out->access && strstr(line, "caused by a ")) {
			const char *c = strstr(line, "caused by a ") + strlen("caused by a ");
			out->access = xstrndup(c, strcspn(c, "."));
		} else if (out->present && parse_frame(line, &f)) {
			if (ubsan_first && out->nframes == 1 && !in_stack) {
				/* The location line's frame is replaced by the stack. */
				free(out->frames[0].file);
				out->nframes = 0;
			}
			add_frame(out, &f);
			in_stack = 1;
		} else if (in_stack) {
			stack_done = 1;
		}
		free(line);
	}
}

void san_report_free(struct san_report *r)
{
	for (size_t i = 0; i < r->nframes; i++) {
		free(r->frames[i].fn);
		free(r->frames[i].file);
		free(r->frames[i].module);
	}
	free(r->frames);
	free(r->tool);
	free(r->kind);
	free(r->access);
	free(r->address);
	free(r->what);
	memset(r, 0, sizeof *r);
}
