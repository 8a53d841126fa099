/* test_core.c: the SM core and cycle loop of the timing model, checked where
 * the answer is known analytically (dependent chains take latency cycles per
 * instruction, independent instructions issue one per issue_interval), plus
 * the scheduler cycle breakdown, scheduler-independence of results,
 * determinism, occupancy errors and the deadlock report. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy/registry.h"
#include "warpsim.h"
#include "workload.h"

/* A loop kernel: `iters` iterations of a body of `d` instructions: kind 1
 * dependent integer adds (one register), 0 independent adds (40 registers
 * in turn), 2 a dependent chain of SFU square roots, 3 of f64 adds. */
static char *loop_ptx(unsigned d, int dependent)
{
    size_t cap = 4096 + (size_t)d * 64;
    char *p = malloc(cap);
    assert_non_null(p);
    int n = snprintf(p, cap,
                     ".version 7.0\n.target sm_70\n.address_size 64\n"
                     ".visible .entry k(.param .u64 out, .param .u32 iters)\n{\n"
                     ".reg .pred %%p<2>;\n.reg .b32 %%r<64>;\n.reg .b64 %%rd<4>;\n"
                     ".reg .f32 %%f<4>;\n.reg .f64 %%fd<4>;\n"
                     "mov.f32 %%f1, 0f3F800000;\nmov.f64 %%fd1, 0d3FF0000000000000;\n"
                     "ld.param.u64 %%rd1, [out];\nld.param.u32 %%r60, [iters];\n"
                     "mov.u32 %%r61, 0;\n");
    for (unsigned r = 0; r < 42; r++)
        n += snprintf(p + n, cap - (size_t)n, "mov.u32 %%r%u, %u;\n", r, r);
    n += snprintf(p + n, cap - (size_t)n, "$L_loop:\nadd.s32 %%r61, %%r61, 1;\n");
    for (unsigned i = 0; i < d; i++) {
        unsigned r = dependent == 1 ? 1 : 2 + i % 40;
        if (dependent == 2)
            n += snprintf(p + n, cap - (size_t)n, "sqrt.approx.f32 %%f1, %%f1;\n");
        else if (dependent == 3)
            n += snprintf(p + n, cap - (size_t)n, "add.f64 %%fd1, %%fd1, %%fd1;\n");
        else
            n += snprintf(p + n, cap - (size_t)n, "add.s32 %%r%u, %%r%u, 1;\n", r, r);
    }
    snprintf(p + n, cap - (size_t)n,
             "setp.lt.u32 %%p1, %%r61, %%r60;\n@%%p1 bra $L_loop;\n"
             "st.global.u32 [%%rd1], %%r1;\nret;\n}\n");
    return p;
}

/* Cycles of one launch of the loop kernel with one warp. */
static uint64_t loop_run(unsigned d, int dependent, unsigned iters, unsigned threads,
                         const char *set_key, const char *set_val, char **json)
{
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    if (set_key)
        assert_int_equal(ws_gpu_set(gpu, set_key, set_val), WS_OK);
    char *ptx = loop_ptx(d, dependent);
    ws_module *mod;
    int rc = ws_module_load_string(gpu, ptx, "loop.ptx", &mod);
    if (rc != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    free(ptx);
    ws_devptr out;
    assert_int_equal(ws_malloc(gpu, 4, &out), WS_OK);
    void *args[] = {&out, &iters};
    rc = ws_launch(mod, "k", ws_dim(1, 1, 1), ws_dim(threads, 1, 1), 0, args);
    if (rc != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    uint32_t v = 0;
    assert_int_equal(ws_memcpy_dtoh(gpu, &v, out, 4), WS_OK);
    assert_int_equal(v, dependent == 1 ? 1 + iters * d : 1); /* %r1: only kind 1 adds to it */
    uint64_t cyc = 0;
    assert_int_equal(ws_stat(gpu, "gpu_sim_cycle", &cyc), WS_OK);
    if (json) {
        size_t len = 0;
        FILE *f = open_memstream(json, &len);
        assert_non_null(f);
        assert_int_equal(ws_stats_write_json(gpu, f), WS_OK);
        fclose(f);
    }
    ws_gpu_free(gpu);
    return cyc;
}

static uint64_t loop_cycles(unsigned d, int dependent, unsigned iters, const char *set_key,
                            const char *set_val)
{
    return loop_run(d, dependent, iters, 32, set_key, set_val, NULL);
}

static void test_dependent_chain(void **state)
{
    (void)state;
    const unsigned d = 24, lat = 4; /* sp.latency default */
    uint64_t a = loop_cycles(d, 1, 50, NULL, NULL);
    uint64_t b = loop_cycles(d, 1, 150, NULL, NULL);
    double per_iter = (double)(b - a) / 100.0;
    /* d dependent adds at `lat` cycles each, plus setp/bra/loop counter */
    assert_true(per_iter >= d * lat);
    assert_true(per_iter <= d * lat + 8);
    /* longer latency, longer chain */
    uint64_t c = loop_cycles(d, 1, 150, "sp.latency", "8");
    assert_true(c > b + 100 * d * 3);
}

/* Cycles per extra independent instruction in the loop body, with cold
 * instruction-cache misses cancelled out (differences of iteration counts). */
static double cycles_per_insn(const char *key, const char *val)
{
    int64_t small = (int64_t)loop_cycles(48, 0, 90, key, val) -
                    (int64_t)loop_cycles(48, 0, 30, key, val);
    int64_t big = (int64_t)loop_cycles(16, 0, 90, key, val) -
                  (int64_t)loop_cycles(16, 0, 30, key, val);
    return (double)(small - big) / (60.0 * 32.0);
}

/* Cycles per iteration of a dependent chain of d instructions of `kind`. */
static double chain_per_iter(unsigned d, int kind, const char *key, const char *val)
{
    uint64_t a = loop_cycles(d, kind, 50, key, val);
    uint64_t b = loop_cycles(d, kind, 150, key, val);
    return (double)(b - a) / 100.0;
}

static void test_unit_latencies(void **state)
{
    (void)state;
    const unsigned d = 8;
    double sfu = chain_per_iter(d, 2, "sfu.latency", "20");
    assert_true(sfu >= d * 20 && sfu <= d * 20 + 8);
    /* dp.units 0: f64 runs on the SFU but keeps the DP latency (8) */
    double dp = chain_per_iter(d, 3, NULL, NULL);
    assert_true(dp >= d * 8 && dp <= d * 8 + 8);
    double dp16 = chain_per_iter(d, 3, "dp.latency", "16");
    assert_true(dp16 >= d * 16 && dp16 <= d * 16 + 8);
}

static void test_independent_issue_rate(void **state)
{
    (void)state;
    double one = cycles_per_insn(NULL, NULL);
    assert_true(one > 0.99 && one < 1.01); /* one instruction per cycle */
    double two = cycles_per_insn("sm.issue_interval", "2");
    assert_true(two > 1.98 && two < 2.02); /* issue_interval 2 halves the rate */
    double dual = cycles_per_insn("sm.max_issue_per_warp", "2");
    assert_true(dual > 0.49 && dual < 0.51); /* two per cycle (two SP pipelines) */
}

static void test_lane_histogram(void **state)
{
    (void)state;
    char *json = NULL;
    loop_run(4, 1, 10, 16, NULL, NULL, &json); /* a half warp: every issue has 16 lanes */
    const char *h = strstr(json, "\"sched_lane_activity\": {");
    assert_non_null(h);
    unsigned long long bins[8];
    int n = sscanf(h,
                   "\"sched_lane_activity\": {\"W0-4\": %llu, \"W5-8\": %llu, \"W9-12\": "
                   "%llu, \"W13-16\": %llu, \"W17-20\": %llu, \"W21-24\": %llu, "
                   "\"W25-28\": %llu, \"W29-32\": %llu",
                   &bins[0], &bins[1], &bins[2], &bins[3], &bins[4], &bins[5], &bins[6],
                   &bins[7]);
    assert_int_equal(n, 8);
    assert_true(bins[3] > 50);
    /* an ALU loop never has every warp waiting on a load or at a barrier */
    assert_non_null(strstr(json, "\"sched_all_stalled\": 0,"));
    for (int i = 0; i < 8; i++)
        if (i != 3)
            assert_int_equal(bins[i], 0);
    free(json);
}

static int run_workload(ws_gpu *gpu, const char *name)
{
    const struct workload_entry *we = workload_find(name);
    assert_non_null(we);
    struct wl_args args = {.size = WL_SMALL, .seed = 1};
    char detail[1024] = "";
    int rc = workload_run(gpu, we, &args, detail, sizeof detail);
    if (rc != WS_OK)
        fail_msg("%s: %s (%s)", name, detail, ws_last_error(gpu));
    return rc;
}

static void test_breakdown_sums(void **state)
{
    (void)state;
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    run_workload(gpu, "reduce");
    uint64_t cyc, total, iss, a, b, c, d, winsn;
    assert_int_equal(ws_stat(gpu, "gpu_sim_cycle", &cyc), WS_OK);
    assert_int_equal(ws_stat(gpu, "sched_cycles", &total), WS_OK);
    assert_int_equal(ws_stat(gpu, "sched_issued", &iss), WS_OK);
    assert_int_equal(ws_stat(gpu, "sched_idle_no_inst", &a), WS_OK);
    assert_int_equal(ws_stat(gpu, "sched_not_ready", &b), WS_OK);
    assert_int_equal(ws_stat(gpu, "sched_pipe_stall", &c), WS_OK);
    assert_int_equal(ws_stat(gpu, "sched_held_back", &d), WS_OK);
    assert_int_equal(ws_stat(gpu, "warp_insn", &winsn), WS_OK);
    assert_true(cyc > 0);
    assert_int_equal(total, iss + a + b + c + d);
    assert_int_equal(total, cyc * 15 * 2); /* default: 15 SMs, 2 schedulers */
    assert_int_equal(iss, winsn);           /* max_issue_per_warp 1 */
    /* reduce's warps all wait on their loads at times; never while issuing */
    uint64_t all;
    assert_int_equal(ws_stat(gpu, "sched_all_stalled", &all), WS_OK);
    assert_true(all > 0);
    assert_true(all <= a + b + c + d);
    double ipc = 0;
    assert_int_equal(ws_stat_double(gpu, "gpu_ipc", &ipc), WS_OK);
    assert_true(ipc > 0.0);
    ws_gpu_free(gpu);
}

static void test_schedulers_same_results(void **state)
{
    (void)state;
    static const char *const wls[] = {"vecadd", "reduce", "histo"};
    assert_true(sched_policy_count > 0);
    for (size_t w = 0; w < sizeof wls / sizeof wls[0]; w++) {
        uint64_t first = 0;
        for (unsigned i = 0; i < sched_policy_count; i++) {
            ws_gpu *gpu;
            assert_int_equal(ws_gpu_new(&gpu), WS_OK);
            assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
            assert_int_equal(ws_gpu_set(gpu, "sm.sched", sched_policies[i]->name), WS_OK);
            run_workload(gpu, wls[w]); /* verified against the CPU reference */
            uint64_t insn = 0;
            assert_int_equal(ws_stat(gpu, "gpu_sim_insn", &insn), WS_OK);
            if (i == 0)
                first = insn;
            else if (strcmp(wls[w], "histo") != 0)
                assert_int_equal(insn, first);
            ws_gpu_free(gpu);
        }
    }
}

static char *json_of_run_with(const char *name, const char *key, const char *value)
{
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    if (key)
        assert_int_equal(ws_gpu_set(gpu, key, value), WS_OK);
    run_workload(gpu, name);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(ws_stats_write_json(gpu, f), WS_OK);
    fclose(f);
    ws_gpu_free(gpu);
    return buf;
}

static char *json_of_run(const char *name)
{
    return json_of_run_with(name, NULL, NULL);
}

/* Jumping over idle cycles (the whole GPU's, and each SM's while it sleeps)
 * is an optimisation only: every statistic of a run with skipping equals the
 * run that simulates each cycle (the configuration echo differs in that one
 * key, which is blanked). */
static void test_skip_idle_exact(void **state)
{
    (void)state;
    static const char *const names[] = {"gc", "bfs", "spmv_scalar", "reduce", "hotsp", "memc"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *a = json_of_run_with(names[i], "skip_idle_cycles", "1");
        char *b = json_of_run_with(names[i], "skip_idle_cycles", "0");
        char *ka = strstr(a, "\"skip_idle_cycles\"");
        char *kb = strstr(b, "\"skip_idle_cycles\"");
        assert_non_null(ka);
        assert_non_null(kb);
        char *va = strpbrk(ka + 18, "01"), *vb = strpbrk(kb + 18, "01");
        assert_true(va && vb && *va == '1' && *vb == '0');
        *vb = '1';
        if (strcmp(a, b) != 0)
            fail_msg("%s: statistics differ with and without skipping idle cycles", names[i]);
        free(a);
        free(b);
    }
}

static void test_deterministic(void **state)
{
    (void)state;
    char *a = json_of_run("reduce");
    char *b = json_of_run("reduce");
    assert_non_null(strstr(a, "\"gpu_sim_cycle\""));
    assert_string_equal(a, b);
    free(a);
    free(b);
}

static const char bar_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry hang()\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, 1;\n"
    "bar.sync 0, 64;\n" /* 64 threads expected, the CTA has 32 */
    "ret;\n}\n";

static void test_deadlock_report(void **state)
{
    (void)state;
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    ws_module *mod;
    assert_int_equal(ws_module_load_string(gpu, bar_ptx, "hang.ptx", &mod), WS_OK);
    assert_int_equal(ws_launch(mod, "hang", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, NULL),
                     WS_ERR_DEADLOCK);
    assert_non_null(strstr(ws_last_error(gpu), "no progress"));
    assert_non_null(strstr(ws_deadlock_report(gpu), "waits at barrier 0"));
    assert_non_null(strstr(ws_deadlock_report(gpu), "SM 0 slot 0"));
    /* the report and the summary name the same place: the barrier (PC 1, line 8) */
    assert_non_null(strstr(ws_last_error(gpu), "waits at barrier 0 (PC 1, line 8)"));
    assert_non_null(strstr(ws_deadlock_report(gpu), "PC 1 (line 8), waits at barrier 0"));
    ws_gpu_free(gpu);
}

/* A livelock: warp 1 waits at a barrier while warp 0 spins forever without
 * reaching it.  Something issues every cycle, so the deadlock watchdog never
 * fires; the livelock watchdog (livelock_cycles) stops it and names both. */
static const char livelock_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry spin()\n{\n.reg .b32 %r<3>;\n.reg .pred %p<2>;\n"
    "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra LOOP;\n"
    "bar.sync 0;\nret;\n"
    "LOOP:\nadd.s32 %r2, %r2, 1;\nbra.uni LOOP;\n}\n";

static void test_livelock(void **state)
{
    (void)state;
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "livelock_cycles", "200000"), WS_OK);
    ws_module *mod;
    assert_int_equal(ws_module_load_string(gpu, livelock_ptx, "spin.ptx", &mod), WS_OK);
    assert_int_equal(ws_launch(mod, "spin", ws_dim(1, 1, 1), ws_dim(64, 1, 1), 0, NULL),
                     WS_ERR_DEADLOCK);
    const char *msg = ws_last_error(gpu);
    assert_non_null(strstr(msg, "livelock in kernel 'spin'"));
    assert_non_null(strstr(msg, "warp 1 waits at barrier 0 (PC 3, line 11)"));
    assert_non_null(strstr(msg, "warp 0 at PC"));
    uint64_t cycles = 0;
    assert_int_equal(ws_stat(gpu, "gpu_sim_cycle", &cycles), WS_OK);
    assert_true(cycles > 200000 && cycles < 200000 + 2 * 65536 + 1000);
    ws_gpu_free(gpu);
    /* 0 turns it off: the instruction budget ends the run instead */
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    assert_int_equal(ws_module_load_string(gpu, livelock_ptx, "spin.ptx", &mod), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "livelock_cycles", "0"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "max_warp_insn", "100000"), WS_OK);
    assert_int_equal(ws_launch(mod, "spin", ws_dim(1, 1, 1), ws_dim(64, 1, 1), 0, NULL),
                     WS_ERR_DEADLOCK);
    assert_non_null(strstr(ws_last_error(gpu), "max_warp_insn"));
    ws_gpu_free(gpu);
}

static const char load_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry ld1(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [p];\nld.global.u32 %r1, [%rd1];\nadd.s32 %r2, %r1, 1;\n"
    "st.global.u32 [%rd1], %r2;\nret;\n}\n";

/* The watchdog: with deadlock_cycles far below a DRAM round trip, a kernel
 * whose only warp waits on a load is stopped and the report says what it
 * waits for.  A first launch (default watchdog) warms every SM's L1I. */
static void test_watchdog(void **state)
{
    (void)state;
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    ws_module *mod;
    assert_int_equal(ws_module_load_string(gpu, load_ptx, "ld1.ptx", &mod), WS_OK);
    ws_devptr a, b;
    uint32_t v = 41;
    assert_int_equal(ws_malloc(gpu, 4096, &a), WS_OK);
    assert_int_equal(ws_malloc(gpu, 4096, &b), WS_OK);
    assert_int_equal(ws_memcpy_htod(gpu, a, &v, 4), WS_OK);
    void *args_a[] = {&a}, *args_b[] = {&b};
    assert_int_equal(ws_launch(mod, "ld1", ws_dim(15, 1, 1), ws_dim(32, 1, 1), 0, args_a),
                     WS_OK);
    assert_int_equal(ws_memcpy_dtoh(gpu, &v, a, 4), WS_OK);
    assert_true(v > 41); /* every CTA incremented it (racing) */
    assert_int_equal(ws_gpu_set(gpu, "deadlock_cycles", "20"), WS_OK);
    assert_int_equal(ws_launch(mod, "ld1", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, args_b),
                     WS_ERR_DEADLOCK);
    assert_non_null(strstr(ws_last_error(gpu), "deadlock_cycles 20"));
    const char *r = ws_deadlock_report(gpu);
    assert_non_null(strstr(r, "memory: 1 in flight"));
    assert_non_null(strstr(r, "scoreboard: %r1"));
    assert_non_null(strstr(r, "memory system:")); /* memsys_dump follows */
    ws_gpu_free(gpu);
}

static const char spin_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry spin()\n{\n.reg .b32 %r<2>;\n"
    "$L:\nbra $L;\n"
    "ret;\n}\n";

static void test_runaway_limit(void **state)
{
    (void)state;
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "max_warp_insn", "2000"), WS_OK);
    ws_module *mod;
    assert_int_equal(ws_module_load_string(gpu, spin_ptx, "spin.ptx", &mod), WS_OK);
    assert_int_equal(ws_launch(mod, "spin", ws_dim(2, 1, 1), ws_dim(64, 1, 1), 0, NULL),
                     WS_ERR_DEADLOCK);
    assert_non_null(strstr(ws_last_error(gpu), "max_warp_insn"));
    ws_gpu_free(gpu);
}

static void test_occupancy_limit(void **state)
{
    (void)state;
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "sm.registers", "256"), WS_OK);
    char *ptx = loop_ptx(4, 1);
    ws_module *mod;
    assert_int_equal(ws_module_load_string(gpu, ptx, "loop.ptx", &mod), WS_OK);
    free(ptx);
    ws_devptr out;
    assert_int_equal(ws_malloc(gpu, 4, &out), WS_OK);
    uint32_t iters = 1;
    void *args[] = {&out, &iters};
    assert_int_equal(ws_launch(mod, "k", ws_dim(1, 1, 1), ws_dim(128, 1, 1), 0, args),
                     WS_ERR_LAUNCH);
    assert_non_null(strstr(ws_last_error(gpu), "sm.registers"));
    ws_gpu_free(gpu);

    /* sm.regs_per_thread replaces the PTX estimate: 2 registers, allocated as 4
     * (sm.regs_round), x 128 threads fit 512 */
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "sm.registers", "512"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "sm.regs_per_thread", "2"), WS_OK);
    ptx = loop_ptx(4, 1);
    assert_int_equal(ws_module_load_string(gpu, ptx, "loop.ptx", &mod), WS_OK);
    free(ptx);
    assert_int_equal(ws_malloc(gpu, 4, &out), WS_OK);
    assert_int_equal(ws_launch(mod, "k", ws_dim(1, 1, 1), ws_dim(128, 1, 1), 0, args), WS_OK);
    ws_gpu_free(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dependent_chain),
        cmocka_unit_test(test_independent_issue_rate),
        cmocka_unit_test(test_unit_latencies),
        cmocka_unit_test(test_lane_histogram),
        cmocka_unit_test(test_breakdown_sums),
        cmocka_unit_test(test_schedulers_same_results),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_skip_idle_exact),
        cmocka_unit_test(test_deadlock_report),
        cmocka_unit_test(test_livelock),
        cmocka_unit_test(test_watchdog),
        cmocka_unit_test(test_runaway_limit),
        cmocka_unit_test(test_occupancy_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
