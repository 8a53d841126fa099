/* scoreboard.c: per-warp register bitsets (RAW/WAW hazards, long-op marks)
 * and the per-PC lists of registers read and written. */
#include "timing/scoreboard.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

static void add_reg(uint32_t *list, uint8_t *n, uint32_t max, uint32_t r)
{
    if (r == PTX_NO_INDEX)
        return;
    for (uint8_t i = 0; i < *n; i++)
        if (list[i] == r)
            return;
    if (*n < max)
        list[(*n)++] = r;
}

static void add_opnd(struct sb_inst_regs *out, const struct ptx_operand *o, int write)
{
    uint32_t *list = write ? out->write : out->read;
    uint8_t *n = write ? &out->nwrite : &out->nread;
    uint32_t max = write ? SB_MAX_WRITE : SB_MAX_READ;
    switch (o->kind) {
    case PTX_OPND_REG:
        add_reg(list, n, max, o->reg);
        break;
    case PTX_OPND_ADDR: /* the base register is read even by a store's address */
        add_reg(out->read, &out->nread, SB_MAX_READ, o->reg);
        break;
    case PTX_OPND_VEC:
        for (uint32_t i = 0; i < o->vec_n && i < 4; i++)
            if (!(o->vec_imm & (1u << i)))
                add_reg(list, n, max, o->vec[i]);
        break;
    default:
        break;
    }
}

void scoreboard_inst_regs(const struct ptx_module *m, uint32_t pc, struct sb_inst_regs *out)
{
    const struct ptx_inst *in = &m->insts[pc];
    memset(out, 0, sizeof *out);
    add_reg(out->read, &out->nread, SB_MAX_READ, in->guard);
    for (unsigned i = 0; i < in->ndst; i++)
        add_opnd(out, ptx_dst(m, in, i), 1);
    for (unsigned i = 0; i < in->nsrc; i++)
        add_opnd(out, ptx_src(m, in, i), 0);
}

void scoreboard_init(struct scoreboard *sb, uint32_t nwarps, uint32_t nregs)
{
    uint32_t words = (nregs + 63) / 64;
    if (words == 0)
        words = 1;
    if (sb->nwarps != nwarps || sb->words != words) {
        scoreboard_fini(sb);
        sb->pend = xcalloc((size_t)nwarps * words, sizeof *sb->pend);
        sb->longop = xcalloc((size_t)nwarps * words, sizeof *sb->longop);
        sb->npend = xcalloc(nwarps ? nwarps : 1, sizeof *sb->npend);
        sb->nlong = xcalloc(nwarps ? nwarps : 1, sizeof *sb->nlong);
    } else {
        memset(sb->pend, 0, (size_t)nwarps * words * sizeof *sb->pend);
        memset(sb->longop, 0, (size_t)nwarps * words * sizeof *sb->longop);
        memset(sb->npend, 0, nwarps * sizeof *sb->npend);
        memset(sb->nlong, 0, nwarps * sizeof *sb->nlong);
    }
    sb->nwarps = nwarps;
    sb->nregs = words * 64;
    sb->words = words;
}

void scoreboard_fini(struct scoreboard *sb)
{
    free(sb->pend);
    free(sb->longop);
    free(sb->npend);
    free(sb->nlong);
    memset(sb, 0, sizeof *sb);
}

void scoreboard_clear_warp(struct scoreboard *sb, uint32_t warp)
{
    memset(sb->pend + (size_t)warp * sb->words, 0, sb->words * sizeof *sb->pend);
    memset(sb->longop + (size_t)warp * sb->words, 0, sb->words * sizeof *sb->longop);
    sb->npend[warp] = 0;
    sb->nlong[warp] = 0;
}

static inline int bit_test(const uint64_t *b, uint32_t r)
{
    return (int)((b[r / 64] >> (r % 64)) & 1u);
}

int scoreboard_hazard(const struct scoreboard *sb, uint32_t warp, const struct sb_inst_regs *r)
{
    if (sb->npend[warp] == 0)
        return 0;
    const uint64_t *p = sb->pend + (size_t)warp * sb->words;
    for (uint8_t i = 0; i < r->nread; i++)
        if (r->read[i] < sb->nregs && bit_test(p, r->read[i]))
            return 1;
    for (uint8_t i = 0; i < r->nwrite; i++)
        if (r->write[i] < sb->nregs && bit_test(p, r->write[i]))
            return 1;
    return 0;
}

int scoreboard_long_hazard(const struct scoreboard *sb, uint32_t warp,
                           const struct sb_inst_regs *r)
{
    if (sb->nlong[warp] == 0)
        return 0;
    const uint64_t *l = sb->longop + (size_t)warp * sb->words;
    for (uint8_t i = 0; i < r->nread; i++)
        if (r->read[i] < sb->nregs && bit_test(l, r->read[i]))
            return 1;
    for (uint8_t i = 0; i < r->nwrite; i++)
        if (r->write[i] < sb->nregs && bit_test(l, r->write[i]))
            return 1;
    return 0;
}

void scoreboard_reserve(struct scoreboard *sb, uint32_t warp, const struct sb_inst_regs *r,
                        int is_long)
{
    uint64_t *p = sb->pend + (size_t)warp * sb->words;
    uint64_t *l = sb->longop + (size_t)warp * sb->words;
    for (uint8_t i = 0; i < r->nwrite; i++) {
        uint32_t x = r->write[i];
        if (x >= sb->nregs || bit_test(p, x))
            continue;
        p[x / 64] |= 1ull << (x % 64);
        sb->npend[warp]++;
        if (is_long) {
            l[x / 64] |= 1ull << (x % 64);
            sb->nlong[warp]++;
        }
    }
}

void scoreboard_release(struct scoreboard *sb, uint32_t warp, const struct sb_inst_regs *r)
{
    uint64_t *p = sb->pend + (size_t)warp * sb->words;
    uint64_t *l = sb->longop + (size_t)warp * sb->words;
    for (uint8_t i = 0; i < r->nwrite; i++) {
        uint32_t x = r->write[i];
        if (x >= sb->nregs || !bit_test(p, x))
            continue;
        p[x / 64] &= ~(1ull << (x % 64));
        sb->npend[warp]--;
        if (bit_test(l, x)) {
            l[x / 64] &= ~(1ull << (x % 64));
            sb->nlong[warp]--;
        }
    }
}

uint32_t scoreboard_pending(const struct scoreboard *sb, uint32_t warp, uint32_t *out,
                            uint32_t max)
{
    const uint64_t *p = sb->pend + (size_t)warp * sb->words;
    uint32_t n = 0;
    for (uint32_t r = 0; r < sb->nregs; r++)
        if (bit_test(p, r)) {
            if (n < max)
                out[n] = r;
            n++;
        }
    return n;
}
