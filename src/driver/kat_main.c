/*
 * kat_main.c — bin/ngcc-perf-kat, the KAT child program (docs/method.md §2.2).
 *
 *   ngcc-perf-kat --lib PATH --id ID --label LABEL [--records N]
 *                 [--hash-file TAG | --selftest]
 *                 [--manifest-digest HEX --manifest-mode MODE --manifest-file NAME
 *                  | --reference PATH]
 *
 * A hash library writes one of its four KAT files per run (--hash-file
 * KAT_2_12 | KAT_2_23 | KAT_2_33 | KAT_Loop); an ICCS baseline library its
 * self-test (--selftest).  The environment variables NGCC_PERF_KAT_2_33_BITS
 * and NGCC_PERF_KAT_LOOP_ITERATIONS replace KAT_2_33's 2^33-bit message and
 * KAT_Loop's 10^6 iterations by smaller stand-ins (tests); the log then says
 * so.
 *
 * Loads one candidate library, replays the official KAT driver with
 * katgen, compares the text with the manifest digest or the reference file
 * and reports on the result descriptor (fd 3), because the candidate
 * shares our stdout and stderr:
 *
 *   key = value            metadata, written as soon as it is known
 *   PROGRESS <done> <total>  now and then during a long hash file
 *   TEXT <n>               then exactly n bytes of generated KAT text
 *   RESULT <id> <label> <STATUS> [detail]
 *
 * The exit code is the status (PASS 0 ... LOADFAIL 5).  A process that ends
 * without a RESULT line, whatever its exit code, is a CRASH for the
 * orchestrator: the candidate may have called exit() or crashed.
 */
#include "driver/loader.h"
#include "kat/katcompare.h"
#include "kat/katgen.h"
#include "kat/katgen_hash.h"
#include "kat/katgen_kex.h"
#include "kat/katgen_sig.h"
#include "kat/katlog.h"
#include "proc/spawn.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXIT_BAD_USAGE 125 /* not a status: the orchestrator sees a CRASH */

struct kat_args {
	const char *lib, *id, *label, *reference;
	const char *manifest_digest, *manifest_mode, *manifest_file;
	const char *hash_file;
	int selftest;
	int records;
};

#define KAT_2_33_STAND_IN_ENV "NGCC_PERF_KAT_2_33_BITS"
#define KAT_LOOP_STAND_IN_ENV "NGCC_PERF_KAT_LOOP_ITERATIONS"

/* Where results go: fd 3 when the orchestrator gave us one, else stdout
 * (a person running the program by hand). */
static int result_fd = 1;

static void out_write(const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(result_fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return; /* the orchestrator is gone; nothing to tell */
		data += n;
		len -= (size_t)n;
	}
}

static void out_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	out_write(s, strlen(s));
	free(s);
}

/* One "key = value" line of the result stream (kat/katlog.h). */
static void out_field(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_field(const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *value = xvasprintf(fmt, ap);
	va_end(ap);
	struct strbuf sb = STRBUF_INIT;
	katlog_field(&sb, key, value);
	out_write(sb.buf, sb.len);
	sb_free(&sb);
	free(value);
}

/* RESULT lines are one line: flatten whatever a detail contains. */
static void flatten(char *s)
{
	for (; s && *s; s++)
		if (*s == '\n' || *s == '\r' || *s == '\t')
			*s = ' ';
}

static void __attribute__((noreturn))
finish(const struct kat_args *a, enum kat_status st, char *detail)
{
	flatten(detail);
	/* What the candidate printed is diagnostic output worth keeping; the
	 * official driver's exit() would flush it too. */
	fflush(NULL);
	char *line = katlog_result_line(a->id, a->label, kat_status_name(st),
					detail && *detail ? detail : NULL);
	out_printf("%s\n", line);
	free(line);
	free(detail);
	/* _exit: a candidate's atexit handlers or destructors must not get
	 * the last word on our exit code. */
	_exit((int)st);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ngcc-perf-kat --lib PATH --id ID --label LABEL [--records N]\n"
		"         [--hash-file KAT_2_12|KAT_2_23|KAT_2_33|KAT_Loop | --selftest]\n"
		"         [--manifest-digest HEX --manifest-mode strict|nolen[:N] --manifest-file NAME\n"
		"          | --reference PATH]\n"
		"\n"
		"Child program of `ngcc-perf kat`: loads one candidate library, replays the\n"
		"official KAT driver (a hash: one of its four files; an ICCS baseline\n"
		"library: its self-test) and compares the text with the reference.  Results go\n"
		"to fd 3 (stdout if fd 3 is not open); exit code = status: PASS 0,\n"
		"MISMATCH 1, NOKAT 2, CRYPTOFAIL 3, OVERFLOW 4, LOADFAIL 5.\n");
}

static int parse_args(int argc, char **argv, struct kat_args *a)
{
	static const struct option opts[] = {
		{ "lib", required_argument, NULL, 'l' },
		{ "id", required_argument, NULL, 'i' },
		{ "label", required_argument, NULL, 'L' },
		{ "records", required_argument, NULL, 'n' },
		{ "manifest-digest", required_argument, NULL, 'd' },
		{ "manifest-mode", required_argument, NULL, 'm' },
		{ "manifest-file", required_argument, NULL, 'f' },
		{ "reference", required_argument, NULL, 'r' },
		{ "hash-file", required_argument, NULL, 'H' },
		{ "selftest", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	memset(a, 0, sizeof *a);
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'l': a->lib = optarg; break;
		case 'i': a->id = optarg; break;
		case 'L': a->label = optarg; break;
		case 'n': a->records = atoi(optarg); break;
		case 'd': a->manifest_digest = optarg; break;
		case 'm': a->manifest_mode = optarg; break;
		case 'f': a->manifest_file = optarg; break;
		case 'r': a->reference = optarg; break;
		case 'H': a->hash_file = optarg; break;
		case 'S': a->selftest = 1; break;
		case 'h': usage(stdout); exit(0);
		default: return -1;
		}
	}
	if (optind != argc || !a->lib || !a->id || !a->label)
		return -1;
	if (a->reference && a->manifest_digest)
		return -1;
	if (!!a->manifest_digest != !!a->manifest_mode)
		return -1;
	if (a->hash_file && (a->selftest || katgen_hash_file_parse(a->hash_file) < 0))
		return -1;
	return 0;
}

static void write_metadata(const struct kat_args *a, const struct ngcc_meta *m)
{
	out_field("instance", "%s", m->instance ? m->instance : "");
	out_field("variant", "%s", m->variant ? m->variant : "");
	out_field("flags", "%s", m->flags ? m->flags : "");
	out_field("compiler", "%s", m->compiler ? m->compiler : "");
	out_field("runtime", "%s", m->runtime ? m->runtime : "");
	switch (m->type) {
	case NGCC_TYPE_HASH:
		out_field("digest_bits", "%d", m->digest_bits);
		break;
	case NGCC_TYPE_SIG:
		out_field("pk_bytes", "%llu", m->pk_bytes);
		out_field("sk_bytes", "%llu", m->sk_bytes);
		out_field("sig_bytes", "%llu", m->sig_bytes);
		break;
	case NGCC_TYPE_KEX:
		out_field("pk_bytes", "%llu", m->pk_bytes);
		out_field("sk_bytes", "%llu", m->sk_bytes);
		out_field("ss_bytes", "%llu", m->ss_bytes);
		out_field("sta_bytes", "%llu", m->sta_bytes);
		out_field("stb_bytes", "%llu", m->stb_bytes);
		out_field("msg_bytes", "%llu", m->msg_bytes);
		out_field("passes", "%llu", m->passes);
		break;
	default:
		out_field("pk_bytes", "%llu", m->pk_bytes);
		out_field("sk_bytes", "%llu", m->sk_bytes);
		out_field("ct_bytes", "%llu", m->ct_bytes);
		out_field("ss_bytes", "%llu", m->ss_bytes);
	}
	if (m->label && *m->label && strcmp(m->label, a->label))
		out_field("library_label", "%s", m->label);
}

static enum kat_status compare(const struct kat_args *a,
			       const struct kat_mode *mode,
			       const struct strbuf *text, char **detail)
{
	if (a->manifest_digest) {
		struct kat_manifest_entry e = { .mode = *mode };
		snprintf(e.digest, sizeof e.digest, "%s", a->manifest_digest);
		for (char *p = e.digest; *p; p++)
			*p = (char)(*p >= 'A' && *p <= 'F' ? *p - 'A' + 'a' : *p);
		e.file = (char *)(a->manifest_file ? a->manifest_file : "kat.sha256");
		return kat_compare_digest(text->buf, text->len, &e, detail);
	}
	if (a->reference) {
		char *ref = NULL;
		size_t len = 0;
		if (read_file(a->reference, &ref, &len) != 0) {
			*detail = xasprintf("cannot read the reference %s: %s",
					    a->reference, strerror(errno));
			return KAT_NOKAT;
		}
		enum kat_status st = a->hash_file || a->selftest
			? kat_compare_hash_reference(text->buf, text->len, ref, len, detail)
			: kat_compare_reference(text->buf, text->len, ref, len, a->records > 0,
						detail);
		free(ref);
		return st;
	}
	*detail = xstrdup("no reference KAT: no kat.sha256 entry and no kat_reference");
	return KAT_NOKAT;
}

static enum kat_status run_kem(const struct candidate_lib *lib, const struct kat_args *a,
			       int records, struct strbuf *text, char **detail)
{
	(void)a;
	struct kem_api api = {
		.pk_bytes = lib->meta->pk_bytes,
		.sk_bytes = lib->meta->sk_bytes,
		.ct_bytes = lib->meta->ct_bytes,
		.ss_bytes = lib->meta->ss_bytes,
		.seed = lib->seed,
		.keygen = lib->kem_keygen,
		.enc = lib->kem_enc,
		.dec = lib->kem_dec,
	};
	return katgen_kem(&api, records, text, detail);
}

/* "PROGRESS <done> <total>" lines for the orchestrator's progress line,
 * at most one per percent. */
static void hash_progress(void *arg, unsigned long long done, unsigned long long total)
{
	static unsigned long long last_pct = ~0ULL;
	unsigned long long pct = total ? done * 100 / total : 0;
	(void)arg;
	if (pct == last_pct && done != total)
		return;
	last_pct = pct;
	out_printf("PROGRESS %llu %llu\n", done, total);
}

/* A stand-in for an official size, from the environment variable env
 * (tests): a decimal number from lo to hi and a multiple of step, else 0
 * (unset, or not such a number: said on stderr, with `expected`, and the
 * official size is used).  Recorded in the metadata as meta ("N (stand-in
 * for <official>, from <env>)"), so a log never passes it off as the
 * official file. */
static unsigned long long stand_in(const char *env, unsigned long long lo, unsigned long long hi,
				   unsigned long long step, const char *expected, const char *meta)
{
	const char *v = getenv(env);
	if (!v || !*v)
		return 0;
	char *end = NULL;
	unsigned long long n = strtoull(v, &end, 10);
	if (*end || *v == '-' || n < lo || n > hi || n % step) {
		ngcc_error("%s=%s: expected %s", env, v, expected);
		return 0;
	}
	out_field(meta, "%llu (stand-in for %llu, from %s)", n, hi, env);
	return n;
}

/* NGCC_PERF_KAT_2_33_BITS: KAT_2_33's message, a multiple of 64 bits up
 * to the official 2^33. */
static unsigned long long kat_2_33_stand_in(void)
{
	return stand_in(KAT_2_33_STAND_IN_ENV, 64, 1ULL << 33, 64,
			"a multiple of 64 bits up to 8589934592; using the official length",
			"kat_2_33_bits");
}

/* NGCC_PERF_KAT_LOOP_ITERATIONS: KAT_Loop's iterations, 1 to the official
 * 10^6. */
static unsigned long kat_loop_stand_in(void)
{
	return (unsigned long)stand_in(KAT_LOOP_STAND_IN_ENV, 1, KAT_HASH_LOOP_ITERATIONS, 1,
				       "an iteration count from 1 to 1000000; using the official count",
				       "kat_loop_iterations");
}

/* A hash: one KAT file (--hash-file), or the ICCS baseline's self-test. */
static enum kat_status run_hash(const struct candidate_lib *lib, const struct kat_args *a,
				int records, struct strbuf *text, char **detail)
{
	struct hash_api api = {
		.digest_bits = lib->meta->digest_bits,
		.hash = lib->hash,
		.progress = hash_progress,
	};
	(void)records;
	if (a->selftest)
		return katgen_hash_selftest(&api, text, detail);
	if (!a->hash_file) {
		*detail = xstrdup("a hash library needs --hash-file (or --selftest)");
		return KAT_NOKAT;
	}
	int f = katgen_hash_file_parse(a->hash_file);
	out_field("hash_file", "%s", a->hash_file);
	if (f == HASH_KAT_2_33)
		api.kat_2_33_bits = kat_2_33_stand_in();
	else if (f == HASH_KAT_LOOP)
		api.loop_iterations = kat_loop_stand_in();
	return katgen_hash(&api, (enum hash_kat_file)f, text, detail);
}

static enum kat_status run_sig(const struct candidate_lib *lib, const struct kat_args *a,
			       int records, struct strbuf *text, char **detail)
{
	struct sig_api api = {
		.pk_bytes = lib->meta->pk_bytes,
		.sk_bytes = lib->meta->sk_bytes,
		.sn_bytes = lib->meta->sig_bytes,
		.seed = lib->seed,
		.keygen = lib->sig_keygen,
		.sign = lib->sig_sign,
		.verify = lib->sig_verify,
	};
	(void)a;
	return katgen_sig(&api, records, text, detail);
}

static enum kat_status run_kex(const struct candidate_lib *lib, const struct kat_args *a,
			       int records, struct strbuf *text, char **detail)
{
	const struct ngcc_meta *m = lib->meta;
	(void)a;
	struct kex_api api = {
		.passes = m->passes,
		.pk_bytes = m->pk_bytes,
		.sk_bytes = m->sk_bytes,
		.sta_bytes = m->sta_bytes,
		.stb_bytes = m->stb_bytes,
		.ss_bytes = m->ss_bytes,
		.msg_bytes = m->msg_bytes,
		.seed = lib->seed,
		.init_a = lib->kex_init_a,
		.init_b = lib->kex_init_b,
		.pass1 = lib->kex_pass1,
		.derive_a = lib->kex_derive_a,
		.derive_b = lib->kex_derive_b,
	};
	for (int k = 2; k <= KAT_KEX_MAX_PASSES && k <= NGCC_KEX_MAX_PASSES; k++)
		api.pass[k] = lib->kex_pass[k];
	return katgen_kex(&api, records, text, detail);
}

/* The KAT replay of each library type (ABI number of runtime/ngcc_abi.h);
 * a type without a row is NOKAT.  A new type adds its katgen_<type> and a
 * row here. */
typedef enum kat_status (*kat_replay_fn)(const struct candidate_lib *lib,
					 const struct kat_args *a, int records,
					 struct strbuf *text, char **detail);
static const struct {
	int type;
	kat_replay_fn run;
} replays[] = {
	{ NGCC_TYPE_KEM, run_kem },
	{ NGCC_TYPE_SIG, run_sig },
	{ NGCC_TYPE_KEX, run_kex },
	{ NGCC_TYPE_HASH, run_hash },
};

static kat_replay_fn replay_of(int type)
{
	for (size_t i = 0; i < sizeof replays / sizeof replays[0]; i++)
		if (replays[i].type == type)
			return replays[i].run;
	return NULL;
}

int main(int argc, char **argv)
{
	struct kat_args a;
	ngcc_set_progname("ngcc-perf-kat");
	if (parse_args(argc, argv, &a) != 0) {
		usage(stderr);
		return EXIT_BAD_USAGE;
	}
	if (fcntl(SPAWN_RESULT_FD, F_GETFD) != -1)
		result_fd = SPAWN_RESULT_FD;

	struct kat_mode mode = { 0, 0 };
	if (a.manifest_mode && kat_mode_parse(a.manifest_mode, &mode) != 0) {
		ngcc_error("--manifest-mode %s: expected strict or nolen, optionally :N",
			   a.manifest_mode);
		return EXIT_BAD_USAGE;
	}
	/* The manifest's :N fixes how many records we generate. */
	int records = mode.records ? mode.records
		      : a.records > 0 ? a.records : KAT_DEFAULT_RECORDS;
	if (!a.hash_file && !a.selftest) /* hash files have no records */
		out_field("records", "%d", records);
	if (a.manifest_digest)
		out_field("manifest", "%s %s %s", a.manifest_digest, a.manifest_mode,
			  a.manifest_file ? a.manifest_file : "");
	else if (a.reference)
		out_field("reference", "%s", a.reference);

	struct candidate_lib lib;
	char *err = NULL;
	if (candidate_load(a.lib, &lib, &err) != 0)
		finish(&a, KAT_LOADFAIL, err);
	write_metadata(&a, lib.meta);
	kat_replay_fn replay = replay_of(lib.meta->type);
	if (!replay)
		finish(&a, KAT_NOKAT,
		       xasprintf("no KAT generator for library type %d yet", lib.meta->type));

	struct strbuf text = STRBUF_INIT;
	char *detail = NULL;
	enum kat_status st = replay(&lib, &a, records, &text, &detail);
	out_printf("TEXT %zu\n", text.len);
	out_write(text.buf ? text.buf : "", text.len);
	if (st == KAT_PASS)
		st = compare(&a, &mode, &text, &detail);
	sb_free(&text);
	finish(&a, st, detail);
}
