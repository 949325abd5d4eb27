/* interrupt.c — see interrupt.h. */
#include "util/interrupt.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	caught = sig;
}

void interrupt_catch(void)
{
	static int installed;
	if (installed)
		return;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a poll() waiting on a child returns at once.  The
	 * handler goes after one signal, so a second one ends the process. */
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	installed = 1;
}

int interrupt_pending(void)
{
	return caught;
}

const char *interrupt_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}
