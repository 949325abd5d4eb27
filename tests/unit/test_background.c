/*
 * test_background.c — the background disturbance probe (R7 with a
 * measured background): the maxima over the windows free of competitors,
 * a contended CPU giving the plain rule, the JSON round trip, a real probe
 * on an allowed CPU, and a refused pinning.  The allowance it
 * feeds is tested with the planning rules (test_plan.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <cmocka.h>

#include "host/background.h"
#include "host/clock.h"
#include "host/probescale.h"

static void test_rates_and_json(void **state)
{
	struct background b, back;
	(void)state;
	memset(&b, 0, sizeof b);
	b.cpu = 1;
	strcpy(b.utc, "2026-12-01T00:00:00Z");
	b.n_windows = 4;
	b.w[0] = (struct background_window){ 0.25, 0.25, 30, 0 };
	b.w[1] = (struct background_window){ 0.5, 0.49, 80, 1 };  /* 160/s, the highest */
	b.w[2] = (struct background_window){ 0.25, 0.24, 35, 0 }; /* 140/s */
	/* a competitor took half the CPU: not background */
	b.w[3] = (struct background_window){ 0.25, 0.12, 90, 3 };
	background_rates(&b);
	assert_true(b.invol_per_s_max == 160);
	assert_true(b.migrations_per_s_max == 2);
	assert_int_equal(b.quiet_windows, 3);
	assert_false(b.contended);
	json_t *j = background_json(&b);
	assert_int_equal(json_array_size(json_object_get(j, "windows")), 4);
	assert_non_null(json_object_get(j, "rule"));
	assert_int_equal(background_from_json(j, &back), 0);
	assert_int_equal(back.n_windows, 4);
	assert_int_equal(back.cpu, 1);
	assert_true(back.invol_per_s_max == 160);
	assert_int_equal(back.w[1].invol_switches, 80);
	assert_string_equal(back.utc, b.utc);
	json_decref(j);
	/* Half or more contended: a busy CPU, the plain rule. */
	b.w[0].cpu_s = 0.1;
	b.w[1].cpu_s = 0.2;
	background_rates(&b);
	assert_true(b.contended);
	assert_true(b.invol_per_s_max == 0 && b.migrations_per_s_max == 0);
	json_t *bad = json_string("x");
	assert_int_equal(background_from_json(bad, &back), -1);
	json_decref(bad);
}

static int allowed_cpu(void)
{
	cpu_set_t set;
	assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
	for (int c = CPU_SETSIZE - 1; c >= 0; c--)
		if (CPU_ISSET(c, &set))
			return c;
	return 0;
}

static void test_probe(void **state)
{
	struct background b;
	char *err = NULL;
	(void)state;
	int cpu = allowed_cpu();
	assert_int_equal(background_measure(cpu, &b, &err), 0);
	assert_int_equal(b.n_windows, BACKGROUND_WINDOWS);
	assert_int_equal(b.cpu, cpu);
	assert_true(b.window_s == BACKGROUND_WINDOW_S * host_probe_scale());
	for (int i = 0; i < b.n_windows; i++) {
		assert_true(b.w[i].wall_s >= b.window_s);
		assert_true(b.w[i].cpu_s > 0 && b.w[i].cpu_s <= b.w[i].wall_s + 0.01);
		assert_true(b.w[i].invol_switches >= 0);
		assert_true(b.w[i].migrations >= 0);
	}
	assert_true(b.invol_per_s_max >= 0);
	assert_true(b.migrations_source[0] != '\0');
}

static void test_probe_refused(void **state)
{
	struct background b;
	char *err = NULL;
	(void)state;
	assert_int_equal(background_measure(CPU_SETSIZE - 1 == allowed_cpu() ? 0 : CPU_SETSIZE - 1,
					    &b, &err), -1);
	assert_non_null(strstr(err, "cannot pin"));
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates_and_json),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_probe_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
