/*
 * gbuf.h — the guarded buffers of the check program (bin/ngcc-perf-check):
 * every buffer handed to a candidate is its own anonymous mapping, laid
 * out as
 *
 *     [front guard: 64 + offset bytes][data: cap bytes][back guard: >= 64]
 *
 * with the guard bytes set to 0xA5.  The offset (0..15) makes the data
 * start unaligned on purpose.  Under a memory checker the guards are also
 * made inaccessible (watch.h), so a read into them is reported, not only
 * a write; an input can be made read-only for the length of a call, so a
 * candidate writing to its input faults at the writing instruction.
 */
#ifndef NGCC_CHECK_GBUF_H
#define NGCC_CHECK_GBUF_H

#include <stddef.h>

#define GBUF_GUARD 64
#define GBUF_FILL 0xA5
#define GBUF_MAX_OFFSET 15

struct gbuf {
	const char *name;          /* "pk", "ct", ... (static) */
	unsigned char *map;
	size_t map_len;
	unsigned char *data;
	unsigned long long cap;    /* API capacity */
	unsigned long long len;    /* the length last returned or given */
	size_t offset;
};

/* Map a buffer of cap bytes with the data offset bytes past the guard.
 * 0, or -1 (errno set). */
int gbuf_alloc(struct gbuf *b, const char *name, unsigned long long cap, size_t offset);
void gbuf_free(struct gbuf *b);

/* Zero the data and refill the guards (before a call writes into it). */
void gbuf_clear(struct gbuf *b);

/* The first guard byte that is no longer 0xA5, as a distance from the
 * data: -k for k bytes before it, cap + k for k bytes into the back guard.
 * Returns 0 when both guards are intact, 1 with *where set otherwise. */
int gbuf_guard_damaged(const struct gbuf *b, long long *where);

/* Refill the guards only (after a write into them was recorded, so the
 * next call is not blamed for it). */
void gbuf_guard_restore(struct gbuf *b);

/* Read-only (1) or writable (0) for the whole mapping.  0 or -1. */
int gbuf_protect(struct gbuf *b, int readonly);

#endif
