/*
 * conf.c — read and write candidate.conf (see conf.h for the format).
 *
 * The file is meant to be edited by hand between `add` and `build`, so the
 * reader is forgiving about layout (comments, blank lines, any key order,
 * blanks around '=' and at line ends) and strict about content: unknown
 * keys, bad values and duplicates are errors reported as "path:line: what",
 * because silently ignoring a typo would build the wrong thing.
 */
#include "package/conf.h"
#include "evidence/names.h"
#include "method/baseline.h"
#include "util/atomic.h"
#include "util/untrusted.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const conf_types[] = { "kem", "sign", "kex", "hash", NULL };

static int in_set(const char *v, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(v, *set))
			return 1;
	return 0;
}

/* ---- building blocks ---- */

enum cpu_ext conf_cpu_ext(const struct instance_conf *ic)
{
	int e = cpu_ext_parse(ic->cpu_extension);
	return e >= 0 ? (enum cpu_ext)e : variant_implied_ext(ic->variant);
}

struct instance_conf *conf_add_instance(struct candidate_conf *c, const char *label)
{
	c->inst = xrealloc(c->inst, (c->n_inst + 1) * sizeof(*c->inst));
	struct instance_conf *in = &c->inst[c->n_inst++];
	memset(in, 0, sizeof(*in));
	in->label = xstrdup(label);
	in->enabled = 1;
	return in;
}

struct instance_conf *conf_find_instance(struct candidate_conf *c, const char *label)
{
	for (size_t i = 0; i < c->n_inst; i++)
		if (!strcmp(c->inst[i].label, label))
			return &c->inst[i];
	return NULL;
}

static int lists_equal(const struct strlist *a, const struct strlist *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->items[i], b->items[i]))
			return 0;
	return 1;
}

static int str_equal(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

void conf_instance_differences(const struct instance_conf *a, const struct instance_conf *b,
			       struct strlist *out)
{
	struct { const char *key; int same; } k[] = {
		{ "variant", str_equal(a->variant, b->variant) },
		{ "instance", str_equal(a->instance, b->instance) },
		{ "source_dir", str_equal(a->source_dir, b->source_dir) },
		{ "api_header", str_equal(a->api_header, b->api_header) },
		{ "source", lists_equal(&a->sources, &b->sources) },
		{ "include", lists_equal(&a->include_dirs, &b->include_dirs) },
		{ "cflag", lists_equal(&a->cflags, &b->cflags) },
		{ "define", lists_equal(&a->defines, &b->defines) },
		{ "lib", lists_equal(&a->libs, &b->libs) },
		{ "kat_reference", str_equal(a->kat_reference, b->kat_reference) },
		{ "kat_file", lists_equal(&a->kat_files, &b->kat_files) },
		{ "enabled", a->enabled == b->enabled },
		{ "own_drng", a->own_drng == b->own_drng },
		{ "own_auxfunc", a->own_auxfunc == b->own_auxfunc },
	};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
		if (!k[i].same)
			sl_push(out, k[i].key);
}

static void instance_free(struct instance_conf *in)
{
	free(in->label);
	free(in->type);
	free(in->variant);
	free(in->cpu_extension);
	free(in->instance);
	free(in->source_dir);
	free(in->api_header);
	sl_free(&in->sources);
	sl_free(&in->include_dirs);
	sl_free(&in->cflags);
	sl_free(&in->defines);
	sl_free(&in->libs);
	free(in->kat_reference);
	sl_free(&in->kat_files);
	sl_free(&in->origins);
}

void conf_free(struct candidate_conf *c)
{
	if (!c)
		return;
	free(c->id);
	free(c->algorithm);
	free(c->type);
	free(c->package);
	for (size_t i = 0; i < c->n_inst; i++)
		instance_free(&c->inst[i]);
	free(c->inst);
	for (size_t i = 0; i < c->n_patches; i++) {
		free(c->patches[i].file);
		free(c->patches[i].sha256);
		sl_free(&c->patches[i].touches);
	}
	free(c->patches);
	memset(c, 0, sizeof(*c));
}

/* ---- reader ---- */

struct reader {
	const char *path;
	int line;
	char *err;               /* first error, "path:line: what" */
	struct candidate_conf *c;
	struct instance_conf *cur; /* NULL: in [candidate] or before any section */
	struct patch_conf *patch;  /* in a [patch NAME] section */
	int in_candidate;
	int section_line;        /* line of the current section header */
	int candidate_line;      /* line of [candidate], 0 if absent */
};

static int fail(struct reader *r, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct reader *r, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *what = xvasprintf(fmt, ap);
	va_end(ap);
	if (!r->err)
		r->err = xasprintf("%s:%d: %s", r->path, line, what);
	free(what);
	return -1;
}

static int parse_bool(const char *v, int *out)
{
	if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcmp(v, "1")) {
		*out = 1;
		return 0;
	}
	if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcmp(v, "0")) {
		*out = 0;
		return 0;
	}
	return -1;
}

/* A scalar may be given once per section: a second value is most likely a
 * copy-and-paste slip, so it is an error rather than last-one-wins. */
static int set_scalar(struct reader *r, char **slot, const char *key, const char *v)
{
	if (*slot)
		return fail(r, r->line, "duplicate key '%s' (it takes one value)", key);
	if (*v) /* "key =" with nothing after it means "not set" */
		*slot = xstrdup(v);
	return 0;
}

static int set_bool(struct reader *r, int *slot, int *seen, const char *key, const char *v)
{
	if (*seen)
		return fail(r, r->line, "duplicate key '%s' (it takes one value)", key);
	if (parse_bool(v, slot))
		return fail(r, r->line, "'%s' must be yes or no, not '%s'", key, v);
	*seen = 1;
	return 0;
}

/* `type` of [candidate] and of an instance: one of conf_types. */
static int set_type(struct reader *r, char **slot, const char *key, const char *v)
{
	if (!in_set(v, conf_types))
		return fail(r, r->line, "type '%s' is not one of kem, sign, kex, hash", v);
	return set_scalar(r, slot, key, v);
}

static int candidate_key(struct reader *r, const char *key, const char *v)
{
	struct candidate_conf *c = r->c;
	if (!strcmp(key, "id"))
		return set_scalar(r, &c->id, key, v);
	if (!strcmp(key, "algorithm"))
		return set_scalar(r, &c->algorithm, key, v);
	if (!strcmp(key, "type"))
		return set_type(r, &c->type, key, v);
	if (!strcmp(key, "package"))
		return set_scalar(r, &c->package, key, v);
	return fail(r, r->line, "unknown key '%s' in [candidate] (known: id, algorithm, type, package)", key);
}

/* Which booleans of the current instance were given (for duplicates). */
struct seen_bools {
	int own_drng, own_auxfunc, enabled, digest_bits;
};

/* digest_bits: a positive number of bits (docs/iccs.md §1.2). */
static int set_digest_bits(struct reader *r, struct seen_bools *seen, int *slot, const char *v)
{
	char *end = NULL;
	long bits = strtol(v, &end, 10);
	if (seen->digest_bits)
		return fail(r, r->line, "duplicate key 'digest_bits' (it takes one value)");
	seen->digest_bits = 1;
	if (!*v)
		return 0;
	if (*end || bits < 1 || bits > 65536)
		return fail(r, r->line, "digest_bits must be a number of bits from 1 to 65536, not '%s'", v);
	*slot = (int)bits;
	return 0;
}

static int instance_key(struct reader *r, struct seen_bools *seen, const char *key, const char *v)
{
	struct instance_conf *in = r->cur;
	if (!strcmp(key, "type"))
		return set_type(r, &in->type, key, v);
	if (!strcmp(key, "variant")) {
		if (!variant_known(v))
			return fail(r, r->line, "variant '%s' is not one of reference, optimized-avx2, "
				    "optimized-avx512, optimized-neon, optimized-portable, additional, "
				    "iccs-baseline", v);
		return set_scalar(r, &in->variant, key, v);
	}
	if (!strcmp(key, "cpu_extension")) {
		if (cpu_ext_parse(v) < 0)
			return fail(r, r->line, "cpu_extension '%s' is not one of none, avx2, avx512, "
				    "neon", v);
		return set_scalar(r, &in->cpu_extension, key, v);
	}
	if (!strcmp(key, "instance"))
		return set_scalar(r, &in->instance, key, v);
	if (!strcmp(key, "source_dir"))
		return set_scalar(r, &in->source_dir, key, v);
	if (!strcmp(key, "api_header"))
		return set_scalar(r, &in->api_header, key, v);
	if (!strcmp(key, "kat_reference"))
		return set_scalar(r, &in->kat_reference, key, v);
	if (!strcmp(key, "digest_bits"))
		return set_digest_bits(r, seen, &in->digest_bits, v);
	int is_list = !strcmp(key, "source") || !strcmp(key, "include") ||
		      !strcmp(key, "cflag") || !strcmp(key, "define") || !strcmp(key, "lib") ||
		      !strcmp(key, "kat_file");
	if (is_list && !*v)
		return fail(r, r->line, "'%s' needs a value (delete the line instead)", key);
	if (!strcmp(key, "source"))
		return sl_push(&in->sources, v), 0;
	if (!strcmp(key, "include"))
		return sl_push(&in->include_dirs, v), 0;
	if (!strcmp(key, "cflag"))
		return sl_push(&in->cflags, v), 0;
	if (!strcmp(key, "define"))
		return sl_push(&in->defines, v), 0;
	if (!strcmp(key, "lib"))
		return sl_push(&in->libs, v), 0;
	if (!strcmp(key, "kat_file"))
		return sl_push(&in->kat_files, v), 0;
	if (!strcmp(key, "own_drng"))
		return set_bool(r, &in->own_drng, &seen->own_drng, key, v);
	if (!strcmp(key, "own_auxfunc"))
		return set_bool(r, &in->own_auxfunc, &seen->own_auxfunc, key, v);
	if (!strcmp(key, "enabled"))
		return set_bool(r, &in->enabled, &seen->enabled, key, v);
	return fail(r, r->line, "unknown key '%s' in [instance %s]", key, in->label);
}

/* Checks that need the whole section: run when it ends. */
static int finish_instance(struct reader *r)
{
	struct instance_conf *in = r->cur;
	if (!in)
		return 0;
	if (!in->type)
		return fail(r, r->section_line, "[instance %s] has no 'type'", in->label);
	if (!in->variant)
		in->variant = xstrdup("reference");
	if (!in->source_dir)
		return fail(r, r->section_line, "[instance %s] has no 'source_dir'", in->label);
	if (in->enabled && !in->sources.n)
		return fail(r, r->section_line,
			    "[instance %s] is enabled but lists no 'source' (add source = FILE lines or set enabled = no)",
			    in->label);
	int hash = !strcmp(in->type, "hash");
	if (!hash && (in->kat_files.n || in->digest_bits))
		return fail(r, r->section_line,
			    "[instance %s]: 'kat_file' and 'digest_bits' are for hash instances "
			    "(a %s instance names its KAT file with kat_reference)", in->label, in->type);
	/* An ICCS baseline instance's kat_reference is its self-test. */
	if (hash && in->kat_reference && strcmp(in->variant, BASELINE_VARIANT))
		return fail(r, r->section_line,
			    "[instance %s]: a hash instance lists its KAT files with 'kat_file' lines, "
			    "not 'kat_reference'", in->label);
	return 0;
}

/* ---- [patch FILE] ---- */

int conf_patch_name_valid(const char *name)
{
	size_t n = strlen(name);
	if (!n || n > 128 || name[0] == '.')
		return 0;
	for (const char *p = name; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-", *p))
			return 0;
	return 1;
}

static int patch_section(struct reader *r, const char *file)
{
	for (size_t i = 0; i < r->c->n_patches; i++)
		if (!strcmp(r->c->patches[i].file, file))
			return fail(r, r->line, "patch '%s' is recorded twice", file);
	if (!conf_patch_name_valid(file))
		return fail(r, r->line, "[patch %s]: expected the file name in patches/ (letters, "
			    "digits, '.', '_', '+', '-')", file);
	r->c->patches = xrealloc(r->c->patches, (r->c->n_patches + 1) * sizeof *r->c->patches);
	r->patch = &r->c->patches[r->c->n_patches++];
	memset(r->patch, 0, sizeof *r->patch);
	r->patch->file = xstrdup(file);
	return 0;
}

static int is_sha256_hex(const char *v)
{
	size_t n = 0;
	for (; v[n]; n++)
		if (!strchr("0123456789abcdef", v[n]))
			return 0;
	return n == 64;
}

static int patch_key(struct reader *r, const char *key, const char *v)
{
	if (!strcmp(key, "sha256")) {
		if (!is_sha256_hex(v))
			return fail(r, r->line, "sha256 must be 64 lowercase hex digits");
		return set_scalar(r, &r->patch->sha256, key, v);
	}
	if (!strcmp(key, "touches")) {
		if (!*v)
			return fail(r, r->line, "'touches' needs a value (delete the line instead)");
		return sl_push(&r->patch->touches, v), 0;
	}
	return fail(r, r->line, "unknown key '%s' in [patch %s] (known: sha256, touches)", key,
		    r->patch->file);
}

static int finish_patch(struct reader *r)
{
	if (r->patch && !r->patch->sha256)
		return fail(r, r->section_line, "[patch %s] has no 'sha256'", r->patch->file);
	return 0;
}

/* A label names lib<label>.so and <label>__<op>.json: the path-name rule
 * (evidence/names.h), and no brackets, which end the section header. */
static int valid_label(const char *s)
{
	return !path_name_check(s, NULL) && !strpbrk(s, "[]");
}

static int section_header(struct reader *r, char *line, struct seen_bools *seen)
{
	size_t n = strlen(line);
	if (line[n - 1] != ']')
		return fail(r, r->line, "section header lacks its closing ']'");
	line[n - 1] = '\0';
	char *name = str_trim(line + 1);
	if (finish_instance(r))
		return -1;
	if (finish_patch(r))
		return -1;
	r->cur = NULL;
	r->patch = NULL;
	r->in_candidate = 0;
	r->section_line = r->line;
	memset(seen, 0, sizeof(*seen));
	if (!strcmp(name, "candidate")) {
		if (r->candidate_line)
			return fail(r, r->line, "[candidate] is given twice (first on line %d)", r->candidate_line);
		r->in_candidate = 1;
		r->candidate_line = r->line;
		return 0;
	}
	if (!strncmp(name, "patch", 5) && (name[5] == ' ' || name[5] == '\t'))
		return patch_section(r, str_trim(name + 6));
	if (strncmp(name, "instance", 8) || (name[8] != ' ' && name[8] != '\t'))
		return fail(r, r->line, "unknown section '[%s]' (expected [candidate], [patch FILE] "
			    "or [instance LABEL])", name);
	char *label = str_trim(name + 9);
	if (!valid_label(label))
		return fail(r, r->line, "invalid instance label '%s' (a label names files: 1 to %d bytes of "
			    "UTF-8 without '/', '[', ']', control characters or a leading '.')", label,
			    NAME_PART_MAX);
	if (conf_find_instance(r->c, label))
		return fail(r, r->line, "instance '%s' is defined twice", label);
	r->cur = conf_add_instance(r->c, label);
	return 0;
}

static int parse_line(struct reader *r, char *raw, struct seen_bools *seen)
{
	size_t n = strlen(raw);
	if (n && raw[n - 1] == '\r')
		raw[n - 1] = '\0'; /* CRLF line ends from an editor */
	for (const char *p = raw; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\t')
			return fail(r, r->line, "control character 0x%02x in the line; "
				    "candidate.conf values are one line of text", (unsigned char)*p);
	char *line = str_trim(raw);
	if (!*line || *line == '#' || *line == ';')
		return 0;
	if (*line == '[')
		return section_header(r, line, seen);
	char *eq = strchr(line, '=');
	if (!eq)
		return fail(r, r->line, "expected 'key = value', a [section] or a # comment");
	*eq = '\0';
	char *key = str_trim(line), *value = str_trim(eq + 1);
	if (!*key)
		return fail(r, r->line, "missing key before '='");
	if (r->in_candidate)
		return candidate_key(r, key, value);
	if (r->cur)
		return instance_key(r, seen, key, value);
	if (r->patch)
		return patch_key(r, key, value);
	return fail(r, r->line, "key '%s' outside any section (start with [candidate])", key);
}

static int finish_candidate(struct reader *r)
{
	if (!r->candidate_line)
		return fail(r, 1, "no [candidate] section (it needs at least 'id = ...')");
	if (!r->c->id)
		return fail(r, r->candidate_line, "[candidate] has no 'id'");
	if (!r->c->type && r->c->n_inst)
		r->c->type = xstrdup(r->c->inst[0].type);
	return 0;
}

int conf_read(const char *path, struct candidate_conf *out, char **err)
{
	char *data;
	memset(out, 0, sizeof(*out));
	*err = NULL;
	size_t len;
	if (read_file(path, &data, &len)) {
		*err = xasprintf("%s: cannot read: %s", path, io_strerror(errno));
		return -1;
	}
	const char *nul = memchr(data, '\0', len);
	if (nul) {
		int line = 1;
		for (const char *p = data; p < nul; p++)
			line += *p == '\n';
		*err = xasprintf("%s:%d: a NUL byte; candidate.conf is a text file (was it "
				 "saved by a word processor?)", path, line);
		free(data);
		return -1;
	}
	struct reader r = { .path = path, .c = out };
	struct seen_bools seen = { 0 };
	char *save = data;
	int rc = 0;
	/* a UTF-8 byte-order mark left by some editors */
	char *start = data + utf8_bom_len(data, len);
	/* Split by hand: strtok would merge empty lines and shift numbers. */
	for (char *p = start; p && !rc;) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		r.line++;
		rc = parse_line(&r, p, &seen);
		p = nl ? nl + 1 : NULL;
	}
	if (!rc)
		rc = finish_instance(&r);
	if (!rc)
		rc = finish_patch(&r);
	if (!rc)
		rc = finish_candidate(&r);
	free(save);
	if (rc) {
		*err = r.err;
		conf_free(out);
		return -1;
	}
	return 0;
}

/* ---- writer ---- */

static const char conf_header[] =
	"# candidate.conf — written by `ngcc-perf add`; edit freely, then run\n"
	"# `ngcc-perf build`.  Lines are `key = value`; '#' starts a comment line;\n"
	"# values run to the end of the line (paths may contain spaces).\n"
	"#\n"
	"# [candidate]\n"
	"#   id          workspace id (candidates/<id>/), e.g. kem-27\n"
	"#   algorithm   algorithm name shown in reports\n"
	"#   type        kem | sign | kex | hash\n"
	"#   package     the package given to `add` (for the record)\n"
	"#\n"
	"# [instance LABEL]   one per parameter set; LABEL is the instance folder's\n"
	"#                    name and names the library lib<LABEL>.so\n"
	"#   type          kem | sign | kex | hash\n"
	"#   variant       reference | optimized-avx2 | optimized-avx512 |\n"
	"#                 optimized-neon | optimized-portable | additional |\n"
	"#                 iccs-baseline (the build name adds +avx2, +avx512,\n"
	"#                 +neon, +portable or +additional to the label)\n"
	"#   cpu_extension none | avx2 | avx512 | neon: what the code needs (found\n"
	"#                 from its intrinsics); default: the variant's\n"
	"#   instance      ALGORITHM_INSTANCE (names the KAT file)\n"
	"#   source_dir    instance folder, relative to candidates/<id>/source/\n"
	"#   api_header    the ICCS API header, relative to source_dir\n"
	"#   source        one line per file compiled, relative to source_dir\n"
	"#   include       one line per -I folder, relative to source_dir\n"
	"#   cflag         extra compiler flag, one per line\n"
	"#   define        extra -D definition (NAME or NAME=VALUE), one per line\n"
	"#   lib           extra linker input such as -lm, one per line\n"
	"#   own_drng      yes: the package's drng.c is among the sources and is\n"
	"#                 used; no: ngcc-perf links its own ICCS DRNG\n"
	"#   own_auxfunc   the same for auxfunc.c (sm3hash, pseudoXOF, pseudohash)\n"
	"#   kat_reference the submitted KAT file, relative to\n"
	"#                 candidates/<id>/source/ (a kat.sha256 entry wins)\n"
	"#   digest_bits   hash: DIGEST_BIT_LENGTH, passed to every CryptHash call\n"
	"#   kat_file      hash: one line per submitted KAT file (KAT_2_12_,\n"
	"#                 KAT_2_23_, KAT_2_33_, KAT_Loop_<instance>.txt), relative\n"
	"#                 to candidates/<id>/source/ (kat.sha256 entries win)\n"
	"#   enabled       no: discovered but not built\n"
	"#\n"
	"# [patch FILE]        one per `add --patch`, in the order applied; FILE is\n"
	"#                     kept in candidates/<id>/patches/ (do not edit)\n"
	"#   sha256        the patch file's SHA-256, checked by `build`\n"
	"#   touches       one line per file it changed, relative to source/\n";

/* A value that the reader would not give back unchanged cannot be written. */
static int writable(const char *v)
{
	if (!v)
		return 1;
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\t')
			return 0; /* the reader refuses control characters */
	size_t n = strlen(v);
	return !n || (v[0] != ' ' && v[0] != '\t' && v[n - 1] != ' ' && v[n - 1] != '\t');
}

static int list_writable(const struct strlist *sl)
{
	for (size_t i = 0; i < sl->n; i++)
		if (!writable(sl->items[i]) || !*sl->items[i])
			return 0;
	return 1;
}

static int conf_writable(const struct candidate_conf *c)
{
	if (!c->id || !writable(c->id) || !writable(c->algorithm) ||
	    !writable(c->type) || !writable(c->package))
		return 0;
	for (size_t i = 0; i < c->n_patches; i++)
		if (!conf_patch_name_valid(c->patches[i].file) || !c->patches[i].sha256 ||
		    !writable(c->patches[i].sha256) || !list_writable(&c->patches[i].touches))
			return 0;
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct instance_conf *in = &c->inst[i];
		if (!valid_label(in->label) || !writable(in->label) ||
		    !writable(in->type) || !writable(in->variant) || !writable(in->cpu_extension) ||
		    !writable(in->instance) || !writable(in->source_dir) ||
		    !writable(in->api_header) || !writable(in->kat_reference) ||
		    !list_writable(&in->sources) || !list_writable(&in->include_dirs) ||
		    !list_writable(&in->cflags) || !list_writable(&in->defines) ||
		    !list_writable(&in->libs) || !list_writable(&in->kat_files))
			return 0;
	}
	return 1;
}

static void put(struct strbuf *sb, const char *key, const char *v)
{
	if (v && *v)
		sb_addf(sb, "%s = %s\n", key, v);
}

static void put_list(struct strbuf *sb, const char *key, const struct strlist *sl)
{
	for (size_t i = 0; i < sl->n; i++)
		put(sb, key, sl->items[i]);
}

static void put_instance(struct strbuf *sb, const struct instance_conf *in)
{
	sb_addf(sb, "\n[instance %s]\n", in->label);
	for (size_t i = 0; i < in->origins.n; i++)
		sb_addf(sb, "# %s\n", in->origins.items[i]);
	put(sb, "type", in->type);
	put(sb, "variant", in->variant);
	put(sb, "cpu_extension", in->cpu_extension);
	put(sb, "instance", in->instance);
	put(sb, "source_dir", in->source_dir);
	put(sb, "api_header", in->api_header);
	put_list(sb, "source", &in->sources);
	put_list(sb, "include", &in->include_dirs);
	put_list(sb, "cflag", &in->cflags);
	put_list(sb, "define", &in->defines);
	put_list(sb, "lib", &in->libs);
	put(sb, "own_drng", in->own_drng ? "yes" : "no");
	put(sb, "own_auxfunc", in->own_auxfunc ? "yes" : "no");
	put(sb, "kat_reference", in->kat_reference);
	if (in->digest_bits)
		sb_addf(sb, "digest_bits = %d\n", in->digest_bits);
	put_list(sb, "kat_file", &in->kat_files);
	put(sb, "enabled", in->enabled ? "yes" : "no");
}

int conf_write(const char *path, const struct candidate_conf *c)
{
	if (!conf_writable(c)) {
		errno = EINVAL;
		return -1;
	}
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, conf_header);
	sb_adds(&sb, "\n[candidate]\n");
	put(&sb, "id", c->id);
	put(&sb, "algorithm", c->algorithm);
	put(&sb, "type", c->type);
	put(&sb, "package", c->package);
	for (size_t i = 0; i < c->n_patches; i++) {
		sb_addf(&sb, "\n[patch %s]\n", c->patches[i].file);
		put(&sb, "sha256", c->patches[i].sha256);
		put_list(&sb, "touches", &c->patches[i].touches);
	}
	for (size_t i = 0; i < c->n_inst; i++)
		put_instance(&sb, &c->inst[i]);
	int rc = atomic_write(path, sb.buf, sb.len);
	int e = errno;
	sb_free(&sb);
	errno = e;
	return rc;
}
