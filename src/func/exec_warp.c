/* exec_warp.c: warp-level instructions (shfl, vote, match, redux) and CTA
 * barriers (bar/barrier, bar.red, bar.arrive). */
#include "func/exec_internal.h"
#include "func/racecheck.h"

#include <string.h>

/* ---- warp-level ----------------------------------------------------------- */

int exec_shfl(const struct step *s, uint32_t mask)
{
    const struct ptx_inst *in = s->in;
    uint64_t a[32], b[32], c[32], d[32], p[32];
    exec_opnd_read(s, ptx_src(s->m, in, 0), a);
    exec_opnd_read(s, ptx_src(s->m, in, 1), b);
    exec_opnd_read(s, ptx_src(s->m, in, 2), c);
    FOR_LANES(l, mask) {
        uint32_t bval = (uint32_t)b[l] & 31, cval = (uint32_t)c[l] & 31;
        uint32_t seg = ((uint32_t)c[l] >> 8) & 31;
        int32_t maxl = (int32_t)((l & seg) | (cval & ~seg));
        int32_t minl = (int32_t)(l & seg);
        int32_t j;
        int ok;
        switch (in->sub) {
        case PTX_SUB_SHFL_UP: j = (int32_t)l - (int32_t)bval; ok = j >= maxl; break;
        case PTX_SUB_SHFL_DOWN: j = (int32_t)l + (int32_t)bval; ok = j <= maxl; break;
        case PTX_SUB_SHFL_BFLY: j = (int32_t)(l ^ bval); ok = j <= maxl; break;
        case PTX_SUB_SHFL_IDX: j = minl | (int32_t)(bval & ~seg); ok = j <= maxl; break;
        default: return exec_unsupported(s, "shfl mode");
        }
        if (!ok || j < 0 || j > 31)
            j = (int32_t)l;
        d[l] = a[j];
        p[l] = (uint64_t)ok;
    }
    exec_dst_write(s, ptx_dst(s->m, in, 0), mask, d);
    if (in->ndst > 1)
        exec_dst_write(s, ptx_dst(s->m, in, 1), mask, p);
    return WS_OK;
}

/* The lanes lane l's .sync instruction acts with: the active lanes named in
 * its membermask operand (source `idx`, when present; lanes of different
 * groups, e.g. two 16-thread cooperative-group tiles, pass different masks). */
static void member_masks(const struct step *s, unsigned idx, uint32_t mask, uint32_t *mm)
{
    const struct ptx_inst *in = s->in;
    uint64_t m[32];
    if (in->nsrc > idx)
        exec_opnd_read(s, ptx_src(s->m, in, idx), m);
    FOR_LANES(l, mask) mm[l] = in->nsrc > idx ? mask & (uint32_t)m[l] : mask;
}

int exec_vote(const struct step *s, uint32_t mask)
{
    const struct ptx_inst *in = s->in;
    uint64_t a[32], d[32];
    uint32_t mm[32];
    exec_opnd_read(s, ptx_src(s->m, in, 0), a);
    member_masks(s, 1, mask, mm);
    uint32_t all_set = 0;
    FOR_LANES(l, mask) if (a[l]) all_set |= 1u << l;
    FOR_LANES(l, mask) {
        uint32_t set = all_set & mm[l];
        switch (in->sub) {
        case PTX_SUB_VOTE_ALL: d[l] = set == mm[l]; break;
        case PTX_SUB_VOTE_ANY: d[l] = set != 0; break;
        case PTX_SUB_VOTE_UNI: d[l] = set == 0 || set == mm[l]; break;
        case PTX_SUB_VOTE_BALLOT: d[l] = set; break;
        default: return exec_unsupported(s, "vote mode");
        }
    }
    exec_dst_write(s, ptx_dst(s->m, in, 0), mask, d);
    return WS_OK;
}

int exec_match(const struct step *s, uint32_t mask)
{
    const struct ptx_inst *in = s->in;
    uint64_t a[32], d[32], p[32];
    uint32_t mm[32];
    exec_opnd_read(s, ptx_src(s->m, in, 0), a);
    member_masks(s, 1, mask, mm);
    uint64_t wm = width_mask(ptx_type_size((enum ptx_type)in->type));
    FOR_LANES(l, mask) {
        uint32_t same = 0;
        FOR_LANES(j, mm[l]) if ((a[j] & wm) == (a[l] & wm)) same |= 1u << j;
        if (in->sub == PTX_SUB_MATCH_ALL) {
            d[l] = same == mm[l] ? mm[l] : 0;
            p[l] = same == mm[l];
        } else {
            d[l] = same;
            p[l] = 1;
        }
    }
    exec_dst_write(s, ptx_dst(s->m, in, 0), mask, d);
    if (in->ndst > 1)
        exec_dst_write(s, ptx_dst(s->m, in, 1), mask, p);
    return WS_OK;
}

int exec_redux(const struct step *s, uint32_t mask)
{
    const struct ptx_inst *in = s->in;
    uint64_t a[32], d[32];
    uint32_t mm[32];
    exec_opnd_read(s, ptx_src(s->m, in, 0), a);
    member_masks(s, 1, mask, mm);
    int sign = ptx_type_is_signed((enum ptx_type)in->type);
    FOR_LANES(l, mask) {
        uint32_t acc = 0;
        int first = 1;
        FOR_LANES(j, mm[l]) {
            uint32_t v = (uint32_t)a[j];
            if (first) {
                acc = v;
                first = 0;
                continue;
            }
            switch (in->sub) {
            case PTX_SUB_ATOM_ADD: acc += v; break;
            case PTX_SUB_ATOM_AND: acc &= v; break;
            case PTX_SUB_ATOM_OR: acc |= v; break;
            case PTX_SUB_ATOM_XOR: acc ^= v; break;
            case PTX_SUB_ATOM_MIN:
                acc = sign ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc);
                break;
            case PTX_SUB_ATOM_MAX:
                acc = sign ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc);
                break;
            default: return exec_unsupported(s, "redux operation");
            }
        }
        d[l] = acc;
    }
    exec_dst_write(s, ptx_dst(s->m, in, 0), mask, d);
    return WS_OK;
}

/* ---- barriers ------------------------------------------------------------- */

static void barrier_try_release(struct func_cta *c, uint32_t id)
{
    struct func_barrier *b = &c->bars[id];
    if (b->arrived_warps == 0)
        return;
    int ok = b->expected ? b->arrived_threads >= b->expected
                         : b->arrived_warps >= c->live_warps;
    if (!ok)
        return;
    for (uint32_t i = 0; i < c->nwarps; i++) {
        struct func_warp *w = &c->warps[i];
        if (w->state != FUNC_WARP_AT_BARRIER || w->bar_id != id)
            continue;
        w->state = FUNC_WARP_READY;
        if (w->bar_red_dst != PTX_NO_INDEX) {
            uint64_t v = w->bar_red_op == PTX_SUB_BAR_RED_POPC ? b->red_popc
                         : w->bar_red_op == PTX_SUB_BAR_RED_AND ? b->red_and
                                                                : b->red_or;
            uint64_t *d = w->cur_regs + (size_t)w->cur_slot[w->bar_red_dst] * FUNC_WARP_SIZE;
            FOR_LANES(l, w->bar_red_mask) d[l] = v;
            w->bar_red_dst = PTX_NO_INDEX;
        }
    }
    memset(b, 0, sizeof *b);
    b->red_and = 1;
    race_epoch(c);
}

void exec_cta_release_all(struct func_cta *c)
{
    for (uint32_t id = 0; id < FUNC_NUM_BARRIERS; id++)
        barrier_try_release(c, id);
}

int exec_bar(const struct step *s, uint32_t mask, struct func_trace *t)
{
    const struct ptx_inst *in = s->in;
    struct func_warp *w = s->w;
    int is_red = in->sub == PTX_SUB_BAR_RED_POPC || in->sub == PTX_SUB_BAR_RED_AND ||
                 in->sub == PTX_SUB_BAR_RED_OR;
    uint64_t v[32];
    uint32_t lane = first_lane(mask);
    /* bar.warp.sync (__syncwarp): the lanes of a warp already execute in
     * lock step under the SIMT stack, so there is nothing to wait for. */
    if (mask == 0 || in->sub == PTX_SUB_BAR_WARP_SYNC)
        return WS_OK;
    if (in->nsrc > 0)
        exec_opnd_read(s, ptx_src(s->m, in, 0), v);
    else
        memset(v, 0, sizeof v);
    uint64_t id = v[lane];
    if (id >= FUNC_NUM_BARRIERS)
        return exec_fail(s, lane, WS_ERR_FAULT, "barrier id out of range (0..15)");
    unsigned nfixed = is_red ? 2u : 1u; /* id [, pred] */
    uint32_t expected = 0;
    if (in->nsrc > nfixed) {
        exec_opnd_read(s, ptx_src(s->m, in, 1), v);
        expected = (uint32_t)v[lane];
        if (expected == 0 || expected % FUNC_WARP_SIZE != 0)
            expected = (expected + FUNC_WARP_SIZE - 1) / FUNC_WARP_SIZE * FUNC_WARP_SIZE;
    }
    struct func_barrier *b = &s->c->bars[id];
    b->arrived_warps++;
    b->arrived_threads += FUNC_WARP_SIZE;
    if (expected)
        b->expected = expected;
    if (is_red) {
        uint64_t p[32];
        exec_opnd_read(s, ptx_src(s->m, in, in->nsrc - 1), p);
        FOR_LANES(l, mask) {
            b->red_popc += p[l] != 0;
            b->red_and &= p[l] != 0;
            b->red_or |= p[l] != 0;
        }
        const struct ptx_operand *d = ptx_dst(s->m, in, 0);
        w->bar_red_dst = in->ndst && d->kind == PTX_OPND_REG ? d->reg : PTX_NO_INDEX;
        w->bar_red_mask = mask;
        w->bar_red_op = in->sub;
    }
    if (in->sub != PTX_SUB_BAR_ARRIVE) {
        w->state = FUNC_WARP_AT_BARRIER;
        w->bar_id = (uint32_t)id;
        w->bar_pc = s->pc;
        b->waiting++;
        t->barrier = 1;
    }
    barrier_try_release(s->c, (uint32_t)id);
    return WS_OK;
}

