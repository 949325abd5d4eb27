/*
 * katgen_sig.c — replay of the official signature KAT driver
 * (docs/iccs.md §4.1, §4.3): drng_seed gives each record's seed, a second
 * DRNG drng_msg ("msg" x 21 || "m") gives its message (the official
 * driver draws it before printing the seed); keygen, sign and verify share
 * drng_algorithm seeded once per record.
 */
#include "kat/katgen_sig.h"
#include "kat/katrun.h"

#include <stdio.h>

#define MSG_NONCE "msg"

enum { B_PK, B_SK, B_MSG, B_SN, N_BUFS };

struct sig_run {
	const struct sig_api *api;
	struct kat_run k;
	struct kat_gbuf buf[N_BUFS];
	/* Set once, carried over like the official driver's variables. */
	unsigned long long pk_len, sk_len, sn_len;
};

static int msg_len_of(int count)
{
	return 56 + 8 * count;
}

static enum kat_status check_call(struct sig_run *run, const char *call, int rc)
{
	return kat_check_call(&run->k, call, rc, rc != 0);
}

static enum kat_status run_keygen(struct sig_run *run)
{
	struct kat_gbuf *pk = &run->buf[B_PK], *sk = &run->buf[B_SK];
	int rc = run->api->keygen(pk->data, &run->pk_len, sk->data, &run->sk_len);

	KAT_TRY(check_call(run, "sig_keygen", rc));
	KAT_TRY(kat_check_len(&run->k, "sig_keygen", pk, run->pk_len));
	KAT_TRY(kat_check_len(&run->k, "sig_keygen", sk, run->sk_len));
	kat_emit_field(run->k.text, "PK", pk->data, run->pk_len);
	kat_emit_field(run->k.text, "SK", sk->data, run->sk_len);
	return KAT_PASS;
}

static enum kat_status run_sign_verify(struct sig_run *run, int m_len)
{
	struct kat_gbuf *m = &run->buf[B_MSG], *sn = &run->buf[B_SN];
	int rc;

	sb_addf(run->k.text, "M_Len = %d\n", m_len);
	kat_emit_hex(run->k.text, "M", m->data, (unsigned long long)m_len);
	rc = run->api->sign(run->buf[B_SK].data, run->sk_len, m->data,
			    (unsigned long long)m_len, sn->data, &run->sn_len);
	KAT_TRY(check_call(run, "sig_sign", rc));
	KAT_TRY(kat_check_len(&run->k, "sig_sign", sn, run->sn_len));
	kat_emit_field(run->k.text, "Sn", sn->data, run->sn_len);
	rc = run->api->verify(run->buf[B_PK].data, run->pk_len, sn->data,
			      run->sn_len, m->data, (unsigned long long)m_len);
	KAT_TRY(kat_check_guards(&run->k, "sig_verify"));
	if (rc != 0)
		return kat_fail(&run->k, KAT_CRYPTOFAIL,
				"sig_verify returned %d for the %llu-byte signature sig_sign just made",
				rc, run->sn_len);
	return KAT_PASS;
}

static enum kat_status run_record(struct sig_run *run, int count,
				  DRNG_ctx *drng_seed, DRNG_ctx *drng_msg)
{
	unsigned char seed[KAT_SEED_BYTES];
	int m_len = msg_len_of(count);

	kat_begin_record(&run->k, count, drng_seed, seed);
	/* The official driver draws the message before it prints the seed;
	 * drng_msg is a stream of its own, so the text is the same. */
	get_random_number(drng_msg, run->buf[B_MSG].data, 8ULL * (unsigned)m_len);
	KAT_TRY(check_call(run, "init_random_number",
			   run->api->seed(seed, KAT_SEED_BYTES)));
	KAT_TRY(run_keygen(run));
	KAT_TRY(run_sign_verify(run, m_len));
	sb_addc(run->k.text, '\n');
	return KAT_PASS;
}

static enum kat_status check_sizes(struct sig_run *run)
{
	const struct sig_api *a = run->api;

	KAT_TRY(kat_check_getter(&run->k, "sig_get_pk_len_bytes", a->pk_bytes));
	KAT_TRY(kat_check_getter(&run->k, "sig_get_sk_len_bytes", a->sk_bytes));
	return kat_check_getter(&run->k, "sig_get_sn_len_bytes", a->sn_bytes);
}

enum kat_status katgen_sig(const struct sig_api *api, int records,
			   struct strbuf *text, char **detail)
{
	struct sig_run run = { .api = api };
	DRNG_ctx drng_seed, drng_msg;
	enum kat_status st;

	run.k.text = text;
	run.k.bufs = run.buf;
	run.k.nbufs = N_BUFS;
	snprintf(run.k.where, sizeof(run.k.where), "Count 0");
	/* The official driver writes 10 records; its message buffer holds the
	 * 10th record's 128 bytes and no more. */
	if (records < 1 || records > KAT_DEFAULT_RECORDS)
		records = KAT_DEFAULT_RECORDS;
	st = check_sizes(&run);
	if (st != KAT_PASS) {
		kat_run_finish(&run.k, detail);
		return st;
	}
	kat_gbuf_alloc(&run.buf[B_PK], "pk", api->pk_bytes);
	kat_gbuf_alloc(&run.buf[B_SK], "sk", api->sk_bytes);
	kat_gbuf_alloc(&run.buf[B_MSG], "m", KAT_SIG_MSG_BUFFER);
	kat_gbuf_alloc(&run.buf[B_SN], "sn", api->sn_bytes);
	run.pk_len = api->pk_bytes;
	run.sk_len = api->sk_bytes;
	run.sn_len = api->sn_bytes;
	kat_drng_init_repeated(&drng_seed, KAT_SEED_NONCE);
	kat_drng_init_repeated(&drng_msg, MSG_NONCE);
	for (int count = 0; count < records && st == KAT_PASS; count++)
		st = run_record(&run, count, &drng_seed, &drng_msg);
	for (int i = 0; i < N_BUFS; i++)
		kat_gbuf_free(&run.buf[i]);
	kat_run_finish(&run.k, detail);
	return st;
}

int katgen_sig_message(int count, unsigned char m[KAT_SIG_MSG_BUFFER])
{
	DRNG_ctx drng_msg;
	int m_len = 0;

	if (count < 0 || count >= KAT_DEFAULT_RECORDS)
		return 0;
	kat_drng_init_repeated(&drng_msg, MSG_NONCE);
	for (int i = 0; i <= count; i++) {
		m_len = msg_len_of(i);
		get_random_number(&drng_msg, m, 8ULL * (unsigned)m_len);
	}
	return m_len;
}
