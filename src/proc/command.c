/* command.c — see command.h. */
#include "proc/command.h"
#include "proc/contain.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void child_cmd_program(struct child_cmd *c, const char *name)
{
	char *path = ngcc_program(name);
	if (!c->path)
		c->path = xstrdup(path);
	sl_push_owned(&c->argv, path);
	char *shown = xasprintf("%s/bin/%s", NGCC_TREE_TAG, name);
	json_array_append_new(c->shown, json_string(shown));
	free(shown);
}

void child_cmd_init(struct child_cmd *c, const char *name)
{
	memset(c, 0, sizeof *c);
	c->shown = json_array();
	child_cmd_program(c, name);
}

void child_cmd_init_tool(struct child_cmd *c, const char *tool_path, const char *tool_shown)
{
	memset(c, 0, sizeof *c);
	c->shown = json_array();
	c->path = xstrdup(tool_path);
	sl_push(&c->argv, tool_path);
	json_array_append_new(c->shown, json_string(tool_shown));
}

const char *child_cmd_library(const struct child_cmd *c)
{
	for (size_t i = 0; i + 1 < c->argv.n; i++)
		if (!strcmp(c->argv.items[i], "--lib"))
			return c->argv.items[i + 1];
	return "";
}

void child_cmd_arg(struct child_cmd *c, const char *arg)
{
	sl_push(&c->argv, arg);
	json_array_append_new(c->shown, json_string(arg));
}

void child_cmd_argf(struct child_cmd *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *arg = xvasprintf(fmt, ap);
	va_end(ap);
	child_cmd_arg(c, arg);
	free(arg);
}

int child_cmd_run(const struct child_cmd *c, struct spawn_req *req, struct spawn_res *res)
{
	char **argv = xcalloc(c->argv.n + 1, sizeof *argv);
	for (size_t i = 0; i < c->argv.n; i++)
		argv[i] = c->argv.items[i];
	/* Every child program loads candidate code: none runs without the
	 * supervisor that kills whatever the candidate leaves behind. */
	char *supervisor = ngcc_program(CONTAIN_PROGRAM);
	req->path = c->path;
	req->argv = argv;
	req->supervisor = supervisor;
	int rc = spawn_run(req, res);
	req->argv = NULL;
	req->supervisor = NULL;
	free(supervisor);
	free(argv);
	return rc;
}

void child_cmd_free(struct child_cmd *c)
{
	free(c->path);
	sl_free(&c->argv);
	json_decref(c->shown);
	memset(c, 0, sizeof *c);
}
