/*
 * natsort.h — the sort orders of docs/report-format.md §4: natural order of labels
 * and ids, the operation order, and the byte order of profile function
 * names.  Each order has a strcmp-like comparator and a qsort adapter for
 * arrays of `const char *`.
 */
#ifndef NGCC_METHOD_NATSORT_H
#define NGCC_METHOD_NATSORT_H

/*
 * Natural order: labels split into maximal digit and non-digit runs,
 * compared run by run; non-digit runs by byte value, digit runs by numeric
 * value, then the shorter run first (`1` < `01`); a label that is a prefix
 * of another comes first, so `X` precedes its `X+avx2` twin.
 * `CTL-257-512` < `CTL-769-1024` < `CTL-3329-2048`;
 * `Mito-1-512` < `Mito-1-E-128`.
 */
int natural_cmp(const char *a, const char *b);

/*
 * Operation order: keygen, enc, dec, sign, verify, exchange, init_a, init_b,
 * pass1 … pass16 (numeric), derive_a, derive_b, then hash_<L> by L.
 * Unknown keys come last, in byte order.  The order is the operation
 * lists of method/types.h, type after type.
 */
int op_cmp(const char *a, const char *b);

/* Calls per operation and §7 rows: plain byte order (drng, pseudoXOF, …). */
int byte_cmp(const char *a, const char *b);

/* qsort adapters; the elements are `const char *` (or `char *`). */
int natural_qsort_cmp(const void *a, const void *b);
int op_qsort_cmp(const void *a, const void *b);
int byte_qsort_cmp(const void *a, const void *b);

#endif
