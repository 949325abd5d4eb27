/* survey_insn.c — instruction patterns of the survey; see survey_insn.h. */
#include "build/survey_insn.h"

#include <elf.h>
#include <stdint.h>

/* The rho offsets of FIPS 202 §3.2.2 in the order the lane walk visits
 * them: (t + 1)(t + 2) / 2 mod 64 for t = 0 .. 23. */
static const unsigned char rho_amounts[24] = {
	1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44,
};

/* Bit n of the mask: a left rotation by n was seen. */
static void note_rotation(uint64_t *seen, unsigned left)
{
	*seen |= 1ull << (left & 63);
}

/* The length of a ModR/M operand (the ModR/M byte, any SIB and
 * displacement) starting at p, or 0 when it runs past end. */
static size_t modrm_len(const unsigned char *p, const unsigned char *end)
{
	if (p >= end)
		return 0;
	unsigned mod = p[0] >> 6, rm = p[0] & 7;
	size_t n = 1;
	if (mod == 3)
		return n;
	if (rm == 4) {
		if (p + 1 >= end)
			return 0;
		if (mod == 0 && (p[1] & 7) == 5)
			n += 4;
		n++;
	}
	if (mod == 1)
		n += 1;
	else if (mod == 2 || (mod == 0 && rm == 5))
		n += 4;
	return p + n <= end ? n : 0;
}

static void x86_rotations(const unsigned char *code, size_t len, uint64_t *seen)
{
	const unsigned char *end = code + len;
	for (const unsigned char *p = code; p + 3 <= end; p++) {
		/* REX.W C1 /0 ib (rol) or /1 ib (ror); REX.W D1 /0 or /1 (by one) */
		if ((p[0] & 0xf8) == 0x48 && (p[1] == 0xc1 || p[1] == 0xd1)) {
			unsigned reg = (p[2] >> 3) & 7;
			size_t m = modrm_len(p + 2, end);
			if (reg > 1 || !m)
				continue;
			unsigned by = 1;
			if (p[1] == 0xc1) {
				if (p + 2 + m >= end)
					continue;
				by = p[2 + m] & 63;
			}
			note_rotation(seen, reg == 0 ? by : 64 - by);
		}
		/* rorx r64, r/m64, imm8: VEX C4 [RXB 00011] [W=1 1111 L=0 pp=11] F0 /r ib */
		if (p + 5 <= end && p[0] == 0xc4 && (p[1] & 0x1f) == 3 && p[2] == 0xfb &&
		    p[3] == 0xf0) {
			size_t m = modrm_len(p + 4, end);
			if (m && p + 4 + m < end)
				note_rotation(seen, 64 - (p[4 + m] & 63));
		}
	}
}

static void arm64_rotations(const unsigned char *code, size_t len, uint64_t *seen)
{
	for (size_t off = 0; off + 4 <= len; off += 4) {
		const unsigned char *p = code + off;
		uint32_t insn = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
				(uint32_t)p[3] << 24;
		/* EXTR Xd, Xn, Xm, #imms with Xn = Xm is ROR Xd, Xn, #imms */
		if ((insn & 0xffe00000u) != 0x93c00000u)
			continue;
		unsigned rm = (insn >> 16) & 31, rn = (insn >> 5) & 31, imms = (insn >> 10) & 63;
		if (rm == rn)
			note_rotation(seen, 64 - imms);
	}
}

unsigned keccak_rotation_amounts(const unsigned char *code, size_t len, unsigned machine)
{
	uint64_t seen = 0;
	if (machine == EM_X86_64)
		x86_rotations(code, len, &seen);
	else if (machine == EM_AARCH64)
		arm64_rotations(code, len, &seen);
	unsigned n = 0;
	for (size_t i = 0; i < sizeof rho_amounts; i++)
		n += (unsigned)((seen >> rho_amounts[i]) & 1);
	return n;
}
