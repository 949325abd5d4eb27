/* samples_view.c — see samples_view.h. */
#include "model/samples_view.h"

#include <string.h>

#include "evidence/json.h"

const json_t *ds_find_samples(const struct ds_instance *in, const char *op)
{
	char *item = xasprintf("samples %s", op);
	const json_t *found = NULL;
	for (size_t i = 0; i < in->n_extra && !found; i++) {
		const json_t *j = in->extra_json[i];
		if (j && !strcmp(in->extra_item[i], item) &&
		    !strcmp(jget_str(j, "status", ""), "complete") &&
		    json_is_object(json_object_get(j, "robust")))
			found = j;
	}
	free(item);
	return found;
}

int ds_candidate_sampled(const struct ds_candidate *c)
{
	for (size_t i = 0; i < c->n_inst; i++)
		for (size_t k = 0; k < c->inst[i].n_rec; k++)
			if (ds_find_samples(&c->inst[i], c->inst[i].rec[k].op))
				return 1;
	return 0;
}
