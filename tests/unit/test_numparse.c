/*
 * test_numparse.c — whole numbers parsed strictly (util/numparse.h): digits
 * only, the range checked before narrowing (2^32 + 2 is refused, never 2),
 * and `--shard k/n` built on it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <cmocka.h>

#include "method/shard.h"
#include "util/numparse.h"

static void test_whole(void **state)
{
	long long v = 7;
	int i = 7;
	(void)state;
	assert_int_equal(parse_whole("42", 0, 100, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(parse_whole("-3", -5, 5, &v), 0);
	assert_int_equal(v, -3);
	static const char *const bad[] = { "", " 1", "1 ", "+1", "1x", "0x10", "1e3", "-", "--1",
					   "1.0", "\t2" };
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		v = 7;
		assert_int_equal(parse_whole(bad[k], -100, 100, &v), -1);
		assert_int_equal(errno, EINVAL);
		assert_int_equal(v, 7);
	}
	assert_int_equal(parse_whole("-1", 0, 100, &v), -1);   /* no '-' when min >= 0 */
	assert_int_equal(parse_whole("101", 0, 100, &v), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(parse_whole("99999999999999999999999", 0, LLONG_MAX, &v), -1);
	assert_int_equal(errno, ERANGE);
	/* the wrap this guards against: (int)4294967298 == 2 */
	assert_int_equal(parse_whole_int("4294967298", 1, 4096, &i), -1);
	assert_int_equal(i, 7);
	assert_int_equal(parse_whole_int("4096", 1, 4096, &i), 0);
	assert_int_equal(i, 4096);
}

static void test_shard(void **state)
{
	struct shard_spec sp = { 0, 0 };
	char *err = NULL;
	(void)state;
	assert_int_equal(shard_parse("2/3", &sp, &err), 0);
	assert_int_equal(sp.k, 2);
	assert_int_equal(sp.n, 3);
	static const char *const bad[] = { "1/4294967298", "4294967298/2", "3/2", "0/2", "-1/2",
					   "+1/2", " 1/2", "1/2 ", "1/", "/2", "12", "1/2/3" };
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		assert_int_equal(shard_parse(bad[k], &sp, &err), -1);
		assert_non_null(err);
		free(err);
		err = NULL;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_shard),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
