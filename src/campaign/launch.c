/* launch.c — see launch.h: the GNU parallel and Slurm scripts of a sharded
 * campaign.  One bash script holds the jobs (prep, one shard, the deferred
 * worker, final); the engine-specific part only starts them. */
#include "campaign/launch.h"
#include "evidence/names.h"
#include "util/untrusted.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void launch_opts_init(struct launch_opts *o)
{
	memset(o, 0, sizeof *o);
	o->memory_pass = 1;
	o->repeat = 1;
	o->sampling = 1;
}

void launch_opts_free(struct launch_opts *o)
{
	sl_free(&o->cpus);
	sl_free(&o->ids);
	sl_free(&o->pass);
	sl_free(&o->sbatch_extra);
}

/* NAME=(word word ...) */
static void sb_array(struct strbuf *sb, const char *name, const struct strlist *words)
{
	sb_addf(sb, "%s=(", name);
	for (size_t i = 0; i < words->n; i++) {
		char *q = sh_quote(words->items[i]);
		sb_addf(sb, "%s%s", i ? " " : "", q);
		free(q);
	}
	sb_adds(sb, ")\n");
}

static void sb_var(struct strbuf *sb, const char *name, const char *value)
{
	char *q = sh_quote(value ? value : "");
	sb_addf(sb, "%s=%s\n", name, q);
	free(q);
}

static const char *engine_name(const struct launch_opts *o)
{
	return o->engine == LAUNCH_SLURM ? "slurm" : "parallel";
}

/* ---- the jobs, shared by both engines ------------------------------------- */

static void settings(struct strbuf *sb, const struct launch_opts *o, const char *self)
{
	char now[32];
	utc_now_iso(now);
	sb_addf(sb, "# Written by `ngcc-perf launch %s` on %s.  Rerunning a job resumes it:\n"
		"# every ngcc-perf phase skips the work already complete.\n", engine_name(o), now);
	sb_adds(sb, "set -uo pipefail\n");
	sb_var(sb, "SELF", self);
	sb_var(sb, "NGCC", o->ngcc);
	sb_var(sb, "WS", o->workspace);
	/* A machine of --sshlogin measures into a run of its own (below). */
	char *q = sh_quote(o->run);
	sb_addf(sb, "RUN=${NGCC_LAUNCH_RUN:-%s}\n", q);
	free(q);
	sb_addf(sb, "N=%d\n", o->shards);
	sb_array(sb, "IDS", &o->ids);
	sb_array(sb, "CPUS", &o->cpus);
	sb_array(sb, "PASS", &o->pass);
	struct strlist defer = STRLIST_INIT;
	if (o->defer) {
		sl_push(&defer, "--defer");
		sl_push(&defer, o->defer);
	}
	sb_array(sb, "DEFER", &defer);
	sl_free(&defer);
	sb_var(sb, "DEFERRED_CPU", o->deferred_cpu ? o->deferred_cpu : "auto");
	sb_addf(sb, "MEMORY=(%s)\n", o->memory_pass ? "" : "--no-memory-pass");
	sb_addf(sb, "REPEAT=%d\n", o->repeat);
	/* measure's own option: profile would refuse it */
	sb_addf(sb, "SAMPLING=(%s)\n", o->sampling ? "" : "--no-sampling");
}

static const char jobs_text[] =
	"\n"
	"ngcc() { \"$NGCC\" -C \"$WS\" \"$@\"; }\n"
	"# Paths for the shell: the workspace's own rule (relative to it).\n"
	"abs() { case $1 in /*) printf '%s\\n' \"$1\" ;; *) printf '%s\\n' \"$WS/$1\" ;; esac; }\n"
	"# Exit 1 is \"done, some check failed\" (a KAT that did not pass, a\n"
	"# failed record): the campaign goes on.  Anything worse stops it.\n"
	"upto1() {\n"
	"\t\"$@\"\n"
	"\tlocal rc=$?\n"
	"\tif [ \"$rc\" -gt 1 ]; then echo \"ngcc-perf launch: '$*' exited $rc\" >&2; exit \"$rc\"; fi\n"
	"\treturn 0\n"
	"}\n"
	"SHARDS=\"$RUN.shards\"\n"
	"\n"
	"# Build and KAT once, before any shard.\n"
	"job_prep() {\n"
	"\tupto1 ngcc build \"${IDS[@]}\"\n"
	"\tupto1 ngcc kat \"${IDS[@]}\"\n"
	"}\n"
	"\n"
	"# One worker: measure (calibrate, measure, memory pass), then profile,\n"
	"# into its own run directory; its log is kept there as <name>.out.\n"
	"worker() {\n"
	"\tlocal name=$1 cpu=$2; shift 2\n"
	"\tlocal dir=\"$SHARDS/$name\"\n"
	"\tmkdir -p \"$(abs \"$dir\")\"\n"
	"\t{\n"
	"\t\tupto1 ngcc measure \"${IDS[@]}\" --run \"$dir\" --cpu \"$cpu\" \"$@\" \"${DEFER[@]}\" \"${MEMORY[@]}\" \"${SAMPLING[@]}\" \"${PASS[@]}\"\n"
	"\t\tupto1 ngcc profile \"${IDS[@]}\" --run \"$dir\" --cpu \"$cpu\" \"$@\" \"${DEFER[@]}\" \"${PASS[@]}\"\n"
	"\t} 2>&1 | tee \"$(abs \"$dir\")/$name.out\"\n"
	"}\n"
	"\n"
	"# Shard k of N on its CPU (from CPUS, else the first free one).\n"
	"job_shard() {\n"
	"\tlocal k=$1\n"
	"\tworker \"shard-$k\" \"${CPUS[$((k - 1))]:-auto}\" --shard \"$k/$N\"\n"
	"}\n"
	"\n"
	"job_deferred() {\n"
	"\tworker deferred \"$DEFERRED_CPU\" --deferred-only\n"
	"}\n"
	"\n"
	"# Join the shards into $RUN (replacing an earlier merge of them), then\n"
	"# time the repeatability sample again and report, when every unit is\n"
	"# complete, failed for good or deferred.\n"
	"job_final() {\n"
	"\tlocal runs=() d\n"
	"\tfor d in \"$(abs \"$SHARDS\")\"/shard-* \"$(abs \"$SHARDS\")\"/deferred; do\n"
	"\t\t[ -f \"$d/campaign.json\" ] && runs+=(\"$d\")\n"
	"\tdone\n"
	"\tif [ \"${#runs[@]}\" = 0 ]; then echo \"ngcc-perf launch: no shard run in $SHARDS\" >&2; exit 3; fi\n"
	"\tngcc merge \"${runs[@]}\" --into \"$RUN\" --replace || exit $?\n"
	"\tif ngcc status --run \"$RUN\" >\"$(abs \"$RUN\")/status.txt\"; then\n"
	"\t\t# The repeatability sample, as a single campaign times it at its end.\n"
	"\t\tif [ \"$REPEAT\" = 1 ]; then\n"
	"\t\t\tupto1 ngcc measure \"${IDS[@]}\" --run \"$RUN\" --repeat \"${DEFER[@]}\" \"${MEMORY[@]}\" \"${SAMPLING[@]}\" \"${PASS[@]}\"\n"
	"\t\tfi\n"
	"\t\tngcc report --run \"$RUN\"\n"
	"\telse\n"
	"\t\tcat \"$(abs \"$RUN\")/status.txt\"\n"
	"\t\techo \"ngcc-perf launch: $RUN is not settled; no report (rerun the failed jobs)\" >&2\n"
	"\t\texit 1\n"
	"\tfi\n"
	"}\n"
	"\n"
	"# --job prep | shard-K | deferred | final: one job (the engines start these).\n"
	"if [ \"${1:-}\" = --job ]; then\n"
	"\tcase ${2:-} in\n"
	"\tprep) job_prep ;;\n"
	"\tshard-[0-9]*) job_shard \"${2#shard-}\" ;;\n"
	"\tdeferred) job_deferred ;;\n"
	"\tfinal) job_final ;;\n"
	"\t*) echo \"usage: $SELF --job prep|shard-K|deferred|final\" >&2; exit 2 ;;\n"
	"\tesac\n"
	"\texit\n"
	"fi\n";

/* ---- GNU parallel ------------------------------------------------------------- */

static const char parallel_main[] =
	"\n"
	"# The shards (and the deferred worker) as GNU parallel jobs on this\n"
	"# machine, then the final step.\n"
	"this_machine() {\n"
	"\tmkdir -p \"$(abs \"$SHARDS\")\"\n"
	"\tlocal jobs=() k\n"
	"\tfor k in $(seq \"$N\"); do jobs+=(\"shard-$k\"); done\n"
	"\t[ \"${#DEFER[@]}\" = 0 ] || jobs+=(deferred)\n"
	"\t# --quote: parallel runs \"$SELF\" as one word, whatever the path holds\n"
	"\tparallel --will-cite --quote --jobs \"${#jobs[@]}\" --line-buffer --halt never --tag \\\n"
	"\t\t--joblog \"$(abs \"$SHARDS\")/parallel.joblog\" \"$SELF\" --job {} ::: \"${jobs[@]}\"\n"
	"\tjob_final\n"
	"}\n"
	"\n"
	"case ${1:-} in\n"
	"--this-machine)\n"
	"\t# On each machine of --sshlogin: its own system, its own run.\n"
	"\texport NGCC_LAUNCH_RUN=\"$RUN-$(hostname -s)\"\n"
	"\tRUN=$NGCC_LAUNCH_RUN; SHARDS=\"$RUN.shards\"\n"
	"\tthis_machine; exit ;;\n"
	"esac\n"
	"job_prep\n";

static void parallel_script(struct strbuf *sb, const struct launch_opts *o, const char *self)
{
	sb_adds(sb, "#!/usr/bin/env bash\n"
		"# run-parallel.sh — a sharded ngcc-perf campaign on GNU parallel:\n"
		"# build and KAT once, the shards as parallel jobs (each its own run\n"
		"# directory under $RUN.shards/), then merge into $RUN, status, report.\n");
	if (o->sshlogin)
		sb_adds(sb, "# With --sshlogin every machine listed measures every instance as a\n"
			"# system of its own, into $RUN-<its short host name>: the workspace\n"
			"# and ngcc-perf must be at the same paths there (a shared file\n"
			"# system), and the machines should run the same OS image, as the\n"
			"# libraries are built once, here.\n");
	settings(sb, o, self);
	sb_adds(sb, jobs_text);
	sb_adds(sb, parallel_main);
	if (o->sshlogin) {
		sb_var(sb, "LOGINS", o->sshlogin);
		sb_adds(sb, "parallel --will-cite --quote --onall --sshlogin \"$LOGINS\" --line-buffer \"$SELF\" ::: --this-machine\n");
	} else {
		sb_adds(sb, "this_machine\n");
	}
}

/* ---- Slurm ------------------------------------------------------------------------- */

/*
 * One value of an #SBATCH line.  sbatch reads these lines itself, not
 * through a shell: it splits at blanks outside quotes, takes "..." and
 * '...' as quotes, a backslash as an escape, and an unquoted '#' as the
 * start of a comment.  So the value goes in double quotes with '"' and
 * '\' escaped.  A line break cannot be written at all (launch_check()
 * refuses it).
 */
char *sbatch_quote(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addc(&sb, '"');
	for (const char *p = s; *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_addc(&sb, '\\');
		sb_addc(&sb, *p);
	}
	sb_addc(&sb, '"');
	return sb_detach(&sb);
}

/* A path in --output, a file name pattern: '%' is written "%%" so that
 * only our own %a (the array task) is replaced. */
static char *output_pattern(const char *dir, const char *out)
{
	struct strbuf sb = STRBUF_INIT;
	for (const char *p = dir; *p; p++)
		sb_adds(&sb, *p == '%' ? "%%" : (char[]){ *p, 0 });
	sb_addf(&sb, "/%s", out);
	char *pattern = sb_detach(&sb);
	char *q = sbatch_quote(pattern);
	free(pattern);
	return q;
}

static void sbatch_setting(struct strbuf *sb, const char *option, const char *value)
{
	char *q = sbatch_quote(value);
	sb_addf(sb, "#SBATCH %s=%s\n", option, q);
	free(q);
}

static void sbatch_header(struct strbuf *sb, const struct launch_opts *o, const char *name,
			  const char *dir, const char *out)
{
	sb_adds(sb, "#!/usr/bin/env bash\n");
	sb_addf(sb, "#SBATCH --job-name=ngcc-%s\n", name);
	char *pattern = output_pattern(dir, out);
	sb_addf(sb, "#SBATCH --output=%s\n", pattern);
	free(pattern);
	sb_adds(sb, "#SBATCH --nodes=1\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n");
	if (o->partition)
		sbatch_setting(sb, "--partition", o->partition);
	if (o->nodelist)
		sbatch_setting(sb, "--nodelist", o->nodelist);
	if (o->time_limit)
		sbatch_setting(sb, "--time", o->time_limit);
	/* verbatim, as documented: the user writes them as sbatch reads them */
	for (size_t i = 0; i < o->sbatch_extra.n; i++)
		sb_addf(sb, "#SBATCH %s\n", o->sbatch_extra.items[i]);
}

/* What no #SBATCH line can hold: a line break (it would end the line,
 * and the rest would be a command of the job script), and in the output
 * folder a backslash (sbatch reads a pattern holding one literally, and
 * every array task would write the same file). */
static int slurm_refusal(const char *what, const char *value, int in_output)
{
	if (!strpbrk(value, "\n\r") && !(in_output && strchr(value, '\\')))
		return 0;
	char *shown = str_printable(value, 200);
	ngcc_error("launch slurm: %s '%s' holds a %s, which cannot be written into an #SBATCH "
		   "line; use a path or value without it", what, shown,
		   strpbrk(value, "\n\r") ? "line break" : "backslash");
	free(shown);
	return -1;
}

int launch_check(const struct launch_opts *o, const char *dir)
{
	int rc = 0;
	char *problem = path_name_problem("the run name", path_basename(o->run));
	if (problem) {
		char *shown = str_printable(o->run, 200);
		ngcc_error("launch: %s (--run %s)", problem, shown);
		free(shown);
		free(problem);
		rc = -1;
	}
	if (o->engine != LAUNCH_SLURM)
		return rc;
	rc |= slurm_refusal("the scripts' folder", dir, 1);
	rc |= o->partition ? slurm_refusal("--partition", o->partition, 0) : 0;
	rc |= o->nodelist ? slurm_refusal("--nodelist", o->nodelist, 0) : 0;
	rc |= o->time_limit ? slurm_refusal("--time", o->time_limit, 0) : 0;
	for (size_t i = 0; i < o->sbatch_extra.n; i++)
		rc |= slurm_refusal("--sbatch-option", o->sbatch_extra.items[i], 0);
	return rc ? -1 : 0;
}

struct out_file {
	const char *name;
	char *text;
	int executable;
};

static char *sbatch_file(const struct launch_opts *o, const char *dir, const char *name,
			 const char *out, const char *array, const char *job)
{
	struct strbuf sb = STRBUF_INIT;
	sbatch_header(&sb, o, name, dir, out);
	if (array)
		sb_addf(&sb, "#SBATCH --array=%s\n", array);
	char *script = path_join(dir, "run-slurm.sh");
	char *q = sh_quote(script);
	sb_addf(&sb, "# One job of the campaign; submit.sh submits them in order.\n"
		"exec %s %s\n", q, job);
	free(q);
	free(script);
	return sb_detach(&sb);
}

static char *submit_script(const struct launch_opts *o)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "#!/usr/bin/env bash\n"
		"# submit.sh — submit the campaign's Slurm jobs: prep (build, KAT) once;\n"
		"# the shards as one array job after it; the final job (merge, status,\n"
		"# report) after every shard, whatever their exit.  Its job id is\n"
		"# printed and kept in final.jobid.\n"
		"set -euo pipefail\n"
		"cd \"$(dirname \"$0\")\"\n"
		"id() { cut -d';' -f1; }\n"
		"prep=$(sbatch --parsable prep.sbatch | id)\n"
		"shards=$(sbatch --parsable --dependency=afterok:$prep shards.sbatch | id)\n"
		"after=$shards\n");
	if (o->defer)
		sb_adds(&sb, "deferred=$(sbatch --parsable --dependency=afterok:$prep deferred.sbatch | id)\n"
			"after=$after:$deferred\n");
	sb_adds(&sb, "final=$(sbatch --parsable --dependency=afterany:$after final.sbatch | id)\n"
		"echo \"$final\" >final.jobid\n");
	sb_addf(&sb, "echo \"ngcc-perf: submitted prep $prep, shards $shards (array 1-%d)%s, final $final\"\n",
		o->shards, o->defer ? ", deferred $deferred" : "");
	return sb_detach(&sb);
}

static size_t slurm_files(const struct launch_opts *o, const char *dir, struct out_file *f)
{
	size_t n = 0;
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "#!/usr/bin/env bash\n"
		"# run-slurm.sh — the jobs of a sharded ngcc-perf campaign, started by\n"
		"# the .sbatch files (see submit.sh): --job prep|shard-K|deferred|final.\n"
		"# Slurm may place array tasks on any node of the partition: give\n"
		"# `launch slurm --nodelist NODE` so every shard measures the same system\n"
		"# (merge refuses shards of different hosts).\n");
	char *self = path_join(dir, "run-slurm.sh");
	settings(&sb, o, self);
	free(self);
	sb_adds(&sb, jobs_text);
	sb_adds(&sb, "echo \"usage: $SELF --job prep|shard-K|deferred|final\" >&2\nexit 2\n");
	f[n++] = (struct out_file){ "run-slurm.sh", sb_detach(&sb), 1 };
	f[n++] = (struct out_file){ "prep.sbatch", sbatch_file(o, dir, "prep", "prep.out", NULL, "--job prep"), 0 };
	char *array = xasprintf("1-%d", o->shards);
	f[n++] = (struct out_file){ "shards.sbatch", sbatch_file(o, dir, "shard", "shard-%a.slurm.out", array,
								"--job \"shard-$SLURM_ARRAY_TASK_ID\""), 0 };
	free(array);
	if (o->defer)
		f[n++] = (struct out_file){ "deferred.sbatch",
					    sbatch_file(o, dir, "deferred", "deferred.slurm.out", NULL, "--job deferred"), 0 };
	f[n++] = (struct out_file){ "final.sbatch", sbatch_file(o, dir, "final", "final.out", NULL, "--job final"), 0 };
	f[n++] = (struct out_file){ "submit.sh", submit_script(o), 1 };
	return n;
}

/* ---- writing ---------------------------------------------------------------------- */

int launch_write(const struct launch_opts *o, const char *dir, struct strlist *written)
{
	struct out_file files[8];
	size_t n = 0;
	if (launch_check(o, dir))
		return LAUNCH_REFUSED;
	if (o->engine == LAUNCH_PARALLEL) {
		struct strbuf sb = STRBUF_INIT;
		char *self = path_join(dir, "run-parallel.sh");
		parallel_script(&sb, o, self);
		free(self);
		files[n++] = (struct out_file){ "run-parallel.sh", sb_detach(&sb), 1 };
	} else {
		n = slurm_files(o, dir, files);
	}
	int rc = 0;
	if (mkdir_p(dir, 0755)) {
		ngcc_error("launch: cannot create %s: %s", dir, strerror(errno));
		rc = -1;
	}
	for (size_t i = 0; i < n; i++) {
		char *path = path_join(dir, files[i].name);
		if (!rc && (write_file(path, files[i].text, strlen(files[i].text)) ||
			    chmod(path, files[i].executable ? 0755 : 0644))) {
			ngcc_error("launch: cannot write %s: %s", path, strerror(errno));
			rc = -1;
		}
		if (!rc)
			sl_push(written, path);
		free(path);
		free(files[i].text);
	}
	return rc;
}
