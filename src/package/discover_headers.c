/*
 * discover_headers.c — one header, one folder (docs/iccs.md §6.4): every
 * quoted #include of an instance that the including file's own folder does
 * not satisfy must be in exactly one of its include folders (or in several
 * as identical copies), or the package is refused; an include whose file
 * differs only in case is reported.
 */
#include "package/discover_int.h"

#include "package/cscan.h"
#include "package/discover.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- one header, one folder ---- */

/* The name of a file of folder abs whose name equals name but for case
 * (malloc'd), or NULL. */
static char *name_in_other_case(const char *abs, const char *name)
{
	DIR *dir = opendir(abs);
	char *found = NULL;
	struct dirent *e;
	while (dir && !found && (e = readdir(dir)))
		if (!strcasecmp(e->d_name, name) && strcmp(e->d_name, name))
			found = xstrdup(e->d_name);
	if (dir)
		closedir(dir);
	return found;
}

/* Do include folders a and b hold byte-identical copies of header name? */
static int same_file_content(const struct inst_builder *b, const char *a, const char *c,
			     const char *name)
{
	char ha[65] = "", hc[65] = "";
	char *pa = path_joinf(b->abs_dir, "%s/%s", a, name);
	char *pc = path_joinf(b->abs_dir, "%s/%s", c, name);
	int same = !sha256_file_hex(pa, ha) && !sha256_file_hex(pc, hc) && !strcmp(ha, hc);
	free(pa);
	free(pc);
	return same;
}

/* An include that names no file, but one differing only in case (a package
 * written on Windows): reported, since it will not compile here. */
static void note_case_mismatch(const struct inst_builder *b, const char *from, const char *fdir,
			       const char *name, struct strlist *notes)
{
	if (strchr(name, '/'))
		return;
	for (size_t d = 0; d <= b->fi->include_dirs.n; d++) {
		const char *dir = d == 0 ? fdir : b->fi->include_dirs.items[d - 1];
		char *abs = path_join(b->abs_dir, dir);
		char *other = name_in_other_case(abs, name);
		free(abs);
		if (other) {
			sl_push_owned(notes, xasprintf(
				"%s: %s includes \"%s\", but the file is '%s' (in '%s'): the names "
				"differ in case (written on Windows?), so it will not compile here "
				"until one of them is renamed", b->fi->label, from, name, other, dir));
			free(other);
			return;
		}
	}
}

/* Every `#include "x"` of the instance that its own folder does not
 * satisfy must be in exactly one include folder (or in several as
 * byte-identical copies): otherwise the compiler would take whichever -I
 * comes first.  Returns an error message or NULL;
 * an include whose file differs only in case is added to notes. */
char *dsc_ambiguous_header(const struct inst_builder *b, struct strlist *notes)
{
	const struct strlist *lists[] = { &b->fi->sources, &b->fi->headers };
	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; i < lists[l]->n; i++) {
			const char *from = lists[l]->items[i];
			char *text = dsc_read_rel(b, from);
			struct strlist inc = STRLIST_INIT;
			if (text)
				cscan_quoted_includes(text, &inc);
			free(text);
			char *fdir = path_dirname(from);
			for (size_t k = 0; k < inc.n; k++) {
				char *own = path_join(b->abs_dir, fdir);
				char *own_file = path_join(own, inc.items[k]);
				int local = path_is_file(own_file);
				free(own_file);
				free(own);
				if (local)
					continue;
				const char *first = NULL;
				for (size_t d = 0; d < b->fi->include_dirs.n; d++) {
					const char *inc_dir = b->fi->include_dirs.items[d];
					char *p = path_joinf(b->abs_dir, "%s/%s", inc_dir, inc.items[k]);
					int there = path_is_file(p);
					free(p);
					if (!there)
						continue;
					if (!first) {
						first = inc_dir;
						continue;
					}
					if (same_file_content(b, first, inc_dir, inc.items[k]))
						continue; /* identical copies: either gives the same */
					char *msg = xasprintf(
						"instance '%s': header '%s' (#included by %s) is in two of its "
						"include folders, '%s' and '%s' (relative to %s): ngcc-perf "
						"will not pick one; remove or rename one copy, or edit the "
						"include lines of candidate.conf after adding",
						b->fi->label, inc.items[k], from, first, inc_dir, b->fi->source_dir);
					sl_free(&inc);
					free(fdir);
					return msg;
				}
				if (!first)
					note_case_mismatch(b, from, fdir, inc.items[k], notes);
			}
			free(fdir);
			sl_free(&inc);
		}
	return NULL;
}
