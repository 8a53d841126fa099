/* test_phase_census.c: warps per program phase over time (timeline_phases,
 * src/timing/phase_census.h; the Phase-aware paper's Figs. 6-7 top plots).
 *
 * A hand-built kernel of one basic block: p = *p four times, then a store
 * through p.  Each load reads the previous one's result, so each starts a new
 * phase (docs/phases.md; none can be hoisted: its address is the previous
 * phase's long-op register): phases 0 [ld.param, ld], 1 [ld], 2 [ld],
 * 3 [ld], 4 [st, ret].  Its four warps wait for every load together, so the
 * census must show all of them passing through phases 0..4 in order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "warpsim.h"

#define WARPS 4
#define MAXCOLS 16
#define MAXROWS 4096

static const char *const kernel_ptx =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [p];\n"
    "ld.global.u64 %rd1, [%rd1];\n"
    "ld.global.u64 %rd1, [%rd1];\n"
    "ld.global.u64 %rd1, [%rd1];\n"
    "ld.global.u64 %rd1, [%rd1];\n"
    "st.global.u64 [%rd1], %rd1;\n"
    "ret;\n}\n";

struct timeline {
    uint64_t v[MAXROWS][MAXCOLS]; /* phase_warps_0.. */
    uint64_t active[MAXROWS];     /* active_warps */
    size_t rows, cols;
};

/* Run the kernel with timeline_phases = ncols (NULL: the default) and read the
 * timeline's phase_warps_* and active_warps columns into tl. */
static void run(const char *ncols, struct timeline *tl)
{
    ws_gpu *gpu;
    assert_int_equal(ws_gpu_new(&gpu), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "mode", "timing"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "sm.count", "1"), WS_OK);
    assert_int_equal(ws_gpu_set(gpu, "l1d.enabled", "0"), WS_OK); /* every load to the L2 */
    assert_int_equal(ws_gpu_set(gpu, "timeline_interval", "5"), WS_OK);
    if (ncols)
        assert_int_equal(ws_gpu_set(gpu, "timeline_phases", ncols), WS_OK);
    ws_module *mod;
    if (ws_module_load_string(gpu, kernel_ptx, "census.ptx", &mod) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    ws_devptr p;
    assert_int_equal(ws_malloc(gpu, 64, &p), WS_OK);
    uint64_t self = (uint64_t)p; /* *p = p */
    assert_int_equal(ws_memcpy_htod(gpu, p, &self, 8), WS_OK);
    void *args[] = {&p};
    if (ws_launch(mod, "k", ws_dim(1, 1, 1), ws_dim(32 * WARPS, 1, 1), 0, args) != WS_OK)
        fail_msg("%s", ws_last_error(gpu));
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(ws_timeline_write_csv(gpu, f), WS_OK);
    ws_gpu_free(gpu);
    rewind(f);

    static char line[8192];
    int col_of[64], act = -1, n = 0;
    memset(tl, 0, sizeof *tl);
    assert_non_null(fgets(line, sizeof line, f));
    for (char *tok = strtok(line, ",\n"); tok; tok = strtok(NULL, ",\n"), n++) {
        assert_true(n < 64);
        col_of[n] = -1;
        unsigned i;
        if (sscanf(tok, "phase_warps_%u", &i) == 1) {
            assert_int_equal(i, tl->cols); /* in order, from 0 */
            col_of[n] = (int)tl->cols++;
        } else if (strcmp(tok, "active_warps") == 0) {
            act = n;
        }
    }
    assert_true(act >= 0);
    while (fgets(line, sizeof line, f)) {
        assert_true(tl->rows < MAXROWS);
        int c = 0;
        for (char *tok = strtok(line, ",\n"); tok; tok = strtok(NULL, ",\n"), c++) {
            uint64_t x = strtoull(tok, NULL, 10);
            if (c == act)
                tl->active[tl->rows] = x;
            else if (col_of[c] >= 0)
                tl->v[tl->rows][col_of[c]] = x;
        }
        tl->rows++;
    }
    fclose(f);
}

static struct timeline tl;

static void test_phases_in_order(void **state)
{
    (void)state;
    run("8", &tl);
    assert_int_equal(tl.cols, 8);
    assert_true(tl.rows > 20);
    uint64_t seen[MAXCOLS] = {0};
    double last_mean = 0;
    for (size_t r = 0; r < tl.rows; r++) {
        uint64_t sum = 0, weighted = 0;
        for (size_t i = 0; i < tl.cols; i++) {
            sum += tl.v[r][i];
            weighted += i * tl.v[r][i];
            if (tl.v[r][i] > seen[i])
                seen[i] = tl.v[r][i];
        }
        /* resident, unfinished warps only: never more than active_warps */
        assert_true(sum <= tl.active[r]);
        assert_true(sum <= WARPS);
        if (sum) { /* no loop: the mean phase never goes back */
            double mean = (double)weighted / (double)sum;
            assert_true(mean >= last_mean);
            last_mean = mean;
        }
    }
    /* each of the five phases held all four warps at some sample (they wait
     * for each load together: at least 100 cycles, 20 samples) ... */
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(seen[i], WARPS);
    /* ... and there is no sixth */
    for (size_t i = 5; i < tl.cols; i++)
        assert_int_equal(seen[i], 0);
}

static void test_last_column_collects(void **state)
{
    (void)state;
    /* three columns: phases 2, 3 and 4 all count in the last */
    run("3", &tl);
    assert_int_equal(tl.cols, 3);
    uint64_t seen[3] = {0}, rows_last = 0;
    for (size_t r = 0; r < tl.rows; r++) {
        for (size_t i = 0; i < 3; i++)
            if (tl.v[r][i] > seen[i])
                seen[i] = tl.v[r][i];
        rows_last += tl.v[r][2] == WARPS;
    }
    assert_int_equal(seen[0], WARPS);
    assert_int_equal(seen[1], WARPS);
    assert_int_equal(seen[2], WARPS);
    /* at 8 columns, phases 2..4 each held all warps for a while: here the
     * last column holds them for at least as many samples as those three */
    struct timeline *wide = malloc(sizeof *wide);
    assert_non_null(wide);
    run("8", wide);
    uint64_t rows_wide = 0;
    for (size_t r = 0; r < wide->rows; r++)
        rows_wide += wide->v[r][2] + wide->v[r][3] + wide->v[r][4] == WARPS;
    free(wide);
    assert_int_equal(rows_last, rows_wide); /* same run, same samples */
}

static void test_off_by_default(void **state)
{
    (void)state;
    run(NULL, &tl);
    assert_int_equal(tl.cols, 0);
    assert_true(tl.rows > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phases_in_order),
        cmocka_unit_test(test_last_column_collects),
        cmocka_unit_test(test_off_by_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
