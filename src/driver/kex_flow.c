/* kex_flow.c — see kex_flow.h. */
#include "driver/kex_flow.h"

#include <stdio.h>

static const char *const pass_names[NGCC_KEX_MAX_PASSES + 1] = {
	"", "pass1", "pass2", "pass3", "pass4", "pass5", "pass6", "pass7", "pass8", "pass9",
	"pass10", "pass11", "pass12", "pass13", "pass14", "pass15", "pass16",
};

static const char *const msg_names[NGCC_KEX_MAX_PASSES + 1] = {
	"", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9", "m10", "m11", "m12",
	"m13", "m14", "m15", "m16",
};

unsigned kex_flow_passes(const struct ngcc_meta *m)
{
	return m->passes >= 1 && m->passes <= NGCC_KEX_MAX_PASSES ? (unsigned)m->passes : 0;
}

const char *kex_flow_unusable(const struct candidate_lib *lib, char *buf, size_t cap)
{
	const struct ngcc_meta *m = lib->meta;
	unsigned passes = kex_flow_passes(m);
	if (!passes) {
		snprintf(buf, cap, "kex_get_passes_num() is %llu; 1 to %d passes can be run",
			 m->passes, NGCC_KEX_MAX_PASSES);
		return buf;
	}
	if (!m->ss_bytes || !m->msg_bytes) {
		snprintf(buf, cap, "kex_get_%s_len_bytes() is 0", !m->ss_bytes ? "ss" : "total_msg");
		return buf;
	}
	for (unsigned k = 2; k <= passes; k++)
		if (!lib->kex_pass[k]) {
			snprintf(buf, cap, "kex_generate_pass%u_msg_%c is not defined, but "
				 "kex_get_passes_num() is %u", k, k % 2 ? 'a' : 'b', passes);
			return buf;
		}
	return NULL;
}

unsigned kex_flow_steps(unsigned passes)
{
	return passes + 4;
}

unsigned kex_flow_pass_of(unsigned passes, unsigned s)
{
	return s >= 2 && s < passes + 2 ? s - 1 : 0;
}

const char *kex_flow_step_name(unsigned passes, unsigned s)
{
	if (s == 0)
		return "init_a";
	if (s == 1)
		return "init_b";
	if (s == passes + 2)
		return "derive_a";
	if (s == passes + 3)
		return "derive_b";
	unsigned k = kex_flow_pass_of(passes, s);
	return k ? pass_names[k] : "?";
}

const char *kex_flow_msg_name(unsigned k)
{
	return k >= 1 && k <= NGCC_KEX_MAX_PASSES ? msg_names[k] : "m?";
}

const char *kex_flow_pass_return_problem(const struct candidate_lib *lib, unsigned k,
					 unsigned passes, int rc, char *buf, size_t cap)
{
	int next_defined = k < NGCC_KEX_MAX_PASSES && lib->kex_pass[k + 1];
	if (rc == 1 && k < passes) {
		snprintf(buf, cap, "pass%u returned 1 (finished), but kex_get_passes_num() is %u",
			 k, passes);
		return buf;
	}
	if (rc != 1 && k == passes && (next_defined || passes < 3)) {
		snprintf(buf, cap, "pass%u, the last of the %u announced, returned %d, not 1 (finished)%s",
			 k, passes, rc, passes < 3 ? "" :
			 ", and the next pass is defined: the exchange does not end there");
		return buf;
	}
	return NULL;
}
