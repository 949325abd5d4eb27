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

# make check: build the targets and run each for FUZZ_CHECK_SECONDS, or say
# why not where clang cannot build a libFuzzer program (a SKIP line naming
# the packages; scripts/bootstrap installs them on Debian 12 as root).
FUZZ_PROBE = int LLVMFuzzerTestOneInput(const char *d, unsigned long n);\n\
int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n
define FUZZ_CHECK
p=$$(mktemp -d /tmp/ngcc-fuzzprobe.XXXXXX); printf '$(FUZZ_PROBE)' >$$p/probe.c; \
if ! $(FUZZ_CC) -fsanitize=fuzzer,address,undefined -o $$p/probe $$p/probe.c >$$p/log 2>&1; then \
	echo "SKIP fuzz: '$(FUZZ_CC)' cannot link a libFuzzer program here ($$(head -1 $$p/log))."; \
	echo "     Install clang and libclang-rt-14-dev (scripts/bootstrap does as root) to build and run tests/fuzz/."; \
	rm -rf $$p; exit 0; \
fi; rm -rf $$p; \
t=$$(date +%s); $(CHECK_MAKE) fuzz && \
	echo "built the fuzz targets (obj-fuzz/) in $$(($$(date +%s) - t)) s" && \
	scripts/fuzz-run $(FUZZ_CHECK_SECONDS)
endef

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
