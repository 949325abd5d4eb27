/*
 * discover_fixture.h — what the discovery tests share (test_discover.c,
 * test_levels.c): the fixture packages generated at test time into
 * $NGCC_FIXTURES (default obj/fixtures; tests/README.md), an instance by its
 * label, and a list compared with what it must hold.  Static inline, so a
 * test program that uses one of them only does not warn of the others.
 */
#ifndef NGCC_TESTS_DISCOVER_FIXTURE_H
#define NGCC_TESTS_DISCOVER_FIXTURE_H

#include "package/discover.h"

/* <fixtures>/<family>/<name>; the test fails when it was not generated. */
static inline char *fixture_package(const char *family, const char *name)
{
	const char *dir = getenv("NGCC_FIXTURES");
	char *root = dir && *dir ? xstrdup(dir) : path_join(ngcc_home(), "obj/fixtures");
	char *p = path_joinf(root, "%s/%s", family, name);
	free(root);
	if (!path_is_dir(p))
		fail_msg("fixture '%s' missing (run `make fixtures`, or set NGCC_FIXTURES)", p);
	return p;
}

static inline const struct found_instance *by_label(const struct discovery *d, const char *label)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->inst[i].label, label))
			return &d->inst[i];
	for (size_t i = 0; i < d->n; i++)
		print_message("  have %s\n", d->inst[i].label);
	fail_msg("no instance labelled '%s'", label);
	return NULL;
}

/* have holds exactly the NULL-terminated want, in any order. */
static inline void assert_list(const struct strlist *have, const char *const *want, const char *what)
{
	size_t n = 0;
	for (; want[n]; n++)
		if (!sl_contains(have, want[n]))
			fail_msg("%s: '%s' missing", what, want[n]);
	if (have->n != n) {
		for (size_t i = 0; i < have->n; i++)
			print_message("  have %s\n", have->items[i]);
		fail_msg("%s: %zu entries, want %zu", what, have->n, n);
	}
}

/* Does an item of l contain needle? */
static inline int list_mentions(const struct strlist *l, const char *needle)
{
	for (size_t i = 0; i < l->n; i++)
		if (strstr(l->items[i], needle))
			return 1;
	return 0;
}

#endif
