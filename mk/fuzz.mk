# fuzz.mk — the libFuzzer targets (tests/fuzz/fuzz_*.c, docs/security.md):
# `make fuzz` builds our library with clang, libFuzzer's instrumentation,
# ASan and UBSan into obj-fuzz/ and links one program per target there.
# scripts/fuzz-run runs them on their committed seed corpora
# (tests/fuzz/corpus/<target>/); `make check` runs each for
# FUZZ_CHECK_SECONDS.  Building the tree with clang and -Werror also keeps
# our code free of clang-only warnings.  clang and libFuzzer come from Debian's clang-14 and
# libclang-rt-14-dev (scripts/bootstrap).

FUZZ_CC ?= clang
FUZZ_CHECK_SECONDS ?= 3
FUZZ_SRCS = $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS = $(FUZZ_SRCS:tests/fuzz/%.c=obj-fuzz/fuzz/%)

.PHONY: fuzz fuzz-targets
fuzz:
	@$(MAKE) --no-print-directory FUZZ=1 CC=$(FUZZ_CC) fuzz-targets

# The orchestrator is linked in the same tree too: scripts/fuzz-run runs a
# few commands with it under clang's LeakSanitizer, so a leak that only
# clang reports fails make check.
fuzz-targets: $(FUZZ_BINS) obj-fuzz/bin/ngcc-perf

obj-fuzz/fuzz/%: tests/fuzz/%.c obj-fuzz/libngcc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $< obj-fuzz/libngcc.a $(LIBS)
