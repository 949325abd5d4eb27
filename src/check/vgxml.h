/*
 * vgxml.h — read the XML a valgrind memcheck run writes (--xml=yes,
 * protocol 4) with expat: every error with its stacks, auxiliary texts and
 * generated suppression, the fatal signal that ended the program, the
 * error and suppression counts, and the check program's client messages
 * (its call context, watch.h), each error keeping the last one before it.
 *
 * A run killed at its timeout leaves a truncated file: what was parsed up
 * to the cut is kept and `complete` is 0.
 */
#ifndef NGCC_CHECK_VGXML_H
#define NGCC_CHECK_VGXML_H

#include <stddef.h>

struct vg_frame {
	char *obj, *fn, *dir, *file;   /* NULL when valgrind gave none */
	long line;                     /* 0 when unknown */
};

struct vg_stack {
	struct vg_frame *f;
	size_t n;
};

struct vg_error {
	char *unique;                  /* "0x1a" */
	char *kind;                    /* UninitCondition, InvalidRead, Leak_DefinitelyLost, ... */
	char *what;                    /* <what>, or <xwhat><text> for leaks */
	char *aux;                     /* the <auxwhat> texts joined by "; ", or NULL */
	struct vg_stack stack;         /* where it happened */
	struct vg_stack aux_stack;     /* origin or allocation stack, when given */
	char *suppression;             /* <rawtext> of its generated suppression */
	char *context;                 /* the last call-context message before it */
	long count;                    /* from <errorcounts>; 1 when absent */
};

struct vg_fatal {
	int present;
	int signo;
	char *signame, *event, *siaddr;
	struct vg_stack stack;
	char *context;
};

struct vg_supp_count {
	char *name;
	long count;
};

struct vg_report {
	struct vg_error *errs;
	size_t nerrs;
	struct vg_fatal fatal;
	struct vg_supp_count *supps;
	size_t nsupps;
	char *last_context;            /* the last call-context message */
	char *version;                 /* "3.19.0" from the preamble, or NULL */
	int complete;                  /* parsed to </valgrindoutput> */
	char *parse_error;             /* expat's message when not complete */
};

/* Parse len bytes of XML; call_prefix marks the client messages that
 * carry the call context (the prefix is stripped).  Always fills out. */
void vg_parse(const char *xml, size_t len, const char *call_prefix, struct vg_report *out);
void vg_report_free(struct vg_report *r);

#endif
