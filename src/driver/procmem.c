/* procmem.c — see procmem.h. */
#include "driver/procmem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

long long procmem_resident_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long long size = 0, resident = -1;
	if (!f)
		return -1;
	if (fscanf(f, "%lld %lld", &size, &resident) != 2)
		resident = -1;
	fclose(f);
	return resident < 0 ? -1 : resident * sysconf(_SC_PAGESIZE);
}

long long procmem_hwm_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long long kib = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "VmHWM:", 6)) {
			kib = strtoll(line + 6, NULL, 10);
			break;
		}
	fclose(f);
	return kib;
}

int procmem_reset_hwm(void)
{
	int fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	int rc = write(fd, "5", 1) == 1 ? 0 : errno;
	close(fd);
	return rc;
}
