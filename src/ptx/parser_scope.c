/* parser_scope.c: the parser's scoped name table: an open-addressing hash
 * table with an undo log, so that leaving a "{ }" scope restores the names
 * it shadowed. */
#include "ptx/parser_internal.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/log.h"

static uint32_t sym_hash(const char *s, uint32_t n)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static struct sym_ent *sym_slot(struct symtab *t, const char *k, uint32_t n, uint32_t h)
{
    size_t mask = t->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        struct sym_ent *e = &t->ents[i];
        if (!e->key || (e->hash == h && e->klen == n && memcmp(e->key, k, n) == 0))
            return e;
    }
}

static void sym_grow(struct symtab *t)
{
    struct sym_ent *old = t->ents;
    size_t oldcap = t->cap;
    t->cap = oldcap ? oldcap * 2 : 256;
    t->ents = xcalloc(t->cap, sizeof *t->ents);
    for (size_t i = 0; i < oldcap; i++) {
        if (old[i].key)
            *sym_slot(t, old[i].key, old[i].klen, old[i].hash) = old[i];
    }
    free(old);
}

const struct sym_ent *parser_sym_lookup(struct symtab *t, const char *k, uint32_t n)
{
    if (!t->cap)
        return NULL;
    const struct sym_ent *e = sym_slot(t, k, n, sym_hash(k, n));
    return (e->key && e->kind != SYM_NONE) ? e : NULL;
}

/* Declare at the current depth; returns 0 if already declared at that depth. */
int parser_sym_declare(struct symtab *t, const char *k, uint32_t n, uint8_t kind, uint32_t idx)
{
    if ((t->used + 1) * 2 > t->cap)
        sym_grow(t);
    uint32_t h = sym_hash(k, n);
    struct sym_ent *e = sym_slot(t, k, n, h);
    uint32_t depth = (uint32_t)t->nmarks;
    if (!e->key) {
        e->key = k;
        e->klen = n;
        e->hash = h;
        e->kind = SYM_NONE;
        t->used++;
    } else if (e->kind != SYM_NONE && e->depth == depth) {
        return 0;
    }
    if (t->nmarks) {
        struct sym_undo *u = ARRAY_PUSH(t->log, t->nlog, t->cap_log);
        u->key = e->key;
        u->klen = n;
        u->kind = e->kind;
        u->depth = e->depth;
        u->idx = e->idx;
    }
    e->kind = kind;
    e->depth = depth;
    e->idx = idx;
    return 1;
}

void parser_sym_push(struct symtab *t)
{
    *ARRAY_PUSH(t->marks, t->nmarks, t->cap_marks) = t->nlog;
}

void parser_sym_pop(struct symtab *t)
{
    ws_assert(t->nmarks > 0);
    size_t mark = t->marks[--t->nmarks];
    while (t->nlog > mark) {
        struct sym_undo *u = &t->log[--t->nlog];
        struct sym_ent *e = sym_slot(t, u->key, u->klen, sym_hash(u->key, u->klen));
        e->kind = u->kind;
        e->depth = u->depth;
        e->idx = u->idx;
    }
}

void parser_sym_reset(struct symtab *t)
{
    if (t->cap)
        memset(t->ents, 0, t->cap * sizeof *t->ents);
    t->used = 0;
    t->nlog = 0;
    t->nmarks = 0;
}

void parser_sym_free(struct symtab *t)
{
    free(t->ents);
    free(t->log);
    free(t->marks);
}
