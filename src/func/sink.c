/* sink.c: deferred device-memory effects (func/sink.h). */
#include "func/sink.h"

#include <stdlib.h>
#include <string.h>

#include "func/exec_internal.h"

void func_sink_apply(struct func_sink *s)
{
    if (!s->nops)
        return; /* not even a write: the SM's thread owns the line */
    for (size_t i = 0; i < s->nops; i++) {
        const struct func_deferred *d = &s->ops[i];
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
            break;
        case FUNC_DEF_ATOM:
            memcpy(&v, d->p, d->n);
            /* the combination was checked when the atomic executed */
            exec_atom_apply(d->sub, (enum ptx_type)d->type, v, d->val, d->c, &nv);
            memcpy(d->p, &nv, d->n);
            if (d->ri != SIZE_MAX)
                d->w->regs[d->ri] = v & d->wm;
            break;
        }
    }
    s->nops = 0;
}

void func_sink_restart(struct func_sink *s)
{
    s->warp_insn = 0;
    s->nsteps = 0;
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
