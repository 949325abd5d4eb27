# report.mk — the report golden fixtures (docs/report-format.md §13.1).
#
# `make report-fixtures` regenerates tests/fixtures/report/ws/ (committed)
# from the seed pages copied under tests/fixtures/report/seeds/.

REPORT_FIX := tests/fixtures/report

$(O)/tools/mkfix: $(REPORT_FIX)/mkfix.c $(O)/libngcc.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< $(O)/libngcc.a $(LIBS)

.PHONY: report-fixtures
report-fixtures: $(O)/tools/mkfix
	rm -rf $(REPORT_FIX)/ws
	$(O)/tools/mkfix $(REPORT_FIX)/ws $(REPORT_FIX)/seeds/001_4e8d85e8119859dc.txt \
		$(REPORT_FIX)/seeds/004_51da20beab7aafd1.txt \
		$(REPORT_FIX)/seeds/000_ece5d8f295f4f1b2.txt \
		$(REPORT_FIX)/seeds/002_20043ae7b05e7c0a.txt \
		$(REPORT_FIX)/seeds/003_92fba59e4f348f9e.txt
