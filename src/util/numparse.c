/* numparse.c — see numparse.h. */
#include "util/numparse.h"

#include <errno.h>
#include <stdlib.h>

int parse_whole(const char *s, long long min, long long max, long long *out)
{
	const char *p = s && *s == '-' && min < 0 ? s + 1 : s;
	if (!p || *p < '0' || *p > '9') {
		errno = EINVAL;
		return -1;
	}
	for (const char *q = p; *q; q++)
		if (*q < '0' || *q > '9') {
			errno = EINVAL;
			return -1;
		}
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, 10);
	if (errno == ERANGE || v < min || v > max) {
		errno = ERANGE;
		return -1;
	}
	*out = v;
	return 0;
}

int parse_whole_int(const char *s, int min, int max, int *out)
{
	long long v;
	if (parse_whole(s, min, max, &v))
		return -1;
	*out = (int)v;
	return 0;
}
