/* host.c (blackjack): Monte Carlo blackjack sessions (blackjack.cu), one per
 * thread, checked against the same sessions played on the CPU (bj_game.h). */
#include "workload.h"

#include <stdlib.h>

#include "base/alloc.h"
#include "bj_game.h"

#define BJ_BLOCK 256u

static void bj_sizes(enum wl_size s, uint32_t *players, uint32_t *hands)
{
    switch (s) {
    case WL_SMALL:
        *players = 2048, *hands = 2;
        return;
    case WL_MEDIUM:
        *players = 8192, *hands = 8;
        return;
    case WL_LARGE: /* 16 x medium's 15 M warp instructions; 64 hands passed max_warp_insn */
        *players = 131072, *hands = 16;
        return;
    }
}

static int bj_device(ws_gpu *gpu, ws_module *mod, const uint32_t *seeds, int32_t *net,
                     uint32_t n, uint32_t hands, char *detail, size_t detail_len)
{
    size_t bytes = (size_t)n * 4;
    ws_devptr ds, dn;
    WL_TRY(gpu, ws_malloc(gpu, bytes, &ds), detail, detail_len);
    WL_TRY(gpu, ws_malloc(gpu, bytes, &dn), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, ds, seeds, bytes), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, dn, net, bytes), detail, detail_len);
    void *args[] = {&ds, &dn, &hands, &n};
    WL_TRY(gpu,
           ws_launch(mod, "blackjack", ws_dim((n + BJ_BLOCK - 1) / BJ_BLOCK, 1, 1),
                     ws_dim(BJ_BLOCK, 1, 1), 0, args),
           detail, detail_len);
    WL_TRY(gpu, ws_memcpy_dtoh(gpu, net, dn, bytes), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, ds), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, dn), detail, detail_len);
    return WS_OK;
}

static int bj_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                  size_t detail_len)
{
    uint32_t n = 0, hands = 0;
    bj_sizes(a->size, &n, &hands);
    uint32_t *seeds = xmalloc((size_t)n * sizeof *seeds);
    int32_t *want = xmalloc((size_t)n * sizeof *want);
    int32_t *got = xmalloc((size_t)n * sizeof *got);
    struct rng rng;
    rng_seed(&rng, a->seed);
    for (uint32_t i = 0; i < n; i++) {
        seeds[i] = (uint32_t)rng_next(&rng) | 1u;
        want[i] = bj_session(seeds[i], hands);
        got[i] = INT32_MIN; /* an unwritten result fails */
    }
    int rc = bj_device(gpu, mod, seeds, got, n, hands, detail, detail_len);
    if (rc == WS_OK)
        rc = wl_check_i32("net", want, got, n, detail, detail_len);
    free(seeds);
    free(want);
    free(got);
    return rc;
}

const struct workload workload_blackjack = {
    .name = "blackjack",
    .desc = "Monte Carlo blackjack, a 52-card deck per thread, data-dependent draws and "
            "hits (the large-warp slides' blackjack)",
    .run = bj_run,
};
