/* shard.c — see shard.h: the greedy, deterministic shard assignment. */
#include "method/shard.h"
#include "util/numparse.h"
#include "util/util.h"

#include <limits.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int shard_parse(const char *arg, struct shard_spec *out, char **err)
{
	const char *slash = strchr(arg, '/');
	long long k, n;
	char *ks = slash ? xstrndup(arg, (size_t)(slash - arg)) : NULL;
	int bad = !slash || parse_whole(ks, LLONG_MIN, LLONG_MAX, &k) ||
		  parse_whole(slash + 1, LLONG_MIN, LLONG_MAX, &n);
	free(ks);
	if (bad) {
		*err = xasprintf("--shard takes k/n (shard k of n, e.g. 1/4), not '%s'", arg);
		return -1;
	}
	if (n < 1 || n > SHARD_MAX || k < 1 || k > n) {
		*err = xasprintf("--shard %s: need 1 <= k <= n <= %d", arg, SHARD_MAX);
		return -1;
	}
	out->k = (int)k;
	out->n = (int)n;
	return 0;
}

double shard_item_cost(const struct shard_item *it)
{
	return it->cost_s < 0 ? SHARD_UNKNOWN_COST_S : it->cost_s;
}

/* Longest first; equal costs by key, so the order never depends on input
 * order. */
static int by_cost_then_key(const void *a, const void *b)
{
	const struct shard_item *x = a, *y = b;
	double cx = shard_item_cost(x), cy = shard_item_cost(y);
	if (cx != cy)
		return cx > cy ? -1 : 1;
	return strcmp(x->key, y->key);
}

static int by_key(const void *a, const void *b)
{
	const struct shard_item *const *x = a, *const *y = b;
	return strcmp((*x)->key, (*y)->key);
}

static int least_loaded(const double *load_s, int n)
{
	int best = 1;
	for (int s = 2; s <= n; s++)
		if (load_s[s] < load_s[best])
			best = s;
	return best;
}

char *shard_canonical_text(const struct shard_assignment *a)
{
	const struct shard_item **sorted = xcalloc(a->n_items ? a->n_items : 1, sizeof *sorted);
	for (size_t i = 0; i < a->n_items; i++)
		sorted[i] = &a->items[i];
	qsort(sorted, a->n_items, sizeof *sorted, by_key);
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "ngcc-perf shard assignment 1\nn %d\n", a->n);
	for (size_t i = 0; i < a->n_items; i++) {
		if (sorted[i]->shard == SHARD_DEFERRED)
			sb_addf(&sb, "deferred %s\n", sorted[i]->key);
		else
			sb_addf(&sb, "%d %s\n", sorted[i]->shard, sorted[i]->key);
	}
	free(sorted);
	return sb_detach(&sb);
}

static int seen_before(const char *const *keys, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(keys[j], keys[i]))
			return 1;
	return 0;
}

void shard_assign(const char *const *keys, const double *costs, size_t n_keys, int n,
		  const regex_t *defer, struct shard_assignment *out)
{
	memset(out, 0, sizeof *out);
	out->n = n < 1 ? 1 : n;
	out->items = xcalloc(n_keys ? n_keys : 1, sizeof *out->items);
	out->load_s = xcalloc((size_t)out->n + 1, sizeof *out->load_s);
	for (size_t i = 0; i < n_keys; i++) {
		if (seen_before(keys, i))
			continue;
		struct shard_item *it = &out->items[out->n_items++];
		it->key = xstrdup(keys[i]);
		it->cost_s = costs ? costs[i] : -1;
	}
	qsort(out->items, out->n_items, sizeof *out->items, by_cost_then_key);
	for (size_t i = 0; i < out->n_items; i++) {
		struct shard_item *it = &out->items[i];
		if (defer && !regexec(defer, it->key, 0, NULL, 0))
			it->shard = SHARD_DEFERRED;
		else
			it->shard = least_loaded(out->load_s, out->n);
		out->load_s[it->shard] += shard_item_cost(it);
	}
	char *text = shard_canonical_text(out);
	sha256_hex(text, strlen(text), out->digest);
	free(text);
}

void shard_assignment_free(struct shard_assignment *a)
{
	for (size_t i = 0; i < a->n_items; i++)
		free(a->items[i].key);
	free(a->items);
	free(a->load_s);
	memset(a, 0, sizeof *a);
}

/* 1 + (first 8 bytes of SHA-256(key), big-endian) mod n. */
static int hashed_shard(const char *key, int n)
{
	char hex[65];
	sha256_hex(key, strlen(key), hex);
	uint64_t v = 0;
	for (int i = 0; i < 16; i++) {
		char c = hex[i];
		v = v << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
	}
	return 1 + (int)(v % (uint64_t)n);
}

int shard_of(const struct shard_assignment *a, const char *key)
{
	for (size_t i = 0; i < a->n_items; i++)
		if (!strcmp(a->items[i].key, key))
			return a->items[i].shard;
	return hashed_shard(key, a->n);
}
