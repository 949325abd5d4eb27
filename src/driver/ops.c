/* ops.c — see ops.h: the dispatch by type, the shared failure text,
 * buffers and options.  The table of types is op_types.c. */
#include "driver/ops.h"

#include "driver/child.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char failure[512];

const char *ops_failure(void)
{
	return failure;
}

void ops_set_failure(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(failure, sizeof failure, fmt, ap);
	va_end(ap);
}

static const struct op_type *type_of(int abi)
{
	for (const struct op_type *const *t = op_types; *t; t++)
		if ((*t)->abi == abi)
			return *t;
	return NULL;
}

/* key's index in the NULL-terminated names; -1 when absent. */
static int name_index(const char *const *names, const char *key)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(key, names[i]))
			return i;
	return -1;
}

static int parse_op(const struct op_type *t, const struct ngcc_meta *m, const char *key)
{
	return t->parse_op ? t->parse_op(m, key) : name_index(t->op_names, key);
}

int ops_open(const char *path, const char *op_key, struct op_ctx *c)
{
	char *err = NULL;
	memset(c, 0, sizeof *c);
	if (candidate_load(path, &c->lib, &err)) {
		ops_set_failure("%s", err ? err : "cannot load the library");
		free(err);
		return -1;
	}
	c->type = type_of(c->lib.meta->type);
	if (!c->type) {
		ops_set_failure("library type %d (ngcc_meta) has no operations in this program",
				c->lib.meta->type);
		return -2;
	}
	c->op = strlen(op_key) < sizeof c->op_key ? parse_op(c->type, c->lib.meta, op_key) : -1;
	if (c->op < 0) {
		ops_set_failure("a %s library has no operation \"%s\" (%s)",
				c->type->name, op_key, c->type->op_usage);
		return -2;
	}
	snprintf(c->op_key, sizeof c->op_key, "%s", op_key);
	return 0;
}

int ops_setup(struct op_ctx *c)
{
	return c->type->alloc(c) || c->type->setup(c) ? -1 : 0;
}

const char *ops_timing_scope(const struct op_ctx *c)
{
	return c->type && c->op >= 0 && c->type->timing_scope ? c->type->timing_scope(c->op)
							      : OPS_SCOPE_LOOP;
}

int ops_prepare(struct op_ctx *c)
{
	return c->type->prepare ? c->type->prepare(c) : 0;
}

int ops_raw_call(struct op_ctx *c)
{
	return c->type->raw_call(c);
}

int ops_check_call(struct op_ctx *c, int rc)
{
	return c->type->check_call(c, rc);
}

int ops_call_once(struct op_ctx *c)
{
	if (ops_prepare(c))
		return -1;
	return ops_check_call(c, ops_raw_call(c));
}

long ops_run_loop(struct op_ctx *c, long iters, const struct op_bracket *step)
{
	return c->type->run_loop(c, iters, step);
}

int ops_validate(struct op_ctx *c)
{
	return c->type->validate(c);
}

void ops_meta_json(const struct op_ctx *c, json_t *meta)
{
	if (c->type)
		c->type->meta_json(c, meta);
}

json_t *ops_observed_json(const struct op_ctx *c)
{
	return c->type && c->st && c->type->observed_json ? c->type->observed_json(c)
							  : json_object();
}

int ops_memory_extra(struct op_ctx *c, json_t **out)
{
	*out = NULL;
	return c->type && c->st && c->type->memory_extra ? c->type->memory_extra(c, out) : 0;
}

void ops_close(struct op_ctx *c)
{
	if (c->type && c->st)
		c->type->release(c);
	c->st = NULL;
}

/* ---- helpers for the types ------------------------------------------------ */

void *ops_new_state(struct op_ctx *c, size_t size, const char *what)
{
	c->st = calloc(1, size);
	if (!c->st)
		ops_set_failure("cannot allocate the %s state", what);
	return c->st;
}

unsigned char *ops_buffer(const char *what, unsigned long long cap, unsigned long long extra)
{
	if (cap == 0 || cap > OPS_MAX_CAPACITY) {
		ops_set_failure("API capacity of %s is %llu bytes (must be 1..%llu)",
				what, cap, OPS_MAX_CAPACITY);
		return NULL;
	}
	unsigned char *b = calloc(1, cap + extra + OPS_BUF_SLACK);
	if (!b)
		ops_set_failure("cannot allocate %llu bytes for %s", cap + extra + OPS_BUF_SLACK, what);
	return b;
}

void ops_seen_add(struct ops_seen *s, unsigned long long len)
{
	if (!s->any || len < s->min)
		s->min = len;
	if (!s->any || len > s->max)
		s->max = len;
	s->any = 1;
}

json_t *ops_seen_json(const struct ops_seen *s)
{
	json_t *o = json_object();
	json_object_set_new(o, "min", s->any ? json_integer((json_int_t)s->min) : json_null());
	json_object_set_new(o, "max", s->any ? json_integer((json_int_t)s->max) : json_null());
	return o;
}

/* ---- options ------------------------------------------------------------- */

void op_opts_init(struct op_opts *o)
{
	memset(o, 0, sizeof *o);
	o->cpu = -1;
	/* The default seed 00 01 … 2f (docs/method.md §5.1 step 3). */
	for (size_t i = 0; i < OPS_SEED_LEN; i++)
		o->seed[i] = (unsigned char)i;
	o->seed_len = OPS_SEED_LEN;
}

int op_opt(struct op_opts *o, int c, const char *arg)
{
	long v;
	switch (c) {
	case 'l':
		o->lib = arg;
		return 1;
	case 'o':
		if (!*arg || strlen(arg) >= OPS_KEY_MAX)
			return -1;
		o->op = arg;
		return 1;
	case 'c':
		if (child_parse_long(arg, 0, &v) || v > 1 << 20)
			return -1;
		o->cpu = (int)v;
		return 1;
	case 's':
		return child_parse_hex(arg, o->seed, OPS_SEED_LEN, &o->seed_len) ? -1 : 1;
	default:
		return 0;
	}
}

int op_opts_complete(const struct op_opts *o)
{
	return o->lib && o->op;
}

const char *ops_usage_list(void)
{
	static char buf[256];
	size_t n = 0;
	buf[0] = 0;
	for (const struct op_type *const *t = op_types; *t && n < sizeof buf; t++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s (%s)",
				      t == op_types ? "" : ", ", (*t)->op_usage, (*t)->name);
	return buf;
}
