/*
 * survey_insn.h — instruction patterns for the primitive survey
 * (build/survey.h, docs/method.md §10.6): what a function's machine code
 * does, independently of its name and of any constant table.
 *
 * Keccak-f[1600]'s rho step rotates 24 of the 25 lanes by 24 distinct
 * amounts (1, 3, 6, 10, ... 44; FIPS 202 §3.2.2).  Compiled with the
 * rotations written out, a permutation holds 64-bit rotate-by-immediate
 * instructions with (nearly) every one of those amounts, which no other
 * common code does: SHA-512, BLAKE2b and the rest rotate by a handful of
 * other amounts.
 */
#ifndef NGCC_BUILD_SURVEY_INSN_H
#define NGCC_BUILD_SURVEY_INSN_H

#include <stddef.h>

/* How many of Keccak's 24 distinct rho amounts appear as 64-bit rotations
 * by an immediate in code (a function's bytes) for ELF machine `machine`:
 * x86-64 rol/ror (REX.W C1 /0, /1 and D1 /0, /1) and BMI2 rorx, AArch64
 * ror (EXTR with both sources equal).  A right rotation by n counts as a
 * left one by 64 - n.  x86 bytes are matched at every offset, not
 * decoded: a stray match can only raise the count, and the caller asks for
 * most of the 24.  0 for other machines. */
unsigned keccak_rotation_amounts(const unsigned char *code, size_t len, unsigned machine);

/* The count from which a function counts as a Keccak-f[1600] permutation.
 * Measured on Debian 12's static libcrypto, libgcrypt and libnettle (about
 * 1000 objects): OpenSSL's __KeccakF1600 and gcrypt's
 * keccak_f1600_state_permute64 (and its BMI2 twin) show all 24; no other
 * function shows 8 or more (SHA-512, BLAKE2, ChaCha; Nettle's Keccak, 8,
 * whose round constants, kept in its code, the constant scan finds). */
#define KECCAK_ROTATIONS_MIN 20

#endif
