/* watch.c — see watch.h. */
#include "driver/check/watch.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <valgrind/memcheck.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define WATCH_ASAN 1
#else
#define WATCH_ASAN 0
#endif

#define PAGE_BYTES 4096

static char *page;                 /* shared mapping of --progress, or NULL */
static int tell_valgrind;          /* --tell-valgrind */
static struct watch_call current;
static int have_current;

int watch_under_valgrind(void)
{
	return RUNNING_ON_VALGRIND ? 1 : 0;
}

int watch_asan_build(void)
{
	return WATCH_ASAN;
}

int watch_guards_inaccessible(void)
{
	return watch_asan_build() || watch_under_valgrind();
}

void watch_guard_open(void *p, size_t n)
{
#if WATCH_ASAN
	ASAN_UNPOISON_MEMORY_REGION(p, n);
#endif
	VALGRIND_MAKE_MEM_DEFINED(p, n);
}

void watch_guard_close(void *p, size_t n)
{
#if WATCH_ASAN
	ASAN_POISON_MEMORY_REGION(p, n);
#endif
	VALGRIND_MAKE_MEM_NOACCESS(p, n);
}

void watch_secret(const void *p, size_t n)
{
	VALGRIND_MAKE_MEM_UNDEFINED(p, n);
}

void watch_public(const void *p, size_t n)
{
	VALGRIND_MAKE_MEM_DEFINED(p, n);
}

void watch_tell_valgrind(int on)
{
	tell_valgrind = on;
}

int watch_open_page(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, PAGE_BYTES)) {
		close(fd);
		return -1;
	}
	void *m = mmap(NULL, PAGE_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -1;
	page = m;
	page[0] = '\0';
	return 0;
}

/* The context as one JSON line (our own strings only: no quoting needed). */
static int format_call(const struct watch_call *c, const char *state, char *out, size_t cap)
{
	int n = snprintf(out, cap, "{\"round\":%ld,\"test\":\"%s\",\"op\":\"%s\",\"call\":\"%s\","
			 "\"state\":\"%s\",\"buffers\":[", c->round, c->test, c->op, c->call, state);
	for (int i = 0; i < c->nbufs && n > 0 && (size_t)n < cap; i++) {
		const struct watch_buf *b = &c->bufs[i];
		n += snprintf(out + n, cap - (size_t)n,
			      "%s{\"name\":\"%s\",\"data\":\"%p\",\"cap\":%llu,\"len\":%llu,"
			      "\"map\":\"%p\",\"map_len\":%zu,\"readonly\":%s}",
			      i ? "," : "", b->name, b->data, b->cap, b->len,
			      b->map, b->map_len, b->readonly ? "true" : "false");
	}
	if (n > 0 && (size_t)n < cap)
		n += snprintf(out + n, cap - (size_t)n, "]}");
	return n > 0 && (size_t)n < cap ? 0 : -1;
}

static void publish(const char *state, int message)
{
	char line[PAGE_BYTES];
	int tell = message && tell_valgrind && watch_under_valgrind();
	if (!page && !tell)
		return;
	if (!have_current || format_call(&current, state, line, sizeof line))
		return;
	if (page)
		memcpy(page, line, strlen(line) + 1);
	if (tell)
		VALGRIND_PRINTF("%s%s\n", WATCH_CALL_MSG, line);
}

void watch_enter(const struct watch_call *c)
{
	current = *c;
	have_current = 1;
	publish("in call", 1);
}

void watch_returned(void)
{
	publish("returned", 0);
}
