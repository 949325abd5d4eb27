# fixtures.mk — the fixture packages generated at test time (tests/README.md):
# `make fixtures` (and `make tests`) writes them into obj/fixtures/ with
# tests/fixtures/generate.  The programs the generators run (KAT generators
# of toy schemes) are built into $(O)/tools/ and listed in FIXTURE_TOOLS;
# another area's fragment adds its own with `FIXTURE_TOOLS += ...`.
#
# The packages do not depend on the tree: the generators write the same
# bytes whichever tree built them (compared for obj/ and obj-san/).  So
# there is one copy, obj/fixtures/, generated with the plain tree's tools,
# and every tree's tests use it (tests/run-tests: NGCC_FIXTURES).  A
# SAN=1 or FUZZ=1 build asks the plain tree for it: generating them again
# with ASan-built tools cost `make check` 5.5 s of CPU besides the tools.

TOY_DIR  := tests/fixtures/toykem
FIXTURES := obj/fixtures

$(O)/tools/toykem.o: $(TOY_DIR)/toy.c $(TOY_DIR)/toy.h
	@mkdir -p $(@D)
	$(CC) -std=c99 -Wall -Wextra -Werror -O2 -g $(SANFLAGS) -Isrc/runtime -I$(TOY_DIR) -c $< -o $@

$(O)/tools/fixture_kat: tests/tools/fixture_kat.c $(O)/tools/toykem.o $(O)/libngcc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(TOY_DIR) -o $@ $< $(O)/tools/toykem.o $(O)/libngcc.a $(LIBS)

FIXTURE_TOOLS += $(O)/tools/fixture_kat

# Fixture sources may have spaces in their names, which make cannot list as
# prerequisites: regenerate whenever any file under tests/fixtures/,
# src/runtime/ or examples/ (the hash and sigkex families copy the example
# schemes) is newer than the stamp.
FIXTURES_STALE := $(shell find tests/fixtures src/runtime examples -newer $(FIXTURES)/.stamp -print -quit 2>/dev/null || true)

ifeq ($(O),obj)
# $$(FIXTURE_TOOLS) is expanded once make has read every fragment, so the
# tools other fragments add count too.
.SECONDEXPANSION:
$(FIXTURES)/.stamp: $$(FIXTURE_TOOLS) $(if $(FIXTURES_STALE),fixtures-force)
	rm -rf $(FIXTURES).new
	tests/fixtures/generate $(FIXTURES).new $(O)/tools
	rm -rf $(FIXTURES)
	mv $(FIXTURES).new $(FIXTURES)
	touch $@
else
$(FIXTURES)/.stamp: FORCE
	+$(MAKE_IN_PLAIN_TREE) fixtures
endif

.PHONY: fixtures fixtures-force
fixtures: $(FIXTURES)/.stamp
tests: $(FIXTURES)/.stamp
