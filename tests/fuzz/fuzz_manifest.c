/*
 * fuzz_manifest.c — libFuzzer target: the kat.sha256 grammar
 * (package/manifest.c): the whole-text check `add` and `kat` run, the
 * entry lookup of the KAT gate and the mode parser.  An entry the lookup
 * returns from a text the check accepted must be usable as a child
 * argument: short, no control characters.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "package/manifest.h"
#include "util/untrusted.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strlist labels = STRLIST_INIT;
	char *err = NULL;
	int entries = 0;
	int ok = kat_manifest_check_text((const char *)data, size, &labels, &entries, &err) == 0;
	if (ok == (err != NULL) || entries < 0)
		abort();
	free(err);
	char *text = xstrndup((const char *)data, size);
	static const char *const labels_tried[] = { "A", "Foo-128", "" };
	for (size_t i = 0; i < sizeof labels_tried / sizeof *labels_tried; i++) {
		struct kat_manifest_entry e;
		int found = kat_manifest_find(text, labels_tried[i], "K.txt", &e, &err);
		if (found < 0)
			free(err);
		if (found == 1) {
			size_t n = strlen(e.file);
			if (ok && (n > 2 * MANIFEST_NAME_MAX + 1 || str_has_control(e.file, n) ||
				   strlen(e.digest) != 64))
				abort();
			kat_manifest_entry_free(&e);
		}
	}
	struct kat_mode mode;
	if (kat_mode_parse(text, &mode) == 0) {
		char *back = kat_mode_format(&mode);
		struct kat_mode again;
		if (kat_mode_parse(back, &again) || again.nolen != mode.nolen ||
		    again.records != mode.records)
			abort();
		free(back);
	}
	free(text);
	sl_free(&labels);
	return 0;
}
