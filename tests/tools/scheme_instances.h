/*
 * scheme_instances.h — the instances of examples/ExampleSIG, ExampleKEX and
 * ExampleHash, and hostile builds of them, linked into our own test
 * programs (mk/example_schemes.mk renames each variant's API to
 * <tag>_<symbol>, so they live side by side in one program).
 */
#ifndef NGCC_SCHEME_INSTANCES_H
#define NGCC_SCHEME_INSTANCES_H

#include <stddef.h>

#include "kat/katgen_hash.h"
#include "kat/katgen_kex.h"
#include "kat/katgen_sig.h"

enum scheme_kind { SCHEME_SIG, SCHEME_KEX, SCHEME_HASH };

struct scheme_instance {
	const char *tag;      /* "ExampleSIG_1", "HostileSIG_accept_all", ... */
	const char *package;  /* "ExampleSIG" */
	const char *label;    /* instance folder, "ExampleSIG-1" */
	const char *instance; /* ALGORITHM_INSTANCE, "EXAMPLESIG_1" */
	enum scheme_kind kind;
	int hostile;          /* built with a test switch */
	struct sig_api sig;   /* sizes from the getters; seed() reseeds drng_algorithm */
	struct kex_api kex;
	struct hash_api hash;
};

size_t scheme_count(void);
const struct scheme_instance *scheme_get(size_t i);
const struct scheme_instance *scheme_find(const char *tag); /* or NULL */

/* The KAT file name of an instance: KAT_SIG_<inst>.txt, KAT_KEX_<inst>.txt
 * or, for a hash, <tag of file f>_<inst>.txt (malloc'd). */
char *scheme_kat_name(const struct scheme_instance *s, enum hash_kat_file f);
/* <root>/<package>/Test_Vectors/<that name> (malloc'd). */
char *scheme_kat_path(const char *root, const struct scheme_instance *s,
		      enum hash_kat_file f);
/* Generate that file's text (records: the official 10). */
enum kat_status scheme_katgen(const struct scheme_instance *s, enum hash_kat_file f,
			      struct strbuf *text, char **detail);

#endif
