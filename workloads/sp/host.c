/* host.c: the sp workload: survey propagation on a random 3-SAT formula
 * (clause-to-variable ratio 4.2), a fixed number of Jacobi iterations of
 * sp_var and sp_clause on the GPU, then the variables' biases (sp_bias), in
 * the manner of the Lonestar GPU suite's sp (MeDiC's SP).  Checked against a
 * CPU reference that does the same float operations in the same order: every
 * final survey and every bias. */
#include "workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define SP_BLOCK 256u
#define SP_ITERS 10u
/* The kernels and the CPU reference do the same IEEE single-precision
 * operations in the same order (the sums of products as fmaf on both sides, so
 * no compiler contracts them differently), and the simulator executes them with
 * the host's float arithmetic: the results agree bit for bit (the message gives
 * the largest difference, 0 when measured).  The check allows 1e-6 absolute on
 * these values in [0, 1], room for a libm whose fmaf or division is off by an
 * ulp and nothing more: a wrong exclusion or zero rule changes a survey by far
 * more. */
#define SP_ABS_TOL 1e-6f

struct sp_formula {
    uint32_t n, m, e;   /* variables, clauses, edges (3 m) */
    int32_t *lit;       /* e literals: variable << 1 | negated; clause a's at 3a .. 3a + 2 */
    int32_t *var_start; /* n + 1 offsets into var_edge */
    int32_t *var_edge;  /* e entries by variable: edge (3a + k) << 1 | negated */
};

/* m = 4.2 n clauses (Lonestar's sp draws random K-SAT near the 3-SAT
 * threshold), each of 3 distinct variables uniform in [0, n) with random
 * signs; a variable's degree is then Poisson-like with mean 12.6. */
static void sp_make_formula(struct sp_formula *f, uint32_t n, struct rng *rng)
{
    uint32_t m = (uint32_t)((uint64_t)n * 42 / 10), e = 3 * m;
    f->n = n;
    f->m = m;
    f->e = e;
    f->lit = xmalloc((size_t)e * sizeof *f->lit);
    for (uint32_t a = 0; a < m; a++) {
        uint32_t v[3];
        for (uint32_t k = 0; k < 3; k++) {
            do
                v[k] = rng_below(rng, n);
            while ((k > 0 && v[k] == v[0]) || (k > 1 && v[k] == v[1]));
            f->lit[3 * a + k] = (int32_t)(v[k] << 1 | rng_below(rng, 2));
        }
    }
    f->var_start = xcalloc((size_t)n + 1, sizeof *f->var_start);
    for (uint32_t x = 0; x < e; x++)
        f->var_start[(f->lit[x] >> 1) + 1]++;
    for (uint32_t v = 0; v < n; v++)
        f->var_start[v + 1] += f->var_start[v];
    int32_t *fill = xmalloc((size_t)n * sizeof *fill);
    memcpy(fill, f->var_start, (size_t)n * sizeof *fill);
    f->var_edge = xmalloc((size_t)e * sizeof *f->var_edge);
    for (uint32_t x = 0; x < e; x++) {
        int32_t p = fill[f->lit[x] >> 1]++;
        f->var_edge[p] = (int32_t)(x << 1) | (f->lit[x] & 1);
    }
    free(fill);
}

static void sp_free_formula(struct sp_formula *f)
{
    free(f->var_edge);
    free(f->var_start);
    free(f->lit);
}

/* ---- CPU reference: sp.cu's kernels, operation for operation ---- */

/* a variable's products (sp.cu's struct sp_prod, 16 bytes there as here) */
struct sp_prod {
    float pos, neg;     /* products of the non-zero factors (1 - eta), by sign */
    int32_t zpos, zneg; /* and how many factors are zero */
};

static void sp_var_cpu(const struct sp_formula *f, const float *eta, struct sp_prod *prod)
{
    for (uint32_t v = 0; v < f->n; v++) {
        struct sp_prod p = {1.0f, 1.0f, 0, 0};
        for (int32_t q = f->var_start[v]; q < f->var_start[v + 1]; q++) {
            int32_t x = f->var_edge[q];
            float g = 1.0f - eta[x >> 1];
            if (x & 1) {
                if (g == 0.0f)
                    p.zneg++;
                else
                    p.neg *= g;
            } else {
                if (g == 0.0f)
                    p.zpos++;
                else
                    p.pos *= g;
            }
        }
        prod[v] = p;
    }
}

static float sp_div(float num, float den)
{
    return den > 0.0f ? num / den : 0.0f;
}

/* Pi_u / (Pi_u + Pi_s + Pi_0) of an edge with factor g = 1 - eta and sign neg */
static float sp_ratio(struct sp_prod p, float g, int neg)
{
    float same = neg ? p.neg : p.pos;
    int32_t zsame = neg ? p.zneg : p.zpos, zopp = neg ? p.zpos : p.zneg;
    float opp = zopp ? 0.0f : (neg ? p.pos : p.neg);
    float ps;
    if (g == 0.0f)
        ps = zsame > 1 ? 0.0f : same;
    else
        ps = zsame > 0 ? 0.0f : fminf(same / g, 1.0f);
    float pi_u = (1.0f - opp) * ps;
    float den = fmaf(ps, opp, fmaf(1.0f - ps, opp, pi_u));
    return sp_div(pi_u, den);
}

static void sp_clause_cpu(const struct sp_formula *f, const struct sp_prod *prod,
                          const float *eta, float *eta_out)
{
    for (uint32_t a = 0; a < f->m; a++) {
        float r[3];
        for (uint32_t k = 0; k < 3; k++) {
            int32_t x = f->lit[3 * a + k];
            r[k] = sp_ratio(prod[x >> 1], 1.0f - eta[3 * a + k], x & 1);
        }
        eta_out[3 * a] = r[1] * r[2];
        eta_out[3 * a + 1] = r[0] * r[2];
        eta_out[3 * a + 2] = r[0] * r[1];
    }
}

static void sp_bias_cpu(const struct sp_formula *f, const struct sp_prod *prod, float *w_pos,
                        float *w_neg)
{
    for (uint32_t v = 0; v < f->n; v++) {
        struct sp_prod p = prod[v];
        float all_pos = p.zpos ? 0.0f : p.pos, all_neg = p.zneg ? 0.0f : p.neg;
        float pi_p = (1.0f - all_pos) * all_neg;
        float pi_n = (1.0f - all_neg) * all_pos;
        float den = fmaf(all_pos, all_neg, fmaf(1.0f - all_neg, all_pos, pi_p));
        w_pos[v] = sp_div(pi_p, den);
        w_neg[v] = sp_div(pi_n, den);
    }
}

static int sp_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                  size_t detail_len)
{
    static const uint32_t sizes[] = {1024, 32768, 262144};
    struct rng rng;
    struct sp_formula f;
    rng_seed(&rng, a->seed);
    sp_make_formula(&f, sizes[a->size], &rng);
    uint32_t n = f.n, m = f.m, e = f.e;
    int32_t num_vars = (int32_t)n, num_clauses = (int32_t)m;
    /* initial surveys uniform in (0, 1): k 2^-23 for k in [1, 2^23 - 1] */
    float *cur = xmalloc((size_t)e * sizeof *cur), *next = xmalloc((size_t)e * sizeof *next);
    for (uint32_t x = 0; x < e; x++)
        cur[x] = (float)(1 + rng_below(&rng, (1u << 23) - 1)) * 0x1p-23f;
    float *eta = xmalloc((size_t)e * sizeof *eta);
    struct sp_prod *prod = xmalloc((size_t)n * sizeof *prod);
    float *w_pos = xmalloc((size_t)n * sizeof *w_pos), *w_neg = xmalloc((size_t)n * sizeof *w_neg);
    float *want_pos = xmalloc((size_t)n * sizeof *want_pos);
    float *want_neg = xmalloc((size_t)n * sizeof *want_neg);
    float *nan = xmalloc((size_t)e * sizeof *nan); /* e >= 4 n floats: enough for prod */
    for (uint32_t x = 0; x < e; x++)
        nan[x] = NAN;
    ws_devptr d_lit = 0, d_start = 0, d_edge = 0, d_prod = 0, d_eta[2] = {0, 0};
    ws_devptr d_wpos = 0, d_wneg = 0;
    int rc = WS_OK;
    size_t nb = (size_t)n * sizeof(float), eb = (size_t)e * sizeof(float);
    size_t sb = ((size_t)n + 1) * sizeof(int32_t), pb = (size_t)n * sizeof(struct sp_prod);
    WL_TRY_OUT(ws_malloc(gpu, eb, &d_lit));
    WL_TRY_OUT(ws_malloc(gpu, sb, &d_start));
    WL_TRY_OUT(ws_malloc(gpu, eb, &d_edge));
    WL_TRY_OUT(ws_malloc(gpu, pb, &d_prod));
    WL_TRY_OUT(ws_malloc(gpu, eb, &d_eta[0]));
    WL_TRY_OUT(ws_malloc(gpu, eb, &d_eta[1]));
    WL_TRY_OUT(ws_malloc(gpu, nb, &d_wpos));
    WL_TRY_OUT(ws_malloc(gpu, nb, &d_wneg));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_lit, f.lit, eb));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_start, f.var_start, sb));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_edge, f.var_edge, eb));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_eta[0], cur, eb));
    /* what a kernel leaves unwritten stays NaN and fails the check */
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_eta[1], nan, eb));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_prod, nan, pb));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_wpos, nan, nb));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_wneg, nan, nb));
    ws_dim3 vgrid = ws_dim((n + SP_BLOCK - 1) / SP_BLOCK, 1, 1);
    ws_dim3 cgrid = ws_dim((m + SP_BLOCK - 1) / SP_BLOCK, 1, 1);
    ws_dim3 block = ws_dim(SP_BLOCK, 1, 1);
    for (uint32_t it = 0; it <= SP_ITERS; it++) {
        ws_devptr d_cur = d_eta[it & 1], d_next = d_eta[(it + 1) & 1];
        void *var_args[] = {&d_start, &d_edge, &d_cur, &d_prod, &num_vars};
        void *clause_args[] = {&d_lit, &d_prod, &d_cur, &d_next, &num_clauses};
        WL_TRY_OUT(ws_launch(mod, "sp_var", vgrid, block, 0, var_args));
        if (it < SP_ITERS)
            WL_TRY_OUT(ws_launch(mod, "sp_clause", cgrid, block, 0, clause_args));
    }
    /* prod now holds the products over the final surveys */
    void *bias_args[] = {&d_prod, &d_wpos, &d_wneg, &num_vars};
    WL_TRY_OUT(ws_launch(mod, "sp_bias", vgrid, block, 0, bias_args));
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, eta, d_eta[SP_ITERS & 1], eb));
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, w_pos, d_wpos, nb));
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, w_neg, d_wneg, nb));

    for (uint32_t it = 0; it < SP_ITERS; it++) {
        sp_var_cpu(&f, cur, prod);
        sp_clause_cpu(&f, prod, cur, next);
        float *t = cur;
        cur = next;
        next = t;
    }
    sp_var_cpu(&f, cur, prod);
    sp_bias_cpu(&f, prod, want_pos, want_neg);
    char check[192];
    rc = wl_check_f32("eta", cur, eta, e, 0.0f, SP_ABS_TOL, check, sizeof check);
    if (rc == WS_OK)
        rc = wl_check_f32("w_pos", want_pos, w_pos, n, 0.0f, SP_ABS_TOL, check, sizeof check);
    if (rc == WS_OK)
        rc = wl_check_f32("w_neg", want_neg, w_neg, n, 0.0f, SP_ABS_TOL, check, sizeof check);
    uint32_t strong = 0; /* variables with |W+ - W-| > 0.5: what decimation would fix first */
    float worst = 0.0f;  /* the largest difference from the reference */
    for (uint32_t v = 0; v < n; v++) {
        strong += fabsf(want_pos[v] - want_neg[v]) > 0.5f;
        worst = fmaxf(worst, fmaxf(fabsf(w_pos[v] - want_pos[v]), fabsf(w_neg[v] - want_neg[v])));
    }
    for (uint32_t x = 0; x < e; x++)
        worst = fmaxf(worst, fabsf(eta[x] - cur[x]));
    if (rc != WS_OK)
        snprintf(detail, detail_len, "sp: %u variables, %u clauses, %u iterations: %s", n, m,
                 SP_ITERS, check);
    else
        snprintf(detail, detail_len,
                 "sp: %u variables, %u clauses, %u iterations: %u surveys and 2 x %u biases "
                 "match the CPU reference (largest difference %g; %u variables biased "
                 "over 0.5)",
                 n, m, SP_ITERS, e, n, (double)worst, strong);
out:
    if (d_wneg)
        ws_free(gpu, d_wneg);
    if (d_wpos)
        ws_free(gpu, d_wpos);
    for (int k = 1; k >= 0; k--)
        if (d_eta[k])
            ws_free(gpu, d_eta[k]);
    if (d_prod)
        ws_free(gpu, d_prod);
    if (d_edge)
        ws_free(gpu, d_edge);
    if (d_start)
        ws_free(gpu, d_start);
    if (d_lit)
        ws_free(gpu, d_lit);
    free(nan);
    free(want_neg);
    free(want_pos);
    free(w_neg);
    free(w_pos);
    free(prod);
    free(eta);
    free(next);
    free(cur);
    sp_free_formula(&f);
    return rc;
}

const struct workload workload_sp = {
    .name = "sp",
    .desc = "survey propagation on a random 3-SAT formula (4.2 clauses per variable): fixed "
            "Jacobi iterations of per-variable and per-clause kernels (Lonestar-style)",
    .run = sp_run,
};
