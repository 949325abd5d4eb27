/* test_untrusted.c — reading input we did not write (util/untrusted.h) and
 * checking evidence fields (evidence/check.h): paths kept below their
 * root without links (with openat2 and with the per-component fallback),
 * FIFOs and devices refused without blocking, printable text, field tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "evidence/check.h"
#include "evidence/check_json.h"
#include "evidence/record.h"
#include "util/untrusted.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *tmp;

static int setup(void **state)
{
	(void)state;
	char t[] = "/tmp/ngcc-test-untrusted.XXXXXX";
	assert_non_null(mkdtemp(t));
	tmp = xstrdup(t);
	char *p = path_join(tmp, "root/sub");
	assert_int_equal(mkdir_p(p, 0755), 0);
	free(p);
	p = path_join(tmp, "root/sub/file.txt");
	assert_int_equal(write_file(p, "inside", 6), 0);
	free(p);
	p = path_join(tmp, "outside.txt");
	assert_int_equal(write_file(p, "SECRET", 6), 0);
	free(p);
	p = path_join(tmp, "root/link");
	assert_int_equal(symlink("../outside.txt", p), 0);
	free(p);
	p = path_join(tmp, "root/dirlink");
	assert_int_equal(symlink("sub", p), 0);
	free(p);
	p = path_join(tmp, "root/fifo");
	assert_int_equal(mkfifo(p, 0644), 0);
	free(p);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rm_rf(tmp);
	free(tmp);
	return 0;
}

/* Open rel below tmp/root with one of the two resolvers; fd or -errno. */
static int open_with(int walk, const char *rel)
{
	char *root = path_join(tmp, "root");
	int rfd = open(root, O_RDONLY | O_DIRECTORY);
	assert_true(rfd >= 0);
	int fd = walk ? root_openat_walk(rfd, rel, O_RDONLY | O_NONBLOCK)
		      : root_openat(rfd, rel, O_RDONLY | O_NONBLOCK);
	int e = errno;
	close(rfd);
	free(root);
	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : -e;
}

static void resolvers_keep_below_root(void **state)
{
	(void)state;
	for (int walk = 0; walk < 2; walk++) {
		assert_int_equal(open_with(walk, "sub/file.txt"), 0);
		assert_int_equal(open_with(walk, "./sub//file.txt"), 0);
		assert_int_equal(open_with(walk, "../outside.txt"), -EXDEV);
		assert_int_equal(open_with(walk, "sub/../../outside.txt"), -EXDEV);
		assert_int_equal(open_with(walk, "/etc/hostname"), -EXDEV);
		assert_int_equal(open_with(walk, "link"), -ELOOP);
		assert_int_equal(open_with(walk, "dirlink/file.txt"), -ELOOP);
		assert_int_equal(open_with(walk, "missing"), -ENOENT);
	}
}

static void reads_refuse_what_is_not_a_regular_file(void **state)
{
	(void)state;
	char *root = path_join(tmp, "root"), *data = NULL;
	size_t len;
	assert_int_equal(root_read_file(root, "sub/file.txt", &data, &len), 0);
	assert_string_equal(data, "inside");
	free(data);
	/* a FIFO without a writer: refused at once, never waited on */
	assert_int_equal(root_read_file(root, "fifo", &data, &len), -1);
	assert_int_equal(errno, ENOTREGULAR);
	char *fifo = path_join(root, "fifo");
	assert_int_equal(read_file(fifo, &data, &len), -1);
	assert_int_equal(errno, ENOTREGULAR);
	free(fifo);
	assert_int_equal(read_file("/dev/zero", &data, &len), -1);
	assert_int_equal(errno, ENOTREGULAR);
	assert_int_equal(root_read_file(root, "sub", &data, &len), -1);
	assert_int_equal(errno, ENOTREGULAR);
	assert_int_equal(root_read_file(root, "link", &data, &len), -1);
	assert_int_equal(errno, ELOOP);
	char *via = xasprintf("%s/sub/../../outside.txt", root);
	assert_int_equal(read_file_below(root, via, &data, &len), -1);
	assert_int_equal(errno, EXDEV);
	free(via);
	assert_int_equal(read_file_below(root, "/etc/hostname", &data, &len), -1);
	assert_int_equal(errno, EXDEV);
	assert_int_equal(root_kind(root, "sub"), 'd');
	assert_int_equal(root_kind(root, "sub/file.txt"), 'f');
	assert_int_equal(root_kind(root, "link"), 'l');
	assert_int_equal(root_kind(root, "fifo"), 'o');
	assert_int_equal(root_kind(root, "nothing"), 0);
	free(root);
}

static void fd_reads_are_bounded(void **state)
{
	(void)state;
	char *p = path_join(tmp, "big");
	assert_int_equal(write_file(p, "0123456789", 10), 0);
	int fd = open(p, O_RDONLY);
	char *data;
	size_t len;
	assert_int_equal(fd_read_regular(fd, 9, &data, &len), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(fd_read_regular(fd, 10, &data, &len), 0);
	assert_int_equal(len, 10);
	free(data);
	close(fd);
	free(p);
}

static void printable_escapes_and_bounds(void **state)
{
	(void)state;
	char *s = str_printable("a\x1b[31mb\r\n\tc\xc2\x9b" "d\xff" "中文", 0);
	assert_string_equal(s, "a\\x1b[31mb\\x0d\\x0a\tc\\xc2\\x9bd\\xff中文");
	/* escaping twice changes nothing more */
	char *t = str_printable(s, 0);
	assert_string_equal(s, t);
	free(t);
	free(s);
	s = str_printable("0123456789", 4);
	assert_string_equal(s, "0123…(6 bytes more)");
	free(s);
	assert_true(str_has_control("a\nb", 3));
	assert_false(str_has_control("中文 ok\t", strlen("中文 ok\t")));
}

static const char *const colours[] = { "red", "blue", NULL };
static const struct field_rule rules[] = {
	FIELD_WORD("colour", J_STR, colours),
	FIELD_NUM("n", J_INT, 0, 10),
	FIELD_NUM_OPT("list[].x", J_NUM | J_NULL, 0, 1),
	FIELD_OPT("map{}", J_STR),
	FIELD_OPT("obj.flag", J_BOOL),
};

static char *check(const char *text)
{
	json_t *j = json_loads(text, 0, NULL);
	assert_non_null(j);
	char *why = NULL;
	int rc = evidence_check_fields(j, rules, sizeof rules / sizeof *rules, &why);
	json_decref(j);
	assert_int_equal(rc != 0, why != NULL);
	return why;
}

static void field_tables(void **state)
{
	(void)state;
	assert_null(check("{\"colour\":\"red\",\"n\":3,\"list\":[{\"x\":0.5},{\"x\":null}],"
			  "\"map\":{\"a\":\"b\"},\"obj\":{\"flag\":true}}"));
	assert_null(check("{\"colour\":\"blue\",\"n\":0,\"obj\":null}"));
	static const struct {
		const char *doc, *why;
	} bad[] = {
		{ "{\"n\":3}", "colour is missing" },
		{ "{\"colour\":\"green\",\"n\":3}", "colour is \"green\", not a value" },
		{ "{\"colour\":\"red\",\"n\":\"3\"}", "n is a string, expected an integer" },
		{ "{\"colour\":\"red\",\"n\":-1}", "n is -1, outside [0, 10]" },
		{ "{\"colour\":\"red\",\"n\":3.5}", "n is a real number, expected an integer" },
		{ "{\"colour\":\"red\",\"n\":1,\"list\":[{\"x\":0},{\"x\":2}]}",
		  "list[1].x is 2, outside [0, 1]" },
		{ "{\"colour\":\"red\",\"n\":1,\"list\":7}", "list is an integer, expected an array" },
		{ "{\"colour\":\"red\",\"n\":1,\"map\":{\"k\":1}}", "map[\"k\"] is an integer" },
		{ "{\"colour\":\"red\",\"n\":1,\"obj\":{\"flag\":1}}", "obj.flag is an integer" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char *why = check(bad[i].doc);
		if (!why || !strstr(why, bad[i].why))
			fail_msg("%s: got \"%s\", want \"%s\"", bad[i].doc, why ? why : "(ok)",
				 bad[i].why);
		free(why);
	}
}

/* Finding 12 of issue 16: the record format's own table refuses wrong
 * types, negative and absurd values wherever a record is read. */
static void record_table(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"\"mean_seconds\": \"fast\"", "\"mean_seconds\": -1", "\"mean_seconds\": 1e300",
		"\"trials\": [{\"calls\": -3, \"ns\": 1}]", "\"status\": \"great\"",
		"\"peak_rss_bytes\": 1e20", "\"noisy\": 1",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char *text = xasprintf("{\"schema\": \"ngcc-perf/record/1\", \"status\": \"complete\", "
				       "\"candidate\": \"c\", \"label\": \"l\", \"operation\": \"enc\", %s}",
				       bad[i]);
		/* a later duplicate key replaces the earlier status */
		json_t *j = json_loads(text, 0, NULL);
		assert_non_null(j);
		char *why = NULL;
		assert_int_equal(record_check(j, &why), -1);
		assert_non_null(why);
		free(why);
		json_decref(j);
		free(text);
	}
	json_t *ok = json_pack("{s:s,s:s,s:s,s:s,s:s,s:f,s:[{s:i,s:i}]}", "schema",
			       "ngcc-perf/record/1", "status", "complete", "candidate", "c", "label",
			       "l", "operation", "enc", "mean_seconds", 0.001, "trials", "calls", 10,
			       "ns", 1000);
	char *why = NULL;
	assert_int_equal(record_check(ok, &why), 0);
	json_decref(ok);
}

/* Check records (issue 15's format) are held to their table on every read
 * too: one as `check` writes it passes, a changed one is refused. */
static void check_record_table(void **state)
{
	(void)state;
	json_t *rec = check_record_new("c", "c-128", "c-128", "KEM", "ref", "memcheck");
	json_object_set_new(rec, "status", json_string("complete"));
	json_array_append_new(json_object_get(rec, "findings"),
			      check_finding_new(FK_LEAK, "keygen", "lost 64 bytes", "keygen", 0, 2));
	check_record_derive(rec);
	char *why = NULL;
	assert_int_equal(check_record_check(rec, &why), 0);
	static const struct {
		const char *key, *value, *why;
	} bad[] = {
		{ "findings_count", "-1", "findings_count" },
		{ "findings", "\"none\"", "findings" },
		{ "verdict", "\"excellent\"", "verdict" },
		{ "check", "\"astrology\"", "check" },
		{ "wall_s", "1e300", "wall_s" },
		{ "findings", "[{\"id\": 1, \"kind\": \"x\", \"occurrences\": -5}]",
		  "occurrences" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		json_t *j = json_deep_copy(rec);
		json_object_set_new(j, bad[i].key, json_loads(bad[i].value, JSON_DECODE_ANY, NULL));
		why = NULL;
		if (check_record_check(j, &why) != -1 || !why || !strstr(why, bad[i].why))
			fail_msg("%s = %s: got \"%s\"", bad[i].key, bad[i].value, why ? why : "(ok)");
		free(why);
		json_decref(j);
	}
	json_decref(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(resolvers_keep_below_root),
		cmocka_unit_test(reads_refuse_what_is_not_a_regular_file),
		cmocka_unit_test(fd_reads_are_bounded),
		cmocka_unit_test(printable_escapes_and_bounds),
		cmocka_unit_test(field_tables),
		cmocka_unit_test(record_table),
		cmocka_unit_test(check_record_table),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
