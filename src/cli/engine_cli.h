/*
 * engine_cli.h — the command-line options shared by calibrate, measure,
 * profile and campaign; they fill a struct engine_opts
 * (campaign/engine.h).
 */
#ifndef NGCC_CLI_ENGINE_CLI_H
#define NGCC_CLI_ENGINE_CLI_H

#include <getopt.h>
#include <stdio.h>

#include "campaign/engine.h"

/* getopt_long table entries and their handling; returns 1 if the option
 * was one of ours, 0 if not, -1 on a bad value (message printed). */
#define ENGINE_LONG_OPTIONS \
	{ "run", required_argument, NULL, 'r' }, \
	{ "cpu", required_argument, NULL, 'c' }, \
	{ "trials", required_argument, NULL, 1001 }, \
	{ "trial-target", required_argument, NULL, 1002 }, \
	{ "op-budget", required_argument, NULL, 1003 }, \
	{ "allow-unfixed-host", optional_argument, NULL, 1004 }, \
	{ "redo-stale", no_argument, NULL, 1005 }, \
	{ "max-timeout", required_argument, NULL, 1006 }, \
	{ "counter", required_argument, NULL, 1007 }, \
	{ "shard", required_argument, NULL, 1008 }, \
	{ "defer", required_argument, NULL, 1009 }, \
	{ "deferred-only", no_argument, NULL, 1010 }, \
	{ "prior", required_argument, NULL, 1011 }, \
	{ "disturbed-retries", required_argument, NULL, 1012 }, \
	{ "op", required_argument, NULL, 1013 }, \
	{ "seed-mode", required_argument, NULL, 1101 }, \
	{ "input-pool", required_argument, NULL, 1102 }, \
	{ "warm-calibration", no_argument, NULL, 1103 }
int engine_opt(struct engine_opts *o, int c, const char *arg);
extern const char engine_options_help[];
/* Parse the command line of calibrate/measure (options, then instance
 * selectors into o->ids).  Returns -1 after --help, 0 to go on, or an exit code. */
int engine_parse_cli(int argc, char **argv, struct engine_opts *o,
		     void (*usage)(FILE *));


#endif
