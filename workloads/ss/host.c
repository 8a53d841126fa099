/* host.c: the ss workload: Similarity Score from the Mars MapReduce suite (He
 * et al., PACT 2008; MeDiC's SS): the cosine similarity of every pair of n
 * documents of 128 features, one map task (thread) per pair, no reduce.
 * Checked exactly, every score, against a CPU reference that does the same
 * float operations in the same order. */
#include "workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/alloc.h"

#define SS_BLOCK 256u  /* ss.cu's block size */
#define SS_DIM 128u    /* features per document, as the Mars paper's inputs */
#define SS_LEVELS 100u /* features are integers in [0, 100), as Mars's generator */

/* ss.cu's struct ss_record: Mars's map input value */
struct ss_record {
    int32_t doc1, doc2, dim;
    float unused;
};

/* ---- CPU reference: ss.cu's arithmetic, operation by operation ---- */

static float ss_dot4(const float *a, const float *b)
{
    float x = a[0] * b[0]; /* rounded alone (a separate statement) */
    return fmaf(a[3], b[3], fmaf(a[2], b[2], fmaf(a[1], b[1], x)));
}

static float ss_score(const float *a, const float *b, uint32_t dim)
{
    float dot = 0.0f, na = 0.0f, nb = 0.0f;
    for (uint32_t k = 0; k < dim; k += 4) {
        dot = dot + ss_dot4(a + k, b + k);
        na = na + ss_dot4(a + k, a + k);
        nb = nb + ss_dot4(b + k, b + k);
    }
    float down = sqrtf(na) * sqrtf(nb);
    return dot / down;
}

static int ss_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                  size_t detail_len)
{
    /* the Mars paper's inputs are 512, 1024 and 2048 documents; small is
     * 256 so that a timing run takes about a second (512 takes 5 s) */
    static const uint32_t docs[] = {256, 1024, 2048};
    uint32_t n = docs[a->size], dim = SS_DIM;
    uint32_t ntasks = n * (n - 1) / 2;
    struct rng rng;
    rng_seed(&rng, a->seed);
    size_t mb = (size_t)n * dim * sizeof(float);
    float *m = xmalloc(mb);
    for (uint32_t d = 0; d < n; d++) {
        uint32_t nonzero = 0;
        for (uint32_t k = 0; k < dim; k++) {
            uint32_t v = rng_below(&rng, SS_LEVELS);
            m[(size_t)d * dim + k] = (float)v;
            nonzero += v != 0;
        }
        if (nonzero == 0) /* a zero vector has no cosine (0 / 0) */
            m[(size_t)d * dim] = 1.0f;
    }
    /* the map tasks, row by row over the upper triangle, as Mars's host adds
     * its input records */
    struct ss_record *rec = xmalloc((size_t)ntasks * sizeof *rec);
    uint32_t p = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++) {
            rec[p].doc1 = (int32_t)i;
            rec[p].doc2 = (int32_t)j;
            rec[p].dim = (int32_t)dim;
            rec[p].unused = 0.0f;
            p++;
        }
    size_t sb = (size_t)ntasks * sizeof(float), rb = (size_t)ntasks * sizeof *rec;
    float *got = xmalloc(sb), *want = xmalloc(sb);
    ws_devptr d_m = 0, d_rec = 0, d_scores = 0;
    int32_t ntasks_arg = (int32_t)ntasks;
    int rc;
    WL_TRY_OUT(ws_malloc(gpu, mb, &d_m));
    WL_TRY_OUT(ws_malloc(gpu, rb, &d_rec));
    WL_TRY_OUT(ws_malloc(gpu, sb, &d_scores));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_m, m, mb));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_rec, rec, rb));
    WL_TRY_OUT(ws_memset(gpu, d_scores, 0xff, sb)); /* NaN: an unwritten score fails */
    void *args[] = {&d_m, &d_rec, &ntasks_arg, &d_scores};
    WL_TRY_OUT(ws_launch(mod, "ss_map", ws_dim((ntasks + SS_BLOCK - 1) / SS_BLOCK, 1, 1),
                         ws_dim(SS_BLOCK, 1, 1), 0, args));
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, got, d_scores, sb));

    float lo = INFINITY, hi = -INFINITY;
    double sum = 0.0;
    for (uint32_t t = 0; t < ntasks; t++) {
        const struct ss_record *r = &rec[t];
        want[t] = ss_score(m + (size_t)r->doc1 * dim, m + (size_t)r->doc2 * dim, dim);
        lo = fminf(lo, want[t]);
        hi = fmaxf(hi, want[t]);
        sum += want[t];
    }
    /* bit-exact: the same IEEE operations in the same order on both sides */
    rc = wl_check_f32("scores", want, got, ntasks, 0.0f, 0.0f, detail, detail_len);
    if (rc != WS_OK)
        goto out;
    snprintf(detail, detail_len,
             "ss: %u documents x %u features: %u pair scores match the CPU reference "
             "(min %.4f, mean %.4f, max %.4f)",
             n, dim, ntasks, (double)lo, sum / ntasks, (double)hi);
out:
    if (d_scores)
        ws_free(gpu, d_scores);
    if (d_rec)
        ws_free(gpu, d_rec);
    if (d_m)
        ws_free(gpu, d_m);
    free(want);
    free(got);
    free(rec);
    free(m);
    return rc;
}

const struct workload workload_ss = {
    .name = "ss",
    .desc = "Similarity Score (Mars MapReduce): cosine similarity of every pair of documents, "
            "one map task per pair, float4 walks of both feature vectors",
    .run = ss_run,
};
