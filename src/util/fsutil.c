/* fsutil.c — see fsutil.h. */
#include "util/fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void fsync_parent_dir(const char *path)
{
	char *dir = path_dirname(path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

/* Names in dir without dot files, filtered by keep(dir/name, ctx), sorted. */
static int list_filtered(const char *dir, int (*keep)(const char *path, const void *ctx),
			 const void *ctx, struct strlist *out)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	struct strlist names = STRLIST_INIT;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *p = path_join(dir, e->d_name);
		if (keep(p, ctx))
			sl_push(&names, e->d_name);
		free(p);
	}
	closedir(d);
	sl_sort(&names);
	for (size_t i = 0; i < names.n; i++)
		sl_push(out, names.items[i]);
	sl_free(&names);
	return 0;
}

static int keep_kind(const char *path, const void *ctx)
{
	return *(const enum dir_pick *)ctx == DIR_PICK_DIRS ? path_is_dir(path) : path_is_file(path);
}

static int keep_having(const char *path, const void *member)
{
	char *p = path_join(path, member);
	int ok = path_is_file(p);
	free(p);
	return ok;
}

int dir_list(const char *dir, enum dir_pick pick, struct strlist *out)
{
	return list_filtered(dir, keep_kind, &pick, out);
}

int dir_list_having(const char *dir, const char *member, struct strlist *out)
{
	return list_filtered(dir, keep_having, member, out);
}

int semicolon_rows(const char *path, int (*row)(char *f[SEMI_FIELDS], void *ctx), void *ctx)
{
	char *data = NULL, *save = NULL;
	size_t len;
	if (read_file(path, &data, &len))
		return -1;
	int rc = 0;
	for (char *line = strtok_r(data, "\n", &save); line && !rc;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[SEMI_FIELDS] = { NULL }, *fs = NULL, *p = line;
		if (*str_trim(line) == '#' || !*line)
			continue;
		for (int i = 0; i < SEMI_FIELDS && (f[i] = strtok_r(p, ";", &fs)); i++)
			p = NULL;
		rc = row(f, ctx);
	}
	free(data);
	return rc;
}

/* ---- trees ---- */

/* ---- trees ------------------------------------------------------------- */

static void list_names(const char *dir, int dots, struct strlist *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (!d)
		return;
	while ((e = readdir(d)))
		if (dots ? strcmp(e->d_name, ".") && strcmp(e->d_name, "..") : e->d_name[0] != '.')
			sl_push(out, e->d_name);
	closedir(d);
	sl_sort(out);
}

/* The listings below: regular files (want_regular) or everything that is
 * neither a regular file nor a folder (links, FIFOs, devices, sockets);
 * dot files and folders too when dots is set. */
static void tree_list(const char *root, const char *rel, int want_regular, int dots,
		      struct strlist *out)
{
	char *dir = *rel ? path_join(root, rel) : xstrdup(root);
	struct strlist names = STRLIST_INIT;
	list_names(dir, dots, &names);
	for (size_t i = 0; i < names.n; i++) {
		char *sub = *rel ? path_join(rel, names.items[i]) : xstrdup(names.items[i]);
		char *full = path_join(root, sub);
		struct stat st;
		if (lstat(full, &st))
			;
		else if (S_ISDIR(st.st_mode))
			tree_list(root, sub, want_regular, dots, out);
		else if (!S_ISREG(st.st_mode) == !want_regular)
			sl_push(out, sub);
		free(full);
		free(sub);
	}
	sl_free(&names);
	free(dir);
}

void tree_list_files(const char *root, const char *rel, struct strlist *out)
{
	tree_list(root, rel, 1, 0, out);
}

void tree_list_all_files(const char *root, const char *rel, struct strlist *out)
{
	tree_list(root, rel, 1, 1, out);
}

void tree_list_unusual(const char *root, const char *rel, struct strlist *out)
{
	tree_list(root, rel, 0, 0, out);
}
