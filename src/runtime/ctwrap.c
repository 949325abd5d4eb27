/*
 * ctwrap.c — linked into the constant-time twin of a candidate library
 * only (build/<ID>/check/lib<label>.ct.so, `ngcc-perf check`), with
 * -Wl,--wrap=get_random_number: every DRNG output the candidate's own
 * objects draw is marked undefined for valgrind memcheck, so memcheck
 * reports each branch or memory index that depends on it.  Outside
 * valgrind the client request is a few no-op instructions.  The timed
 * library never contains this file.
 *
 * The context is taken as void *: the wrapper only forwards it, so it
 * needs neither our drng.h nor the package's.
 */
#include <valgrind/memcheck.h>

int __real_get_random_number(void *drng, unsigned char *out, unsigned long long nbits);
int __wrap_get_random_number(void *drng, unsigned char *out, unsigned long long nbits);

int __wrap_get_random_number(void *drng, unsigned char *out, unsigned long long nbits)
{
	int rc = __real_get_random_number(drng, out, nbits);
	if (out && nbits)
		VALGRIND_MAKE_MEM_UNDEFINED(out, (nbits + 7) / 8);
	return rc;
}
