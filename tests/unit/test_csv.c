/*
 * test_csv.c — RFC 4180 writing (docs/report-format.md §11): quoting, null as an
 * empty field, exact integers, `%.17g` doubles, LF row ends, the parser
 * that reads it back, and the exact column lists of summary.csv,
 * profiles.csv.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "charts/csv.h"

static void fields(void **state)
{
	(void)state;
	struct csv_out c = CSV_OUT_INIT;
	csv_str(&c, "plain");
	csv_str(&c, "a,b");
	csv_str(&c, "say \"hi\"");
	csv_str(&c, "two\nlines");
	csv_null(&c);
	csv_int(&c, -9007199254740993LL);
	csv_uint(&c, UINT64_MAX);
	csv_double(&c, 0.1);
	csv_end_row(&c);
	json_t *j = json_pack("[i,f,s,n,b]", 12630000, 2.5, "x", 1);
	for (size_t i = 0; i < json_array_size(j); i++)
		csv_json(&c, json_array_get(j, i));
	csv_json(&c, NULL);
	csv_end_row(&c);
	json_decref(j);
	size_t len;
	char *s = csv_finish(&c, &len);
	assert_string_equal(s,
		"plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",,-9007199254740993,"
		"18446744073709551615,0.10000000000000001\n"
		"12630000,2.5,x,,true,\n");
	assert_int_equal(len, strlen(s));

	char ***rows;
	size_t *nc;
	size_t n = csv_parse(s, &rows, &nc);
	assert_int_equal(n, 2);
	assert_int_equal(nc[0], 8);
	assert_string_equal(rows[0][1], "a,b");
	assert_string_equal(rows[0][2], "say \"hi\"");
	assert_string_equal(rows[0][3], "two\nlines");
	assert_string_equal(rows[0][4], "");
	assert_int_equal(nc[1], 6);
	assert_string_equal(rows[1][5], "");
	csv_rows_free(rows, nc, n);
	free(s);
}

static void cells(void **state)
{
	(void)state;
	char *r0[] = { "instance", "KAT" }, *r1[] = { "CTL-257-512", "PASS [1]" };
	char **rows[] = { r0, r1 };
	size_t len;
	char *s = csv_from_cells(rows, 2, 2, &len);
	assert_string_equal(s, "instance,KAT\nCTL-257-512,PASS [1]\n");
	free(s);
}

static void columns(void **state)
{
	(void)state;
	/* Spelled out as in docs/report-format.md §11. */
	assert_string_equal(CSV_SUMMARY_COLUMNS,
		"system,candidate,label,variant,operation,status,target_bits,mean_cycles,"
		"mean_seconds,ops_per_second,median_trial_seconds,min_trial_seconds,"
		"max_trial_seconds,cv_trial_seconds,measurements,trials,iterations_per_trial,"
		"hash_share,drng_share,elf_load_bytes,baseline_rss_bytes,peak_rss_bytes,"
		"op_peak_rss_bytes,stack_peak_bytes,heap_peak_bytes,pk_bytes,sk_bytes,ct_bytes,"
		"ss_bytes,signature_bytes,size_basis,kat,counter,speedup_vs_reference,fastest");
	assert_string_equal(CSV_PROFILES_COLUMNS,
		"system,candidate,label,operation,fn,in_bits,out_bits,calls,ticks,share");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fields),
		cmocka_unit_test(cells),
		cmocka_unit_test(columns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
