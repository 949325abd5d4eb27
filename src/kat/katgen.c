/*
 * katgen.c — replay of the official KEM KAT driver (docs/iccs.md §4.1, §4.2)
 * with the harness's safety checks (§7 items 2 and 3).
 *
 * The text is appended to the caller's strbuf as it is produced, so a
 * failing record leaves exactly what the official driver would have written
 * to its file before exiting.
 */
#include "kat/katgen.h"
#include "kat/katrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/drng.h"

void katgen_seed_for_count(int count, unsigned char seed[KAT_SEED_BYTES])
{
	DRNG_ctx drng_seed;

	kat_drng_init_repeated(&drng_seed, KAT_SEED_NONCE);
	for (int i = 0; i <= count; i++)
		get_random_number(&drng_seed, seed, KAT_SEED_BYTES * 8);
}

enum { B_PK, B_SK, B_CT, B_SS, B_SS_DEC, N_BUFS };

struct kem_run {
	const struct kem_api *api;
	struct kat_run k;
	int count;
	struct kat_gbuf buf[N_BUFS];
};

static enum kat_status check_call(struct kem_run *run, const char *call, int rc)
{
	return kat_check_call(&run->k, call, rc, rc != 0);
}

static enum kat_status check_len(struct kem_run *run, const char *call,
				 int which, unsigned long long len)
{
	return kat_check_len(&run->k, call, &run->buf[which], len);
}

static enum kat_status run_keygen(struct kem_run *run,
				  unsigned long long *pk_len,
				  unsigned long long *sk_len)
{
	struct kat_gbuf *pk = &run->buf[B_PK], *sk = &run->buf[B_SK];
	int rc;

	*pk_len = pk->size;
	*sk_len = sk->size;
	rc = run->api->keygen(pk->data, pk_len, sk->data, sk_len);
	KAT_TRY(check_call(run, "kem_keygen", rc));
	KAT_TRY(check_len(run, "kem_keygen", B_PK, *pk_len));
	KAT_TRY(check_len(run, "kem_keygen", B_SK, *sk_len));
	kat_emit_field(run->k.text, "PK", pk->data, *pk_len);
	kat_emit_field(run->k.text, "SK", sk->data, *sk_len);
	return KAT_PASS;
}

static enum kat_status run_enc(struct kem_run *run, unsigned long long pk_len,
			       unsigned long long *ss_len,
			       unsigned long long *ct_len)
{
	struct kat_gbuf *ss = &run->buf[B_SS], *ct = &run->buf[B_CT];
	int rc;

	*ss_len = ss->size;
	*ct_len = ct->size;
	rc = run->api->enc(run->buf[B_PK].data, pk_len, ss->data, ss_len,
			   ct->data, ct_len);
	KAT_TRY(check_call(run, "kem_enc", rc));
	KAT_TRY(check_len(run, "kem_enc", B_SS, *ss_len));
	KAT_TRY(check_len(run, "kem_enc", B_CT, *ct_len));
	/* The official driver prints CT before SS. */
	kat_emit_field(run->k.text, "CT", ct->data, *ct_len);
	kat_emit_field(run->k.text, "SS", ss->data, *ss_len);
	return KAT_PASS;
}

/* Like the official driver: compare the first ss_len bytes, ss_len being
 * what dec left in the out-param. */
static enum kat_status run_dec(struct kem_run *run, unsigned long long sk_len,
			       unsigned long long ct_len)
{
	struct kat_gbuf *out = &run->buf[B_SS_DEC];
	unsigned long long ss_len = out->size;
	int rc;

	rc = run->api->dec(run->buf[B_SK].data, sk_len, run->buf[B_CT].data,
			   ct_len, out->data, &ss_len);
	KAT_TRY(check_call(run, "kem_dec", rc));
	KAT_TRY(check_len(run, "kem_dec", B_SS_DEC, ss_len));
	if (memcmp(out->data, run->buf[B_SS].data, (size_t)ss_len))
		return kat_fail(&run->k, KAT_CRYPTOFAIL,
				"kem_dec's shared secret differs from kem_enc's (first %llu bytes compared)",
			    ss_len);
	return KAT_PASS;
}

static enum kat_status run_record(struct kem_run *run, DRNG_ctx *drng_seed)
{
	unsigned char seed[KAT_SEED_BYTES];
	unsigned long long pk_len, sk_len, ss_len, ct_len;
	int rc;

	kat_begin_record(&run->k, run->count, drng_seed, seed);
	rc = run->api->seed(seed, KAT_SEED_BYTES);
	KAT_TRY(check_call(run, "init_random_number", rc));
	KAT_TRY(run_keygen(run, &pk_len, &sk_len));
	KAT_TRY(run_enc(run, pk_len, &ss_len, &ct_len));
	KAT_TRY(run_dec(run, sk_len, ct_len));
	sb_addc(run->k.text, '\n');
	return KAT_PASS;
}

static enum kat_status check_sizes(struct kem_run *run)
{
	const struct kem_api *a = run->api;

	KAT_TRY(kat_check_getter(&run->k, "kem_get_pk_len_bytes", a->pk_bytes));
	KAT_TRY(kat_check_getter(&run->k, "kem_get_sk_len_bytes", a->sk_bytes));
	KAT_TRY(kat_check_getter(&run->k, "kem_get_ct_len_bytes", a->ct_bytes));
	return kat_check_getter(&run->k, "kem_get_ss_len_bytes", a->ss_bytes);
}

enum kat_status katgen_kem(const struct kem_api *api, int records,
			   struct strbuf *text, char **detail)
{
	struct kem_run run = { .api = api };
	DRNG_ctx drng_seed;
	enum kat_status st;

	run.k.text = text;
	run.k.bufs = run.buf;
	run.k.nbufs = N_BUFS;
	snprintf(run.k.where, sizeof(run.k.where), "Count 0");
	if (records < 1)
		records = KAT_DEFAULT_RECORDS;
	st = check_sizes(&run);
	if (st == KAT_PASS) {
		kat_gbuf_alloc(&run.buf[B_PK], "pk", api->pk_bytes);
		kat_gbuf_alloc(&run.buf[B_SK], "sk", api->sk_bytes);
		kat_gbuf_alloc(&run.buf[B_CT], "ct", api->ct_bytes);
		kat_gbuf_alloc(&run.buf[B_SS], "ss", api->ss_bytes);
		kat_gbuf_alloc(&run.buf[B_SS_DEC], "ss (dec)", api->ss_bytes);
		kat_drng_init_repeated(&drng_seed, KAT_SEED_NONCE);
		for (run.count = 0; run.count < records && st == KAT_PASS; run.count++)
			st = run_record(&run, &drng_seed);
		for (int i = 0; i < N_BUFS; i++)
			kat_gbuf_free(&run.buf[i]);
	}
	kat_run_finish(&run.k, detail);
	return st;
}
