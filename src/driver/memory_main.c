/*
 * memory_main.c — bin/ngcc-perf-memory: the memory pass of one
 * operation of one candidate library (docs/method.md §8, R5, R6).
 *
 *   ngcc-perf-memory --lib PATH --op OP --calls N [--cpu N]
 *                    [--seed-hex HEX]
 *
 * Load, seed and setup are the timing driver's (driver/ops.h).  Then:
 *
 *  1. operation peak RSS (R5): VmHWM is reset through clear_refs right
 *     after setup, the N calls run on the main thread, VmHWM is read; if
 *     the kernel refuses the reset, a forked child makes the calls and
 *     reports its own VmHWM.  This comes first: the painted stack below
 *     is 64 MiB of resident memory.
 *  2. per call, on a thread whose 64 MiB stack we allocate and paint
 *     (pthread_attr_setstack): the deepest overwritten word, minus the
 *     figure of an empty function run the same way (stack peak, R6),
 *     looked for from the lowest page the call wrote where the kernel
 *     says which (struct stack_scan: a call's cost follows its own stack,
 *     not the 64 MiB; the figure is the same); and
 *     the live-byte peak and allocation count of the heap, counted by the
 *     allocation wrappers below, which are on only around the call (a
 *     KEX step's earlier steps are prepared on the main thread first);
 *  3. what the type observes beyond that (ops_memory_extra: the lengths
 *     of 100 signatures), reported as "extra".
 *
 * The wrappers are why this is a program of its own: no timing process
 * ever carries them.  They are defined in this executable and exported
 * (src/driver/mem/allocator.dynlist), so they come first in every
 * library's symbol lookup, and they forward to the C library's allocator
 * found with dlsym(RTLD_NEXT); the allocations dlsym itself makes meanwhile
 * come from a small static arena.
 *
 * The result is one JSON object on fd 3.  Exit codes: 0 complete, 2 usage,
 * load or symbol error, 3 setup or operation failure.
 */
#include "driver/child.h"
#include "driver/ops.h"
#include "driver/mem/memprobe.h"
#include "driver/procmem.h"
#include "proc/spawn.h"

#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

enum { DRV_OK = 0, DRV_USAGE = 2, DRV_OPFAIL = 3 };

#define STACK_BYTES (64ull << 20)
#define MAX_CALLS 1000
#define HEAP_SLOTS (1u << 18)
#define BOOT_ARENA_BYTES (256u << 10)

/* ---- allocation wrappers ------------------------------------------------------ */

static void *(*real_malloc)(size_t);
static void (*real_free)(void *);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_memalign)(size_t, size_t);

static int resolving;
static _Alignas(16) unsigned char boot_arena[BOOT_ARENA_BYTES];
static size_t boot_used;

static atomic_int counting;
static atomic_flag heap_lock = ATOMIC_FLAG_INIT;
static struct heap_count heap;

static void *boot_alloc(size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (n > sizeof boot_arena - boot_used)
		return NULL;
	void *p = boot_arena + boot_used;
	boot_used += n;
	return p;
}

static int in_boot(const void *p)
{
	return (const unsigned char *)p >= boot_arena &&
	       (const unsigned char *)p < boot_arena + sizeof boot_arena;
}

#define RESOLVE(name) real_##name = (__typeof__(real_##name))dlsym(RTLD_NEXT, #name)

static void resolve(void)
{
	if (real_malloc || resolving)
		return;
	resolving = 1;
	RESOLVE(free);
	RESOLVE(calloc);
	RESOLVE(realloc);
	RESOLVE(posix_memalign);
	RESOLVE(aligned_alloc);
	RESOLVE(memalign);
	RESOLVE(malloc);
	resolving = 0;
	if (!real_malloc || !real_free || !real_calloc || !real_realloc) {
		static const char msg[] = "ngcc-perf-memory: cannot find the C library's allocator\n";
		(void)!write(2, msg, sizeof msg - 1);
		_exit(DRV_OPFAIL);
	}
}

static void note_alloc(void *p, size_t n)
{
	if (!p || !atomic_load_explicit(&counting, memory_order_relaxed))
		return;
	while (atomic_flag_test_and_set_explicit(&heap_lock, memory_order_acquire))
		;
	heap_note_alloc(&heap, p, n);
	atomic_flag_clear_explicit(&heap_lock, memory_order_release);
}

static void note_free(void *p)
{
	if (!p || !atomic_load_explicit(&counting, memory_order_relaxed))
		return;
	while (atomic_flag_test_and_set_explicit(&heap_lock, memory_order_acquire))
		;
	heap_note_free(&heap, p);
	atomic_flag_clear_explicit(&heap_lock, memory_order_release);
}

void *malloc(size_t n)
{
	resolve();
	if (!real_malloc)
		return boot_alloc(n);
	void *p = real_malloc(n);
	note_alloc(p, n);
	return p;
}

void *calloc(size_t n, size_t size)
{
	resolve();
	if (!real_calloc) /* dlsym's own calloc: static memory is zero */
		return size && n > SIZE_MAX / size ? NULL : boot_alloc(n * size);
	void *p = real_calloc(n, size);
	note_alloc(p, n * size);
	return p;
}

void free(void *p)
{
	if (!p || in_boot(p))
		return;
	resolve();
	if (!real_free)
		return;
	note_free(p);
	real_free(p);
}

void *realloc(void *p, size_t n)
{
	resolve();
	if (p && in_boot(p)) {
		void *q = malloc(n);
		size_t room = (size_t)(boot_arena + sizeof boot_arena - (unsigned char *)p);
		if (q)
			memcpy(q, p, n < room ? n : room);
		return q;
	}
	if (!real_realloc)
		return boot_alloc(n);
	void *q = real_realloc(p, n);
	if (q || !n) {
		note_free(p);
		note_alloc(q, n);
	}
	return q;
}

int posix_memalign(void **out, size_t align, size_t n)
{
	resolve();
	int rc = real_posix_memalign(out, align, n);
	if (!rc)
		note_alloc(*out, n);
	return rc;
}

void *aligned_alloc(size_t align, size_t n)
{
	resolve();
	void *p = real_aligned_alloc(align, n);
	note_alloc(p, n);
	return p;
}

void *memalign(size_t align, size_t n)
{
	resolve();
	void *p = real_memalign(align, n);
	note_alloc(p, n);
	return p;
}

/* ---- options ----------------------------------------------------------- */

struct options {
	struct op_opts k;
	long calls;
	int force_fork;     /* --op-peak-method fork: as if clear_refs were refused */
	int full_scan;      /* --stack-scan full: as if written pages were not known */
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ngcc-perf-memory --lib PATH --op OP --calls N\n"
		"                        [--cpu N] [--seed-hex HEX]\n"
		"                        [--op-peak-method auto|fork] [--stack-scan auto|full]\n"
		"OP: %s\n"
		"Memory pass of one operation (docs/method.md §8): operation peak RSS,\n"
		"stack peak by painting, heap peak and allocations by counting\n"
		"wrappers.  The JSON result goes to fd 3.\n"
		"--stack-scan full: scan the whole painted stack after every call even\n"
		"where the written pages are known (the same figures, more time).\n"
		"Exit: 0 complete, 2 usage/load, 3 setup/operation failure.\n",
		ops_usage_list());
}

/* A method option: "auto", or `fallback` to force the fallback (*forced). */
static int auto_or(const char *arg, const char *fallback, int *forced)
{
	*forced = !strcmp(arg, fallback);
	return *forced || !strcmp(arg, "auto") ? 0 : -1;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		OPS_LONG_OPTIONS,
		{ "calls", required_argument, NULL, 'n' },
		{ "op-peak-method", required_argument, NULL, 'm' },
		{ "stack-scan", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	op_opts_init(&o->k);
	o->calls = -1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		int ours = op_opt(&o->k, c, optarg);
		if (ours < 0)
			return -1;
		if (ours)
			continue;
		switch (c) {
		case 'n':
			if (child_parse_long(optarg, 1, &o->calls) || o->calls > MAX_CALLS)
				return -1;
			break;
		case 'm':
			if (auto_or(optarg, "fork", &o->force_fork))
				return -1;
			break;
		case 'S':
			if (auto_or(optarg, "full", &o->full_scan))
				return -1;
			break;
		case 'h':
			usage(stdout);
			exit(DRV_OK);
		default:
			return -1;
		}
	}
	return op_opts_complete(&o->k) && o->calls > 0 && optind == argc ? 0 : -1;
}

/* ---- result ------------------------------------------------------------------ */

struct result {
	char error[512];
	long long loaded, baseline, op_peak;
	char op_peak_method[160];
	long long empty_stack;
	char stack_scan[200];
	long calls_done;
	long long *stack, *heap_peak, *allocs;
	int heap_overflow;
	json_t *extra;      /* ops_memory_extra(), or NULL */
};

static struct result res;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(res.error, sizeof res.error, fmt, ap);
	va_end(ap);
}

static json_t *jnum_or_null(long long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

static json_t *array_of(const long long *v, long n)
{
	json_t *a = json_array();
	for (long i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

static void emit_result(const struct options *o, int result_fd, int exit_code)
{
	json_t *j = json_object();
	json_object_set_new(j, "schema", json_string("ngcc-perf/memory-result/1"));
	json_object_set_new(j, "status", json_string(exit_code ? "failed" : "complete"));
	json_object_set_new(j, "exit_code", json_integer(exit_code));
	json_object_set_new(j, "error", res.error[0] ? json_string(res.error) : json_null());
	json_object_set_new(j, "operation", json_string(o->k.op));
	json_object_set_new(j, "calls", json_integer(res.calls_done));
	json_object_set_new(j, "stack_bytes", json_integer((json_int_t)STACK_BYTES));
	json_object_set_new(j, "loaded_rss_bytes", jnum_or_null(res.loaded));
	json_object_set_new(j, "baseline_rss_bytes", jnum_or_null(res.baseline));
	json_object_set_new(j, "op_peak_rss_bytes", jnum_or_null(res.op_peak));
	json_object_set_new(j, "op_peak_method", json_string(res.op_peak_method));
	json_object_set_new(j, "empty_stack_bytes", jnum_or_null(res.empty_stack));
	json_object_set_new(j, "stack_scan", json_string(res.stack_scan));
	json_object_set_new(j, "heap_counting", json_string("interposed malloc/calloc/realloc/free/"
				"posix_memalign/aligned_alloc/memalign"));
	json_object_set_new(j, "heap_table_overflow", json_boolean(res.heap_overflow));
	json_t *pc = json_object();
	json_object_set_new(pc, "stack_peak_bytes", array_of(res.stack, res.calls_done));
	json_object_set_new(pc, "heap_peak_bytes", array_of(res.heap_peak, res.calls_done));
	json_object_set_new(pc, "allocations", array_of(res.allocs, res.calls_done));
	json_object_set_new(j, "per_call", pc);
	if (res.extra)
		json_object_set(j, "extra", res.extra);
	child_write_result("ngcc-perf-memory", result_fd, j);
	json_decref(j);
}

/* ---- operation peak RSS (R5) ------------------------------------------------- */

static int calls_on_this_thread(struct op_ctx *k, long n)
{
	for (long i = 0; i < n; i++)
		if (ops_call_once(k))
			return -1;
	return 0;
}

/* clear_refs refused: a child makes the calls; its VmHWM comes back on a
 * pipe (-1 when it failed). */
static long long op_peak_by_fork(struct op_ctx *k, long n)
{
	int fds[2];
	if (pipe(fds))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		long long kib = calls_on_this_thread(k, n) ? -1 : procmem_hwm_kib();
		(void)!write(fds[1], &kib, sizeof kib);
		_exit(0);
	}
	close(fds[1]);
	long long kib = -1;
	if (pid < 0 || read(fds[0], &kib, sizeof kib) != (ssize_t)sizeof kib)
		kib = -1;
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return kib < 0 ? -1 : kib * 1024;
}

/* force_fork: take the fallback even where the reset works (tests). */
static int measure_op_peak(struct op_ctx *k, long n, int force_fork)
{
	int err = force_fork ? 0 : procmem_reset_hwm();
	if (!err && !force_fork) {
		if (calls_on_this_thread(k, n)) {
			fail("%s", ops_failure());
			return -1;
		}
		long long kib = procmem_hwm_kib();
		res.op_peak = kib < 0 ? -1 : kib * 1024;
		snprintf(res.op_peak_method, sizeof res.op_peak_method, "clear_refs");
		return 0;
	}
	res.op_peak = op_peak_by_fork(k, n);
	if (force_fork)
		snprintf(res.op_peak_method, sizeof res.op_peak_method, "fork (requested)");
	else
		snprintf(res.op_peak_method, sizeof res.op_peak_method,
			 "fork (clear_refs refused: %s)", strerror(err));
	if (res.op_peak < 0) {
		fail("the operation failed in the forked child of the operation peak RSS");
		return -1;
	}
	return 0;
}

/* ---- stack and heap per call (R6) ------------------------------------------- */

struct stack_run {
	struct op_ctx *k;
	int (*fn)(struct op_ctx *);
	int rc;
	unsigned long long heap_peak, allocs;
};

/* The empty function: what thread start-up and our own frames use. */
__attribute__((noinline)) static int empty_call(struct op_ctx *k)
{
	(void)k;
	__asm__ volatile("" ::: "memory");
	return 0;
}

static void *on_painted_stack(void *arg)
{
	struct stack_run *r = arg;
	heap_count_reset(&heap);
	atomic_store(&counting, 1);
	r->rc = r->fn(r->k);
	atomic_store(&counting, 0);
	r->heap_peak = heap.peak;
	r->allocs = heap.allocs;
	res.heap_overflow |= heap.overflow;
	return NULL;
}

struct painted_stack {
	unsigned char *map;   /* guard page + stack */
	unsigned char *lo;
	size_t len, page;
	struct stack_scan scan;
};

static int stack_open(struct painted_stack *s, int full_scan)
{
	s->page = (size_t)sysconf(_SC_PAGESIZE);
	s->len = STACK_BYTES;
	s->map = mmap(NULL, s->len + s->page, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->map == MAP_FAILED) {
		fail("cannot map the %llu-byte painted stack: %s", STACK_BYTES, strerror(errno));
		return -1;
	}
	/* An overflow faults instead of writing below the stack. */
	mprotect(s->map, s->page, PROT_NONE);
	s->lo = s->map + s->page;
	/* Transparent huge pages where the kernel has them: painting 64 MiB
	 * then takes 32 page faults instead of 16,384, which halves the
	 * process's time.  The figures do not change: the scan still starts
	 * at the lowest written page (a huge page's first one at worst) and
	 * compares words.  Without them (THP "never") this does nothing. */
	(void)madvise(s->lo, s->len, MADV_HUGEPAGE);
	stack_paint(s->lo, s->len);
	stack_scan_open(&s->scan, s->lo, s->len, NULL, full_scan);
	return 0;
}

/* Run r on the painted stack; returns the bytes used, or -1. */
static long long run_painted(struct painted_stack *s, struct stack_run *r)
{
	pthread_attr_t attr;
	pthread_t t;
	if (pthread_attr_init(&attr) || pthread_attr_setstack(&attr, s->lo, s->len)) {
		fail("cannot set up the painted stack thread");
		return -1;
	}
	int err = pthread_create(&t, &attr, on_painted_stack, r);
	pthread_attr_destroy(&attr);
	if (err) {
		fail("cannot start the painted stack thread: %s", strerror(err));
		return -1;
	}
	pthread_join(t, NULL);
	size_t used = stack_scan_used(&s->scan);
	stack_repaint(s->lo, s->len, used);
	stack_scan_arm(&s->scan);
	return (long long)used;
}

static int measure_calls(struct op_ctx *k, long n, int full_scan)
{
	struct painted_stack s;
	if (stack_open(&s, full_scan))
		return -1;
	struct stack_run empty = { k, empty_call, 0, 0, 0 };
	long long base = run_painted(&s, &empty);
	/* The smallest of a few empty runs: thread start-up is not always
	 * the same depth. */
	for (int i = 0; i < 2 && base >= 0; i++) {
		long long again = run_painted(&s, &empty);
		if (again >= 0 && again < base)
			base = again;
	}
	res.empty_stack = base;
	int rc = base < 0 ? -1 : 0;
	for (long i = 0; i < n && !rc; i++) {
		if (ops_prepare(k)) {
			fail("%s", ops_failure());
			rc = -1;
			break;
		}
		struct stack_run r = { k, ops_raw_call, 0, 0, 0 };
		long long used = run_painted(&s, &r);
		if (used < 0 || ops_check_call(k, r.rc)) {
			if (used >= 0)
				fail("%s", ops_failure());
			rc = -1;
			break;
		}
		res.stack[i] = used > base ? used - base : 0;
		res.heap_peak[i] = (long long)r.heap_peak;
		res.allocs[i] = (long long)r.allocs;
		res.calls_done = i + 1;
	}
	/* The method at the end: a fallback on the way is the last word. */
	snprintf(res.stack_scan, sizeof res.stack_scan, "%s", s.scan.method);
	stack_scan_close(&s.scan);
	munmap(s.map, s.len + s.page);
	return rc;
}

/* ---- main ---------------------------------------------------------------------- */

static int run(const struct options *o, struct op_ctx *k)
{
	int lrc = ops_open(o->k.lib, o->k.op, k);
	if (lrc) {
		fail("%s", ops_failure());
		return DRV_USAGE;
	}
	k->lib.seed(o->k.seed, o->k.seed_len);
	res.loaded = procmem_resident_bytes();
	if (ops_setup(k)) {
		fail("%s", ops_failure());
		return DRV_OPFAIL;
	}
	res.baseline = procmem_resident_bytes();
	if (measure_op_peak(k, o->calls, o->force_fork))
		return DRV_OPFAIL;
	if (measure_calls(k, o->calls, o->full_scan))
		return DRV_OPFAIL;
	if (ops_memory_extra(k, &res.extra)) {
		fail("%s", ops_failure());
		return DRV_OPFAIL;
	}
	return DRV_OK;
}

int main(int argc, char **argv)
{
	static struct heap_slot slots[HEAP_SLOTS];
	struct options o;
	struct op_ctx k;
	memset(&o, 0, sizeof o);
	memset(&k, 0, sizeof k);
	res.loaded = res.baseline = res.op_peak = res.empty_stack = -1;
	snprintf(res.op_peak_method, sizeof res.op_peak_method, "not measured");
	snprintf(res.stack_scan, sizeof res.stack_scan, "not measured");
	heap_count_init(&heap, slots, HEAP_SLOTS);
	int result_fd = child_hide_result_fd();
	if (parse_options(argc, argv, &o)) {
		fprintf(stderr, "ngcc-perf-memory: invalid or missing options\n");
		usage(stderr);
		return DRV_USAGE;
	}
	res.stack = calloc((size_t)o.calls, sizeof *res.stack);
	res.heap_peak = calloc((size_t)o.calls, sizeof *res.heap_peak);
	res.allocs = calloc((size_t)o.calls, sizeof *res.allocs);
	if (!res.stack || !res.heap_peak || !res.allocs) {
		fprintf(stderr, "ngcc-perf-memory: out of memory\n");
		return DRV_OPFAIL;
	}
	if (o.k.cpu >= 0)
		child_pin_cpu("ngcc-perf-memory", o.k.cpu);
	int rc = run(&o, &k);
	if (rc)
		fprintf(stderr, "ngcc-perf-memory: %s %s: %s\n", o.k.lib, o.k.op, res.error);
	emit_result(&o, result_fd, rc);
	ops_close(&k);
	free(res.stack);
	free(res.heap_peak);
	free(res.allocs);
	/* No dlclose, as in the timing driver. */
	return rc;
}
