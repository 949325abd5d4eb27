/*
 * katstatus.c — names of the KAT statuses, as results and evidence spell
 * them.
 */
#include "kat/katstatus.h"

#include <stddef.h>
#include <string.h>

/* Index = enum kat_status. */
static const char *const status_names[] = {
	"PASS", "MISMATCH", "NOKAT", "CRYPTOFAIL", "OVERFLOW",
	"LOADFAIL", "TIMEOUT", "CRASH", "BUILDFAIL", "PARTIAL", "UNSUPPORTED_CPU",
};
#define N_STATUS (sizeof(status_names) / sizeof(status_names[0]))

const char *kat_status_name(enum kat_status s)
{
	if ((unsigned)s >= N_STATUS)
		return "UNKNOWN";
	return status_names[s];
}

int kat_status_parse(const char *name)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < N_STATUS; i++)
		if (!strcmp(name, status_names[i]))
			return (int)i;
	return -1;
}
