/*
 * test_memprobe.c — the memory pass's bookkeeping (docs/method.md §8, R6): stack
 * painting and the deepest overwritten word, the heap table (live bytes,
 * peak, allocation count, frees of uncounted blocks, collisions and
 * deletion, overflow), and on the orchestrator side the call count, the
 * derived statistics and their recomputation, and --no-memory-pass.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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
