/*
 * interrupt.h — Ctrl-C and SIGTERM during the long measuring phases turned
 * into a flag: the phase stops its current child, writes nothing for the
 * unit it cut short, says what was kept and what a rerun will redo, and
 * exits 130.  A second signal ends the process at once, as usual.
 */
#ifndef NGCC_INTERRUPT_H
#define NGCC_INTERRUPT_H

/* Catch SIGINT and SIGTERM from now on (once is enough). */
void interrupt_catch(void);
/* The signal caught since interrupt_catch(), or 0. */
int interrupt_pending(void);
/* "SIGINT", "SIGTERM". */
const char *interrupt_name(int sig);

#endif
