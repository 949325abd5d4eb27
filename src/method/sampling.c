/* sampling.c — see sampling.h (docs/method.md §14 R11). */
#include "method/sampling.h"

#include <math.h>

static int under(double s)
{
	return s > 0 && s < SAMPLING_MAX_T1_S;
}

int sampling_wanted(double t1_s, double mean_s)
{
	return under(t1_s) || under(mean_s);
}

long sampling_batch(double overhead_ns, double call_ns, int per_call_brackets)
{
	if (per_call_brackets || !(overhead_ns > 0) || !(call_ns > 0))
		return 1;
	double b = ceil(overhead_ns / (SAMPLING_OVERHEAD_SHARE * call_ns));
	if (!(b >= 1))
		return 1;
	return b > (double)SAMPLING_MAX_BATCH ? SAMPLING_MAX_BATCH : (long)b;
}
