/* memprobe.c — see memprobe.h. */
#include "driver/mem/memprobe.h"

#include <string.h>

void stack_paint(void *lo, size_t len)
{
	uint64_t *w = lo;
	for (size_t i = 0; i < len / 8; i++)
		w[i] = MEMPROBE_PATTERN;
}

/* A block of pattern to compare the painted stack with: memcmp (vectorised
 * by the C library, one range check under ASan) skips the untouched blocks
 * of a 64 MiB stack several times faster than a word loop, and the first
 * changed word is then found in its block as before. */
#define PATTERN_BLOCK 4096
static uint64_t pattern_block[PATTERN_BLOCK / 8];

size_t stack_used(const void *lo, size_t len)
{
	const uint64_t *w = lo;
	size_t n = len / 8, i = 0;
	if (pattern_block[0] != MEMPROBE_PATTERN)
		stack_paint(pattern_block, sizeof pattern_block);
	while ((i + PATTERN_BLOCK / 8) <= n && !memcmp(w + i, pattern_block, PATTERN_BLOCK))
		i += PATTERN_BLOCK / 8;
	for (; i < n; i++)
		if (w[i] != MEMPROBE_PATTERN)
			return (n - i) * 8;
	return 0;
}

void stack_repaint(void *lo, size_t len, size_t used)
{
	if (used > len)
		used = len;
	stack_paint((char *)lo + (len - used), used);
}

/* ---- heap counting ---------------------------------------------------------- */

static size_t slot_of(const struct heap_count *h, uintptr_t p)
{
	/* Blocks are 16-byte aligned: drop the low bits, then mix. */
	uint64_t x = (uint64_t)p >> 4;
	x *= 0x9e3779b97f4a7c15ull;
	return (size_t)(x >> 20) & (h->cap - 1);
}

void heap_count_init(struct heap_count *h, struct heap_slot *slots, size_t cap)
{
	memset(h, 0, sizeof *h);
	h->slots = slots;
	h->cap = cap;
}

void heap_count_reset(struct heap_count *h)
{
	/* Clear only what is set: untouched slots stay untouched pages, out
	 * of the resident set. */
	for (size_t i = 0; i < h->cap && h->n; i++)
		if (h->slots[i].ptr) {
			h->slots[i].ptr = 0;
			h->n--;
		}
	h->n = 0;
	h->live = h->peak = h->allocs = 0;
	h->overflow = 0;
}

void heap_note_alloc(struct heap_count *h, const void *p, size_t size)
{
	h->allocs++;
	h->live += size;
	if (h->live > h->peak)
		h->peak = h->live;
	/* Keep a quarter free so probes stay short; beyond that the block's
	 * free cannot be matched and the figure is marked. */
	if (!p || (h->n + 1) * 4 > h->cap * 3) {
		h->overflow |= p != NULL;
		return;
	}
	size_t i = slot_of(h, (uintptr_t)p);
	while (h->slots[i].ptr && h->slots[i].ptr != (uintptr_t)p)
		i = (i + 1) & (h->cap - 1);
	if (!h->slots[i].ptr)
		h->n++;
	h->slots[i].ptr = (uintptr_t)p;
	h->slots[i].size = size;
}

/* Linear-probing deletion by shifting later entries back, so lookups never
 * need tombstones. */
static void remove_at(struct heap_count *h, size_t i)
{
	size_t mask = h->cap - 1, j = i;
	for (;;) {
		h->slots[i].ptr = 0;
		for (;;) {
			j = (j + 1) & mask;
			if (!h->slots[j].ptr)
				return;
			size_t k = slot_of(h, h->slots[j].ptr);
			int stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
			if (!stays)
				break;
		}
		h->slots[i] = h->slots[j];
		i = j;
	}
}

void heap_note_free(struct heap_count *h, const void *p)
{
	if (!p || !h->n)
		return;
	size_t i = slot_of(h, (uintptr_t)p);
	while (h->slots[i].ptr) {
		if (h->slots[i].ptr == (uintptr_t)p) {
			h->live -= h->slots[i].size;
			remove_at(h, i);
			h->n--;
			return;
		}
		i = (i + 1) & (h->cap - 1);
	}
}
