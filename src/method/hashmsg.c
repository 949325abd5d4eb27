/* hashmsg.c — see hashmsg.h. */
#include "method/hashmsg.h"

#include <stdlib.h>
#include <string.h>

unsigned long long hash_op_bytes(const char *op)
{
	if (!op || strncmp(op, "hash_", 5) || op[5] < '0' || op[5] > '9')
		return 0;
	char *end = NULL;
	unsigned long long L = strtoull(op + 5, &end, 10);
	return *end ? 0 : L;
}

const size_t hash_selftest_long[] = { 256, 512, 1000, 1024, 4096, 8192, 16384, 65536,
				      1048576 };
const size_t n_hash_selftest_long = sizeof hash_selftest_long / sizeof hash_selftest_long[0];

size_t hash_selftest_count(void)
{
	return HASH_SELFTEST_SHORT + 1 + n_hash_selftest_long;
}

size_t hash_selftest_len(size_t i)
{
	return i <= HASH_SELFTEST_SHORT ? i : hash_selftest_long[i - HASH_SELFTEST_SHORT - 1];
}

size_t hash_selftest_max(void)
{
	return hash_selftest_long[n_hash_selftest_long - 1];
}

void hash_selftest_record(struct strbuf *text, size_t len_bytes, int digest_bits,
			  const unsigned char *digest)
{
	sb_addf(text, "Msg_Len = %llu\nDst_Len = %d\nDst = ", 8ULL * len_bytes, digest_bits);
	for (int i = 0; i < digest_bits / 8; i++)
		sb_addf(text, "%02X", digest[i]);
	sb_adds(text, "\n\n");
}
