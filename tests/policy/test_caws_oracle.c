/* test_caws_oracle.c: the CAWS oracle (src/policy/classify/caws_oracle.c,
 * SPEC-policies 9.5).  A recording instance writes each warp's execution
 * time; a second instance, on another SM and other slots, publishes those
 * times as the warps' scores, and gcaws:greedy=0 then issues the warps
 * slowest-first, the recorded order.  Bad parameters and files are errors;
 * with no file every score is 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "policy/classify/classify.h"
#include "policy/registry.h"
#include "wl_run.h"

struct inst {
    const struct classify_ops *ops;
    void *priv;
    uint32_t tag[SCHED_MAX_WARPS];
    int64_t score[SCHED_MAX_WARPS];
    struct classify_board board;
    struct sched_kernel k;
    void *scratch;
};

static int inst_open(struct inst *c, const char *spec, uint32_t sm, struct err *e)
{
    struct param_set ps;
    memset(c, 0, sizeof *c);
    err_clear(e);
    int rc = registry_classify(spec, &c->ops, &ps, e);
    if (rc != WS_OK)
        return rc;
    c->priv = calloc(1, c->ops->priv_size);
    c->board = (struct classify_board){1, c->tag, c->score};
    struct classify_init in = {.nslots = 16, .sm = sm, .n_units = 1, .board = &c->board};
    return c->ops->init(c->priv, &ps, &in, e);
}

static void inst_kernel(struct inst *c)
{
    c->k = (struct sched_kernel){.name = "kern"};
    c->k.scratch_size = c->ops->kernel_scratch(c->priv, &c->k);
    free(c->scratch);
    c->scratch = calloc(1, c->k.scratch_size ? c->k.scratch_size : 1);
    c->k.scratch = c->k.scratch_size ? c->scratch : NULL;
    struct sched_event ev = {.kind = SCHED_EV_KERNEL_START, .slot = -1, .kernel = &c->k};
    c->ops->on_event(c->priv, &ev);
}

static void inst_ev(struct inst *c, uint32_t kind, uint32_t slot, uint32_t cta_slot,
                    uint64_t cta_id, uint32_t warp, uint64_t now)
{
    struct sched_event ev = {.kind = kind, .slot = (int32_t)slot, .cta = cta_slot,
                             .cta_id = cta_id, .warp_in_cta = warp, .now = now};
    c->ops->on_event(c->priv, &ev);
}

static void inst_close(struct inst *c)
{
    free(c->priv);
    free(c->scratch);
}

static void tmpname(char *buf, size_t n)
{
    snprintf(buf, n, "/tmp/ws-caws-oracle-%ld.txt", (long)getpid());
}

static const uint64_t exec_time[4] = {10, 20, 40, 30}; /* warps 0..3 of CTA 5 */

static void test_record_then_replay_order(void **state)
{
    (void)state;
    char path[128], spec[256];
    tmpname(path, sizeof path);
    struct err e;
    struct inst r;
    snprintf(spec, sizeof spec, "caws_oracle:record=%s", path);
    assert_int_equal(inst_open(&r, spec, 0, &e), WS_OK);
    inst_kernel(&r);
    for (uint32_t w = 0; w < 4; w++)
        inst_ev(&r, SCHED_EV_WARP_LAUNCH, w, 0, 5, w, 100);
    /* a warp of another CTA, still running when the others finish */
    inst_ev(&r, SCHED_EV_WARP_LAUNCH, 9, 1, 6, 0, 100);
    for (uint32_t w = 0; w < 4; w++)
        inst_ev(&r, SCHED_EV_WARP_EXIT, w, 0, 0, 0, 100 + exec_time[w]);
    inst_ev(&r, SCHED_EV_WARP_EXIT, 9, 1, 0, 0, 107);
    inst_close(&r);
    /* one line per warp */
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[256];
    int lines = 0;
    while (fgets(line, sizeof line, f))
        lines += line[0] != '#';
    fclose(f);
    assert_int_equal(lines, 5);

    /* the oracle run: CTA 5 lands in other slots (reversed) of SM 3 */
    struct inst o;
    snprintf(spec, sizeof spec, "caws_oracle:oracle=%s", path);
    assert_int_equal(inst_open(&o, spec, 3, &e), WS_OK);
    inst_kernel(&o);
    for (uint32_t w = 0; w < 4; w++)
        inst_ev(&o, SCHED_EV_WARP_LAUNCH, 7 - w, 2, 5, w, 0);
    for (uint32_t w = 0; w < 4; w++)
        assert_int_equal(o.score[7 - w], (int64_t)exec_time[w]);
    /* critical: above the CTA median (warps 2 and 3) */
    assert_int_equal(o.tag[7 - 2], 1);
    assert_int_equal(o.tag[7 - 3], 1);
    assert_int_equal(o.tag[7 - 0], 0);
    struct classify_req q = {.slot = 7 - 1, .cta = 2};
    assert_int_equal(o.ops->tag(o.priv, &q), 0);

    /* gcaws:greedy=0 over these scores issues slowest-first */
    const struct sched_ops *sops;
    struct param_set ps;
    err_clear(&e);
    assert_int_equal(registry_sched("gcaws:greedy=0", &sops, &ps, &e), WS_OK);
    void *sp = calloc(1, sops->priv_size);
    struct sched_init si = {.nslots = 16, .n_units = 1};
    assert_int_equal(sops->init(sp, &ps, &si, &e), WS_OK);
    uint64_t age[16] = {0};
    struct sched_view v = {.nslots = 16, .valid = 0xf0, .ready = 0xf0, .age = age,
                           .warp_tag = o.tag, .warp_score = o.score, .last_issued = -1};
    static const uint32_t want[4] = {2, 3, 1, 0}; /* by recorded time, longest first */
    for (int i = 0; i < 4; i++) {
        int p = sops->pick(sp, &v);
        assert_int_equal(p, 7 - (int)want[i]);
        v.ready &= ~(1ull << p); /* it finishes */
        v.last_issued = p;
    }
    free(sp);
    inst_close(&o);
    remove(path);
}

static void test_bad_parameters_and_files(void **state)
{
    (void)state;
    char path[128], spec[256];
    tmpname(path, sizeof path);
    struct err e;
    struct inst c;
    /* neither file: every warp scores 0 */
    assert_int_equal(inst_open(&c, "caws_oracle", 0, &e), WS_OK);
    inst_kernel(&c);
    inst_ev(&c, SCHED_EV_WARP_LAUNCH, 1, 0, 0, 0, 5);
    inst_ev(&c, SCHED_EV_WARP_EXIT, 1, 0, 0, 0, 50);
    assert_int_equal(c.score[1], 0);
    inst_close(&c);
    assert_int_equal(inst_open(&c, "caws_oracle:record=/tmp/x,oracle=/tmp/y", 0, &e),
                     WS_ERR_INVALID);
    inst_close(&c);
    assert_int_equal(inst_open(&c, "caws_oracle:oracle=/nonexistent/dir/f", 0, &e), WS_ERR_IO);
    inst_close(&c);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "# ok\n0 k 1 2 30\n0 k 1 two 30\n");
    fclose(f);
    snprintf(spec, sizeof spec, "caws_oracle:oracle=%s", path);
    assert_int_equal(inst_open(&c, spec, 0, &e), WS_ERR_PARSE);
    assert_non_null(strstr(e.msg, ":3:"));
    inst_close(&c);
    remove(path);
}

/* Several launches: each kernel start reads its own launch's lines (the
 * scan goes on from where the previous launch ended), a launch missing from
 * the file scores 0, and a file whose launches decrease is refused. */
static void test_launches_in_order(void **state)
{
    (void)state;
    char path[128], spec[256];
    tmpname(path, sizeof path);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "# three launches, launch 1 absent\n0 k 0 0 11\n0 k 0 1 12\n"
               "2 k 0 0 31\n2 k 1 1 42\n3 k 0 0 50\n");
    fclose(f);
    struct err e;
    struct inst o;
    snprintf(spec, sizeof spec, "caws_oracle:oracle=%s", path);
    assert_int_equal(inst_open(&o, spec, 0, &e), WS_OK);
    static const int64_t want[4][2] = {{11, 12}, {0, 0}, {31, 42}, {50, 0}};
    for (uint32_t l = 0; l < 4; l++) {
        inst_kernel(&o);
        /* launch 2: CTA 0 warp 0 and CTA 1 warp 1; others: CTA 0 warps 0, 1 */
        uint64_t cta1 = l == 2 ? 1 : 0;
        inst_ev(&o, SCHED_EV_WARP_LAUNCH, 0, 0, 0, 0, 0);
        inst_ev(&o, SCHED_EV_WARP_LAUNCH, 1, 1, cta1, 1, 0);
        assert_int_equal(o.score[0], want[l][0]);
        assert_int_equal(o.score[1], want[l][1]);
        inst_ev(&o, SCHED_EV_WARP_EXIT, 0, 0, 0, 0, 9);
        inst_ev(&o, SCHED_EV_WARP_EXIT, 1, 1, 0, 0, 9);
    }
    inst_close(&o);
    f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "0 k 0 0 11\n2 k 0 0 31\n1 k 0 0 20\n");
    fclose(f);
    assert_int_equal(inst_open(&o, spec, 0, &e), WS_ERR_PARSE);
    assert_non_null(strstr(e.msg, ":3:"));
    inst_close(&o);
    remove(path);
}

static int cmp_line(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of a recording, sorted; each must be a whole record. */
static char **sorted_records(const char *path, size_t *n)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char **v = NULL, buf[256];
    size_t cap = 0;
    *n = 0;
    while (fgets(buf, sizeof buf, f)) {
        if (buf[0] == '#')
            continue;
        unsigned seq, warp;
        unsigned long long cta, cyc;
        char k[128];
        if (sscanf(buf, "%u %127s %llu %u %llu", &seq, k, &cta, &warp, &cyc) != 5)
            fail_msg("%s: malformed line '%s'", path, buf);
        if (*n == cap) {
            cap = cap ? cap * 2 : 256;
            v = realloc(v, cap * sizeof *v);
            assert_non_null(v);
        }
        v[(*n)++] = strdup(buf);
    }
    fclose(f);
    qsort(v, *n, sizeof *v, cmp_line);
    return v;
}

/* Under the parallel engine the SMs flush their lines from their own host
 * threads: the file holds the same whole lines as with one thread. */
static void test_record_parallel(void **state)
{
    (void)state;
    char path[2][128], spec[2][160];
    size_t n[2];
    char **lines[2];
    static const char *const threads[2] = {"1", "3"};
    for (int i = 0; i < 2; i++) {
        snprintf(path[i], sizeof path[i], "/tmp/ws-caws-oracle-par%d-%ld.txt", i, (long)getpid());
        snprintf(spec[i], sizeof spec[i], "caws_oracle:record=%s", path[i]);
        const char *const kv[] = {"sm.classifier", spec[i], "threads", threads[i], NULL};
        ws_gpu_free(wl_run_small_keys("bfs", "gto", kv));
    }
    for (int i = 0; i < 2; i++)
        lines[i] = sorted_records(path[i], &n[i]);
    assert_true(n[0] > 100);
    assert_int_equal(n[0], n[1]);
    for (size_t k = 0; k < n[0]; k++)
        assert_string_equal(lines[0][k], lines[1][k]);
    for (int i = 0; i < 2; i++) {
        for (size_t k = 0; k < n[i]; k++)
            free(lines[i][k]);
        free(lines[i]);
        remove(path[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_then_replay_order),
        cmocka_unit_test(test_bad_parameters_and_files),
        cmocka_unit_test(test_launches_in_order),
        cmocka_unit_test(test_record_parallel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
