/*
 * memprobe.h — the bookkeeping of the memory program (docs/method.md §8, R6),
 * kept apart from the allocation wrappers so it can be unit-tested:
 *
 *  - stack painting: a caller-allocated stack is filled with a pattern;
 *    after a call the deepest overwritten word (stacks grow down) gives
 *    how many bytes below the top were used;
 *  - heap counting: a fixed open-addressing table of the blocks allocated
 *    while counting is on (pointer → requested size), so frees of those
 *    blocks lower the live total; the peak of the live total and the
 *    number of allocations are the per-call figures.
 */
#ifndef NGCC_MEMPROBE_H
#define NGCC_MEMPROBE_H

#include <stddef.h>
#include <stdint.h>

#define MEMPROBE_PATTERN 0xa55ac33c5aa53cc3ull

/* Fill [lo, lo + len) with the pattern (len a multiple of 8). */
void stack_paint(void *lo, size_t len);
/* Bytes from the deepest word that no longer holds the pattern up to the
 * top (lo + len); 0 when none changed. */
size_t stack_used(const void *lo, size_t len);
/* Repaint the top `used` bytes after a run. */
void stack_repaint(void *lo, size_t len, size_t used);

struct heap_slot {
	uintptr_t ptr;   /* 0: empty */
	size_t size;
};

struct heap_count {
	struct heap_slot *slots;
	size_t cap;                  /* a power of two */
	size_t n;
	unsigned long long live, peak, allocs;
	int overflow;                /* a block could not be tracked */
};

/* slots: cap zeroed entries (cap a power of two), owned by the caller. */
void heap_count_init(struct heap_count *h, struct heap_slot *slots, size_t cap);
/* Forget every block and zero the figures (before each call). */
void heap_count_reset(struct heap_count *h);
/* A new block of size bytes at p. */
void heap_note_alloc(struct heap_count *h, const void *p, size_t size);
/* p freed: lowers the live total if p was counted. */
void heap_note_free(struct heap_count *h, const void *p);

#endif
