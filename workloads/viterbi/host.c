/* host.c (viterbi): random 64-bit frames (the last 2 bits zero, flushing
 * the encoder) encoded with the rate-1/2 code of vit.h, with about 3 % of the
 * code bits flipped, decoded by the kernel (viterbi.cu, one thread per
 * frame) and checked against the same decoder run on the CPU. */
#include "workload.h"

#include <stdlib.h>

#include "base/alloc.h"
#include "vit.h"

#define VIT_BLOCK 256u

static uint32_t vit_frames(enum wl_size s)
{
    switch (s) {
    case WL_SMALL:
        return 4096;
    case WL_MEDIUM:
        return 65536; /* 4M code bits with 2 per message bit: the slides' 4M */
    case WL_LARGE:
        return 1u << 19;
    }
    return 0;
}

static int vit_device(ws_gpu *gpu, ws_module *mod, const uint64_t *code, uint64_t *msg,
                      uint32_t n, char *detail, size_t detail_len)
{
    ws_devptr dc, dm;
    WL_TRY(gpu, ws_malloc(gpu, (size_t)n * 16, &dc), detail, detail_len);
    WL_TRY(gpu, ws_malloc(gpu, (size_t)n * 8, &dm), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, dc, code, (size_t)n * 16), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, dm, msg, (size_t)n * 8), detail, detail_len);
    void *args[] = {&dc, &dm, &n};
    WL_TRY(gpu,
           ws_launch(mod, "viterbi", ws_dim((n + VIT_BLOCK - 1) / VIT_BLOCK, 1, 1),
                     ws_dim(VIT_BLOCK, 1, 1), 0, args),
           detail, detail_len);
    WL_TRY(gpu, ws_memcpy_dtoh(gpu, msg, dm, (size_t)n * 8), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, dc), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, dm), detail, detail_len);
    return WS_OK;
}

static int vit_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                   size_t detail_len)
{
    uint32_t n = vit_frames(a->size);
    uint64_t *code = xmalloc((size_t)n * 16), *got = xmalloc((size_t)n * 8);
    uint64_t *want = xmalloc((size_t)n * 8);
    struct rng rng;
    rng_seed(&rng, a->seed);
    for (uint32_t i = 0; i < n; i++) {
        unsigned long long msg = rng_next(&rng) & ~(3ull << 62), c[2];
        vit_encode(msg, c);
        for (unsigned k = 0; k < 128; k++)
            if (rng_below(&rng, 100) < 3)
                c[k / 64] ^= 1ull << (k % 64);
        code[2 * i] = c[0];
        code[2 * i + 1] = c[1];
        want[i] = vit_decode(c[0], c[1]);
        got[i] = ~0ull; /* never a decoding (its last 2 bits are 0): an unwritten frame fails */
    }
    int rc = vit_device(gpu, mod, code, got, n, detail, detail_len);
    if (rc == WS_OK)
        rc = wl_check_u32("message words", (const uint32_t *)want, (const uint32_t *)got,
                          (size_t)n * 2, detail, detail_len);
    free(code);
    free(got);
    free(want);
    return rc;
}

const struct workload workload_viterbi = {
    .name = "viterbi",
    .desc = "Viterbi decoding of a rate-1/2 convolutional code, one 64-bit frame per "
            "thread with channel errors (the large-warp slides' viterbi)",
    .run = vit_run,
};
