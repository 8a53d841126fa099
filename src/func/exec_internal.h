/* exec_internal.h: private to the functional executor (func/exec*.c): the
 * context of the instruction being executed, small lane helpers and the
 * functions shared by exec.c (operands, SIMT stack, step), exec_mem.c
 * (memory and data movement), exec_warp.c (warp-level instructions and
 * barriers) and exec_call.c (calls). */
#ifndef WS_FUNC_EXEC_INTERNAL_H
#define WS_FUNC_EXEC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "base/bits.h"
#include "base/err.h"
#include "func/func.h"
#include "ptx/ir.h"

#define FULL_MASK 0xffffffffu

enum acc_kind { ACC_READ, ACC_WRITE, ACC_ATOMIC };

/* Context of the instruction being executed. */
struct step {
    struct func_cta *c;
    struct func_warp *w;
    struct func_kernel *k;
    const struct ptx_module *m;
    const struct ptx_inst *in;
    uint32_t pc;
    uint32_t active; /* SIMT-active lanes (messages name the first) */
    struct err *e;
};

/* What an instruction asks of the SIMT stack (exec_inst). */
struct exec_out {
    uint32_t exit;  /* lanes that leave the kernel (exit, ret from the entry) */
    uint32_t taken; /* lanes that go to tpc (bra, ret from a call) */
    uint32_t tpc;
    uint32_t reconv; /* reconvergence PC of a branch */
};

static inline unsigned popc(uint32_t x)
{
    return ws_popc32(x);
}

/* Count one executed warp instruction at pc_info pi: SIMT-active lanes
 * `active`, of which `mask` had a true guard. */
static inline void func_count_insn(struct func_stats *st, const struct pc_info *pi,
                                   uint32_t active, uint32_t mask)
{
    uint32_t a = popc(active);
    st->warp_insn++;
    st->class_insn[pi->iclass]++;
    st->simt_active_lanes += a;
    st->gpu_sim_insn += popc(mask);
    st->rf_reads += pi->power.rf_reads;
    st->rf_writes += pi->power.rf_writes;
    st->non_rf_operands += pi->power.non_rf;
    if (pi->power.op != POWER_OP_NONE)
        st->unit_acc[power_op_weight[pi->power.op].unit] +=
            power_op_accesses((enum power_op)pi->power.op, a);
}

static inline uint64_t width_mask(unsigned bytes)
{
    return bytes >= 8 ? ~0ull : ((1ull << (bytes * 8)) - 1);
}

static inline uint64_t sext(uint64_t v, unsigned bytes)
{
    if (bytes >= 8)
        return v;
    unsigned sh = 64 - bytes * 8;
    return (uint64_t)((int64_t)(v << sh) >> sh);
}

/* Iterate l over the set bits of mask, lowest first. */
#define FOR_LANES(l, mask)                                                               \
    for (uint32_t l##_m = (mask), l = 0;                                                 \
         l##_m && ((l = (uint32_t)__builtin_ctz(l##_m)), 1); l##_m &= l##_m - 1)

static inline uint64_t *reg_ptr(struct func_warp *w, uint32_t r)
{
    return w->cur_regs + (size_t)w->cur_slot[r] * FUNC_WARP_SIZE;
}

/* Function fi's register -> storage slot map (an->func_slots[fi] slots). */
static inline const uint32_t *func_slot_map(const struct analysis *an, uint32_t fi)
{
    return an->reg_slot + an->func_reg_first[fi];
}

static inline struct call_frame *cur_frame(struct func_warp *w)
{
    return &w->frames[w->nframes - 1];
}

static inline uint32_t first_lane(uint32_t mask)
{
    return mask ? (uint32_t)__builtin_ctz(mask) : 0;
}

static inline uint64_t align16(uint64_t x)
{
    return (x + 15) & ~15ull;
}

/* New memory value of an atomic (exec_mem.c); returns 0 if the type/op is unsupported. */
int exec_atom_apply(unsigned sub, enum ptx_type ty, uint64_t old, uint64_t b, uint64_t c,
                    uint64_t *out);

/* ---- exec.c: messages, warp storage, operands ---- */

/* "kernel 'k' PC 12 (mod:34: ld.global.f32) thread (1,0,0) block (0,0,0)" */
int exec_where(const struct step *s, uint32_t lane, char *buf, size_t len);
/* err_set(code) with the position of lane prefixed; returns code. */
int exec_fail(const struct step *s, uint32_t lane, int code, const char *what);
/* WS_ERR_UNSUPPORTED "unsupported <what>" at the first active lane. */
int exec_unsupported(const struct step *s, const char *what);
void exec_ensure_regs(struct func_warp *w, size_t need);
/* Grow a lane-major per-thread buffer (lane l at buf + l * cap). */
void exec_ensure_lanes(uint8_t **buf, uint64_t *cap, uint64_t need);
/* Value mask of register r of the current function (~0 if untyped). */
uint64_t exec_reg_width_mask(const struct step *s, uint32_t r);
/* Address of variable v in its own state space. */
uint64_t exec_var_addr(const struct step *s, const struct ptx_var *v);
void exec_opnd_read(const struct step *s, const struct ptx_operand *o, uint64_t out[32]);
/* Write lanes of `mask` of register r, truncated to the register's width. */
void exec_reg_write(const struct step *s, uint32_t r, uint32_t mask, const uint64_t v[32]);
void exec_dst_write(const struct step *s, const struct ptx_operand *o, uint32_t mask,
                    const uint64_t v[32]);
/* Element i of a vector operand for every lane; returns 0 for a "_" element. */
int exec_vec_elem(const struct step *s, const struct ptx_operand *o, unsigned i,
                  uint64_t out[32]);

/* Lanes of `active` whose guard predicate of `in` holds. */
static inline uint32_t exec_guard(const struct func_warp *w, const struct ptx_inst *in,
                                  uint32_t active)
{
    if (in->guard == PTX_NO_INDEX)
        return active;
    const uint64_t *g = w->cur_regs + (size_t)w->cur_slot[in->guard] * FUNC_WARP_SIZE;
    uint32_t gm = 0;
    FOR_LANES(l, active) if ((g[l] != 0) != (in->guard_neg != 0)) gm |= 1u << l;
    return gm;
}
/* Execute s->in (anything but `call`) for lanes `mask`; see struct exec_out. */
int exec_inst(const struct step *s, uint32_t mask, struct func_trace *t, struct exec_out *x);
/* Mark w DONE, pop its call frames and release barriers waiting for it. */
void exec_warp_finish(struct func_cta *c, struct func_warp *w);

/* ---- exec_mem.c: memory and data movement ---- */

/* Host pointer for n bytes at addr in `space` for lane; NULL + fault on error. */
uint8_t *exec_resolve(const struct step *s, uint32_t lane, unsigned space, uint64_t addr,
                      unsigned n, int kind, int kparam);
int exec_ld(const struct step *s, uint32_t mask, struct func_trace *t);
int exec_st(const struct step *s, uint32_t mask, struct func_trace *t);
int exec_atom(const struct step *s, uint32_t mask, struct func_trace *t);
int exec_mov(const struct step *s, uint32_t mask);
int exec_cvta(const struct step *s, uint32_t mask);

/* ---- exec_tex.c: texture and surface objects ---- */

int exec_tex(const struct step *s, uint32_t mask, struct func_trace *t); /* tex, tld4 */
int exec_txq(const struct step *s, uint32_t mask);
int exec_surf(const struct step *s, uint32_t mask, struct func_trace *t); /* suld, sust */

/* ---- exec_warp.c: warp-level instructions and barriers ---- */

int exec_shfl(const struct step *s, uint32_t mask);
int exec_vote(const struct step *s, uint32_t mask);
int exec_match(const struct step *s, uint32_t mask);
int exec_redux(const struct step *s, uint32_t mask);
int exec_bar(const struct step *s, uint32_t mask, struct func_trace *t);
/* Release every barrier whose arrival condition holds (a warp finished). */
void exec_cta_release_all(struct func_cta *c);

/* ---- exec_call.c: calls ---- */

int exec_extern_call(const struct step *s, uint32_t mask, const struct ptx_func *callee);
/* Push a call frame for function fidx and copy the arguments; the caller
 * pushes the SIMT_CALL entry. */
int exec_call_push(const struct step *s, uint32_t mask, uint32_t fidx);
/* Pop the current call frame; if copy, copy the return values for lanes `mask`. */
void exec_call_pop(struct func_warp *w, const struct ptx_module *m, uint32_t mask, int copy);

#endif
