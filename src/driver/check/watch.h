/*
 * watch.h — what the check program tells the tool watching it, and what
 * it leaves behind for the orchestrator when the candidate takes it down.
 *
 *  - Tools.  Under valgrind (memcheck client requests from
 *    <valgrind/memcheck.h>) or in the AddressSanitizer build (manual
 *    poisoning), the guard zones of every buffer are made inaccessible,
 *    so reads into them are reported too.  For the constant-time suite,
 *    secrets are marked undefined and public outputs declassified (marked
 *    defined again): memcheck then reports every branch and every memory
 *    index that depends on a secret.  Outside a tool these are no-ops.
 *
 *  - The call context.  Before every candidate call the program writes a
 *    one-line JSON object describing it into a shared page (--progress
 *    FILE), and, asked to (--tell-valgrind), emits the same line as a
 *    valgrind client message ("ngcc-check-call {...}"), so each valgrind
 *    error in the XML stream follows the call that caused it:
 *
 *      {"round":17,"test":"tampered ciphertext","op":"dec",
 *       "call":"kem_dec(sk, 64, ct with byte 5 bit 3 flipped, 32, ss, &ss_len)",
 *       "state":"in call"|"returned",
 *       "buffers":[{"name":"sk","data":"0x...","cap":64,"len":64,
 *                   "map":"0x...","map_len":4096,"readonly":false}, ...]}
 *
 *    After a crash, a sanitizer abort or a timeout, the page still names
 *    the call that was running, and the buffers let the orchestrator say
 *    which buffer a faulting address belongs to.
 */
#ifndef NGCC_CHECK_WATCH_H
#define NGCC_CHECK_WATCH_H

#include <stddef.h>

#define WATCH_MAX_BUFS 6
#define WATCH_CALL_MSG "ngcc-check-call "

/* Under valgrind now; the AddressSanitizer build; either. */
int watch_under_valgrind(void);
int watch_asan_build(void);
int watch_guards_inaccessible(void);

/* Guard zones: addressable for our own writes, then inaccessible. */
void watch_guard_open(void *p, size_t n);
void watch_guard_close(void *p, size_t n);

/* Constant-time marking (memcheck): secret = undefined, public = defined. */
void watch_secret(const void *p, size_t n);
void watch_public(const void *p, size_t n);

/* The call context: the call and the buffers it is given. */
struct watch_buf {
	const char *name;
	const void *data, *map;     /* the data, and the whole mapping with its guards */
	unsigned long long cap, len;
	size_t map_len;
	int readonly;
};

struct watch_call {
	long round;
	const char *test;
	const char *op;
	char call[256];
	struct watch_buf bufs[WATCH_MAX_BUFS];
	int nbufs;
};

/* Map the page file (created by the orchestrator, any size); 0 or -1. */
int watch_open_page(const char *path);
/* Also emit the context as a valgrind client message (--tell-valgrind:
 * the orchestrator reads them from valgrind's XML; a person replaying a
 * finding under valgrind does not want them in the text output). */
void watch_tell_valgrind(int on);
/* Publish c before the call; watch_returned() after it. */
void watch_enter(const struct watch_call *c);
void watch_returned(void);

#endif
