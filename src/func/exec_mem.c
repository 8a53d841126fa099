/* exec_mem.c: address resolution in the state spaces and the semantics of
 * ld, st, atom/red, mov and cvta. */
#include "func/exec_internal.h"
#include "func/racecheck.h"
#include "func/sink.h"
#include "base/alloc.h"

#include "func/alu.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- memory --------------------------------------------------------------- */

/* Addresses in the .shared, .local and .param windows are 32 bits wide (as
 * on hardware and in GPGPU-Sim): arithmetic on them wraps at 2^32. */
static uint64_t space_addr_mask(unsigned space)
{
    switch (space) {
    case PTX_SPACE_SHARED:
    case PTX_SPACE_LOCAL:
    case PTX_SPACE_PARAM: return 0xffffffffull;
    default: return ~0ull;
    }
}

/* Per-lane addresses of an ADDR operand (in the operand's space): [reg+imm]
 * is added at the register's width (a 32-bit register wraps at 2^32), then
 * cut to the width of the space's addresses. */
static void addr_compute(const struct step *s, const struct ptx_operand *o, uint32_t mask,
                         uint64_t addr[32], int *kparam)
{
    uint64_t wm = space_addr_mask(s->in->space);
    *kparam = 0;
    if (o->reg != PTX_NO_INDEX) {
        const uint64_t *r = reg_ptr(s->w, o->reg);
        wm &= exec_reg_width_mask(s, o->reg);
        FOR_LANES(l, mask) addr[l] = (r[l] + (uint64_t)o->imm) & wm;
        *kparam = s->m->funcs[s->in->func].is_entry;
        return;
    }
    uint64_t base = 0;
    if (o->sym != PTX_NO_INDEX) {
        const struct ptx_var *v = &s->m->vars[o->sym];
        base = exec_var_addr(s, v);
        *kparam = (v->flags & PTX_VAR_KERNEL_PARAM) != 0;
    }
    FOR_LANES(l, mask) addr[l] = (base + (uint64_t)o->imm) & wm;
}

static const char *acc_name(int kind)
{
    return kind == ACC_READ ? "read" : kind == ACC_WRITE ? "write" : "atomic";
}

static int mem_fault(const struct step *s, uint32_t lane, int code, int kind, uint64_t addr,
                     unsigned n, const char *why)
{
    char pos[768];
    exec_where(s, lane, pos, sizeof pos);
    return err_set(s->e, code, "%s: %s of %u bytes at 0x%" PRIx64 " %s", pos, acc_name(kind), n,
                   addr, why);
}

/* Host pointer for n bytes at addr in `space` for lane; NULL + fault on error. */
uint8_t *exec_resolve(const struct step *s, uint32_t lane, unsigned space, uint64_t addr,
                      unsigned n, int kind, int kparam)
{
    struct func_warp *w = s->w;
    uint64_t a = addr;
    char why[256];
    if (n && (addr & (n - 1)) != 0 && (n & (n - 1)) == 0) {
        snprintf(why, sizeof why, "misaligned (needs %u-byte alignment)", n);
        mem_fault(s, lane, WS_ERR_MISALIGNED, kind, addr, n, why);
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
        static uint8_t zeros[64]; /* only ever read */
        const struct func_env *env = s->k->env;
        uint8_t *p = s->c->sink ? mem_lookup_ro(env->mem, a, n) : mem_lookup(env->mem, a, n);
        if (p)
            return p;
        if (env->cfg.oob_read_zero && kind == ACC_READ && space == PTX_SPACE_GLOBAL &&
            n <= sizeof zeros) {
            struct func_stats *fs = s->c->sink ? &s->c->sink->st : env->stats;
            if (fs)
                fs->oob_reads_zeroed++;
            return zeros;
        }
        mem_describe(env->mem, a, n, why, sizeof why);
        break;
    }
    case PTX_SPACE_SHARED:
        if (a <= s->c->shared_size && n <= s->c->shared_size - a) {
            if (s->c->race)
                race_access(s, lane, a, n, kind);
            return s->c->shared + a;
        }
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
    mem_fault(s, lane, WS_ERR_FAULT, kind, addr, n, why);
    return NULL;
}

/* The common cases of exec_resolve for a whole warp, n bytes per lane, no
 * sink: global memory (explicit, or generic outside the shared, local and
 * param windows) inside the allocation the last look-up found, explicit
 * shared memory without race checking, and reads of the kernel's
 * parameters; every lane aligned.  Fills ptr and returns 1 then;
 * 0 (nothing decided) when any lane needs exec_resolve's full path, which
 * then runs lane by lane as before, so its look-ups, faults and counters are
 * unchanged. */
static int resolve_fast(const struct step *s, uint32_t mask, unsigned space,
                        const uint64_t addr[32], unsigned n, int kparam, int write,
                        uint8_t *ptr[32])
{
    if (s->c->sink || n == 0)
        return 0;
    uint64_t align = (n & (n - 1)) == 0 ? n - 1 : 0;
    uint8_t *base = NULL;
    uint64_t size = 0;
    if (space == PTX_SPACE_PARAM && kparam && !write) {
        base = s->k->params;
        size = s->k->param_size;
    } else if (space == PTX_SPACE_SHARED && !s->c->race) {
        base = s->c->shared;
        size = s->c->shared_size;
    }
    if (base) {
        FOR_LANES(l, mask) {
            uint64_t a = addr[l];
            if ((a & align) || a > size || n > size - a)
                return 0;
            ptr[l] = base + a;
        }
        return 1;
    }
    if (space != PTX_SPACE_GLOBAL && space != PTX_SPACE_NONE)
        return 0;
    const struct dev_mem *m = s->k->env->mem;
    if (m->last >= m->nregions)
        return 0;
    const struct mem_region *r = &m->regions[m->last];
    FOR_LANES(l, mask) {
        uint64_t a = addr[l];
        if ((a & align) || a < r->base || a - r->base > r->size || n > r->size - (a - r->base))
            return 0;
        if (space == PTX_SPACE_NONE &&
            (a - MEM_SHARED_BASE < MEM_WINDOW_SIZE || a - MEM_LOCAL_BASE < MEM_WINDOW_SIZE ||
             a - MEM_PARAM_BASE < MEM_WINDOW_SIZE))
            return 0;
        ptr[l] = r->data + (a - r->base);
    }
    return 1;
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

/* With a sink, an access of `space` at addr that reaches device memory is
 * deferred (func/sink.h): the same classification as exec_resolve. */
static int deferred(const struct step *s, unsigned space, uint64_t addr)
{
    if (!s->c->sink)
        return 0;
    if (space == PTX_SPACE_NONE)
        return !(addr - MEM_SHARED_BASE < MEM_WINDOW_SIZE ||
                 addr - MEM_LOCAL_BASE < MEM_WINDOW_SIZE ||
                 addr - MEM_PARAM_BASE < MEM_WINDOW_SIZE);
    return space == PTX_SPACE_GLOBAL || space == PTX_SPACE_CONST;
}

/* The record of a load done in place (func/sink.h), its lanes' addresses to
 * follow in k->ptrs. */
static struct func_sink_load *log_load(const struct step *s, uint32_t mask, unsigned esz,
                                       unsigned nel, int sign)
{
    struct func_sink *k = s->c->sink;
    struct func_sink_load *x = ARRAY_PUSH(k->loads, k->nloads, k->loads_cap);
    *x = (struct func_sink_load){.w = s->w, .ri = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX},
                                 .nops = k->nops, .first = k->nptrs, .mask = mask,
                                 .esz = (uint8_t)esz, .nel = (uint8_t)nel, .sign = (uint8_t)sign};
    array_reserve((void **)&k->ptrs, &k->ptrs_cap, k->nptrs + 32, sizeof *k->ptrs);
    return x;
}

static struct func_deferred *defer(const struct step *s, uint8_t kind, uint8_t *p, unsigned n)
{
    struct func_sink *k = s->c->sink;
    struct func_deferred *d = ARRAY_PUSH(k->ops, k->nops, k->ops_cap);
    *d = (struct func_deferred){.p = p, .w = s->w, .ri = SIZE_MAX, .kind = kind,
                                .n = (uint8_t)n};
    return d;
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

int exec_ld(const struct step *s, uint32_t mask, struct func_trace *t)
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
        return exec_unsupported(s, "load type");
    addr_compute(s, a, mask, addr, &kparam);
    trace_mem(t, s, esz * nel, 0, 0, addr);
    uint8_t *ptr[32];
    if (resolve_fast(s, mask, in->space, addr, esz * nel, kparam, 0, ptr)) {
        for (unsigned i = 0; i < nel; i++) {
            uint32_t r = d->kind == PTX_OPND_VEC ? d->vec[i] : d->reg;
            if ((d->kind != PTX_OPND_VEC && d->kind != PTX_OPND_REG) || r == PTX_NO_INDEX)
                continue;
            uint64_t wm = exec_reg_width_mask(s, r), *dst = reg_ptr(s->w, r);
            FOR_LANES(l, mask) {
                uint64_t v = load_le(ptr[l] + (size_t)i * esz, esz);
                dst[l] = (sign ? sext(v, esz) : v) & wm;
            }
        }
        return WS_OK;
    }
    /* with a sink, the lanes that read device memory are logged (log_load) */
    struct func_sink_load *x = NULL;
    const uint8_t **xp = NULL;
    for (unsigned i = 0; i < nel; i++) {
        uint32_t r = d->kind == PTX_OPND_VEC ? d->vec[i] : d->reg;
        if (d->kind != PTX_OPND_VEC && d->kind != PTX_OPND_REG)
            r = PTX_NO_INDEX;
        uint64_t wm = r == PTX_NO_INDEX ? 0 : exec_reg_width_mask(s, r);
        uint64_t *dst = r == PTX_NO_INDEX ? NULL : reg_ptr(s->w, r);
        size_t ri = dst ? (size_t)(dst - s->w->regs) : SIZE_MAX;
        if (x) {
            x->ri[i] = ri;
            x->wm[i] = wm;
        }
        xp = x ? s->c->sink->ptrs + x->first : NULL;
        FOR_LANES(l, mask) {
            /* element 0 checks the bounds and alignment of the whole vector */
            uint8_t *p = exec_resolve(s, l, in->space, addr[l] + (uint64_t)i * esz,
                                 i == 0 ? esz * nel : esz, ACC_READ, kparam);
            if (!p)
                return s->e->code;
            if (deferred(s, in->space, addr[l])) {
                if (i == 0) {
                    if (!x) {
                        x = log_load(s, 0, esz, nel, sign);
                        x->ri[0] = ri;
                        x->wm[0] = wm;
                        xp = s->c->sink->ptrs + x->first;
                    }
                    x->mask |= 1u << l;
                    *xp++ = p;
                    s->c->sink->nptrs++;
                } else if (p != *xp++ + (size_t)i * esz && dst) {
                    /* not where the merge would read it again */
                    struct func_deferred *o = defer(s, FUNC_DEF_LOAD, p, esz);
                    o->ri = ri + l;
                    o->sign = (uint8_t)sign;
                    o->wm = wm;
                }
            }
            uint64_t v = load_le(p, esz);
            if (sign)
                v = sext(v, esz);
            if (dst)
                dst[l] = v & wm;
        }
    }
    return WS_OK;
}

int exec_st(const struct step *s, uint32_t mask, struct func_trace *t)
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
        return exec_unsupported(s, "store type");
    addr_compute(s, a, mask, addr, &kparam);
    trace_mem(t, s, esz * nel, 1, 0, addr);
    uint8_t *ptr[32];
    int fast = resolve_fast(s, mask, in->space, addr, esz * nel, kparam, 1, ptr);
    /* else check every lane's access before writing anything */
    FOR_LANES(l, fast ? 0 : mask) {
        if (!exec_resolve(s, l, in->space, addr[l], esz * nel, ACC_WRITE, kparam))
            return s->e->code;
    }
    for (unsigned i = 0; i < nel; i++) {
        if (v->kind == PTX_OPND_VEC) {
            if (!exec_vec_elem(s, v, i, val))
                continue;
        } else {
            exec_opnd_read(s, v, val);
        }
        FOR_LANES(l, mask) {
            uint8_t *p = fast ? ptr[l] + (size_t)i * esz
                              : exec_resolve(s, l, in->space, addr[l] + (uint64_t)i * esz, esz,
                                             ACC_WRITE, kparam);
            if (!p)
                return s->e->code;
            if (deferred(s, in->space, addr[l]))
                defer(s, FUNC_DEF_STORE, p, esz)->val = val[l];
            else
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

/* a + b for packed f16/bf16 halves (n of them), each rounded to nearest even
 * (atom.add.noftz.{f16,f16x2,bf16,bf16x2}): the sum of two halves is exact in
 * double, so one rounding gives the correctly rounded result, subnormals kept. */
static uint64_t half_add(uint64_t a, uint64_t b, enum alu_half_fmt fmt, unsigned n)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < n; i++) {
        double x = alu_half_to_double((uint16_t)(a >> (16 * i)), fmt) +
                   alu_half_to_double((uint16_t)(b >> (16 * i)), fmt);
        r |= (uint64_t)alu_half_from_double(x, fmt, PTX_RND_NONE) << (16 * i);
    }
    return r;
}

/* New memory value of an atomic; returns 0 if the type/op is unsupported. */
int exec_atom_apply(unsigned sub, enum ptx_type ty, uint64_t old, uint64_t b, uint64_t c,
                      uint64_t *out)
{
    unsigned sz = ptx_type_size(ty);
    uint64_t wm = width_mask(sz);
    int is_f = ptx_type_is_float(ty);
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
        else if (ty == PTX_T_F16 || ty == PTX_T_F16X2)
            r = half_add(old, b, ALU_HALF_F16, sz / 2);
        else if (ty == PTX_T_BF16 || ty == PTX_T_BF16X2)
            r = half_add(old, b, ALU_HALF_BF16, sz / 2);
        else if (ptx_type_is_float(ty))
            return 0;
        else
            r = old + b;
        break;
    case PTX_SUB_ATOM_MIN:
    case PTX_SUB_ATOM_MAX: {
        int lt;
        if (is_f && ty != PTX_T_F32 && ty != PTX_T_F64)
            return 0;
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

int exec_atom(const struct step *s, uint32_t mask, struct func_trace *t)
{
    const struct ptx_inst *in = s->in;
    int is_red = in->op == PTX_OP_RED;
    const struct ptx_operand *a = ptx_src(s->m, in, 0);
    enum ptx_type ty = (enum ptx_type)in->type;
    unsigned sz = ptx_type_size(ty);
    uint64_t addr[32] = {0}, b[32], c[32], old[32] = {0};
    uint32_t now_mask = mask; /* lanes whose old value is written here */
    int kparam;
    int half = ty == PTX_T_F16 || ty == PTX_T_BF16; /* add only (atom_apply) */
    if (sz != 4 && sz != 8 && !(half && in->sub == PTX_SUB_ATOM_ADD))
        return exec_unsupported(s, "atomic type");
    if (in->space != PTX_SPACE_NONE && in->space != PTX_SPACE_GLOBAL &&
        in->space != PTX_SPACE_SHARED)
        return exec_unsupported(s, "atomic state space");
    addr_compute(s, a, mask, addr, &kparam);
    trace_mem(t, s, sz, 1, 1, addr);
    exec_opnd_read(s, ptx_src(s->m, in, 1), b);
    if (in->nsrc > 2)
        exec_opnd_read(s, ptx_src(s->m, in, 2), c);
    else
        memset(c, 0, sizeof c);
    FOR_LANES(l, mask) {
        uint8_t *p = exec_resolve(s, l, in->space, addr[l], sz, ACC_ATOMIC, kparam);
        if (!p)
            return s->e->code;
        uint64_t nv;
        if (deferred(s, in->space, addr[l])) {
            /* only the combination is checked now: the values are read later */
            if (!exec_atom_apply(in->sub, ty, 0, 0, 0, &nv))
                return exec_unsupported(s, "atomic operation/type combination");
            struct func_deferred *x = defer(s, FUNC_DEF_ATOM, p, sz);
            x->val = b[l];
            x->c = c[l];
            x->sub = (uint8_t)in->sub;
            x->type = (uint8_t)ty;
            const struct ptx_operand *d = in->ndst > 0 ? ptx_dst(s->m, in, 0) : NULL;
            if (!is_red && d && d->kind == PTX_OPND_REG && d->reg != PTX_NO_INDEX) {
                x->ri = (size_t)(reg_ptr(s->w, d->reg) - s->w->regs) + l;
                x->wm = exec_reg_width_mask(s, d->reg);
            }
            now_mask &= ~(1u << l);
            continue;
        }
        uint64_t o = load_le(p, sz);
        if (!exec_atom_apply(in->sub, ty, o, b[l], c[l], &nv))
            return exec_unsupported(s, "atomic operation/type combination");
        store_le(p, nv, sz);
        old[l] = o;
    }
    if (!is_red && in->ndst > 0)
        exec_dst_write(s, ptx_dst(s->m, in, 0), now_mask, old);
    return WS_OK;
}

/* ---- data movement -------------------------------------------------------- */

int exec_mov(const struct step *s, uint32_t mask)
{
    const struct ptx_inst *in = s->in;
    const struct ptx_operand *d = ptx_dst(s->m, in, 0);
    const struct ptx_operand *a = ptx_src(s->m, in, 0);
    uint64_t v[32];
    unsigned tsz = ptx_type_size((enum ptx_type)in->type);
    if (a->kind == PTX_OPND_FUNC)
        return exec_unsupported(s, "address of a function (indirect calls)");
    if (d->kind == PTX_OPND_VEC) { /* unpack */
        unsigned ebits = tsz * 8 / (d->vec_n ? d->vec_n : 1);
        uint64_t em = width_mask(ebits / 8);
        exec_opnd_read(s, a, v);
        for (unsigned i = 0; i < d->vec_n; i++) {
            uint64_t e[32];
            if (d->vec[i] == PTX_NO_INDEX)
                continue;
            FOR_LANES(l, mask) e[l] = (v[l] >> (i * ebits)) & em;
            exec_reg_write(s, d->vec[i], mask, e);
        }
        return WS_OK;
    }
    if (a->kind == PTX_OPND_VEC) { /* pack */
        unsigned ebits = tsz * 8 / (a->vec_n ? a->vec_n : 1);
        uint64_t em = width_mask(ebits / 8);
        memset(v, 0, sizeof v);
        for (unsigned i = 0; i < a->vec_n; i++) {
            uint64_t r[32];
            if (!exec_vec_elem(s, a, i, r))
                continue;
            FOR_LANES(l, mask) v[l] |= (r[l] & em) << (i * ebits);
        }
        exec_dst_write(s, d, mask, v);
        return WS_OK;
    }
    exec_opnd_read(s, a, v);
    if (in->type == PTX_T_PRED)
        FOR_LANES(l, mask) v[l] = v[l] != 0;
    else if (tsz && tsz < 8)
        FOR_LANES(l, mask) v[l] &= width_mask(tsz);
    exec_dst_write(s, d, mask, v);
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

int exec_cvta(const struct step *s, uint32_t mask)
{
    const struct ptx_inst *in = s->in;
    uint64_t v[32];
    exec_opnd_read(s, ptx_src(s->m, in, 0), v);
    uint64_t base = space_base(in->space);
    uint64_t wm = space_addr_mask(in->space);
    /* a window address is its low 32 bits both ways (the destination
     * register's width then cuts .u32 results) */
    if (in->sub == PTX_SUB_CVTA_TO)
        FOR_LANES(l, mask) v[l] = (v[l] - base) & wm;
    else
        FOR_LANES(l, mask) v[l] = base + (v[l] & wm);
    exec_dst_write(s, ptx_dst(s->m, in, 0), mask, v);
    return WS_OK;
}

