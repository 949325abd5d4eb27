/* vgxml.c — see vgxml.h. */
#include "check/vgxml.h"

#include "util/util.h"

#include <expat.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 16

struct parse {
	struct vg_report *r;
	const char *prefix;
	const char *path[MAX_DEPTH];   /* element names from the root */
	int depth;
	struct strbuf text;            /* character data of the open element */
	struct vg_error cur;           /* the <error> being read */
	int stacks_in_error;           /* <stack> elements seen in it */
	struct vg_stack *stack;        /* the stack receiving frames */
	struct vg_frame frame;
	char *pair_count, *pair_key;   /* errorcounts / suppcounts pair */
	char *fatal_signo;
};

static int at(const struct parse *p, int from_end, const char *name)
{
	int i = p->depth - 1 - from_end;
	return i >= 0 && !strcmp(p->path[i], name);
}

static void push_frame(struct vg_stack *s, struct vg_frame *f)
{
	s->f = xrealloc(s->f, (s->n + 1) * sizeof *s->f);
	s->f[s->n++] = *f;
	memset(f, 0, sizeof *f);
}

static void free_frame(struct vg_frame *f)
{
	free(f->obj);
	free(f->fn);
	free(f->dir);
	free(f->file);
}

static void free_stack(struct vg_stack *s)
{
	for (size_t i = 0; i < s->n; i++)
		free_frame(&s->f[i]);
	free(s->f);
	memset(s, 0, sizeof *s);
}

static void free_error(struct vg_error *e)
{
	free(e->unique);
	free(e->kind);
	free(e->what);
	free(e->aux);
	free(e->suppression);
	free(e->context);
	free_stack(&e->stack);
	free_stack(&e->aux_stack);
	memset(e, 0, sizeof *e);
}

static void on_start(void *ud, const char *name, const char **attrs)
{
	struct parse *p = ud;
	(void)attrs;
	if (p->depth < MAX_DEPTH)
		p->path[p->depth] = name;
	p->depth++;
	sb_reset(&p->text);
	if (!strcmp(name, "error") && p->depth == 2) {
		free_error(&p->cur);
		p->cur.count = 1;
		p->stacks_in_error = 0;
		if (p->r->last_context)
			p->cur.context = xstrdup(p->r->last_context);
	} else if (!strcmp(name, "stack")) {
		if (at(p, 1, "error"))
			p->stack = p->stacks_in_error++ ? &p->cur.aux_stack : &p->cur.stack;
		else if (at(p, 1, "fatal_signal"))
			p->stack = &p->r->fatal.stack;
		else
			p->stack = NULL;
	} else if (!strcmp(name, "frame")) {
		/* (a frame outside any kept stack was never taken) */
		free_frame(&p->frame);
		memset(&p->frame, 0, sizeof p->frame);
	} else if (!strcmp(name, "fatal_signal") && p->depth == 2) {
		p->r->fatal.present = 1;
		if (p->r->last_context)
			p->r->fatal.context = xstrdup(p->r->last_context);
	}
}

static char *take_text(struct parse *p)
{
	char *s = xstrdup(str_trim(p->text.buf ? p->text.buf : ""));
	sb_reset(&p->text);
	return s;
}

static void set_once(char **field, char *value)
{
	if (*field)
		free(value);
	else
		*field = value;
}

static void end_frame_field(struct parse *p, const char *name)
{
	char *v = take_text(p);
	if (!strcmp(name, "obj"))
		set_once(&p->frame.obj, v);
	else if (!strcmp(name, "fn"))
		set_once(&p->frame.fn, v);
	else if (!strcmp(name, "dir"))
		set_once(&p->frame.dir, v);
	else if (!strcmp(name, "file"))
		set_once(&p->frame.file, v);
	else {
		if (!strcmp(name, "line"))
			p->frame.line = strtol(v, NULL, 10);
		free(v);
	}
}

static void end_error_field(struct parse *p, const char *name)
{
	struct vg_error *e = &p->cur;
	if (!strcmp(name, "unique") && at(p, 1, "error"))
		set_once(&e->unique, take_text(p));
	else if (!strcmp(name, "kind"))
		set_once(&e->kind, take_text(p));
	else if (!strcmp(name, "what"))
		set_once(&e->what, take_text(p));
	else if (!strcmp(name, "text") && at(p, 1, "xwhat"))
		set_once(&e->what, take_text(p));
	else if (!strcmp(name, "auxwhat")) {
		char *v = take_text(p);
		if (e->aux) {
			char *j = xasprintf("%s; %s", e->aux, v);
			free(e->aux);
			free(v);
			e->aux = j;
		} else {
			e->aux = v;
		}
	} else if (!strcmp(name, "rawtext") && at(p, 1, "suppression")) {
		set_once(&e->suppression, take_text(p));
	}
}

static void end_client_message(struct parse *p)
{
	char *v = take_text(p);
	if (str_starts_with(v, p->prefix)) {
		free(p->r->last_context);
		p->r->last_context = xstrdup(v + strlen(p->prefix));
	}
	free(v);
}

static void end_pair_field(struct parse *p, const char *name)
{
	if (!strcmp(name, "count")) {
		free(p->pair_count);
		p->pair_count = take_text(p);
	} else if (!strcmp(name, "unique") || !strcmp(name, "name")) {
		free(p->pair_key);
		p->pair_key = take_text(p);
	}
}

static void end_pair(struct parse *p, int errorcounts)
{
	long n = p->pair_count ? strtol(p->pair_count, NULL, 10) : 0;
	struct vg_report *r = p->r;
	if (errorcounts) {
		for (size_t i = 0; p->pair_key && i < r->nerrs; i++)
			if (r->errs[i].unique && !strcmp(r->errs[i].unique, p->pair_key))
				r->errs[i].count = n;
	} else if (p->pair_key) {
		r->supps = xrealloc(r->supps, (r->nsupps + 1) * sizeof *r->supps);
		r->supps[r->nsupps].name = xstrdup(p->pair_key);
		r->supps[r->nsupps++].count = n;
	}
	free(p->pair_count);
	free(p->pair_key);
	p->pair_count = p->pair_key = NULL;
}

static void end_fatal_field(struct parse *p, const char *name)
{
	struct vg_fatal *f = &p->r->fatal;
	if (!strcmp(name, "signo")) {
		char *v = take_text(p);
		f->signo = (int)strtol(v, NULL, 10);
		free(v);
	} else if (!strcmp(name, "signame")) {
		set_once(&f->signame, take_text(p));
	} else if (!strcmp(name, "event")) {
		set_once(&f->event, take_text(p));
	} else if (!strcmp(name, "siaddr")) {
		set_once(&f->siaddr, take_text(p));
	}
}

static void note_version(struct parse *p)
{
	const char *t = p->text.buf ? p->text.buf : "";
	const char *v = strstr(t, "Valgrind-");
	if (v && !p->r->version) {
		v += strlen("Valgrind-");
		p->r->version = xstrndup(v, strcspn(v, " \t\n"));
	}
}

static void on_end(void *ud, const char *name)
{
	struct parse *p = ud;
	int in_frame = p->depth >= 2 && at(p, 1, "frame");
	if (in_frame)
		end_frame_field(p, name);
	else if (!strcmp(name, "frame") && p->stack)
		push_frame(p->stack, &p->frame);
	else if (!strcmp(name, "error") && p->depth == 2) {
		p->r->errs = xrealloc(p->r->errs, (p->r->nerrs + 1) * sizeof *p->r->errs);
		p->r->errs[p->r->nerrs++] = p->cur;
		memset(&p->cur, 0, sizeof p->cur);
	} else if (p->depth >= 3 && at(p, p->depth - 2, "error"))
		end_error_field(p, name);
	else if (!strcmp(name, "text") && at(p, 1, "clientmsg"))
		end_client_message(p);
	else if (p->depth == 4 && at(p, 1, "pair"))
		end_pair_field(p, name);
	else if (!strcmp(name, "pair"))
		end_pair(p, at(p, 1, "errorcounts"));
	else if (p->depth == 3 && at(p, 1, "fatal_signal"))
		end_fatal_field(p, name);
	else if (!strcmp(name, "line") && at(p, 1, "preamble"))
		note_version(p);
	else if (!strcmp(name, "valgrindoutput"))
		p->r->complete = 1;
	if (!strcmp(name, "stack"))
		p->stack = NULL;
	p->depth--;
	sb_reset(&p->text);
}

static void on_text(void *ud, const char *s, int len)
{
	struct parse *p = ud;
	sb_add(&p->text, s, (size_t)len);
}

void vg_parse(const char *xml, size_t len, const char *call_prefix, struct vg_report *out)
{
	struct parse p;
	memset(out, 0, sizeof *out);
	memset(&p, 0, sizeof p);
	p.r = out;
	p.prefix = call_prefix;
	XML_Parser x = XML_ParserCreate(NULL);
	XML_SetUserData(x, &p);
	XML_SetElementHandler(x, on_start, on_end);
	XML_SetCharacterDataHandler(x, on_text);
	if (XML_Parse(x, xml, (int)len, 1) == XML_STATUS_ERROR || !out->complete) {
		out->complete = 0;
		out->parse_error = xasprintf("line %lu: %s", (unsigned long)XML_GetCurrentLineNumber(x),
					     XML_ErrorString(XML_GetErrorCode(x)));
	}
	XML_ParserFree(x);
	free_error(&p.cur);
	free_frame(&p.frame);
	free(p.pair_count);
	free(p.pair_key);
	sb_free(&p.text);
}

void vg_report_free(struct vg_report *r)
{
	for (size_t i = 0; i < r->nerrs; i++)
		free_error(&r->errs[i]);
	free(r->errs);
	free(r->fatal.signame);
	free(r->fatal.event);
	free(r->fatal.siaddr);
	free(r->fatal.context);
	free_stack(&r->fatal.stack);
	for (size_t i = 0; i < r->nsupps; i++)
		free(r->supps[i].name);
	free(r->supps);
	free(r->last_context);
	free(r->version);
	free(r->parse_error);
	memset(r, 0, sizeof *r);
}
