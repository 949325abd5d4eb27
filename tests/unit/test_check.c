/*
 * test_check.c — the orchestrator side of `ngcc-perf check` without
 * running anything: valgrind's XML (errors, stacks, the call context each
 * error follows, counts, a fatal signal, a truncated file), sanitizer
 * reports (ASan overflow and SEGV, UBSan), findings made from them
 * (operation, buffer, location inside the library, suppression, repro),
 * record paths, and the derived fields of a check record with their
 * validation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "check/finding.h"
#include "check/sanrep.h"
#include "check/vgxml.h"
#include "evidence/check_json.h"
#include "evidence/json.h"
#include "util/util.h"

#define WS "/ws"
#define LIB WS "/build/k/check/libT.ct.so"

/* A call context as the check program publishes it (watch.h). */
#define CTX_HEAD "{\"round\":7,\"test\":\"tampered ciphertext\",\"op\":\"dec\","
#define CTX_TAIL "\"state\":\"in call\"," \
	"\"buffers\":[{\"name\":\"sk\",\"data\":\"0x1040\",\"cap\":64,\"len\":64," \
	"\"map\":\"0x1000\",\"map_len\":4096,\"readonly\":true}," \
	"{\"name\":\"ct\",\"data\":\"0x2040\",\"cap\":32,\"len\":32," \
	"\"map\":\"0x2000\",\"map_len\":4096,\"readonly\":true}]}"
#define CTX_DEC CTX_HEAD "\"call\":\"kem_dec(sk, 64, ct, 32, ss, &ss_len)\"," CTX_TAIL
/* valgrind escapes the message for XML */
#define CTX_DEC_XML CTX_HEAD "\"call\":\"kem_dec(sk, 64, ct, 32, ss, &amp;ss_len)\"," CTX_TAIL

static const char xml[] =
	"<?xml version=\"1.0\"?>\n<valgrindoutput>\n<protocolversion>4</protocolversion>\n"
	"<preamble>\n  <line>Memcheck, a memory error detector</line>\n"
	"  <line>Using Valgrind-3.19.0 and LibVEX; rerun with -h for copyright info</line>\n"
	"</preamble>\n"
	"<clientmsg><tid>1</tid><text>ngcc-check-call " CTX_DEC_XML "\n  </text></clientmsg>\n"
	"<error><unique>0x0</unique><tid>1</tid><kind>UninitCondition</kind>\n"
	"  <what>Conditional jump or move depends on uninitialised value(s)</what>\n"
	"  <stack><frame><ip>0x1</ip><obj>" LIB "</obj><fn>decaps</fn><dir>" WS "/candidates/k/src</dir>"
	"<file>t.c</file><line>42</line></frame>\n"
	"  <frame><ip>0x2</ip><obj>/opt/ngcc/bin/ngcc-perf-check</obj><fn>do_dec</fn></frame></stack>\n"
	"  <auxwhat>Uninitialised value was created by a client request</auxwhat>\n"
	"  <stack><frame><ip>0x3</ip><obj>/x</obj><fn>watch_secret</fn></frame></stack>\n"
	"  <suppression><sname>insert_a_suppression_name_here</sname><rawtext>\n<![CDATA[\n{\n"
	"   <insert_a_suppression_name_here>\n   Memcheck:Cond\n   fun:decaps\n   fun:do_dec\n"
	"   obj:/usr/lib/libc.so.6\n}\n]]>\n</rawtext></suppression>\n</error>\n"
	"<error><unique>0x1</unique><tid>1</tid><kind>InvalidRead</kind>\n"
	"  <what>Invalid read of size 1</what>\n"
	"  <stack><frame><ip>0x4</ip><obj>" LIB "</obj><fn>decaps</fn><dir>" WS "/candidates/k/src</dir>"
	"<file>t.c</file><line>50</line></frame></stack>\n"
	"  <auxwhat>Address 0x2060 is in a rw- anonymous segment</auxwhat>\n</error>\n"
	"<fatal_signal><tid>1</tid><signo>11</signo><signame>SIGSEGV</signame><sicode>2</sicode>"
	"<event>Bad permissions for mapped region</event><siaddr>0x2041</siaddr>\n"
	"  <stack><frame><ip>0x5</ip><obj>" LIB "</obj><fn>decaps</fn><dir>" WS "/candidates/k/src</dir>"
	"<file>t.c</file><line>60</line></frame></stack></fatal_signal>\n"
	"<errorcounts><pair><count>5</count><unique>0x0</unique></pair>"
	"<pair><count>1</count><unique>0x1</unique></pair></errorcounts>\n"
	"<suppcounts><pair><count>3</count><name>reviewed rejection sampling</name></pair></suppcounts>\n"
	"</valgrindoutput>\n";

static void valgrind_xml(void **state)
{
	(void)state;
	struct vg_report r;
	vg_parse(xml, strlen(xml), "ngcc-check-call ", &r);
	assert_true(r.complete);
	assert_string_equal(r.version, "3.19.0");
	assert_int_equal(r.nerrs, 2);
	assert_string_equal(r.errs[0].kind, "UninitCondition");
	assert_int_equal(r.errs[0].count, 5);
	assert_int_equal(r.errs[0].stack.n, 2);
	assert_int_equal(r.errs[0].stack.f[0].line, 42);
	assert_string_equal(r.errs[0].aux_stack.f[0].fn, "watch_secret");
	assert_non_null(strstr(r.errs[0].suppression, "Memcheck:Cond"));
	assert_string_equal(r.errs[0].context, CTX_DEC);
	assert_int_equal(r.errs[1].count, 1);
	assert_true(r.fatal.present);
	assert_int_equal(r.fatal.signo, 11);
	assert_string_equal(r.fatal.siaddr, "0x2041");
	assert_int_equal(r.nsupps, 1);
	assert_int_equal(r.supps[0].count, 3);
	assert_string_equal(r.supps[0].name, "reviewed rejection sampling");
	vg_report_free(&r);

	/* Cut in the second error (a run killed at its timeout): the first
	 * error is kept, the report says it is incomplete. */
	const char *cut = strstr(xml, "<kind>InvalidRead");
	vg_parse(xml, (size_t)(cut - xml), "ngcc-check-call ", &r);
	assert_false(r.complete);
	assert_non_null(r.parse_error);
	assert_int_equal(r.nerrs, 1);
	assert_false(r.fatal.present);
	vg_report_free(&r);
}

static void findings_from_valgrind(void **state)
{
	(void)state;
	struct vg_report r;
	vg_parse(xml, strlen(xml), "ngcc-check-call ", &r);
	json_t *cmd = json_pack("[s, s, s, s, s, s, s, s, s, s, s, s]", "valgrind", "--xml=yes",
				"--xml-file=raw/x.xml", "<ngcc-perf>/bin/ngcc-perf-check", "--lib",
				"build/k/check/libT.ct.so", "--rounds", "2", "--progress", "p",
				"--gen-suppressions=all", "--tell-valgrind");
	struct find_ctx c = { WS, LIB, cmd, 1 };

	json_t *f = finding_from_vg_error(&c, &r.errs[0]);
	assert_string_equal(jget_str(f, "kind", ""), FK_SECRET_BRANCH);
	assert_string_equal(jget_str(f, "operation", ""), "dec");
	assert_int_equal(jget_int(f, "round", -1), 7);
	assert_int_equal(jget_int(f, "occurrences", 0), 5);
	const json_t *loc = json_object_get(f, "location");
	assert_string_equal(jget_str(loc, "file", ""), "candidates/k/src/t.c");
	assert_int_equal(jget_int(loc, "line", 0), 42);
	assert_string_equal(jget_str(f, "origin", ""), "secret key");
	const char *supp = jget_str(f, "suppression", "");
	assert_non_null(strstr(supp, "ngcc-perf secret-dependent branch: decaps at t.c:42"));
	assert_non_null(strstr(supp, "fun:decaps\n   ...\n}"));
	assert_null(strstr(supp, "do_dec"));           /* cut below the finding */
	const json_t *repro = json_object_get(json_object_get(f, "repro"), "command");
	char *text = json_dumps(repro, JSON_COMPACT);
	assert_string_equal(text, "[\"valgrind\",\"<ngcc-perf>/bin/ngcc-perf-check\",\"--lib\","
			    "\"build/k/check/libT.ct.so\",\"--first-round\",\"7\",\"--rounds\",\"1\"]");
	free(text);
	json_decref(f);

	/* Outside the constant-time run the same error is uninitialised memory;
	 * an invalid read names the buffer the address falls in. */
	c.consttime = 0;
	f = finding_from_vg_error(&c, &r.errs[1]);
	assert_string_equal(jget_str(f, "kind", ""), FK_INVALID_READ);
	assert_non_null(strstr(jget_str(f, "what", ""), "offset 32 of ct, past its end (32 bytes)"));
	json_decref(f);

	/* SIGSEGV on a read-only input is a write to the input. */
	f = finding_from_vg_fatal(&c, &r.fatal);
	assert_string_equal(jget_str(f, "kind", ""), FK_INPUT_WRITE);
	assert_non_null(strstr(jget_str(f, "what", ""), "byte 1 of ct"));
	assert_int_equal(jget_int(json_object_get(f, "location"), "line", 0), 60);
	json_decref(f);

	/* A signal the program raised itself: valgrind names no event, and
	 * the finding says only what it knows. */
	struct vg_fatal raised = r.fatal;
	raised.signo = 6;
	raised.signame = "SIGABRT";
	raised.event = NULL;
	f = finding_from_vg_fatal(&c, &raised);
	assert_string_equal(jget_str(f, "kind", ""), FK_CRASH);
	assert_true(str_starts_with(jget_str(f, "what", ""), "killed by SIGABRT"));
	assert_null(strstr(jget_str(f, "what", ""), "(?)"));
	json_decref(f);
	json_decref(cmd);
	vg_report_free(&r);
}

static void sanitizer_reports(void **state)
{
	(void)state;
	struct san_report s;
	san_parse("noise from the candidate\n"
		  "=================================================================\n"
		  "==531==ERROR: AddressSanitizer: use-after-poison on address 0x2060 at pc 0x7f bp 0x1 sp 0x2\n"
		  "READ of size 1 at 0x2060 thread T0\n"
		  "    #0 0x7f47 in decaps candidates/k/src/t.c:120\n"
		  "    #1 0x7f48 in kem_dec candidates/k/api.c:64:3\n"
		  "    #2 0x55d0 in do_dec src/driver/check/kem.c:247\n"
		  "    #3 0x7f46 (/lib/libc.so.6+0x2724a)\n"
		  "\n"
		  "Address 0x2060 is a wild pointer inside of access range of size 0x000000000001.\n"
		  "    #0 0x9 in other_stack x.c:1\n", &s);
	assert_true(s.present);
	assert_string_equal(s.tool, "AddressSanitizer");
	assert_string_equal(s.kind, "use-after-poison");
	assert_string_equal(s.access, "READ of size 1");
	assert_string_equal(s.address, "0x2060");
	assert_int_equal(s.nframes, 4);
	assert_string_equal(s.frames[0].fn, "decaps");
	assert_string_equal(s.frames[0].file, "candidates/k/src/t.c");
	assert_int_equal(s.frames[0].line, 120);
	assert_int_equal(s.frames[1].line, 64);
	assert_string_equal(s.frames[3].module, "/lib/libc.so.6+0x2724a");

	json_t *cmd = json_pack("[s, s, s, s, s]", "<ngcc-perf>/bin/ngcc-perf-check-asan", "--lib",
				"x.so", "--report-path", "raw/x.san");
	struct find_ctx c = { WS, "/ws/x.so", cmd, 0 };
	json_t *f = finding_from_san(&c, &s, CTX_DEC);
	assert_string_equal(jget_str(f, "kind", ""), FK_INVALID_READ);
	assert_string_equal(jget_str(f, "operation", ""), "dec");
	assert_int_equal(jget_int(json_object_get(f, "location"), "line", 0), 120);
	assert_non_null(strstr(jget_str(f, "what", ""), "offset 32 of ct"));
	json_decref(f);
	san_report_free(&s);

	san_parse("==9==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000010 (pc 0x1 T0)\n"
		  "==9==The signal is caused by a WRITE memory access.\n"
		  "    #0 0x1 in kem_enc candidates/k/api.c:86\n", &s);
	assert_string_equal(s.kind, "SEGV");
	assert_string_equal(s.access, "WRITE memory access");
	f = finding_from_san(&c, &s, NULL);
	assert_string_equal(jget_str(f, "kind", ""), FK_CRASH);
	assert_string_equal(jget_str(f, "operation", ""), "load");
	json_decref(f);
	san_report_free(&s);

	san_parse("candidates/k/t.c:12:5: runtime error: shift exponent 40 is too large\n"
		  "    #0 0x1 in shifty candidates/k/t.c:12\n"
		  "    #1 0x2 in kem_keygen candidates/k/api.c:30\n", &s);
	assert_string_equal(s.tool, "UndefinedBehaviorSanitizer");
	assert_string_equal(s.what, "shift exponent 40 is too large");
	assert_int_equal(s.nframes, 2);
	assert_string_equal(s.frames[0].fn, "shifty");
	f = finding_from_san(&c, &s, NULL);
	assert_string_equal(jget_str(f, "kind", ""), FK_UB);
	json_decref(f);
	san_report_free(&s);

	san_parse("nothing to see\n", &s);
	assert_false(s.present);
	san_report_free(&s);
	json_decref(cmd);
}

static void shown_paths(void **state)
{
	(void)state;
	char *p = finding_shown_path(WS, WS "/candidates/k", "t.c");
	assert_string_equal(p, "candidates/k/t.c");
	free(p);
	char *home = path_join(ngcc_home(), "src/runtime");
	p = finding_shown_path(WS, home, "sm3.c");
	assert_string_equal(p, "<ngcc-perf>/src/runtime/sm3.c");
	free(p);
	free(home);
	p = finding_shown_path(WS, "/usr/src/glibc", "memcpy.S");
	assert_string_equal(p, "memcpy.S");
	free(p);
	p = finding_shown_path(WS, NULL, "candidates/k/t.c");
	assert_string_equal(p, "candidates/k/t.c");
	free(p);
}

static json_t *finding(const char *kind, const char *op, long n)
{
	return check_finding_new(kind, op, "w", "c", 0, n);
}

static void record_derivation(void **state)
{
	(void)state;
	json_t *rec = check_record_new("k", "T", "T_1", "kem", "reference", "consttime");
	json_object_set_new(rec, "status", json_string("complete"));
	json_t *fs = json_object_get(rec, "findings");
	json_array_append_new(fs, finding(FK_SECRET_BRANCH, "dec", 4));
	json_array_append_new(fs, finding(FK_SECRET_INDEX, "dec", 1));
	json_array_append_new(fs, finding(FK_SECRET_BRANCH, "keygen", 2));
	check_record_derive(rec);
	assert_string_equal(jget_str(rec, "verdict", ""), "findings");
	assert_int_equal(jget_int(rec, "findings_count", 0), 3);
	char *ops = json_dumps(json_object_get(rec, "operations"), JSON_COMPACT | JSON_PRESERVE_ORDER);
	assert_string_equal(ops, "{\"keygen\":{\"findings\":1,\"occurrences\":2,\"kinds\":"
			    "{\"secret-dependent branch\":1}},\"dec\":{\"findings\":2,\"occurrences\":5,"
			    "\"kinds\":{\"secret-dependent branch\":1,\"secret-dependent memory index\":1}}}");
	free(ops);
	char *why = NULL;
	assert_int_equal(check_record_recompute(rec, &why), 0);

	/* Each derived field is checked. */
	json_object_set_new(json_object_get(json_object_get(rec, "operations"), "dec"), "findings",
			    json_integer(1));
	assert_int_equal(check_record_recompute(rec, &why), -1);
	assert_non_null(strstr(why, "operations"));
	free(why);
	check_record_derive(rec);
	json_object_set_new(rec, "verdict", json_string("clean"));
	assert_int_equal(check_record_recompute(rec, &why), -1);
	assert_non_null(strstr(why, "verdict"));
	free(why);

	/* Not complete: no verdict, whatever was found. */
	json_object_set_new(rec, "status", json_string("timeout"));
	check_record_derive(rec);
	assert_true(json_is_null(json_object_get(rec, "verdict")));
	assert_int_equal(check_record_recompute(rec, &why), 0);
	json_decref(rec);

	char *p = check_record_path("k", "T", "memcheck");
	assert_string_equal(p, "build/k/check/T__memcheck.json");
	free(p);
	p = check_record_published("k", "T", "memcheck");
	assert_string_equal(p, "check/k/T__memcheck.json");
	free(p);
	assert_int_equal(check_by_name("sanitizers"), CHECK_SANITIZERS);
	assert_int_equal(check_by_name("nope"), CHECK_N);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(valgrind_xml),
		cmocka_unit_test(findings_from_valgrind),
		cmocka_unit_test(sanitizer_reports),
		cmocka_unit_test(shown_paths),
		cmocka_unit_test(record_derivation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
