/*
 * test_memprobe.c — the memory pass's bookkeeping (docs/method.md §8, R6): stack
 * painting and the deepest overwritten word, found from the written pages
 * the same as by a whole-stack scan (writes deep and sparse, writes of the
 * pattern itself, calls on a thread), the fallback to whole-stack scans
 * and its record, the heap table (live bytes,
 * peak, allocation count, frees of uncounted blocks, collisions and
 * deletion, overflow), and on the orchestrator side the call count, the
 * derived statistics and their recomputation, and --no-memory-pass.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "campaign/memory.h"
#include "driver/mem/memprobe.h"

#define WORDS 4096

static void test_stack_untouched(void **state)
{
	(void)state;
	uint64_t *s = calloc(WORDS, 8);
	stack_paint(s, WORDS * 8);
	assert_int_equal(stack_used(s, WORDS * 8), 0);
	free(s);
}

static void test_stack_deepest_word(void **state)
{
	(void)state;
	uint64_t *s = calloc(WORDS, 8);
	stack_paint(s, WORDS * 8);
	/* A write 1000 words below the top, and one not as deep. */
	s[WORDS - 1000] = 0;
	s[WORDS - 10] = 1;
	assert_int_equal(stack_used(s, WORDS * 8), 1000 * 8);
	/* A single changed byte counts for its word. */
	((unsigned char *)&s[WORDS - 2000])[3] ^= 0xff;
	assert_int_equal(stack_used(s, WORDS * 8), 2000 * 8);
	stack_repaint(s, WORDS * 8, 2000 * 8);
	assert_int_equal(stack_used(s, WORDS * 8), 0);
	/* The whole stack. */
	s[0] = 7;
	assert_int_equal(stack_used(s, WORDS * 8), WORDS * 8);
	free(s);
}

/* stack_used compares 4 KiB blocks at a time: a change on either side of a
 * block boundary, and in a tail shorter than a block, is found to the word. */
static void test_stack_block_edges(void **state)
{
	(void)state;
	size_t words = WORDS + 100; /* 8 blocks and a 100-word tail */
	uint64_t *s = calloc(words, 8);
	stack_paint(s, words * 8);
	assert_int_equal(stack_used(s, words * 8), 0);
	s[511] = 0; /* the last word of the first block */
	assert_int_equal(stack_used(s, words * 8), (words - 511) * 8);
	stack_repaint(s, words * 8, (words - 511) * 8);
	s[512] = 0; /* the first word of the second */
	assert_int_equal(stack_used(s, words * 8), (words - 512) * 8);
	stack_repaint(s, words * 8, (words - 512) * 8);
	s[WORDS + 3] = 0; /* in the tail */
	assert_int_equal(stack_used(s, words * 8), (words - WORDS - 3) * 8);
	free(s);
}

/* ---- the written pages against the whole-stack scan ------------------------ */

#define PAINTED_BYTES (8u << 20)
#define MIB (1u << 20)

struct painted {
	unsigned char *lo;
	size_t len, page;
	struct stack_scan scan;
};

static void painted_open(struct painted *p, const char *pagemap, int full_scan)
{
	p->page = (size_t)sysconf(_SC_PAGESIZE);
	p->len = PAINTED_BYTES;
	p->lo = mmap(NULL, p->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p->lo != MAP_FAILED);
	stack_paint(p->lo, p->len);
	stack_scan_open(&p->scan, p->lo, p->len, pagemap, full_scan);
}

static void painted_close(struct painted *p)
{
	stack_scan_close(&p->scan);
	munmap(p->lo, p->len);
}

static int tracking(const struct painted *p)
{
	return !strncmp(p->scan.method, "written pages", 13);
}

/* The memory program's steps after a call: the figure (which must be the
 * whole-stack scan's), the repaint, the re-arm. */
static size_t after_call(struct painted *p)
{
	size_t whole = stack_used(p->lo, p->len);
	size_t used = stack_scan_used(&p->scan);
	assert_int_equal(used, whole);
	stack_repaint(p->lo, p->len, used);
	stack_scan_arm(&p->scan);
	assert_int_equal(stack_used(p->lo, p->len), 0);
	return used;
}

/* A write of v to the word `below` bytes under the top. */
static void put(struct painted *p, size_t below, uint64_t v)
{
	*(volatile uint64_t *)(p->lo + p->len - below) = v;
}

static void skip_untracked(struct painted *p)
{
	if (tracking(p))
		return;
	printf("SKIP: the kernel does not say which pages were written: %s\n", p->scan.method);
	painted_close(p);
	skip();
}

static void test_scan_written_pages(void **state)
{
	(void)state;
	struct painted p;
	painted_open(&p, NULL, 0);
	skip_untracked(&p);
	assert_int_equal(after_call(&p), 0);
	put(&p, 8, 0);
	assert_int_equal(after_call(&p), 8);
	/* Deep and sparse: 5 MiB down, the pages between untouched. */
	put(&p, 5 * MIB + 40, 0);
	put(&p, 64, 1);
	assert_int_equal(after_call(&p), 5 * MIB + 40);
	/* The pattern itself written 6 MiB down: that page is written, yet
	 * the figure is the deepest word that changed. */
	put(&p, 6 * MIB, MEMPROBE_PATTERN);
	put(&p, 3008, 7);
	assert_int_equal(after_call(&p), 3008);
	assert_true(p.scan.low <= p.len - 6 * MIB);
	/* One byte of a word, and the whole stack. */
	((unsigned char *)(p.lo + p.len - 100000))[5] ^= 1;
	assert_int_equal(after_call(&p), 100000);
	p.lo[0] ^= 0xff;
	assert_int_equal(after_call(&p), p.len);
	/* A shallow call after deep ones: the deep pages were protected
	 * again, so only the shallow one is read. */
	put(&p, 16, 0);
	assert_int_equal(after_call(&p), 16);
	assert_int_equal(p.scan.low, p.len - p.page);
	assert_true(tracking(&p));
	painted_close(&p);
}

/* Calls on a thread whose stack is the painted area, as in the memory
 * program; noinline keeps each frame where the test expects it. */
__attribute__((noinline)) static void *uses_64k(void *arg)
{
	volatile unsigned char buf[64 << 10];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)i;
	return arg;
}

__attribute__((noinline)) static void *deep_sparse(void *arg)
{
	volatile unsigned char buf[3 * MIB];
	buf[0] = 1; /* the deepest byte only */
	return buf[0] ? arg : NULL;
}

__attribute__((noinline)) static void *deep_pattern(void *arg)
{
	volatile uint64_t buf[2 * MIB / 8];
	buf[0] = MEMPROBE_PATTERN;
	buf[2 * MIB / 8 - 1] = 2;
	return buf[0] ? arg : NULL;
}

static size_t call_on(struct painted *p, void *(*fn)(void *))
{
	pthread_attr_t attr;
	pthread_t t;
	assert_int_equal(pthread_attr_init(&attr), 0);
	assert_int_equal(pthread_attr_setstack(&attr, p->lo, p->len), 0);
	assert_int_equal(pthread_create(&t, &attr, fn, NULL), 0);
	pthread_attr_destroy(&attr);
	pthread_join(t, NULL);
	return after_call(p);
}

static void test_scan_calls_on_thread(void **state)
{
	(void)state;
	struct painted p;
	painted_open(&p, NULL, 0);
	skip_untracked(&p);
	assert_true(call_on(&p, uses_64k) >= 64 << 10);
	assert_true(call_on(&p, deep_sparse) >= 3 * MIB);
	/* (Under ASan the frame's own bookkeeping words sit below the array,
	 * so the figure is compared with the whole-stack scan only.) */
	assert_true(call_on(&p, deep_pattern) >= 8);
	assert_true(p.scan.low <= p.len - 2 * MIB);
	assert_true(call_on(&p, uses_64k) >= 64 << 10);
	assert_true(tracking(&p));
	painted_close(&p);
}

/* Without the tracking every call scans the whole stack, the figures are
 * the same, and the method says why. */
static void test_scan_fallback(void **state)
{
	(void)state;
	static const char *const why[][2] = {
		{ "/dev/null", "full scan (written-page tracking unavailable: PAGEMAP_SCAN: " },
		{ "/nonexistent/pagemap", "full scan (written-page tracking unavailable: "
					  "/nonexistent/pagemap: No such file" },
	};
	for (size_t i = 0; i < sizeof why / sizeof why[0]; i++) {
		struct painted p;
		painted_open(&p, why[i][0], 0);
		assert_int_equal(strncmp(p.scan.method, why[i][1], strlen(why[i][1])), 0);
		put(&p, 5 * MIB + 40, 0);
		assert_int_equal(after_call(&p), 5 * MIB + 40);
		put(&p, 6 * MIB, MEMPROBE_PATTERN);
		put(&p, 3008, 7);
		assert_int_equal(after_call(&p), 3008);
		painted_close(&p);
	}
	struct painted p;
	painted_open(&p, NULL, 1);
	assert_string_equal(p.scan.method, "full scan (requested)");
	put(&p, 64, 1);
	assert_int_equal(after_call(&p), 64);
	painted_close(&p);
}

/* ---- heap counting ------------------------------------------------------------ */

static struct heap_slot slots[64];

static struct heap_count fresh(void)
{
	struct heap_count h;
	memset(slots, 0, sizeof slots);
	heap_count_init(&h, slots, 64);
	return h;
}

static void test_heap_peak_and_count(void **state)
{
	(void)state;
	struct heap_count h = fresh();
	char a, b, c;
	heap_note_alloc(&h, &a, 100);
	heap_note_alloc(&h, &b, 50);
	heap_note_free(&h, &a);
	heap_note_alloc(&h, &c, 20);
	assert_int_equal(h.live, 70);
	assert_int_equal(h.peak, 150);
	assert_int_equal(h.allocs, 3);
	/* A block from before counting started is not subtracted. */
	char old;
	heap_note_free(&h, &old);
	assert_int_equal(h.live, 70);
	heap_note_free(&h, &b);
	heap_note_free(&h, &c);
	assert_int_equal(h.live, 0);
	assert_int_equal(h.n, 0);
	heap_count_reset(&h);
	assert_int_equal(h.peak, 0);
	assert_int_equal(h.allocs, 0);
	assert_false(h.overflow);
}

/* Many blocks in a small table: collisions and deletion by shifting must
 * keep every block findable, whatever the order of frees. */
static void test_heap_collisions(void **state)
{
	(void)state;
	struct heap_count h = fresh();
	static char blocks[40][16];
	unsigned long long want = 0;
	for (int i = 0; i < 40; i++) {
		heap_note_alloc(&h, blocks[i], (size_t)i + 1);
		want += (unsigned long long)i + 1;
	}
	assert_int_equal(h.live, want);
	for (int i = 0; i < 40; i += 2) {
		heap_note_free(&h, blocks[i]);
		want -= (unsigned long long)i + 1;
	}
	assert_int_equal(h.live, want);
	for (int i = 39; i > 0; i -= 2) {
		heap_note_free(&h, blocks[i]);
		want -= (unsigned long long)i + 1;
	}
	assert_int_equal(h.live, 0);
	assert_int_equal(h.n, 0);
	assert_int_equal(h.peak, 40 * 41 / 2);
	assert_false(h.overflow);
}

static void test_heap_overflow_marked(void **state)
{
	(void)state;
	struct heap_count h = fresh();
	static char blocks[60][16];
	for (int i = 0; i < 60; i++)
		heap_note_alloc(&h, blocks[i], 1);
	assert_true(h.overflow);
	assert_int_equal(h.allocs, 60);
	assert_int_equal(h.peak, 60);
}

static void test_memory_calls(void **state)
{
	(void)state;
	assert_int_equal(memory_calls(0), 20);
	assert_int_equal(memory_calls(1e-6), 20);
	assert_int_equal(memory_calls(0.1), 10);
	assert_int_equal(memory_calls(5), 1);
	assert_true(memory_timeout_s(20, 0.01, 0.5) > 120);
}

static json_t *record_with(const char *per_call)
{
	json_t *rec = json_object();
	json_object_set_new(rec, "per_call", json_loads(per_call, 0, NULL));
	return rec;
}

static void test_derive_and_recompute(void **state)
{
	(void)state;
	json_t *rec = record_with("{\"stack_peak_bytes\": [100, 300, 200],"
				  " \"heap_peak_bytes\": [5, 5, 7], \"allocations\": [1, 2, 2]}");
	char *why = NULL;
	memory_derive(rec);
	assert_int_equal(json_integer_value(json_object_get(rec, "calls")), 3);
	assert_int_equal(json_integer_value(json_object_get(rec, "stack_peak_bytes")), 300);
	assert_int_equal(json_integer_value(json_object_get(rec, "heap_peak_bytes")), 7);
	assert_true(json_real_value(json_object_get(rec, "allocations_per_call")) > 1.66);
	assert_int_equal(memory_recompute_check(rec, &why), 0);
	/* A tampered figure is found. */
	json_object_set_new(rec, "heap_peak_bytes", json_integer(5));
	assert_int_equal(memory_recompute_check(rec, &why), -1);
	assert_non_null(strstr(why, "heap_peak_bytes"));
	free(why);
	why = NULL;
	memory_derive(rec);
	json_object_set_new(rec, "allocations_per_call", json_real(2));
	assert_int_equal(memory_recompute_check(rec, &why), -1);
	free(why);
	json_decref(rec);
}

static void test_empty_and_malformed(void **state)
{
	(void)state;
	json_t *rec = record_with("{\"stack_peak_bytes\": [], \"heap_peak_bytes\": [],"
				  " \"allocations\": []}");
	char *why = NULL;
	memory_derive(rec);
	assert_true(json_is_null(json_object_get(rec, "stack_peak_bytes")));
	assert_true(json_is_null(json_object_get(rec, "allocations_per_call")));
	assert_int_equal(memory_recompute_check(rec, &why), 0);
	json_decref(rec);
	rec = record_with("{\"stack_peak_bytes\": [1], \"heap_peak_bytes\": [],"
			  " \"allocations\": [1]}");
	assert_int_equal(memory_recompute_check(rec, &why), -1);
	free(why);
	json_decref(rec);
}

static void test_strip_option(void **state)
{
	(void)state;
	char *argv[] = { "measure", "--run", "r", "--no-memory-pass", "x", "--", "--no-memory-pass", NULL };
	int argc = 7;
	assert_int_equal(memory_strip_option(&argc, argv), 1);
	assert_int_equal(argc, 6);
	assert_string_equal(argv[3], "x");
	assert_string_equal(argv[5], "--no-memory-pass");
	assert_null(argv[6]);
	char *plain[] = { "measure", "--run", "r", NULL };
	argc = 3;
	assert_int_equal(memory_strip_option(&argc, plain), 0);
	assert_int_equal(argc, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stack_untouched),
		cmocka_unit_test(test_stack_deepest_word),
		cmocka_unit_test(test_stack_block_edges),
		cmocka_unit_test(test_scan_written_pages),
		cmocka_unit_test(test_scan_calls_on_thread),
		cmocka_unit_test(test_scan_fallback),
		cmocka_unit_test(test_heap_peak_and_count),
		cmocka_unit_test(test_heap_collisions),
		cmocka_unit_test(test_heap_overflow_marked),
		cmocka_unit_test(test_memory_calls),
		cmocka_unit_test(test_derive_and_recompute),
		cmocka_unit_test(test_empty_and_malformed),
		cmocka_unit_test(test_strip_option),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
