/*
 * arch.h — machine architecture names as people and programs write them:
 * uname says "x86_64" and "aarch64"; systems.csv and the pages may say
 * "x86-64", "amd64", "AArch64" or "arm64".  One rule for every comparison.
 */
#ifndef NGCC_METHOD_ARCH_H
#define NGCC_METHOD_ARCH_H

/* 1 if `written` names the machine uname calls `machine` (case-insensitive,
 * with the usual aliases), else 0.  NULL never matches. */
int arch_matches(const char *written, const char *machine);

#endif
