/*
 * samples_view.h — the sample records (R11, evidence/samples_json.h) of a
 * loaded dataset as the pages use them: A.2 of a candidate page and the
 * distribution chart read the same record through here.
 */
#ifndef NGCC_MODEL_SAMPLES_VIEW_H
#define NGCC_MODEL_SAMPLES_VIEW_H

#include <jansson.h>

#include "model/dataset.h"

/* The complete sample record (samples/<cand>/<stem>__<op>.json) of an
 * operation with its robust figures, or NULL. */
const json_t *ds_find_samples(const struct ds_instance *in, const char *op);
/* 1 when some instance of c has one. */
int ds_candidate_sampled(const struct ds_candidate *c);

#endif
