/* exec.c: warp state, SIMT stack and the semantics of control-flow, memory,
 * barrier and warp-level instructions; data-processing instructions go to
 * the ALU (func/alu.h).  One call of func_warp_step() = one warp instruction. */
#include "func/func.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/log.h"
#include "func/alu.h"
#include "func/vprintf.h"

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
    struct err *e;
};

static inline unsigned popc(uint32_t x)
{
    return (unsigned)__builtin_popcount(x);
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
    return w->cur_regs + (size_t)r * FUNC_WARP_SIZE;
}

static inline struct call_frame *cur_frame(struct func_warp *w)
{
    return &w->frames[w->nframes - 1];
}

static uint64_t reg_width_mask(const struct step *s, uint32_t r)
{
    const struct ptx_func *f = &s->m->funcs[s->in->func];
    if (r >= f->nregs)
        return ~0ull;
    unsigned sz = ptx_type_size((enum ptx_type)f->regs[r].type);
    return sz ? width_mask(sz) : ~0ull;
}

/* ---- messages ------------------------------------------------------------- */

static void inst_text(const struct ptx_module *m, const struct ptx_inst *in, char *buf,
                      size_t len)
{
    int n = snprintf(buf, len, "%s", ptx_op_name((enum ptx_op)in->op));
    if (in->space != PTX_SPACE_NONE && n >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ".%s", ptx_space_name((enum ptx_space)in->space));
    if (in->vec > 1 && n >= 0 && (size_t)n < len)
        n += snprintf(buf + n, len - (size_t)n, ".v%u", in->vec);
    if (in->type != PTX_T_NONE && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, ".%s", ptx_type_name((enum ptx_type)in->type));
    (void)m;
}

/* "kernel 'k' PC 12 (mod:34: ld.global.f32) thread (1,0,0) block (0,0,0)" */
static int where(const struct step *s, uint32_t lane, char *buf, size_t len)
{
    char txt[64];
    inst_text(s->m, s->in, txt, sizeof txt);
    return snprintf(buf, len, "kernel '%s' PC %u (%s:%u: %s) thread (%u,%u,%u) block (%u,%u,%u)",
                    s->m->funcs[s->k->func].name, s->pc, s->m->name ? s->m->name : "<module>",
                    s->in->line, txt, s->w->tid[0][lane], s->w->tid[1][lane],
                    s->w->tid[2][lane], s->c->ctaid[0], s->c->ctaid[1], s->c->ctaid[2]);
}

static int fail(const struct step *s, uint32_t lane, int code, const char *what)
{
    char pos[512];
    where(s, lane, pos, sizeof pos);
    return err_set(s->e, code, "%s: %s", pos, what);
}

static uint32_t first_lane(uint32_t mask)
{
    return mask ? (uint32_t)__builtin_ctz(mask) : 0;
}

static int unsupported(const struct step *s, const char *what)
{
    char pos[512];
    where(s, first_lane(s->w->stack[s->w->depth - 1].mask), pos, sizeof pos);
    return err_set(s->e, WS_ERR_UNSUPPORTED, "%s: unsupported %s", pos, what);
}

/* ---- warp storage --------------------------------------------------------- */

static void ensure_regs(struct func_warp *w, size_t need)
{
    if (need > w->regs_cap) {
        size_t cap = w->regs_cap ? w->regs_cap : 1024;
        while (cap < need)
            cap *= 2;
        w->regs = xrealloc(w->regs, cap * sizeof *w->regs);
        w->regs_cap = cap;
    }
    w->cur_regs = w->regs + cur_frame(w)->reg_base;
}

/* Grow a lane-major per-thread buffer (lane l at buf + l * cap). */
static void ensure_lanes(uint8_t **buf, uint64_t *cap, uint64_t need)
{
    if (need <= *cap)
        return;
    uint64_t nc = *cap ? *cap : 256;
    while (nc < need)
        nc *= 2;
    uint8_t *nb = xcalloc(FUNC_WARP_SIZE, nc);
    if (*buf)
        for (uint32_t l = 0; l < FUNC_WARP_SIZE; l++)
            memcpy(nb + l * nc, *buf + l * *cap, *cap);
    free(*buf);
    *buf = nb;
    *cap = nc;
}

static inline uint64_t align16(uint64_t x)
{
    return (x + 15) & ~15ull;
}

/* ---- kernel and CTA ------------------------------------------------------- */

void func_kernel_init(struct func_kernel *k, struct func_env *env, const struct ptx_module *m,
                      const struct analysis *an, uint32_t func, const uint32_t grid[3],
                      const uint32_t block[3], uint32_t dyn_shared, const uint8_t *params,
                      uint64_t param_size)
{
    memset(k, 0, sizeof *k);
    k->m = m;
    k->an = an;
    k->func = func;
    memcpy(k->grid, grid, sizeof k->grid);
    memcpy(k->block, block, sizeof k->block);
    k->dyn_shared = dyn_shared;
    k->threads_per_cta = block[0] * block[1] * block[2];
    k->warps_per_cta = (k->threads_per_cta + FUNC_WARP_SIZE - 1) / FUNC_WARP_SIZE;
    k->params = xcalloc(1, param_size ? param_size : 1);
    if (param_size)
        memcpy(k->params, params, param_size);
    k->param_size = param_size;
    k->env = env;
}

void func_kernel_fini(struct func_kernel *k)
{
    free(k->params);
    k->params = NULL;
}

void func_cta_init(struct func_cta *c, struct func_kernel *k, uint32_t linear)
{
    const struct ptx_func *f = &k->m->funcs[k->func];
    c->k = k;
    c->linear = linear;
    c->ctaid[0] = linear % k->grid[0];
    c->ctaid[1] = (linear / k->grid[0]) % k->grid[1];
    c->ctaid[2] = linear / (k->grid[0] * k->grid[1]);
    if (k->warps_per_cta > c->warps_cap) {
        c->warps = xrealloc(c->warps, k->warps_per_cta * sizeof *c->warps);
        memset(c->warps + c->warps_cap, 0,
               (k->warps_per_cta - c->warps_cap) * sizeof *c->warps);
        c->warps_cap = k->warps_per_cta;
    }
    c->nwarps = k->warps_per_cta;
    c->live_warps = c->nwarps;
    c->shared_size = k->m->shared_static_size + k->dyn_shared;
    if (c->shared_size > c->shared_cap) {
        free(c->shared);
        c->shared = xcalloc(1, c->shared_size);
        c->shared_cap = c->shared_size;
    } else if (c->shared_size) {
        memset(c->shared, 0, c->shared_size);
    }
    memset(c->bars, 0, sizeof c->bars);
    for (uint32_t b = 0; b < FUNC_NUM_BARRIERS; b++)
        c->bars[b].red_and = 1;

    uint32_t bx = k->block[0], by = k->block[1];
    for (uint32_t wi = 0; wi < c->nwarps; wi++) {
        struct func_warp *w = &c->warps[wi];
        uint32_t first = wi * FUNC_WARP_SIZE;
        uint32_t n = k->threads_per_cta - first;
        if (n > FUNC_WARP_SIZE)
            n = FUNC_WARP_SIZE;
        w->id = wi;
        w->init_mask = n == FUNC_WARP_SIZE ? FULL_MASK : ((1u << n) - 1);
        w->exited = 0;
        w->state = FUNC_WARP_READY;
        w->carry = 0;
        w->ninsn = 0;
        w->bar_red_dst = PTX_NO_INDEX;
        if (w->stack_cap < 8) {
            w->stack = xrealloc(w->stack, 8 * sizeof *w->stack);
            w->stack_cap = 8;
        }
        w->depth = 1;
        w->stack[0] = (struct simt_entry){f->first_pc, PC_EXIT, w->init_mask, SIMT_NORMAL};
        if (f->ninsts == 0)
            w->stack[0].pc = PC_EXIT;
        if (w->frames_cap < 4) {
            w->frames = xrealloc(w->frames, 4 * sizeof *w->frames);
            w->frames_cap = 4;
        }
        w->nframes = 1;
        w->frames[0] = (struct call_frame){k->func, 0, 0, 0, 0};
        size_t nr = (size_t)f->nregs * FUNC_WARP_SIZE;
        ensure_regs(w, nr);
        if (nr)
            memset(w->regs, 0, nr * sizeof *w->regs);
        w->local_top = align16(f->local_bytes);
        ensure_lanes(&w->local, &w->local_cap, w->local_top);
        if (w->local_cap)
            memset(w->local, 0, FUNC_WARP_SIZE * w->local_cap);
        w->param_top = align16(f->frame_param_bytes);
        ensure_lanes(&w->param, &w->param_cap, w->param_top);
        if (w->param_cap)
            memset(w->param, 0, FUNC_WARP_SIZE * w->param_cap);
        for (uint32_t l = 0; l < FUNC_WARP_SIZE; l++) {
            uint32_t t = first + l;
            w->tid[0][l] = t % bx;
            w->tid[1][l] = (t / bx) % by;
            w->tid[2][l] = t / (bx * by);
        }
    }
}

void func_cta_fini(struct func_cta *c)
{
    for (uint32_t i = 0; i < c->warps_cap; i++) {
        struct func_warp *w = &c->warps[i];
        free(w->stack);
        free(w->frames);
        free(w->regs);
        free(w->local);
        free(w->param);
    }
    free(c->warps);
    free(c->shared);
    memset(c, 0, sizeof *c);
}

/* ---- operands ------------------------------------------------------------- */

static uint64_t var_addr(const struct step *s, const struct ptx_var *v)
{
    switch (v->space) {
    case PTX_SPACE_GLOBAL:
    case PTX_SPACE_CONST:
        return v->addr;
    case PTX_SPACE_SHARED:
        return v->offset;
    case PTX_SPACE_LOCAL:
        return cur_frame(s->w)->local_base + v->offset;
    case PTX_SPACE_PARAM:
        if (v->flags & PTX_VAR_KERNEL_PARAM)
            return v->offset;
        return cur_frame(s->w)->param_base + v->offset;
    default:
        return v->addr;
    }
}

static void sreg_read(const struct step *s, const struct ptx_operand *o, uint64_t out[32])
{
    const struct func_warp *w = s->w;
    const struct func_kernel *k = s->k;
    unsigned comp = o->comp < 3 ? o->comp : 0;
    uint64_t v = 0;
    switch ((enum ptx_sreg)o->reg) {
    case PTX_SREG_TID:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = w->tid[comp][l];
        return;
    case PTX_SREG_LANEID:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = l;
        return;
    case PTX_SREG_LANEMASK_EQ:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = 1ull << l;
        return;
    case PTX_SREG_LANEMASK_LE:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = (2ull << l) - 1;
        return;
    case PTX_SREG_LANEMASK_LT:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = (1ull << l) - 1;
        return;
    case PTX_SREG_LANEMASK_GE:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = ~((1ull << l) - 1) & FULL_MASK;
        return;
    case PTX_SREG_LANEMASK_GT:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = ~((2ull << l) - 1) & FULL_MASK;
        return;
    case PTX_SREG_NTID: v = k->block[comp]; break;
    case PTX_SREG_CTAID: v = s->c->ctaid[comp]; break;
    case PTX_SREG_NCTAID: v = k->grid[comp]; break;
    case PTX_SREG_WARPID: v = w->id; break;
    case PTX_SREG_NWARPID: v = 64; break;
    case PTX_SREG_SMID: v = 0; break;
    case PTX_SREG_NSMID: v = 1; break;
    case PTX_SREG_GRIDID: v = k->env->stats ? k->env->stats->kernels_launched : 0; break;
    case PTX_SREG_CLOCK: v = (uint32_t)w->ninsn; break;
    case PTX_SREG_CLOCK64: v = w->ninsn; break;
    case PTX_SREG_GLOBALTIMER: v = k->warp_insn * 1000; break;
    case PTX_SREG_DYNAMIC_SMEM_SIZE: v = k->dyn_shared; break;
    case PTX_SREG_TOTAL_SMEM_SIZE: v = s->c->shared_size; break;
    default: v = 0; break;
    }
    for (uint32_t l = 0; l < 32; l++)
        out[l] = v;
}

static void opnd_read(const struct step *s, const struct ptx_operand *o, uint64_t out[32])
{
    switch (o->kind) {
    case PTX_OPND_REG:
        memcpy(out, reg_ptr(s->w, o->reg), 32 * sizeof *out);
        if (o->neg)
            for (uint32_t l = 0; l < 32; l++)
                out[l] = !out[l];
        return;
    case PTX_OPND_IMM:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = (uint64_t)o->imm;
        return;
    case PTX_OPND_SREG:
        sreg_read(s, o, out);
        return;
    case PTX_OPND_VAR: {
        uint64_t a = var_addr(s, &s->m->vars[o->sym]);
        for (uint32_t l = 0; l < 32; l++)
            out[l] = a;
        return;
    }
    case PTX_OPND_LABEL:
        for (uint32_t l = 0; l < 32; l++)
            out[l] = (uint64_t)o->imm;
        return;
    default:
        memset(out, 0, 32 * sizeof *out);
        return;
    }
}

/* Write lanes of `mask` of register r, truncated to the register's width. */
static void reg_write(const struct step *s, uint32_t r, uint32_t mask, const uint64_t v[32])
{
    if (r == PTX_NO_INDEX)
        return;
    uint64_t *d = reg_ptr(s->w, r);
    uint64_t wm = reg_width_mask(s, r);
    if (mask == FULL_MASK && wm == ~0ull) {
        memcpy(d, v, 32 * sizeof *d);
        return;
    }
    FOR_LANES(l, mask) d[l] = v[l] & wm;
}

static void dst_write(const struct step *s, const struct ptx_operand *o, uint32_t mask,
                      const uint64_t v[32])
{
    if (o->kind == PTX_OPND_REG)
        reg_write(s, o->reg, mask, v);
}

/* Element i of a vector operand {a, b, ...} for every lane: a register's
 * value or an immediate element (vec_imm).  Returns 0 for a "_" element. */
static int vec_elem(const struct step *s, const struct ptx_operand *o, unsigned i,
                    uint64_t out[32])
{
    if (o->vec_imm & (1u << i)) {
        for (unsigned l = 0; l < 32; l++)
            out[l] = o->vec[i];
        return 1;
    }
    if (o->vec[i] == PTX_NO_INDEX)
        return 0;
    memcpy(out, reg_ptr(s->w, o->vec[i]), 32 * sizeof out[0]);
    return 1;
}

/* ---- memory --------------------------------------------------------------- */

/* Per-lane addresses of an ADDR operand (in the operand's space). */
static void addr_compute(const struct step *s, const struct ptx_operand *o, uint32_t mask,
                         uint64_t addr[32], int *kparam)
{
    *kparam = 0;
    if (o->reg != PTX_NO_INDEX) {
        const uint64_t *r = reg_ptr(s->w, o->reg);
        FOR_LANES(l, mask) addr[l] = r[l] + (uint64_t)o->imm;
        *kparam = s->m->funcs[s->in->func].is_entry;
        return;
    }
    uint64_t base = 0;
    if (o->sym != PTX_NO_INDEX) {
        const struct ptx_var *v = &s->m->vars[o->sym];
        base = var_addr(s, v);
        *kparam = (v->flags & PTX_VAR_KERNEL_PARAM) != 0;
    }
    FOR_LANES(l, mask) addr[l] = base + (uint64_t)o->imm;
}

static const char *acc_name(int kind)
{
    return kind == ACC_READ ? "read" : kind == ACC_WRITE ? "write" : "atomic";
}

static int mem_fault(const struct step *s, uint32_t lane, int kind, uint64_t addr, unsigned n,
                     const char *why)
{
    char pos[512];
    where(s, lane, pos, sizeof pos);
    return err_set(s->e, WS_ERR_FAULT, "%s: %s of %u bytes at 0x%" PRIx64 " %s", pos,
                   acc_name(kind), n, addr, why);
}

/* Host pointer for n bytes at addr in `space` for lane; NULL + fault on error. */
static uint8_t *resolve(const struct step *s, uint32_t lane, unsigned space, uint64_t addr,
                        unsigned n, int kind, int kparam)
{
    struct func_warp *w = s->w;
    uint64_t a = addr;
    char why[256];
    if (n && (addr & (n - 1)) != 0 && (n & (n - 1)) == 0) {
        snprintf(why, sizeof why, "misaligned (needs %u-byte alignment)", n);
        mem_fault(s, lane, kind, addr, n, why);
        return NULL;
    }
    if (space == PTX_SPACE_NONE) {
        if (addr - MEM_SHARED_BASE < MEM_WINDOW_SIZE) {
            space = PTX_SPACE_SHARED;
            a = addr - MEM_SHARED_BASE;
        } else if (addr - MEM_LOCAL_BASE < MEM_WINDOW_SIZE) {
            space = PTX_SPACE_LOCAL;
            a = addr - MEM_LOCAL_BASE;
        } else if (addr - MEM_PARAM_BASE < MEM_WINDOW_SIZE) {
            space = PTX_SPACE_PARAM;
            a = addr - MEM_PARAM_BASE;
            kparam = 1;
        } else {
            space = PTX_SPACE_GLOBAL;
        }
    }
    switch (space) {
    case PTX_SPACE_GLOBAL:
    case PTX_SPACE_CONST: {
        uint8_t *p = mem_lookup(s->k->env->mem, a, n);
        if (p)
            return p;
        mem_describe(s->k->env->mem, a, n, why, sizeof why);
        break;
    }
    case PTX_SPACE_SHARED:
        if (a <= s->c->shared_size && n <= s->c->shared_size - a)
            return s->c->shared + a;
        snprintf(why, sizeof why, "outside the CTA's %" PRIu64 " bytes of shared memory",
                 s->c->shared_size);
        break;
    case PTX_SPACE_LOCAL:
        if (a <= w->local_top && n <= w->local_top - a)
            return w->local + (uint64_t)lane * w->local_cap + a;
        snprintf(why, sizeof why, "outside the thread's %" PRIu64 " bytes of local memory",
                 w->local_top);
        break;
    case PTX_SPACE_PARAM:
        if (kparam) {
            if (a <= s->k->param_size && n <= s->k->param_size - a) {
                if (kind != ACC_READ) {
                    snprintf(why, sizeof why, "to the read-only kernel parameters");
                    break;
                }
                return s->k->params + a;
            }
            snprintf(why, sizeof why, "outside the %" PRIu64 " bytes of kernel parameters",
                     s->k->param_size);
            break;
        }
        if (a <= w->param_top && n <= w->param_top - a)
            return w->param + (uint64_t)lane * w->param_cap + a;
        snprintf(why, sizeof why, "outside the thread's %" PRIu64 " bytes of parameter frames",
                 w->param_top);
        break;
    default:
        snprintf(why, sizeof why, "in unsupported state space '%s'",
                 ptx_space_name((enum ptx_space)space));
        break;
    }
    mem_fault(s, lane, kind, addr, n, why);
    return NULL;
}

static inline uint64_t load_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    memcpy(&v, p, n);
    return v;
}

static inline void store_le(uint8_t *p, uint64_t v, unsigned n)
{
    memcpy(p, &v, n);
}

static void trace_mem(struct func_trace *t, const struct step *s, unsigned size, int store,
                      int atomic, const uint64_t addr[32])
{
    t->is_mem = 1;
    t->space = s->in->space;
    t->size = (uint8_t)(size > 255 ? 255 : size);
    t->is_store = (uint8_t)store;
    t->is_atomic = (uint8_t)atomic;
    memcpy(t->addr, addr, sizeof t->addr);
}

static int exec_ld(const struct step *s, uint32_t mask, struct func_trace *t)
{
    const struct ptx_inst *in = s->in;
    const struct ptx_operand *d = ptx_dst(s->m, in, 0);
    const struct ptx_operand *a = ptx_src(s->m, in, 0);
    unsigned esz = ptx_type_size((enum ptx_type)in->type);
    unsigned nel = d->kind == PTX_OPND_VEC ? d->vec_n : 1;
    int sign = ptx_type_is_signed((enum ptx_type)in->type);
    uint64_t addr[32] = {0};
    int kparam;
    if (esz == 0 || esz > 8)
        return unsupported(s, "load type");
    addr_compute(s, a, mask, addr, &kparam);
    trace_mem(t, s, esz * nel, 0, 0, addr);
    for (unsigned i = 0; i < nel; i++) {
        uint32_t r = d->kind == PTX_OPND_VEC ? d->vec[i] : d->reg;
        if (d->kind != PTX_OPND_VEC && d->kind != PTX_OPND_REG)
            r = PTX_NO_INDEX;
        uint64_t wm = r == PTX_NO_INDEX ? 0 : reg_width_mask(s, r);
        uint64_t *dst = r == PTX_NO_INDEX ? NULL : reg_ptr(s->w, r);
        FOR_LANES(l, mask) {
            /* element 0 checks the bounds and alignment of the whole vector */
            uint8_t *p = resolve(s, l, in->space, addr[l] + (uint64_t)i * esz,
                                 i == 0 ? esz * nel : esz, ACC_READ, kparam);
            if (!p)
                return s->e->code;
            uint64_t v = load_le(p, esz);
            if (sign)
                v = sext(v, esz);
            if (dst)
                dst[l] = v & wm;
        }
    }
    return WS_OK;
}

static int exec_st(const struct step *s, uint32_t mask, struct func_trace *t)
{
    const struct ptx_inst *in = s->in;
    const struct ptx_operand *a = ptx_src(s->m, in, 0);
    const struct ptx_operand *v = ptx_src(s->m, in, 1);
    unsigned esz = ptx_type_size((enum ptx_type)in->type);
    unsigned nel = v->kind == PTX_OPND_VEC ? v->vec_n : 1;
    uint64_t addr[32] = {0};
    uint64_t val[32];
    int kparam;
    if (esz == 0 || esz > 8)
        return unsupported(s, "store type");
    addr_compute(s, a, mask, addr, &kparam);
    trace_mem(t, s, esz * nel, 1, 0, addr);
    /* check every lane's access before writing anything */
    FOR_LANES(l, mask) {
        if (!resolve(s, l, in->space, addr[l], esz * nel, ACC_WRITE, kparam))
            return s->e->code;
    }
    for (unsigned i = 0; i < nel; i++) {
        if (v->kind == PTX_OPND_VEC) {
            if (!vec_elem(s, v, i, val))
                continue;
        } else {
            opnd_read(s, v, val);
        }
        FOR_LANES(l, mask) {
            uint8_t *p = resolve(s, l, in->space, addr[l] + (uint64_t)i * esz, esz, ACC_WRITE,
                                 kparam);
            if (!p)
                return s->e->code;
            store_le(p, val[l], esz);
        }
    }
    return WS_OK;
}

static double as_f64(uint64_t v)
{
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

static float as_f32(uint64_t v)
{
    float f;
    uint32_t u = (uint32_t)v;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint64_t from_f64(double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    return v;
}

static uint64_t from_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* New memory value of an atomic; returns 0 if the type/op is unsupported. */
static int atom_apply(unsigned sub, enum ptx_type ty, uint64_t old, uint64_t b, uint64_t c,
                      uint64_t *out)
{
    unsigned sz = ptx_type_size(ty);
    uint64_t wm = width_mask(sz);
    int is_f = ty == PTX_T_F32 || ty == PTX_T_F64;
    int is_s = ptx_type_is_signed(ty);
    old &= wm;
    b &= wm;
    c &= wm;
    uint64_t r;
    switch (sub) {
    case PTX_SUB_ATOM_ADD:
        if (ty == PTX_T_F32)
            r = from_f32(as_f32(old) + as_f32(b));
        else if (ty == PTX_T_F64)
            r = from_f64(as_f64(old) + as_f64(b));
        else if (ptx_type_is_float(ty))
            return 0;
        else
            r = old + b;
        break;
    case PTX_SUB_ATOM_MIN:
    case PTX_SUB_ATOM_MAX: {
        int lt;
        if (ty == PTX_T_F32)
            lt = as_f32(b) < as_f32(old);
        else if (ty == PTX_T_F64)
            lt = as_f64(b) < as_f64(old);
        else if (is_s)
            lt = (int64_t)sext(b, sz) < (int64_t)sext(old, sz);
        else
            lt = b < old;
        if (sub == PTX_SUB_ATOM_MIN)
            r = lt ? b : old;
        else {
            int gt;
            if (ty == PTX_T_F32)
                gt = as_f32(b) > as_f32(old);
            else if (ty == PTX_T_F64)
                gt = as_f64(b) > as_f64(old);
            else if (is_s)
                gt = (int64_t)sext(b, sz) > (int64_t)sext(old, sz);
            else
                gt = b > old;
            r = gt ? b : old;
        }
        break;
    }
    case PTX_SUB_ATOM_INC:
        if (is_f)
            return 0;
        r = old >= b ? 0 : old + 1;
        break;
    case PTX_SUB_ATOM_DEC:
        if (is_f)
            return 0;
        r = (old == 0 || old > b) ? b : old - 1;
        break;
    case PTX_SUB_ATOM_CAS: r = old == b ? c : old; break;
    case PTX_SUB_ATOM_EXCH: r = b; break;
    case PTX_SUB_ATOM_AND: r = old & b; break;
    case PTX_SUB_ATOM_OR: r = old | b; break;
    case PTX_SUB_ATOM_XOR: r = old ^ b; break;
    default: return 0;
    }
    *out = r & wm;
    return 1;
}

static int exec_atom(const struct step *s, uint32_t mask, struct func_trace *t)
{
    const struct ptx_inst *in = s->in;
    int is_red = in->op == PTX_OP_RED;
    const struct ptx_operand *a = ptx_src(s->m, in, 0);
    enum ptx_type ty = (enum ptx_type)in->type;
    unsigned sz = ptx_type_size(ty);
    uint64_t addr[32] = {0}, b[32], c[32], old[32] = {0};
    int kparam;
    if (sz != 4 && sz != 8)
        return unsupported(s, "atomic type");
    if (in->space != PTX_SPACE_NONE && in->space != PTX_SPACE_GLOBAL &&
        in->space != PTX_SPACE_SHARED)
        return unsupported(s, "atomic state space");
    addr_compute(s, a, mask, addr, &kparam);
    trace_mem(t, s, sz, 1, 1, addr);
    opnd_read(s, ptx_src(s->m, in, 1), b);
    if (in->nsrc > 2)
        opnd_read(s, ptx_src(s->m, in, 2), c);
    else
        memset(c, 0, sizeof c);
    FOR_LANES(l, mask) {
        uint8_t *p = resolve(s, l, in->space, addr[l], sz, ACC_ATOMIC, kparam);
        if (!p)
            return s->e->code;
        uint64_t o = load_le(p, sz), nv;
        if (!atom_apply(in->sub, ty, o, b[l], c[l], &nv))
            return unsupported(s, "atomic operation/type combination");
        store_le(p, nv, sz);
        old[l] = o;
    }
    if (!is_red && in->ndst > 0)
        dst_write(s, ptx_dst(s->m, in, 0), mask, old);
    return WS_OK;
}

/* ---- data movement -------------------------------------------------------- */

static int exec_mov(const struct step *s, uint32_t mask)
{
    const struct ptx_inst *in = s->in;
    const struct ptx_operand *d = ptx_dst(s->m, in, 0);
    const struct ptx_operand *a = ptx_src(s->m, in, 0);
    uint64_t v[32];
    unsigned tsz = ptx_type_size((enum ptx_type)in->type);
    if (a->kind == PTX_OPND_FUNC)
        return unsupported(s, "address of a function (indirect calls)");
    if (d->kind == PTX_OPND_VEC) { /* unpack */
        unsigned ebits = tsz * 8 / (d->vec_n ? d->vec_n : 1);
        uint64_t em = width_mask(ebits / 8);
        opnd_read(s, a, v);
        for (unsigned i = 0; i < d->vec_n; i++) {
            uint64_t e[32];
            if (d->vec[i] == PTX_NO_INDEX)
                continue;
            FOR_LANES(l, mask) e[l] = (v[l] >> (i * ebits)) & em;
            reg_write(s, d->vec[i], mask, e);
        }
        return WS_OK;
    }
    if (a->kind == PTX_OPND_VEC) { /* pack */
        unsigned ebits = tsz * 8 / (a->vec_n ? a->vec_n : 1);
        uint64_t em = width_mask(ebits / 8);
        memset(v, 0, sizeof v);
        for (unsigned i = 0; i < a->vec_n; i++) {
            uint64_t r[32];
            if (!vec_elem(s, a, i, r))
                continue;
            FOR_LANES(l, mask) v[l] |= (r[l] & em) << (i * ebits);
        }
        dst_write(s, d, mask, v);
        return WS_OK;
    }
    opnd_read(s, a, v);
    if (in->type == PTX_T_PRED)
        FOR_LANES(l, mask) v[l] = v[l] != 0;
    else if (tsz && tsz < 8)
        FOR_LANES(l, mask) v[l] &= width_mask(tsz);
    dst_write(s, d, mask, v);
    return WS_OK;
}

static uint64_t space_base(unsigned space)
{
    switch (space) {
    case PTX_SPACE_SHARED: return MEM_SHARED_BASE;
    case PTX_SPACE_LOCAL: return MEM_LOCAL_BASE;
    case PTX_SPACE_PARAM: return MEM_PARAM_BASE;
    default: return 0;
    }
}

static int exec_cvta(const struct step *s, uint32_t mask)
{
    const struct ptx_inst *in = s->in;
    uint64_t v[32];
    opnd_read(s, ptx_src(s->m, in, 0), v);
    uint64_t base = space_base(in->space);
    if (in->sub == PTX_SUB_CVTA_TO)
        FOR_LANES(l, mask) v[l] -= base;
    else
        FOR_LANES(l, mask) v[l] += base;
    dst_write(s, ptx_dst(s->m, in, 0), mask, v);
    return WS_OK;
}

/* ---- warp-level ----------------------------------------------------------- */

static int exec_shfl(const struct step *s, uint32_t mask)
{
    const struct ptx_inst *in = s->in;
    uint64_t a[32], b[32], c[32], d[32], p[32];
    opnd_read(s, ptx_src(s->m, in, 0), a);
    opnd_read(s, ptx_src(s->m, in, 1), b);
    opnd_read(s, ptx_src(s->m, in, 2), c);
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
        default: return unsupported(s, "shfl mode");
        }
        if (!ok || j < 0 || j > 31)
            j = (int32_t)l;
        d[l] = a[j];
        p[l] = (uint64_t)ok;
    }
    dst_write(s, ptx_dst(s->m, in, 0), mask, d);
    if (in->ndst > 1)
        dst_write(s, ptx_dst(s->m, in, 1), mask, p);
    return WS_OK;
}

static int exec_vote(const struct step *s, uint32_t mask)
{
    const struct ptx_inst *in = s->in;
    uint64_t a[32], d[32];
    opnd_read(s, ptx_src(s->m, in, 0), a);
    uint32_t set = 0;
    FOR_LANES(l, mask) if (a[l]) set |= 1u << l;
    uint64_t r;
    switch (in->sub) {
    case PTX_SUB_VOTE_ALL: r = set == mask; break;
    case PTX_SUB_VOTE_ANY: r = set != 0; break;
    case PTX_SUB_VOTE_UNI: r = set == 0 || set == mask; break;
    case PTX_SUB_VOTE_BALLOT: r = set; break;
    default: return unsupported(s, "vote mode");
    }
    for (uint32_t l = 0; l < 32; l++)
        d[l] = r;
    dst_write(s, ptx_dst(s->m, in, 0), mask, d);
    return WS_OK;
}

static int exec_match(const struct step *s, uint32_t mask)
{
    const struct ptx_inst *in = s->in;
    uint64_t a[32], d[32], p[32];
    opnd_read(s, ptx_src(s->m, in, 0), a);
    uint64_t wm = width_mask(ptx_type_size((enum ptx_type)in->type));
    int all_same = 1;
    FOR_LANES(l, mask) {
        uint32_t same = 0;
        FOR_LANES(j, mask) if ((a[j] & wm) == (a[l] & wm)) same |= 1u << j;
        d[l] = same;
        if (same != mask)
            all_same = 0;
    }
    if (in->sub == PTX_SUB_MATCH_ALL)
        FOR_LANES(l, mask) {
            d[l] = all_same ? mask : 0;
            p[l] = (uint64_t)all_same;
        }
    else
        FOR_LANES(l, mask) p[l] = 1;
    dst_write(s, ptx_dst(s->m, in, 0), mask, d);
    if (in->ndst > 1)
        dst_write(s, ptx_dst(s->m, in, 1), mask, p);
    return WS_OK;
}

static int exec_redux(const struct step *s, uint32_t mask)
{
    const struct ptx_inst *in = s->in;
    uint64_t a[32], d[32];
    opnd_read(s, ptx_src(s->m, in, 0), a);
    int sign = ptx_type_is_signed((enum ptx_type)in->type);
    uint64_t r = 0;
    int first = 1;
    FOR_LANES(l, mask) {
        uint32_t v = (uint32_t)a[l];
        uint32_t acc = (uint32_t)r;
        if (first) {
            acc = v;
            first = 0;
        } else {
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
            default: return unsupported(s, "redux operation");
            }
        }
        r = acc;
    }
    for (uint32_t l = 0; l < 32; l++)
        d[l] = r;
    dst_write(s, ptx_dst(s->m, in, 0), mask, d);
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
            uint64_t *d = w->cur_regs + (size_t)w->bar_red_dst * FUNC_WARP_SIZE;
            FOR_LANES(l, w->bar_red_mask) d[l] = v;
            w->bar_red_dst = PTX_NO_INDEX;
        }
    }
    memset(b, 0, sizeof *b);
    b->red_and = 1;
}

static void cta_release_all(struct func_cta *c)
{
    for (uint32_t id = 0; id < FUNC_NUM_BARRIERS; id++)
        barrier_try_release(c, id);
}

static int exec_bar(const struct step *s, uint32_t mask, struct func_trace *t)
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
        opnd_read(s, ptx_src(s->m, in, 0), v);
    else
        memset(v, 0, sizeof v);
    uint64_t id = v[lane];
    if (id >= FUNC_NUM_BARRIERS)
        return fail(s, lane, WS_ERR_FAULT, "barrier id out of range (0..15)");
    unsigned nfixed = is_red ? 2u : 1u; /* id [, pred] */
    uint32_t expected = 0;
    if (in->nsrc > nfixed) {
        opnd_read(s, ptx_src(s->m, in, 1), v);
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
        opnd_read(s, ptx_src(s->m, in, in->nsrc - 1), p);
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

/* ---- calls ---------------------------------------------------------------- */

/* Bytes of call argument/return operand o for lane, from the current frame. */
static void opnd_bytes(const struct step *s, const struct ptx_operand *o, uint32_t lane,
                       uint8_t *buf, uint64_t n)
{
    struct func_warp *w = s->w;
    memset(buf, 0, n);
    if (o->kind == PTX_OPND_VAR) {
        const struct ptx_var *v = &s->m->vars[o->sym];
        uint64_t sz = v->size < n ? v->size : n;
        uint64_t off = cur_frame(w)->param_base + v->offset;
        if (v->space == PTX_SPACE_PARAM && off + sz <= w->param_top)
            memcpy(buf, w->param + (uint64_t)lane * w->param_cap + off, sz);
        return;
    }
    uint64_t val;
    if (o->kind == PTX_OPND_REG)
        val = reg_ptr(w, o->reg)[lane];
    else if (o->kind == PTX_OPND_IMM)
        val = (uint64_t)o->imm;
    else
        val = 0;
    memcpy(buf, &val, n < 8 ? n : 8);
}

struct lane_reader {
    const struct step *s;
    uint32_t lane;
};

static int lane_read(void *ctx, uint64_t addr, void *dst, size_t n)
{
    const struct lane_reader *r = ctx;
    struct err tmp;
    struct step s2 = *r->s;
    s2.e = &tmp;
    uint8_t *p = resolve(&s2, r->lane, PTX_SPACE_NONE, addr, 1, ACC_READ, 0);
    if (!p)
        return -1;
    /* byte-wise so that reads crossing nothing but one allocation stay simple */
    uint8_t *out = dst;
    for (size_t i = 0; i < n; i++) {
        p = resolve(&s2, r->lane, PTX_SPACE_NONE, addr + i, 1, ACC_READ, 0);
        if (!p)
            return -1;
        out[i] = *p;
    }
    return 0;
}

static void read_cstr(const struct step *s, uint32_t lane, uint64_t addr, char *buf, size_t len)
{
    struct lane_reader lr = {s, lane};
    size_t i = 0;
    for (; addr && i + 1 < len; i++) {
        char ch;
        if (lane_read(&lr, addr + i, &ch, 1) != 0 || ch == '\0')
            break;
        buf[i] = ch;
    }
    buf[i] = '\0';
}

static int exec_extern_call(const struct step *s, uint32_t mask, const struct ptx_func *callee)
{
    const struct ptx_inst *in = s->in;
    struct func_warp *w = s->w;
    unsigned nargs = in->nsrc - 1u;
    uint64_t arg[5] = {0};
    if (strcmp(callee->name, "vprintf") == 0) {
        FILE *out = s->k->env->out ? s->k->env->out : stdout;
        FOR_LANES(l, mask) {
            for (unsigned i = 0; i < nargs && i < 2; i++)
                opnd_bytes(s, ptx_src(s->m, in, 1 + i), l, (uint8_t *)&arg[i], 8);
            struct lane_reader lr = {s, l};
            struct vprintf_reader rd = {lane_read, &lr};
            uint64_t bad = 0;
            int n = vprintf_format(&rd, arg[0], arg[1], out, &bad);
            if (n < 0) {
                char why[128];
                snprintf(why, sizeof why, "vprintf: cannot read format or argument at 0x%" PRIx64,
                         bad);
                return fail(s, l, WS_ERR_FAULT, why);
            }
            if (in->ndst > 0) {
                const struct ptx_operand *d = ptx_dst(s->m, in, 0);
                if (d->kind == PTX_OPND_VAR) {
                    const struct ptx_var *v = &s->m->vars[d->sym];
                    uint64_t off = cur_frame(w)->param_base + v->offset;
                    int32_t r = n;
                    if (off + 4 <= w->param_top)
                        memcpy(w->param + (uint64_t)l * w->param_cap + off, &r, 4);
                } else if (d->kind == PTX_OPND_REG) {
                    reg_ptr(w, d->reg)[l] = (uint32_t)n;
                }
            }
        }
        return WS_OK;
    }
    if (strcmp(callee->name, "__assertfail") == 0) {
        uint32_t l = first_lane(mask);
        for (unsigned i = 0; i < nargs && i < 5; i++)
            opnd_bytes(s, ptx_src(s->m, in, 1 + i), l, (uint8_t *)&arg[i], 8);
        char msg[256], file[256], fn[256], why[1024];
        read_cstr(s, l, arg[0], msg, sizeof msg);
        read_cstr(s, l, arg[1], file, sizeof file);
        read_cstr(s, l, arg[3], fn, sizeof fn);
        snprintf(why, sizeof why, "assertion failed: %s at %s:%u in %s", msg, file,
                 (uint32_t)arg[2], fn);
        return fail(s, l, WS_ERR_FAULT, why);
    }
    char what[160];
    snprintf(what, sizeof what, "call to external function '%s'", callee->name);
    return unsupported(s, what);
}

/* Push a call frame for `callee` and copy the arguments; the caller pushes the
 * CALL entry. */
static int call_push(const struct step *s, uint32_t mask, uint32_t fidx)
{
    struct func_warp *w = s->w;
    const struct ptx_module *m = s->m;
    const struct ptx_func *callee = &m->funcs[fidx];
    const struct ptx_func *caller = &m->funcs[cur_frame(w)->func];
    const struct ptx_inst *in = s->in;
    if (w->nframes >= FUNC_MAX_CALL_DEPTH)
        return fail(s, first_lane(mask), WS_ERR_FAULT, "call stack overflow (call depth limit)");
    uint64_t local_base = align16(w->local_top);
    uint64_t local_top = align16(local_base + callee->local_bytes);
    uint64_t limit = s->k->env->cfg.local_memory_per_thread;
    if (limit && local_top > limit) {
        char why[200];
        snprintf(why, sizeof why,
                 "local memory stack overflow: %" PRIu64 " bytes needed, limit %" PRIu64
                 " (option local_memory_per_thread)",
                 local_top, limit);
        return fail(s, first_lane(mask), WS_ERR_FAULT, why);
    }
    uint64_t param_base = align16(w->param_top);
    uint64_t param_top = align16(param_base + callee->frame_param_bytes);
    ensure_lanes(&w->local, &w->local_cap, local_top);
    ensure_lanes(&w->param, &w->param_cap, param_top);
    if (w->nframes == w->frames_cap) {
        w->frames_cap *= 2;
        w->frames = xrealloc(w->frames, w->frames_cap * sizeof *w->frames);
    }
    struct call_frame *cf = cur_frame(w);
    struct call_frame nf = {fidx, s->pc, cf->reg_base + (uint64_t)caller->nregs * FUNC_WARP_SIZE,
                            local_base, param_base};
    /* copy arguments while the caller frame is current */
    unsigned nargs = in->nsrc - 1u;
    for (unsigned i = 0; i < nargs && i < callee->nparams; i++) {
        const struct ptx_var *f = &m->vars[callee->params[i]];
        const struct ptx_operand *a = ptx_src(m, in, 1 + i);
        uint64_t sz = f->size ? f->size : 8;
        if (param_base + f->offset + sz > param_top)
            continue;
        FOR_LANES(l, mask) {
            uint8_t buf[256];
            uint64_t n = sz < sizeof buf ? sz : sizeof buf;
            opnd_bytes(s, a, l, buf, n);
            memcpy(w->param + (uint64_t)l * w->param_cap + param_base + f->offset, buf, n);
        }
    }
    /* zero the callee's local frame */
    if (local_top > local_base)
        for (uint32_t l = 0; l < FUNC_WARP_SIZE; l++)
            memset(w->local + (uint64_t)l * w->local_cap + local_base, 0, local_top - local_base);
    w->frames[w->nframes++] = nf;
    w->local_top = local_top;
    w->param_top = param_top;
    size_t nr = (size_t)callee->nregs * FUNC_WARP_SIZE;
    ensure_regs(w, nf.reg_base + nr);
    memset(w->cur_regs, 0, nr * sizeof *w->cur_regs);
    return WS_OK;
}

/* Pop the current call frame; if copy, copy the return values for lanes `mask`. */
static void call_pop(struct func_warp *w, const struct ptx_module *m, uint32_t mask, int copy)
{
    ws_assert(w->nframes > 1);
    struct call_frame cf = w->frames[w->nframes - 1];
    struct call_frame *pf = &w->frames[w->nframes - 2];
    const struct ptx_func *callee = &m->funcs[cf.func];
    const struct ptx_inst *call = &m->insts[cf.call_pc];
    if (copy) {
        for (unsigned i = 0; i < call->ndst && i < callee->nrets; i++) {
            const struct ptx_var *rv = &m->vars[callee->rets[i]];
            const struct ptx_operand *d = &m->opnds[call->opnd + i];
            uint64_t sz = rv->size ? rv->size : 8;
            uint64_t src = cf.param_base + rv->offset;
            if (src + sz > w->param_top)
                continue;
            if (d->kind == PTX_OPND_VAR) {
                const struct ptx_var *dv = &m->vars[d->sym];
                uint64_t dst = pf->param_base + dv->offset;
                uint64_t n = sz < dv->size ? sz : dv->size;
                FOR_LANES(l, mask) {
                    uint8_t *lp = w->param + (uint64_t)l * w->param_cap;
                    memmove(lp + dst, lp + src, n);
                }
            } else if (d->kind == PTX_OPND_REG) {
                uint64_t *r = w->regs + pf->reg_base + (size_t)d->reg * FUNC_WARP_SIZE;
                FOR_LANES(l, mask) {
                    uint64_t v = 0;
                    memcpy(&v, w->param + (uint64_t)l * w->param_cap + src, sz < 8 ? sz : 8);
                    r[l] = v;
                }
            }
        }
    }
    w->nframes--;
    w->local_top = cf.local_base;
    w->param_top = cf.param_base;
    w->cur_regs = w->regs + pf->reg_base;
}

/* ---- SIMT stack ----------------------------------------------------------- */

static void stack_push(struct func_warp *w, uint32_t pc, uint32_t rpc, uint32_t mask,
                       uint32_t type)
{
    if (w->depth == w->stack_cap) {
        w->stack_cap *= 2;
        w->stack = xrealloc(w->stack, w->stack_cap * sizeof *w->stack);
    }
    w->stack[w->depth++] = (struct simt_entry){pc, rpc, mask, type};
}

static void lanes_exit(struct func_warp *w, uint32_t m)
{
    w->exited |= m;
    for (uint32_t i = 0; i < w->depth; i++)
        w->stack[i].mask &= ~m;
}

static void warp_finish(struct func_cta *c, struct func_warp *w)
{
    w->state = FUNC_WARP_DONE;
    while (w->nframes > 1)
        call_pop(w, c->k->m, 0, 0);
    if (c->live_warps > 0)
        c->live_warps--;
    cta_release_all(c);
}

/* Bring the top of the stack to an executable entry: pop empty entries,
 * reconverged entries, finished calls; exit lanes that reach the kernel's end. */
static void settle(struct func_cta *c, struct func_warp *w)
{
    const struct ptx_module *m = c->k->m;
    while (w->depth > 0) {
        struct simt_entry *top = &w->stack[w->depth - 1];
        if (top->mask == 0) {
            if (top->type == SIMT_CALL)
                call_pop(w, m, 0, 0);
            w->depth--;
            continue;
        }
        if (top->pc != PC_EXIT) {
            const struct ptx_func *f = &m->funcs[cur_frame(w)->func];
            if (top->pc - f->first_pc >= f->ninsts)
                top->pc = PC_EXIT; /* fell off the end of the function */
        }
        if (top->pc == PC_EXIT) {
            if (top->type == SIMT_CALL) {
                call_pop(w, m, top->mask, 1);
                w->depth--;
                if (w->depth > 0) {
                    struct simt_entry *nt = &w->stack[w->depth - 1];
                    if (nt->type == SIMT_NORMAL && nt->pc == nt->rpc)
                        w->depth--;
                }
                continue;
            }
            if (w->nframes == 1) {
                lanes_exit(w, top->mask);
                continue;
            }
            w->depth--; /* reached the function exit: wait in the entry below */
            continue;
        }
        if (top->type == SIMT_NORMAL && top->pc == top->rpc) {
            w->depth--;
            continue;
        }
        break;
    }
    if (w->depth == 0 && w->state != FUNC_WARP_DONE)
        warp_finish(c, w);
}

/* Update the stack after an instruction: lanes `taken` go to tpc, the other
 * remaining lanes to npc. */
static void simt_update(const struct step *s, uint32_t taken, uint32_t tpc, uint32_t npc,
                        uint32_t reconv, struct func_trace *t)
{
    struct func_warp *w = s->w;
    if (w->depth == 0)
        return;
    struct simt_entry *top = &w->stack[w->depth - 1];
    uint32_t rem = top->mask;
    uint32_t T = taken & rem, N = rem & ~T;
    if (rem == 0)
        return;
    if (T == 0 || N == 0) {
        uint32_t next = T ? tpc : npc;
        if (next == top->rpc && top->type == SIMT_NORMAL)
            w->depth--;
        else
            top->pc = next;
        return;
    }
    t->diverged = 1;
    if (reconv != top->rpc || top->type == SIMT_CALL)
        top->pc = reconv;
    else
        w->depth--;
    if (npc != reconv)
        stack_push(w, npc, reconv, N, SIMT_NORMAL);
    if (tpc != reconv)
        stack_push(w, tpc, reconv, T, SIMT_NORMAL);
}

/* ---- the step ------------------------------------------------------------- */

static int exec_alu(const struct step *s, uint32_t mask)
{
    const struct ptx_inst *in = s->in;
    uint64_t src[ALU_MAX_SRC][32];
    uint64_t dst[ALU_MAX_DST][32];
    if (in->nsrc > ALU_MAX_SRC || in->ndst > ALU_MAX_DST)
        return unsupported(s, "operand count");
    for (unsigned i = 0; i < in->nsrc; i++)
        opnd_read(s, ptx_src(s->m, in, i), src[i]);
    int rc = alu_exec(in, mask, (const uint64_t(*)[32])src, dst, &s->w->carry, s->e);
    if (rc != WS_OK) {
        char pos[512], msg[ERR_MSG_MAX];
        snprintf(msg, sizeof msg, "%s", s->e->msg);
        where(s, first_lane(mask), pos, sizeof pos);
        return err_set(s->e, rc, "%s: %s", pos, msg);
    }
    for (unsigned i = 0; i < in->ndst; i++) {
        const struct ptx_operand *d = ptx_dst(s->m, in, i);
        if (d->kind == PTX_OPND_REG) {
            uint64_t *r = reg_ptr(s->w, d->reg);
            if (mask == FULL_MASK)
                memcpy(r, dst[i], sizeof dst[i]);
            else
                FOR_LANES(l, mask) r[l] = dst[i][l];
        }
    }
    return WS_OK;
}

int func_warp_step(struct func_cta *c, struct func_warp *w, struct func_trace *t,
                   struct err *e)
{
    struct func_kernel *k = c->k;
    const struct ptx_module *m = k->m;
    settle(c, w);
    if (w->state != FUNC_WARP_READY) {
        t->exited = w->state == FUNC_WARP_DONE;
        t->mask = 0;
        return WS_OK;
    }
    struct simt_entry *top = &w->stack[w->depth - 1];
    uint32_t pc = top->pc;
    const struct ptx_inst *in = &m->insts[pc];
    uint32_t active = top->mask;
    uint32_t mask = active;
    if (in->guard != PTX_NO_INDEX) {
        const uint64_t *g = reg_ptr(w, in->guard);
        uint32_t gm = 0;
        FOR_LANES(l, active) if ((g[l] != 0) != (in->guard_neg != 0)) gm |= 1u << l;
        mask = gm;
    }
    struct step s = {c, w, k, m, in, pc, e};
    const struct pc_info *pi = &k->an->pc[pc];
    t->pc = pc;
    t->active = active;
    t->mask = mask;
    t->iclass = pi->iclass;
    t->space = PTX_SPACE_NONE;
    t->size = 0;
    t->is_mem = t->is_store = t->is_atomic = 0;
    t->diverged = t->barrier = t->exited = 0;

    struct func_stats *st = k->env->stats;
    st->warp_insn++;
    st->class_insn[pi->iclass]++;
    st->gpu_sim_insn += popc(active);
    st->thread_insn += popc(mask);
    k->warp_insn++;
    w->ninsn++;

    int rc = WS_OK;
    uint32_t taken = 0, tpc = pc + 1, reconv = PC_EXIT;
    switch ((enum ptx_op)in->op) {
    case PTX_OP_MOV: rc = exec_mov(&s, mask); break;
    case PTX_OP_LD:
    case PTX_OP_LDU: rc = exec_ld(&s, mask, t); break;
    case PTX_OP_ST: rc = exec_st(&s, mask, t); break;
    case PTX_OP_ATOM:
    case PTX_OP_RED: rc = exec_atom(&s, mask, t); break;
    case PTX_OP_CVTA: rc = exec_cvta(&s, mask); break;
    case PTX_OP_BRA:
        taken = mask;
        tpc = (uint32_t)ptx_src(m, in, 0)->imm;
        reconv = pi->reconv;
        break;
    case PTX_OP_CALL: {
        if (mask == 0)
            break;
        const struct ptx_operand *fo = ptx_src(m, in, 0);
        if (fo->kind != PTX_OPND_FUNC) {
            rc = unsupported(&s, "indirect call");
            break;
        }
        const struct ptx_func *callee = &m->funcs[fo->sym];
        if (callee->is_extern || callee->ninsts == 0) {
            rc = exec_extern_call(&s, mask, callee);
            break;
        }
        rc = call_push(&s, mask, fo->sym);
        if (rc != WS_OK)
            break;
        top->pc = pc + 1;
        stack_push(w, callee->first_pc, PC_EXIT, mask, SIMT_CALL);
        goto done;
    }
    case PTX_OP_RET:
        if (w->nframes == 1) {
            lanes_exit(w, mask);
        } else {
            taken = mask;
            tpc = PC_EXIT;
            reconv = PC_EXIT;
        }
        break;
    case PTX_OP_EXIT: lanes_exit(w, mask); break;
    case PTX_OP_TRAP:
        if (mask)
            rc = fail(&s, first_lane(mask), WS_ERR_FAULT, "trap instruction executed");
        break;
    case PTX_OP_BAR: rc = exec_bar(&s, mask, t); break;
    case PTX_OP_MEMBAR:
    case PTX_OP_FENCE:
    case PTX_OP_PREFETCH:
    case PTX_OP_NANOSLEEP:
    case PTX_OP_PMEVENT: break;
    case PTX_OP_SHFL: rc = exec_shfl(&s, mask); break;
    case PTX_OP_VOTE: rc = exec_vote(&s, mask); break;
    case PTX_OP_ACTIVEMASK: {
        uint64_t v[32];
        for (uint32_t l = 0; l < 32; l++)
            v[l] = mask;
        dst_write(&s, ptx_dst(m, in, 0), mask, v);
        break;
    }
    case PTX_OP_MATCH: rc = exec_match(&s, mask); break;
    case PTX_OP_REDUX: rc = exec_redux(&s, mask); break;
    default:
        if (alu_handles((enum ptx_op)in->op)) {
            if (mask)
                rc = exec_alu(&s, mask);
        } else {
            char what[64];
            snprintf(what, sizeof what, "instruction '%s'", ptx_op_name((enum ptx_op)in->op));
            rc = unsupported(&s, what);
        }
        break;
    }
    if (rc != WS_OK)
        return rc;
    simt_update(&s, taken, tpc, pc + 1, reconv, t);
done:
    settle(c, w);
    t->exited = w->state == FUNC_WARP_DONE;
    return WS_OK;
}
