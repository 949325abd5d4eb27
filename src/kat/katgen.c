/*
 * katgen.c — replay of the official KEM KAT driver (docs/iccs.md §4.1, §4.2)
 * with the harness's safety checks (§7 items 2 and 3).
 *
 * The text is appended to the caller's strbuf as it is produced, so a
 * failing record leaves exactly what the official driver would have written
 * to its file before exiting.
 */
#include "kat/katgen.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/drng.h"

/* Index = enum kat_status. */
static const char *const status_names[] = {
	"PASS", "MISMATCH", "NOKAT", "CRYPTOFAIL", "OVERFLOW",
	"LOADFAIL", "TIMEOUT", "CRASH", "BUILDFAIL",
};
#define N_STATUS (sizeof(status_names) / sizeof(status_names[0]))

const char *kat_status_name(enum kat_status s)
{
	if ((unsigned)s >= N_STATUS)
		return "UNKNOWN";
	return status_names[s];
}

int kat_status_parse(const char *name)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < N_STATUS; i++)
		if (!strcmp(name, status_names[i]))
			return (int)i;
	return -1;
}

/* The nonce drng_seed is instantiated with: "seed" x 16. */
static void seed_drng_init(DRNG_ctx *drng_seed)
{
	unsigned char nonce[KAT_SEED_BYTES];

	for (size_t i = 0; i < sizeof(nonce); i += 4)
		memcpy(nonce + i, "seed", 4);
	init_random_number(drng_seed, nonce, sizeof(nonce));
}

void katgen_seed_for_count(int count, unsigned char seed[KAT_SEED_BYTES])
{
	DRNG_ctx drng_seed;

	seed_drng_init(&drng_seed);
	for (int i = 0; i <= count; i++)
		get_random_number(&drng_seed, seed, KAT_SEED_BYTES * 8);
}

/* A buffer of `size` usable bytes between two guard zones. */
struct gbuf {
	const char *name;
	unsigned char *base;
	unsigned char *data;
	unsigned long long size;
};

static void gbuf_alloc(struct gbuf *g, const char *name, unsigned long long size)
{
	size_t total = (size_t)size + 2 * KAT_GUARD_BYTES;

	g->name = name;
	g->size = size;
	g->base = xmalloc(total);
	memset(g->base, KAT_GUARD_BYTE, total);
	g->data = g->base + KAT_GUARD_BYTES;
	memset(g->data, 0, (size_t)size);
}

static int zone_intact(const unsigned char *p)
{
	for (int i = 0; i < KAT_GUARD_BYTES; i++)
		if (p[i] != KAT_GUARD_BYTE)
			return 0;
	return 1;
}

/* NULL if both guard zones are intact, else which side was overwritten. */
static const char *gbuf_damage(const struct gbuf *g)
{
	if (!zone_intact(g->base))
		return "before";
	if (!zone_intact(g->data + g->size))
		return "after";
	return NULL;
}

enum { B_PK, B_SK, B_CT, B_SS, B_SS_DEC, N_BUFS };

struct kat_run {
	const struct kem_api *api;
	struct strbuf *text;
	int count;
	struct gbuf buf[N_BUFS];
	char *detail;
};

/* Largest getter value we are prepared to allocate (a sanity bound). */
#define KAT_MAX_BUFFER (256ULL << 20)

static enum kat_status fail(struct kat_run *run, enum kat_status st,
			    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static enum kat_status fail(struct kat_run *run, enum kat_status st,
			    const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	free(run->detail);
	run->detail = xasprintf("Count %d: %s", run->count, msg);
	free(msg);
	return st;
}

/* After every call: all guard zones intact, else OVERFLOW. */
static enum kat_status check_guards(struct kat_run *run, const char *call)
{
	for (int i = 0; i < N_BUFS; i++) {
		const char *side = gbuf_damage(&run->buf[i]);
		if (side)
			return fail(run, KAT_OVERFLOW,
				    "%s overwrote the guard zone %s buffer %s (%llu bytes)",
				    call, side, run->buf[i].name, run->buf[i].size);
	}
	return KAT_PASS;
}

static enum kat_status check_call(struct kat_run *run, const char *call, int rc)
{
	enum kat_status st = check_guards(run, call);

	if (st != KAT_PASS)
		return st;
	if (rc != 0)
		return fail(run, KAT_CRYPTOFAIL, "%s returned %d", call, rc);
	return KAT_PASS;
}

/* A returned length may not exceed the getter's claim. */
static enum kat_status check_len(struct kat_run *run, const char *call,
				 int which, unsigned long long len)
{
	const struct gbuf *g = &run->buf[which];

	if (len > g->size)
		return fail(run, KAT_OVERFLOW,
			    "%s returned %s length %llu, above the getter's %llu",
			    call, g->name, len, g->size);
	return KAT_PASS;
}

static void emit_hex(struct strbuf *sb, const char *name,
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

static void emit_field(struct strbuf *sb, const char *name,
		       const unsigned char *p, unsigned long long len)
{
	sb_addf(sb, "%s_Len = %llu\n", name, len);
	emit_hex(sb, name, p, len);
}

#define TRY(expr)                                  \
	do {                                       \
		enum kat_status st_ = (expr);      \
		if (st_ != KAT_PASS)               \
			return st_;                \
	} while (0)

static enum kat_status run_keygen(struct kat_run *run,
				  unsigned long long *pk_len,
				  unsigned long long *sk_len)
{
	struct gbuf *pk = &run->buf[B_PK], *sk = &run->buf[B_SK];
	int rc;

	*pk_len = pk->size;
	*sk_len = sk->size;
	rc = run->api->keygen(pk->data, pk_len, sk->data, sk_len);
	TRY(check_call(run, "kem_keygen", rc));
	TRY(check_len(run, "kem_keygen", B_PK, *pk_len));
	TRY(check_len(run, "kem_keygen", B_SK, *sk_len));
	emit_field(run->text, "PK", pk->data, *pk_len);
	emit_field(run->text, "SK", sk->data, *sk_len);
	return KAT_PASS;
}

static enum kat_status run_enc(struct kat_run *run, unsigned long long pk_len,
			       unsigned long long *ss_len,
			       unsigned long long *ct_len)
{
	struct gbuf *ss = &run->buf[B_SS], *ct = &run->buf[B_CT];
	int rc;

	*ss_len = ss->size;
	*ct_len = ct->size;
	rc = run->api->enc(run->buf[B_PK].data, pk_len, ss->data, ss_len,
			   ct->data, ct_len);
	TRY(check_call(run, "kem_enc", rc));
	TRY(check_len(run, "kem_enc", B_SS, *ss_len));
	TRY(check_len(run, "kem_enc", B_CT, *ct_len));
	/* The official driver prints CT before SS. */
	emit_field(run->text, "CT", ct->data, *ct_len);
	emit_field(run->text, "SS", ss->data, *ss_len);
	return KAT_PASS;
}

/* Like the official driver: compare the first ss_len bytes, ss_len being
 * what dec left in the out-param. */
static enum kat_status run_dec(struct kat_run *run, unsigned long long sk_len,
			       unsigned long long ct_len)
{
	struct gbuf *out = &run->buf[B_SS_DEC];
	unsigned long long ss_len = out->size;
	int rc;

	rc = run->api->dec(run->buf[B_SK].data, sk_len, run->buf[B_CT].data,
			   ct_len, out->data, &ss_len);
	TRY(check_call(run, "kem_dec", rc));
	TRY(check_len(run, "kem_dec", B_SS_DEC, ss_len));
	if (memcmp(out->data, run->buf[B_SS].data, (size_t)ss_len))
		return fail(run, KAT_CRYPTOFAIL,
			    "kem_dec's shared secret differs from kem_enc's (first %llu bytes compared)",
			    ss_len);
	return KAT_PASS;
}

static enum kat_status run_record(struct kat_run *run, DRNG_ctx *drng_seed)
{
	unsigned char seed[KAT_SEED_BYTES];
	unsigned long long pk_len, sk_len, ss_len, ct_len;
	int rc;

	sb_addf(run->text, "Count = %d\n", run->count);
	get_random_number(drng_seed, seed, KAT_SEED_BYTES * 8);
	sb_addf(run->text, "Seed_Len = %d\n", KAT_SEED_BYTES);
	emit_hex(run->text, "Seed", seed, KAT_SEED_BYTES);

	rc = run->api->seed(seed, KAT_SEED_BYTES);
	TRY(check_call(run, "init_random_number", rc));
	TRY(run_keygen(run, &pk_len, &sk_len));
	TRY(run_enc(run, pk_len, &ss_len, &ct_len));
	TRY(run_dec(run, sk_len, ct_len));
	sb_addc(run->text, '\n');
	return KAT_PASS;
}

static enum kat_status check_sizes(struct kat_run *run)
{
	const struct kem_api *a = run->api;
	const unsigned long long sizes[] = { a->pk_bytes, a->sk_bytes,
					     a->ct_bytes, a->ss_bytes };
	const char *getters[] = { "pk", "sk", "ct", "ss" };

	for (int i = 0; i < 4; i++)
		if (sizes[i] > KAT_MAX_BUFFER)
			return fail(run, KAT_CRYPTOFAIL,
				    "kem_get_%s_len_bytes() claims %llu bytes, more than the %llu we allocate",
				    getters[i], sizes[i], KAT_MAX_BUFFER);
	return KAT_PASS;
}

enum kat_status katgen_kem(const struct kem_api *api, int records,
			   struct strbuf *text, char **detail)
{
	struct kat_run run = { .api = api, .text = text };
	DRNG_ctx drng_seed;
	enum kat_status st;

	if (records < 1)
		records = KAT_DEFAULT_RECORDS;
	st = check_sizes(&run);
	if (st == KAT_PASS) {
		gbuf_alloc(&run.buf[B_PK], "pk", api->pk_bytes);
		gbuf_alloc(&run.buf[B_SK], "sk", api->sk_bytes);
		gbuf_alloc(&run.buf[B_CT], "ct", api->ct_bytes);
		gbuf_alloc(&run.buf[B_SS], "ss", api->ss_bytes);
		gbuf_alloc(&run.buf[B_SS_DEC], "ss (dec)", api->ss_bytes);
		seed_drng_init(&drng_seed);
		for (run.count = 0; run.count < records && st == KAT_PASS; run.count++)
			st = run_record(&run, &drng_seed);
		for (int i = 0; i < N_BUFS; i++)
			free(run.buf[i].base);
	}
	if (detail)
		*detail = run.detail;
	else
		free(run.detail);
	return st;
}
