/* baseline_view.c — see baseline_view.h. */
#include "model/baseline_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method/natsort.h"

const struct ds_candidate *ds_baseline(const struct dataset *ds)
{
	for (size_t i = 0; i < ds->n_cand; i++)
		if (ds_is_baseline(&ds->cand[i]))
			return &ds->cand[i];
	return NULL;
}

int ds_is_baseline(const struct ds_candidate *c)
{
	return c && !strcmp(c->id, BASELINE_ID);
}

/* Ours before the copies (copies by candidate id), then the function in
 * page order, then the width. */
static int row_cmp(const void *pa, const void *pb)
{
	const struct baseline_row *a = pa, *b = pb;
	int c = natural_cmp(a->id.copy_of, b->id.copy_of);
	if (c)
		return c;
	if (a->id.fn != b->id.fn)
		return a->id.fn < b->id.fn ? -1 : 1;
	return (a->id.bits > b->id.bits) - (a->id.bits < b->id.bits);
}

struct baseline_row *ds_baseline_rows(const struct dataset *ds, size_t *n)
{
	const struct ds_candidate *c = ds_baseline(ds);
	struct baseline_row *rows = xcalloc(c && c->n_inst ? c->n_inst : 1, sizeof *rows);
	*n = 0;
	for (size_t i = 0; c && i < c->n_inst; i++) {
		struct baseline_row *r = &rows[*n];
		if (baseline_label_parse(c->inst[i].label, &r->id) == 0) {
			r->in = &c->inst[i];
			(*n)++;
		}
	}
	qsort(rows, *n, sizeof *rows, row_cmp);
	return rows;
}

int ds_hash_cycles(const struct ds_instance *in, unsigned long long L, double *cycles)
{
	char op[32];
	snprintf(op, sizeof op, "hash_%llu", L);
	const struct ds_record *r = in ? ds_find_record(in, op) : NULL;
	const json_t *v = r ? json_object_get(r->j, "mean_cycles") : NULL;
	if (!r || !ds_record_complete(r) || !json_is_number(v))
		return 0;
	*cycles = json_number_value(v);
	return 1;
}

int ds_hash_digest_bits(const struct ds_instance *in)
{
	for (size_t k = 0; k < in->n_rec; k++) {
		const json_t *d = json_object_get(json_object_get(in->rec[k].j, "sizes"),
						  "digest_bytes");
		if (json_is_integer(d))
			return (int)json_integer_value(d) * 8;
	}
	return 0;
}

const struct ds_instance *ds_baseline_xof(const struct dataset *ds, int bits)
{
	size_t n;
	struct baseline_row *rows = ds_baseline_rows(ds, &n);
	const struct ds_instance *found = NULL;
	for (size_t i = 0; i < n && !found; i++)
		if (rows[i].id.fn == ICCS_PSEUDOXOF && rows[i].id.bits == bits &&
		    !rows[i].id.copy_of[0])
			found = rows[i].in;
	free(rows);
	return found;
}

int ds_hash_ratio(const struct dataset *ds, const struct ds_instance *in,
		  unsigned long long L, double *ratio, double *xof_cycles)
{
	double v, b;
	int bits = ds_hash_digest_bits(in);
	const struct ds_instance *x = bits ? ds_baseline_xof(ds, bits) : NULL;
	if (!ds_hash_cycles(in, L, &v) || !ds_hash_cycles(x, L, &b) || !(b > 0))
		return 0;
	*ratio = v / b;
	if (xof_cycles)
		*xof_cycles = b;
	return 1;
}
