/*
 * buildfacts.c — see buildfacts.h.
 *
 * Makefiles: variables are collected as the file sets them (=, :=, ?=, +=,
 * with override/export), and every recipe line that runs a compiler is
 * read with its variables expanded; the -D, -l and -I words it ends up with
 * are its facts, each tagged with the line that wrote the word (the
 * variable's line, not the recipe's, when it came from a variable).  When
 * no recipe runs a compiler (implicit rules), CFLAGS, CPPFLAGS, LDFLAGS,
 * LDLIBS, LIBS and LOADLIBES hold the facts.  CMake files: the commands that
 * state definitions, include folders and libraries, globally or per target.
 */
#include "package/buildfacts.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_EXPANSION_DEPTH 8

/* ---- facts ---- */

static void fact_push(struct build_fact **v, size_t *n, enum fact_kind kind, const char *value,
		      const char *origin)
{
	size_t len = strlen(value);
	if (!len || isspace((unsigned char)value[0]) || isspace((unsigned char)value[len - 1]))
		return; /* "" from an unterminated quote, or blanks candidate.conf cannot keep */
	for (const char *p = value; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return; /* a control character: not a value a compile line can carry */
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].kind == kind && !strcmp((*v)[i].value, value))
			return; /* the first statement names where it came from */
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n].kind = kind;
	(*v)[*n].value = xstrdup(value);
	(*v)[*n].origin = xstrdup(origin);
	(*n)++;
}

static void facts_free(struct build_fact *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].value);
		free(v[i].origin);
	}
	free(v);
}

void build_facts_free(struct build_facts *f)
{
	facts_free(f->global, f->n_global);
	for (size_t i = 0; i < f->n_rules; i++) {
		free(f->rules[i].target);
		sl_free(&f->rules[i].files);
		facts_free(f->rules[i].facts, f->rules[i].n_facts);
	}
	free(f->rules);
	memset(f, 0, sizeof(*f));
}

static struct build_rule *rule_new(struct build_facts *f, const char *target)
{
	f->rules = xrealloc(f->rules, (f->n_rules + 1) * sizeof(*f->rules));
	struct build_rule *r = &f->rules[f->n_rules++];
	memset(r, 0, sizeof(*r));
	r->target = xstrdup(target);
	return r;
}

int build_file_name(const char *name)
{
	return !strcmp(name, "Makefile") || !strcmp(name, "makefile") ||
	       !strcmp(name, "GNUmakefile") || !strcmp(name, "CMakeLists.txt");
}

int build_target_ignored(const char *target)
{
	const char *b = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	return !strncasecmp(b, "test", 4) || !strncasecmp(b, "bench", 5) ||
	       !strncasecmp(b, "speed", 5) || !strcasecmp(b, "clean");
}

char *fact_macro_name(const char *value)
{
	return xstrndup(value, strcspn(value, "="));
}

static int is_c_source(const char *w)
{
	static const char *const exts[] = { ".c", ".cc", ".cpp", ".cxx", NULL };
	for (const char *const *e = exts; *e; e++)
		if (str_ends_with_ci(w, *e))
			return 1;
	return 0;
}

/* ---- words ---- */

/* A word of a command line: split at blanks, shell quotes removed
 * ('a b', "a b", \" -> "). */
struct word {
	char *text;
	char *origin;
};

struct words {
	struct word *v;
	size_t n;
};

static void words_push(struct words *w, char *text, const char *origin)
{
	w->v = xrealloc(w->v, (w->n + 1) * sizeof(*w->v));
	w->v[w->n].text = text;
	w->v[w->n].origin = xstrdup(origin);
	w->n++;
}

static void words_free(struct words *w)
{
	for (size_t i = 0; i < w->n; i++) {
		free(w->v[i].text);
		free(w->v[i].origin);
	}
	free(w->v);
	memset(w, 0, sizeof(*w));
}

static void split_words(const char *s, const char *origin, struct words *out)
{
	const char *p = s;
	while (*p) {
		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		struct strbuf sb = STRBUF_INIT;
		char quote = 0;
		while (*p && (quote || !isspace((unsigned char)*p))) {
			if (!quote && (*p == '\'' || *p == '"')) {
				quote = *p++;
			} else if (quote && *p == quote) {
				quote = 0;
				p++;
			} else if (*p == '\\' && p[1] && quote != '\'') {
				sb_addc(&sb, p[1]);
				p += 2;
			} else {
				sb_addc(&sb, *p++);
			}
		}
		words_push(out, sb_detach(&sb), origin);
	}
}

/* The facts of one word list: -DX, -D X, -lX, -l X, -IX, -I X. */
static void facts_of_words(const struct words *w, struct build_fact **v, size_t *n,
			   int *compile_only, struct strlist *files)
{
	for (size_t i = 0; i < w->n; i++) {
		const char *t = w->v[i].text, *origin = w->v[i].origin;
		static const struct { const char *flag; enum fact_kind kind; } flags[] = {
			{ "-D", FACT_DEFINE }, { "-l", FACT_LIB }, { "-I", FACT_INCLUDE },
		};
		if (!strcmp(t, "-c") && compile_only)
			*compile_only = 1;
		if (files && is_c_source(t) && t[0] != '-' && !strchr(t, '$') && !sl_contains(files, t))
			sl_push(files, t);
		for (size_t f = 0; f < 3; f++) {
			if (strncmp(t, flags[f].flag, 2))
				continue;
			const char *arg = t[2] ? t + 2 : i + 1 < w->n ? w->v[i + 1].text : NULL;
			if (!t[2])
				i++;
			if (!arg || !*arg || strchr(arg, '$') || strchr(arg, '`') || (!t[2] && *arg == '-'))
				break; /* an unexpanded variable or command, or "-D" left
					  empty by a variable that expands to nothing */
			char *value = flags[f].kind == FACT_LIB ? xasprintf("-l%s", arg) : xstrdup(arg);
			fact_push(v, n, flags[f].kind, value, origin);
			free(value);
			break;
		}
	}
}

/* ---- Makefiles ---- */

struct mk_var {
	char *name;
	struct words value; /* words with the line each came from */
};

struct mk {
	const char *file;
	struct mk_var *vars;
	size_t n_vars;
	/* the variables being expanded: one that refers to itself, which make
	 * refuses, expands to nothing here */
	const struct mk_var *active[MAX_EXPANSION_DEPTH];
	int n_active;
	size_t words_out; /* words produced so far: bounded against blow-ups */
};

#define MAX_EXPANDED_WORDS 20000

static struct mk_var *mk_var_find(struct mk *m, const char *name, size_t len)
{
	for (size_t i = 0; i < m->n_vars; i++)
		if (strlen(m->vars[i].name) == len && !strncmp(m->vars[i].name, name, len))
			return &m->vars[i];
	return NULL;
}

static void mk_vars_free(struct mk *m)
{
	for (size_t i = 0; i < m->n_vars; i++) {
		free(m->vars[i].name);
		words_free(&m->vars[i].value);
	}
	free(m->vars);
}

static void mk_expand_into(struct mk *m, const char *text, const char *origin, int depth,
			   struct words *out);

/* The words of $(NAME) or ${NAME}: a function call ($(wildcard ...),
 * $(shell ...)), a substitution or an unknown variable gives none. */
static void mk_expand_var(struct mk *m, const char *name, size_t len, int depth,
			  struct words *out)
{
	struct mk_var *v = mk_var_find(m, name, len);
	if (!v || depth >= MAX_EXPANSION_DEPTH || m->n_active >= MAX_EXPANSION_DEPTH)
		return;
	for (int i = 0; i < m->n_active; i++)
		if (m->active[i] == v)
			return;
	m->active[m->n_active++] = v;
	for (size_t i = 0; i < v->value.n && m->words_out < MAX_EXPANDED_WORDS; i++)
		mk_expand_into(m, v->value.v[i].text, v->value.v[i].origin, depth + 1, out);
	m->n_active--;
}

/* Where the $( or ${ at p ends (the matching bracket), or NULL. */
static const char *var_end(const char *p)
{
	char open = p[1], close = open == '(' ? ')' : '}';
	int level = 0;
	for (const char *q = p + 1; *q; q++) {
		if (*q == open)
			level++;
		else if (*q == close && --level == 0)
			return q;
	}
	return NULL;
}

/* Expand a word: a word that is one whole $(VAR) becomes VAR's words with
 * their own origins; a word with a variable inside is expanded as text and
 * takes the origin of the word. */
static void mk_expand_into(struct mk *m, const char *text, const char *origin, int depth,
			   struct words *out)
{
	if (m->words_out >= MAX_EXPANDED_WORDS)
		return;
	if (!strchr(text, '$')) {
		m->words_out++;
		words_push(out, xstrdup(text), origin);
		return;
	}
	if (text[0] == '$' && (text[1] == '(' || text[1] == '{')) {
		const char *e = var_end(text);
		if (e && !e[1]) {
			size_t len = (size_t)(e - text - 2);
			if (!memchr(text + 2, ' ', len) && !memchr(text + 2, ':', len))
				mk_expand_var(m, text + 2, len, depth, out);
			return;
		}
	}
	struct strbuf sb = STRBUF_INIT;
	for (const char *p = text; *p;) {
		const char *e = p[0] == '$' && (p[1] == '(' || p[1] == '{') ? var_end(p) : NULL;
		if (!e) {
			/* $@, $<, $^, $$: automatic variables stay as written */
			sb_addc(&sb, *p++);
			continue;
		}
		size_t len = (size_t)(e - p - 2);
		struct words sub = { 0 };
		if (!memchr(p + 2, ' ', len) && !memchr(p + 2, ':', len))
			mk_expand_var(m, p + 2, len, depth, &sub);
		for (size_t i = 0; i < sub.n; i++) {
			if (i)
				sb_addc(&sb, ' ');
			sb_adds(&sb, sub.v[i].text);
		}
		words_free(&sub);
		p = e + 1;
	}
	char *joined = sb_detach(&sb);
	struct words parts = { 0 };
	split_words(joined, origin, &parts);
	for (size_t i = 0; i < parts.n; i++) {
		m->words_out++;
		words_push(out, parts.v[i].text, origin);
		free(parts.v[i].origin);
	}
	free(parts.v);
	free(joined);
}

/* "VAR op value" (op =, :=, ::=, ?=, +=), with override/export before it. */
static int mk_assignment(struct mk *m, char *line, const char *origin)
{
	char *p = line;
	for (;;) {
		if (!strncmp(p, "override ", 9))
			p += 9;
		else if (!strncmp(p, "export ", 7))
			p += 7;
		else
			break;
		while (*p == ' ' || *p == '\t')
			p++;
	}
	char *name = p;
	while (*p && (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '-'))
		p++;
	size_t len = (size_t)(p - name);
	while (*p == ' ' || *p == '\t')
		p++;
	int append = 0, cond = 0;
	if (p[0] == '+' && p[1] == '=')
		append = 1, p += 2;
	else if (p[0] == '?' && p[1] == '=')
		cond = 1, p += 2;
	else if (!strncmp(p, "::=", 3))
		p += 3;
	else if (p[0] == ':' && p[1] == '=')
		p += 2;
	else if (p[0] == '=')
		p += 1;
	else
		return 0;
	if (!len)
		return 0;
	struct mk_var *v = mk_var_find(m, name, len);
	if (v && cond)
		return 1;
	if (!v) {
		m->vars = xrealloc(m->vars, (m->n_vars + 1) * sizeof(*m->vars));
		v = &m->vars[m->n_vars++];
		memset(v, 0, sizeof(*v));
		v->name = xstrndup(name, len);
	} else if (!append) {
		words_free(&v->value);
	}
	split_words(p, origin, &v->value);
	return 1;
}

/* Does a recipe line run a C compiler? */
static int runs_compiler(const struct words *raw)
{
	if (!raw->n)
		return 0;
	const char *t = raw->v[0].text;
	while (*t == '@' || *t == '-' || *t == '+')
		t++;
	static const char *const cc[] = {
		"$(CC)", "${CC}", "$(CXX)", "${CXX}", "cc", "gcc", "clang", "c++", "g++", "clang++", NULL
	};
	for (const char *const *c = cc; *c; c++)
		if (!strcmp(t, *c))
			return 1;
	return str_ends_with(t, "-gcc") || str_ends_with(t, "/gcc") || str_ends_with(t, "/cc");
}

/* Logical lines: backslash-newline joined, comments cut; fn gets each
 * with the number of its first physical line. */
typedef void (*line_fn)(char *line, int lineno, void *ctx);

static void for_each_line(const char *text, char comment, line_fn fn, void *ctx)
{
	int lineno = 1;
	const char *p = text;
	while (*p) {
		int first = lineno;
		struct strbuf sb = STRBUF_INIT;
		while (*p) {
			size_t n = strcspn(p, "\n");
			const char *end = p + n;
			size_t keep = n && p[n - 1] == '\r' ? n - 1 : n; /* CRLF files */
			int cont = keep && p[keep - 1] == '\\';
			if (cont)
				keep--;
			sb_add(&sb, p, keep);
			p = *end ? end + 1 : end;
			lineno++;
			if (!cont)
				break;
			sb_addc(&sb, ' ');
		}
		char *line = sb_detach(&sb);
		char *hash = comment ? strchr(line, comment) : NULL;
		if (hash && (hash == line || hash[-1] != '\\'))
			*hash = '\0';
		fn(line, first, ctx);
		free(line);
	}
}

struct mk_parse {
	struct mk m;
	struct build_facts *out;
	struct strlist targets;  /* of the rule being read */
	struct strlist prereqs;  /* its .c prerequisites */
	int recipes;             /* compiler recipes seen */
};

static void mk_recipe(struct mk_parse *ps, const char *line, const char *origin)
{
	struct words raw = { 0 }, w = { 0 };
	split_words(line, origin, &raw);
	if (runs_compiler(&raw) && ps->targets.n && !build_target_ignored(ps->targets.items[0])) {
		ps->m.words_out = 0; /* the bound is per line */
		for (size_t i = 0; i < raw.n; i++)
			mk_expand_into(&ps->m, raw.v[i].text, raw.v[i].origin, 0, &w);
		struct build_rule *r = rule_new(ps->out, ps->targets.items[0]);
		for (size_t i = 0; i < ps->prereqs.n; i++)
			sl_push(&r->files, ps->prereqs.items[i]);
		facts_of_words(&w, &r->facts, &r->n_facts, &r->compile_only, &r->files);
		ps->recipes++;
	}
	words_free(&raw);
	words_free(&w);
}

/* "targets: prerequisites" or "targets: VAR op value" (target-specific). */
static void mk_rule(struct mk_parse *ps, char *line, char *colon, const char *origin)
{
	*colon = '\0';
	char *rest = colon + 1 + (colon[1] == ':');
	sl_free(&ps->targets);
	sl_free(&ps->prereqs);
	struct words t = { 0 };
	split_words(line, origin, &t);
	for (size_t i = 0; i < t.n; i++)
		if (t.v[i].text[0] != '.')
			sl_push(&ps->targets, t.v[i].text);
	words_free(&t);
	char *eq = strchr(rest, '=');
	if (eq && ps->targets.n) {
		/* target-specific variable: its words are facts of the target */
		struct words w = { 0 }, raw = { 0 };
		split_words(eq + 1, origin, &raw);
		ps->m.words_out = 0; /* the bound is per line */
		for (size_t i = 0; i < raw.n; i++)
			mk_expand_into(&ps->m, raw.v[i].text, raw.v[i].origin, 0, &w);
		for (size_t k = 0; k < ps->targets.n; k++) {
			if (build_target_ignored(ps->targets.items[k]))
				continue;
			struct build_rule *r = rule_new(ps->out, ps->targets.items[k]);
			facts_of_words(&w, &r->facts, &r->n_facts, NULL, NULL);
		}
		words_free(&w);
		words_free(&raw);
		sl_free(&ps->targets);
		return;
	}
	struct words pre = { 0 }, raw = { 0 };
	split_words(rest, origin, &raw);
	ps->m.words_out = 0;
	for (size_t i = 0; i < raw.n; i++)
		mk_expand_into(&ps->m, raw.v[i].text, raw.v[i].origin, 0, &pre);
	for (size_t i = 0; i < pre.n; i++)
		if (is_c_source(pre.v[i].text) && !sl_contains(&ps->prereqs, pre.v[i].text))
			sl_push(&ps->prereqs, pre.v[i].text);
	words_free(&pre);
	words_free(&raw);
}

static void mk_line(char *line, int lineno, void *ctx)
{
	struct mk_parse *ps = ctx;
	char *origin = xasprintf("%s:%d", ps->m.file, lineno);
	if (line[0] == '\t') {
		mk_recipe(ps, line + 1, origin);
	} else {
		char *s = str_trim(line);
		char *colon = strchr(s, ':');
		int assign = colon && (colon[1] == '=' || (colon[1] == ':' && colon[2] == '='));
		if (!*s || s[0] == '-' || !strncmp(s, "include ", 8) || !strncmp(s, "if", 2) ||
		    !strncmp(s, "else", 4) || !strncmp(s, "endif", 5) || !strncmp(s, "define ", 7)) {
			/* conditionals are read through: both branches count */
		} else if (colon && !assign && (!strchr(s, '=') || strchr(s, '=') > colon)) {
			mk_rule(ps, s, colon, origin);
		} else {
			mk_assignment(&ps->m, s, origin);
		}
	}
	free(origin);
}

static void parse_makefile(const char *name, const char *text, struct build_facts *out)
{
	struct mk_parse ps = { .m = { .file = name }, .out = out };
	for_each_line(text, '#', mk_line, &ps);
	if (!ps.recipes) {
		static const char *const implicit[] = {
			"CPPFLAGS", "CFLAGS", "LDFLAGS", "LDLIBS", "LIBS", "LOADLIBES", NULL
		};
		for (const char *const *v = implicit; *v; v++) {
			struct words w = { 0 };
			ps.m.words_out = 0;
			mk_expand_var(&ps.m, *v, strlen(*v), 0, &w);
			facts_of_words(&w, &out->global, &out->n_global, NULL, NULL);
			words_free(&w);
		}
	}
	mk_vars_free(&ps.m);
	sl_free(&ps.targets);
	sl_free(&ps.prereqs);
}

/* ---- CMake ---- */

struct cm {
	const char *file;
	struct build_facts *out;
	struct mk vars;            /* set(VAR ...) values, expanded like make's ${VAR} */
	struct strlist targets;    /* add_executable / add_library names */
};

static struct build_rule *cm_rule(struct cm *c, const char *target)
{
	for (size_t i = 0; i < c->out->n_rules; i++)
		if (!strcmp(c->out->rules[i].target, target))
			return &c->out->rules[i];
	return rule_new(c->out, target);
}

static int cm_keyword(const char *w)
{
	static const char *const kw[] = {
		"PRIVATE", "PUBLIC", "INTERFACE", "BEFORE", "AFTER", "SYSTEM", "debug",
		"optimized", "general", "STATIC", "SHARED", "OBJECT", "MODULE", "WIN32",
		"EXCLUDE_FROM_ALL", NULL
	};
	for (const char *const *k = kw; *k; k++)
		if (!strcmp(w, *k))
			return 1;
	return 0;
}

/* A definition as CMake writes it: X=1 or -DX=1. */
static void cm_define(struct build_fact **v, size_t *n, const char *w, const char *origin)
{
	const char *d = !strncmp(w, "-D", 2) ? w + 2 : w;
	if (*d && !strchr(d, '$') && *d != '-')
		fact_push(v, n, FACT_DEFINE, d, origin);
}

static void cm_lib(struct cm *c, struct build_fact **v, size_t *n, const char *w,
		   const char *origin)
{
	if (!strncmp(w, "-l", 2) && w[2]) {
		fact_push(v, n, FACT_LIB, w, origin);
		return;
	}
	for (const char *p = w; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' && *p != '+' && *p != '.')
			return; /* a path, a ${VAR} or an imported target (Foo::Bar) */
	if (!*w || sl_contains(&c->targets, w) || str_ends_with(w, ".a") || str_ends_with(w, ".so"))
		return;
	char *l = xasprintf("-l%s", w);
	fact_push(v, n, FACT_LIB, l, origin);
	free(l);
}

static void cm_command(struct cm *c, const char *cmd, struct words *args, const char *origin)
{
	struct build_facts *o = c->out;
	if (!strcasecmp(cmd, "set") && args->n) {
		char *line = xasprintf("%s =", args->v[0].text);
		mk_assignment(&c->vars, line, origin);
		free(line);
		struct mk_var *v = mk_var_find(&c->vars, args->v[0].text, strlen(args->v[0].text));
		for (size_t i = 1; v && i < args->n; i++)
			split_words(args->v[i].text, origin, &v->value);
		if (!strcmp(args->v[0].text, "CMAKE_C_FLAGS") || !strcmp(args->v[0].text, "CMAKE_CXX_FLAGS")) {
			struct words w = { 0 };
			for (size_t i = 1; i < args->n; i++)
				split_words(args->v[i].text, origin, &w);
			facts_of_words(&w, &o->global, &o->n_global, NULL, NULL);
			words_free(&w);
		}
		return;
	}
	if (!strcasecmp(cmd, "add_executable") || !strcasecmp(cmd, "add_library")) {
		if (!args->n)
			return;
		sl_push(&c->targets, args->v[0].text);
		if (build_target_ignored(args->v[0].text))
			return;
		struct build_rule *r = cm_rule(c, args->v[0].text);
		for (size_t i = 1; i < args->n; i++)
			if (is_c_source(args->v[i].text) && !sl_contains(&r->files, args->v[i].text))
				sl_push(&r->files, args->v[i].text);
		return;
	}
	int global = !strcasecmp(cmd, "add_definitions") || !strcasecmp(cmd, "add_compile_definitions") ||
		     !strcasecmp(cmd, "include_directories") || !strcasecmp(cmd, "link_libraries") ||
		     !strcasecmp(cmd, "add_compile_options");
	int per_target = !strncasecmp(cmd, "target_", 7);
	if ((!global && !per_target) || (per_target && !args->n))
		return;
	if (per_target && build_target_ignored(args->v[0].text))
		return;
	struct build_fact **v = &o->global;
	size_t *n = &o->n_global;
	if (per_target) {
		struct build_rule *r = cm_rule(c, args->v[0].text);
		v = &r->facts;
		n = &r->n_facts;
	}
	for (size_t i = per_target; i < args->n; i++) {
		const char *w = args->v[i].text;
		if (cm_keyword(w))
			continue;
		if (strcasestr(cmd, "definitions"))
			cm_define(v, n, w, origin);
		else if (strcasestr(cmd, "include_directories"))
			fact_push(v, n, FACT_INCLUDE, w, origin);
		else if (strcasestr(cmd, "link_libraries"))
			cm_lib(c, v, n, w, origin);
		else if (strcasestr(cmd, "compile_options") && !strncmp(w, "-D", 2))
			cm_define(v, n, w, origin);
	}
}

/* Commands: name(args) spanning lines; '#' comments cut per line. */
static void parse_cmake(const char *name, const char *text, struct build_facts *out)
{
	struct cm c = { .file = name, .out = out, .vars = { .file = name } };
	struct strbuf clean = STRBUF_INIT;
	int lineno = 1;
	for (const char *p = text; *p;) {
		while (*p && (isspace((unsigned char)*p))) {
			lineno += *p == '\n';
			p++;
		}
		if (*p == '#') {
			p += strcspn(p, "\n");
			continue;
		}
		if (!*p)
			break;
		const char *s = p;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		char *cmd = xstrndup(s, (size_t)(p - s));
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '(' || !*cmd) {
			free(cmd);
			p += strcspn(p, "\n");
			continue;
		}
		int start = lineno, depth = 0;
		sb_reset(&clean);
		for (p++; *p && !(*p == ')' && depth == 0); p++) {
			if (*p == '\n')
				lineno++;
			if (*p == '#') {
				p += strcspn(p, "\n") - 1;
				continue;
			}
			depth += *p == '(';
			depth -= *p == ')';
			sb_addc(&clean, *p == '\n' || *p == '\r' ? ' ' : *p);
		}
		if (*p)
			p++;
		char *origin = xasprintf("%s:%d", name, start);
		struct words raw = { 0 }, args = { 0 };
		split_words(clean.buf ? clean.buf : "", origin, &raw);
		c.vars.words_out = 0;
		for (size_t i = 0; i < raw.n; i++)
			mk_expand_into(&c.vars, raw.v[i].text, raw.v[i].origin, 0, &args);
		cm_command(&c, cmd, &args, origin);
		words_free(&raw);
		words_free(&args);
		free(origin);
		free(cmd);
	}
	sb_free(&clean);
	mk_vars_free(&c.vars);
	sl_free(&c.targets);
}

void build_facts_parse(const char *name, const char *text, struct build_facts *out)
{
	const char *base = path_basename(name);
	if (!strcmp(base, "CMakeLists.txt") || str_ends_with_ci(base, ".cmake"))
		parse_cmake(name, text, out);
	else
		parse_makefile(name, text, out);
}
