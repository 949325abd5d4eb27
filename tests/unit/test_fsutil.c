/* test_fsutil.c — the shared file-system steps: complete writes, sorted
 * directory listings, and the `;`-separated workspace tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/fsutil.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *tmpdir(void)
{
	char tmpl[] = "/tmp/ngcc-test-fsutil.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	return xstrdup(tmpl);
}

static void put(const char *dir, const char *rel, const char *text)
{
	char *p = path_join(dir, rel);
	assert_int_equal(write_file(p, text, strlen(text)), 0);
	free(p);
}

static void rm_tree(const char *dir)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

static void write_full_writes_everything(void **state)
{
	(void)state;
	char *d = tmpdir();
	char *p = path_join(d, "big");
	size_t n = 1 << 20;
	char *buf = xmalloc(n);
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)(i * 7);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write_full(fd, buf, n), 0);
	close(fd);
	char *back = NULL;
	size_t len = 0;
	assert_int_equal(read_file(p, &back, &len), 0);
	assert_int_equal(len, n);
	assert_memory_equal(back, buf, n);
	free(back);
	free(buf);
	free(p);
	rm_tree(d);
	free(d);
}

static void listings_are_sorted_and_filtered(void **state)
{
	(void)state;
	char *d = tmpdir();
	for (const char *const *s = (const char *const[]){ "b", "a", "c", ".hidden", NULL }; *s; s++) {
		char *p = path_join(d, *s);
		assert_int_equal(mkdir(p, 0755), 0);
		free(p);
	}
	put(d, "z.json", "{}");
	put(d, "y.json", "{}");
	put(d, "b/candidate.conf", "x");
	put(d, "a/candidate.conf", "x");
	put(d, ".hidden/candidate.conf", "x");
	struct strlist dirs = STRLIST_INIT, files = STRLIST_INIT, having = STRLIST_INIT;
	assert_int_equal(dir_list(d, DIR_PICK_DIRS, &dirs), 0);
	assert_int_equal(dirs.n, 3);
	assert_string_equal(dirs.items[0], "a");
	assert_string_equal(dirs.items[2], "c");
	assert_int_equal(dir_list(d, DIR_PICK_FILES, &files), 0);
	assert_int_equal(files.n, 2);
	assert_string_equal(files.items[0], "y.json");
	assert_int_equal(dir_list_having(d, "candidate.conf", &having), 0);
	assert_int_equal(having.n, 2);
	assert_string_equal(having.items[0], "a");
	assert_string_equal(having.items[1], "b");
	char *missing = path_join(d, "missing");
	assert_int_equal(dir_list(missing, DIR_PICK_FILES, &files), -1);
	assert_int_equal(files.n, 2);
	free(missing);
	sl_free(&dirs);
	sl_free(&files);
	sl_free(&having);
	rm_tree(d);
	free(d);
}

static int collect_row(char *f[SEMI_FIELDS], void *ctx)
{
	struct strbuf *sb = ctx;
	for (int i = 0; i < SEMI_FIELDS; i++)
		sb_addf(sb, "%s%s", i ? "|" : "", f[i] ? str_trim(f[i]) : "(null)");
	sb_addc(sb, '\n');
	return !strcmp(str_trim(f[0]), "stop");
}

static void semicolon_rows_skip_comments_and_stop(void **state)
{
	(void)state;
	char *d = tmpdir();
	put(d, "t.csv", "# comment\nID;Label;Action;Cause\n\n  kem-1 ; x ; exclude ; why\nb;c\n"
			"stop;1;2;3\nafter;1\n");
	char *p = path_join(d, "t.csv");
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(semicolon_rows(p, collect_row, &sb), 1);
	assert_string_equal(sb.buf, "ID|Label|Action|Cause\nkem-1|x|exclude|why\n"
			    "b|c|(null)|(null)\nstop|1|2|3\n");
	sb_free(&sb);
	char *missing = path_join(d, "missing.csv");
	assert_int_equal(semicolon_rows(missing, collect_row, &sb), -1);
	free(missing);
	free(p);
	rm_tree(d);
	free(d);
}

static void tree_lists_with_and_without_dot_files(void **state)
{
	(void)state;
	char *d = tmpdir();
	char *sub = path_join(d, "a"), *dotdir = path_join(d, ".git"), *link = path_join(d, "l");
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(mkdir(dotdir, 0755), 0);
	assert_int_equal(symlink("x", link), 0);
	put(d, "x", "1");
	put(d, ".gitignore", "2");
	put(d, "a/y", "3");
	put(d, ".git/z", "4");
	struct strlist plain = STRLIST_INIT, all = STRLIST_INIT;
	tree_list_files(d, "", &plain);
	tree_list_all_files(d, "", &all);
	assert_int_equal(plain.n, 2);
	assert_string_equal(plain.items[0], "a/y");
	assert_string_equal(plain.items[1], "x");
	sl_sort(&all);
	assert_int_equal(all.n, 4);
	assert_string_equal(all.items[0], ".git/z");
	assert_string_equal(all.items[1], ".gitignore");
	assert_string_equal(all.items[2], "a/y");
	assert_string_equal(all.items[3], "x");
	sl_free(&plain);
	sl_free(&all);
	free(link);
	free(dotdir);
	free(sub);
	rm_tree(d);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(write_full_writes_everything),
		cmocka_unit_test(listings_are_sorted_and_filtered),
		cmocka_unit_test(semicolon_rows_skip_comments_and_stop),
		cmocka_unit_test(tree_lists_with_and_without_dot_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
