/*
 * shard.h — which shard measures which instance (docs/method.md §13).
 *
 * Instances (keys "<cand>/<label>") are placed greedily, longest first, on
 * the least-loaded of n shards; their cost is a prior estimate of the wall
 * time they take (unknown: SHARD_UNKNOWN_COST_S).  Ties in cost go by key,
 * ties in load to the lowest shard number, so every process given the same
 * instances, costs and n derives the same assignment; its digest goes into
 * campaign.json (shards.assignment_digest) and merge compares it.
 * Instances matching the --defer expression are kept out of the shards
 * (shard 0, "deferred") for a worker of their own (--deferred-only).  All
 * operations of an instance share its shard.  A key the assignment does not
 * hold (an instance that appeared later) goes to shard
 * 1 + (SHA-256(key) mod n), which again every process agrees on.
 */
#ifndef NGCC_SHARD_H
#define NGCC_SHARD_H

#include <regex.h>
#include <stddef.h>

#define SHARD_UNKNOWN_COST_S 60.0
#define SHARD_MAX 4096
#define SHARD_DEFERRED 0

/* `--shard k/n`: shard k (1-based) of n. */
struct shard_spec {
	int k, n;
};

/* Parse "k/n" with 1 <= k <= n <= SHARD_MAX; 0, or -1 with *err
 * (malloc'd) saying what is wrong. */
int shard_parse(const char *arg, struct shard_spec *out, char **err);

struct shard_item {
	char *key;          /* "<cand>/<label>" */
	double cost_s;      /* prior cost; < 0: unknown */
	int shard;          /* 1..n, or SHARD_DEFERRED */
};

struct shard_assignment {
	int n;
	struct shard_item *items;  /* in placement order: cost descending, then key */
	size_t n_items;
	double *load_s;            /* [0] deferred, [1..n] per shard */
	char digest[65];           /* SHA-256 of the canonical text, hex */
};

/* Place keys[0..n_keys) (costs[i] < 0: unknown) on n shards; keys matching
 * defer (may be NULL) are deferred.  Duplicate keys count once. */
void shard_assign(const char *const *keys, const double *costs, size_t n_keys, int n,
		  const regex_t *defer, struct shard_assignment *out);
void shard_assignment_free(struct shard_assignment *a);

/* The shard of key: its place in the assignment, or 1 + (SHA-256(key) mod
 * n) for a key the assignment does not hold (deferred keys give 0). */
int shard_of(const struct shard_assignment *a, const char *key);

/* The cost used for an item (unknown costs count SHARD_UNKNOWN_COST_S). */
double shard_item_cost(const struct shard_item *it);

/* The canonical text the digest is taken of: "ngcc-perf shard assignment
 * 1\nn <n>\n" then "<shard|deferred> <key>\n" per key in byte order.
 * Caller frees. */
char *shard_canonical_text(const struct shard_assignment *a);

#endif
