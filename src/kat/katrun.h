/*
 * katrun.h — the pieces every KAT replay shares (KEM, signature, key
 * exchange, hash; docs/iccs.md §4): buffers between two guard zones of
 * KAT_GUARD_BYTES × KAT_GUARD_BYTE, the checks made after every candidate
 * call, the detail text of a failure, and the `Name = HEX` lines.
 */
#ifndef NGCC_KATRUN_H
#define NGCC_KATRUN_H

#include "kat/katstatus.h"
#include "runtime/drng.h"
#include "util/util.h"

/* A buffer of `size` usable bytes between two guard zones. */
struct kat_gbuf {
	const char *name;
	unsigned char *base;
	unsigned char *data; /* base + KAT_GUARD_BYTES; zeroed at allocation */
	unsigned long long size;
};

/* Allocates or exits with an error naming the buffer and its size (the
 * official drivers need these buffers too; there is nothing to replay
 * without them). */
void kat_gbuf_alloc(struct kat_gbuf *g, const char *name, unsigned long long size);
void kat_gbuf_free(struct kat_gbuf *g);
/* NULL if both guard zones are intact, else "before" or "after". */
const char *kat_gbuf_damage(const struct kat_gbuf *g);

/* One replay in progress: where its text goes, the buffers the candidate
 * sees, where it is (for the failure detail) and the first failure. */
struct kat_run {
	struct strbuf *text;
	struct kat_gbuf *bufs;
	int nbufs;
	char where[96]; /* "Count 3", "KAT_2_12 Msg_Len 17", ... */
	char *detail;
};

/* Sets the detail to "<where>: <message>" and returns st. */
enum kat_status kat_fail(struct kat_run *run, enum kat_status st,
			 const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* OVERFLOW if any guard zone of run->bufs was overwritten by `call`. */
enum kat_status kat_check_guards(struct kat_run *run, const char *call);
/* Guard zones first, then CRYPTOFAIL if `failed` (the caller's reading of
 * rc: != 0 for most calls, < 0 for the key-exchange ones). */
enum kat_status kat_check_call(struct kat_run *run, const char *call, int rc,
			       int failed);
/* OVERFLOW if `len` (returned by `call`) exceeds buffer g's getter size. */
enum kat_status kat_check_len(struct kat_run *run, const char *call,
			      const struct kat_gbuf *g, unsigned long long len);
/* Hands the detail to *detail (or frees it when detail is NULL). */
void kat_run_finish(struct kat_run *run, char **detail);

/* "Name = HEX\n", uppercase, no separators; "Name = \n" when empty. */
void kat_emit_hex(struct strbuf *sb, const char *name,
		  const unsigned char *p, unsigned long long len);
/* "Name_Len = %llu\n" then the hex line. */
void kat_emit_field(struct strbuf *sb, const char *name,
		    const unsigned char *p, unsigned long long len);
/* How every PKC record starts (KEM, SIG, KEX): run->where = "Count
 * <count>", the "Count = <count>" line, then the record's seed drawn from
 * drng_seed into seed and its Seed_Len and Seed lines. */
void kat_begin_record(struct kat_run *run, int count, DRNG_ctx *drng_seed,
		      unsigned char seed[KAT_SEED_BYTES]);

/* Instantiates a DRNG with the 64-byte nonce made of `pattern` repeated and
 * cut at 64 bytes: "seed" x 16, "msg" x 21 || "m", "KAT_2_12" x 8. */
void kat_drng_init_repeated(DRNG_ctx *drng, const char *pattern);
/* drng_seed's pattern, shared by every KEM, SIG and KEX file (§4.1). */
#define KAT_SEED_NONCE "seed"

/* Largest getter value we are prepared to allocate (a sanity bound). */
#define KAT_MAX_BUFFER (256ULL << 20)
/* CRYPTOFAIL when a getter claims more than KAT_MAX_BUFFER. */
enum kat_status kat_check_getter(struct kat_run *run, const char *getter,
				 unsigned long long claimed);

#define KAT_TRY(expr)                              \
	do {                                       \
		enum kat_status st_ = (expr);      \
		if (st_ != KAT_PASS)               \
			return st_;                \
	} while (0)

#endif
