/* call.c — see call.h. */
#include "driver/check/call.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void call_begin(struct call *c, long round, const char *test, const char *op)
{
	memset(c, 0, sizeof *c);
	c->w.round = round;
	c->w.test = test;
	c->w.op = op;
}

/* The buffer as the call context describes it. */
static void describe(struct call *c, const struct gbuf *b, int readonly)
{
	c->w.bufs[c->w.nbufs++] = (struct watch_buf){ b->name, b->data, b->map, b->cap, b->len,
						      b->map_len, readonly };
}

void call_input(struct call *c, struct gbuf *b)
{
	c->in[c->nin++] = b;
	c->all[c->nall++] = b;
	describe(c, b, 1);
}

void call_output_as(struct call *c, struct gbuf *b, unsigned long long preset,
		    unsigned long long min)
{
	gbuf_clear(b);
	b->len = preset;
	c->out_min[c->nout] = min;
	c->out[c->nout++] = b;
	c->all[c->nall++] = b;
	describe(c, b, 0);
}

void call_output(struct call *c, struct gbuf *b)
{
	call_output_as(c, b, b->cap, 1);
}

void call_inout(struct call *c, struct gbuf *b, int len_returned)
{
	if (len_returned) {
		c->out_min[c->nout] = 0;
		c->out[c->nout++] = b;
	}
	c->all[c->nall++] = b;
	describe(c, b, 0);
}

/* Snapshot and protect the inputs, publish the context. */
void call_enter(const struct check_run *r, struct call *c)
{
	for (int i = 0; i < c->nin; i++) {
		struct gbuf *b = c->in[i];
		c->snap[i] = malloc(b->cap ? (size_t)b->cap : 1);
		if (c->snap[i])
			memcpy(c->snap[i], b->data, (size_t)b->cap);
		if (r->protect_inputs)
			gbuf_protect(b, 1);
	}
	watch_enter(&c->w);
}

static void check_lengths(struct check_run *r, struct call *c)
{
	for (int i = 0; i < c->nout; i++) {
		struct gbuf *b = c->out[i];
		unsigned long long min = c->out_min[i];
		if (b->len >= min && b->len <= b->cap) {
			tally_pass(&r->tally, T_LENGTHS, c->w.op);
			continue;
		}
		tally_fail(&r->tally, T_LENGTHS, c->w.op, b->name, c->w.round, c->w.call,
			   "returned %s_len %llu, outside %llu..%llu (the getter)",
			   b->name, b->len, min, b->cap);
		/* The getter's length from here on, so the next call is not
		 * blamed for this one. */
		b->len = b->cap;
	}
}

static void check_guards(struct check_run *r, struct call *c)
{
	for (int i = 0; i < c->nall; i++) {
		struct gbuf *b = c->all[i];
		long long where;
		if (!gbuf_guard_damaged(b, &where)) {
			tally_pass(&r->tally, T_CANARIES, c->w.op);
			continue;
		}
		char key[32];
		snprintf(key, sizeof key, "%s %s", b->name, where < 0 ? "before" : "after");
		gbuf_guard_restore(b);
		if (where < 0)
			tally_fail(&r->tally, T_CANARIES, c->w.op, key, c->w.round, c->w.call,
				   "wrote %lld byte(s) before the start of %s", -where, b->name);
		else
			tally_fail(&r->tally, T_CANARIES, c->w.op, key, c->w.round, c->w.call,
				   "wrote past the end of %s: byte %lld of a %llu-byte buffer",
				   b->name, where, b->cap);
	}
}

static void check_inputs(struct check_run *r, struct call *c)
{
	for (int i = 0; i < c->nin; i++) {
		struct gbuf *b = c->in[i];
		const unsigned char *s = c->snap[i];
		size_t at = 0;
		while (s && at < b->cap && s[at] == b->data[at])
			at++;
		if (!s || at == b->cap) {
			tally_pass(&r->tally, T_INPUTS, c->w.op);
			continue;
		}
		tally_fail(&r->tally, T_INPUTS, c->w.op, b->name, c->w.round, c->w.call,
			   "changed its input %s (first changed byte %zu of %llu)",
			   b->name, at, b->cap);
		/* Restored, so the later checks see the input they were given. */
		memcpy(b->data, s, (size_t)b->cap);
	}
}

/* After the call: unprotect, declassify what the harness reads (return
 * code, lengths), then the functional checks. */
int call_end(struct check_run *r, struct call *c, int rc)
{
	watch_returned();
	if (r->protect_inputs)
		for (int i = 0; i < c->nin; i++)
			gbuf_protect(c->in[i], 0);
	watch_public(&rc, sizeof rc);
	for (int i = 0; i < c->nout; i++)
		watch_public(&c->out[i]->len, sizeof c->out[i]->len);
	c->rc = rc;
	if (r->suite != SUITE_CONSTTIME) {
		if (!rc || (c->nonneg_ok && rc > 0))
			check_lengths(r, c);
		check_guards(r, c);
		check_inputs(r, c);
	}
	for (int i = 0; i < c->nin; i++)
		free(c->snap[i]);
	return rc;
}

int call_ok(struct check_run *r, const struct call *c, const char *test, const char *api)
{
	if (!c->rc || (c->nonneg_ok && c->rc > 0)) {
		tally_pass(&r->tally, test, c->w.op);
		return 1;
	}
	char key[32];
	snprintf(key, sizeof key, "rc %d", c->rc);
	tally_fail(&r->tally, test, c->w.op, key, c->w.round, c->w.call,
		   "%s_%s returned %d on honest input", api, c->w.op, c->rc);
	return 0;
}

int same_bytes(const struct gbuf *a, const struct gbuf *b)
{
	return a->len == b->len && a->len <= a->cap && !memcmp(a->data, b->data, (size_t)a->len);
}

void flip_position(long round, unsigned long long len, unsigned long long *byte, int *bit)
{
	if (round == 0)
		*byte = 0;
	else if (round == 1)
		*byte = len - 1;
	else
		*byte = ((unsigned long long)round * 2654435761ull) % len;
	*bit = (int)(round % 8);
}

int outputs_differ(const struct out_pair *p, int n)
{
	for (int i = 0; i < n; i++)
		if (!same_bytes(p[i].x, p[i].y))
			return 1;
	return 0;
}

void unaligned_verdicts(struct check_run *r, long round, const char *api, size_t off,
			const struct out_pair *p, const int *reproducible, int n)
{
	for (int i = 0; i < n; i++) {
		if (!reproducible[i])
			continue;
		if (same_bytes(p[i].x, p[i].y)) {
			tally_pass(&r->tally, T_UNALIGNED, p[i].op);
			continue;
		}
		char call[128];
		snprintf(call, sizeof call, "%s_%s with every buffer %zu byte(s) off alignment", api,
			 p[i].op, off);
		tally_fail(&r->tally, T_UNALIGNED, p[i].op, p[i].x->name, round, call,
			   "%s differs from the aligned run with the same seed", p[i].x->name);
	}
}
