/* host.c (decrypt): blocks of random plaintext encrypted on the CPU with the
 * toy Feistel cipher of cipher.h, each with its own round count, decrypted
 * by the kernel (decrypt.cu, one thread per block) and checked against the
 * plaintext. */
#include "workload.h"

#include <stdlib.h>

#include "base/alloc.h"
#include "cipher.h"

#define DC_BLOCK 256u

static uint32_t dc_blocks(enum wl_size s)
{
    switch (s) {
    case WL_SMALL:
        return 8192;
    case WL_MEDIUM:
        return 65536;
    case WL_LARGE:
        return 1u << 20;
    }
    return 0;
}

static int dc_device(ws_gpu *gpu, ws_module *mod, const uint32_t *in, const uint32_t *rounds,
                     uint32_t *out, uint32_t n, struct dc_key key, char *detail,
                     size_t detail_len)
{
    ws_devptr din, drounds, dout;
    WL_TRY(gpu, ws_malloc(gpu, (size_t)n * 8, &din), detail, detail_len);
    WL_TRY(gpu, ws_malloc(gpu, (size_t)n * 4, &drounds), detail, detail_len);
    WL_TRY(gpu, ws_malloc(gpu, (size_t)n * 8, &dout), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, din, in, (size_t)n * 8), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, drounds, rounds, (size_t)n * 4), detail, detail_len);
    WL_TRY(gpu, ws_memcpy_htod(gpu, dout, out, (size_t)n * 8), detail, detail_len);
    void *args[] = {&din, &drounds, &dout, &key.k0, &key.k1, &key.k2, &key.k3, &n};
    WL_TRY(gpu,
           ws_launch(mod, "decrypt", ws_dim((n + DC_BLOCK - 1) / DC_BLOCK, 1, 1),
                     ws_dim(DC_BLOCK, 1, 1), 0, args),
           detail, detail_len);
    WL_TRY(gpu, ws_memcpy_dtoh(gpu, out, dout, (size_t)n * 8), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, din), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, drounds), detail, detail_len);
    WL_TRY(gpu, ws_free(gpu, dout), detail, detail_len);
    return WS_OK;
}

static int dc_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                  size_t detail_len)
{
    uint32_t n = dc_blocks(a->size);
    uint32_t *plain = xmalloc((size_t)n * 8), *cipher = xmalloc((size_t)n * 8);
    uint32_t *rounds = xmalloc((size_t)n * 4), *got = xmalloc((size_t)n * 8);
    struct rng rng;
    rng_seed(&rng, a->seed);
    struct dc_key key = {(uint32_t)rng_next(&rng), (uint32_t)rng_next(&rng),
                         (uint32_t)rng_next(&rng), (uint32_t)rng_next(&rng)};
    for (uint32_t i = 0; i < n; i++) {
        plain[2 * i] = (uint32_t)rng_next(&rng);
        plain[2 * i + 1] = (uint32_t)rng_next(&rng);
        rounds[i] = 8u + (uint32_t)rng_below(&rng, 16);
        unsigned l = plain[2 * i], r = plain[2 * i + 1];
        dc_encrypt(&l, &r, key, rounds[i]);
        cipher[2 * i] = l;
        cipher[2 * i + 1] = r;
        got[2 * i] = got[2 * i + 1] = 0xdeadbeefu; /* an unwritten block fails */
    }
    int rc = dc_device(gpu, mod, cipher, rounds, got, n, key, detail, detail_len);
    if (rc == WS_OK)
        rc = wl_check_u32("plaintext", plain, got, (size_t)n * 2, detail, detail_len);
    free(plain);
    free(cipher);
    free(rounds);
    free(got);
    return rc;
}

const struct workload workload_decrypt = {
    .name = "decrypt",
    .desc = "decryption of 64-bit blocks of a toy Feistel cipher, per-block round counts and "
            "data-dependent round functions (the large-warp slides' decrypt)",
    .run = dc_run,
};
