# memory.mk — the memory program bin/ngcc-perf-memory (docs/method.md §8, R6) and
# the unit test of its bookkeeping (tests/unit/test_memprobe.c).
#
# The program replaces malloc & co. to count heap use, which does not mix
# with AddressSanitizer's own allocator: it is always compiled and linked
# without sanitizers (its objects live apart, under $(O)/memprog/), also in
# SAN=1 builds; as it does not depend on the tree, only the plain tree
# compiles it and the other trees copy it.  Like the timing driver it links
# only what it needs, no libngcc.a.  A dynamic list exports the allocation
# wrappers (and only them) so the candidate library's calls resolve to them.

ifneq ($(wildcard src/driver/memory_main.c),)
MEMPROG_CFLAGS = $(filter-out $(SANFLAGS),$(CFLAGS))
MEMPROG_SRCS = src/driver/memory_main.c $(DRIVER_COMMON) \
               src/driver/mem/memprobe.c
MEMPROG_OBJS = $(MEMPROG_SRCS:%.c=$(O)/memprog/%.o)

ifeq ($(OWN_PLAIN_PROGRAMS),1)
$(O)/memprog/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(MEMPROG_CFLAGS) -MMD -MP -c $< -o $@

MEMPROG_DYNLIST = src/driver/mem/allocator.dynlist

$(BIN)/ngcc-perf-memory: $(MEMPROG_OBJS) $(MEMPROG_DYNLIST)
	@mkdir -p $(@D)
	$(CC) $(filter-out $(SANFLAGS),$(LDFLAGS)) -Wl,--dynamic-list=$(MEMPROG_DYNLIST) \
		-Wl,--as-needed -o $@ $(MEMPROG_OBJS) -ljansson -ldl -lpthread
else
$(BIN)/ngcc-perf-memory: FORCE
	$(COPY_FROM_PLAIN_TREE)
endif

all: $(BIN)/ngcc-perf-memory
tests: $(BIN)/ngcc-perf-memory
endif

$(O)/tests/test_memprobe: tests/unit/test_memprobe.c src/driver/mem/memprobe.c $(O)/libngcc.a $(DRIVER_COMMON_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests/unit -o $@ $< src/driver/mem/memprobe.c $(DRIVER_COMMON_OBJS) $(O)/libngcc.a $(LIBS) -lcmocka
