# fixtures_levels.mk — the KAT generator of the level-sized toy KEM
# (tests/fixtures/lvlkem/), which tests/fixtures/levels/generate.sh runs to
# write the submitted KAT files of the level-layout packages.

LVL_DIR := tests/fixtures/lvlkem

$(O)/tools/lvlkem.o: $(LVL_DIR)/lvl.c $(LVL_DIR)/lvl.h
	@mkdir -p $(@D)
	$(CC) -std=c99 -Wall -Wextra -Werror -O2 -g $(SANFLAGS) -Isrc/runtime -I$(LVL_DIR) -c $< -o $@

$(O)/tools/fixture_lvl_kat: tests/tools/fixture_lvl_kat.c $(O)/tools/lvlkem.o $(O)/libngcc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(LVL_DIR) -o $@ $< $(O)/tools/lvlkem.o $(O)/libngcc.a $(LIBS)

FIXTURE_TOOLS += $(O)/tools/fixture_lvl_kat
