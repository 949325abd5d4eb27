/*
 * exkex.h — ExampleKEX, an authenticated key exchange from two
 * encryptions under a small LWE public-key scheme (Frodo-like, arithmetic
 * mod 2^16): each party holds a long-term LWE key pair; A encrypts a fresh
 * 32-byte key share to B, B decrypts it and encrypts its own share to A;
 * both hash the two shares and the transcript.  EXKEX_PASSES (2 or 3, set
 * by the instance's KEX_AlgorithmInstance.h) adds key confirmation: B's
 * tag rides on m2, and A's tag is the third message.
 */
#ifndef EXKEX_H
#define EXKEX_H

#include <stddef.h>

#include "../KEX_AlgorithmInstance.h" /* EXKEX_PASSES */

#if EXKEX_PASSES != 2 && EXKEX_PASSES != 3
#error "EXKEX_PASSES must be 2 or 3"
#endif

#define EXKEX_LWE_N 128    /* LWE dimension */
#define EXKEX_NBAR 8       /* secret columns */
#define EXKEX_ETA 2        /* centred binomial noise in [-2, 2] */
#define EXKEX_BITS 4       /* key bits per entry of the 8x8 block */
#define EXKEX_SEEDABYTES 16
#define EXKEX_SHAREBYTES 32 /* a key share: 8*8 entries x 4 bits */
#define EXKEX_HASHBYTES 32

#define EXKEX_MATBYTES (EXKEX_LWE_N * EXKEX_NBAR * 2)
#define EXKEX_PKBYTES (EXKEX_SEEDABYTES + EXKEX_MATBYTES)
#define EXKEX_SKBYTES (EXKEX_LWE_N * EXKEX_NBAR) /* S, one byte per entry */
#define EXKEX_CTBYTES (EXKEX_MATBYTES + EXKEX_NBAR * EXKEX_NBAR * 2)
#define EXKEX_TAGBYTES 32
#define EXKEX_SSBYTES 32

/* The longest message (m2 with B's tag in the 3-pass instance). */
#define EXKEX_MSGBYTES (EXKEX_CTBYTES + EXKEX_TAGBYTES)
/* A: share || H(m1), then the session key; B: the session key. */
#define EXKEX_STABYTES (EXKEX_SHAREBYTES + EXKEX_HASHBYTES)
#define EXKEX_STBBYTES EXKEX_HASHBYTES

/* Return 0, -1 (a confirmation tag or message is wrong) or -2 (an ICCS
 * primitive failed). */
int exkex_keypair(unsigned char *pk, unsigned char *sk);
/* A, pass 1: m1 = Enc(pkb, share_a); sta = share_a || H(m1). */
int exkex_start(const unsigned char *pkb, unsigned char *sta, unsigned char *m1);
/* B, pass 2: m2 = Enc(pka, share_b) [|| tag_b]; stb = session key. */
int exkex_respond(const unsigned char *skb, const unsigned char *pka,
		  const unsigned char *m1, unsigned char *stb, unsigned char *m2);
/* A: the session key from m2; overwrites sta with it.  In the 3-pass
 * instance *bad_tag is 1 when B's tag in m2 is wrong (else 0). */
int exkex_finish_a(const unsigned char *ska, const unsigned char *m2, unsigned char *sta,
		   int *bad_tag);
/* 1 when the n bytes of a and b differ, else 0, with neither a branch nor
 * a memory index depending on them: a tag made from the session key is
 * secret until compared, and an early exit would tell how much of a
 * forged tag is right. */
int exkex_tag_differs(const unsigned char *a, const unsigned char *b, size_t n);
/* The confirmation tags of party 'A' or 'B'. */
int exkex_tag(char party, const unsigned char *session_key, unsigned char *tag);
/* The shared secret from a session key. */
int exkex_secret(const unsigned char *session_key, unsigned char *ss);

#endif
