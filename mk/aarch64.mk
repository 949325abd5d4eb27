# aarch64.mk — the AArch64 tree, cross-compiled and run under emulation
# (tests/e2e/aarch64.sh; docs/usage.md, "AArch64").
#
#   make ARCH=aarch64     obj-aarch64/bin: ngcc-perf and every child program
#                         for AArch64, with Debian's aarch64-linux-gnu-gcc
#                         against the arm64 multiarch libraries
#   make check-aarch64    install what it needs (scripts/bootstrap-aarch64:
#                         cross compilers, qemu-user, arm64 libraries,
#                         binfmt_misc), build that tree and the plain one,
#                         and run the emulated path alone
#
# `make check` builds the tree too where the cross compiler is installed,
# and runs the same test beside the native ones; where the tree cannot run,
# the test reports "AArch64 not checked" with the reason.

AARCH64_CC := aarch64-linux-gnu-gcc
# CC is named on the command line: a `make check CC=clang` must not make
# the AArch64 tree an x86-64 one.
AARCH64_MAKE = $(CHECK_MAKE) ARCH=aarch64 CC=$(AARCH64_CC) O=obj-aarch64 BIN=obj-aarch64/bin

define AARCH64_CHECK_BUILD
if command -v $(AARCH64_CC) >/dev/null 2>&1; then \
	t=$$(date +%s); $(AARCH64_MAKE) all && \
	echo "built the AArch64 tree (obj-aarch64/) in $$(($$(date +%s) - t)) s"; \
else \
	echo "not building the AArch64 tree: no $(AARCH64_CC) (scripts/bootstrap-aarch64 installs it)"; \
fi
endef

.PHONY: check-aarch64
check-aarch64:
	@scripts/bootstrap
	@scripts/bootstrap-aarch64
	@$(CHECK_MAKE) all fixtures
	@t=$$(date +%s); $(AARCH64_MAKE) all && \
		echo "built the AArch64 tree (obj-aarch64/) in $$(($$(date +%s) - t)) s"
	@NGCC_REQUIRE_AARCH64=1 tests/run-tests -k '^e2e/aarch64$$' obj bin
