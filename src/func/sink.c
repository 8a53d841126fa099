/* sink.c: deferred device-memory effects (func/sink.h). */
#include "func/sink.h"

#include <stdlib.h>
#include <string.h>

#include "func/exec_internal.h"

/* Lines of 64 bytes: an aligned access of up to 32 bytes lies in one. */
static uint64_t written_hash(const uint8_t *p)
{
    return ((uint64_t)(uintptr_t)p >> 6) * 0x9e3779b97f4a7c15ull >> 46; /* 18 bits */
}

static void written_add(struct func_written *wr, const uint8_t *p)
{
    uint64_t h = written_hash(p);
    uint64_t *w = &wr->bits[h >> 6];
    if (!*w)
        *ARRAY_PUSH(wr->used, wr->nused, wr->used_cap) = (uint32_t)(h >> 6);
    *w |= 1ull << (h & 63);
}

static int written_has(const struct func_written *wr, const uint8_t *p)
{
    uint64_t h = written_hash(p);
    return (int)(wr->bits[h >> 6] >> (h & 63) & 1);
}

void func_written_clear(struct func_written *wr)
{
    for (size_t i = 0; i < wr->nused; i++)
        wr->bits[wr->used[i]] = 0;
    wr->nused = 0;
}

void func_written_free(struct func_written *wr)
{
    free(wr->used);
    wr->used = NULL;
    wr->nused = wr->used_cap = 0;
}

/* Read again the lanes of load x whose lines were written before it. */
static void reload(const struct func_sink *s, const struct func_sink_load *x,
                   const struct func_written *wr)
{
    const uint8_t *const *pp = s->ptrs + x->first;
    for (uint32_t m = x->mask; m; m &= m - 1, pp++) {
        unsigned l = (unsigned)__builtin_ctz(m);
        for (unsigned i = 0; i < x->nel; i++) {
            const uint8_t *p = *pp + (size_t)i * x->esz;
            if (x->ri[i] == SIZE_MAX || !written_has(wr, p))
                continue;
            uint64_t v = 0;
            memcpy(&v, p, x->esz);
            if (x->sign)
                v = sext(v, x->esz);
            x->w->regs[x->ri[i] + l] = v & x->wm[i];
        }
    }
}

static void apply_op(const struct func_deferred *d, struct func_written *wr)
{
    uint64_t v = 0, nv;
    switch (d->kind) {
    case FUNC_DEF_LOAD:
        memcpy(&v, d->p, d->n);
        if (d->sign)
            v = sext(v, d->n);
        d->w->regs[d->ri] = v & d->wm;
        break;
    case FUNC_DEF_STORE:
        memcpy(d->p, &d->val, d->n);
        written_add(wr, d->p);
        break;
    case FUNC_DEF_ATOM:
        memcpy(&v, d->p, d->n);
        /* the combination was checked when the atomic executed */
        exec_atom_apply(d->sub, (enum ptx_type)d->type, v, d->val, d->c, &nv);
        memcpy(d->p, &nv, d->n);
        written_add(wr, d->p);
        if (d->ri != SIZE_MAX)
            d->w->regs[d->ri] = v & d->wm;
        break;
    }
}

void func_sink_apply(struct func_sink *s, struct func_written *wr)
{
    if (!s->nops && (!s->nloads || !wr->nused))
        return; /* the loads read what a serial run would have: nothing was written */
    size_t li = 0;
    for (size_t i = 0;; i++) {
        for (; li < s->nloads && s->loads[li].nops == i; li++)
            if (wr->nused)
                reload(s, &s->loads[li], wr);
        if (i == s->nops)
            break;
        apply_op(&s->ops[i], wr);
    }
}

void func_sink_restart(struct func_sink *s)
{
    s->warp_insn = 0;
    s->nsteps = 0;
    s->nops = s->nloads = s->nptrs = 0;
}

void func_sink_flush(struct func_sink *s, struct func_stats *st)
{
    st->gpu_sim_insn += s->st.gpu_sim_insn;
    st->simt_active_lanes += s->st.simt_active_lanes;
    st->warp_insn += s->st.warp_insn;
    st->racecheck_hazards += s->st.racecheck_hazards;
    st->oob_reads_zeroed += s->st.oob_reads_zeroed;
    for (unsigned c = 0; c < ICLASS_COUNT; c++)
        st->class_insn[c] += s->st.class_insn[c];
    st->rf_reads += s->st.rf_reads;
    st->rf_writes += s->st.rf_writes;
    st->non_rf_operands += s->st.non_rf_operands;
    for (unsigned u = 0; u < POWER_UNIT_COUNT; u++)
        st->unit_acc[u] += s->st.unit_acc[u];
    memset(&s->st, 0, sizeof s->st);
}

void func_sink_free(struct func_sink *s)
{
    free(s->ops);
    free(s->loads);
    free(s->ptrs);
    free(s->steps);
    memset(s, 0, sizeof *s);
}

int func_module_sinkable(const struct ptx_module *m)
{
    for (uint32_t pc = 0; pc < m->ninsts; pc++) {
        const struct ptx_inst *in = &m->insts[pc];
        if (in->op == PTX_OP_TEX || in->op == PTX_OP_TLD4 || in->op == PTX_OP_TXQ ||
            in->op == PTX_OP_SULD || in->op == PTX_OP_SUST)
            return 0; /* texture and surface access reads (and sust writes) device memory
                         in place (exec_tex.c) */
        if (in->op == PTX_OP_CALL) {
            const struct ptx_operand *fo = ptx_src(m, in, 0);
            if (fo->kind != PTX_OPND_FUNC || m->funcs[fo->sym].is_extern ||
                m->funcs[fo->sym].ninsts == 0)
                return 0;
        }
        for (unsigned i = 0; i < (unsigned)in->ndst + in->nsrc; i++) {
            const struct ptx_operand *o = &m->opnds[in->opnd + i];
            if (o->kind == PTX_OPND_SREG && o->reg == PTX_SREG_GLOBALTIMER)
                return 0;
        }
    }
    return 1;
}
