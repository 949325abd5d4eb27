/*
 * katrun.c — guard-zone buffers, post-call checks, failure details, the
 * start of a PKC record and hex lines shared by the KAT replays
 * (katgen*.c).
 */
#include "kat/katrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kat_gbuf_alloc(struct kat_gbuf *g, const char *name, unsigned long long size)
{
	size_t total = (size_t)size + 2 * KAT_GUARD_BYTES;

	g->name = name;
	g->size = size;
	g->base = malloc(total);
	if (!g->base)
		ngcc_die(EXIT_SYSTEM,
			 "cannot allocate the %llu-byte KAT buffer '%s' (the official driver needs it too); "
			 "raise the memory limit of the KAT run",
			 size, name);
	memset(g->base, KAT_GUARD_BYTE, KAT_GUARD_BYTES);
	memset(g->base + KAT_GUARD_BYTES + size, KAT_GUARD_BYTE, KAT_GUARD_BYTES);
	g->data = g->base + KAT_GUARD_BYTES;
	memset(g->data, 0, (size_t)size);
}

void kat_gbuf_free(struct kat_gbuf *g)
{
	free(g->base);
	g->base = g->data = NULL;
}

static int zone_intact(const unsigned char *p)
{
	for (int i = 0; i < KAT_GUARD_BYTES; i++)
		if (p[i] != KAT_GUARD_BYTE)
			return 0;
	return 1;
}

const char *kat_gbuf_damage(const struct kat_gbuf *g)
{
	if (!zone_intact(g->base))
		return "before";
	if (!zone_intact(g->data + g->size))
		return "after";
	return NULL;
}

enum kat_status kat_fail(struct kat_run *run, enum kat_status st,
			 const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	free(run->detail);
	run->detail = xasprintf("%s: %s", run->where, msg);
	free(msg);
	return st;
}

enum kat_status kat_check_guards(struct kat_run *run, const char *call)
{
	for (int i = 0; i < run->nbufs; i++) {
		const struct kat_gbuf *g = &run->bufs[i];
		const char *side = g->base ? kat_gbuf_damage(g) : NULL;

		if (side)
			return kat_fail(run, KAT_OVERFLOW,
					"%s overwrote the guard zone %s buffer %s (%llu bytes)",
					call, side, g->name, g->size);
	}
	return KAT_PASS;
}

enum kat_status kat_check_call(struct kat_run *run, const char *call, int rc,
			       int failed)
{
	KAT_TRY(kat_check_guards(run, call));
	if (failed)
		return kat_fail(run, KAT_CRYPTOFAIL, "%s returned %d", call, rc);
	return KAT_PASS;
}

enum kat_status kat_check_len(struct kat_run *run, const char *call,
			      const struct kat_gbuf *g, unsigned long long len)
{
	if (len > g->size)
		return kat_fail(run, KAT_OVERFLOW,
				"%s returned %s length %llu, above the getter's %llu",
				call, g->name, len, g->size);
	return KAT_PASS;
}

enum kat_status kat_check_getter(struct kat_run *run, const char *getter,
				 unsigned long long claimed)
{
	if (claimed > KAT_MAX_BUFFER)
		return kat_fail(run, KAT_CRYPTOFAIL,
				"%s() claims %llu bytes, more than the %llu we allocate",
				getter, claimed, KAT_MAX_BUFFER);
	return KAT_PASS;
}

void kat_run_finish(struct kat_run *run, char **detail)
{
	if (detail)
		*detail = run->detail;
	else
		free(run->detail);
	run->detail = NULL;
}

void kat_emit_hex(struct strbuf *sb, const char *name,
		  const unsigned char *p, unsigned long long len)
{
	static const char digits[] = "0123456789ABCDEF";
	char chunk[256];
	size_t n = 0;

	sb_addf(sb, "%s = ", name);
	for (unsigned long long i = 0; i < len; i++) {
		chunk[n++] = digits[p[i] >> 4];
		chunk[n++] = digits[p[i] & 15];
		if (n == sizeof(chunk)) {
			sb_add(sb, chunk, n);
			n = 0;
		}
	}
	sb_add(sb, chunk, n);
	sb_addc(sb, '\n');
}

void kat_emit_field(struct strbuf *sb, const char *name,
		    const unsigned char *p, unsigned long long len)
{
	sb_addf(sb, "%s_Len = %llu\n", name, len);
	kat_emit_hex(sb, name, p, len);
}

void kat_begin_record(struct kat_run *run, int count, DRNG_ctx *drng_seed,
		      unsigned char seed[KAT_SEED_BYTES])
{
	snprintf(run->where, sizeof(run->where), "Count %d", count);
	sb_addf(run->text, "Count = %d\n", count);
	get_random_number(drng_seed, seed, KAT_SEED_BYTES * 8);
	sb_addf(run->text, "Seed_Len = %d\n", KAT_SEED_BYTES);
	kat_emit_hex(run->text, "Seed", seed, KAT_SEED_BYTES);
}

void kat_drng_init_repeated(DRNG_ctx *drng, const char *pattern)
{
	unsigned char nonce[KAT_SEED_BYTES];
	size_t plen = strlen(pattern);

	for (size_t i = 0; i < sizeof(nonce); i++)
		nonce[i] = (unsigned char)pattern[i % plen];
	init_random_number(drng, nonce, sizeof(nonce));
}
