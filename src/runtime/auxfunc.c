/*
 * auxfunc.c — clean-room ICCS auxiliary functions (docs/iccs.md §3):
 * sm3hash, pseudoXOF (the SM2 KDF) and pseudohash (HMAC-SM3 based).
 * Depends only on sm3.c so that it can be linked into a candidate that ships
 * its own drng.c.
 *
 * Messages are bit strings; tags and counters are appended at bit level by
 * streaming them into the same SM3 context, so messages are never copied.
 * No heap is used, so -2 (malloc) and -3 (HMAC failure) never happen here.
 */
#include <stdio.h>
#include <string.h>

#include "auxfunc.h"
#include "sm3.h"

#define SM3_BYTES NGCC_RT_SM3_DIGEST_BYTES
#define AUX_UNSUPPORTED_LENGTH (-4)

/* A bit string to be fed into one SM3 computation. */
struct aux_piece {
	const unsigned char *data;
	unsigned long long nbits;
};

static void sm3_of_pieces(const struct aux_piece *pieces, int npieces,
			  unsigned char *digest)
{
	struct ngcc_rt_sm3_ctx ctx;
	int i;

	ngcc_rt_sm3_init(&ctx);
	for (i = 0; i < npieces; i++)
		ngcc_rt_sm3_update(&ctx, pieces[i].data, pieces[i].nbits);
	ngcc_rt_sm3_final(&ctx, digest);
}

int sm3hash(int digest_len_bits, const unsigned char *msg,
	    unsigned long long msg_len_bits, unsigned char *digest)
{
	if (digest_len_bits != 8 * SM3_BYTES) {
		fprintf(stderr, "sm3hash: unsupported digest length %d bits (only 256)\n",
			digest_len_bits);
		return AUX_UNSUPPORTED_LENGTH;
	}
	ngcc_rt_sm3_digest(msg, msg_len_bits, digest);
	return 0;
}

/*
 * B_i = SM3(msg || i) with i a 32-bit big-endian counter from 1.  Like the
 * KDF definition (and the official code), the message is hashed again for
 * every output block.
 */
int pseudoXOF(unsigned long long output_len_bits, const unsigned char *msg,
	      unsigned long long msg_len_bits, unsigned char *output)
{
	unsigned int rest = (unsigned int)(output_len_bits % 8);
	unsigned long long nbytes = output_len_bits / 8 + (rest != 0);
	unsigned char counter_be[4], block[SM3_BYTES];
	struct aux_piece pieces[2];
	unsigned long counter = 1;

	pieces[0].data = msg;
	pieces[0].nbits = msg_len_bits;
	pieces[1].data = counter_be;
	pieces[1].nbits = 32;
	while (nbytes > 0) {
		unsigned long long take = nbytes < SM3_BYTES ? nbytes : SM3_BYTES;

		counter_be[0] = (unsigned char)(counter >> 24);
		counter_be[1] = (unsigned char)(counter >> 16);
		counter_be[2] = (unsigned char)(counter >> 8);
		counter_be[3] = (unsigned char)counter;
		sm3_of_pieces(pieces, 2, block);
		memcpy(output, block, (size_t)take);
		output += take;
		nbytes -= take;
		counter++;
	}
	if (rest)
		output[-1] &= (unsigned char)(0xffu << (8 - rest));
	return 0;
}

/* K = SM3("3.14159265358979") || SM3("2.71828182845904"): one SM3 block. */
static void pseudohash_key(unsigned char key[2 * SM3_BYTES])
{
	static const char pi[] = "3.14159265358979", e[] = "2.71828182845904";

	ngcc_rt_sm3_digest((const unsigned char *)pi, 8 * 16, key);
	ngcc_rt_sm3_digest((const unsigned char *)e, 8 * 16, key + SM3_BYTES);
}

/*
 * HMAC-SM3 with a 64-byte key (exactly one block, so used as is) over the
 * bit string a || b: SM3((K ^ opad) || SM3((K ^ ipad) || a || b)).
 */
static void hmac_sm3(const unsigned char key[64],
		     const unsigned char *a, unsigned long long a_bits,
		     const unsigned char *b, unsigned long long b_bits,
		     unsigned char *mac)
{
	unsigned char pad[64], inner[SM3_BYTES];
	struct aux_piece pieces[3];
	int i;

	for (i = 0; i < 64; i++)
		pad[i] = key[i] ^ 0x36;
	pieces[0].data = pad;
	pieces[0].nbits = 512;
	pieces[1].data = a;
	pieces[1].nbits = a_bits;
	pieces[2].data = b;
	pieces[2].nbits = b_bits;
	sm3_of_pieces(pieces, 3, inner);

	for (i = 0; i < 64; i++)
		pad[i] = key[i] ^ 0x5c;
	pieces[1].data = inner;
	pieces[1].nbits = 8 * SM3_BYTES;
	sm3_of_pieces(pieces, 2, mac);
}

/* SM3(x || y || z) of 32-byte values; z may be NULL. */
static void sm3_of_digests(const unsigned char *x, const unsigned char *y,
			   const unsigned char *z, unsigned char *out)
{
	struct aux_piece pieces[3];

	pieces[0].data = x;
	pieces[0].nbits = 8 * SM3_BYTES;
	pieces[1].data = y;
	pieces[1].nbits = 8 * SM3_BYTES;
	pieces[2].data = z;
	pieces[2].nbits = z ? 8 * SM3_BYTES : 0;
	sm3_of_pieces(pieces, z ? 3 : 2, out);
}

int pseudohash(int digest_len_bits, const unsigned char *msg,
	       unsigned long long msg_len_bits, unsigned char *digest)
{
	unsigned char key[64], tag[2] = { 0x00, 0x00 };
	unsigned char k1[SM3_BYTES], k2[SM3_BYTES], k3[SM3_BYTES], k4[SM3_BYTES];
	unsigned char *h1 = digest, *h2 = digest + SM3_BYTES;
	unsigned char *h3 = digest + 2 * SM3_BYTES, *h4 = digest + 3 * SM3_BYTES;
	struct aux_piece pieces[2];

	switch (digest_len_bits) {
	case 512: tag[0] = 0x02; break;
	case 768: tag[0] = 0x03; break;
	case 1024: tag[0] = 0x04; break;
	default:
		fprintf(stderr, "pseudohash: unsupported digest length %d bits "
			"(512, 768 or 1024)\n", digest_len_bits);
		return AUX_UNSUPPORTED_LENGTH;
	}
	pseudohash_key(key);

	hmac_sm3(key, tag, 16, msg, msg_len_bits, k1);   /* tag first */
	pieces[0].data = msg;                            /* tag last */
	pieces[0].nbits = msg_len_bits;
	pieces[1].data = tag;
	pieces[1].nbits = 16;
	sm3_of_pieces(pieces, 2, h1);
	sm3_of_digests(k1, h1, NULL, h2);
	if (digest_len_bits == 512)
		return 0;

	hmac_sm3(key, h1, 8 * SM3_BYTES, NULL, 0, k2);
	sm3_of_digests(h2, k2, NULL, h3);
	if (digest_len_bits == 768)
		return 0;

	hmac_sm3(key, h2, 8 * SM3_BYTES, NULL, 0, k3);
	hmac_sm3(key, h3, 8 * SM3_BYTES, NULL, 0, k4);
	sm3_of_digests(k3, h3, k4, h4);
	return 0;
}
