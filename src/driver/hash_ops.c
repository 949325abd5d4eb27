/* hash_ops.c — see hash_ops.h (docs/method.md §5.2, R3). */
#include "driver/hash_ops.h"

#include "method/hashmsg.h"

#include <stdlib.h>
#include <string.h>

#define HASH_MAX_MESSAGE (1UL << 24) /* bytes: far beyond the eight lengths */
#define GUARD_BYTE 0xA5

struct hash_state {
	ngcc_hash_fn hash;
	int bits;                   /* DIGEST_BIT_LENGTH */
	size_t len;                 /* message bytes (the op code) */
	size_t digest_bytes;        /* ceil(bits / 8): what a digest may occupy */
	unsigned char *msg;
	unsigned char *digest;      /* digest_bytes, then OPS_BUF_SLACK guard bytes */
	unsigned char *ref;         /* the first call's digest */
	unsigned input_k;           /* R2: the pool input hashed (0: the fixed message) */
};

static struct hash_state *hs(const struct op_ctx *c)
{
	return c->st;
}

/* "hash_<L>" with 1 <= L <= HASH_MAX_MESSAGE: the op code is L. */
static int hash_parse_op(const struct ngcc_meta *m, const char *key)
{
	(void)m;
	if (strncmp(key, "hash_", 5) || key[5] < '1' || key[5] > '9')
		return -1;
	char *end = NULL;
	unsigned long L = strtoul(key + 5, &end, 10);
	return *end || L > HASH_MAX_MESSAGE ? -1 : (int)L;
}

static void hash_release(struct op_ctx *c)
{
	struct hash_state *h = hs(c);
	free(h->msg);
	free(h->digest);
	free(h->ref);
	free(h);
}

static int hash_alloc(struct op_ctx *c)
{
	struct hash_state *h = ops_new_state(c, sizeof *h, "hash");
	if (!h)
		return -1;
	h->hash = c->lib.hash;
	h->bits = c->lib.meta->digest_bits;
	h->len = (size_t)c->op;
	if (h->bits < 1) {
		ops_set_failure("the library reports no digest length (ngcc_meta digest_bits = %d); "
				"set digest_bits in candidate.conf and rebuild", h->bits);
		return -1;
	}
	h->digest_bytes = ((size_t)h->bits + 7) / 8;
	h->msg = ops_buffer("message", h->len, 0);
	h->digest = ops_buffer("digest", h->digest_bytes, 0);
	h->ref = ops_buffer("reference digest", h->digest_bytes, 0);
	if (!h->msg || !h->digest || !h->ref)
		return -1;
	memset(h->digest + h->digest_bytes, GUARD_BYTE, OPS_BUF_SLACK);
	hash_message(h->msg, h->len);
	return 0;
}

static int guard_intact(const struct hash_state *h)
{
	for (size_t i = 0; i < OPS_BUF_SLACK; i++)
		if (h->digest[h->digest_bytes + i] != GUARD_BYTE)
			return 0;
	return 1;
}

static int raw_call(struct hash_state *h)
{
	return h->hash(h->bits, h->msg, 8ULL * h->len, h->digest);
}

static int check_call(struct hash_state *h, int rc)
{
	if (rc) {
		ops_set_failure("CryptHash(%d, msg, %llu bits) returned %d", h->bits,
				8ULL * h->len, rc);
		return -1;
	}
	if (!guard_intact(h)) {
		ops_set_failure("CryptHash(%d, ...) wrote past the %zu-byte digest (guard zone "
				"overwritten)", h->bits, h->digest_bytes);
		return -1;
	}
	return 0;
}

static int hash_raw_call(struct op_ctx *c)
{
	return raw_call(hs(c));
}

static int hash_check_call(struct op_ctx *c, int rc)
{
	return check_call(hs(c), rc);
}

/* The first digest is the reference the last call must give again. */
static int hash_setup(struct op_ctx *c)
{
	struct hash_state *h = hs(c);
	if (check_call(h, raw_call(h)))
		return -1;
	memcpy(h->ref, h->digest, h->digest_bytes);
	return 0;
}

static long hash_run_loop(struct op_ctx *c, long iters, const struct op_bracket *step)
{
	struct hash_state *h = hs(c);
	ngcc_hash_fn fn = h->hash;
	const int bits = h->bits;
	const unsigned long long msg_bits = 8ULL * h->len;
	(void)step;
	for (long i = 0; i < iters; i++) {
		int rc = fn(bits, h->msg, msg_bits, h->digest);
		if (__builtin_expect(rc != 0, 0)) {
			ops_set_failure("CryptHash call %ld returned %d", i, rc);
			return i;
		}
	}
	return iters;
}

static int hash_validate(struct op_ctx *c)
{
	struct hash_state *h = hs(c);
	unsigned char *expect = malloc(h->len + 1);
	int changed = !expect;
	if (expect) {
		hash_message_indexed(expect, h->len, h->input_k);
		changed = memcmp(expect, h->msg, h->len) != 0;
		free(expect);
	}
	if (changed) {
		ops_set_failure("the message was changed by CryptHash (its input is const)");
		return -1;
	}
	if (!guard_intact(h)) {
		ops_set_failure("CryptHash wrote past the %zu-byte digest (guard zone overwritten)",
				h->digest_bytes);
		return -1;
	}
	if (memcmp(h->digest, h->ref, h->digest_bytes)) {
		ops_set_failure("the last digest differs from the first of the same message "
				"(CryptHash is not deterministic)");
		return -1;
	}
	return 0;
}

static void hash_meta_json(const struct op_ctx *c, json_t *j)
{
	const struct ngcc_meta *m = c->lib.meta;
	json_object_set_new(j, "input_bytes", json_integer((json_int_t)c->op));
	json_object_set_new(j, "digest_bits", json_integer(m->digest_bits));
	json_object_set_new(j, "digest_bytes", json_integer(m->digest_bits / 8));
}

/* R2: pool input k hashes hash_message_indexed(k), a message of the same
 * length; setup then takes its reference digest. */
static void hash_pool_input(struct op_ctx *c, unsigned k)
{
	struct hash_state *h = hs(c);
	h->input_k = k;
	hash_message_indexed(h->msg, h->len, k);
}

const struct op_type hash_op_type = {
	.abi = NGCC_TYPE_HASH,
	.name = "hash",
	.op_usage = "hash_<L>, L message bytes",
	.parse_op = hash_parse_op,
	.alloc = hash_alloc,
	.release = hash_release,
	.setup = hash_setup,
	.prepare = NULL,
	.raw_call = hash_raw_call,
	.check_call = hash_check_call,
	.run_loop = hash_run_loop,
	.validate = hash_validate,
	.meta_json = hash_meta_json,
	.observed_json = NULL,
	.memory_extra = NULL,
	.pool_input = hash_pool_input,
};
