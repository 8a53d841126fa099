/* host.c: the backp workload: one training step of Rodinia's backprop
 * network (in inputs, 16 hidden units, 1 output).  The device computes the
 * input layer's weighted sums (per-block partials) and adjusts the
 * input-to-hidden weights; the host does the small hidden and output layers
 * in between, as Rodinia does, and checks both kernels against a CPU
 * computation in the kernels' own order of operations. */
#include "workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define BACKP_BLOCK 16u
#define BACKP_HID 16u
#define BACKP_ETA 0.3f
#define BACKP_MOMENTUM 0.3f

struct backp_net {
    uint32_t in;     /* input units (a multiple of 16), plus the bias unit 0 */
    float *input;    /* [in + 1], input[0] = 1 (bias) */
    float *w;        /* [in + 1][hid + 1] input-to-hidden weights */
    float *oldw;     /* [in + 1][hid + 1] previous weight changes */
    float w2[BACKP_HID + 1]; /* hidden-to-output weights, [0] the bias */
    float target;
};

static void backp_make(struct backp_net *n, uint32_t in, uint64_t seed)
{
    struct rng rng;
    rng_seed(&rng, seed);
    size_t nw = (size_t)(in + 1) * (BACKP_HID + 1);
    n->in = in;
    n->input = xmalloc((in + 1) * sizeof *n->input);
    n->w = xmalloc(nw * sizeof *n->w);
    n->oldw = xmalloc(nw * sizeof *n->oldw);
    n->input[0] = 1.0f;
    for (uint32_t i = 1; i <= in; i++)
        n->input[i] = rng_float(&rng);
    /* Weights scaled by 1/sqrt(in) keep the hidden sums near the sigmoid's
     * slope (Rodinia's [0, 1) weights saturate every hidden unit, making the
     * training step a near no-op). */
    float scale = 2.0f / sqrtf((float)in);
    for (size_t i = 0; i < nw; i++) {
        n->w[i] = scale * (2.0f * rng_float(&rng) - 1.0f);
        n->oldw[i] = 0.01f * (2.0f * rng_float(&rng) - 1.0f);
    }
    for (uint32_t j = 0; j <= BACKP_HID; j++)
        n->w2[j] = 2.0f * rng_float(&rng) - 1.0f;
    n->target = rng_below(&rng, 2) ? 0.9f : 0.1f;
}

static void backp_free(struct backp_net *n)
{
    free(n->input);
    free(n->w);
    free(n->oldw);
}

/* backp_layerforward on the CPU: per 16-row block and hidden unit, the
 * products then the pairwise tree of the kernel (s = 2, 4, 8, 16). */
static void backp_cpu_partials(const struct backp_net *n, float *partial)
{
    uint32_t blocks = n->in / BACKP_BLOCK;
    for (uint32_t by = 0; by < blocks; by++)
        for (uint32_t j = 0; j < BACKP_HID; j++) {
            float p[BACKP_BLOCK];
            for (uint32_t ty = 0; ty < BACKP_BLOCK; ty++) {
                uint32_t row = BACKP_BLOCK * by + ty + 1;
                p[ty] = n->w[(size_t)row * (BACKP_HID + 1) + j + 1] * n->input[row];
            }
            for (uint32_t span = 2; span <= BACKP_BLOCK; span *= 2)
                for (uint32_t ty = 0; ty < BACKP_BLOCK; ty += span)
                    p[ty] = p[ty] + p[ty + span / 2];
            partial[by * BACKP_HID + j] = p[0];
        }
}

/* The host part of the step (Rodinia does it on the CPU too): hidden units
 * from the partial sums, the output unit, the output and hidden errors.
 * Fills delta[1..hid] (delta[0] unused) and returns the output. */
static double backp_host_layers(const struct backp_net *n, const float *partial, float *delta)
{
    uint32_t blocks = n->in / BACKP_BLOCK;
    double hidden[BACKP_HID + 1];
    hidden[0] = 1.0;
    for (uint32_t j = 1; j <= BACKP_HID; j++) {
        double sum = n->w[j]; /* the bias unit's weight */
        for (uint32_t b = 0; b < blocks; b++)
            sum += partial[b * BACKP_HID + j - 1];
        hidden[j] = 1.0 / (1.0 + exp(-sum));
    }
    double osum = 0.0;
    for (uint32_t j = 0; j <= BACKP_HID; j++)
        osum += hidden[j] * n->w2[j];
    double out = 1.0 / (1.0 + exp(-osum));
    double odelta = out * (1.0 - out) * (n->target - out);
    delta[0] = 0.0f;
    for (uint32_t j = 1; j <= BACKP_HID; j++)
        delta[j] = (float)(hidden[j] * (1.0 - hidden[j]) * odelta * n->w2[j]);
    return out;
}

/* backp_adjust_weights on the CPU, with the kernel's operations: the change
 * is fma(eta * delta, x, momentum * oldw), then added to the weight. */
static void backp_cpu_adjust(const struct backp_net *n, const float *delta, float *w,
                             float *oldw)
{
    for (uint32_t i = 1; i <= n->in; i++)
        for (uint32_t j = 1; j <= BACKP_HID; j++) {
            size_t k = (size_t)i * (BACKP_HID + 1) + j;
            float change = fmaf(BACKP_ETA * delta[j], n->input[i], BACKP_MOMENTUM * oldw[k]);
            w[k] = w[k] + change;
            oldw[k] = change;
        }
    for (uint32_t j = 1; j <= BACKP_HID; j++) {
        float change = fmaf(delta[j], BACKP_ETA, BACKP_MOMENTUM * oldw[j]);
        w[j] = w[j] + change;
        oldw[j] = change;
    }
}

static int backp_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                     size_t detail_len)
{
    static const uint32_t inputs[] = {2048, 32768, 524288};
    struct backp_net net;
    backp_make(&net, inputs[a->size], a->seed);
    uint32_t blocks = net.in / BACKP_BLOCK;
    size_t nw = (size_t)(net.in + 1) * (BACKP_HID + 1);
    size_t npartial = (size_t)blocks * BACKP_HID;
    float *partial = xmalloc(npartial * sizeof *partial);
    float *want_partial = xmalloc(npartial * sizeof *want_partial);
    float *w = xmalloc(nw * sizeof *w);
    float *oldw = xmalloc(nw * sizeof *oldw);
    float *want_w = xmalloc(nw * sizeof *want_w);
    float *want_oldw = xmalloc(nw * sizeof *want_oldw);
    float delta[BACKP_HID + 1];
    for (size_t i = 0; i < npartial; i++)
        partial[i] = NAN;

    ws_devptr d_input = 0, d_w = 0, d_oldw = 0, d_partial = 0, d_delta = 0;
    int32_t in = (int32_t)net.in, hid = (int32_t)BACKP_HID;
    ws_dim3 grid = ws_dim(1, blocks, 1);
    ws_dim3 block = ws_dim(BACKP_BLOCK, BACKP_BLOCK, 1);
    char check[192];
    int rc;
    WL_TRY_OUT(ws_malloc(gpu, (net.in + 1) * sizeof(float), &d_input));
    WL_TRY_OUT(ws_malloc(gpu, nw * sizeof(float), &d_w));
    WL_TRY_OUT(ws_malloc(gpu, nw * sizeof(float), &d_oldw));
    WL_TRY_OUT(ws_malloc(gpu, npartial * sizeof(float), &d_partial));
    WL_TRY_OUT(ws_malloc(gpu, (BACKP_HID + 1) * sizeof(float), &d_delta));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_input, net.input, (net.in + 1) * sizeof(float)));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_w, net.w, nw * sizeof(float)));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_oldw, net.oldw, nw * sizeof(float)));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_partial, partial, npartial * sizeof(float)));

    void *fwd_args[] = {&d_input, &d_w, &d_partial, &in, &hid};
    WL_TRY_OUT(ws_launch(mod, "backp_layerforward", grid, block, 0, fwd_args));
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, partial, d_partial, npartial * sizeof(float)));
    backp_cpu_partials(&net, want_partial);
    rc = wl_check_f32("partial_sum", want_partial, partial, npartial, 1e-6f, 1e-7f, check,
                      sizeof check);
    if (rc != WS_OK) {
        snprintf(detail, detail_len, "backp: layerforward: %s", check);
        goto out;
    }

    double output = backp_host_layers(&net, partial, delta);
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_delta, delta, sizeof delta));
    void *adj_args[] = {&d_delta, &hid, &d_input, &in, &d_w, &d_oldw};
    WL_TRY_OUT(ws_launch(mod, "backp_adjust_weights", grid, block, 0, adj_args));
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, w, d_w, nw * sizeof(float)));
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, oldw, d_oldw, nw * sizeof(float)));
    memcpy(want_w, net.w, nw * sizeof(float));
    memcpy(want_oldw, net.oldw, nw * sizeof(float));
    backp_cpu_adjust(&net, delta, want_w, want_oldw);
    rc = wl_check_f32("oldw", want_oldw, oldw, nw, 1e-6f, 1e-9f, check, sizeof check);
    if (rc == WS_OK)
        rc = wl_check_f32("weights", want_w, w, nw, 1e-6f, 1e-9f, check, sizeof check);
    if (rc != WS_OK) {
        snprintf(detail, detail_len, "backp: adjust_weights: %s", check);
        goto out;
    }
    snprintf(detail, detail_len,
             "backp: %u inputs, %u hidden, output %.4f (target %.1f): %zu partial sums and "
             "%zu weights and changes match the CPU reference",
             net.in, BACKP_HID, output, (double)net.target, npartial, nw);

out:
    if (d_delta)
        ws_free(gpu, d_delta);
    if (d_partial)
        ws_free(gpu, d_partial);
    if (d_oldw)
        ws_free(gpu, d_oldw);
    if (d_w)
        ws_free(gpu, d_w);
    if (d_input)
        ws_free(gpu, d_input);
    free(want_oldw);
    free(want_w);
    free(oldw);
    free(w);
    free(want_partial);
    free(partial);
    backp_free(&net);
    return rc;
}

const struct workload workload_backp = {
    .name = "backp",
    .desc = "backpropagation training step (Rodinia backprop): shared-memory layer "
            "sums and weight adjustment",
    .run = backp_run,
};
