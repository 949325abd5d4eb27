/*
 * gate.h — the KAT gate (docs/method.md §2.2): reproduce the submitted Known-Answer
 * Tests of every enabled, built instance in the isolated KAT child
 * (bin/ngcc-perf-kat), decide each status, rebuild a guide build that
 * failed with the harness-default flags and test it again (docs/method.md §2.1),
 * recheck a timed-out run on one record, and write the evidence: the KAT
 * log and text under build/<ID>/kat/ (kat/katlog.h) and the KAT fields of
 * build/<ID>/build.json.  `kat` and `campaign` call it.
 */
#ifndef NGCC_KAT_GATE_H
#define NGCC_KAT_GATE_H

#include "util/util.h"

#define KAT_GATE_DEFAULT_TIMEOUT_S 900.0

struct kat_gate_opts {
	const char *workspace;  /* absolute */
	double timeout_s;       /* hard limit per child run: an instance, or
				 * each of a hash instance's four files */
	int fallback;           /* rebuild a failed guide build with harness-default */
	int tty;                /* a progress line on stderr */
	/* Hash KAT files not to run, by tag (KAT_2_33, ...): shown as
	 * SKIPPED, and an instance whose other files pass is PARTIAL. */
	struct strlist skip_files;
};

/* The defaults: 900 s, fallback on, no file skipped. */
void kat_gate_opts_init(struct kat_gate_opts *o, const char *workspace, int tty);
void kat_gate_opts_free(struct kat_gate_opts *o);
/* 0 when tag names a hash KAT file (KAT_2_12, KAT_2_23, KAT_2_33,
 * KAT_Loop) and is added to o->skip_files; -1 otherwise. */
int kat_gate_skip_file(struct kat_gate_opts *o, const char *tag);

/*
 * Test the candidates ids (empty: every candidate of the workspace),
 * printing one `RESULT <ID> <label> <STATUS> [detail]` line per instance
 * on stdout.  Returns an ngcc_exit code: 0 every instance passed, 1 some
 * did not, 3 bad workspace or candidate (not added, not built, bad
 * kat.sha256, no enabled instance), 4 system error.
 */
int kat_gate(const struct kat_gate_opts *o, const struct strlist *ids);

#endif
