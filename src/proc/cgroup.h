/*
 * cgroup.h — one cgroup v2 per supervised child, where the kernel lets us
 * make one (docs/security.md, "Candidate processes").  The supervisor
 * (proc/contain.h) kills what the program leaves behind; the cgroup also
 * holds what the supervisor cannot reach (a candidate that killed the
 * supervisor), and `cgroup.kill` ends all of it at once.
 *
 * Our cgroup is read from /proc/self/cgroup ("0::<path>") below the
 * cgroup2 mount of /proc/self/mountinfo.  A child's cgroup is
 * <ours>/ngcc-perf.<pid>.<n>; the child joins it itself between clone and
 * exec (writing "0" to its cgroup.procs, a plain system call), so that
 * nothing it starts is ever outside.  Where there is no cgroup2 mount,
 * no cgroup.kill (Linux before 5.14), or mkdir is refused (not delegated
 * to us), cgroup_create() returns -1 once and for all, and the supervisor
 * alone contains the child.
 */
#ifndef NGCC_PROC_CGROUP_H
#define NGCC_PROC_CGROUP_H

#include <stddef.h>

struct child_cgroup {
	char *dir;     /* the cgroup's folder, NULL if none */
	char *procs;   /* dir/cgroup.procs, opened by the child to join it */
};

/* Make a cgroup for one child; 0, or -1 when cgroups cannot be used here
 * (cg->dir NULL). */
int cgroup_create(struct child_cgroup *cg);
/* Kill every process in it (cgroup.kill), wait until it is empty, remove
 * it.  Returns how many processes were in it, or -1 if that could not be
 * read. */
int cgroup_kill_remove(struct child_cgroup *cg);
/* 1 if cgroup_create() can make cgroups on this host. */
int cgroup_available(void);
/* Kill and remove the cgroups of ngcc-perf processes that are gone (done
 * once by the first cgroup_available(); again on demand). */
void cgroup_sweep_stale(void);

#endif
