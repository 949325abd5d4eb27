/* test_loader.c — candidate_load() errors name the library and the cause. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "driver/loader.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_missing_file(void **state)
{
	(void)state;
	struct candidate_lib lib;
	char *err = NULL;
	assert_int_equal(candidate_load("/nonexistent/libX.so", &lib, &err), -1);
	assert_non_null(err);
	assert_true(str_starts_with(err, "cannot load /nonexistent/libX.so: "));
	/* dlerror() repeats the path; we say it once. */
	assert_null(strstr(err + strlen("cannot load /nonexistent/libX.so"), "libX.so"));
	assert_null(lib.handle);
	free(err);
}

/* A real shared library that is not a candidate: the C math library is
 * always there, and it has no ngcc_meta. */
static void test_not_a_candidate(void **state)
{
	(void)state;
	struct candidate_lib lib;
	char *err = NULL;
	assert_int_equal(candidate_load("libm.so.6", &lib, &err), -1);
	assert_non_null(err);
	assert_non_null(strstr(err, "libm.so.6: missing symbol ngcc_meta"));
	assert_null(lib.handle);
	free(err);
}

static void test_empty_file(void **state)
{
	(void)state;
	char path[] = "/tmp/test_loader.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	struct candidate_lib lib;
	char *err = NULL;
	assert_int_equal(candidate_load(path, &lib, &err), -1);
	assert_non_null(strstr(err, path));
	free(err);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_not_a_candidate),
		cmocka_unit_test(test_empty_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
