/*
 * sanrep.h — read the report AddressSanitizer or UndefinedBehaviorSanitizer
 * wrote when it stopped the check program (the file set with
 * __sanitizer_set_report_path, or the program's stderr):
 *
 *   ==N==ERROR: AddressSanitizer: <kind> on address 0x... at pc ...
 *   READ of size 1 at 0x... thread T0            (or "The signal is caused
 *       #0 0x... in <fn> <file>:<line>[:<col>]    by a WRITE memory access.")
 *       #1 0x... in <fn> (<module>+0x...)
 *   SUMMARY: AddressSanitizer: <kind> <file>:<line> in <fn>
 *
 *   <file>:<line>:<col>: runtime error: <what>
 *       #0 0x... in <fn> <file>:<line>
 *   SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior <file>:<line>:<col> in
 *
 * Only the first report and its first stack (where it happened) are kept.
 */
#ifndef NGCC_CHECK_SANREP_H
#define NGCC_CHECK_SANREP_H

#include <stddef.h>

struct san_frame {
	char *fn;        /* NULL when unsymbolized */
	char *file;      /* as printed; NULL without debug information */
	long line;
	char *module;    /* "(module+0x...)" frames */
};

struct san_report {
	int present;
	char *tool;      /* "AddressSanitizer", "UndefinedBehaviorSanitizer", "LeakSanitizer" */
	char *kind;      /* "heap-buffer-overflow", "use-after-poison", "SEGV", "undefined-behavior", ... */
	char *access;    /* "READ of size 1", "WRITE memory access", or NULL */
	char *address;   /* "0x...", or NULL */
	char *what;      /* UBSan's runtime error text, or NULL */
	struct san_frame *frames;
	size_t nframes;
};

/* Parse text (NUL-terminated); out->present is 0 when it holds no report. */
void san_parse(const char *text, struct san_report *out);
void san_report_free(struct san_report *r);

#endif
