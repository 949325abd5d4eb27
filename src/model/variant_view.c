/* variant_view.c — see variant_view.h. */
#include "model/variant_view.h"

#include <string.h>

#include "evidence/json.h"
#include "util/util.h"

int ds_op_cycles(const struct ds_instance *in, const char *op, double *cycles)
{
	const struct ds_record *r = ds_find_record(in, op);
	const json_t *v = r && ds_record_complete(r) ? json_object_get(r->j, "mean_cycles") : NULL;
	if (!json_is_number(v) || json_number_value(v) <= 0)
		return 0;
	*cycles = json_number_value(v);
	return 1;
}

const struct ds_instance *ds_reference_of(const struct ds_candidate *c,
					  const struct ds_instance *in)
{
	for (size_t i = 0; i < c->n_inst; i++)
		if (c->inst[i].variant == DS_REFERENCE && !strcmp(c->inst[i].label, in->label))
			return &c->inst[i];
	return NULL;
}

int ds_candidate_has_variants(const struct ds_candidate *c)
{
	for (size_t i = 0; i < c->n_inst; i++)
		if (c->inst[i].variant != DS_REFERENCE)
			return 1;
	return 0;
}

int ds_variants_measured(const struct dataset *ds)
{
	for (size_t i = 0; i < ds->n_cand; i++)
		for (size_t k = 0; k < ds->cand[i].n_inst; k++)
			if (ds->cand[i].inst[k].variant != DS_REFERENCE && ds->cand[i].inst[k].n_rec)
				return 1;
	return 0;
}

int ds_speedup(const struct ds_candidate *c, const struct ds_instance *in, const char *op,
	       double *speedup)
{
	const struct ds_instance *ref = ds_reference_of(c, in);
	double a, b;
	if (!ref || !ds_op_cycles(ref, op, &a) || !ds_op_cycles(in, op, &b))
		return 0;
	*speedup = a / b;
	return 1;
}

const struct ds_instance *ds_fastest_build(const struct ds_candidate *c,
					   const struct ds_instance *ref, const char *op)
{
	const struct ds_instance *best = NULL;
	double best_cycles = 0, v;
	/* instances are in page order, so the first of equals stays */
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct ds_instance *in = &c->inst[i];
		if (strcmp(in->label, ref->label) || !ds_op_cycles(in, op, &v))
			continue;
		const char *vs = ds_kat_vs_reference(in);
		if (in->variant != DS_REFERENCE &&
		    (strcmp(in->kat_status, "PASS") || (vs && !strcmp(vs, "differs"))))
			continue;
		if (!best || v < best_cycles) {
			best = in;
			best_cycles = v;
		}
	}
	return best;
}

const char *ds_kat_vs_reference(const struct ds_instance *in)
{
	return in->variant == DS_REFERENCE ? NULL : jget_str(in->build, "kat_vs_reference", NULL);
}

char *ds_variant_not_run(const struct ds_instance *in)
{
	if (in->n_rec)
		return NULL;
	const char *k = in->kat_status, *vs = ds_kat_vs_reference(in);
	if (!strcmp(k, "BUILDFAIL") || (in->build && jget_str(in->build, "build_error", NULL)))
		return xstrdup("not built (BUILDFAIL)");
	if (!strcmp(k, "UNSUPPORTED_CPU"))
		return xstrdup("not run: UNSUPPORTED_CPU (this host lacks a CPU feature the "
			       "variant needs)");
	if (vs && !strcmp(vs, "differs"))
		return xasprintf("not timed: KAT output differs from its reference's (KAT %s)", k);
	if (!strcmp(k, "MISMATCH"))
		return xstrdup("not timed: KAT MISMATCH (its output differs from the KAT vectors "
			       "its reference is checked against)");
	if (strcmp(k, "PASS"))
		return xasprintf("not timed: KAT %s", k);
	return xstrdup("not measured in this run");
}
