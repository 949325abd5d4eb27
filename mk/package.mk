# package.mk — the toy fixture KEM's KAT generator (tests/tools/fixture_kat)
# and `make fixture-layouts`, which regenerates the fixture packages under
# tests/fixtures/layouts/ (committed) with tests/fixtures/make-layouts.sh.

TOY_DIR := tests/fixtures/toykem

$(O)/tools/toykem.o: $(TOY_DIR)/toy.c $(TOY_DIR)/toy.h
	@mkdir -p $(@D)
	$(CC) -std=c99 -Wall -Wextra -Werror -O2 -g $(SANFLAGS) -Isrc/runtime -I$(TOY_DIR) -c $< -o $@

$(O)/tools/fixture_kat: tests/tools/fixture_kat.c $(O)/tools/toykem.o $(O)/libngcc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(TOY_DIR) -o $@ $< $(O)/tools/toykem.o $(O)/libngcc.a $(LIBS)

.PHONY: fixture-layouts
fixture-layouts: $(O)/tools/fixture_kat
	tests/fixtures/make-layouts.sh $(O)/tools/fixture_kat
