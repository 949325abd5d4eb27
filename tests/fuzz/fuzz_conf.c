/*
 * fuzz_conf.c — libFuzzer target: candidate.conf (package/conf.c).  The
 * input is written to a file and read; whatever the reader accepts the
 * writer must write back, and reading that gives the same candidate.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "package/conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dir;

static int same_lists(const struct strlist *a, const struct strlist *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->items[i], b->items[i]))
			return 0;
	return 1;
}

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static int same_conf(const struct candidate_conf *a, const struct candidate_conf *b)
{
	if (!same_str(a->id, b->id) || !same_str(a->algorithm, b->algorithm) ||
	    !same_str(a->type, b->type) || !same_str(a->package, b->package) || a->n_inst != b->n_inst ||
	    a->n_patches != b->n_patches)
		return 0;
	for (size_t i = 0; i < a->n_patches; i++)
		if (!same_str(a->patches[i].file, b->patches[i].file) ||
		    !same_str(a->patches[i].sha256, b->patches[i].sha256) ||
		    !same_lists(&a->patches[i].touches, &b->patches[i].touches))
			return 0;
	for (size_t i = 0; i < a->n_inst; i++) {
		const struct instance_conf *x = &a->inst[i], *y = &b->inst[i];
		if (!same_str(x->label, y->label) || !same_str(x->source_dir, y->source_dir) ||
		    !same_str(x->instance, y->instance) || !same_lists(&x->sources, &y->sources) ||
		    !same_lists(&x->cflags, &y->cflags) || !same_lists(&x->defines, &y->defines) ||
		    x->enabled != y->enabled || x->own_drng != y->own_drng)
			return 0;
	}
	return 1;
}

static void remove_scratch(void)
{
	rm_rf(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir) {
		/* tmpfs: the writer syncs each file, which a disk makes slow */
		char t[] = "/dev/shm/ngcc-fuzz-conf.XXXXXX";
		if (!mkdtemp(t))
			abort();
		dir = xstrdup(t);
		atexit(remove_scratch);
	}
	char *in = path_join(dir, "in.conf"), *out = path_join(dir, "out.conf"), *err = NULL;
	if (write_file(in, data, size))
		abort();
	struct candidate_conf c, back;
	if (conf_read(in, &c, &err) == 0) {
		if (conf_write(out, &c))
			abort(); /* read but not writable */
		if (conf_read(out, &back, &err) || !same_conf(&c, &back))
			abort(); /* written but read back differently */
		conf_free(&back);
		conf_free(&c);
	} else if (!err) {
		abort();
	}
	free(err);
	free(in);
	free(out);
	return 0;
}
