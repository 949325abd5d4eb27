/* tally.c — see tally.h. */
#include "driver/check/tally.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or_die(const char *s)
{
	char *d = strdup(s ? s : "");
	if (!d) {
		fputs("ngcc-perf-check: out of memory\n", stderr);
		exit(4);
	}
	return d;
}

static struct tally_test *test_entry(struct tally *t, const char *test, const char *op)
{
	for (int i = 0; i < t->ntests; i++)
		if (!strcmp(t->tests[i].name, test) && !strcmp(t->tests[i].op, op))
			return &t->tests[i];
	if (t->ntests == TALLY_MAX_TESTS)
		return NULL;
	struct tally_test *e = &t->tests[t->ntests++];
	e->name = test;
	e->op = op;
	e->note = NULL;
	e->checks = e->failures = 0;
	return e;
}

void tally_not_applicable(struct tally *t, const char *test, const char *op, const char *why)
{
	struct tally_test *e = test_entry(t, test, op);
	if (e)
		e->note = why;
}

void tally_pass(struct tally *t, const char *test, const char *op)
{
	struct tally_test *e = test_entry(t, test, op);
	if (e)
		e->checks++;
}

void tally_fail(struct tally *t, const char *test, const char *op, const char *key,
		long round, const char *call, const char *fmt, ...)
{
	struct tally_test *e = test_entry(t, test, op);
	if (e) {
		e->checks++;
		e->failures++;
	}
	for (int i = 0; i < t->nfinds; i++) {
		struct tally_finding *f = &t->finds[i];
		if (!strcmp(f->test, test) && !strcmp(f->op, op) && !strcmp(f->key, key)) {
			f->count++;
			return;
		}
	}
	if (t->nfinds == TALLY_MAX_FINDINGS) {
		t->dropped++;
		return;
	}
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	struct tally_finding *f = &t->finds[t->nfinds++];
	f->test = test;
	f->op = op;
	f->key = dup_or_die(key);
	f->what = dup_or_die(what);
	f->call = dup_or_die(call);
	f->round = round;
	f->count = 1;
}

long tally_failures(const struct tally *t)
{
	long n = 0;
	for (int i = 0; i < t->ntests; i++)
		n += t->tests[i].failures;
	return n;
}

json_t *tally_json(const struct tally *t)
{
	json_t *tests = json_array(), *finds = json_array();
	for (int i = 0; i < t->ntests; i++) {
		const struct tally_test *e = &t->tests[i];
		json_array_append_new(tests, json_pack("{s:s, s:s, s:I, s:I, s:o}", "test", e->name,
						       "operation", e->op, "checks", (json_int_t)e->checks,
						       "failures", (json_int_t)e->failures,
						       "note", e->note ? json_string(e->note) : json_null()));
	}
	for (int i = 0; i < t->nfinds; i++) {
		const struct tally_finding *f = &t->finds[i];
		json_array_append_new(finds, json_pack("{s:s, s:s, s:s, s:s, s:I, s:I}", "test", f->test,
						       "operation", f->op, "what", f->what, "call", f->call,
						       "round", (json_int_t)f->round,
						       "occurrences", (json_int_t)f->count));
	}
	return json_pack("{s:o, s:o, s:I}", "tests", tests, "findings", finds,
			 "findings_dropped", (json_int_t)t->dropped);
}

void tally_free(struct tally *t)
{
	for (int i = 0; i < t->nfinds; i++) {
		free(t->finds[i].key);
		free(t->finds[i].what);
		free(t->finds[i].call);
	}
	memset(t, 0, sizeof *t);
}
