/* memprobe.c — see memprobe.h. */
#include "driver/mem/memprobe.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

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

/* ---- where to look: the written pages, or the whole stack ------------------ */

/* The kernel ABI of Linux 6.7 (include/uapi/linux/fs.h, userfaultfd.h),
 * newer than the C library's headers here. */
#ifndef PAGEMAP_SCAN
struct page_region {
	uint64_t start, end, categories;
};
struct pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};
#define PAGEMAP_SCAN _IOWR('f', 16, struct pm_scan_arg)
#define PAGE_IS_WRITTEN (1u << 1)
#define PAGE_IS_PRESENT (1u << 3)
#define PM_SCAN_WP_MATCHING (1u << 0)
#define PM_SCAN_CHECK_WPASYNC (1u << 1)
#endif
#ifndef UFFD_FEATURE_WP_ASYNC
#define UFFD_FEATURE_WP_ASYNC (1u << 15)
#endif

/* err: an errno value, or -1 when step says it all. */
static void whole_stack_from_now(struct stack_scan *s, const char *step, int err)
{
	stack_scan_close(s);
	snprintf(s->method, sizeof s->method,
		 "full scan (written-page tracking unavailable: %s%s%s)", step,
		 err > 0 ? ": " : "", err > 0 ? strerror(err) : "");
}

static struct pm_scan_arg scan_arg(const struct stack_scan *s, size_t from)
{
	struct pm_scan_arg a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.start = (uintptr_t)(s->lo + from);
	a.end = (uintptr_t)(s->lo + s->len);
	return a;
}

/* The offset of the lowest page written since the last protection, or
 * not present; len when there is none.  0, or the errno value. */
static int lowest_written(const struct stack_scan *s, size_t *off)
{
	struct page_region r;
	struct pm_scan_arg a = scan_arg(s, 0);
	a.vec = (uintptr_t)&r;
	a.vec_len = 1;
	a.max_pages = 1;
	/* written, or (inverted) not present */
	a.category_inverted = PAGE_IS_PRESENT;
	a.category_anyof_mask = PAGE_IS_WRITTEN | PAGE_IS_PRESENT;
	a.return_mask = PAGE_IS_WRITTEN | PAGE_IS_PRESENT;
	long n = ioctl(s->pagemap, PAGEMAP_SCAN, &a);
	if (n < 0)
		return errno;
	*off = n ? (size_t)(r.start - (uintptr_t)s->lo) : s->len;
	return 0;
}

/* Write-protect the written pages from offset `from` up (none below). */
static int protect_from(const struct stack_scan *s, size_t from)
{
	struct pm_scan_arg a = scan_arg(s, from);
	a.flags = PM_SCAN_WP_MATCHING | PM_SCAN_CHECK_WPASYNC;
	a.category_mask = PAGE_IS_WRITTEN;
	a.return_mask = PAGE_IS_WRITTEN;
	if (ioctl(s->pagemap, PAGEMAP_SCAN, &a) < 0)
		return errno;
	return a.walk_end == a.end ? 0 : EAGAIN;
}

static int start_tracking(struct stack_scan *s, const char *pagemap, const char **step)
{
	*step = "userfaultfd";
	s->uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
	if (s->uffd < 0)
		return errno;
	struct uffdio_api api = { .api = UFFD_API, .features = UFFD_FEATURE_WP_ASYNC };
	*step = "UFFDIO_API with asynchronous write-protect";
	if (ioctl(s->uffd, UFFDIO_API, &api))
		return errno;
	struct uffdio_register reg = {
		.range = { (uintptr_t)s->lo, s->len }, .mode = UFFDIO_REGISTER_MODE_WP,
	};
	*step = "UFFDIO_REGISTER";
	if (ioctl(s->uffd, UFFDIO_REGISTER, &reg))
		return errno;
	*step = pagemap;
	s->pagemap = open(pagemap, O_RDONLY | O_CLOEXEC);
	if (s->pagemap < 0)
		return errno;
	*step = "PAGEMAP_SCAN";
	return protect_from(s, 0);
}

/* Nothing written after the protection, then a write of the pattern
 * itself (which leaves the stack as painted) found on its page; -1 when
 * the kernel says otherwise. */
static int check_tracking(struct stack_scan *s, const char **step)
{
	size_t off = 0;
	int err = lowest_written(s, &off);
	*step = "PAGEMAP_SCAN";
	if (err)
		return err;
	*step = "an unwritten page reads as written";
	if (off != s->len)
		return -1;
	*(volatile uint64_t *)s->lo = MEMPROBE_PATTERN;
	*step = "PAGEMAP_SCAN";
	if ((err = lowest_written(s, &off)))
		return err;
	*step = "a written page reads as unwritten";
	if (off != 0)
		return -1;
	*step = "PAGEMAP_SCAN";
	return protect_from(s, 0);
}

void stack_scan_open(struct stack_scan *s, void *lo, size_t len, const char *pagemap,
		     int full_scan)
{
	memset(s, 0, sizeof *s);
	s->lo = lo;
	s->len = len;
	s->uffd = s->pagemap = -1;
	if (full_scan) {
		snprintf(s->method, sizeof s->method, "full scan (requested)");
		return;
	}
	const char *step;
	int err = start_tracking(s, pagemap ? pagemap : "/proc/self/pagemap", &step);
	if (!err)
		err = check_tracking(s, &step);
	if (err) {
		whole_stack_from_now(s, step, err);
		return;
	}
	snprintf(s->method, sizeof s->method,
		 "written pages (userfaultfd asynchronous write-protect, PAGEMAP_SCAN)");
}

size_t stack_scan_used(struct stack_scan *s)
{
	s->low = 0;
	if (s->pagemap >= 0) {
		int err = lowest_written(s, &s->low);
		if (!err)
			return s->low == s->len ? 0 : stack_used(s->lo + s->low, s->len - s->low);
		whole_stack_from_now(s, "PAGEMAP_SCAN", err);
	}
	return stack_used(s->lo, s->len);
}

void stack_scan_arm(struct stack_scan *s)
{
	if (s->pagemap < 0 || s->low >= s->len)
		return;
	int err = protect_from(s, s->low);
	if (err)
		whole_stack_from_now(s, "PAGEMAP_SCAN write-protect", err);
}

void stack_scan_close(struct stack_scan *s)
{
	if (s->pagemap >= 0)
		close(s->pagemap);
	if (s->uffd >= 0)
		close(s->uffd);
	s->pagemap = s->uffd = -1;
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
