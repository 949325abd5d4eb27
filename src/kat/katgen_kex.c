/*
 * katgen_kex.c — replay of the official key-exchange KAT driver
 * (docs/iccs.md §4.1, §4.4).  One drng_algorithm stream per record feeds, in
 * order, init_a, init_b, the passes, derive_a and derive_b.
 */
#include "kat/katgen_kex.h"
#include "kat/katrun.h"

#include <stdio.h>
#include <string.h>

/* Buffers: the parties' keys, states and secrets, then m1, m2, ... as the
 * passes need them (kat_run checks the first nbufs). */
enum { B_PKA, B_SKA, B_STA, B_PKB, B_SKB, B_STB, B_SSA, B_SSB, B_MSG1 };
#define N_BUFS (B_MSG1 + KAT_KEX_MAX_PASSES)

struct kex_run {
	const struct kex_api *api;
	struct kat_run k;
	struct kat_gbuf buf[N_BUFS];
	/* The official driver's variables: set once, never reset. */
	unsigned long long pka_len, ska_len, sta_len, pkb_len, skb_len, stb_len;
	unsigned long long ssa_len, ssb_len;
	unsigned long long m_len[KAT_KEX_MAX_PASSES + 1];
	int ma, mb; /* pass number of A's and B's last message; 0 = NULL */
};

void katgen_kex_pass_symbol(int k, char out[40])
{
	snprintf(out, 40, "kex_generate_pass%d_msg_%c", k, k % 2 ? 'a' : 'b');
}

static struct kat_gbuf *msg_buf(struct kex_run *run, int k)
{
	return &run->buf[B_MSG1 + k - 1];
}

/* m1 .. mk exist after this (allocated in order, so bufs stays dense). */
static void ensure_msg_bufs(struct kex_run *run, int k)
{
	static const char *const names[KAT_KEX_MAX_PASSES] = {
		"m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8",
		"m9", "m10", "m11", "m12", "m13", "m14", "m15", "m16",
	};

	while (run->k.nbufs < B_MSG1 + k) {
		int i = run->k.nbufs - B_MSG1;
		kat_gbuf_alloc(&run->buf[run->k.nbufs], names[i], run->api->msg_bytes);
		run->k.nbufs++;
	}
}

static enum kat_status check_call(struct kex_run *run, const char *call, int rc)
{
	return kat_check_call(&run->k, call, rc, rc < 0);
}

static enum kat_status run_init(struct kex_run *run, int party_b)
{
	const char *call = party_b ? "kex_init_b" : "kex_init_a";
	int pk = party_b ? B_PKB : B_PKA, sk = party_b ? B_SKB : B_SKA;
	int st = party_b ? B_STB : B_STA;
	unsigned long long *pk_len = party_b ? &run->pkb_len : &run->pka_len;
	unsigned long long *sk_len = party_b ? &run->skb_len : &run->ska_len;
	unsigned long long *st_len = party_b ? &run->stb_len : &run->sta_len;
	kex_init_fn init = party_b ? run->api->init_b : run->api->init_a;
	int rc = init(run->buf[pk].data, pk_len, run->buf[sk].data, sk_len,
		      run->buf[st].data, st_len);

	KAT_TRY(check_call(run, call, rc));
	KAT_TRY(kat_check_len(&run->k, call, &run->buf[pk], *pk_len));
	KAT_TRY(kat_check_len(&run->k, call, &run->buf[sk], *sk_len));
	KAT_TRY(kat_check_len(&run->k, call, &run->buf[st], *st_len));
	kat_emit_field(run->k.text, party_b ? "PKb" : "PKa", run->buf[pk].data, *pk_len);
	kat_emit_field(run->k.text, party_b ? "SKb" : "SKa", run->buf[sk].data, *sk_len);
	kat_emit_field(run->k.text, party_b ? "Init_Stb" : "Init_Sta",
		       run->buf[st].data, *st_len);
	return KAT_PASS;
}

/* Calls pass k; *rc is its return (>= 0 when KAT_PASS is returned). */
static enum kat_status call_pass(struct kex_run *run, int k, int *rc)
{
	int by_b = k % 2 == 0;
	unsigned char *sk = run->buf[by_b ? B_SKB : B_SKA].data;
	unsigned char *pk = run->buf[by_b ? B_PKA : B_PKB].data;
	unsigned long long sk_len = by_b ? run->skb_len : run->ska_len;
	unsigned long long pk_len = by_b ? run->pka_len : run->pkb_len;
	struct kat_gbuf *st = &run->buf[by_b ? B_STB : B_STA];
	unsigned long long *st_len = by_b ? &run->stb_len : &run->sta_len;
	struct kat_gbuf *out = msg_buf(run, k);
	char call[40], name[24];

	katgen_kex_pass_symbol(k, call);
	if (k == 1)
		*rc = run->api->pass1(sk, sk_len, pk, pk_len, st->data, st_len,
				      out->data, &run->m_len[1]);
	else
		*rc = run->api->pass[k](sk, sk_len, pk, pk_len, msg_buf(run, k - 1)->data,
					run->m_len[k - 1], st->data, st_len, out->data,
					&run->m_len[k]);
	KAT_TRY(check_call(run, call, *rc));
	KAT_TRY(kat_check_len(&run->k, call, st, *st_len));
	KAT_TRY(kat_check_len(&run->k, call, out, run->m_len[k]));
	snprintf(name, sizeof(name), "Pass%d_St%c", k, by_b ? 'b' : 'a');
	kat_emit_field(run->k.text, name, st->data, *st_len);
	snprintf(name, sizeof(name), "M%d", k);
	kat_emit_field(run->k.text, name, out->data, run->m_len[k]);
	if (by_b)
		run->mb = k;
	else
		run->ma = k;
	return KAT_PASS;
}

static int pass_defined(const struct kex_api *api, int k)
{
	if (k == 1)
		return api->pass1 != NULL;
	return k <= KAT_KEX_MAX_PASSES && api->pass[k] != NULL;
}

/* After pass k returned rc != 1: KAT_PASS with *next set, or *next = 0 to
 * derive now, or a failure. */
static enum kat_status next_pass(struct kex_run *run, int k, int rc, int *next)
{
	char sym[40];

	*next = 0;
	if (pass_defined(run->api, k + 1)) {
		*next = k + 1;
		return KAT_PASS;
	}
	katgen_kex_pass_symbol(k + 1, sym);
	if (k < 3)
		return kat_fail(&run->k, KAT_CRYPTOFAIL,
				"pass %d returned %d (not finished) and %s is not defined",
				k, rc, sym);
	if ((unsigned long long)k == run->api->passes)
		return KAT_PASS; /* the official driver derives after its last pass */
	return kat_fail(&run->k, KAT_CRYPTOFAIL,
			"no pass returned 1 (finished): passes 1..%d returned 0 or >= 2, "
			"%s is not defined, and kex_get_passes_num() is %llu",
			k, sym, run->api->passes);
}

static enum kat_status run_passes(struct kex_run *run)
{
	int k = 1, rc;

	if (!pass_defined(run->api, 1))
		return kat_fail(&run->k, KAT_CRYPTOFAIL, "kex_generate_pass1_msg_a is not defined");
	while (k) {
		ensure_msg_bufs(run, k);
		KAT_TRY(call_pass(run, k, &rc));
		if (rc == 1) {
			if ((unsigned long long)k != run->api->passes)
				return kat_fail(&run->k, KAT_CRYPTOFAIL,
						"pass %d returned 1 (finished) but kex_get_passes_num() is %llu",
						k, run->api->passes);
			return KAT_PASS;
		}
		KAT_TRY(next_pass(run, k, rc, &k));
	}
	return KAT_PASS;
}

static unsigned char *last_msg(struct kex_run *run, int k, unsigned long long *len)
{
	*len = k ? run->m_len[k] : 0;
	return k ? msg_buf(run, k)->data : NULL;
}

static enum kat_status run_derive(struct kex_run *run)
{
	struct kat_gbuf *ssa = &run->buf[B_SSA], *ssb = &run->buf[B_SSB];
	unsigned long long ma_len, mb_len;
	unsigned char *ma = last_msg(run, run->ma, &ma_len);
	unsigned char *mb = last_msg(run, run->mb, &mb_len);
	int rc;

	rc = run->api->derive_a(run->buf[B_SKA].data, run->ska_len, run->buf[B_PKB].data,
				run->pkb_len, mb, mb_len, run->buf[B_STA].data,
				run->sta_len, ssa->data, &run->ssa_len);
	KAT_TRY(check_call(run, "kex_derive_ss_a", rc));
	KAT_TRY(kat_check_len(&run->k, "kex_derive_ss_a", ssa, run->ssa_len));
	rc = run->api->derive_b(run->buf[B_SKB].data, run->skb_len, run->buf[B_PKA].data,
				run->pka_len, ma, ma_len, run->buf[B_STB].data,
				run->stb_len, ssb->data, &run->ssb_len);
	KAT_TRY(check_call(run, "kex_derive_ss_b", rc));
	KAT_TRY(kat_check_len(&run->k, "kex_derive_ss_b", ssb, run->ssb_len));
	if (run->ssa_len != run->ssb_len)
		return kat_fail(&run->k, KAT_CRYPTOFAIL,
				"the parties' shared secrets differ in length: A %llu bytes, B %llu bytes",
				run->ssa_len, run->ssb_len);
	if (memcmp(ssa->data, ssb->data, (size_t)run->ssa_len))
		return kat_fail(&run->k, KAT_CRYPTOFAIL,
				"the parties' shared secrets differ (%llu bytes compared)",
				run->ssa_len);
	kat_emit_field(run->k.text, "SS", ssa->data, run->ssa_len);
	return KAT_PASS;
}

static enum kat_status run_record(struct kex_run *run, int count, DRNG_ctx *drng_seed)
{
	unsigned char seed[KAT_SEED_BYTES];

	kat_begin_record(&run->k, count, drng_seed, seed);
	KAT_TRY(check_call(run, "init_random_number", run->api->seed(seed, KAT_SEED_BYTES)));
	sb_addf(run->k.text, "Pass_Num = %llu\n", run->api->passes);
	KAT_TRY(run_init(run, 0));
	KAT_TRY(run_init(run, 1));
	KAT_TRY(run_passes(run));
	KAT_TRY(run_derive(run));
	sb_addc(run->k.text, '\n');
	return KAT_PASS;
}

static enum kat_status check_sizes(struct kex_run *run)
{
	const struct kex_api *a = run->api;

	KAT_TRY(kat_check_getter(&run->k, "kex_get_pk_len_bytes", a->pk_bytes));
	KAT_TRY(kat_check_getter(&run->k, "kex_get_sk_len_bytes", a->sk_bytes));
	KAT_TRY(kat_check_getter(&run->k, "kex_get_sta_len_bytes", a->sta_bytes));
	KAT_TRY(kat_check_getter(&run->k, "kex_get_stb_len_bytes", a->stb_bytes));
	KAT_TRY(kat_check_getter(&run->k, "kex_get_ss_len_bytes", a->ss_bytes));
	return kat_check_getter(&run->k, "kex_get_total_msg_len_bytes", a->msg_bytes);
}

static void alloc_party_bufs(struct kex_run *run)
{
	const struct kex_api *a = run->api;

	kat_gbuf_alloc(&run->buf[B_PKA], "pka", a->pk_bytes);
	kat_gbuf_alloc(&run->buf[B_SKA], "ska", a->sk_bytes);
	kat_gbuf_alloc(&run->buf[B_STA], "sta", a->sta_bytes);
	kat_gbuf_alloc(&run->buf[B_PKB], "pkb", a->pk_bytes);
	kat_gbuf_alloc(&run->buf[B_SKB], "skb", a->sk_bytes);
	kat_gbuf_alloc(&run->buf[B_STB], "stb", a->stb_bytes);
	kat_gbuf_alloc(&run->buf[B_SSA], "ssa", a->ss_bytes);
	kat_gbuf_alloc(&run->buf[B_SSB], "ssb", a->ss_bytes);
	run->k.nbufs = B_MSG1;
	run->pka_len = run->pkb_len = a->pk_bytes;
	run->ska_len = run->skb_len = a->sk_bytes;
	run->sta_len = a->sta_bytes;
	run->stb_len = a->stb_bytes;
	run->ssa_len = run->ssb_len = a->ss_bytes;
}

enum kat_status katgen_kex(const struct kex_api *api, int records,
			   struct strbuf *text, char **detail)
{
	struct kex_run run = { .api = api };
	DRNG_ctx drng_seed;
	enum kat_status st;

	run.k.text = text;
	run.k.bufs = run.buf;
	snprintf(run.k.where, sizeof(run.k.where), "Count 0");
	if (records < 1)
		records = KAT_DEFAULT_RECORDS;
	st = check_sizes(&run);
	if (st == KAT_PASS) {
		alloc_party_bufs(&run);
		kat_drng_init_repeated(&drng_seed, KAT_SEED_NONCE);
		for (int count = 0; count < records && st == KAT_PASS; count++)
			st = run_record(&run, count, &drng_seed);
		for (int i = 0; i < run.k.nbufs; i++)
			kat_gbuf_free(&run.buf[i]);
	}
	kat_run_finish(&run.k, detail);
	return st;
}
