/* exec_tex.c: semantics of tex, tld4, txq, suld.b and sust.b on texture and
 * surface objects (func/tex.h: the descriptor behind a handle and the
 * sampling rules).  A handle that names no descriptor, a descriptor whose
 * resource was freed, a geometry that does not match the object and an
 * out-of-range .trap surface access are faults of the thread, reported like
 * any other invalid access. */
#include "func/exec_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "func/tex.h"

/* The object of one lane: its descriptor and its resource's bytes. */
struct tex_obj {
    uint64_t handle;
    struct tex_desc d;
    uint8_t *data;
};

/* Resolve handle h for lane l (reusing o when it already holds h); 0 and a
 * fault when h is not an object of kind `magic` or its resource is gone. */
static int obj_get(const struct step *s, uint32_t l, uint64_t h, uint32_t magic,
                   struct tex_obj *o, int *have)
{
    if (*have && o->handle == h)
        return 1;
    char why[160];
    const char *what = magic == TEX_DESC_MAGIC ? "texture" : "surface";
    struct dev_mem *mem = s->k->env->mem;
    const uint8_t *p = mem_lookup(mem, h, sizeof o->d);
    if (!p) {
        snprintf(why, sizeof why, "invalid %s object 0x%" PRIx64 " (not created, or destroyed)",
                 what, h);
        exec_fail(s, l, WS_ERR_FAULT, why);
        return 0;
    }
    memcpy(&o->d, p, sizeof o->d);
    const char *bad = tex_desc_check(&o->d);
    if (!bad && o->d.magic != magic)
        bad = magic == TEX_DESC_MAGIC ? "a surface object used as a texture"
                                      : "a texture object used as a surface";
    if (bad) {
        snprintf(why, sizeof why, "invalid %s object 0x%" PRIx64 ": %s", what, h, bad);
        exec_fail(s, l, WS_ERR_FAULT, why);
        return 0;
    }
    o->data = mem_lookup(mem, o->d.base, tex_extent(&o->d));
    if (!o->data) {
        snprintf(why, sizeof why,
                 "the memory of %s object 0x%" PRIx64 " (0x%" PRIx64 ") is no longer allocated",
                 what, h, o->d.base);
        exec_fail(s, l, WS_ERR_FAULT, why);
        return 0;
    }
    o->handle = h;
    *have = 1;
    return 1;
}

/* Whether the instruction's geometry fits the object; a fault if not. */
static int geom_ok(const struct step *s, uint32_t l, const struct tex_desc *d)
{
    static const struct {
        uint8_t dims, layered;
    } g[] = {[PTX_SUB_GEOM_1D] = {1, 0}, [PTX_SUB_GEOM_2D] = {2, 0}, [PTX_SUB_GEOM_3D] = {3, 0},
             [PTX_SUB_GEOM_A1D] = {1, 1}, [PTX_SUB_GEOM_A2D] = {2, 1}};
    unsigned sub = s->in->sub;
    if (g[sub].dims == d->dims && g[sub].layered == d->layered)
        return 1;
    char why[160];
    snprintf(why, sizeof why, "%s object is %s%uD, the instruction's geometry is not",
             d->magic == TEX_DESC_MAGIC ? "texture" : "surface", d->layered ? "layered " : "",
             d->dims);
    exec_fail(s, l, WS_ERR_FAULT, why);
    return 0;
}

/* Coordinates of lane l from the coordinate vector: x, y, z and the layer. */
struct coords {
    uint64_t e[4][32];
};

static void read_coords(const struct step *s, struct coords *c)
{
    const struct ptx_operand *o = ptx_src(s->m, s->in, 1);
    for (unsigned i = 0; i < 4; i++)
        if (i >= o->vec_n || !exec_vec_elem(s, o, i, c->e[i]))
            memset(c->e[i], 0, sizeof c->e[i]);
}

static void split(const struct step *s, const struct coords *c, uint32_t l, uint32_t xyz[3],
                  int32_t *layer)
{
    int arr = s->in->sub == PTX_SUB_GEOM_A1D || s->in->sub == PTX_SUB_GEOM_A2D;
    *layer = arr ? (int32_t)c->e[0][l] : 0;
    for (unsigned k = 0; k < 3; k++)
        xyz[k] = arr ? (k < 2 ? (uint32_t)c->e[k + 1][l] : 0) : (uint32_t)c->e[k][l];
}

static void trace_tex(struct func_trace *t, unsigned space, unsigned size, int store,
                      const uint64_t addr[32])
{
    t->is_mem = 1;
    t->space = (uint8_t)space;
    t->size = (uint8_t)size;
    t->is_store = (uint8_t)store;
    t->is_atomic = 0;
    memcpy(t->addr, addr, sizeof t->addr);
}

/* Write vector destination element i (skipping "_") for lanes `mask`. */
static void write_elem(const struct step *s, const struct ptx_operand *d, unsigned i,
                       uint32_t mask, const uint64_t v[32])
{
    if (i < d->vec_n && d->vec[i] != PTX_NO_INDEX)
        exec_reg_write(s, d->vec[i], mask, v);
}

int exec_tex(const struct step *s, uint32_t mask, struct func_trace *t)
{
    const struct ptx_inst *in = s->in;
    const uint64_t *h = reg_ptr(s->w, ptx_src(s->m, in, 0)->reg);
    struct coords c;
    uint64_t out[4][32] = {{0}}, addr[32] = {0};
    struct tex_obj o;
    int have = 0, gather = in->op == PTX_OP_TLD4;
    unsigned size = 0;
    read_coords(s, &c);
    FOR_LANES(l, mask) {
        if (!obj_get(s, l, h[l], TEX_DESC_MAGIC, &o, &have) || !geom_ok(s, l, &o.d))
            return s->e->code;
        uint32_t xyz[3], r[4];
        int32_t layer;
        uint64_t first;
        split(s, &c, l, xyz, &layer);
        if (gather) {
            float fc[2];
            memcpy(&fc[0], &xyz[0], 4);
            memcpy(&fc[1], &xyz[1], 4);
            tex_gather(&o.d, o.data, fc, layer, in->aux, r, &first);
        } else {
            float fc[3];
            int32_t ic[3];
            for (unsigned k = 0; k < 3; k++) {
                memcpy(&fc[k], &xyz[k], 4);
                ic[k] = (int32_t)xyz[k];
            }
            tex_fetch(&o.d, o.data, in->type2 == PTX_T_S32, fc, ic, layer, r, &first);
        }
        for (unsigned i = 0; i < 4; i++)
            out[i][l] = r[i];
        addr[l] = o.d.base + first;
        size = tex_texel_bytes(&o.d);
    }
    trace_tex(t, PTX_SPACE_TEX, size, 0, addr);
    const struct ptx_operand *d = ptx_dst(s->m, in, 0);
    for (unsigned i = 0; i < 4; i++)
        write_elem(s, d, i, mask, out[i]);
    return WS_OK;
}

int exec_txq(const struct step *s, uint32_t mask)
{
    const struct ptx_inst *in = s->in;
    const uint64_t *h = reg_ptr(s->w, ptx_src(s->m, in, 0)->reg);
    uint64_t v[32] = {0};
    struct tex_obj o;
    int have = 0;
    FOR_LANES(l, mask) {
        if (!obj_get(s, l, h[l], TEX_DESC_MAGIC, &o, &have))
            return s->e->code;
        switch ((enum ptx_txq)in->aux) {
        case PTX_TXQ_WIDTH: v[l] = o.d.width; break;
        case PTX_TXQ_HEIGHT: v[l] = o.d.height; break;
        case PTX_TXQ_DEPTH: v[l] = o.d.depth; break;
        case PTX_TXQ_ARRAY_SIZE: v[l] = o.d.layered ? o.d.layers : 0; break;
        case PTX_TXQ_NORMALIZED_COORDS: v[l] = o.d.norm_coords; break;
        case PTX_TXQ_FILTER_MODE: v[l] = o.d.filter_linear; break;
        }
    }
    exec_dst_write(s, ptx_dst(s->m, in, 0), mask, v);
    return WS_OK;
}

/* Byte offset of lane l's surface access; 1 in range, 0 out of range with
 * .zero, -1 after a fault. */
static int surf_lane(const struct step *s, uint32_t l, const struct tex_obj *o,
                     const struct coords *c, unsigned bytes, uint64_t *off)
{
    uint32_t xyz[3];
    int32_t layer;
    split(s, c, l, xyz, &layer);
    int32_t x = (int32_t)xyz[0];
    char why[160];
    if (x % (int32_t)bytes != 0) {
        snprintf(why, sizeof why, "misaligned surface access of %u bytes at byte x = %d", bytes,
                 x);
        exec_fail(s, l, WS_ERR_FAULT, why);
        return -1;
    }
    enum ptx_surf_mode mode = (enum ptx_surf_mode)s->in->aux;
    if (surf_offset(&o->d, x, (int32_t)xyz[1], (int32_t)xyz[2], layer, bytes, mode, off))
        return 1;
    if (mode == PTX_SURF_ZERO)
        return 0;
    snprintf(why, sizeof why,
             "surface access out of range (.trap): byte x = %d, y = %d, z = %d, layer %d of a "
             "%" PRIu64 "x%" PRIu64 "x%" PRIu64 " surface of %u-byte elements",
             x, (int32_t)xyz[1], (int32_t)xyz[2], layer, o->d.width, o->d.height, o->d.depth,
             tex_texel_bytes(&o->d));
    exec_fail(s, l, WS_ERR_FAULT, why);
    return -1;
}

int exec_surf(const struct step *s, uint32_t mask, struct func_trace *t)
{
    const struct ptx_inst *in = s->in;
    int store = in->op == PTX_OP_SUST;
    const uint64_t *h = reg_ptr(s->w, ptx_src(s->m, in, 0)->reg);
    unsigned esz = ptx_type_size((enum ptx_type)in->type), nel = in->vec;
    unsigned bytes = esz * nel;
    struct coords c;
    struct tex_obj o[32];
    uint64_t off[32] = {0}, addr[32] = {0};
    uint32_t inr = 0;
    int have = 0;
    read_coords(s, &c);
    /* every lane is checked before anything is written */
    FOR_LANES(l, mask) {
        if (have)
            o[l] = o[first_lane(mask)];
        int lhave = have;
        if (!obj_get(s, l, h[l], SURF_DESC_MAGIC, &o[l], &lhave) || !geom_ok(s, l, &o[l].d))
            return s->e->code;
        have = 1;
        int r = surf_lane(s, l, &o[l], &c, bytes, &off[l]);
        if (r < 0)
            return s->e->code;
        if (r > 0) {
            inr |= 1u << l;
            addr[l] = o[l].d.base + off[l];
        }
    }
    trace_tex(t, PTX_SPACE_GLOBAL, bytes, store, addr);
    if (store) {
        const struct ptx_operand *v = ptx_src(s->m, in, 2);
        uint64_t val[32];
        for (unsigned i = 0; i < nel; i++) {
            if (!exec_vec_elem(s, v, i, val))
                continue;
            FOR_LANES(l, inr) memcpy(o[l].data + off[l] + (uint64_t)i * esz, &val[l], esz);
        }
        return WS_OK;
    }
    const struct ptx_operand *d = ptx_dst(s->m, in, 0);
    for (unsigned i = 0; i < nel; i++) {
        uint64_t val[32] = {0};
        FOR_LANES(l, inr) memcpy(&val[l], o[l].data + off[l] + (uint64_t)i * esz, esz);
        write_elem(s, d, i, mask, val);
    }
    return WS_OK;
}
