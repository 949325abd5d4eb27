# profile.mk — the profile driver bin/ngcc-perf-profile (docs/method.md §10.3) and
# the wrapper unit test, which links the wrappers (src/runtime/profwrap.c)
# with fake __real_* functions.

ifneq ($(wildcard src/driver/profile_main.c),)
# Like the timing driver: only what it references, no util.o.
$(BIN)/ngcc-perf-profile: $(O)/src/driver/profile_main.o $(DRIVER_COMMON_OBJS) $(O)/libngcc.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -Wl,--as-needed -o $@ $^ $(LIBS)

all: $(BIN)/ngcc-perf-profile
tests: $(BIN)/ngcc-perf-profile
endif

PROFWRAP_TEST_DEFS = -DNGCC_PROF_WRAP_PSEUDOHASH -DNGCC_PROF_WRAP_PSEUDOXOF \
                     -DNGCC_PROF_WRAP_SM3HASH -DNGCC_PROF_WRAP_GET_RANDOM_NUMBER

$(O)/tests/profwrap_all.o: src/runtime/profwrap.c src/runtime/profwrap.h
	@mkdir -p $(@D)
	$(CC) $(RT_CFLAGS) $(PROFWRAP_TEST_DEFS) -c $< -o $@

$(O)/tests/test_profwrap: tests/unit/test_profwrap.c $(O)/tests/profwrap_all.o $(O)/libngcc.a $(DRIVER_COMMON_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/unit -o $@ $< $(O)/tests/profwrap_all.o $(DRIVER_COMMON_OBJS) $(O)/libngcc.a $(LIBS) -lcmocka
