/* tex.c: texel addressing, conversion and filtering of texture and surface
 * objects (see tex.h for the rules and their source).
 *
 * Choices where the CUDA documentation leaves room ([CHOICE], also listed in
 * docs/cuda.md):
 *  - the 9-bit weight is frac(x - 0.5) rounded to the nearest multiple of
 *    1/256 (so a weight of exactly 1.0 is possible, as the 9th bit allows);
 *  - wrap and mirror apply to normalized coordinates only; with
 *    unnormalized coordinates they act as clamp (CUDA supports them only
 *    with normalized coordinates);
 *  - a NaN coordinate reads as 0; the layer index is clamped to the layers;
 *  - components a format lacks read as 0, except w, which reads as 1;
 *  - integer-coordinate fetches from linear memory (tex1Dfetch) outside the
 *    buffer return zeros (the programming guide: tex1Dfetch has no
 *    addressing modes); integer coordinates into an array use its
 *    addressing mode on the index;
 *  - the border colour of an integer texture is the float colour converted
 *    to an integer. */
#include "func/tex.h"

#include <math.h>
#include <string.h>

#include "func/alu.h"

#define TEX_MAX_DIM (1ull << 31)
#define TEX_MAX_EXTENT (1ull << 48)

const char *tex_desc_check(const struct tex_desc *d)
{
    if (d->magic != TEX_DESC_MAGIC && d->magic != SURF_DESC_MAGIC)
        return "not a texture or surface object";
    if (d->res != TEX_RES_ARRAY && d->res != TEX_RES_LINEAR && d->res != TEX_RES_PITCH2D)
        return "bad resource type";
    if (d->magic == SURF_DESC_MAGIC && d->res != TEX_RES_ARRAY)
        return "a surface object must name a CUDA array";
    if (d->dims < 1 || d->dims > 3 || (d->layered && d->dims > 2))
        return "bad dimensions";
    if (d->nchan != 1 && d->nchan != 2 && d->nchan != 4)
        return "bad channel count";
    if (d->chan_bits != 8 && d->chan_bits != 16 && d->chan_bits != 32)
        return "bad channel size";
    if (d->kind > TEX_KIND_FLOAT || (d->kind == TEX_KIND_FLOAT && d->chan_bits == 8))
        return "bad channel format";
    for (int k = 0; k < 3; k++)
        if (d->addr[k] > TEX_ADDR_BORDER)
            return "bad address mode";
    if (d->width < 1 || d->height < 1 || d->depth < 1 || d->layers < 1 ||
        d->width > TEX_MAX_DIM || d->height > TEX_MAX_DIM || d->depth > TEX_MAX_DIM ||
        d->layers > TEX_MAX_DIM)
        return "bad size";
    if (d->pitch < d->width * tex_texel_bytes(d) || d->pitch > (1ull << 40))
        return "pitch smaller than a row";
    uint64_t rows, planes = (d->layered ? d->layers : d->depth) - 1, a, b;
    if (__builtin_mul_overflow(d->pitch, d->height, &rows) ||
        ((d->height > 1 || d->depth > 1 || d->layers > 1) && d->slice < rows))
        return "slice smaller than its rows";
    /* the extent (tex_extent) must not overflow: a descriptor can be garbage */
    if (__builtin_mul_overflow(planes, d->slice, &a) ||
        __builtin_mul_overflow(d->height - 1, d->pitch, &b) || a > TEX_MAX_EXTENT ||
        b > TEX_MAX_EXTENT)
        return "resource too large";
    return NULL;
}

uint64_t tex_extent(const struct tex_desc *d)
{
    if (tex_desc_check(d))
        return 0;
    uint64_t planes = d->layered ? d->layers : d->depth;
    return (planes - 1) * d->slice + (d->height - 1) * d->pitch +
           d->width * tex_texel_bytes(d);
}

int tex_returns_float(const struct tex_desc *d)
{
    return d->kind == TEX_KIND_FLOAT || (d->read_normalized && d->chan_bits <= 16);
}

/* Channel c of the texel at p as an integer (sign- or zero-extended). */
static uint32_t chan_int(const struct tex_desc *d, const uint8_t *p, unsigned c)
{
    unsigned nb = d->chan_bits / 8;
    uint32_t u = 0;
    memcpy(&u, p + c * nb, nb);
    if (d->kind == TEX_KIND_SIGNED && nb < 4) {
        unsigned sh = 32 - d->chan_bits;
        u = (uint32_t)((int32_t)(u << sh) >> sh);
    }
    return u;
}

/* Channel c of the texel at p as a float (float channels, or normalized). */
static float chan_float(const struct tex_desc *d, const uint8_t *p, unsigned c)
{
    uint32_t u = chan_int(d, p, c);
    if (d->kind == TEX_KIND_FLOAT) {
        if (d->chan_bits == 16)
            return (float)alu_half_to_double((uint16_t)u, ALU_HALF_F16);
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    if (d->kind == TEX_KIND_UNSIGNED)
        return (float)u / (float)((1u << d->chan_bits) - 1);
    float v = (float)(int32_t)u / (float)((1u << (d->chan_bits - 1)) - 1);
    return v < -1.0f ? -1.0f : v;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* The four components of a texel (or of the border when p is NULL):
 * floats in f (tex_returns_float) or integers in u. */
static void texel(const struct tex_desc *d, const uint8_t *p, float f[4], uint32_t u[4])
{
    int isf = tex_returns_float(d);
    for (unsigned c = 0; c < 4; c++) {
        if (!p) {
            f[c] = d->border[c];
            u[c] = (uint32_t)(int32_t)d->border[c];
        } else if (c < d->nchan) {
            if (isf)
                f[c] = chan_float(d, p, c);
            else
                u[c] = chan_int(d, p, c);
        } else {
            f[c] = c == 3 ? 1.0f : 0.0f;
            u[c] = c == 3 ? 1u : 0u;
        }
    }
}

/* The addressing mode of dimension k as applied to texel indexes. */
static unsigned eff_mode(const struct tex_desc *d, unsigned k)
{
    unsigned m = d->addr[k];
    if ((m == TEX_ADDR_WRAP || m == TEX_ADDR_MIRROR) && !d->norm_coords)
        return TEX_ADDR_CLAMP;
    return m;
}

/* Index i of a dimension of n texels under mode m: 1 and *out, or 0 when
 * it falls on the border. */
static int tex_index(int64_t i, uint64_t n, unsigned m, int64_t *out)
{
    int64_t N = (int64_t)n;
    if (m == TEX_ADDR_WRAP) {
        i %= N;
        if (i < 0)
            i += N;
    } else if (m == TEX_ADDR_BORDER) {
        if (i < 0 || i >= N)
            return 0;
    } else {
        i = i < 0 ? 0 : i >= N ? N - 1 : i;
    }
    *out = i;
    return 1;
}

/* A float coordinate of dimension k in texel space (normalized coordinates
 * wrapped or mirrored into [0, 1] first), kept in a range whose floor fits
 * an int64. */
static float tex_coord(const struct tex_desc *d, unsigned k, float x, uint64_t n)
{
    if (isnan(x))
        x = 0.0f;
    if (d->norm_coords) {
        if (d->addr[k] == TEX_ADDR_WRAP && isfinite(x)) {
            x -= floorf(x);
        } else if (d->addr[k] == TEX_ADDR_MIRROR && isfinite(x)) {
            float fl = floorf(x);
            x -= fl;
            if (fmodf(fl, 2.0f) != 0.0f)
                x = 1.0f - x;
        }
        x *= (float)n;
    }
    const float lim = 1e12f;
    return x < -lim ? -lim : x > lim ? lim : x;
}

static uint64_t texel_off(const struct tex_desc *d, const int64_t idx[3], int32_t layer)
{
    uint64_t plane = d->layered ? (uint64_t)layer : (uint64_t)idx[2];
    return plane * d->slice + (uint64_t)idx[1] * d->pitch +
           (uint64_t)idx[0] * tex_texel_bytes(d);
}

static int32_t clamp_layer(const struct tex_desc *d, int32_t layer)
{
    if (!d->layered || layer < 0)
        return 0;
    return (uint64_t)layer >= d->layers ? (int32_t)(d->layers - 1) : layer;
}

static void put(const struct tex_desc *d, const float f[4], const uint32_t u[4], uint32_t out[4])
{
    int isf = tex_returns_float(d);
    for (unsigned c = 0; c < 4; c++)
        out[c] = isf ? fbits(f[c]) : u[c];
}

/* The 9-bit fixed-point weight (8 fractional bits) of a fraction in [0, 1). */
static float tex_weight(float frac)
{
    return nearbyintf(frac * 256.0f) / 256.0f;
}

void tex_fetch(const struct tex_desc *d, const uint8_t *data, int int_coords, const float fc[3],
               const int32_t ic[3], int32_t layer, uint32_t out[4], uint64_t *first)
{
    const uint64_t n[3] = {d->width, d->height, d->depth};
    unsigned nd = d->dims;
    float f[4] = {0, 0, 0, 0};
    uint32_t u[4] = {0, 0, 0, 0};
    layer = clamp_layer(d, layer);
    *first = 0;
    if (int_coords || !d->filter_linear || !tex_returns_float(d)) {
        int64_t idx[3] = {0, 0, 0};
        int border = 0;
        for (unsigned k = 0; k < nd; k++) {
            int64_t i = int_coords ? ic[k] : (int64_t)floorf(tex_coord(d, k, fc[k], n[k]));
            if (int_coords && d->res == TEX_RES_LINEAR) {
                if (i < 0 || (uint64_t)i >= n[k]) {
                    memset(out, 0, 4 * sizeof *out);
                    return;
                }
                idx[k] = i;
            } else if (!tex_index(i, n[k], int_coords && eff_mode(d, k) == TEX_ADDR_MIRROR
                                                   ? TEX_ADDR_CLAMP : eff_mode(d, k), &idx[k])) {
                border = 1;
            }
        }
        if (!border)
            *first = texel_off(d, idx, layer);
        texel(d, border ? NULL : data + *first, f, u);
        put(d, f, u, out);
        return;
    }
    int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    int blo[3] = {0, 0, 0}, bhi[3] = {0, 0, 0};
    float a[3] = {0, 0, 0};
    for (unsigned k = 0; k < nd; k++) {
        float xb = tex_coord(d, k, fc[k], n[k]) - 0.5f;
        float fl = floorf(xb);
        a[k] = tex_weight(xb - fl);
        int64_t i = (int64_t)fl;
        unsigned m = eff_mode(d, k);
        blo[k] = !tex_index(i, n[k], m, &lo[k]);
        bhi[k] = !tex_index(i + 1, n[k], m, &hi[k]);
    }
    float acc[4] = {0, 0, 0, 0};
    for (unsigned corner = 0; corner < (1u << nd); corner++) {
        int64_t idx[3];
        int border = 0;
        float w = 1.0f;
        for (unsigned k = 0; k < 3; k++) {
            int up = k < nd && ((corner >> k) & 1);
            idx[k] = up ? hi[k] : lo[k];
            border |= up ? bhi[k] : blo[k];
            if (k < nd)
                w *= up ? a[k] : 1.0f - a[k];
        }
        uint64_t off = border ? 0 : texel_off(d, idx, layer);
        if (corner == 0)
            *first = off;
        texel(d, border ? NULL : data + off, f, u);
        for (unsigned c = 0; c < 4; c++)
            acc[c] += w * f[c];
    }
    put(d, acc, u, out);
}

void tex_gather(const struct tex_desc *d, const uint8_t *data, const float fc[2], int32_t layer,
                unsigned comp, uint32_t out[4], uint64_t *first)
{
    const uint64_t n[2] = {d->width, d->height};
    int64_t lo[2], hi[2];
    int blo[2], bhi[2];
    layer = clamp_layer(d, layer);
    for (unsigned k = 0; k < 2; k++) {
        float xb = tex_coord(d, k, fc[k], n[k]) - 0.5f;
        int64_t i = (int64_t)floorf(xb);
        blo[k] = !tex_index(i, n[k], eff_mode(d, k), &lo[k]);
        bhi[k] = !tex_index(i + 1, n[k], eff_mode(d, k), &hi[k]);
    }
    /* (i, j+1), (i+1, j+1), (i+1, j), (i, j) */
    static const int ux[4] = {0, 1, 1, 0}, uy[4] = {1, 1, 0, 0};
    int isf = tex_returns_float(d);
    *first = 0;
    for (unsigned q = 0; q < 4; q++) {
        int64_t idx[3] = {ux[q] ? hi[0] : lo[0], uy[q] ? hi[1] : lo[1], 0};
        int border = (ux[q] ? bhi[0] : blo[0]) || (uy[q] ? bhi[1] : blo[1]);
        uint64_t off = border ? 0 : texel_off(d, idx, layer);
        if (q == 3)
            *first = off;
        float f[4];
        uint32_t u[4];
        texel(d, border ? NULL : data + off, f, u);
        out[q] = isf ? fbits(f[comp & 3]) : u[comp & 3];
    }
}

int surf_offset(const struct tex_desc *d, int32_t x, int32_t y, int32_t z, int32_t layer,
                unsigned bytes, enum ptx_surf_mode mode, uint64_t *off)
{
    int64_t rowb = (int64_t)(d->width * tex_texel_bytes(d));
    int64_t X = x, Y = d->dims >= 2 ? y : 0, Z = d->dims >= 3 ? z : 0;
    int64_t L = d->layered ? layer : 0;
    int in = X >= 0 && X + (int64_t)bytes <= rowb && Y >= 0 && (uint64_t)Y < d->height &&
             Z >= 0 && (uint64_t)Z < d->depth && L >= 0 && (uint64_t)L < d->layers;
    if (!in) {
        if (mode != PTX_SURF_CLAMP || (int64_t)bytes > rowb)
            return 0;
        int64_t xmax = (rowb - (int64_t)bytes) / bytes * bytes;
        X = X < 0 ? 0 : X > xmax ? xmax : X;
        Y = Y < 0 ? 0 : (uint64_t)Y >= d->height ? (int64_t)d->height - 1 : Y;
        Z = Z < 0 ? 0 : (uint64_t)Z >= d->depth ? (int64_t)d->depth - 1 : Z;
        L = L < 0 ? 0 : (uint64_t)L >= d->layers ? (int64_t)d->layers - 1 : L;
    }
    uint64_t plane = d->layered ? (uint64_t)L : (uint64_t)Z;
    *off = plane * d->slice + (uint64_t)Y * d->pitch + (uint64_t)X;
    return 1;
}
