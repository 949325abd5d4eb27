/*
 * test_launch.c — the scripts of `ngcc-perf launch`: shell quoting, the
 * files each engine gets, that they are valid bash (bash -n), and that
 * they carry the campaign (program, workspace, run, shards, CPUs, ids,
 * options, --defer) and the engine's wiring (parallel's --will-cite and
 * job list; Slurm's array of one task per shard, prep as a dependency,
 * the final job after every shard).  Paths with blanks, quotes, ';', '$'
 * and '%' are quoted for the shell, for parallel (--quote) and for
 * sbatch's own reading of #SBATCH lines; what no #SBATCH line can hold
 * (a line break, a backslash in the output folder) and a run name that
 * breaks the path-name rule are refused before anything is written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "campaign/launch.h"
#include "util/util.h"

static void test_quote(void **state)
{
	(void)state;
	char *q = sh_quote("runs/x86_1-2026");
	assert_string_equal(q, "runs/x86_1-2026");
	free(q);
	q = sh_quote("a b");
	assert_string_equal(q, "'a b'");
	free(q);
	q = sh_quote("it's $HOME");
	assert_string_equal(q, "'it'\\''s $HOME'");
	free(q);
	q = sh_quote("");
	assert_string_equal(q, "''");
	free(q);
	q = sh_quote("Slow|Huge-[0-9]+");
	assert_string_equal(q, "'Slow|Huge-[0-9]+'");
	free(q);
}

static char *slurp(const char *path)
{
	char *data = NULL;
	size_t len;
	assert_int_equal(read_file(path, &data, &len), 0);
	return data;
}

static void assert_has(const char *text, const char *needle)
{
	if (!strstr(text, needle))
		fail_msg("missing '%s' in:\n%s", needle, text);
}

static void assert_bash_ok(const char *path)
{
	char *cmd = xasprintf("bash -n '%s'", path);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
}

static void fill(struct launch_opts *o, enum launch_engine engine)
{
	launch_opts_init(o);
	o->engine = engine;
	o->ngcc = "/opt/ngcc perf/bin/ngcc-perf";
	o->workspace = "/srv/ws";
	o->run = "runs/x86_1";
	o->shards = 2;
	sl_push(&o->ids, "kem-1");
	sl_push(&o->ids, "kem-2");
	sl_push(&o->pass, "--trials");
	sl_push(&o->pass, "2");
	sl_push(&o->pass, "--allow-unfixed-host=a VM, not fixable");
}

static void test_parallel(void **state)
{
	char tmpl[] = "/tmp/ngcc-test-launch.XXXXXX";
	struct launch_opts o;
	struct strlist written = STRLIST_INIT;
	(void)state;
	assert_non_null(mkdtemp(tmpl));
	fill(&o, LAUNCH_PARALLEL);
	sl_push(&o.cpus, "1");
	sl_push(&o.cpus, "0");
	o.defer = "Slow|Huge";
	assert_int_equal(launch_write(&o, tmpl, &written), 0);
	assert_int_equal(written.n, 1);
	assert_bash_ok(written.items[0]);
	char *s = slurp(written.items[0]);
	assert_has(s, "NGCC='/opt/ngcc perf/bin/ngcc-perf'");
	assert_has(s, "WS=/srv/ws");
	assert_has(s, "RUN=${NGCC_LAUNCH_RUN:-runs/x86_1}");
	assert_has(s, "N=2");
	assert_has(s, "IDS=(kem-1 kem-2)");
	assert_has(s, "CPUS=(1 0)");
	assert_has(s, "PASS=(--trials 2 '--allow-unfixed-host=a VM, not fixable')");
	assert_has(s, "DEFER=(--defer 'Slow|Huge')");
	assert_has(s, "parallel --will-cite");
	assert_has(s, "jobs+=(deferred)");
	assert_has(s, "--shard \"$k/$N\"");
	assert_has(s, "--deferred-only");
	assert_has(s, "ngcc merge");
	assert_has(s, "ngcc status --run \"$RUN\"");
	assert_has(s, "ngcc report --run \"$RUN\"");
	assert_true(strstr(s, "--onall") == NULL);
	/* the final job times the repeatability sample; sampling is on */
	assert_has(s, "REPEAT=1");
	assert_has(s, "--run \"$RUN\" --repeat");
	assert_has(s, "SAMPLING=()");
	free(s);
	sl_free(&written);
	launch_opts_free(&o);

	/* --no-repeat and --no-sampling: measure's own options, never profile's */
	fill(&o, LAUNCH_PARALLEL);
	o.repeat = 0;
	o.sampling = 0;
	assert_int_equal(launch_write(&o, tmpl, &written), 0);
	assert_bash_ok(written.items[0]);
	s = slurp(written.items[0]);
	assert_has(s, "REPEAT=0");
	assert_has(s, "SAMPLING=(--no-sampling)");
	assert_true(strstr(s, "ngcc profile \"${IDS[@]}\" --run \"$dir\" --cpu \"$cpu\" \"$@\" \"${DEFER[@]}\" \"${PASS[@]}\"") != NULL);
	assert_has(s, "\"${MEMORY[@]}\" \"${SAMPLING[@]}\" \"${PASS[@]}\"");
	free(s);
	sl_free(&written);
	launch_opts_free(&o);

	fill(&o, LAUNCH_PARALLEL);
	o.sshlogin = "2/m1,2/m2";
	assert_int_equal(launch_write(&o, tmpl, &written), 0);
	assert_bash_ok(written.items[0]);
	s = slurp(written.items[0]);
	assert_has(s, "LOGINS=2/m1,2/m2");
	assert_has(s, "--onall --sshlogin \"$LOGINS\"");
	assert_has(s, "export NGCC_LAUNCH_RUN=\"$RUN-$(hostname -s)\"");
	assert_has(s, "CPUS=()");
	free(s);
	sl_free(&written);
	launch_opts_free(&o);
	char *rm = xasprintf("rm -rf '%s'", tmpl);
	assert_int_equal(system(rm), 0);
	free(rm);
}

static void test_slurm(void **state)
{
	char tmpl[] = "/tmp/ngcc-test-launch.XXXXXX";
	struct launch_opts o;
	struct strlist written = STRLIST_INIT;
	(void)state;
	assert_non_null(mkdtemp(tmpl));
	fill(&o, LAUNCH_SLURM);
	o.shards = 3;
	o.partition = "bench";
	o.nodelist = "node7";
	o.time_limit = "2-00:00:00";
	sl_push(&o.sbatch_extra, "--exclusive");
	assert_int_equal(launch_write(&o, tmpl, &written), 0);
	assert_int_equal(written.n, 5); /* no deferred.sbatch without --defer */
	for (size_t i = 0; i < written.n; i++)
		assert_bash_ok(written.items[i]);
	char *p = path_join(tmpl, "shards.sbatch"), *s = slurp(p);
	assert_has(s, "#SBATCH --array=1-3");
	assert_has(s, "#SBATCH --partition=\"bench\"");
	assert_has(s, "#SBATCH --nodelist=\"node7\"");
	assert_has(s, "#SBATCH --time=\"2-00:00:00\"");
	assert_has(s, "#SBATCH --exclusive");
	assert_has(s, "--job \"shard-$SLURM_ARRAY_TASK_ID\"");
	free(s);
	free(p);
	p = path_join(tmpl, "submit.sh");
	s = slurp(p);
	assert_has(s, "--dependency=afterok:$prep shards.sbatch");
	assert_has(s, "--dependency=afterany:$after final.sbatch");
	assert_true(strstr(s, "deferred.sbatch") == NULL);
	free(s);
	free(p);
	p = path_join(tmpl, "run-slurm.sh");
	s = slurp(p);
	assert_has(s, "CPUS=()");
	assert_has(s, "shard-[0-9]*) job_shard");
	free(s);
	free(p);
	sl_free(&written);

	o.defer = "Slow";
	assert_int_equal(launch_write(&o, tmpl, &written), 0);
	assert_int_equal(written.n, 6);
	p = path_join(tmpl, "submit.sh");
	s = slurp(p);
	assert_has(s, "deferred=$(sbatch --parsable --dependency=afterok:$prep deferred.sbatch");
	assert_has(s, "after=$after:$deferred");
	free(s);
	free(p);
	sl_free(&written);
	launch_opts_free(&o);
	char *rm = xasprintf("rm -rf '%s'", tmpl);
	assert_int_equal(system(rm), 0);
	free(rm);
}

static void test_sbatch_quote(void **state)
{
	(void)state;
	char *q = sbatch_quote("p q");
	assert_string_equal(q, "\"p q\"");
	free(q);
	q = sbatch_quote("a\"b\\c#d");
	assert_string_equal(q, "\"a\\\"b\\\\c#d\"");
	free(q);
}

/* Quoted paths in every script; refusals write nothing. */
static void test_hostile_paths(void **state)
{
	char tmpl[] = "/tmp/ngcc-test-launch.XXXXXX";
	struct launch_opts o;
	struct strlist written = STRLIST_INIT;
	(void)state;
	assert_non_null(mkdtemp(tmpl));
	char *dir = xasprintf("%s/w s;$x 100%%/r b;c.shards", tmpl);
	fill(&o, LAUNCH_PARALLEL);
	o.workspace = "/srv/w s;$x";
	o.run = "runs/r b;touch x";
	assert_int_equal(launch_write(&o, dir, &written), 0);
	char *s = slurp(written.items[0]);
	assert_has(s, "WS='/srv/w s;$x'");
	assert_has(s, "RUN=${NGCC_LAUNCH_RUN:-'runs/r b;touch x'}");
	assert_has(s, "parallel --will-cite --quote");
	assert_bash_ok(written.items[0]);
	free(s);
	sl_free(&written);
	launch_opts_free(&o);

	fill(&o, LAUNCH_SLURM);
	o.run = "runs/r b;c";
	assert_int_equal(launch_write(&o, dir, &written), 0);
	char *p = path_join(dir, "shards.sbatch");
	s = slurp(p);
	char *want = xasprintf("#SBATCH --output=\"%s/w s;$x 100%%%%/r b;c.shards/shard-%%a.slurm.out\"",
			       tmpl);
	assert_has(s, want);
	free(want);
	free(s);
	free(p);
	sl_free(&written);

	/* refused: a line break in a value, a backslash in the folder, a run
	 * name with a line break (either engine) */
	o.nodelist = "n1\n#SBATCH --x";
	assert_int_equal(launch_write(&o, tmpl, &written), LAUNCH_REFUSED);
	o.nodelist = NULL;
	char *bs = xasprintf("%s/back\\slash", tmpl);
	assert_int_equal(launch_write(&o, bs, &written), LAUNCH_REFUSED);
	assert_false(path_exists(bs));
	free(bs);
	o.run = "runs/a\nb";
	assert_int_equal(launch_write(&o, tmpl, &written), LAUNCH_REFUSED);
	o.engine = LAUNCH_PARALLEL;
	assert_int_equal(launch_write(&o, tmpl, &written), LAUNCH_REFUSED);
	assert_int_equal(written.n, 0);
	launch_opts_free(&o);
	free(dir);
	char *rm = xasprintf("rm -rf '%s'", tmpl);
	assert_int_equal(system(rm), 0);
	free(rm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_parallel),
		cmocka_unit_test(test_slurm),
		cmocka_unit_test(test_sbatch_quote),
		cmocka_unit_test(test_hostile_paths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
