/*
 * indcpa.h — the IND-CPA public-key encryption underlying ExampleKEM.
 */
#ifndef EXKEM_INDCPA_H
#define EXKEM_INDCPA_H

#include <stdint.h>
#include "params.h"

#define indcpa_keypair EXKEM_NS(indcpa_keypair)
#define indcpa_enc EXKEM_NS(indcpa_enc)
#define indcpa_dec EXKEM_NS(indcpa_dec)

/* Deterministic in the 32-byte seed d. */
int indcpa_keypair(uint8_t pk[EXKEM_PKE_PKBYTES], uint8_t sk[EXKEM_PKE_SKBYTES],
		   const uint8_t d[EXKEM_SYMBYTES]);
/* Deterministic in the 32-byte coins. */
int indcpa_enc(uint8_t ct[EXKEM_CTBYTES], const uint8_t pk[EXKEM_PKE_PKBYTES],
	       const uint8_t msg[EXKEM_SYMBYTES], const uint8_t coins[EXKEM_SYMBYTES]);
void indcpa_dec(uint8_t msg[EXKEM_SYMBYTES], const uint8_t ct[EXKEM_CTBYTES],
		const uint8_t sk[EXKEM_PKE_SKBYTES]);

#endif
