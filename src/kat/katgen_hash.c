/*
 * katgen_hash.c — replay of the official hash KAT driver (docs/iccs.md
 * §4.5), one file per call.
 *
 * KAT_2_12: 4097 records, L = 0..4096 bits, one DRNG draw of L bits each
 * into a zeroed 512-byte buffer.  KAT_2_23 / KAT_2_33: three records of
 * L = 2^23 / 2^33 bits (zeros, 0xFF, one random draw), printed as
 * Msg_Seed / Msg_Exp (first and last 8 bytes).  KAT_Loop: a 8192-bit m0,
 * then 10^6 chained iterations (rotate by d digest bytes, XOR the digest
 * in, hash again).  The big message buffer is filled in place record by
 * record; only Msg_Exp's 16 bytes of it are printed.
 */
#include "kat/katgen_hash.h"
#include "kat/katrun.h"
#include "method/hashmsg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const tags[HASH_KAT_NFILES] = {
	"KAT_2_12", "KAT_2_23", "KAT_2_33", "KAT_Loop",
};

#define SHORT_MAX_BITS 4096ULL
#define SHORT_BUFFER 512ULL
#define LOOP_MSG_BITS 8192ULL
#define EXP_BYTES 8

enum { B_MSG, B_DIGEST, N_BUFS };

struct hash_run {
	const struct hash_api *api;
	enum hash_kat_file file;
	struct kat_run k;
	struct kat_gbuf buf[N_BUFS];
};

const char *katgen_hash_file_tag(enum hash_kat_file f)
{
	return (unsigned)f < HASH_KAT_NFILES ? tags[f] : NULL;
}

int katgen_hash_file_parse(const char *tag)
{
	for (int i = 0; tag && i < HASH_KAT_NFILES; i++)
		if (!strcmp(tag, tags[i]))
			return i;
	return -1;
}

char *katgen_hash_file_name(enum hash_kat_file f, const char *instance)
{
	return xasprintf("%s_%s.txt", katgen_hash_file_tag(f), instance);
}

static unsigned long long long_msg_bits(const struct hash_api *api, enum hash_kat_file f)
{
	if (f == HASH_KAT_2_23)
		return 1ULL << 23;
	return api && api->kat_2_33_bits ? api->kat_2_33_bits : 1ULL << 33;
}

unsigned long long katgen_hash_file_msg_bytes(const struct hash_api *api, enum hash_kat_file f)
{
	switch (f) {
	case HASH_KAT_2_12:
		return SHORT_BUFFER;
	case HASH_KAT_2_23:
	case HASH_KAT_2_33:
		return long_msg_bits(api, f) / 8;
	case HASH_KAT_LOOP:
		return LOOP_MSG_BITS / 8;
	default:
		return 0;
	}
}

static unsigned long long digest_print_bytes(const struct hash_run *run)
{
	return (unsigned long long)run->api->digest_bits / 8;
}

static void progress(const struct hash_run *run, unsigned long long done,
		     unsigned long long total)
{
	if (run->api->progress)
		run->api->progress(run->api->progress_arg, done, total);
}

/* One CryptHash call on the message buffer; `checked` = a non-zero return
 * fails the file (everywhere but inside the KAT_Loop iterations). */
static enum kat_status call_hash(struct hash_run *run, unsigned long long bits,
				 int checked)
{
	int rc = run->api->hash(run->api->digest_bits, run->buf[B_MSG].data, bits,
				run->buf[B_DIGEST].data);

	return kat_check_call(&run->k, "CryptHash", rc, checked && rc != 0);
}

static void emit_digest(struct hash_run *run)
{
	sb_addf(run->k.text, "Dst_Len = %d\n", run->api->digest_bits);
	kat_emit_hex(run->k.text, "Dst", run->buf[B_DIGEST].data, digest_print_bytes(run));
}

static enum kat_status gen_short(struct hash_run *run, DRNG_ctx *drng)
{
	unsigned char *msg = run->buf[B_MSG].data;

	for (unsigned long long bits = 0; bits <= SHORT_MAX_BITS; bits++) {
		snprintf(run->k.where, sizeof(run->k.where), "KAT_2_12 Msg_Len %llu", bits);
		memset(msg, 0, SHORT_BUFFER);
		get_random_number(drng, msg, bits);
		sb_addf(run->k.text, "Msg_Len = %llu\n", bits);
		kat_emit_hex(run->k.text, "Msg", msg, (bits + 7) / 8);
		KAT_TRY(call_hash(run, bits, 1));
		emit_digest(run);
		sb_addc(run->k.text, '\n');
		if (bits % 256 == 0)
			progress(run, bits, SHORT_MAX_BITS + 1);
	}
	return KAT_PASS;
}

/* Record 1 zeros, 2 0xFF, 3 random: fill the buffer in place. */
static void fill_long(struct hash_run *run, int record, DRNG_ctx *drng,
		      unsigned long long bits)
{
	unsigned char *msg = run->buf[B_MSG].data;
	size_t bytes = (size_t)(bits / 8);

	if (record == 1)
		return; /* the freshly allocated buffer is all zeros */
	if (record == 2)
		memset(msg, 0xFF, bytes);
	else
		get_random_number(drng, msg, bits);
}

static enum kat_status gen_long(struct hash_run *run, DRNG_ctx *drng)
{
	unsigned long long bits = long_msg_bits(run->api, run->file);
	const unsigned char *msg = run->buf[B_MSG].data;
	size_t bytes = (size_t)(bits / 8);
	const char *tag = tags[run->file];

	for (int record = 1; record <= 3; record++) {
		snprintf(run->k.where, sizeof(run->k.where), "%s record %d", tag, record);
		progress(run, (unsigned long long)record - 1, 3);
		fill_long(run, record, drng, bits);
		sb_addf(run->k.text, "Msg_Len = %llu\n", bits);
		sb_adds(run->k.text, "Msg_Seed = ");
		if (record == 3) /* the file's DRNG seed: the tag x 8 */
			for (int i = 0; i < 8; i++)
				for (int j = 0; j < 8; j++)
					sb_addf(run->k.text, "%02X", (unsigned char)tag[j]);
		sb_addc(run->k.text, '\n');
		sb_adds(run->k.text, "Msg_Exp = ");
		for (int i = 0; i < EXP_BYTES; i++)
			sb_addf(run->k.text, "%02X", msg[i]);
		sb_adds(run->k.text, " .... ");
		for (size_t i = bytes - EXP_BYTES; i < bytes; i++)
			sb_addf(run->k.text, "%02X", msg[i]);
		sb_addc(run->k.text, '\n');
		KAT_TRY(call_hash(run, bits, 1));
		emit_digest(run);
		sb_addc(run->k.text, '\n');
	}
	progress(run, 3, 3);
	return KAT_PASS;
}

/*
 * One KAT_Loop step: rotate the message left by d = floor(D/8) bytes and XOR
 * the digest into its first d bytes.  The official driver moves
 * floor((8192 - D)/8) bytes and writes the saved d bytes right after them,
 * so for a D that is not a multiple of 8 the last byte stays in place.
 */
static void loop_step(unsigned char *msg, const unsigned char *digest, int digest_bits)
{
	size_t d = (size_t)digest_bits / 8;
	size_t moved = (size_t)(LOOP_MSG_BITS - (unsigned long long)digest_bits) / 8;
	unsigned char saved[LOOP_MSG_BITS / 8];

	memcpy(saved, msg, d);
	memmove(msg, msg + d, moved);
	memcpy(msg + moved, saved, d);
	for (size_t i = 0; i < d; i++)
		msg[i] ^= digest[i];
}

static enum kat_status gen_loop(struct hash_run *run, DRNG_ctx *drng)
{
	unsigned long n = run->api->loop_iterations ? run->api->loop_iterations
						    : KAT_HASH_LOOP_ITERATIONS;
	unsigned char *msg = run->buf[B_MSG].data;

	snprintf(run->k.where, sizeof(run->k.where), "KAT_Loop m0");
	get_random_number(drng, msg, LOOP_MSG_BITS);
	sb_addf(run->k.text, "Msg_Len = %llu\n", LOOP_MSG_BITS);
	kat_emit_hex(run->k.text, "Msg", msg, LOOP_MSG_BITS / 8);
	KAT_TRY(call_hash(run, LOOP_MSG_BITS, 1));
	for (unsigned long i = 1; i <= n; i++) {
		if (i % 16384 == 1)
			progress(run, i - 1, n);
		snprintf(run->k.where, sizeof(run->k.where), "KAT_Loop iteration %lu", i);
		loop_step(msg, run->buf[B_DIGEST].data, run->api->digest_bits);
		KAT_TRY(call_hash(run, LOOP_MSG_BITS, 0));
	}
	progress(run, n, n);
	emit_digest(run);
	sb_addc(run->k.text, '\n');
	return KAT_PASS;
}

/* A digest length the driver can print and rotate by. */
static enum kat_status check_digest_bits(struct hash_run *run)
{
	int bits = run->api->digest_bits;

	if (bits < 8 || (unsigned long long)bits > LOOP_MSG_BITS)
		return kat_fail(&run->k, KAT_CRYPTOFAIL,
				"DIGEST_BIT_LENGTH %d is outside 8..%llu, which the official driver can print and loop over",
				bits, LOOP_MSG_BITS);
	return KAT_PASS;
}

enum kat_status katgen_hash(const struct hash_api *api, enum hash_kat_file f,
			    struct strbuf *text, char **detail)
{
	struct hash_run run = { .api = api, .file = f };
	enum kat_status st;
	DRNG_ctx drng;

	run.k.text = text;
	run.k.bufs = run.buf;
	run.k.nbufs = N_BUFS;
	snprintf(run.k.where, sizeof(run.k.where), "%s",
		 katgen_hash_file_tag(f) ? katgen_hash_file_tag(f) : "hash KAT");
	if (!katgen_hash_file_tag(f)) {
		st = kat_fail(&run.k, KAT_NOKAT, "unknown hash KAT file %d", (int)f);
		kat_run_finish(&run.k, detail);
		return st;
	}
	st = check_digest_bits(&run);
	if (st != KAT_PASS) {
		kat_run_finish(&run.k, detail);
		return st;
	}
	kat_gbuf_alloc(&run.buf[B_MSG], "msg", katgen_hash_file_msg_bytes(api, f));
	kat_gbuf_alloc(&run.buf[B_DIGEST], "digest",
		       ((unsigned long long)api->digest_bits + 7) / 8);
	kat_drng_init_repeated(&drng, tags[f]);
	if (f == HASH_KAT_2_12)
		st = gen_short(&run, &drng);
	else if (f == HASH_KAT_LOOP)
		st = gen_loop(&run, &drng);
	else
		st = gen_long(&run, &drng);
	for (int i = 0; i < N_BUFS; i++)
		kat_gbuf_free(&run.buf[i]);
	kat_run_finish(&run.k, detail);
	return st;
}

enum kat_status katgen_hash_selftest(const struct hash_api *api, struct strbuf *text,
				     char **detail)
{
	struct hash_run run = { .api = api };
	enum kat_status st = KAT_PASS;

	run.k.text = text;
	run.k.bufs = run.buf;
	run.k.nbufs = N_BUFS;
	snprintf(run.k.where, sizeof(run.k.where), "self-test");
	if (api->digest_bits < 8) {
		st = kat_fail(&run.k, KAT_CRYPTOFAIL, "digest length %d bits: nothing to compare",
			      api->digest_bits);
		kat_run_finish(&run.k, detail);
		return st;
	}
	kat_gbuf_alloc(&run.buf[B_MSG], "msg", hash_selftest_max());
	kat_gbuf_alloc(&run.buf[B_DIGEST], "digest",
		       ((unsigned long long)api->digest_bits + 7) / 8);
	for (size_t i = 0; i < hash_selftest_count() && st == KAT_PASS; i++) {
		size_t len = hash_selftest_len(i);
		snprintf(run.k.where, sizeof(run.k.where), "self-test Msg_Len %llu", 8ULL * len);
		hash_message(run.buf[B_MSG].data, len);
		st = call_hash(&run, 8ULL * len, 1);
		if (st == KAT_PASS)
			hash_selftest_record(text, len, api->digest_bits, run.buf[B_DIGEST].data);
	}
	for (int i = 0; i < N_BUFS; i++)
		kat_gbuf_free(&run.buf[i]);
	kat_run_finish(&run.k, detail);
	return st;
}
