/* locate.c — where ngcc-perf finds its own files: the child programs it
 * spawns (ngcc-perf-kat, -driver, -memory, -profile) and the runtime
 * sources it compiles into candidate libraries (src/runtime/).
 *
 * The same binary runs from the checkout (bin/, obj-san/bin/) and from an
 * installed tree (`make install`: <prefix>/bin, <prefix>/libexec/ngcc-perf,
 * <prefix>/share/ngcc-perf/src/runtime), so nothing is compiled in: each
 * folder is looked up, first match wins (docs/usage.md, "Installation"):
 *
 *   programs  1. $NGCC_PERF_LIBEXEC
 *             2. <prefix>/libexec/ngcc-perf, <prefix> being the parent of
 *                the folder holding our own executable, when it exists
 *             3. the folder holding our own executable (the checkout)
 *   runtime   1. $NGCC_PERF_HOME (the folder holding src/runtime/)
 *             2. <prefix>/share/ngcc-perf when it holds src/runtime/shim.c
 *             3. the nearest folder above our executable holding
 *                src/runtime/shim.c (the checkout)
 *
 * Our own executable is /proc/self/exe, so a symbolic link to it (e.g.
 * ~/bin/ngcc-perf → checkout/bin/ngcc-perf) finds the real tree. */
#include "util/util.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#define SHARE_SUBDIR "share/ngcc-perf"
#define LIBEXEC_SUBDIR "libexec/ngcc-perf"
#define RUNTIME_PROBE "src/runtime/shim.c"
#define CHECKOUT_DEPTH 4 /* bin/ or obj-san/bin/ below the checkout */

static char *exe_dir, *home_dir, *bin_dir;
static const char *home_origin, *bin_origin;

static const char *own_dir(void)
{
	if (!exe_dir) {
		char exe[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
		exe[n > 0 ? n : 0] = '\0';
		exe_dir = n > 0 ? path_dirname(exe) : path_absolute(".");
	}
	return exe_dir;
}

static char *env_dir(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? path_absolute(v) : NULL;
}

static int holds_runtime(const char *dir)
{
	char *probe = path_join(dir, RUNTIME_PROBE);
	int found = path_is_file(probe);
	free(probe);
	return found;
}

/* The nearest of dir and its ancestors holding src/runtime, or NULL. */
static char *checkout_above(const char *dir)
{
	char *cur = xstrdup(dir);
	for (int depth = 0; depth < CHECKOUT_DEPTH; depth++) {
		if (holds_runtime(cur))
			return cur;
		char *up = path_dirname(cur);
		free(cur);
		cur = up;
	}
	free(cur);
	return NULL;
}

static void locate_home(void)
{
	char *prefix = path_dirname(own_dir());
	char *share = path_join(prefix, SHARE_SUBDIR);
	free(prefix);
	if ((home_dir = env_dir("NGCC_PERF_HOME"))) {
		home_origin = "NGCC_PERF_HOME";
	} else if (holds_runtime(share)) {
		home_dir = share;
		share = NULL;
		home_origin = "installed tree";
	} else if ((home_dir = checkout_above(own_dir()))) {
		home_origin = "source tree";
	} else {
		/* Not found: name the installed location, so that errors about a
		 * missing runtime file point where `make install` puts it. */
		home_dir = share;
		share = NULL;
		home_origin = "not found";
	}
	free(share);
}

static void locate_programs(void)
{
	char *prefix = path_dirname(own_dir());
	char *libexec = path_join(prefix, LIBEXEC_SUBDIR);
	free(prefix);
	if ((bin_dir = env_dir("NGCC_PERF_LIBEXEC"))) {
		bin_origin = "NGCC_PERF_LIBEXEC";
	} else if (path_is_dir(libexec)) {
		bin_dir = libexec;
		libexec = NULL;
		bin_origin = "installed tree";
	} else {
		bin_dir = xstrdup(own_dir());
		bin_origin = "beside ngcc-perf";
	}
	free(libexec);
}

const char *ngcc_home(void)
{
	if (!home_dir)
		locate_home();
	return home_dir;
}

const char *ngcc_home_origin(void)
{
	ngcc_home();
	return home_origin;
}

const char *ngcc_bindir(void)
{
	if (!bin_dir)
		locate_programs();
	return bin_dir;
}

const char *ngcc_bindir_origin(void)
{
	ngcc_bindir();
	return bin_origin;
}

char *ngcc_program(const char *name) { return path_join(ngcc_bindir(), name); }

char *ngcc_self(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	exe[n > 0 ? n : 0] = '\0';
	return xstrdup(exe);
}
