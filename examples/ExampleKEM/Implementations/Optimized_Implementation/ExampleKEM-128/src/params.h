/*
 * params.h — parameter set of this instance of ExampleKEM.
 *
 * ExampleKEM is a module-LWE key encapsulation mechanism over
 * Z_q[X]/(X^256 + 1), q = 3329, with a Fujisaki-Okamoto transform
 * (re-encryption check, implicit rejection).  Every instance folder carries
 * its own copy of the sources; only this file differs between them.
 */
#ifndef EXKEM_PARAMS_H
#define EXKEM_PARAMS_H

/* ---- instance-specific ------------------------------------------------ */
#define EXKEM_K 2      /* module rank */
#define EXKEM_ETA1 3   /* noise of s, e and r */
#define EXKEM_ETA2 2   /* noise of e1 and e2 */
#define EXKEM_DU 10    /* bits per coefficient of u in the ciphertext */
#define EXKEM_DV 4     /* bits per coefficient of v in the ciphertext */

/* Prefix of every external symbol of the scheme, so that several instances
 * can be linked into one program. */
#define EXKEM_NS(s) exkem128_##s

/* ---- common to all instances ------------------------------------------ */
#define EXKEM_N 256
#define EXKEM_Q 3329
#define EXKEM_SYMBYTES 32 /* seeds, messages, hashes */
#define EXKEM_SSBYTES 32  /* shared secret */

#define EXKEM_POLYBYTES (EXKEM_N * 12 / 8)
#define EXKEM_POLYVECBYTES (EXKEM_K * EXKEM_POLYBYTES)
#define EXKEM_UBYTES (EXKEM_N * EXKEM_DU / 8)
#define EXKEM_VBYTES (EXKEM_N * EXKEM_DV / 8)

#define EXKEM_PKE_PKBYTES (EXKEM_POLYVECBYTES + EXKEM_SYMBYTES)
#define EXKEM_PKE_SKBYTES EXKEM_POLYVECBYTES

/* KEM: sk = pke_sk || pk || H(pk) || z */
#define EXKEM_PKBYTES EXKEM_PKE_PKBYTES
#define EXKEM_SKBYTES (EXKEM_PKE_SKBYTES + EXKEM_PKBYTES + 2 * EXKEM_SYMBYTES)
#define EXKEM_CTBYTES (EXKEM_K * EXKEM_UBYTES + EXKEM_VBYTES)

#endif
