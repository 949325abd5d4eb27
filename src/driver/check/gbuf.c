/* gbuf.c — see gbuf.h. */
#include "driver/check/gbuf.h"

#include "driver/check/watch.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? (size_t)p : 4096;
}

int gbuf_alloc(struct gbuf *b, const char *name, unsigned long long cap, size_t offset)
{
	memset(b, 0, sizeof *b);
	if (offset > GBUF_MAX_OFFSET || cap > (1ull << 30)) {
		errno = EINVAL;
		return -1;
	}
	size_t page = page_size();
	size_t need = GBUF_GUARD + offset + (size_t)cap + GBUF_GUARD;
	size_t len = (need + page - 1) / page * page;
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return -1;
	b->name = name;
	b->map = m;
	b->map_len = len;
	b->offset = offset;
	b->data = b->map + GBUF_GUARD + offset;
	b->cap = cap;
	/* A mapping may reuse addresses whose poisoning outlived an earlier
	 * munmap (ASan keeps its shadow): start from addressable. */
	watch_guard_open(b->map, b->map_len);
	gbuf_clear(b);
	return 0;
}

void gbuf_free(struct gbuf *b)
{
	if (b->map) {
		watch_guard_open(b->map, b->map_len);
		munmap(b->map, b->map_len);
	}
	memset(b, 0, sizeof *b);
}

void gbuf_guard_restore(struct gbuf *b)
{
	size_t front = (size_t)(b->data - b->map);
	size_t back = b->map_len - front - (size_t)b->cap;
	watch_guard_open(b->map, front);
	watch_guard_open(b->data + b->cap, back);
	memset(b->map, GBUF_FILL, front);
	memset(b->data + b->cap, GBUF_FILL, back);
	watch_guard_close(b->map, front);
	watch_guard_close(b->data + b->cap, back);
}

void gbuf_clear(struct gbuf *b)
{
	memset(b->data, 0, (size_t)b->cap);
	gbuf_guard_restore(b);
	b->len = 0;
}

int gbuf_guard_damaged(const struct gbuf *b, long long *where)
{
	/* Under a memory checker the guards are inaccessible: a write into
	 * them has been reported by the checker already. */
	if (watch_guards_inaccessible())
		return 0;
	size_t front = (size_t)(b->data - b->map);
	for (size_t i = 0; i < front; i++)
		if (b->map[i] != GBUF_FILL) {
			*where = -(long long)(front - i);
			return 1;
		}
	const unsigned char *end = b->data + b->cap;
	size_t back = b->map_len - front - (size_t)b->cap;
	for (size_t i = 0; i < back; i++)
		if (end[i] != GBUF_FILL) {
			*where = (long long)(b->cap + i);
			return 1;
		}
	return 0;
}

int gbuf_protect(struct gbuf *b, int readonly)
{
	return mprotect(b->map, b->map_len, readonly ? PROT_READ : PROT_READ | PROT_WRITE);
}
