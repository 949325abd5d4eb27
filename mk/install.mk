# install.mk — `make install` and `make uninstall`.
#
#   make install [PREFIX=/usr/local] [DESTDIR=]
#
# installs
#   $(PREFIX)/bin/ngcc-perf                  the command
#   $(PREFIX)/libexec/ngcc-perf/ngcc-perf-*  the child programs it spawns
#   $(PREFIX)/share/ngcc-perf/src/runtime/   the sources it compiles into
#                                            every candidate library
#   $(PREFIX)/share/man/man1/ngcc-perf.1     the manual page
#   $(PREFIX)/share/doc/ngcc-perf/           README and docs/
#
# ngcc-perf finds libexec/ and share/ relative to its own executable
# (src/util/locate.c), so only PREFIX is a choice: the three folders keep
# their places under it, and the installed tree can be moved as a whole.
# DESTDIR is prepended for staged installs (packaging, tests/e2e/install.sh).

PREFIX  ?= /usr/local
DESTDIR ?=
INSTALL ?= install

inst_bin     = $(DESTDIR)$(PREFIX)/bin
inst_libexec = $(DESTDIR)$(PREFIX)/libexec/ngcc-perf
inst_share   = $(DESTDIR)$(PREFIX)/share/ngcc-perf
inst_man1    = $(DESTDIR)$(PREFIX)/share/man/man1
inst_doc     = $(DESTDIR)$(PREFIX)/share/doc/ngcc-perf

# Everything under src/runtime/: the ABI shim, our DRNG, auxiliary hash
# functions and SM3, the profiling wrappers, their headers and the version
# script (build.c and instrument.c name them).
RUNTIME_FILES = $(wildcard src/runtime/*.c src/runtime/*.h src/runtime/*.map)
DOC_FILES     = README.md $(wildcard docs/*.md)

.PHONY: install uninstall
install: all
	$(INSTALL) -d $(inst_bin) $(inst_libexec) $(inst_share)/src/runtime $(inst_man1) $(inst_doc)
	$(INSTALL) -m 0755 $(BIN)/ngcc-perf $(inst_bin)/ngcc-perf
	$(INSTALL) -m 0755 $(BIN)/ngcc-perf-* $(inst_libexec)/
	$(INSTALL) -m 0644 $(RUNTIME_FILES) $(inst_share)/src/runtime/
	$(INSTALL) -m 0644 docs/ngcc-perf.1 $(inst_man1)/ngcc-perf.1
	$(INSTALL) -m 0644 $(DOC_FILES) $(inst_doc)/

uninstall:
	rm -f $(inst_bin)/ngcc-perf $(inst_man1)/ngcc-perf.1
	rm -rf $(inst_libexec) $(inst_share) $(inst_doc)
