# check.mk — the check programs of `ngcc-perf check` (src/check/):
#
#   bin/ngcc-perf-check       always built without sanitizers: it runs the
#                             functional suite on the timed library and
#                             runs under valgrind, which cannot run an
#                             AddressSanitizer program;
#   bin/ngcc-perf-check-asan  the same sources, always built with
#                             AddressSanitizer and UBSan: it loads the
#                             instance rebuilt with the same sanitizers.
#
# Objects live apart ($(O)/checkprog/, $(O)/checkprog-asan/) so SAN=1
# builds do not change either program.  Neither depends on the tree, so only
# the plain tree compiles them; the other trees copy its programs (the
# ASan+UBSan tree compiled the same 2 x 12 objects again for `make check`).
# Both are compiled with `cc`, the compiler `ngcc-perf build` and `check`
# compile candidates with, whatever CC builds the rest (`make check
# CC=clang`): the ASan program must share
# the AddressSanitizer runtime of the instance it loads, and valgrind
# (Debian 12: 3.19) reads the program's debug information, so it is DWARF 4
# (clang 14's DWARF 5 makes valgrind give up).

ifneq ($(wildcard src/driver/check_main.c),)
CHECKPROG_SRCS = src/driver/check_main.c $(wildcard src/driver/check/*.c) \
                 src/driver/child.c src/driver/loader.c src/driver/kex_flow.c
# (a cross tree: its own compiler, the one candidates are built with there)
CHECKPROG_CC = $(if $(filter 1,$(CROSS)),$(CC),cc)
CHECKPROG_CFLAGS = $(filter-out $(SANFLAGS),$(CFLAGS)) -gdwarf-4
CHECKPROG_ASAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer \
                       -fno-sanitize-recover=undefined
CHECKPROG_OBJS = $(CHECKPROG_SRCS:%.c=$(O)/checkprog/%.o)
CHECKPROG_ASAN_OBJS = $(CHECKPROG_SRCS:%.c=$(O)/checkprog-asan/%.o)

ifeq ($(OWN_PLAIN_PROGRAMS),1)
# (rebuilt when this file changes: the compiler and flags are set here)
$(O)/checkprog/%.o: %.c mk/check.mk
	@mkdir -p $(@D)
	$(CHECKPROG_CC) $(CHECKPROG_CFLAGS) -MMD -MP -c $< -o $@

$(O)/checkprog-asan/%.o: %.c mk/check.mk
	@mkdir -p $(@D)
	$(CHECKPROG_CC) $(CHECKPROG_CFLAGS) $(CHECKPROG_ASAN_FLAGS) -MMD -MP -c $< -o $@

$(BIN)/ngcc-perf-check: $(CHECKPROG_OBJS)
	@mkdir -p $(@D)
	$(CHECKPROG_CC) $(filter-out $(SANFLAGS),$(LDFLAGS)) -o $@ $(CHECKPROG_OBJS) -ljansson -ldl

$(BIN)/ngcc-perf-check-asan: $(CHECKPROG_ASAN_OBJS)
	@mkdir -p $(@D)
	$(CHECKPROG_CC) $(filter-out $(SANFLAGS),$(LDFLAGS)) $(CHECKPROG_ASAN_FLAGS) -o $@ \
		$(CHECKPROG_ASAN_OBJS) -ljansson -ldl
else
$(BIN)/ngcc-perf-check $(BIN)/ngcc-perf-check-asan: FORCE
	$(COPY_FROM_PLAIN_TREE)
endif

all: $(BIN)/ngcc-perf-check $(BIN)/ngcc-perf-check-asan
tests: $(BIN)/ngcc-perf-check $(BIN)/ngcc-perf-check-asan
endif
