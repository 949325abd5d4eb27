/* test_types.c — the candidate-type table every stage looks type facts up
 * in: names and ABI numbers agree with runtime/ngcc_abi.h, operation keys
 * and their order, which types are measured end to end, which ones `check` covers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "method/types.h"
#include "runtime/ngcc_abi.h"

#include <string.h>

static void names_and_abi_numbers_agree(void **state)
{
	(void)state;
	assert_int_equal(n_cand_types, 4);
	assert_int_equal(cand_type_find("kem")->abi, NGCC_TYPE_KEM);
	assert_int_equal(cand_type_find("sign")->abi, NGCC_TYPE_SIG);
	assert_int_equal(cand_type_find("kex")->abi, NGCC_TYPE_KEX);
	assert_int_equal(cand_type_find("hash")->abi, NGCC_TYPE_HASH);
	assert_ptr_equal(cand_type_find("sig"), cand_type_find("sign"));
	assert_null(cand_type_find("mac"));
	assert_null(cand_type_find(NULL));
	for (size_t i = 0; i < n_cand_types; i++)
		assert_ptr_equal(cand_type_by_abi(cand_types[i].abi), &cand_types[i]);
	assert_null(cand_type_by_abi(99));
}

static void package_facts(void **state)
{
	(void)state;
	const struct cand_type *kem = cand_type_find("kem"), *hash = cand_type_find("hash");
	assert_string_equal(kem->header_prefix, "KEM_");
	assert_string_equal(kem->kat_prefix, "KAT_KEM_");
	assert_string_equal(kem->shim_define, "-DNGCC_SHIM_KEM");
	assert_string_equal(hash->header_prefix, "CryptHash_");
	assert_null(kem->kat_files);
	assert_string_equal(hash->kat_files[0], "KAT_2_12");
	assert_string_equal(hash->kat_files[1], "KAT_2_23");
	assert_string_equal(hash->kat_files[2], "KAT_2_33");
	assert_string_equal(hash->kat_files[3], "KAT_Loop");
	assert_null(hash->kat_files[4]);
}

static void every_type_is_measured(void **state)
{
	(void)state;
	const struct cand_type *kem = cand_type_find("kem");
	assert_true(cand_type_supported(kem));
	assert_string_equal(kem->timed_ops[0], "keygen");
	assert_string_equal(kem->timed_ops[1], "enc");
	assert_string_equal(kem->timed_ops[2], "dec");
	assert_null(kem->timed_ops[3]);
	const struct cand_type *sig = cand_type_find("sig");
	assert_true(cand_type_supported(sig));
	assert_string_equal(sig->timed_ops[1], "sign");
	assert_null(sig->whole_op);
	const struct cand_type *kex = cand_type_find("kex");
	assert_true(cand_type_supported(kex));
	assert_string_equal(kex->timed_ops[0], "exchange");
	assert_string_equal(kex->whole_op, "exchange");
	assert_false(cand_type_supported(NULL));
	/* hash: the eight message lengths of docs/method.md §5.2, shortest first */
	const struct cand_type *hash = cand_type_find("hash");
	static const char *const lens[] = { "hash_32", "hash_128", "hash_512", "hash_1024",
		"hash_4096", "hash_8192", "hash_16384", "hash_65536" };
	assert_true(cand_type_supported(hash));
	for (size_t i = 0; i < 8; i++)
		assert_string_equal(hash->timed_ops[i], lens[i]);
	assert_null(hash->timed_ops[8]);
}

/* KEX steps are planned and profiled against the whole exchange. */
static void steps_know_their_whole_flow(void **state)
{
	(void)state;
	assert_string_equal(cand_op_whole("pass2"), "exchange");
	assert_string_equal(cand_op_whole("init_a"), "exchange");
	assert_string_equal(cand_op_whole("derive_b"), "exchange");
	assert_null(cand_op_whole("exchange"));
	assert_null(cand_op_whole("sign"));
	assert_null(cand_op_whole("keygen"));
	assert_null(cand_op_whole("enc"));
}

/* `check` names the types it covers in its messages and on the pages from
 * the table's checked column: KEMs, signatures and key exchange, until the
 * check program has a suite for hash functions. */
static void check_covers_the_checked_types(void **state)
{
	(void)state;
	assert_true(cand_type_find("kem")->checked);
	assert_true(cand_type_find("sign")->checked);
	assert_true(cand_type_find("kex")->checked);
	assert_false(cand_type_find("hash")->checked);
	assert_string_equal(cand_types_checked(), "`kem`, `sign`, `kex`");
	assert_ptr_equal(cand_types_checked(), cand_types_checked());
}

static void operations_say_their_type(void **state)
{
	(void)state;
	int shared;
	assert_string_equal(cand_type_of_op("enc", &shared)->name, "kem");
	assert_false(shared);
	assert_string_equal(cand_type_of_op("verify", &shared)->name, "sign");
	assert_string_equal(cand_type_of_op("pass7", &shared)->name, "kex");
	assert_string_equal(cand_type_of_op("hash_1024", &shared)->name, "hash");
	assert_null(cand_type_of_op("keygen", &shared));
	assert_true(shared);
	assert_null(cand_type_of_op("frobnicate", &shared));
	assert_false(shared);
	assert_null(cand_type_of_op("pass", &shared));
	assert_null(cand_type_of_op("hash_x1", &shared));
}

static void operation_ranks_follow_the_table(void **state)
{
	(void)state;
	static const char *const order[] = { "keygen", "enc", "dec", "sign", "verify",
		"exchange", "init_a", "init_b", "pass1", "derive_a", "derive_b", "hash_32" };
	unsigned long long num;
	for (size_t i = 1; i < sizeof order / sizeof *order; i++)
		assert_true(cand_op_rank(order[i - 1], &num) < cand_op_rank(order[i], &num));
	unsigned r12 = cand_op_rank("pass12", &num);
	assert_int_equal(num, 12);
	assert_int_equal(cand_op_rank("pass3", &num), r12);
	assert_int_equal(num, 3);
	cand_op_rank("hash_65536", &num);
	assert_int_equal(num, 65536);
	unsigned last = cand_op_rank("hash_32", &num);
	assert_true(cand_op_rank("unknown", &num) > last);
	assert_int_equal(num, 0);
	/* cand_op_cmp: the rank, then the family number */
	assert_true(cand_op_cmp("pass2", "pass10") < 0);
	assert_true(cand_op_cmp("pass10", "derive_a") < 0);
	assert_true(cand_op_cmp("init_b", "pass1") < 0);
	assert_true(cand_op_cmp("dec", "keygen") > 0);
	assert_int_equal(cand_op_cmp("pass3", "pass3"), 0);
	assert_int_equal(cand_op_cmp("unknown", "crash?"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_and_abi_numbers_agree),
		cmocka_unit_test(package_facts),
		cmocka_unit_test(every_type_is_measured),
		cmocka_unit_test(steps_know_their_whole_flow),
		cmocka_unit_test(check_covers_the_checked_types),
		cmocka_unit_test(operations_say_their_type),
		cmocka_unit_test(operation_ranks_follow_the_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
