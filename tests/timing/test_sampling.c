/* test_sampling.c: sampled simulation (src/api/sample.h).
 *
 * The kernel (hand-written PTX): saxpy(x, y, a, n): y[i] = a * x[i] + y[i]
 * for i = global thread index < n, each thread looping `iters` times over
 * its element (y += a * x), so a launch's work is uniform over its CTAs.
 *
 * What is checked:
 *   - without sampling, sample_est_cycles equals gpu_sim_cycle and nothing
 *     is skipped;
 *   - kernel-level: six identical launches; the first two are simulated, the
 *     other four run functionally (results exact) and their estimated cycles
 *     lie within the reported bound of the full simulation's;
 *   - a launch with other work (iters) falls into another stratum and is
 *     simulated in detail;
 *   - functional warming (sample.warm): a detailed launch that reads what a
 *     skipped launch touched finds it in the L2, and misses without warming;
 *   - intra-kernel: a 480-CTA launch on two SMs with its first 120 CTAs
 *     simulated, the rest fast-forwarded (results exact for every element);
 *     the estimate is within its bound and within 10 % of the full
 *     simulation (it is 6.8 % high: the sample's steady window starts with
 *     the CTAs of the first wave finishing together). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "warpsim.h"

static const char saxpy_ptx[] =
    ".version 7.0\n"
    ".target sm_70\n"
    ".address_size 64\n"
    ".visible .entry saxpy(.param .u64 px, .param .u64 py, .param .f32 a, .param .u32 n,\n"
    "                      .param .u32 iters)\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<10>;\n"
    "  .reg .f32 %f<6>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  mov.u32 %r1, %ctaid.x;\n"
    "  mov.u32 %r2, %ntid.x;\n"
    "  mov.u32 %r3, %tid.x;\n"
    "  mad.lo.u32 %r4, %r1, %r2, %r3;\n"
    "  ld.param.u32 %r5, [n];\n"
    "  setp.ge.u32 %p1, %r4, %r5;\n"
    "  @%p1 bra DONE;\n"
    "  ld.param.u64 %rd1, [px];\n"
    "  ld.param.u64 %rd2, [py];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  cvta.to.global.u64 %rd2, %rd2;\n"
    "  mul.wide.u32 %rd3, %r4, 4;\n"
    "  add.u64 %rd4, %rd1, %rd3;\n"
    "  add.u64 %rd5, %rd2, %rd3;\n"
    "  ld.param.f32 %f1, [a];\n"
    "  ld.param.u32 %r6, [iters];\n"
    "  ld.global.f32 %f2, [%rd4];\n"
    "  ld.global.f32 %f3, [%rd5];\n"
    "LOOP:\n"
    "  fma.rn.f32 %f3, %f1, %f2, %f3;\n"
    "  sub.u32 %r6, %r6, 1;\n"
    "  setp.ne.u32 %p2, %r6, 0;\n"
    "  @%p2 bra LOOP;\n"
    "  st.global.f32 [%rd5], %f3;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

#define N (480 * 128)

struct fx {
    ws_gpu *gpu;
    ws_module *mod;
    ws_devptr x, y;
    float hy[N];
};

static void open_gpu(struct fx *f, const char *const *sets)
{
    assert_int_equal(ws_gpu_new(&f->gpu), WS_OK);
    for (; *sets; sets += 2)
        assert_int_equal(ws_gpu_set(f->gpu, sets[0], sets[1]), WS_OK);
    assert_int_equal(ws_module_load_string(f->gpu, saxpy_ptx, "saxpy.ptx", &f->mod), WS_OK);
    assert_int_equal(ws_malloc(f->gpu, N * 4, &f->x), WS_OK);
    assert_int_equal(ws_malloc(f->gpu, N * 4, &f->y), WS_OK);
    float *hx = malloc(N * 4);
    for (int i = 0; i < N; i++) {
        hx[i] = (float)(i % 7);
        f->hy[i] = (float)(i % 5);
    }
    assert_int_equal(ws_memcpy_htod(f->gpu, f->x, hx, N * 4), WS_OK);
    assert_int_equal(ws_memcpy_htod(f->gpu, f->y, f->hy, N * 4), WS_OK);
    free(hx);
}

/* One launch of `ctas` CTAs of 128 threads; the host copy follows it. */
static void launch(struct fx *f, uint32_t ctas, uint32_t iters)
{
    float a = 2.0f;
    uint32_t n = ctas * 128;
    void *args[] = {&f->x, &f->y, &a, &n, &iters};
    assert_int_equal(ws_launch(f->mod, "saxpy", ws_dim(ctas, 1, 1), ws_dim(128, 1, 1), 0, args),
                     WS_OK);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < iters; k++)
            f->hy[i] = 2.0f * (float)(i % 7) + f->hy[i];
}

static void check_results(struct fx *f)
{
    float *dy = malloc(N * 4);
    assert_int_equal(ws_memcpy_dtoh(f->gpu, dy, f->y, N * 4), WS_OK);
    for (int i = 0; i < N; i++)
        assert_true(dy[i] == f->hy[i]);
    free(dy);
}

static uint64_t stat(const struct fx *f, const char *name)
{
    uint64_t v = 0;
    assert_int_equal(ws_stat(f->gpu, name, &v), WS_OK);
    return v;
}

/* Run the launch sequence with the given settings; returns the gpu. */
static void run_kernels(struct fx *f, const char *const *sets, uint32_t launches)
{
    open_gpu(f, sets);
    for (uint32_t i = 0; i < launches; i++)
        launch(f, 60, 4);
    check_results(f);
}

static void test_off_is_exact(void **state)
{
    (void)state;
    static struct fx f;
    const char *const sets[] = {NULL};
    run_kernels(&f, sets, 3);
    assert_int_equal(stat(&f, "sample_est_cycles"), stat(&f, "gpu_sim_cycle"));
    assert_int_equal(stat(&f, "sample_est_error_cycles"), 0);
    assert_int_equal(stat(&f, "sample_skipped_launches"), 0);
    assert_int_equal(stat(&f, "sample_detailed_launches"), 3);
    ws_gpu_free(f.gpu);
}

static uint64_t abs_diff(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

/* Twelve launches of the same work: the first (cold instruction and data
 * caches) and the second are simulated in detail, then the group's launches
 * 4, 16, ... (sample.kernel_resample = 4): launch 4.  The rest are estimated
 * from the stratum's two most recent detailed launches (1 and 4), so the
 * cold first launch no longer weighs on the estimate, as it does with
 * resampling off (launches 0 and 1). */
static void test_kernel_level(void **state)
{
    (void)state;
    static struct fx full, smp, first;
    const char *const none[] = {NULL};
    const char *const on[] = {"sample.kernels", "1", NULL};
    const char *const once[] = {"sample.kernels", "1", "sample.kernel_resample", "0", NULL};
    run_kernels(&full, none, 12);
    run_kernels(&smp, on, 12);
    run_kernels(&first, once, 12);
    assert_int_equal(stat(&smp, "sample_detailed_launches"), 3);
    assert_int_equal(stat(&smp, "sample_skipped_launches"), 9);
    assert_int_equal(stat(&first, "sample_detailed_launches"), 2);
    assert_int_equal(stat(&smp, "gpu_sim_insn"), stat(&full, "gpu_sim_insn"));
    uint64_t truth = stat(&full, "gpu_sim_cycle"), est = stat(&smp, "sample_est_cycles");
    uint64_t bound = stat(&smp, "sample_est_error_cycles");
    uint64_t err = abs_diff(est, truth);
    uint64_t err_first = abs_diff(stat(&first, "sample_est_cycles"), truth);
    print_message("kernel-level: full %llu, estimate %llu +- %llu (resampling off: %llu), "
                  "detailed %llu\n",
                  (unsigned long long)truth, (unsigned long long)est, (unsigned long long)bound,
                  (unsigned long long)stat(&first, "sample_est_cycles"),
                  (unsigned long long)stat(&smp, "gpu_sim_cycle"));
    assert_true(err <= bound);
    assert_true(err < err_first);
    assert_true(stat(&smp, "gpu_sim_cycle") * 2 < truth);
    /* four times the loop per thread: a new stratum; the first such launch
     * is forecast from the last one's work and estimated, the next one is
     * simulated in detail */
    launch(&smp, 60, 16);
    assert_int_equal(stat(&smp, "sample_detailed_launches"), 3);
    launch(&smp, 60, 16);
    assert_int_equal(stat(&smp, "sample_detailed_launches"), 4);
    check_results(&smp);
    ws_gpu_free(full.gpu);
    ws_gpu_free(smp.gpu);
    ws_gpu_free(first.gpu);
}

/* Launches of one CTA go to SM 0, 1, 2, ... in turn (dispatch round robin).
 * With sampling, launches 0, 1, 4 and 16 are simulated: the first three
 * fetch the kernel into cold instruction caches (SMs 0, 1, 4); launch 16
 * runs on SM 16 % 15 = 1, as in a full run, and finds the code there.
 * Without timing_skip the skipped launches would not move the dispatch (16
 * would run on SM 3, cold) nor leave code in the SMs they would have used. */
static void test_skip_state(void **state)
{
    (void)state;
    static struct fx f;
    const char *const on[] = {"sample.kernels", "1", NULL};
    open_gpu(&f, on);
    launch(&f, 1, 4);
    uint64_t cold = stat(&f, "l1i_misses");
    assert_true(cold > 0);
    for (int i = 1; i < 17; i++)
        launch(&f, 1, 4);
    check_results(&f);
    assert_int_equal(stat(&f, "sample_detailed_launches"), 4);
    assert_int_equal(stat(&f, "l1i_misses"), 3 * cold);
    ws_gpu_free(f.gpu);
}

/* One CTA of 128 threads on elements [128 r, 128 r + 128) (region r). */
static void launch_region(struct fx *f, uint32_t r)
{
    float a = 2.0f;
    uint32_t n = 128, iters = 1;
    ws_devptr x = f->x + (uint64_t)r * 512, y = f->y + (uint64_t)r * 512;
    void *args[] = {&x, &y, &a, &n, &iters};
    assert_int_equal(ws_launch(f->mod, "saxpy", ws_dim(1, 1, 1), ws_dim(128, 1, 1), 0, args),
                     WS_OK);
    for (uint32_t i = r * 128; i < r * 128 + 128; i++)
        f->hy[i] = 2.0f * (float)(i % 7) + f->hy[i];
}

/* L2 misses of a detailed launch of region 2 after launches of regions
 * 0, 1 (detailed), 2, 3 (skipped: the group's launches 2 and 3), with
 * sample.warm = warm.  The arrays reach the device by copies that leave the
 * L2 cold (l2.memcpy_fill = 0). */
static uint64_t misses_after_skip(const char *warm)
{
    static struct fx f;
    const char *const on[] = {"sample.kernels", "1", "sample.warm", warm, "l2.memcpy_fill", "0",
                              NULL};
    open_gpu(&f, on);
    for (uint32_t r = 0; r < 4; r++)
        launch_region(&f, r);
    assert_int_equal(stat(&f, "sample_skipped_launches"), 2);
    uint64_t before = stat(&f, "l2_misses");
    launch_region(&f, 2); /* the group's launch 4: detailed (resampling) */
    assert_int_equal(stat(&f, "sample_detailed_launches"), 3);
    check_results(&f);
    uint64_t m = stat(&f, "l2_misses") - before;
    ws_gpu_free(f.gpu);
    return m;
}

/* Region 2's 4 lines of x and 4 of y were read (and y written) by the
 * skipped launch 2: warmed, the detailed launch of region 2 hits them all;
 * without warming it misses each line of x and y. */
static void test_warm(void **state)
{
    (void)state;
    uint64_t warm = misses_after_skip("1"), cold = misses_after_skip("0");
    print_message("L2 misses of the detailed launch: warmed %llu, not warmed %llu\n",
                  (unsigned long long)warm, (unsigned long long)cold);
    assert_int_equal(warm, 0);
    assert_true(cold >= 8);
}

static void test_intra_kernel(void **state)
{
    (void)state;
    static struct fx full, smp;
    /* two SMs: a wave is 16 CTAs, the sample 7.5 waves, the launch 30 */
    const char *const none[] = {"sm.count", "2", NULL};
    const char *const on[] = {"sm.count", "2", "sample.ctas", "120", NULL};
    open_gpu(&full, none);
    open_gpu(&smp, on);
    launch(&full, 480, 8);
    launch(&smp, 480, 8);
    check_results(&smp);
    assert_int_equal(stat(&smp, "sample_skipped_ctas"), 360);
    assert_int_equal(stat(&smp, "ctas_launched"), 480);
    assert_int_equal(stat(&smp, "gpu_sim_insn"), stat(&full, "gpu_sim_insn"));
    uint64_t truth = stat(&full, "gpu_sim_cycle"), est = stat(&smp, "sample_est_cycles");
    uint64_t bound = stat(&smp, "sample_est_error_cycles");
    uint64_t err = est > truth ? est - truth : truth - est;
    print_message("intra-kernel: full %llu, estimate %llu +- %llu, detailed %llu\n",
                  (unsigned long long)truth, (unsigned long long)est,
                  (unsigned long long)bound, (unsigned long long)stat(&smp, "gpu_sim_cycle"));
    assert_true(err <= bound);
    assert_true(err * 10 <= truth);
    assert_true(stat(&smp, "gpu_sim_cycle") * 2 < truth);
    ws_gpu_free(full.gpu);
    ws_gpu_free(smp.gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_off_is_exact),
        cmocka_unit_test(test_kernel_level),
        cmocka_unit_test(test_skip_state),
        cmocka_unit_test(test_warm),
        cmocka_unit_test(test_intra_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
