/* background.c — see background.h: measure the background disturbance of a
 * benchmark CPU and derive the per-trial allowance. */
#include "host/background.h"
#include "evidence/json.h"
#include "host/clock.h"
#include "host/probescale.h"
#include "host/spin.h"
#include "host/threadcounts.h"
#include "util/util.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BACKGROUND_RULE "disturbed beyond base + ceil(r*s + 3*sqrt(r*s)), r the highest rate of a window " \
	"in which the probe got at least min_cpu_share of the CPU (0 when under half of them did), " \
	"s the trial's seconds"

/* ---- the measurement --------------------------------------------------- */

struct spin_job {
	int cpu;
	struct background *out;
	int err;              /* errno of a failed pinning */
};

/* User-mode work between clock reads: short enough to end a window within
 * microseconds. */
static void spin_until(double end)
{
	while (mono_now() < end)
		counter_busy_spin(2048);
}

static double thread_cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *spin_windows(void *arg)
{
	struct spin_job *job = arg;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(job->cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set)) {
		job->err = errno;
		return NULL;
	}
	/* One untimed window first (20 ms at the default window length): the
	 * move onto the CPU is not background. */
	spin_until(mono_now() + 0.02 * (job->out->window_s / BACKGROUND_WINDOW_S));
	for (int i = 0; i < BACKGROUND_WINDOWS; i++) {
		struct thread_counts a, b;
		thread_counts_read(&a);
		double c0 = thread_cpu_s(), t0 = mono_now();
		spin_until(t0 + job->out->window_s);
		double t1 = mono_now(), c1 = thread_cpu_s();
		thread_counts_read(&b);
		struct background_window *w = &job->out->w[i];
		w->wall_s = t1 - t0;
		w->cpu_s = c1 - c0;
		w->invol_switches = b.invol - a.invol;
		w->migrations = thread_counts_migrations(&a, &b);
	}
	job->out->n_windows = BACKGROUND_WINDOWS;
	return NULL;
}

void background_rates(struct background *b)
{
	b->invol_per_s_max = 0;
	b->migrations_per_s_max = 0;
	b->quiet_windows = 0;
	for (int i = 0; i < b->n_windows; i++) {
		const struct background_window *w = &b->w[i];
		if (!(w->wall_s > 0) || w->cpu_s < BACKGROUND_MIN_SHARE * w->wall_s)
			continue;
		b->quiet_windows++;
		double inv = (double)w->invol_switches / w->wall_s;
		double mig = (double)w->migrations / w->wall_s;
		if (inv > b->invol_per_s_max)
			b->invol_per_s_max = inv;
		if (mig > b->migrations_per_s_max)
			b->migrations_per_s_max = mig;
	}
	b->contended = 2 * b->quiet_windows < b->n_windows;
	if (b->contended)
		b->invol_per_s_max = b->migrations_per_s_max = 0;
}

int background_measure(int cpu, struct background *out, char **err)
{
	memset(out, 0, sizeof *out);
	out->cpu = cpu;
	utc_now_iso(out->utc);
	snprintf(out->migrations_source, sizeof out->migrations_source, "%s",
		 thread_counts_migrations_source());
	/* Read here, not on the probe thread: host_probe_scale() reads the
	 * environment once and keeps the factor. */
	out->window_s = BACKGROUND_WINDOW_S * host_probe_scale();
	struct spin_job job = { cpu, out, 0 };
	pthread_t th;
	int rc = pthread_create(&th, NULL, spin_windows, &job);
	if (rc) {
		*err = xasprintf("cannot start the background probe thread: %s", strerror(rc));
		return -1;
	}
	pthread_join(th, NULL);
	if (job.err) {
		*err = xasprintf("cannot pin the background probe to CPU %d: %s", cpu,
				 strerror(job.err));
		return -1;
	}
	background_rates(out);
	return 0;
}

/* ---- JSON --------------------------------------------------------------- */

json_t *background_json(const struct background *b)
{
	json_t *ws = json_array();
	for (int i = 0; i < b->n_windows; i++)
		json_array_append_new(ws, json_pack("{sfsfsIsI}", "wall_s", b->w[i].wall_s,
						    "cpu_s", b->w[i].cpu_s,
						    "invol_switches", (json_int_t)b->w[i].invol_switches,
						    "migrations", (json_int_t)b->w[i].migrations));
	json_t *j = json_object();
	json_object_set_new(j, "cpu", json_integer(b->cpu));
	json_object_set_new(j, "utc", json_string(b->utc));
	json_object_set_new(j, "method", json_string("a thread pinned to the benchmark CPU spins in user mode; "
						     "getrusage(RUSAGE_THREAD) and migrations per window"));
	json_object_set_new(j, "window_s", json_real(b->window_s));
	json_object_set_new(j, "min_cpu_share", json_real(BACKGROUND_MIN_SHARE));
	json_object_set_new(j, "windows", ws);
	json_object_set_new(j, "migrations_source", json_string(b->migrations_source));
	json_object_set_new(j, "quiet_windows", json_integer(b->quiet_windows));
	json_object_set_new(j, "contended", json_boolean(b->contended));
	json_object_set_new(j, "invol_switches_per_s", json_real(b->invol_per_s_max));
	json_object_set_new(j, "migrations_per_s", json_real(b->migrations_per_s_max));
	json_object_set_new(j, "rule", json_string(BACKGROUND_RULE));
	return j;
}

int background_from_json(const json_t *j, struct background *out)
{
	const json_t *ws = json_object_get(j, "windows");
	memset(out, 0, sizeof *out);
	if (!json_is_object(j) || !json_is_array(ws) || json_array_size(ws) > BACKGROUND_WINDOWS)
		return -1;
	out->cpu = (int)jget_int(j, "cpu", -1);
	out->window_s = jget_real(j, "window_s", BACKGROUND_WINDOW_S);
	snprintf(out->utc, sizeof out->utc, "%s", jget_str(j, "utc", ""));
	snprintf(out->migrations_source, sizeof out->migrations_source, "%s",
		 jget_str(j, "migrations_source", ""));
	size_t i;
	json_t *w;
	json_array_foreach(ws, i, w) {
		out->w[i].wall_s = jget_real(w, "wall_s", 0);
		out->w[i].cpu_s = jget_real(w, "cpu_s", 0);
		out->w[i].invol_switches = (long)jget_int(w, "invol_switches", 0);
		out->w[i].migrations = (long)jget_int(w, "migrations", 0);
	}
	out->n_windows = (int)json_array_size(ws);
	background_rates(out);
	return 0;
}
