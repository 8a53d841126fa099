/* host.c: the ndl workload: Needleman-Wunsch alignment scores of two related
 * protein-like sequences in the structure of Rodinia's nw (16x16 shared-memory
 * tiles, one launch per tile anti-diagonal, two kernels), the whole score
 * matrix checked exactly against the CPU recurrence. */
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define NDL_B 16u
#define NDL_ALPHABET 20u
#define NDL_PENALTY 10
#define NDL_UNSET 0x40000000 /* interior cells before the kernels run */

/* A symmetric substitution matrix in the style of BLOSUM: identities score
 * 4..11, substitutions -4..3. */
static void ndl_make_subst(struct rng *rng, int32_t subst[NDL_ALPHABET][NDL_ALPHABET])
{
    for (uint32_t i = 0; i < NDL_ALPHABET; i++) {
        subst[i][i] = 4 + (int32_t)rng_below(rng, 8);
        for (uint32_t j = 0; j < i; j++)
            subst[i][j] = subst[j][i] = -4 + (int32_t)rng_below(rng, 8);
    }
}

/* Two sequences of n residues: b is a mutated copy of a (70% kept, 25%
 * substituted, 5% a short insertion or deletion that shifts the rest), so the
 * best alignment wanders around the main diagonal. */
static void ndl_make_seqs(struct rng *rng, uint32_t n, uint8_t *a, uint8_t *b)
{
    for (uint32_t i = 0; i < n; i++)
        a[i] = (uint8_t)rng_below(rng, NDL_ALPHABET);
    uint32_t src = 0;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t r = rng_below(rng, 100);
        if (r >= 95)
            src = r & 1 ? src + 1 + rng_below(rng, 3) : src - (src > 2 ? 2 : src);
        if (r < 70 || r >= 95)
            b[j] = a[src % n];
        else
            b[j] = (uint8_t)rng_below(rng, NDL_ALPHABET);
        src++;
    }
}

static int ndl_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                   size_t detail_len)
{
    static const uint32_t sizes[] = {256, 1024, 4096};
    uint32_t n = sizes[a->size];
    uint32_t cols = n + 1, tiles = n / NDL_B;
    size_t cells = (size_t)cols * cols;
    struct rng rng;
    rng_seed(&rng, a->seed);
    int32_t subst[NDL_ALPHABET][NDL_ALPHABET];
    ndl_make_subst(&rng, subst);
    uint8_t *seq_a = xmalloc(n), *seq_b = xmalloc(n);
    ndl_make_seqs(&rng, n, seq_a, seq_b);

    /* ref[i][j] scores residue i of a against residue j of b (row and column
     * 0 unused); score holds the gap penalties in row and column 0. */
    int32_t *ref = xcalloc(cells, sizeof *ref);
    int32_t *score = xmalloc(cells * sizeof *score);
    int32_t *want = xmalloc(cells * sizeof *want);
    for (uint32_t i = 1; i < cols; i++)
        for (uint32_t j = 1; j < cols; j++)
            ref[(size_t)i * cols + j] = subst[seq_a[i - 1]][seq_b[j - 1]];
    for (size_t k = 0; k < cells; k++)
        score[k] = NDL_UNSET;
    for (uint32_t i = 0; i < cols; i++) {
        score[(size_t)i * cols] = -(int32_t)i * NDL_PENALTY;
        score[i] = -(int32_t)i * NDL_PENALTY;
    }

    ws_devptr d_ref = 0, d_score = 0;
    int rc;
    WL_TRY_OUT(ws_malloc(gpu, cells * sizeof(int32_t), &d_ref));
    WL_TRY_OUT(ws_malloc(gpu, cells * sizeof(int32_t), &d_score));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_ref, ref, cells * sizeof(int32_t)));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_score, score, cells * sizeof(int32_t)));

    int32_t cols_arg = (int32_t)cols, penalty = NDL_PENALTY, tiles_arg = (int32_t)tiles;
    int32_t diag;
    void *args1[] = {&d_ref, &d_score, &cols_arg, &penalty, &diag};
    void *args2[] = {&d_ref, &d_score, &cols_arg, &penalty, &diag, &tiles_arg};
    for (diag = 1; diag <= (int32_t)tiles; diag++)
        WL_TRY_OUT(ws_launch(mod, "ndl_kernel_1", ws_dim((uint32_t)diag, 1, 1),
                             ws_dim(NDL_B, 1, 1), 0, args1));
    for (diag = (int32_t)tiles - 1; diag >= 1; diag--)
        WL_TRY_OUT(ws_launch(mod, "ndl_kernel_2", ws_dim((uint32_t)diag, 1, 1),
                             ws_dim(NDL_B, 1, 1), 0, args2));
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, score, d_score, cells * sizeof(int32_t)));

    /* CPU reference: the recurrence row by row. */
    for (uint32_t i = 0; i < cols; i++) {
        want[(size_t)i * cols] = -(int32_t)i * NDL_PENALTY;
        want[i] = -(int32_t)i * NDL_PENALTY;
    }
    for (uint32_t i = 1; i < cols; i++)
        for (uint32_t j = 1; j < cols; j++) {
            size_t k = (size_t)i * cols + j;
            int32_t diag_score = want[k - cols - 1] + ref[k];
            int32_t up = want[k - cols] - NDL_PENALTY;
            int32_t left = want[k - 1] - NDL_PENALTY;
            int32_t m = diag_score > up ? diag_score : up;
            want[k] = m > left ? m : left;
        }
    char check[192];
    rc = wl_check_i32("score", want, score, cells, check, sizeof check);
    snprintf(detail, detail_len, "ndl: %ux%u alignment, %u tiles, %u launches, final score %d: %s",
             n, n, tiles * tiles, 2 * tiles - 1, score[cells - 1], check);

out:
    if (d_score)
        ws_free(gpu, d_score);
    if (d_ref)
        ws_free(gpu, d_ref);
    free(want);
    free(score);
    free(ref);
    free(seq_b);
    free(seq_a);
    return rc;
}

const struct workload workload_ndl = {
    .name = "ndl",
    .desc = "Needleman-Wunsch alignment scores (Rodinia nw): 16x16 shared-memory tiles, "
            "one launch per tile anti-diagonal",
    .run = ndl_run,
};
