/*
 * mkkat_hash — print one hash KAT file of an example hash instance, for the
 * generated hash fixtures (tests/fixtures/hash/): our replay
 * (src/kat/katgen_hash.c) against the instance linked in (mk/hash.mk).
 *
 *   mkkat_hash TAG FILE [STAND_IN]
 *
 * TAG is a scheme tag (ExampleHash_256, ExampleHash_512), FILE one of
 * KAT_2_12, KAT_2_23, KAT_2_33, KAT_Loop.  STAND_IN replaces KAT_2_33's
 * 2^33-bit message length or KAT_Loop's 10^6 iterations by a smaller
 * stand-in, as the KAT child does with NGCC_PERF_KAT_2_33_BITS and
 * NGCC_PERF_KAT_LOOP_ITERATIONS, so tests can run these files' code paths
 * quickly.
 */
#include <stdio.h>
#include <stdlib.h>

#include "scheme_instances.h"

int main(int argc, char **argv)
{
	ngcc_set_progname("mkkat_hash");
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: mkkat_hash TAG FILE [KAT_2_33_BITS | KAT_LOOP_ITERATIONS]\n");
		return EXIT_USAGE;
	}
	const struct scheme_instance *s = scheme_find(argv[1]);
	int f = katgen_hash_file_parse(argv[2]);
	if (!s || s->kind != SCHEME_HASH || f < 0) {
		ngcc_error("no hash instance %s or no hash KAT file %s", argv[1], argv[2]);
		return EXIT_USAGE;
	}
	if (argc == 4 && f != HASH_KAT_2_33 && f != HASH_KAT_LOOP) {
		ngcc_error("%s has no stand-in (only KAT_2_33 and KAT_Loop do)", argv[2]);
		return EXIT_USAGE;
	}
	struct hash_api api = s->hash;
	if (argc == 4 && f == HASH_KAT_2_33)
		api.kat_2_33_bits = strtoull(argv[3], NULL, 10);
	else if (argc == 4)
		api.loop_iterations = strtoul(argv[3], NULL, 10);
	struct strbuf text = STRBUF_INIT;
	char *detail = NULL;
	enum kat_status st = katgen_hash(&api, (enum hash_kat_file)f, &text, &detail);
	if (st != KAT_PASS) {
		ngcc_error("%s %s: %s %s", argv[1], argv[2], kat_status_name(st),
			   detail ? detail : "");
		return EXIT_FAILED;
	}
	fwrite(text.buf, 1, text.len, stdout);
	sb_free(&text);
	free(detail);
	return EXIT_OK;
}
