/* host.c: the hotsp workload: Rodinia's hotspot thermal simulation, several
 * launches of a pyramid of time steps each, checked cell by cell against a
 * CPU implementation of the same explicit update. */
#include "workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"

#define HOTSP_BLOCK 16u
#define HOTSP_AMBIENT 80.0f

/* Rodinia's chip model: a 0.5 mm thick, 16 mm x 16 mm silicon die. */
#define HOTSP_T_CHIP 0.0005
#define HOTSP_CHIP_HEIGHT 0.016
#define HOTSP_CHIP_WIDTH 0.016
#define HOTSP_FACTOR_CHIP 0.5
#define HOTSP_SPEC_HEAT_SI 1.75e6
#define HOTSP_K_SI 100.0
#define HOTSP_PRECISION 0.001
#define HOTSP_MAX_PD 3.0e6

struct hotsp_shape {
    uint32_t rows, cols, pyramid, steps;
};

struct hotsp_coeffs {
    float cap, rx, ry, rz, step;
};

static void hotsp_model(const struct hotsp_shape *s, struct hotsp_coeffs *c)
{
    double grid_height = HOTSP_CHIP_HEIGHT / s->rows;
    double grid_width = HOTSP_CHIP_WIDTH / s->cols;
    double max_slope = HOTSP_MAX_PD / (HOTSP_FACTOR_CHIP * HOTSP_T_CHIP * HOTSP_SPEC_HEAT_SI);
    c->cap = (float)(HOTSP_FACTOR_CHIP * HOTSP_SPEC_HEAT_SI * HOTSP_T_CHIP * grid_width *
                     grid_height);
    c->rx = (float)(grid_width / (2.0 * HOTSP_K_SI * HOTSP_T_CHIP * grid_height));
    c->ry = (float)(grid_height / (2.0 * HOTSP_K_SI * HOTSP_T_CHIP * grid_width));
    c->rz = (float)(HOTSP_T_CHIP / (HOTSP_K_SI * grid_height * grid_width));
    c->step = (float)(HOTSP_PRECISION / max_slope);
}

/* One time step on the CPU, with the kernel's operations in the kernel's
 * order (its PTX: the sums, then four fma.rn.f32), so the results agree to
 * the bit; a neighbour beyond the edge is the cell itself. */
static void hotsp_cpu_step(const struct hotsp_shape *s, const struct hotsp_coeffs *c,
                           const float *power, const float *src, float *dst)
{
    float step_div_cap = c->step / c->cap;
    float rx_1 = 1.0f / c->rx, ry_1 = 1.0f / c->ry, rz_1 = 1.0f / c->rz;
    for (uint32_t r = 0; r < s->rows; r++)
        for (uint32_t q = 0; q < s->cols; q++) {
            size_t i = (size_t)r * s->cols + q;
            uint32_t n = r > 0 ? r - 1 : r, so = r + 1 < s->rows ? r + 1 : r;
            uint32_t w = q > 0 ? q - 1 : q, e = q + 1 < s->cols ? q + 1 : q;
            float t = src[i];
            float twice = t + t;
            float vert = (src[(size_t)so * s->cols + q] + src[(size_t)n * s->cols + q]) - twice;
            float horiz = (src[(size_t)r * s->cols + e] + src[(size_t)r * s->cols + w]) - twice;
            float acc = fmaf(ry_1, vert, power[i]);
            acc = fmaf(rx_1, horiz, acc);
            acc = fmaf(rz_1, HOTSP_AMBIENT - t, acc);
            dst[i] = fmaf(step_div_cap, acc, t);
        }
}

static int hotsp_run(ws_gpu *gpu, ws_module *mod, const struct wl_args *a, char *detail,
                     size_t detail_len)
{
    static const struct hotsp_shape shapes[] = {
        {48, 64, 3, 7},
        {256, 256, 2, 8},
        {1024, 1024, 2, 8},
    };
    const struct hotsp_shape *s = &shapes[a->size];
    size_t ncells = (size_t)s->rows * s->cols;
    struct hotsp_coeffs c;
    hotsp_model(s, &c);

    /* Temperatures 320-345 K; a background power of up to 0.5 W per cell with
     * one cell in 16 a hot spot of up to 4 W. */
    struct rng rng;
    rng_seed(&rng, a->seed);
    float *power = xmalloc(ncells * sizeof *power);
    float *temp = xmalloc(ncells * sizeof *temp);
    float *want = xmalloc(ncells * sizeof *want);
    float *scratch = xmalloc(ncells * sizeof *scratch);
    float *got = xmalloc(ncells * sizeof *got);
    for (size_t i = 0; i < ncells; i++) {
        temp[i] = 320.0f + 25.0f * rng_float(&rng);
        power[i] = 0.5f * rng_float(&rng);
        if (rng_below(&rng, 16) == 0)
            power[i] += 4.0f * rng_float(&rng);
    }

    ws_devptr d_power = 0, d_temp[2] = {0, 0};
    int32_t rows = (int32_t)s->rows, cols = (int32_t)s->cols, border = (int32_t)s->pyramid;
    uint32_t small = HOTSP_BLOCK - 2 * s->pyramid;
    ws_dim3 grid = ws_dim((s->cols + small - 1) / small, (s->rows + small - 1) / small, 1);
    ws_dim3 block = ws_dim(HOTSP_BLOCK, HOTSP_BLOCK, 1);
    unsigned launches = 0;
    int src = 0;
    char check[192];
    int rc;
    WL_TRY_OUT(ws_malloc(gpu, ncells * sizeof(float), &d_power));
    WL_TRY_OUT(ws_malloc(gpu, ncells * sizeof(float), &d_temp[0]));
    WL_TRY_OUT(ws_malloc(gpu, ncells * sizeof(float), &d_temp[1]));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_power, power, ncells * sizeof(float)));
    WL_TRY_OUT(ws_memcpy_htod(gpu, d_temp[0], temp, ncells * sizeof(float)));
    /* All-ones bytes are a NaN: a cell that no block writes fails the check. */
    WL_TRY_OUT(ws_memset(gpu, d_temp[1], 0xff, ncells * sizeof(float)));

    for (uint32_t t = 0; t < s->steps; t += s->pyramid) {
        int32_t iteration = (int32_t)(s->steps - t < s->pyramid ? s->steps - t : s->pyramid);
        void *args[] = {&iteration, &d_power, &d_temp[src], &d_temp[1 - src], &cols, &rows,
                        &border,    &border,  &c.cap,       &c.rx,           &c.ry, &c.rz,
                        &c.step};
        WL_TRY_OUT(ws_launch(mod, "hotsp_calculate_temp", grid, block, 0, args));
        src = 1 - src;
        launches++;
    }
    WL_TRY_OUT(ws_memcpy_dtoh(gpu, got, d_temp[src], ncells * sizeof(float)));

    memcpy(want, temp, ncells * sizeof *want);
    for (uint32_t t = 0; t < s->steps; t++) {
        hotsp_cpu_step(s, &c, power, want, scratch);
        memcpy(want, scratch, ncells * sizeof *want);
    }
    rc = wl_check_f32("temperature", want, got, ncells, 1e-6f, 1e-4f, check, sizeof check);
    snprintf(detail, detail_len, "hotsp: %ux%u cells, %u steps in %u launches (pyramid %u): %s",
             s->rows, s->cols, s->steps, launches, s->pyramid, check);

out:
    for (int i = 1; i >= 0; i--)
        if (d_temp[i])
            ws_free(gpu, d_temp[i]);
    if (d_power)
        ws_free(gpu, d_power);
    free(got);
    free(scratch);
    free(want);
    free(temp);
    free(power);
    return rc;
}

const struct workload workload_hotsp = {
    .name = "hotsp",
    .desc = "thermal simulation (Rodinia hotspot): 2-D stencil on shared-memory tiles, a "
            "pyramid of steps per launch",
    .run = hotsp_run,
};
