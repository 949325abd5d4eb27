# ngcc-perf — build, test and demo.
#
#   make          build bin/ngcc-perf and its child programs
#   make check    install missing Debian packages (as root), build the plain
#                 and the ASan+UBSan trees (quiet: a command is shown only
#                 when it fails), then run the test suite on both, tests in
#                 parallel (tests/run-tests; one line per test, the slowest
#                 at the end).  check-plain / check-san: one tree only.
#   make demo     install, build, run a short campaign on examples/
#   make bench    measurement-engine benchmarks (figures, not assertions)
#   make fuzz     the libFuzzer targets of tests/fuzz/ with clang (obj-fuzz/;
#                 scripts/fuzz-run runs them; `make check` runs each briefly)
#
# Our own code is C11 with -Wall -Wextra -Werror.  Candidate code is never
# compiled here: `ngcc-perf build` compiles it with the guide's flags.

# ARCH=aarch64: the tree of programs for 64-bit ARM, cross-compiled with
# Debian's aarch64-linux-gnu-gcc against the arm64 multiarch libraries
# (scripts/bootstrap-aarch64 installs them; `make check-aarch64` runs the
# programs under qemu-user, mk/aarch64.mk).
ifeq ($(ARCH),aarch64)
ifeq ($(origin CC),default)
CC       = aarch64-linux-gnu-gcc
endif
O       ?= obj-aarch64
BIN     ?= $(O)/bin
endif
CC      ?= cc
SAN     ?= 0
# QUIET=1 (set by the check targets): recipes print nothing unless they fail.
ifeq ($(QUIET),1)
SHELL   := $(CURDIR)/mk/quiet-shell
endif
ifeq ($(FUZZ),1)
# mk/fuzz.mk: our code instrumented for libFuzzer, ASan and UBSan (clang)
O       ?= obj-fuzz
SANFLAGS = -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
           -fno-sanitize-recover=undefined
else ifeq ($(SAN),1)
O       ?= obj-san
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# -O1, the level AddressSanitizer's documentation suggests: the checks are
# the same at every level, and gcc compiles instrumented code at -O2 almost
# twice as long (our library: 59 s of CPU at -O2, 33 s at -O1).  The plain
# tree keeps -O2 and its optimiser-based warnings.
CFLAGS  ?= -O1 -g
else
O       ?= obj
SANFLAGS =
endif
BIN     ?= $(if $(filter 1,$(SAN) $(FUZZ)),$(O)/bin,bin)

# A cross tree: CC builds for another machine than the host's.  Such a tree
# compiles its own child programs (the memory and check programs) rather
# than copying the plain tree's, which are for the host.
TREE_MACHINE := $(firstword $(subst -, ,$(shell $(CC) -dumpmachine 2>/dev/null)))
CROSS := $(if $(filter-out $(shell uname -m),$(TREE_MACHINE)),1,0)
# Does this tree compile the programs always built without our sanitizers?
OWN_PLAIN_PROGRAMS := $(if $(or $(filter obj,$(O)),$(filter 1,$(CROSS))),1,0)

VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
GIT_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)

CFLAGS  ?= -O2 -g
# The checkout's directory is "." in the debug information: an object does
# not depend on where the checkout lies, so a compiler cache (the check
# targets compile through ccache) serves every clone on the machine.
CFLAGS  += -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -Isrc $(SANFLAGS) \
           -ffile-prefix-map=$(CURDIR)=. -DNGCC_VERSION='"$(VERSION)"'
CMARK_CFLAGS := $(shell pkg-config --cflags libcmark-gfm 2>/dev/null)
CFLAGS  += $(CMARK_CFLAGS)
LDFLAGS += $(SANFLAGS)
LIBS     = -ljansson -lelf -lcrypto -larchive -lcmark-gfm-extensions -lcmark-gfm -lexpat -ldl -lpthread -lm

# Orchestrator modules: one folder per stage or concern, in layer order
# (docs/architecture.md; scripts/check-layers enforces it).
LIB_DIRS = src/util src/proc src/method src/stats src/evidence src/host \
           src/package src/build src/kat src/selftest src/campaign src/model src/check \
           src/charts src/report src/site src/dataset src/pipeline
# compare/ (rank 10): two datasets compared (issue 28).
LIB_DIRS += src/compare
LIB_SRCS = $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c))
LIB_OBJS = $(LIB_SRCS:%.c=$(O)/%.o)
CLI_SRCS = $(wildcard src/cli/*.c)
CLI_OBJS = $(CLI_SRCS:%.c=$(O)/%.o)

# Child programs: the code that loads candidate libraries.
# (timing_sampling.c is the timing driver's alone: it needs the archive.)
DRIVER_COMMON = $(filter-out src/driver/%_main.c src/driver/timing_sampling.c,$(wildcard src/driver/*.c))
DRIVER_COMMON_OBJS = $(DRIVER_COMMON:%.c=$(O)/%.o)

# The clean-room ICCS runtime, compiled natively for our tests and for the
# orchestrator-side seed DRNG (candidates get it compiled with their flags).
RT_SRCS  = $(wildcard src/runtime/sm3.c src/runtime/drng.c src/runtime/auxfunc.c)
RT_OBJS  = $(RT_SRCS:%.c=$(O)/%.o)
RT_CFLAGS = -std=c11 -Wall -Wextra -Werror -O2 -g -Isrc/runtime $(SANFLAGS)

PROGRAMS = $(BIN)/ngcc-perf
ifneq ($(wildcard src/driver/kat_main.c),)
PROGRAMS += $(BIN)/ngcc-perf-kat
endif
ifneq ($(wildcard src/driver/timing_main.c),)
PROGRAMS += $(BIN)/ngcc-perf-driver
endif
PROGRAMS += $(BIN)/ngcc-perf-contain

TEST_SRCS = $(wildcard tests/unit/test_*.c)
TEST_BINS = $(TEST_SRCS:tests/unit/%.c=$(O)/tests/%)

.PHONY: all check check-plain check-san demo bench clean tests FORCE
all: $(PROGRAMS)

# A tree remembers the compiler that built it ($(O)/.compiler: CC, then its
# version line): when CC names another one (`make check CC=clang` after a
# gcc build), everything in the tree is rebuilt rather than mixed or
# silently kept.  Every target gets the stamp as an extra prerequisite (GNU
# make 4.3 .EXTRA_PREREQS: not seen in $^ or $<); its recipe rewrites it
# only when the compiler changed.  A first stamp is dated 1970: a tree built
# before stamps existed is taken to be the current compiler's.
COMPILER_STAMP = $(O)/.compiler
.EXTRA_PREREQS = $(COMPILER_STAMP)
$(COMPILER_STAMP) FORCE: .EXTRA_PREREQS =
$(COMPILER_STAMP): FORCE
	@mkdir -p $(@D); id=$$(printf '%s\n%s' '$(CC)' "$$($(CC) --version 2>/dev/null | head -1)"); \
	if [ ! -f $@ ]; then echo "$$id" >$@ && touch -d @0 $@; \
	elif [ "$$(cat $@)" != "$$id" ]; then echo "$$id" >$@; fi

# What does not depend on the tree (the generated fixtures, the programs
# always built without our sanitizers) is made once, in the plain tree obj/
# and bin/; the SAN=1 and FUZZ=1 builds take it from there with this.
MAKE_IN_PLAIN_TREE = $(MAKE) --no-print-directory SAN=0 FUZZ=0 O=obj BIN=bin
# The recipe of a program of that kind in another tree: made in the plain
# tree, copied when it differs.
define COPY_FROM_PLAIN_TREE
	+$(MAKE_IN_PLAIN_TREE) bin/$(@F)
	@mkdir -p $(@D)
	cmp -s bin/$(@F) $@ || cp -p bin/$(@F) $@
endef

# The commit is compiled only into the files that print or record it, and
# they are rebuilt when it changes ($(O)/.git-commit holds the one they
# were built with): every other command line stays the same from commit to
# commit, so the compiler cache keeps serving those objects.
COMMIT_OBJS = $(O)/src/cli/main.o $(O)/src/evidence/campaign_json.o $(O)/src/dataset/publish.o
$(COMMIT_OBJS): CFLAGS += -DNGCC_GIT_COMMIT='"$(GIT_COMMIT)"'
$(COMMIT_OBJS): $(O)/.git-commit
$(O)/.git-commit: FORCE
	@mkdir -p $(@D); [ "$$(cat $@ 2>/dev/null)" = '$(GIT_COMMIT)' ] || echo '$(GIT_COMMIT)' >$@

$(O)/libngcc.a: $(LIB_OBJS) $(RT_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(O)/src/runtime/%.o: src/runtime/%.c
	@mkdir -p $(@D)
	$(CC) $(RT_CFLAGS) -MMD -MP -c $< -o $@

$(O)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BIN)/ngcc-perf: $(CLI_OBJS) $(O)/libngcc.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(O)/libngcc.a $(LIBS)

$(BIN)/ngcc-perf-kat: $(O)/src/driver/kat_main.o $(DRIVER_COMMON_OBJS) $(O)/libngcc.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -rdynamic -o $@ $^ $(LIBS)

# The timing driver stays small (its RSS is part of the seed figures): only
# what it references is pulled from the archive, and --as-needed drops the rest.
$(BIN)/ngcc-perf-driver: $(O)/src/driver/timing_main.o $(O)/src/driver/timing_sampling.o \
			 $(DRIVER_COMMON_OBJS) $(O)/libngcc.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -Wl,--as-needed -o $@ $^ $(LIBS)

# The supervisor every child program runs under (src/proc/contain.h): libc only.
$(BIN)/ngcc-perf-contain: $(O)/src/driver/contain_main.o
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^

$(O)/tests/%: tests/unit/%.c $(O)/libngcc.a $(DRIVER_COMMON_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/unit -o $@ $< $(DRIVER_COMMON_OBJS) $(O)/libngcc.a $(LIBS) -lcmocka

tests: $(PROGRAMS) $(TEST_BINS)

# The check targets build quietly, with all CPUs unless make -j was given,
# and through ccache where it is installed (scripts/bootstrap installs it;
# NGCC_CCACHE=0 compiles afresh): with /usr/lib/ccache first in PATH, cc
# and clang are ccache, whose cache (ccache's own, in the user's home)
# serves the unchanged objects of every build tree of every clone.
CHECK_CCACHE = $(if $(filter 0,$(NGCC_CCACHE)),,$(if $(wildcard /usr/lib/ccache/cc),PATH=/usr/lib/ccache:$$PATH))
CHECK_MAKE = $(CHECK_CCACHE) $(MAKE) --no-print-directory -s QUIET=1 \
             $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(shell nproc))

check:
	@scripts/bootstrap
	@scripts/bootstrap-aarch64 --optional
	@t=$$(date +%s); $(CHECK_MAKE) tests && \
		echo "built the plain tree (bin/, obj/) in $$(($$(date +%s) - t)) s"
	@t=$$(date +%s); $(CHECK_MAKE) SAN=1 tests && \
		echo "built the ASan+UBSan tree (obj-san/) in $$(($$(date +%s) - t)) s"
	@$(AARCH64_CHECK_BUILD)
	@$(FUZZ_CHECK)
	@tests/run-tests obj bin obj-san obj-san/bin

check-plain:
	@$(CHECK_MAKE) tests
	@tests/run-tests $(O) $(BIN)

check-san:
	@$(CHECK_MAKE) SAN=1 tests
	@tests/run-tests obj-san obj-san/bin

demo:
	@scripts/bootstrap
	$(MAKE) all
	@scripts/demo

bench: all
	@scripts/bench

clean:
	rm -rf obj obj-san obj-fuzz obj-aarch64 bin

# Area fragments (extra test programs, fixtures) owned by each area.
-include $(wildcard mk/*.mk)

-include $(shell find $(O) -name '*.d' 2>/dev/null || true)
