/* host.c: the bh workload: one time step of a Barnes-Hut N-body simulation
 * of a Plummer sphere, in the manner of the Lonestar GPU suite's BH (MeDiC's
 * BH).  The host builds the octree and sorts the bodies in its depth-first
 * order (Lonestar does both on the GPU; the force calculation, which
 * dominates BH's run time, is what runs on the GPU here); the GPU computes
 * every body's acceleration by a warp-wide tree walk (bh_force) and advances
 * the bodies by one step (bh_advance).  A CPU walk of the same tree for each
 * warp of 32 bodies, in the same order in float, checks the number of nodes
 * each walk visited (exactly), the accelerations, velocities and positions. */
#include "workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define BH_BLOCK 256u
#define BH_MAX_DEPTH 32 /* deeper cells hold their (at most 8) bodies as leaves */
#define BH_THETA2 0.25f /* opening angle theta = 0.5 */
#define BH_EPS2 0.0025f /* softening epsilon = 0.05 */
#define BH_DT 0.025f
#define BH_TOL 1e-5f /* acceleration: relative to the sum of the terms' magnitudes */

struct bh_bodies {
    uint32_t n;
    float *x, *y, *z, *vx, *vy, *vz, *m;
};

/* The tree as bh.cu reads it: node 0 is the root, each cell's children are
 * consecutive nodes; child[j] = first << 4 | (count - 1) for a cell, -1 for
 * a leaf (one body); x, y, z, m: a cell's centre of mass and total mass, a
 * leaf's body; size2: a cell's squared side (0 for a leaf). */
struct bh_tree {
    uint32_t nodes, cap, cells, depth;
    float *x, *y, *z, *m, *size2;
    int32_t *child;
};

static void bh_unit_vector(struct rng *rng, double r, double *x, double *y, double *z)
{
    double c = 2.0 * rng_float(rng) - 1.0, s = sqrt(1.0 - c * c);
    double phi = 6.283185307179586 * rng_float(rng);
    *x = r * s * cos(phi);
    *y = r * s * sin(phi);
    *z = r * c;
}

/* A Plummer sphere in N-body units (G = 1, total mass 1, equal masses): radii
 * from the inverted cumulative mass with the outermost 0.1 % of the mass cut
 * off (r < 38.7 scale radii), speeds by von Neumann rejection from the
 * distribution function, isotropic directions. */
static void bh_make_bodies(struct bh_bodies *b, uint32_t n, uint64_t seed)
{
    struct rng rng;
    rng_seed(&rng, seed);
    b->n = n;
    float **arrays[] = {&b->x, &b->y, &b->z, &b->vx, &b->vy, &b->vz, &b->m};
    for (size_t k = 0; k < sizeof arrays / sizeof *arrays; k++)
        *arrays[k] = xmalloc((size_t)n * sizeof(float));
    const double rscale = 3.0 * 3.141592653589793 / 16.0, vscale = 1.0 / sqrt(rscale);
    for (uint32_t i = 0; i < n; i++) {
        double u = 0.999 * (1.0 - rng_float(&rng)); /* (0, 0.999] */
        double r = 1.0 / sqrt(pow(u, -2.0 / 3.0) - 1.0), q, g, px, py, pz, ux, uy, uz;
        bh_unit_vector(&rng, r * rscale, &px, &py, &pz);
        do {
            q = rng_float(&rng);
            g = 0.1 * rng_float(&rng);
        } while (g > q * q * pow(1.0 - q * q, 3.5));
        bh_unit_vector(&rng, q * sqrt(2.0) * pow(1.0 + r * r, -0.25) * vscale, &ux, &uy, &uz);
        b->x[i] = (float)px;
        b->y[i] = (float)py;
        b->z[i] = (float)pz;
        b->vx[i] = (float)ux;
        b->vy[i] = (float)uy;
        b->vz[i] = (float)uz;
        b->m[i] = 1.0f / (float)n;
    }
}

static uint32_t bh_alloc(struct bh_tree *t, uint32_t count)
{
    if (t->nodes + count > t->cap) {
        t->cap = 2 * (t->nodes + count);
        float **f[] = {&t->x, &t->y, &t->z, &t->m, &t->size2};
        for (size_t k = 0; k < sizeof f / sizeof *f; k++)
            *f[k] = xrealloc(*f[k], (size_t)t->cap * sizeof(float));
        t->child = xrealloc(t->child, (size_t)t->cap * sizeof *t->child);
    }
    uint32_t first = t->nodes;
    t->nodes += count;
    return first;
}

static void bh_leaf(struct bh_tree *t, uint32_t slot, const struct bh_bodies *b, uint32_t i)
{
    t->x[slot] = b->x[i];
    t->y[slot] = b->y[i];
    t->z[slot] = b->z[i];
    t->m[slot] = b->m[i];
    t->size2[slot] = 0.0f;
    t->child[slot] = -1;
}

/* Fill node `slot` with the cell of side 2 half around (cx, cy, cz) that
 * holds bodies perm[0, count): group them by octant (in place, octant order
 * 0-7, bit 0 = x above the centre), give the non-empty octants consecutive
 * nodes and fill those.  Leaves the bodies in depth-first order.  Returns 0,
 * or -1 when more than 8 bodies reach a cell at BH_MAX_DEPTH. */
static int bh_build(struct bh_tree *t, uint32_t slot, const struct bh_bodies *b, uint32_t *perm,
                    uint32_t *tmp, uint32_t count, double cx, double cy, double cz,
                    double half, uint32_t depth)
{
    if (depth > t->depth)
        t->depth = depth;
    if (count == 1) {
        bh_leaf(t, slot, b, perm[0]);
        return 0;
    }
    t->cells++;
    uint32_t start[9] = {0}, nkids = 0, first;
    double sm = 0, sx = 0, sy = 0, sz = 0;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t i = perm[k];
        sm += b->m[i];
        sx += (double)b->m[i] * b->x[i];
        sy += (double)b->m[i] * b->y[i];
        sz += (double)b->m[i] * b->z[i];
    }
    t->x[slot] = (float)(sx / sm);
    t->y[slot] = (float)(sy / sm);
    t->z[slot] = (float)(sz / sm);
    t->m[slot] = (float)sm;
    t->size2[slot] = (float)(4.0 * half * half);
    if (depth == BH_MAX_DEPTH) { /* a bucket: its bodies are its children */
        if (count > 8)
            return -1;
        first = bh_alloc(t, count);
        for (uint32_t k = 0; k < count; k++)
            bh_leaf(t, first + k, b, perm[k]);
        t->child[slot] = (int32_t)(first << 4 | (count - 1));
        return 0;
    }
    uint8_t *oct = xmalloc(count);
    for (uint32_t k = 0; k < count; k++) {
        uint32_t i = perm[k];
        oct[k] = (uint8_t)((b->x[i] >= cx) | (b->y[i] >= cy) << 1 | (b->z[i] >= cz) << 2);
        start[oct[k] + 1]++;
    }
    for (int o = 0; o < 8; o++) {
        nkids += start[o + 1] != 0;
        start[o + 1] += start[o];
    }
    uint32_t fill[8];
    memcpy(fill, start, sizeof fill);
    for (uint32_t k = 0; k < count; k++)
        tmp[fill[oct[k]]++] = perm[k];
    memcpy(perm, tmp, (size_t)count * sizeof *perm);
    free(oct);
    first = bh_alloc(t, nkids);
    t->child[slot] = (int32_t)(first << 4 | (nkids - 1));
    double h = half / 2;
    for (int o = 0, kid = 0; o < 8; o++) {
        uint32_t c = start[o + 1] - start[o];
        if (c == 0)
            continue;
        if (bh_build(t, first + (uint32_t)kid++, b, perm + start[o], tmp, c,
                     cx + (o & 1 ? h : -h), cy + (o & 2 ? h : -h), cz + (o & 4 ? h : -h), h,
                     depth + 1))
            return -1;
    }
    return 0;
}

/* Build the tree of b's bodies and renumber the bodies in its depth-first
 * order (as Lonestar's sort kernel does). */
static int bh_make_tree(struct bh_tree *t, struct bh_bodies *b)
{
    uint32_t n = b->n;
    memset(t, 0, sizeof *t);
    double lo[3] = {b->x[0], b->y[0], b->z[0]}, hi[3] = {lo[0], lo[1], lo[2]};
    for (uint32_t i = 0; i < n; i++) {
        const float p[3] = {b->x[i], b->y[i], b->z[i]};
        for (int d = 0; d < 3; d++) {
            lo[d] = p[d] < lo[d] ? p[d] : lo[d];
            hi[d] = p[d] > hi[d] ? p[d] : hi[d];
        }
    }
    double half = 0;
    for (int d = 0; d < 3; d++)
        half = (hi[d] - lo[d]) / 2 > half ? (hi[d] - lo[d]) / 2 : half;
    half *= 1.0001; /* every body strictly inside */
    uint32_t *perm = xmalloc((size_t)n * sizeof *perm), *tmp = xmalloc((size_t)n * sizeof *tmp);
    for (uint32_t i = 0; i < n; i++)
        perm[i] = i;
    uint32_t root = bh_alloc(t, 1);
    int rc = bh_build(t, root, b, perm, tmp, n, (lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2,
                      (lo[2] + hi[2]) / 2, half, 0);
    float **arrays[] = {&b->x, &b->y, &b->z, &b->vx, &b->vy, &b->vz, &b->m};
    for (size_t k = 0; k < sizeof arrays / sizeof *arrays; k++) {
        float *sorted = xmalloc((size_t)n * sizeof(float));
        for (uint32_t i = 0; i < n; i++)
            sorted[i] = (*arrays[k])[perm[i]];
        free(*arrays[k]);
        *arrays[k] = sorted;
    }
    free(tmp);
    free(perm);
    return rc;
}

/* CPU reference: bh_force's walk for the warp of bodies [first, first +
 * count) (count <= 32), in float with the same operations in the same order
 * (1 / sqrtf for rsqrtf): a cell is opened unless every body of the warp may
 * take it whole.  Writes the accelerations to ax, ay, az (indexed by body)
 * and to mag each body's sum of the terms' magnitudes, the scale of the
 * rounding differences; returns the number of nodes visited. */
static int32_t bh_walk_warp(const struct bh_tree *t, const struct bh_bodies *b,
                            uint32_t first, uint32_t count, float *ax, float *ay, float *az,
                            float *mag)
{
    int32_t stack[BH_MAX_DEPTH + 8], sp = 0, e = 0, n = 0;
    float dx[32], dy[32], dz[32], d2[32];
    for (uint32_t i = first; i < first + count; i++)
        ax[i] = ay[i] = az[i] = mag[i] = 0.0f;
    do {
        int32_t j = e >> 4, kids = t->child[j], open = 0;
        for (uint32_t l = 0; l < count; l++) {
            uint32_t i = first + l;
            dx[l] = t->x[j] - b->x[i];
            dy[l] = t->y[j] - b->y[i];
            dz[l] = t->z[j] - b->z[i];
            d2[l] = fmaf(dz[l], dz[l], fmaf(dy[l], dy[l], dx[l] * dx[l]));
            if (kids >= 0 && !(t->size2[j] < BH_THETA2 * d2[l]))
                open = 1;
        }
        n++;
        if (open) {
            if (e & 15)
                stack[sp++] = e + 15;
            e = kids;
            continue; /* the do-while tests e >= 0, true here */
        }
        for (uint32_t l = 0; l < count; l++) {
            uint32_t i = first + l;
            float inv = 1.0f / sqrtf(d2[l] + BH_EPS2);
            float s = t->m[j] * inv * inv * inv;
            ax[i] = fmaf(dx[l], s, ax[i]);
            ay[i] = fmaf(dy[l], s, ay[i]);
            az[i] = fmaf(dz[l], s, az[i]);
            mag[i] += s * sqrtf(d2[l]);
        }
        if (e & 15)
            e += 15;
        else if (sp > 0)
            e = stack[--sp];
        else
            e = -1;
    } while (e >= 0);
    return n;
}

/* Compare block k (0-2: acceleration, 3-5: velocity, 6-8: position; x, y, z
 * each) of want and got, n floats a block: body i's value must lie within
 * tol[i] + 1e-6 |want| (NaN fails). */
static int bh_check(const float *want, const float *got, const float *tol, uint32_t n, int k,
                    char *detail, size_t detail_len)
{
    static const char *const name[9] = {"accx", "accy", "accz", "velx", "vely",
                                         "velz", "posx", "posy", "posz"};
    for (uint32_t i = 0; i < n; i++) {
        float w = want[(size_t)k * n + i], g = got[(size_t)k * n + i];
        if (!(fabsf(w - g) <= tol[i] + 1e-6f * fabsf(w))) {
            snprintf(detail, detail_len, "%s[%u]: expected %.9g, got %.9g", name[k], i,
                     (double)w, (double)g);
            return WS_ERR_VERIFY;
        }
    }
    return WS_OK;
}

static int bh_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                  size_t detail_len)
{
    static const uint32_t sizes[] = {1024, 16384, 131072};
    struct bh_bodies b;
    struct bh_tree t;
    bh_make_bodies(&b, sizes[a->size], a->seed);
    uint32_t n = b.n;
    int rc = WS_OK;
    int tree_rc = bh_make_tree(&t, &b);
    size_t nb = (size_t)n * sizeof(float), tb = (size_t)t.nodes * sizeof(float);
    float *got = xmalloc(9 * nb); /* acceleration, velocity, position: x block, y, z */
    float *want = xmalloc(9 * nb), *tol = xmalloc(nb); /* tol: magnitudes, then tolerances */
    int32_t *visits = xmalloc((size_t)n * sizeof *visits);
    int32_t *wvisits = xmalloc((size_t)n * sizeof *wvisits);
    int32_t nbodies = (int32_t)n;
    float theta2 = BH_THETA2, eps2 = BH_EPS2, dt = BH_DT;
    /* the tree: x, y, z, m, size2, child; the bodies: x, y, z, vx, vy, vz;
     * the accelerations: x, y, z; visits */
    enum { TX, TY, TZ, TM, TS, TC, BX, BY, BZ, VX, VY, VZ, AX, AY, AZ, VIS, NDEV };
    ws_devptr d[NDEV] = {0};
    if (tree_rc) {
        rc = WS_ERR_VERIFY;
        snprintf(detail, detail_len, "bh: more than 8 bodies in a cell at depth %d",
                 BH_MAX_DEPTH);
        goto out;
    }
    for (int k = 0; k < NDEV; k++)
        WL_TRY_OUT(ws_malloc(gpu, k <= TC ? tb : nb, &d[k]));
    const float *tree[5] = {t.x, t.y, t.z, t.m, t.size2};
    for (int k = 0; k < 5; k++)
        WL_TRY_OUT(ws_memcpy_htod(gpu, d[TX + k], tree[k], tb));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d[TC], t.child, tb));
    const float *body[6] = {b.x, b.y, b.z, b.vx, b.vy, b.vz};
    for (int k = 0; k < 6; k++)
        WL_TRY_OUT(ws_memcpy_htod(gpu, d[BX + k], body[k], nb));
    for (size_t i = 0; i < 3 * (size_t)n; i++)
        got[i] = NAN; /* an unwritten acceleration fails */
    for (int k = 0; k < 3; k++)
        WL_TRY_OUT(ws_memcpy_htod(gpu, d[AX + k], got + (size_t)k * n, nb));
    WL_TRY_OUT(ws_memset(gpu, d[VIS], 0xff, nb)); /* -1 visits */
    ws_dim3 grid = ws_dim((n + BH_BLOCK - 1) / BH_BLOCK, 1, 1);
    ws_dim3 block = ws_dim(BH_BLOCK, 1, 1);
    void *force_args[] = {&d[TX], &d[TY], &d[TZ], &d[TM], &d[TC], &d[TS],
                          &d[BX], &d[BY], &d[BZ], &d[AX], &d[AY], &d[AZ],
                          &d[VIS], &theta2, &eps2, &nbodies};
    void *advance_args[] = {&d[BX], &d[BY], &d[BZ], &d[VX], &d[VY], &d[VZ],
                            &d[AX], &d[AY], &d[AZ], &dt, &nbodies};
    WL_TRY_OUT(ws_launch(mod, "bh_force", grid, block, 0, force_args));
    WL_TRY_OUT(ws_launch(mod, "bh_advance", grid, block, 0, advance_args));
    for (int k = 0; k < 3; k++) {
        WL_TRY_OUT(ws_memcpy_dtoh(gpu, got + (size_t)k * n, d[AX + k], nb));
        WL_TRY_OUT(ws_memcpy_dtoh(gpu, got + (size_t)(3 + k) * n, d[VX + k], nb));
        WL_TRY_OUT(ws_memcpy_dtoh(gpu, got + (size_t)(6 + k) * n, d[BX + k], nb));
    }
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, visits, d[VIS], (size_t)n * sizeof *visits));

    /* the reference: the walks, then the step from the reference accelerations */
    uint64_t total = 0;
    float *vel[3] = {b.vx, b.vy, b.vz}, *pos[3] = {b.x, b.y, b.z};
    for (uint32_t w = 0; w < n; w += 32) {
        uint32_t count = n - w < 32 ? n - w : 32;
        int32_t v = bh_walk_warp(&t, &b, w, count, want, want + n, want + 2 * (size_t)n, tol);
        for (uint32_t i = w; i < w + count; i++)
            wvisits[i] = v;
        total += (uint64_t)v * count;
    }
    for (int c = 0; c < 3; c++)
        for (uint32_t i = 0; i < n; i++) {
            float v = fmaf(want[(size_t)c * n + i], BH_DT, vel[c][i]);
            want[(size_t)(3 + c) * n + i] = v;
            want[(size_t)(6 + c) * n + i] = fmaf(v, BH_DT, pos[c][i]);
        }
    char check[192];
    rc = wl_check_i32("visits", wvisits, visits, n, check, sizeof check);
    /* tolerances: BH_TOL of the sum of the terms' magnitudes for an
     * acceleration, dt times that for the velocity, dt times that again for
     * the position (each also 1e-6 of the value: the step's own rounding) */
    for (int k = 0; k < 9 && rc == WS_OK; k++) {
        if (k == 0 || k == 3 || k == 6)
            for (uint32_t i = 0; i < n; i++)
                tol[i] = k == 0 ? BH_TOL * tol[i] : BH_DT * tol[i];
        rc = bh_check(want, got, tol, n, k, check, sizeof check);
    }
    if (rc == WS_OK)
        snprintf(check, sizeof check,
                 "%u accelerations, velocities and positions match the CPU reference", n);
    snprintf(detail, detail_len, "bh: %u bodies, %u nodes (%u cells, depth %u), %.1f nodes "
             "visited per walk: %s", n, t.nodes, t.cells, t.depth, (double)total / n, check);
out:
    for (int k = NDEV - 1; k >= 0; k--)
        if (d[k])
            ws_free(gpu, d[k]);
    free(wvisits);
    free(visits);
    free(tol);
    free(want);
    free(got);
    free(t.child);
    float *arrays[] = {t.x, t.y, t.z, t.m, t.size2, b.x, b.y, b.z, b.vx, b.vy, b.vz, b.m};
    for (size_t k = 0; k < sizeof arrays / sizeof *arrays; k++)
        free(arrays[k]);
    return rc;
}

const struct workload workload_bh = {
    .name = "bh",
    .desc = "Barnes-Hut N-body forces and one time step: warp-wide walks of a host-built "
            "octree of a Plummer sphere (Lonestar-style, one thread per body)",
    .run = bh_run,
};
