/*
 * check_main.c — bin/ngcc-perf-check (and bin/ngcc-perf-check-asan, the
 * same sources built with AddressSanitizer and UBSan): run one check suite
 * on one candidate library (`ngcc-perf check`, src/check/).
 *
 *   ngcc-perf-check --lib PATH --suite functional|memcheck|consttime
 *                   [--rounds N] [--first-round R] [--seed-hex HEX]
 *                   [--budget SECONDS] [--progress FILE]
 *                   [--report-path PREFIX] [--cpu N]
 *
 * The suites are in driver/check/ (suite.h); this file parses the options,
 * loads the library, picks the table entry of its type and writes the
 * result: one JSON object on fd 3, or on stdout when fd 3 is not open (a
 * finding's reproduction command run by hand):
 *
 *   {program, suite, status ("complete" or "error"), error, type, tool
 *    ("valgrind", "asan" or "none"), api {pk_bytes, sk_bytes, ct_bytes,
 *    ss_bytes, sig_bytes}, seed_hex, first_round, rounds_planned,
 *    rounds_done, budget_s, budget_reached, seconds, tests [...],
 *    findings [...], findings_dropped}
 *
 * Round r is seeded with the base seed whose last 8 bytes are XORed with
 * r, so `--first-round r --rounds 1` replays one round alone.
 *
 * Exit codes: 0 complete without a failed check, 1 complete with failed
 * checks, 2 usage, load or symbol error, 3 the suite could not start.
 * A crash, sanitizer abort or hang leaves no result; the call that was
 * running is in the --progress page (driver/check/watch.h).
 *
 * This program never runs under our own sanitizers except as the -asan
 * build: valgrind cannot run an AddressSanitizer program.
 */
#include "driver/check/suite.h"
#include "driver/check/watch.h"
#include "driver/child.h"
#include "runtime/ngcc_abi.h"

#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>

/* Leaks are memcheck's job; a SEGV is reported with its stack; UBSan
 * stops at the first error with a stack trace. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0:handle_segv=1:handle_abort=1:print_summary=1";
}

const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "print_stacktrace=1:halt_on_error=1:print_summary=1";
}
#endif

#define PROG "ngcc-perf-check"

enum { EXIT_CLEAN = 0, EXIT_FOUND = 1, EXIT_USAGE_ = 2, EXIT_NOSTART = 3 };

static const char *const suite_names[] = { "functional", "memcheck", "consttime" };
static const long default_rounds[] = { 1000, 3, 2 };

static const struct check_type *const types[] = { &check_type_kem, &check_type_sig,
	&check_type_kex };

struct options {
	const char *lib, *progress, *report_path;
	int tell_valgrind;
	int suite;                 /* -1 until given */
	long rounds, first_round;
	double budget_s;
	int cpu;
	unsigned char seed[CHECK_SEED_LEN];
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: " PROG " --lib PATH --suite functional|memcheck|consttime\n"
		"       [--rounds N] [--first-round R] [--seed-hex HEX] [--budget SECONDS]\n"
		"       [--progress FILE] [--tell-valgrind] [--report-path PREFIX] [--cpu N]\n"
		"Runs one check suite on one candidate library built by `ngcc-perf build`\n"
		"and writes its JSON result on fd 3 (stdout when fd 3 is not open).\n"
		"Exit: 0 clean, 1 failed checks, 2 usage or load error, 3 could not start.\n");
}

/* Exactly CHECK_SEED_LEN bytes of hex. */
static int parse_seed(const char *hex, unsigned char seed[CHECK_SEED_LEN])
{
	size_t n;
	return child_parse_hex(hex, seed, CHECK_SEED_LEN, &n) || n != CHECK_SEED_LEN ? -1 : 0;
}

static int parse_suite(const char *s)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, suite_names[i]))
			return i;
	return -1;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option opts[] = {
		{ "lib", required_argument, NULL, 'l' },
		{ "suite", required_argument, NULL, 's' },
		{ "rounds", required_argument, NULL, 'n' },
		{ "first-round", required_argument, NULL, 'f' },
		{ "seed-hex", required_argument, NULL, 'x' },
		{ "budget", required_argument, NULL, 'b' },
		{ "progress", required_argument, NULL, 'p' },
		{ "report-path", required_argument, NULL, 'r' },
		{ "tell-valgrind", no_argument, NULL, 't' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long v;
	int c;
	memset(o, 0, sizeof *o);
	o->suite = -1;
	o->rounds = -1;
	o->cpu = -1;
	for (int i = 0; i < CHECK_SEED_LEN; i++)
		o->seed[i] = (unsigned char)i;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		int bad = 0;
		switch (c) {
		case 'l': o->lib = optarg; break;
		case 's': bad = (o->suite = parse_suite(optarg)) < 0; break;
		case 'n': bad = child_parse_long(optarg, 1, &o->rounds); break;
		case 'f': bad = child_parse_long(optarg, 0, &o->first_round); break;
		case 'x': bad = parse_seed(optarg, o->seed); break;
		case 'b': bad = child_parse_long(optarg, 0, &v); o->budget_s = (double)v; break;
		case 'p': o->progress = optarg; break;
		case 'r': o->report_path = optarg; break;
		case 't': o->tell_valgrind = 1; break;
		case 'c': bad = child_parse_long(optarg, 0, &v); o->cpu = (int)v; break;
		case 'h': usage(stdout); exit(EXIT_CLEAN);
		default: bad = 1;
		}
		if (bad) {
			if (c != '?')
				fprintf(stderr, PROG ": bad value for option -%c: %s\n", c,
					optarg ? optarg : "");
			usage(stderr);
			return -1;
		}
	}
	if (!o->lib || o->suite < 0 || optind != argc) {
		usage(stderr);
		return -1;
	}
	if (o->rounds < 0)
		o->rounds = default_rounds[o->suite];
	return 0;
}

static const char *tool_name(void)
{
	if (watch_asan_build())
		return "asan";
	return watch_under_valgrind() ? "valgrind" : "none";
}

static json_t *result_json(const struct options *o, const struct check_run *r,
			   const struct ngcc_meta *m, const char *type, const char *error)
{
	char hex[2 * CHECK_SEED_LEN + 1];
	child_hex(o->seed, CHECK_SEED_LEN, hex);
	json_t *j = json_object();
	json_object_set_new(j, "program", json_string(PROG));
	json_object_set_new(j, "suite", json_string(suite_names[o->suite]));
	json_object_set_new(j, "status", json_string(error ? "error" : "complete"));
	json_object_set_new(j, "error", error ? json_string(error) : json_null());
	json_object_set_new(j, "type", type ? json_string(type) : json_null());
	json_object_set_new(j, "tool", json_string(tool_name()));
	json_object_set_new(j, "api", m ? json_pack("{s:I, s:I, s:I, s:I, s:I}",
		"pk_bytes", (json_int_t)m->pk_bytes, "sk_bytes", (json_int_t)m->sk_bytes,
		"ct_bytes", (json_int_t)m->ct_bytes, "ss_bytes", (json_int_t)m->ss_bytes,
		"sig_bytes", (json_int_t)m->sig_bytes) : json_null());
	json_object_set_new(j, "seed_hex", json_string(hex));
	json_object_set_new(j, "first_round", json_integer(o->first_round));
	json_object_set_new(j, "rounds_planned", json_integer(o->rounds));
	json_object_set_new(j, "rounds_done", json_integer(r ? r->rounds_done : 0));
	json_object_set_new(j, "budget_s", json_real(o->budget_s));
	json_object_set_new(j, "budget_reached", json_boolean(r && r->budget_reached));
	json_object_set_new(j, "seconds", json_real(r ? check_now() - r->started : 0));
	json_t *t = r ? tally_json(&r->tally) : json_pack("{s:[], s:[], s:i}", "tests",
		"findings", "findings_dropped", 0);
	json_object_update(j, t);
	json_decref(t);
	return j;
}

static void emit(int fd, const json_t *j)
{
	if (fd >= 0) {
		child_write_result(PROG, fd, j);
		return;
	}
	char *s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	if (s)
		printf("%s\n", s);
	free(s);
}

static const struct check_type *type_of(const struct ngcc_meta *m)
{
	for (size_t i = 0; i < sizeof types / sizeof *types; i++)
		if (types[i]->type == m->type)
			return types[i];
	return NULL;
}

int main(int argc, char **argv)
{
	struct options o;
	if (parse_options(argc, argv, &o))
		return EXIT_USAGE_;
	int fd = child_hide_result_fd();
	if (o.cpu >= 0)
		child_pin_cpu(PROG, o.cpu);
#if defined(__SANITIZE_ADDRESS__)
	if (o.report_path)
		__sanitizer_set_report_path(o.report_path);
#endif
	watch_tell_valgrind(o.tell_valgrind);
	if (o.progress && watch_open_page(o.progress))
		fprintf(stderr, PROG ": cannot map the progress page %s\n", o.progress);

	struct candidate_lib lib;
	char *err = NULL;
	if (candidate_load(o.lib, &lib, &err)) {
		json_t *j = result_json(&o, NULL, NULL, NULL, err ? err : "cannot load the library");
		emit(fd, j);
		json_decref(j);
		free(err);
		return EXIT_USAGE_;
	}
	const struct check_type *t = type_of(lib.meta);
	if (!t) {
		json_t *j = result_json(&o, NULL, lib.meta, NULL,
					"no checks for this candidate type yet (only KEM, signatures and key exchange)");
		emit(fd, j);
		json_decref(j);
		return EXIT_USAGE_;
	}
	struct check_run r;
	memset(&r, 0, sizeof r);
	r.lib = &lib;
	r.suite = (enum check_suite)o.suite;
	r.rounds = o.rounds;
	r.first_round = o.first_round;
	r.budget_s = o.budget_s;
	r.protect_inputs = r.suite == SUITE_MEMCHECK;
	memcpy(r.base_seed, o.seed, CHECK_SEED_LEN);
	r.started = check_now();
	int rc = t->run(&r);
	json_t *j = result_json(&o, &r, lib.meta, t->name,
				rc ? "the suite could not start (see stderr)" : NULL);
	emit(fd, j);
	json_decref(j);
	long failed = tally_failures(&r.tally);
	tally_free(&r.tally);
	/* The library stays loaded: a candidate's destructors are not ours to run. */
	return rc ? EXIT_NOSTART : failed ? EXIT_FOUND : EXIT_CLEAN;
}
