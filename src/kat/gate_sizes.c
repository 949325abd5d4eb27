/*
 * gate_sizes.c — a consistency check of discovery's guesses after the KAT
 * gate (docs/iccs.md §6.4): two instances of one candidate, of the same
 * type and variant, whose getters report the same sizes are most likely
 * one parameter set built twice (a level whose own headers or defines did
 * not reach its compile).  Reported, never fatal: some schemes do have
 * parameter sets of equal sizes.
 */
#include "kat/gate_int.h"

#include "build/build.h"
#include "kat/katlog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "pk 48, sk 80, ct 32, ss 32" from the sizes the KAT child read from the
 * getters (its log's header), or NULL when the log has none. */
static char *sizes_of_log(const char *workspace, const char *id, const char *stem)
{
	static const char *const keys[] = {
		"pk_bytes", "sk_bytes", "ct_bytes", "ss_bytes", "sig_bytes", "sta_bytes", "stb_bytes", NULL
	};
	char *path = path_joinf(workspace, "build/%s/kat/%s.log", id, stem);
	char *log = NULL;
	struct strbuf sb = STRBUF_INIT;
	if (read_file(path, &log, NULL) == 0)
		for (const char *const *k = keys; *k; k++) {
			char *v = katlog_header_value(log, *k);
			if (v)
				sb_addf(&sb, "%s%.*s %s", sb.len ? ", " : "",
					(int)(strlen(*k) - 6), *k, v);
			free(v);
		}
	free(log);
	free(path);
	return sb.len ? sb_detach(&sb) : (sb_free(&sb), NULL);
}

void gate_report_equal_sizes(const char *workspace, const char *id,
			     const struct candidate_conf *conf)
{
	size_t n = conf->n_inst;
	char **sizes = xcalloc(n ? n : 1, sizeof(*sizes));
	for (size_t i = 0; i < n; i++) {
		const struct instance_conf *ic = &conf->inst[i];
		if (!ic->enabled || !strcmp(ic->type, "hash") || !strcmp(ic->variant, "iccs-baseline"))
			continue;
		char *stem = build_stem(ic);
		sizes[i] = sizes_of_log(workspace, id, stem);
		free(stem);
	}
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < i; k++) {
			const struct instance_conf *a = &conf->inst[k], *b = &conf->inst[i];
			if (!sizes[i] || !sizes[k] || strcmp(sizes[i], sizes[k]) ||
			    strcmp(a->type, b->type) || strcmp(a->variant, b->variant))
				continue;
			/* two trees of one parameter set (aarch64/ and neon/
			 * additional trees): the same sizes by design */
			if (a->instance && b->instance && !strcmp(a->instance, b->instance))
				continue;
			ngcc_warning("%s: instances '%s' and '%s' report the same sizes (%s): if they "
				     "are different parameter sets, check that each is built with its "
				     "own headers and defines (`ngcc-perf add --explain`, "
				     "candidate.conf)", id, a->label, b->label, sizes[i]);
			break;
		}
	for (size_t i = 0; i < n; i++)
		free(sizes[i]);
	free(sizes);
}
