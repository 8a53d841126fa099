/* test_warp.c: golden test of warp-level PTX produced by nvcc
 * (tests/ptx/warp.cu): shfl.sync idx/up/down/bfly with widths 32 and 8
 * (segment semantics, out-of-range lanes keep their own value), 64-bit and
 * float shuffles, butterfly reduction and shfl.up scan, vote.sync
 * ballot/any/all, activemask in converged and divergent code, lanemask
 * registers, bar.red popc/and/or (__syncthreads_count/_and/_or), shuffles
 * with half-warp member masks in divergent branches, and match.any/all. */
#include "golden.h"

#define SHFL_OPS 12
#define VOTE_OPS 8

static int setup(void **state)
{
    return golden_open(state, "tests/ptx/warp.ptx");
}

static const char *const shfl_names[SHFL_OPS] = {
    "idx w32", "up 3 w32", "down 5 w32", "bfly 6 w32", "idx w8", "up 2 w8", "down 3 w8",
    "bfly 5 w8", "bfly 1 f32", "down 1 b64", "xor reduction", "up scan"};

static void test_shuffles(void **state)
{
    struct golden *g = *state;
    enum { B = 64, NB = 2, N = B * NB };
    int in[N], sel[N];
    float fin[N];
    for (int i = 0; i < N; i++) {
        in[i] = i * 37 - 2000;
        fin[i] = (float)i * 0.5f + 0.25f;
        sel[i] = (i * 13 + 5) % 70; /* beyond the width: taken modulo width */
    }
    ws_devptr di = golden_upload(g, in, sizeof in), df = golden_upload(g, fin, sizeof fin);
    ws_devptr ds = golden_upload(g, sel, sizeof sel);
    ws_devptr dout = golden_upload(g, NULL, sizeof(int) * N * SHFL_OPS);
    void *args[] = {&di, &df, &dout, &ds};
    golden_launch(g, "shuffles", NB, B, 0, args);
    static uint32_t got[N * SHFL_OPS], want[N * SHFL_OPS];
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        int lane = i & 31, base = i - lane;
        uint32_t *w = want + i * SHFL_OPS;
        int seg = lane & ~7, ls = lane & 7;
        w[0] = (uint32_t)in[base + (sel[i] & 31)];
        w[1] = (uint32_t)(lane >= 3 ? in[i - 3] : in[i]);
        w[2] = (uint32_t)(lane + 5 < 32 ? in[i + 5] : in[i]);
        w[3] = (uint32_t)in[base + (lane ^ 6)];
        w[4] = (uint32_t)in[base + seg + (sel[i] & 7)];
        w[5] = (uint32_t)(ls >= 2 ? in[i - 2] : in[i]);
        w[6] = (uint32_t)(ls + 3 < 8 ? in[i + 3] : in[i]);
        w[7] = (uint32_t)in[base + seg + (ls ^ 5)];
        w[8] = golden_f2u(fin[base + (lane ^ 1)]);
        int src = lane + 1 < 32 ? i + 1 : i;
        w[9] = (uint32_t)in[src] ^ (uint32_t)(src * 3);
        uint32_t s = 0, p = 0;
        for (int k = 0; k < 32; k++) {
            s += (uint32_t)in[base + k];
            if (k <= lane)
                p += (uint32_t)in[base + k];
        }
        w[10] = s;
        w[11] = p;
    }
    golden_check_u32("shuffles", want, got, N * SHFL_OPS, SHFL_OPS, shfl_names);
}

static const char *const vote_names[VOTE_OPS] = {
    "ballot v>0", "any v==7", "all v>=0", "activemask", "activemask (odd lanes)",
    "ballot in divergent branch", "popc(ballot)", "lanemask_lt/le"};

static void test_votes(void **state)
{
    struct golden *g = *state;
    enum { B = 96, N = B };
    int in[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 7) % 11 - 4; /* -4..6: negatives, zeros and positives */
    in[40] = 7;                   /* warp 1 has a 7, warps 0 and 2 do not */
    for (int i = 64; i < 96; i++) /* warp 2 is all non-negative */
        in[i] = i % 5;
    ws_devptr di = golden_upload(g, in, sizeof in);
    ws_devptr dout = golden_upload(g, NULL, sizeof(uint32_t) * N * VOTE_OPS);
    void *args[] = {&di, &dout};
    golden_launch(g, "votes", 1, B, 0, args);
    static uint32_t got[N * VOTE_OPS], want[N * VOTE_OPS];
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        int lane = i & 31, base = i - lane;
        uint32_t ballot = 0, any7 = 0, all = 1, sub = 0, odd = 0;
        for (int k = 0; k < 32; k++) {
            int v = in[base + k];
            ballot |= (uint32_t)(v > 0) << k;
            any7 |= v == 7;
            all &= v >= 0;
            sub |= (uint32_t)(v % 3 != 0) << k;
            odd += (uint32_t)(v & 1);
        }
        uint32_t *w = want + i * VOTE_OPS;
        w[0] = ballot;
        w[1] = any7;
        w[2] = all;
        w[3] = 0xffffffffu;
        w[4] = (lane & 1) ? 0xaaaaaaaau : 0;
        w[5] = (in[i] % 3 != 0) ? (sub & 0xffffu) : 0;
        w[6] = odd;
        uint32_t lt = (uint32_t)((1ull << lane) - 1), le = (uint32_t)((2ull << lane) - 1);
        w[7] = lt ^ (le << 1);
    }
    golden_check_u32("votes", want, got, N * VOTE_OPS, VOTE_OPS, vote_names);
}

static void test_block_votes(void **state)
{
    struct golden *g = *state;
    enum { B = 128, NB = 3, N = B * NB };
    int in[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 17) % 50; /* all >= 0 */
    in[B + 3] = -1;            /* block 1: and = 0 */
    in[2 * B + 100] = 42;      /* block 2: or = 1 (and 42 > 10) */
    for (int i = 0; i < B; i++) /* block 0: no 42 */
        if (in[i] == 42)
            in[i] = 41;
    ws_devptr di = golden_upload(g, in, sizeof in);
    ws_devptr dout = golden_upload(g, NULL, sizeof(int) * N * 3);
    void *args[] = {&di, &dout};
    golden_launch(g, "block_votes", NB, B, 0, args);
    int got[N * 3];
    golden_download(g, got, dout, sizeof got);
    for (int b = 0; b < NB; b++) {
        int cnt = 0, all = 1, any = 0;
        for (int t = 0; t < B; t++) {
            int v = in[b * B + t];
            cnt += v > 10;
            all &= v >= 0;
            any |= v == 42;
        }
        for (int t = 0; t < B; t++) {
            const int *o = got + 3 * (b * B + t);
            if (o[0] != cnt || (o[1] != 0) != all || (o[2] != 0) != any)
                fail_msg("block_votes block %d thread %d: expected count %d and %d or %d, got "
                         "%d %d %d",
                         b, t, cnt, all, any, o[0], o[1], o[2]);
        }
    }
}

static void test_partial_warp(void **state)
{
    struct golden *g = *state;
    static const char *const names[3] = {"shfl with half-warp member mask", "match.any",
                                         "match.all (mask ^ pred)"};
    enum { B = 64, N = B * 2 };
    int in[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 5) % 7 + 0x300;
    for (int i = 32; i < 64; i++) /* warp 1: every lane has the same value >> 8 */
        in[i] = 0x500 + (i & 3);
    for (int i = 96; i < 128; i++) /* warp 3: all lanes identical */
        in[i] = 0x777;
    ws_devptr di = golden_upload(g, in, sizeof in);
    ws_devptr dout = golden_upload(g, NULL, sizeof(uint32_t) * 3 * N);
    void *args[] = {&di, &dout};
    golden_launch(g, "partial_warp", 2, B, 0, args);
    uint32_t got[3 * N], want[3 * N];
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        int lane = i & 31, base = i - lane;
        int src = lane < 16 ? (lane ^ 1) : 16 + ((lane + 3) & 15);
        want[3 * i] = (uint32_t)in[base + src];
        uint32_t any = 0;
        int same = 1;
        for (int k = 0; k < 32; k++) {
            any |= (uint32_t)((in[base + k] & 3) == (in[i] & 3)) << k;
            same &= (in[base + k] >> 8) == (in[base] >> 8);
        }
        want[3 * i + 1] = any;
        want[3 * i + 2] = same ? 0xffffffffu ^ 1u : 0u;
    }
    golden_check_u32("partial_warp", want, got, 3 * N, 3, names);
}

/* Each half-warp votes with its own member mask (cooperative groups'
 * tiled_partition<16>): ballot, all, any and match.any see only its 16 lanes. */
static void test_tile_votes(void **state)
{
    struct golden *g = *state;
    static const char *const names[4] = {"ballot (half-warp mask)", "all (half-warp mask)",
                                         "any (half-warp mask)", "match.any (half-warp mask)"};
    enum { B = 64, N = B };
    int in[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 5) % 9 - 1; /* -1..7 */
    for (int i = 16; i < 32; i++) /* upper half of warp 0: non-negative, no 7 */
        in[i] = i % 6;
    ws_devptr di = golden_upload(g, in, sizeof in);
    ws_devptr dout = golden_upload(g, NULL, sizeof(uint32_t) * 4 * N);
    void *args[] = {&di, &dout};
    golden_launch(g, "tile_votes", 1, B, 0, args);
    uint32_t got[4 * N], want[4 * N];
    golden_download(g, got, dout, sizeof got);
    for (int i = 0; i < N; i++) {
        int lane = i & 31, half = lane & 16, base = i - lane;
        uint32_t ballot = 0, all = 1, any = 0, match = 0;
        for (int k = half; k < half + 16; k++) {
            int v = in[base + k];
            ballot |= (uint32_t)(v > 0) << k;
            all &= v >= 0;
            any |= v == 7;
            match |= (uint32_t)((v & 3) == (in[i] & 3)) << k;
        }
        want[4 * i] = ballot;
        want[4 * i + 1] = all;
        want[4 * i + 2] = any;
        want[4 * i + 3] = match;
    }
    golden_check_u32("tile_votes", want, got, 4 * N, 4, names);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shuffles),
        cmocka_unit_test(test_votes),
        cmocka_unit_test(test_block_votes),
        cmocka_unit_test(test_partial_warp),
        cmocka_unit_test(test_tile_votes),
    };
    return cmocka_run_group_tests(tests, setup, golden_close);
}
