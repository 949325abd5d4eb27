/*
 * kem.h — the IND-CCA KEM: Fujisaki-Okamoto transform of the IND-CPA
 * encryption with re-encryption check and implicit rejection.
 */
#ifndef EXKEM_KEM_H
#define EXKEM_KEM_H

#include <stdint.h>
#include "params.h"

#define exkem_keypair EXKEM_NS(keypair)
#define exkem_encaps EXKEM_NS(encaps)
#define exkem_decaps EXKEM_NS(decaps)

/* 0 on success, a negative value if a primitive failed. */
int exkem_keypair(uint8_t pk[EXKEM_PKBYTES], uint8_t sk[EXKEM_SKBYTES]);
int exkem_encaps(uint8_t ct[EXKEM_CTBYTES], uint8_t ss[EXKEM_SSBYTES],
		 const uint8_t pk[EXKEM_PKBYTES]);
/* A ciphertext that fails the re-encryption check still yields a secret:
 * a pseudo-random one derived from z and the ciphertext. */
int exkem_decaps(uint8_t ss[EXKEM_SSBYTES], const uint8_t ct[EXKEM_CTBYTES],
		 const uint8_t sk[EXKEM_SKBYTES]);

#endif
