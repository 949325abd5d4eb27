/* md.c — see md.h. */
#include "report/md.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void block_start(struct md_page *p)
{
	p->ncols = 0;
	if (p->sb.len)
		sb_addc(&p->sb, '\n');
}

/* Append s without trailing blanks on any line. */
static void add_trimmed_lines(struct strbuf *sb, const char *s)
{
	while (*s) {
		size_t n = strcspn(s, "\n");
		size_t end = n;
		while (end > 0 && (s[end - 1] == ' ' || s[end - 1] == '\t'))
			end--;
		sb_add(sb, s, end);
		sb_addc(sb, '\n');
		s += n;
		if (*s == '\n')
			s++;
	}
}

void md_begin(struct md_page *p)
{
	block_start(p);
}

void md_block(struct md_page *p, const char *text)
{
	block_start(p);
	add_trimmed_lines(&p->sb, text);
}

void md_blockf(struct md_page *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	md_block(p, s);
	free(s);
}

void md_linef(struct md_page *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	add_trimmed_lines(&p->sb, s);
	free(s);
}

static void add_cell(struct strbuf *sb, const char *c)
{
	for (; c && *c; c++) {
		if (*c == '|')
			sb_addc(sb, '\\');
		sb_addc(sb, *c == '\n' ? ' ' : *c);
	}
}

static void add_row(struct strbuf *sb, const char *const *cells, size_t n)
{
	sb_adds(sb, "| ");
	for (size_t i = 0; i < n; i++) {
		if (i)
			sb_adds(sb, " | ");
		add_cell(sb, cells[i]);
	}
	sb_adds(sb, " |\n");
}

void md_table(struct md_page *p, const char *const *headers, size_t n)
{
	block_start(p);
	add_row(&p->sb, headers, n);
	sb_addc(&p->sb, '|');
	for (size_t i = 0; i < n; i++)
		sb_adds(&p->sb, "---|");
	sb_addc(&p->sb, '\n');
	p->ncols = n;
}

void md_row(struct md_page *p, const char *const *cells)
{
	add_row(&p->sb, cells, p->ncols);
}

char *md_finish(struct md_page *p, size_t *len)
{
	while (p->sb.len > 1 && p->sb.buf[p->sb.len - 1] == '\n' &&
	       p->sb.buf[p->sb.len - 2] == '\n')
		p->sb.len--;
	if (!p->sb.len)
		sb_addc(&p->sb, '\n');
	p->sb.buf[p->sb.len] = '\0';
	if (len)
		*len = p->sb.len;
	p->ncols = 0;
	return sb_detach(&p->sb);
}

char *md_code(const char *s)
{
	if (!strchr(s, '`'))
		return xasprintf("`%s`", s);
	return xasprintf("`` %s ``", s);
}

char *md_link(const char *text, const char *target)
{
	return xasprintf("[%s](%s)", text, target);
}
