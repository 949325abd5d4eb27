/*
 * fuzz_buildfacts.c — libFuzzer target: the package's Makefile and
 * CMakeLists.txt read as data (package/buildfacts.c) and the lexical
 * questions discovery asks of C text (package/cscan.c), on arbitrary text.
 * The first byte chooses the reader (even: Makefile, odd: CMake); every
 * fact must come back with a value, an origin naming the file, and a kind.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "package/buildfacts.h"
#include "package/cscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_facts(const struct build_fact *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!v[i].value || !*v[i].value || !v[i].origin ||
		    strncmp(v[i].origin, name, strlen(name)) ||
		    (v[i].kind != FACT_DEFINE && v[i].kind != FACT_LIB && v[i].kind != FACT_INCLUDE))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	const char *name = data[0] & 1 ? "CMakeLists.txt" : "Makefile";
	char *text = xstrndup((const char *)data + 1, size - 1); /* stops at a NUL, as files are read */
	struct build_facts f = { 0 };
	build_facts_parse(name, text, &f);
	check_facts(f.global, f.n_global, name);
	for (size_t i = 0; i < f.n_rules; i++) {
		if (!f.rules[i].target)
			abort();
		check_facts(f.rules[i].facts, f.rules[i].n_facts, name);
	}
	build_facts_free(&f);
	struct strlist inc = STRLIST_INIT, fns = STRLIST_INIT;
	cscan_quoted_includes(text, &inc);
	cscan_defined_functions(text, &fns);
	(void)cscan_uses_value(text, "N");
	(void)cscan_mentions(text, "LEVEL");
	(void)cscan_has_error_directive(text);
	sl_free(&inc);
	sl_free(&fns);
	free(text);
	return 0;
}
