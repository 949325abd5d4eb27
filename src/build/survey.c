/* survey.c — see survey.h (R13, docs/method.md §10.6). */
#include "build/survey.h"

#include "build/objscan.h"
#include "build/survey_insn.h"
#include "evidence/json.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const iccs_functions[] = {
	"pseudohash", "pseudoXOF", "sm3hash", "get_random_number",
};

static int is_iccs_function(const char *name)
{
	for (size_t i = 0; i < 4; i++)
		if (!strcmp(name, iccs_functions[i]))
			return 1;
	return 0;
}

/* ---- what we look for ------------------------------------------------------ */

struct name_pattern {
	const char *word, *kind;
};

/* Matched case-insensitively where a word starts (no letter before it). */
static const struct name_pattern name_patterns[] = {
	{ "keccak", "Keccak" }, { "sha3", "SHA-3" }, { "shake", "SHAKE" },
	{ "sha2", "SHA-2" }, { "sha384", "SHA-2" }, { "sha512", "SHA-2" },
	{ "sm3", "SM3" }, { "aes", "AES" }, { "sm4", "SM4" }, { "chacha", "ChaCha" },
};

struct const_pattern {
	const char *name, *kind;
	unsigned char bytes[32];
	size_t len;
	int code_only;   /* short patterns: immediates in executable sections */
};

#define LE32(x) (unsigned char)(x), (unsigned char)((x) >> 8), (unsigned char)((x) >> 16), \
		(unsigned char)((x) >> 24)
#define BE32(x) (unsigned char)((x) >> 24), (unsigned char)((x) >> 16), \
		(unsigned char)((x) >> 8), (unsigned char)(x)
#define LE64(x) LE32((x) & 0xffffffffull), LE32((x) >> 32)

#define KECCAK_RHO "Keccak rotation offsets"
#define KECCAK_ROUNDS "Keccak-f[1600] rotations"

static const struct const_pattern const_patterns[] = {
	{ "Keccak round constants", "Keccak",
	  { LE64(0x0000000000000001ull), LE64(0x0000000000008082ull), LE64(0x800000000000808aull) }, 24, 0 },
	{ "SHA-256 K table", "SHA-2",
	  { LE32(0x428a2f98u), LE32(0x71374491u), LE32(0xb5c0fbcfu), LE32(0xe9b5dba5u) }, 16, 0 },
	{ "SHA-256 K table", "SHA-2",
	  { BE32(0x428a2f98u), BE32(0x71374491u), BE32(0xb5c0fbcfu), BE32(0xe9b5dba5u) }, 16, 0 },
	{ "SHA-512 K table", "SHA-2",
	  { LE64(0x428a2f98d728ae22ull), LE64(0x7137449123ef65cdull) }, 16, 0 },
	{ "SM3 IV", "SM3",
	  { LE32(0x7380166fu), LE32(0x4914b2b9u), LE32(0x172442d7u), LE32(0xda8a0600u) }, 16, 0 },
	{ "SM3 IV", "SM3",
	  { BE32(0x7380166fu), BE32(0x4914b2b9u), BE32(0x172442d7u), BE32(0xda8a0600u) }, 16, 0 },
	{ "SM3 T_j", "SM3", { LE32(0x79cc4519u), LE32(0xf3988a32u) }, 8, 0 },
	{ "SM3 T_j", "SM3", { LE32(0x79cc4519u) }, 4, 1 },
	{ "SM3 T_j", "SM3", { LE32(0x7a879d8au) }, 4, 1 },
	{ "AES S-box", "AES",
	  { 0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76 }, 16, 0 },
	{ "SM4 S-box", "SM4",
	  { 0xd6, 0x90, 0xe9, 0xfe, 0xcc, 0xe1, 0x3d, 0xb7, 0x16, 0xb6, 0x14, 0xc2, 0x28, 0xfb, 0x2c, 0x05 }, 16, 0 },
	{ "ChaCha constant", "ChaCha",
	  { 'e', 'x', 'p', 'a', 'n', 'd', ' ', '3', '2', '-', 'b', 'y', 't', 'e', ' ', 'k' }, 16, 0 },
	{ "ChaCha constant", "ChaCha", { LE32(0x61707865u), }, 4, 1 },
	/* the table from the last round down, as Nettle's permutation keeps it */
	{ "Keccak round constants", "Keccak",
	  { LE64(0x8000000080008008ull), LE64(0x0000000080000001ull), LE64(0x8000000000008080ull) }, 24, 0 },
	/* round constants as 64-bit immediates of unrolled code */
	{ "Keccak round constants", "Keccak", { LE64(0x800000000000808aull) }, 8, 1 },
	{ "Keccak round constants", "Keccak", { LE64(0x8000000080008081ull) }, 8, 1 },
	/* the rho offsets as bytes or 32-bit words, in the lane walk's order
	 * (1, 3, 6, ...) or by lane x + 5y (0, 1, 62, ...) */
	{ KECCAK_RHO, "Keccak", { 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14 }, 12, 0 },
	{ KECCAK_RHO, "Keccak", { 0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10 }, 12, 0 },
	{ KECCAK_RHO, "Keccak", { LE32(1), LE32(3), LE32(6), LE32(10), LE32(15), LE32(21),
				  LE32(28), LE32(36) }, 32, 0 },
	{ KECCAK_RHO, "Keccak", { LE32(0), LE32(1), LE32(62), LE32(28), LE32(27), LE32(36),
				  LE32(44), LE32(6) }, 32, 0 },
};

#define N_NAME_PATTERNS (sizeof name_patterns / sizeof *name_patterns)
#define N_CONST_PATTERNS (sizeof const_patterns / sizeof *const_patterns)

/* The kind a symbol name suggests, or NULL. */
static const char *name_kind(const char *name)
{
	if (is_iccs_function(name))
		return NULL;
	for (const char *p = name; *p; p++) {
		if (p > name && isalpha((unsigned char)p[-1]))
			continue;
		for (size_t i = 0; i < N_NAME_PATTERNS; i++)
			if (!strncasecmp(p, name_patterns[i].word, strlen(name_patterns[i].word)))
				return name_patterns[i].kind;
	}
	return NULL;
}

/* ---- the call graph -------------------------------------------------------- */

/* A node is a defined FUNC/OBJECT symbol, or a whole allocated section
 * (for references to data without a symbol, e.g. string literals). */
struct node {
	size_t obj;
	long sym;          /* -1 for a section node */
	unsigned shndx;
	int reached;
	uint64_t roots;    /* bit k: reached from root k (the first 64 roots) */
	int calls_iccs;    /* references an ICCS function */
};

struct global_def {
	const char *name;
	size_t node;
};

struct graph {
	struct obj_file *objs;
	size_t n_objs;
	struct node *nodes;
	size_t n_nodes;
	size_t **sym_node;     /* per object: symbol index → node, or SIZE_MAX */
	size_t **sec_node;     /* per object: section index → node */
	size_t *edge_from, *edge_to;
	size_t n_edges, cap_edges;
	struct strlist root_names;  /* the API roots, in discovery order */
	struct global_def *globals; /* global definitions, sorted by name */
	size_t n_globals;
};

static size_t add_node(struct graph *g, size_t obj, long sym, unsigned shndx)
{
	g->nodes = xrealloc(g->nodes, (g->n_nodes + 1) * sizeof *g->nodes);
	g->nodes[g->n_nodes] = (struct node){ obj, sym, shndx, 0, 0, 0 };
	return g->n_nodes++;
}

static int is_code_or_data(const struct obj_sym *s)
{
	return (s->type == STT_FUNC || s->type == STT_OBJECT) && s->shndx != SHN_UNDEF &&
	       s->shndx < SHN_LORESERVE;
}

static void index_globals(struct graph *g);

static void build_nodes(struct graph *g)
{
	g->sym_node = xcalloc(g->n_objs, sizeof *g->sym_node);
	g->sec_node = xcalloc(g->n_objs, sizeof *g->sec_node);
	for (size_t o = 0; o < g->n_objs; o++) {
		const struct obj_file *f = &g->objs[o];
		g->sym_node[o] = xcalloc(f->n_syms ? f->n_syms : 1, sizeof(size_t));
		g->sec_node[o] = xcalloc(f->n_secs ? f->n_secs : 1, sizeof(size_t));
		for (size_t i = 0; i < f->n_syms; i++)
			g->sym_node[o][i] = is_code_or_data(&f->syms[i])
				? add_node(g, o, (long)i, f->syms[i].shndx) : SIZE_MAX;
		for (size_t s = 0; s < f->n_secs; s++)
			g->sec_node[o][s] = add_node(g, o, -1, (unsigned)s);
	}
	index_globals(g);
}

/* The node at (object, section, offset): the covering symbol, else the
 * section. */
static size_t node_at(const struct graph *g, size_t o, unsigned shndx, uint64_t off)
{
	long s = obj_symbol_at(&g->objs[o], shndx, off);
	if (s >= 0 && g->sym_node[o][s] != SIZE_MAX)
		return g->sym_node[o][s];
	return shndx < g->objs[o].n_secs ? g->sec_node[o][shndx] : SIZE_MAX;
}

static int cmp_global(const void *a, const void *b)
{
	return strcmp(((const struct global_def *)a)->name, ((const struct global_def *)b)->name);
}

/* Index the global definitions of every object by name. */
static void index_globals(struct graph *g)
{
	for (size_t o = 0; o < g->n_objs; o++)
		for (size_t i = 1; i < g->objs[o].n_syms; i++) {
			const struct obj_sym *s = &g->objs[o].syms[i];
			if (!s->global || !is_code_or_data(s))
				continue;
			g->globals = xrealloc(g->globals, (g->n_globals + 1) * sizeof *g->globals);
			g->globals[g->n_globals++] = (struct global_def){ s->name, g->sym_node[o][i] };
		}
	if (g->n_globals)
		qsort(g->globals, g->n_globals, sizeof *g->globals, cmp_global);
}

/* A global definition of name in any object. */
static size_t node_by_name(const struct graph *g, const char *name)
{
	struct global_def key = { name, 0 };
	const struct global_def *d = g->n_globals
		? bsearch(&key, g->globals, g->n_globals, sizeof key, cmp_global) : NULL;
	return d ? d->node : SIZE_MAX;
}

static void add_edge(struct graph *g, size_t from, size_t to)
{
	if (from == SIZE_MAX || to == SIZE_MAX || from == to)
		return;
	if (g->n_edges == g->cap_edges) {
		g->cap_edges = g->cap_edges ? 2 * g->cap_edges : 1024;
		g->edge_from = xrealloc(g->edge_from, g->cap_edges * sizeof(size_t));
		g->edge_to = xrealloc(g->edge_to, g->cap_edges * sizeof(size_t));
	}
	g->edge_from[g->n_edges] = from;
	g->edge_to[g->n_edges++] = to;
}

/* Where a relocation points: the symbol, or against a section symbol what
 * lies at the offset the addend gives. */
static size_t reloc_target(const struct graph *g, size_t o, const struct obj_reloc *r)
{
	const struct obj_file *f = &g->objs[o];
	if (r->sym >= f->n_syms)
		return SIZE_MAX;
	const struct obj_sym *s = &f->syms[r->sym];
	if (s->type == STT_SECTION) {
		if (s->shndx >= f->n_secs)
			return SIZE_MAX;
		long k = obj_symbol_at(f, s->shndx, obj_reloc_target_offset(f, r));
		if (k < 0)   /* an immediate after the field moves the addend */
			k = obj_symbol_at(f, s->shndx, (uint64_t)r->addend);
		if (k >= 0 && g->sym_node[o][k] != SIZE_MAX)
			return g->sym_node[o][k];
		return g->sec_node[o][s->shndx];
	}
	if (is_iccs_function(s->name))
		return SIZE_MAX;   /* an ICCS call ends the path */
	if (is_code_or_data(s))
		return g->sym_node[o][r->sym];
	if (s->shndx == SHN_UNDEF && s->name[0])
		return node_by_name(g, s->name);
	return SIZE_MAX;
}

static void local_call_edges(struct graph *g, size_t o, unsigned shndx);

static void build_edges(struct graph *g)
{
	for (size_t o = 0; o < g->n_objs; o++) {
		const struct obj_file *f = &g->objs[o];
		for (size_t i = 0; i < f->n_rels; i++) {
			const struct obj_reloc *r = &f->rels[i];
			if (r->applies_to >= f->n_secs || !(f->secs[r->applies_to].flags & SHF_ALLOC))
				continue;
			size_t from = node_at(g, o, r->applies_to, r->offset);
			add_edge(g, from, reloc_target(g, o, r));
			if (from != SIZE_MAX && r->sym < f->n_syms && is_iccs_function(f->syms[r->sym].name))
				g->nodes[from].calls_iccs = 1;
		}
		for (size_t s = 0; s < f->n_secs; s++)
			if (f->secs[s].data && (f->secs[s].flags & SHF_EXECINSTR))
				local_call_edges(g, o, (unsigned)s);
	}
}

/*
 * Direct calls and jumps between functions of one section need no
 * relocation: the assembler resolves them.  Find them in the code bytes:
 * x86-64 call/jmp rel32 (E8/E9) and lea rel32(%rip), AArch64 B/BL (an
 * address taken with ADR/ADRP is not followed) whose target is exactly
 * the start of a function of the same section.  A stray match can only add
 * an edge, i.e. make the scan more cautious.
 */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static int32_t le_i32(const unsigned char *p)
{
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			 (uint32_t)p[3] << 24);
}

static void local_call_edges(struct graph *g, size_t o, unsigned shndx)
{
	const struct obj_file *f = &g->objs[o];
	const struct obj_section *sec = &f->secs[shndx];
	uint64_t *starts = xcalloc(f->n_syms ? f->n_syms : 1, sizeof *starts);
	size_t n = 0;
	for (size_t i = 1; i < f->n_syms; i++)
		if (f->syms[i].type == STT_FUNC && f->syms[i].shndx == shndx)
			starts[n++] = f->syms[i].value;
	qsort(starts, n, sizeof *starts, cmp_u64);
	int x86 = f->machine == EM_X86_64 || f->machine == EM_386;
	int arm64 = f->machine == EM_AARCH64;
	for (uint64_t off = 0; n && (x86 || arm64) && off + (x86 ? 5 : 4) <= sec->size;
	     off += x86 ? 1 : 4) {
		const unsigned char *p = sec->data + off;
		int64_t target;
		if (x86 && (p[0] == 0xe8 || p[0] == 0xe9)) {
			target = (int64_t)off + 5 + le_i32(p + 1);
		} else if (x86 && off + 7 <= sec->size && (p[0] == 0x48 || p[0] == 0x4c) &&
			   p[1] == 0x8d && (p[2] & 0xc7) == 0x05) {
			/* lea f(%rip), %reg: a function's address taken */
			target = (int64_t)off + 7 + le_i32(p + 3);
		} else if (arm64) {
			uint32_t insn = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
					(uint32_t)p[3] << 24;
			if ((insn & 0x7c000000u) != 0x14000000u)
				continue;
			int32_t imm = (int32_t)(insn << 6) >> 6;
			target = (int64_t)off + 4 * (int64_t)imm;
		} else {
			continue;
		}
		uint64_t t = (uint64_t)target;
		if (target < 0 || !bsearch(&t, starts, n, sizeof *starts, cmp_u64))
			continue;
		add_edge(g, node_at(g, o, shndx, off), node_at(g, o, shndx, t));
	}
	free(starts);
}

static int is_root(const struct obj_sym *s)
{
	return s->global && s->type == STT_FUNC && s->shndx != SHN_UNDEF &&
	       (str_starts_with(s->name, "kem_") || str_starts_with(s->name, "sig_") ||
		str_starts_with(s->name, "kex_") || !strcmp(s->name, "CryptHash"));
}

/* Adjacency in compressed rows: the targets of node n are
 * adj[first[n]] .. adj[first[n + 1] - 1]. */
static void adjacency(const struct graph *g, size_t **first_out, size_t **adj_out)
{
	size_t *first = xcalloc(g->n_nodes + 1, sizeof *first);
	size_t *adj = xcalloc(g->n_edges ? g->n_edges : 1, sizeof *adj);
	size_t *fill = xcalloc(g->n_nodes ? g->n_nodes : 1, sizeof *fill);
	for (size_t e = 0; e < g->n_edges; e++)
		first[g->edge_from[e] + 1]++;
	for (size_t n = 0; n < g->n_nodes; n++)
		first[n + 1] += first[n];
	for (size_t e = 0; e < g->n_edges; e++) {
		size_t f = g->edge_from[e];
		adj[first[f] + fill[f]++] = g->edge_to[e];
	}
	free(fill);
	*first_out = first;
	*adj_out = adj;
}

/* Breadth-first from one root, marking the nodes with bit `bit`. */
static void reach_from(struct graph *g, size_t root, uint64_t bit, const size_t *first,
		       const size_t *adj, unsigned char *seen, size_t *queue)
{
	size_t head = 0, tail = 0;
	memset(seen, 0, g->n_nodes);
	seen[root] = 1;
	queue[tail++] = root;
	while (head < tail) {
		size_t n = queue[head++];
		g->nodes[n].reached = 1;
		g->nodes[n].roots |= bit;
		for (size_t e = first[n]; e < first[n + 1]; e++)
			if (!seen[adj[e]]) {
				seen[adj[e]] = 1;
				queue[tail++] = adj[e];
			}
	}
}

/* Every node reachable from an API root, and from which roots. */
static void reach(struct graph *g, struct strlist *roots)
{
	size_t *first, *adj;
	adjacency(g, &first, &adj);
	unsigned char *seen = xcalloc(g->n_nodes ? g->n_nodes : 1, 1);
	size_t *queue = xcalloc(g->n_nodes ? g->n_nodes : 1, sizeof *queue);
	for (size_t o = 0; o < g->n_objs; o++)
		for (size_t i = 1; i < g->objs[o].n_syms; i++) {
			const struct obj_sym *s = &g->objs[o].syms[i];
			size_t n = g->sym_node[o][i];
			if (!is_root(s) || n == SIZE_MAX)
				continue;
			uint64_t bit = g->root_names.n < 64 ? 1ull << g->root_names.n : 0;
			sl_push(roots, s->name);
			sl_push(&g->root_names, s->name);
			reach_from(g, n, bit, first, adj, seen, queue);
		}
	free(first);
	free(adj);
	free(seen);
	free(queue);
}

static void graph_free(struct graph *g)
{
	for (size_t o = 0; o < g->n_objs; o++) {
		free(g->sym_node[o]);
		free(g->sec_node[o]);
	}
	free(g->sym_node);
	free(g->sec_node);
	free(g->nodes);
	free(g->edge_from);
	free(g->edge_to);
	sl_free(&g->root_names);
	free(g->globals);
}

/* ---- hits -------------------------------------------------------------------- */

static void add_hit(struct survey_instance *si, const struct graph *g, size_t node,
		    const char *kind, const char *match, const char *object)
{
	const struct node *n = &g->nodes[node];
	const struct obj_file *f = &g->objs[n->obj];
	const char *where = n->sym >= 0 ? f->syms[n->sym].name : f->secs[n->shndx].name;
	for (size_t i = 0; i < si->n_hits; i++)   /* one hit per (match, place) */
		if (!strcmp(si->hits[i].match, match) && !strcmp(si->hits[i].symbol, where) &&
		    !strcmp(si->hits[i].object, object))
			return;
	si->hits = xrealloc(si->hits, (si->n_hits + 1) * sizeof *si->hits);
	struct survey_hit *h = &si->hits[si->n_hits++];
	memset(h, 0, sizeof *h);
	h->kind = xstrdup(kind);
	h->match = xstrdup(match);
	h->object = xstrdup(object);
	h->symbol = xstrdup(where);
	h->reachable = n->reached;
	for (size_t k = 0; k < g->root_names.n && k < 64; k++)
		if (n->roots & (1ull << k))
			sl_push(&h->reached_from, g->root_names.items[k]);
	sl_sort(&h->reached_from);
}

static void symbol_hits(struct survey_instance *si, const struct graph *g, size_t o,
			const char *object)
{
	const struct obj_file *f = &g->objs[o];
	for (size_t i = 1; i < f->n_syms; i++) {
		const char *kind;
		if (g->sym_node[o][i] == SIZE_MAX || !(kind = name_kind(f->syms[i].name)))
			continue;
		/* "sha3_256" calling pseudoXOF is a wrapper of the ICCS, not
		 * an own primitive; its constants would still be found. */
		if (g->nodes[g->sym_node[o][i]].calls_iccs)
			continue;
		add_hit(si, g, g->sym_node[o][i], kind, "symbol", object);
	}
}

static void constant_hits(struct survey_instance *si, const struct graph *g, size_t o,
			  const char *object)
{
	const struct obj_file *f = &g->objs[o];
	for (size_t s = 0; s < f->n_secs; s++) {
		const struct obj_section *sec = &f->secs[s];
		if (!sec->data)
			continue;
		for (size_t p = 0; p < N_CONST_PATTERNS; p++) {
			const struct const_pattern *c = &const_patterns[p];
			if ((c->code_only && !(sec->flags & SHF_EXECINSTR)) || sec->size < c->len)
				continue;
			for (uint64_t off = 0; off + c->len <= sec->size; off++)
				if (!memcmp(sec->data + off, c->bytes, c->len)) {
					add_hit(si, g, node_at(g, o, (unsigned)s, off), c->kind, c->name, object);
					break;
				}
		}
	}
}

/* Functions whose code rotates 64-bit words by (nearly) all of Keccak's
 * rho amounts: a Keccak-f[1600] permutation, whatever it is called and
 * however it gets its round constants (survey_insn.h). */
static void rotation_hits(struct survey_instance *si, const struct graph *g, size_t o,
			  const char *object)
{
	const struct obj_file *f = &g->objs[o];
	for (size_t i = 1; i < f->n_syms; i++) {
		const struct obj_sym *s = &f->syms[i];
		if (s->type != STT_FUNC || s->shndx >= f->n_secs || g->sym_node[o][i] == SIZE_MAX)
			continue;
		const struct obj_section *sec = &f->secs[s->shndx];
		if (!sec->data || !(sec->flags & SHF_EXECINSTR) || !s->size ||
		    s->value >= sec->size || s->size > sec->size - s->value)
			continue;
		if (keccak_rotation_amounts(sec->data + s->value, (size_t)s->size, f->machine) >=
		    KECCAK_ROTATIONS_MIN)
			add_hit(si, g, g->sym_node[o][i], "Keccak", KECCAK_ROUNDS, object);
	}
}

/* One object to scan: loaded, or the reason it is not. */
struct scan_item {
	const char *name;          /* as recorded */
	const struct obj_file *obj;
	const char *error;
};

/* Scan the items in order; the first one not loaded stops the scan with
 * its error (the objects before it are listed in out). */
static int scan_items(const struct scan_item *it, size_t n, struct survey_instance *out,
		      char **err)
{
	struct graph g;
	memset(&g, 0, sizeof g);
	/* shallow copies: the objects belong to the caller */
	g.objs = xcalloc(n ? n : 1, sizeof *g.objs);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		if (!it[i].obj) {
			*err = xstrdup(it[i].error ? it[i].error : "unreadable object");
			rc = -1;
			break;
		}
		g.objs[i] = *it[i].obj;
		g.n_objs = i + 1;
		sl_push(&out->objects, it[i].name);
		struct strlist undef = STRLIST_INIT;
		obj_undefined(&g.objs[i], &undef);
		for (size_t k = 0; k < 4; k++)
			if (sl_contains(&undef, iccs_functions[k]) &&
			    !sl_contains(&out->iccs_refs, iccs_functions[k]))
				sl_push(&out->iccs_refs, iccs_functions[k]);
		sl_free(&undef);
	}
	if (!rc) {
		build_nodes(&g);
		build_edges(&g);
		reach(&g, &out->roots);
		for (size_t o = 0; o < g.n_objs; o++) {
			symbol_hits(out, &g, o, it[o].name);
			constant_hits(out, &g, o, it[o].name);
			rotation_hits(out, &g, o, it[o].name);
		}
		graph_free(&g);
	}
	free(g.objs);
	return rc;
}

int survey_scan_objects(const char *workspace, const struct strlist *objects,
			struct survey_instance *out, char **err)
{
	struct obj_file *objs = xcalloc(objects->n ? objects->n : 1, sizeof *objs);
	struct scan_item *it = xcalloc(objects->n ? objects->n : 1, sizeof *it);
	char *load_err = NULL;
	size_t n = 0;
	while (n < objects->n) {
		const char *name = objects->items[n];
		char *path = name[0] == '/' ? xstrdup(name) : path_join(workspace, name);
		int loaded = obj_load(path, &objs[n], &load_err) == 0;
		free(path);
		it[n] = (struct scan_item){ name, loaded ? &objs[n] : NULL, load_err };
		n++;
		if (!loaded)
			break;
	}
	int rc = scan_items(it, n, out, err);
	for (size_t i = 0; i < n; i++)
		obj_free(&objs[i]);
	free(load_err);
	free(objs);
	free(it);
	return rc;
}

/* The package's own ICCS files are the ICCS, not own primitives. */
static int is_iccs_object(const char *path)
{
	const char *base = path_basename(path);
	const char *dash = strchr(base, '-');
	const char *stem = dash ? dash + 1 : base;
	return !strcmp(stem, "auxfunc.o") || !strcmp(stem, "drng.o");
}

int survey_scan_instance(const json_t *entry, const struct link_objects *objs,
			 struct survey_instance *out, char **err)
{
	memset(out, 0, sizeof *out);
	out->label = xstrdup(jget_str(entry, "label", "?"));
	out->drng_called = out->hash_called = -1;
	struct scan_item *it = xcalloc(objs->n ? objs->n : 1, sizeof *it);
	size_t n = 0, candidate = 0;
	for (size_t i = 0; i < objs->n; i++) {
		const struct link_object *lo = &objs->v[i];
		if (lo->ours)
			continue;
		candidate++;
		if (!is_iccs_object(lo->path))
			it[n++] = (struct scan_item){ lo->path, lo->loaded ? &lo->obj : NULL, lo->error };
	}
	int rc;
	if (!candidate) {
		*err = xasprintf("build.json entry %s/%s has no recorded link command or objects",
				 jget_str(entry, "candidate", "?"), out->label);
		rc = -1;
	} else {
		rc = scan_items(it, n, out, err);
	}
	free(it);
	return rc;
}

void survey_instance_free(struct survey_instance *si)
{
	for (size_t i = 0; i < si->n_hits; i++) {
		struct survey_hit *h = &si->hits[i];
		free(h->kind);
		free(h->match);
		free(h->object);
		free(h->symbol);
		sl_free(&h->reached_from);
	}
	free(si->hits);
	free(si->label);
	sl_free(&si->objects);
	sl_free(&si->roots);
	sl_free(&si->iccs_refs);
	memset(si, 0, sizeof *si);
}

/* ---- verdict --------------------------------------------------------------------- */

static char *hit_text(const struct survey_hit *h)
{
	if (!strcmp(h->match, "symbol"))
		return xasprintf("%s symbol %s", h->kind, h->symbol);
	return xstrdup(h->match);
}

/* A name is a hint, never evidence: only constants and instruction
 * patterns say what the code does. */
static int is_evidence(const struct survey_hit *h)
{
	return strcmp(h->match, "symbol") != 0;
}

void survey_reachable_hits(const struct survey_instance *si, struct strlist *out)
{
	for (size_t i = 0; i < si->n_hits; i++) {
		if (!si->hits[i].reachable || !is_evidence(&si->hits[i]))
			continue;
		char *t = hit_text(&si->hits[i]);
		if (sl_contains(out, t))
			free(t);
		else
			sl_push_owned(out, t);
	}
}

void survey_reachable_hints(const struct survey_instance *si, struct strlist *out)
{
	for (size_t i = 0; i < si->n_hits; i++) {
		const struct survey_hit *h = &si->hits[i];
		if (h->reachable && !is_evidence(h) && !sl_contains(out, h->symbol))
			sl_push(out, h->symbol);
	}
}

json_t *survey_coverage(const struct survey_instance *si)
{
	struct strlist hits = STRLIST_INIT;
	if (si)
		survey_reachable_hits(si, &hits);
	json_t *c = json_object(), *a = json_array();
	for (size_t i = 0; i < hits.n; i++)
		json_array_append_new(a, json_string(hits.items[i]));
	json_object_set_new(c, "status", json_string(hits.n ? "partial" : "full"));
	json_object_set_new(c, "hits", a);
	sl_free(&hits);
	return c;
}

static int uses_iccs_hash(const struct survey_instance *si)
{
	if (si->hash_called >= 0)
		return si->hash_called;
	for (size_t i = 0; i < si->iccs_refs.n; i++)
		if (strcmp(si->iccs_refs.items[i], "get_random_number"))
			return 1;
	return 0;
}

static int calls_drng(const struct survey_instance *si)
{
	if (si->drng_called >= 0)
		return si->drng_called;
	return sl_contains(&si->iccs_refs, "get_random_number");
}

const char *survey_instance_class(const struct survey_instance *si)
{
	for (size_t i = 0; i < si->n_hits; i++)
		if (si->hits[i].reachable && is_evidence(&si->hits[i]))
			return uses_iccs_hash(si) ? "mixed" : "bypass";
	return "ICCS-only";
}

/* "own Keccak (reachable from kem_enc)" for the distinct reachable kinds. */
static void own_primitive_note(const struct survey_instance *si, size_t n, struct strbuf *sb)
{
	struct strlist kinds = STRLIST_INIT, from = STRLIST_INIT;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < si[k].n_hits; i++) {
			const struct survey_hit *h = &si[k].hits[i];
			if (!h->reachable || !is_evidence(h))
				continue;
			if (!sl_contains(&kinds, h->kind))
				sl_push(&kinds, h->kind);
			for (size_t r = 0; r < h->reached_from.n; r++)
				if (!sl_contains(&from, h->reached_from.items[r]))
					sl_push(&from, h->reached_from.items[r]);
		}
	if (!kinds.n)
		goto done;
	sl_sort(&kinds);
	sl_sort(&from);
	sb_adds(sb, "own ");
	for (size_t i = 0; i < kinds.n; i++)
		sb_addf(sb, "%s%s", i ? ", " : "", kinds.items[i]);
	if (from.n) {
		sb_adds(sb, " (reachable from ");
		for (size_t i = 0; i < from.n; i++)
			sb_addf(sb, "%s%s", i ? ", " : "", from.items[i]);
		sb_adds(sb, ")");
	}
done:
	sl_free(&kinds);
	sl_free(&from);
}

/* SHA-3 and SHAKE are Keccak: a SHAKE name beside Keccak evidence is
 * explained by it. */
static const char *kind_family(const char *kind)
{
	return !strcmp(kind, "SHA-3") || !strcmp(kind, "SHAKE") ? "Keccak" : kind;
}

static int family_has_evidence(const struct survey_instance *si, size_t n, const char *kind)
{
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < si[k].n_hits; i++) {
			const struct survey_hit *h = &si[k].hits[i];
			if (h->reachable && is_evidence(h) &&
			    !strcmp(kind_family(h->kind), kind_family(kind)))
				return 1;
		}
	return 0;
}

/* "named like SHAKE (shake256_absorb, shake256_init), but no matching
 * constants or rotations were found": the reachable names whose kind has
 * no evidence.  At most three names are listed. */
static void name_hint_note(const struct survey_instance *si, size_t n, struct strbuf *sb)
{
	struct strlist kinds = STRLIST_INIT, names = STRLIST_INIT;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < si[k].n_hits; i++) {
			const struct survey_hit *h = &si[k].hits[i];
			if (!h->reachable || is_evidence(h) || family_has_evidence(si, n, h->kind))
				continue;
			if (!sl_contains(&kinds, h->kind))
				sl_push(&kinds, h->kind);
			if (!sl_contains(&names, h->symbol))
				sl_push(&names, h->symbol);
		}
	if (kinds.n) {
		sl_sort(&kinds);
		sl_sort(&names);
		sb_addf(sb, "%snamed like ", sb->len ? "; " : "");
		for (size_t i = 0; i < kinds.n; i++)
			sb_addf(sb, "%s%s", i ? ", " : "", kinds.items[i]);
		sb_adds(sb, " (");
		for (size_t i = 0; i < names.n && i < 3; i++)
			sb_addf(sb, "%s%s", i ? ", " : "", names.items[i]);
		if (names.n > 3)
			sb_addf(sb, " and %zu more", names.n - 3);
		sb_adds(sb, "), but no matching constants or rotations were found");
	}
	sl_free(&kinds);
	sl_free(&names);
}

const char *survey_verdict(const struct survey_instance *si, size_t n, char **notes)
{
	const char *verdict = n ? survey_instance_class(&si[0]) : "ICCS-only";
	int any_drng = 0;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(survey_instance_class(&si[i]), verdict))
			verdict = "instance-dependent";
		any_drng |= calls_drng(&si[i]);
	}
	struct strbuf sb = STRBUF_INIT;
	own_primitive_note(si, n, &sb);
	name_hint_note(si, n, &sb);
	if (n && !any_drng)
		sb_addf(&sb, "%snever calls the DRNG", sb.len ? "; " : "");
	*notes = sb_detach(&sb);
	return verdict;
}

/* ---- survey.conf ------------------------------------------------------------------- */

static int known_verdict(const char *v)
{
	return !strcmp(v, "ICCS-only") || !strcmp(v, "bypass") || !strcmp(v, "mixed") ||
	       !strcmp(v, "instance-dependent");
}

int survey_conf_lookup(const char *path, const char *id, char **verdict, char **notes,
		       char **err)
{
	char *data = NULL;
	size_t len;
	*verdict = *notes = NULL;
	if (!path_exists(path))
		return 0;
	if (read_file(path, &data, &len)) {
		*err = xasprintf("cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	int found = 0, lineno = 0;
	char *save = NULL;
	for (char *line = strtok_r(data, "\n", &save); line && found >= 0;
	     line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		char *t = str_trim(line);
		if (!*t || *t == '#')
			continue;
		char *s1 = strchr(t, ';'), *s2 = s1 ? strchr(s1 + 1, ';') : NULL;
		if (!s1) {
			*err = xasprintf("%s:%d: expected `ID; verdict; notes`", path, lineno);
			found = -1;
			break;
		}
		*s1 = '\0';
		if (s2)
			*s2 = '\0';
		char *v = str_trim(s1 + 1);
		if (!known_verdict(v)) {
			*err = xasprintf("%s:%d: verdict '%s' is not one of ICCS-only, bypass, "
					 "mixed, instance-dependent", path, lineno, v);
			found = -1;
			break;
		}
		if (strcmp(str_trim(t), id) || found)
			continue;
		*verdict = xstrdup(v);
		*notes = xstrdup(s2 ? str_trim(s2 + 1) : "");
		found = 1;
	}
	free(data);
	if (found < 0) {
		free(*verdict);
		free(*notes);
		*verdict = *notes = NULL;
	}
	return found;
}

/* ---- survey.json ----------------------------------------------------------------------- */

static json_t *strlist_json(const struct strlist *sl)
{
	json_t *a = json_array();
	for (size_t i = 0; i < sl->n; i++)
		json_array_append_new(a, json_string(sl->items[i]));
	return a;
}

static json_t *tri_json(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *instance_json(const struct survey_instance *si)
{
	json_t *j = json_object(), *hits = json_array();
	json_object_set_new(j, "label", json_string(si->label));
	json_object_set_new(j, "class", json_string(survey_instance_class(si)));
	json_object_set_new(j, "objects", strlist_json(&si->objects));
	json_object_set_new(j, "api_roots", strlist_json(&si->roots));
	json_object_set_new(j, "iccs_references", strlist_json(&si->iccs_refs));
	json_object_set_new(j, "drng_called", tri_json(si->drng_called));
	json_object_set_new(j, "iccs_hash_called", tri_json(si->hash_called));
	for (size_t i = 0; i < si->n_hits; i++) {
		const struct survey_hit *h = &si->hits[i];
		json_t *o = json_object();
		json_object_set_new(o, "kind", json_string(h->kind));
		json_object_set_new(o, "match", json_string(h->match));
		json_object_set_new(o, "object", json_string(h->object));
		json_object_set_new(o, "symbol", json_string(h->symbol));
		json_object_set_new(o, "reachable", json_boolean(h->reachable));
		json_object_set_new(o, "reached_from", strlist_json(&h->reached_from));
		json_array_append_new(hits, o);
	}
	json_object_set_new(j, "hits", hits);
	return j;
}

json_t *survey_json(const char *cand, const struct survey_instance *si, size_t n,
		    const char *conf_verdict, const char *conf_notes)
{
	char *notes = NULL;
	const char *verdict = survey_verdict(si, n, &notes);
	struct strlist scan = STRLIST_INIT, hints = STRLIST_INIT;
	for (size_t i = 0; i < n; i++) {
		survey_reachable_hits(&si[i], &scan);
		survey_reachable_hints(&si[i], &hints);
	}
	json_t *j = json_object(), *aut = json_object(), *inst = json_array();
	json_object_set_new(j, "schema", evidence_schema(SURVEY_KIND, SURVEY_VERSION));
	json_object_set_new(j, "candidate", json_string(cand));
	json_object_set_new(j, "verdict", json_string(conf_verdict ? conf_verdict : verdict));
	json_object_set_new(j, "notes", json_string(conf_verdict ? conf_notes : notes));
	json_object_set_new(j, "source", json_string(conf_verdict ? "survey.conf" : "automatic"));
	json_object_set_new(aut, "verdict", json_string(verdict));
	json_object_set_new(aut, "notes", json_string(notes));
	json_object_set_new(aut, "scan", strlist_json(&scan));
	json_object_set_new(aut, "name_hints", strlist_json(&hints));
	json_object_set_new(j, "automatic", aut);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(inst, instance_json(&si[i]));
	json_object_set_new(j, "instances", inst);
	sl_free(&scan);
	sl_free(&hints);
	free(notes);
	return j;
}

/* ---- joining the surveys of shards ------------------------------------------------------ */

static void strlist_from(const json_t *a, struct strlist *out)
{
	size_t i;
	json_t *v;
	json_array_foreach(a, i, v)
		if (json_is_string(v))
			sl_push(out, json_string_value(v));
}

static int tri_from(const json_t *v)
{
	return json_is_boolean(v) ? json_is_true(v) : -1;
}

/* The inverse of instance_json: what the verdict is computed from. */
static void instance_from_json(const json_t *j, struct survey_instance *si)
{
	memset(si, 0, sizeof *si);
	si->label = xstrdup(jget_str(j, "label", ""));
	strlist_from(json_object_get(j, "objects"), &si->objects);
	strlist_from(json_object_get(j, "api_roots"), &si->roots);
	strlist_from(json_object_get(j, "iccs_references"), &si->iccs_refs);
	si->drng_called = tri_from(json_object_get(j, "drng_called"));
	si->hash_called = tri_from(json_object_get(j, "iccs_hash_called"));
	const json_t *hits = json_object_get(j, "hits");
	si->hits = xcalloc(json_array_size(hits) + 1, sizeof *si->hits);
	size_t i;
	json_t *h;
	json_array_foreach(hits, i, h) {
		struct survey_hit *o = &si->hits[si->n_hits++];
		o->kind = xstrdup(jget_str(h, "kind", ""));
		o->match = xstrdup(jget_str(h, "match", ""));
		o->object = xstrdup(jget_str(h, "object", ""));
		o->symbol = xstrdup(jget_str(h, "symbol", ""));
		o->reachable = jget_bool(h, "reachable", 0);
		strlist_from(json_object_get(h, "reached_from"), &o->reached_from);
	}
}

static int by_label(const void *a, const void *b)
{
	return strcmp(((const struct survey_instance *)a)->label,
		      ((const struct survey_instance *)b)->label);
}

json_t *survey_join(const json_t *const *docs, size_t n, char **err)
{
	const char *cand = NULL, *conf_verdict = NULL, *conf_notes = NULL;
	size_t total = 0, k = 0;
	for (size_t d = 0; d < n; d++)
		total += json_array_size(json_object_get(docs[d], "instances"));
	struct survey_instance *si = xcalloc(total + 1, sizeof *si);
	for (size_t d = 0; d < n; d++) {
		if (!cand)
			cand = jget_str(docs[d], "candidate", NULL);
		if (!conf_verdict && !strcmp(jget_str(docs[d], "source", ""), "survey.conf")) {
			conf_verdict = jget_str(docs[d], "verdict", NULL);
			conf_notes = jget_str(docs[d], "notes", "");
		}
		size_t i;
		json_t *j;
		json_array_foreach(json_object_get(docs[d], "instances"), i, j)
			instance_from_json(j, &si[k++]);
	}
	qsort(si, k, sizeof *si, by_label);
	json_t *out = NULL;
	for (size_t i = 1; i < k && !*err; i++)
		if (!strcmp(si[i].label, si[i - 1].label))
			*err = xasprintf("instance %s of %s is surveyed twice", si[i].label,
					 cand ? cand : "?");
	if (!*err)
		out = survey_json(cand ? cand : "", si, k, conf_verdict, conf_notes);
	for (size_t i = 0; i < k; i++)
		survey_instance_free(&si[i]);
	free(si);
	return out;
}
