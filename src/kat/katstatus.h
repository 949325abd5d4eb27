/*
 * katstatus.h — the KAT statuses (also the KAT child's exit codes) and the
 * constants every KAT replay shares: seed length, guard zones, record count.
 */
#ifndef NGCC_KATSTATUS_H
#define NGCC_KATSTATUS_H

/* KAT statuses; the value is also the KAT child's exit code (docs/method.md §2.2). */
enum kat_status {
	KAT_PASS = 0,
	KAT_MISMATCH = 1,
	KAT_NOKAT = 2,
	KAT_CRYPTOFAIL = 3,
	KAT_OVERFLOW = 4,
	KAT_LOADFAIL = 5,
	KAT_TIMEOUT = 6,
	KAT_CRASH = 7,
	KAT_BUILDFAIL = 8,
	/* Set by the gate, never a child's exit code: a hash instance whose
	 * KAT files that ran all passed while one or more was skipped on
	 * request (the campaign also calls a timed-out KAT whose one-record
	 * recheck matched PARTIAL). */
	KAT_PARTIAL = 9,
	/* Set by the gate before anything runs: the variant needs a CPU
	 * feature (or architecture) this host lacks (host/cpufeat.h). */
	KAT_UNSUPPORTED_CPU = 10,
};
const char *kat_status_name(enum kat_status s);
int kat_status_parse(const char *name); /* -1 if unknown */

#define KAT_SEED_BYTES 64
#define KAT_GUARD_BYTES 64
#define KAT_GUARD_BYTE 0xA5
#define KAT_DEFAULT_RECORDS 10

#endif
