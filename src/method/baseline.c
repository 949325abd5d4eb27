/* baseline.c — see baseline.h. */
#include "method/baseline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static const char *const fn_names[ICCS_NFN] = { "sm3hash", "pseudohash", "pseudoXOF" };

const char *iccs_fn_name(enum iccs_fn fn)
{
	return (unsigned)fn < ICCS_NFN ? fn_names[fn] : NULL;
}

const struct baseline_fixed baseline_fixed[] = {
	{ ICCS_SM3HASH, 256 },
	{ ICCS_PSEUDOHASH, 512 },
	{ ICCS_PSEUDOHASH, 768 },
	{ ICCS_PSEUDOHASH, 1024 },
};
const int n_baseline_fixed = sizeof baseline_fixed / sizeof baseline_fixed[0];

char *baseline_label(enum iccs_fn fn, int bits, const char *copy_of)
{
	if (copy_of && *copy_of)
		return xasprintf("%s-%d.%s", iccs_fn_name(fn), bits, copy_of);
	return xasprintf("%s-%d", iccs_fn_name(fn), bits);
}

int baseline_label_parse(const char *label, struct baseline_label *out)
{
	memset(out, 0, sizeof *out);
	for (int f = 0; f < ICCS_NFN; f++) {
		size_t n = strlen(fn_names[f]);
		if (strncmp(label, fn_names[f], n) || label[n] != '-')
			continue;
		const char *p = label + n + 1;
		char *end = NULL;
		long bits = strtol(p, &end, 10);
		if (end == p || bits < 8 || bits > 65536 || (*end && *end != '.'))
			return -1;
		if (*end == '.' && (!end[1] || strlen(end + 1) >= sizeof out->copy_of))
			return -1;
		out->fn = (enum iccs_fn)f;
		out->bits = (int)bits;
		if (*end == '.')
			snprintf(out->copy_of, sizeof out->copy_of, "%s", end + 1);
		return 0;
	}
	return -1;
}
