# hash.mk — the hash fixtures' KAT generator (tests/tools/mkkat_hash.c,
# tests/fixtures/hash/generate.sh): the example hash instances that
# example_schemes.mk links, printing one KAT file, optionally with a
# smaller stand-in for KAT_2_33's 1 GiB message.

$(O)/tools/mkkat_hash: tests/tools/mkkat_hash.c $(XS_TOOL_OBJS) $(XS_OBJS) $(O)/libngcc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/tools -o $@ $< $(XS_TOOL_OBJS) $(XS_OBJS) $(O)/libngcc.a $(LIBS)

FIXTURE_TOOLS += $(O)/tools/mkkat_hash

# `make check-slow` also runs the hash KAT gate in full (KAT_2_33's 1 GiB
# messages, KAT_Loop's 10^6 calls) on ExampleHash through the user path.
.PHONY: check-slow-hash-kat
check-slow: check-slow-hash-kat
check-slow-hash-kat: all
	NGCC_BIN=$(CURDIR)/$(BIN) NGCC_SRC=$(CURDIR) bash tests/slow/hash_kat_full.sh
