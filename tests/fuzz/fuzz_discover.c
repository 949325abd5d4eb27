/*
 * fuzz_discover.c — libFuzzer target: package discovery
 * (package/discover.c).  The input describes a small package: entries
 * "<path>\x01<content>" separated by NUL bytes.  The package is written to
 * a scratch folder, discovered, turned into a candidate.conf and written;
 * the conf must then read back (a discovered package never gives a
 * candidate.conf that `build` cannot read).  Package names go through the
 * name helpers too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "package/conf.h"
#include "package/discover.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *scratch;

/* A relative path of a few plain parts; NULL for anything else. */
static char *entry_path(const char *p, size_t n)
{
	if (!n || n > 200 || p[0] == '/' || memmem(p, n, "..", 2))
		return NULL;
	return xstrndup(p, n);
}

static void write_entry(const char *root, const char *e, size_t n)
{
	const char *sep = memchr(e, 1, n);
	size_t pn = sep ? (size_t)(sep - e) : n;
	char *rel = entry_path(e, pn);
	if (!rel)
		return;
	char *path = path_join(root, rel), *dir = path_dirname(path);
	if (!mkdir_p(dir, 0755))
		write_file(path, sep ? sep + 1 : "", sep ? n - pn - 1 : 0);
	free(dir);
	free(path);
	free(rel);
}

static void remove_scratch(void)
{
	rm_rf(scratch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!scratch) {
		/* tmpfs: thousands of small files a second */
		char t[] = "/dev/shm/ngcc-fuzz-discover.XXXXXX";
		if (!mkdtemp(t))
			abort();
		scratch = xstrdup(t);
		atexit(remove_scratch);
	}
	char *root = path_join(scratch, "pkg");
	rm_rf(root);
	mkdir_p(root, 0755);
	for (size_t pos = 0, k = 0; pos < size && k < 64; k++) {
		const uint8_t *nul = memchr(data + pos, 0, size - pos);
		size_t end = nul ? (size_t)(nul - data) : size;
		write_entry(root, (const char *)data + pos, end - pos);
		pos = end + 1;
	}
	struct discovery d = { 0 };
	discover_package(root, "Fuzz", &d);
	struct candidate_conf c = { 0 }, back;
	c.id = xstrdup("fuzz-1");
	c.algorithm = xstrdup("Fuzz");
	c.package = xstrdup("Fuzz");
	discovery_to_conf(&d, &c);
	char *conf = path_join(scratch, "candidate.conf"), *err = NULL;
	if (!conf_write(conf, &c)) {
		if (conf_read(conf, &back, &err))
			abort(); /* written but not readable */
		conf_free(&back);
	}
	free(err);
	free(conf);
	conf_free(&c);
	discovery_free(&d);
	char *name = xstrndup((const char *)data, size < 256 ? size : 256);
	char *alg = algorithm_from_package_name(name), *slug = slug_from_package_name(name);
	valid_candidate_id(slug);
	source_defines_main(name);
	free(alg);
	free(slug);
	free(name);
	free(root);
	return 0;
}
