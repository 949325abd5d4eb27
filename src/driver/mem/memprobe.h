/*
 * memprobe.h — the bookkeeping of the memory program (docs/method.md §8, R6),
 * kept apart from the allocation wrappers so it can be unit-tested:
 *
 *  - stack painting: a caller-allocated stack is filled with a pattern;
 *    after a call the deepest overwritten word (stacks grow down) gives
 *    how many bytes below the top were used;
 *  - where that word is looked for (struct stack_scan): from the lowest
 *    page the call wrote, as the kernel's write-protect tracking reports
 *    it, or else in the whole stack; both give the same figure;
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

/* Finding the deepest overwritten word of a painted stack after each call.
 * A word below the lowest page written since the stack was last all
 * pattern still holds the pattern, so stack_used from that page up gives
 * the whole stack's answer while reading only what the call touched.  The
 * kernel says which pages were written: the stack is registered with a
 * userfaultfd in asynchronous write-protect mode (Linux 6.7), whose
 * PAGEMAP_SCAN ioctl on /proc/self/pagemap finds the pages written since
 * they were last protected and protects them again.  (The soft-dirty bits
 * would do the same with clear_refs "4", but need CONFIG_MEM_SOFT_DIRTY,
 * which kernels such as this project's VM leave out.)  A page the kernel
 * does not report present counts as written.  Where the tracking is not
 * available (checked once, on a page of the stack) or stops working,
 * every call scans the whole stack; method says which was used. */
struct stack_scan {
	unsigned char *lo;
	size_t len;
	int uffd, pagemap;   /* both open, or -1: whole-stack scans */
	size_t low;          /* offset of the lowest page the last call wrote */
	char method[200];
};

/* [lo, lo + len): a painted stack, lo and len multiples of the page size.
 * pagemap names the file for PAGEMAP_SCAN (NULL: /proc/self/pagemap; tests
 * pass another to make the tracking unavailable); full_scan: whole-stack
 * scans even where the tracking works.  Leaves the stack painted. */
void stack_scan_open(struct stack_scan *s, void *lo, size_t len, const char *pagemap,
		     int full_scan);
/* After a call: stack_used(lo, len), read from the lowest written page. */
size_t stack_scan_used(struct stack_scan *s);
/* After stack_repaint: the writes that count start now. */
void stack_scan_arm(struct stack_scan *s);
void stack_scan_close(struct stack_scan *s);

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
