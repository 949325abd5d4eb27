/*
 * fuzz_patch.c — libFuzzer target: a patch given to `add --patch`
 * (package/patch.c).  The input is applied as a unified diff to a small
 * folder made afresh for each input; whatever it says, nothing is written
 * outside that folder, and a refused patch changes nothing inside it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "package/patch.h"
#include "util/fsutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dir, *root, *outside;

static const char a_c[] = "one\ntwo\nthree\nfour\nfive\n";

static void remove_scratch(void)
{
	rm_rf(dir);
}

static void reset(void)
{
	rm_rf(root);
	rm_rf(outside);
	char *src = path_join(root, "src");
	char *a = path_join(root, "src/a.c");
	if (mkdir_p(src, 0755) || mkdir_p(outside, 0755) || write_file(a, a_c, strlen(a_c)))
		abort();
	free(a);
	free(src);
}

/* The folder holds src/a.c as it was, and nothing else. */
static int unchanged(void)
{
	struct strlist files = STRLIST_INIT;
	tree_list_files(root, "", &files);
	char *a = path_join(root, "src/a.c"), *got = NULL;
	size_t len = 0;
	int same = files.n == 1 && !strcmp(files.items[0], "src/a.c") && !read_file(a, &got, &len) &&
		   len == strlen(a_c) && !memcmp(got, a_c, len);
	free(got);
	free(a);
	sl_free(&files);
	return same;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir) {
		/* tmpfs: atomic_write syncs each file, which a disk makes slow */
		char t[] = "/dev/shm/ngcc-fuzz-patch.XXXXXX";
		if (!mkdtemp(t))
			abort();
		dir = xstrdup(t);
		root = path_join(dir, "root");
		outside = path_join(dir, "outside");
		atexit(remove_scratch);
	}
	reset();
	char *err = NULL;
	int rc = patch_apply_text(root, "fuzz.diff", (const char *)data, size, NULL, &err);
	if (rc && !err)
		abort();   /* a refusal always says why */
	if (rc == -1 && !unchanged())
		abort();   /* refused, yet something was written */
	struct strlist escaped = STRLIST_INIT;
	tree_list_files(outside, "", &escaped);
	if (escaped.n)
		abort();   /* written beside the folder */
	sl_free(&escaped);
	free(err);
	return 0;
}
