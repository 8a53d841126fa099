/* test_config.c: configuration keys, presets against the SPEC baseline
 * tables, error messages, file loading, GPGPU-Sim import and printing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/file.h"
#include "config/config.h"

#define KB 1024u

static uint64_t cache_bytes(const struct cache_geometry *g)
{
    return (uint64_t)g->sets * g->line * g->assoc;
}

/* Peak DRAM bandwidth in MB/s: channels x bytes/beat x beats/clock x MHz. */
static double dram_mbps(const struct gpu_config *c)
{
    return c->n_channels * (double)c->dram_bus_bytes * c->dram_data_rate * c->dram_mhz;
}

static char *print_to_string(const struct gpu_config *c, int json)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    if (json)
        config_print_json(c, f, 0);
    else
        config_print(c, f);
    fclose(f);
    return buf;
}

static void preset(struct gpu_config *c, const char *name)
{
    struct err e;
    config_defaults(c);
    assert_int_equal(config_preset(c, name, &e), WS_OK);
    if (config_validate(c, &e) != WS_OK)
        fail_msg("preset %s does not validate: %s", name, e.msg);
}

static void set_ok(struct gpu_config *c, const char *k, const char *v)
{
    struct err e;
    if (config_set(c, k, v, &e) != WS_OK)
        fail_msg("%s=%s: %s", k, v, e.msg);
}

/* Expect config_set to fail with every fragment in the message. */
static void set_bad(const char *k, const char *v, const char *frag1, const char *frag2)
{
    struct gpu_config c;
    struct err e;
    config_defaults(&c);
    assert_int_equal(config_set(&c, k, v, &e), WS_ERR_INVALID);
    if (!strstr(e.msg, frag1) || (frag2 && !strstr(e.msg, frag2)))
        fail_msg("%s=%s: message '%s' lacks '%s'/'%s'", k, v, e.msg, frag1,
                 frag2 ? frag2 : "");
}

static void test_defaults(void **state)
{
    (void)state;
    struct gpu_config c;
    struct err e;
    config_defaults(&c);
    assert_int_equal(config_validate(&c, &e), WS_OK);
    assert_string_equal(c.mode, "timing");
    assert_int_equal(c.n_sms, 15);
    assert_int_equal(c.max_warps_per_sm, 48);
    assert_int_equal(c.max_threads_per_sm, 1536);
    assert_int_equal(c.max_ctas_per_sm, 8);
    assert_int_equal(c.regs_per_sm, 32768);
    assert_int_equal(c.shared_per_sm, 48 * KB);
    assert_int_equal(c.n_schedulers, 2);
    assert_string_equal(c.sched, "gto");
    assert_int_equal(cache_bytes(&c.l1d), 16 * KB);
    assert_int_equal(c.l1d.assoc, 4);
    assert_int_equal(c.l1d.mshr_entries, 32);
    assert_int_equal(c.l2_fill_queue, 0); /* DRAM returns fill at once */
    assert_int_equal(c.l1d.mshr_max_merge, 8);
    assert_int_equal(c.l1d.miss_queue, 8);
    assert_int_equal(c.n_channels * c.subparts_per_channel * cache_bytes(&c.l2), 768 * KB);
    assert_int_equal(c.dram_banks, 16);
    assert_int_equal(c.tRC, 40);
    assert_int_equal(c.CL, 12);
    assert_int_equal(c.WL, 4);
    assert_int_equal(c.dram_queue, 16);
    assert_string_equal(c.dram_sched, "frfcfs");
    assert_true(c.core_mhz == 700 && c.icnt_mhz == 700 && c.l2_mhz == 700 && c.dram_mhz == 924);
    assert_int_equal(c.device_memory, 4ull << 30);
    assert_int_equal(c.local_memory_per_thread, 1u << 20);
    assert_int_equal(c.max_warp_insn, 1ull << 30);
}

static void test_preset_daws(void **state)
{
    (void)state;
    struct gpu_config c;
    preset(&c, "daws");
    assert_int_equal(c.regs_per_thread, 16); /* full occupancy, as in the paper */
    assert_int_equal(c.n_sms, 30);
    assert_int_equal(c.n_schedulers, 1);
    assert_int_equal(c.max_warps_per_sm, 32);
    assert_int_equal(c.max_threads_per_sm, 1024);
    assert_int_equal(c.regs_per_sm, 16384);
    assert_int_equal(c.shared_per_sm, 16 * KB);
    assert_int_equal(c.l1d.sets, 32);
    assert_int_equal(c.l1d.line, 128);
    assert_int_equal(c.l1d.assoc, 8);
    assert_int_equal(cache_bytes(&c.l1d), 32 * KB);
    assert_int_equal(cache_bytes(&c.l1c), 8 * KB);
    assert_int_equal(c.n_channels, 8);
    assert_int_equal(c.subparts_per_channel * cache_bytes(&c.l2), 128 * KB);
    assert_int_equal(c.l2.line, 128);
    assert_int_equal(c.l2.assoc, 8);
    assert_int_equal(c.dram_queue, 32);
    assert_int_equal(c.CL, 10);
    assert_int_equal(c.tRP, 10);
    assert_int_equal(c.tRC, 35);
    assert_int_equal(c.tRAS, 25);
    assert_int_equal(c.tRCD, 12);
    assert_int_equal(c.tRRD, 8);
    assert_string_equal(c.dram_sched, "frfcfs");
    /* the release's -gpgpu_clock_domains 325:650:650:800: a whole warp per
     * core cycle, so the latencies are in 325 MHz cycles */
    assert_true(c.core_mhz == 325 && c.icnt_mhz == 650 && c.l2_mhz == 650 && c.dram_mhz == 800);
    assert_int_equal(c.sp_ii, 1);
    assert_int_equal(c.max_issue_per_warp, 2);
    assert_int_equal(c.l1d.mshr_entries, 16);
    assert_int_equal(c.l1d.mshr_max_merge, 4);
    assert_int_equal(c.l1d.miss_queue, 4);
    assert_int_equal(c.l2_rop_latency, 230); /* -rop_latency 115 core cycles */
    assert_int_equal(c.l2.hit_latency, 0);
    assert_int_equal(c.dram_latency, 74); /* -dram_latency 30 core cycles */
    assert_int_equal(c.l1d.hit_latency, 20); /* -L1_HIT_LATENCY, hits only */
    assert_string_equal(c.l1d_latency_on, "hits");
    assert_string_equal(c.l1d.index, "ccws_hash");
    assert_string_equal(c.l2.index, "ccws_hash");
    assert_string_equal(c.l2_index_addr, "full");
    /* Table 1's 32 KB texture cache, 64 B lines, 16 ways, read-only loads in it */
    assert_int_equal(cache_bytes(&c.l1t), 32 * KB);
    assert_int_equal(c.l1t.line, 64);
    assert_int_equal(c.l1t.assoc, 16);
    assert_int_equal(c.tex_nc, 1);
    assert_true(c.l1d_flush && c.l2_flush);
    assert_int_equal(c.l2_port_bytes, 0); /* 3.1: no L2 data port */
}

static void test_preset_paws(void **state)
{
    (void)state;
    struct gpu_config c;
    preset(&c, "paws");
    assert_int_equal(c.n_sms, 16);
    assert_int_equal(c.max_ctas_per_sm, 8);
    assert_int_equal(c.max_warps_per_sm, 48);
    assert_int_equal(c.n_schedulers, 2);
    assert_int_equal(c.issue_interval, 1);
    assert_true(c.core_mhz == 650 && c.dram_mhz == 925);
    /* Table I's 650 GFLOPS double precision: 16 SMs x 32 lanes x 2 x 650 MHz */
    assert_int_equal(c.dp_units * 32 * 2 * 650 * 16 / c.dp_ii, 665600);
    double gbs = dram_mbps(&c) / 1000.0; /* 177 GB/s */
    assert_true(gbs > 176.0 && gbs < 178.0);
    assert_int_equal(c.l2_port_bytes, 32); /* 3.2.2's L2 data port */
    assert_int_equal(c.hoist_loads, 1);      /* PTX-plus order (Section IV-A) */
}

static void test_preset_lwm(void **state)
{
    (void)state;
    struct gpu_config c;
    preset(&c, "lwm");
    assert_int_equal(c.n_sms, 1);
    assert_int_equal(c.max_warps_per_sm, 32);
    assert_int_equal(c.max_threads_per_sm, 1024);
    assert_int_equal(cache_bytes(&c.l1d), 128 * KB);
    assert_int_equal(c.l1d.assoc, 4);
    assert_int_equal(c.l1d.line, 128);
    assert_int_equal(cache_bytes(&c.l1i), 4 * KB);
    assert_int_equal(c.shared_per_sm, 128 * KB);
    assert_int_equal(c.smem_banks, 32);
    assert_int_equal(c.regs_per_sm * 4, 64 * KB);
    assert_int_equal(c.regs_per_thread, 16); /* 1024 threads in 64 KB */
    assert_int_equal(c.barrel, 1);           /* the paper's core */
    assert_int_equal(c.dram_banks, 8);
    assert_int_equal(c.dram_row_bytes, 4 * KB);
    assert_string_equal(c.dram_sched, "fcfs");
    assert_string_equal(c.sched, "lrr");
    assert_int_equal(c.l2_enabled, 0);
    assert_true(dram_mbps(&c) == 32000.0);
    /* row hit ~100 and row conflict ~300 DRAM cycles */
    uint32_t burst_cycles = c.dram_burst / c.dram_data_rate;
    assert_int_equal(c.CL + burst_cycles, 100);
    assert_int_equal(c.tRP + c.tRCD + c.CL + burst_cycles, 300);
}

static void test_preset_medic(void **state)
{
    (void)state;
    struct gpu_config c;
    preset(&c, "medic");
    assert_int_equal(c.n_sms, 15);
    assert_int_equal(c.n_channels, 6);
    assert_int_equal(cache_bytes(&c.l1d), 16 * KB);
    assert_int_equal(c.l1d.assoc, 4);
    assert_int_equal(c.l1d.hit_latency, 1);
    assert_int_equal(c.n_channels * c.subparts_per_channel * cache_bytes(&c.l2), 768 * KB);
    assert_int_equal(c.l2.assoc, 16);
    assert_int_equal(c.l2_banks * c.subparts_per_channel, 2);
    /* Table I's 2 ports are the partition's interconnect ports (the 1400 MHz
     * interconnect: 2 requests per L2 cycle); a bank looks up one per cycle */
    assert_int_equal(c.l2_ports, 1);
    assert_true(c.icnt_mhz == 2 * c.l2_mhz && c.l2_input_ports == 1);
    /* GPGPU-Sim 3.2.1's -rop_latency 120 plus the paper's 10-cycle lookup and arbiter */
    assert_int_equal(c.l2_rop_latency, 131);
    /* a bypassed read waits the ROP delay only; 3.2.1's L2-to-icnt queue */
    assert_int_equal(c.l2_bypass_rop, 120);
    assert_int_equal(c.l2_reply_queue, 8);
    assert_int_equal(c.l2_fill_queue, 8); /* per-bank DRAM-to-L2 queues, 3.2.1's 8 */
    assert_int_equal(c.icnt_ctrl_bytes, 8); /* 136-byte replies, 5 flits of 32 */
    assert_int_equal(c.l2.hit_latency, 0);
    assert_int_equal(c.dram_banks, 8);
    assert_int_equal(c.dram_burst, 8);
    assert_string_equal(c.sched, "gto");
    assert_string_equal(c.dram_sched, "frfcfs");
    assert_true(c.core_mhz == 700 && c.icnt_mhz == 1400 && c.dram_mhz == 1674);
    assert_int_equal(c.l2_port_bytes, 0); /* 3.2.1: no L2 data port */
}

static void test_preset_cawa_gtx480(void **state)
{
    (void)state;
    struct gpu_config c;
    preset(&c, "cawa");
    assert_int_equal(c.n_sms, 15);
    assert_int_equal(c.max_warps_per_sm, 48);
    assert_int_equal(c.max_ctas_per_sm, 8);
    assert_int_equal(c.n_schedulers, 2);
    assert_int_equal(c.regs_per_sm, 32768);
    assert_int_equal(c.shared_per_sm, 48 * KB);
    assert_int_equal(c.l1d.sets, 8);
    assert_int_equal(c.l1d.assoc, 16);
    assert_int_equal(cache_bytes(&c.l1d), 16 * KB);
    assert_int_equal(c.l1i.sets, 4);
    assert_int_equal(c.l1i.assoc, 4);
    assert_int_equal(cache_bytes(&c.l1i), 2 * KB);
    assert_int_equal(c.l2.sets, 64);
    assert_int_equal(c.l2.assoc, 16);
    assert_int_equal(c.n_channels * c.subparts_per_channel * cache_bytes(&c.l2), 768 * KB);
    assert_string_equal(c.sched, "lrr");
    assert_int_equal(c.l2_port_bytes, 0); /* 3.2.0: no L2 data port */

    struct gpu_config d, g;
    config_defaults(&d);
    preset(&g, "gtx480");
    assert_int_equal(g.l2_port_bytes, 32); /* 3.2.2 GTX480: "...,4:0,32" */
    char *a = print_to_string(&d, 0), *b = print_to_string(&g, 0);
    assert_string_equal(a, b);
    free(a);
    free(b);
}

static void test_preset_semantics(void **state)
{
    (void)state;
    struct gpu_config c;
    struct err e;
    config_defaults(&c);
    set_ok(&c, "device_memory", "1G");
    set_ok(&c, "sm.count", "3");
    assert_int_equal(config_preset(&c, "daws", &e), WS_OK);
    assert_int_equal(c.device_memory, 1ull << 30); /* simulation keys survive */
    assert_int_equal(c.n_sms, 30);
    assert_int_equal(config_preset(&c, "gtx480", &e), WS_OK);
    assert_int_equal(c.l1d.assoc, 4); /* machine keys reset to defaults first */
    assert_int_equal(c.n_channels, 6);
    assert_int_equal(config_preset(&c, "nope", &e), WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "'nope'"));
    assert_non_null(strstr(e.msg, "medic"));
    int n = 0;
    for (const char *const *p = config_preset_names(); *p; p++, n++)
        assert_non_null(config_preset_settings(*p));
    assert_int_equal(n, 6);
    assert_null(config_preset_settings("nope"));
}

static void test_unknown_key(void **state)
{
    (void)state;
    set_bad("sm.cout", "1", "unknown configuration key 'sm.cout'", "'sm.count'");
    set_bad("l1d.size", "1", "unknown configuration key", "'l1d.sets'");
    set_bad("dram.trcd", "1", "'dram.tRCD'", NULL);
    set_bad("l2.frobnicate_everything", "1", "keys of that group", "'l2.bank_queue'");
    set_bad("bogus_thing_entirely", "1", "groups:", "sm, ");
}

static void test_bad_values(void **state)
{
    (void)state;
    set_bad("sm.count", "abc", "'sm.count'", "invalid value 'abc'");
    set_bad("sm.count", "0", "'sm.count'", "an integer from 1 to 1024");
    /* issue 16: values that would never finish or exhaust memory */
    set_bad("sm.count", "100000", "'sm.count'", "an integer from 1 to 1024");
    set_bad("clock.core", "1e-300", "'clock.core'", "a number from 1 to 100000");
    set_bad("clock.dram", "1e300", "'clock.dram'", "a number from 1 to 100000");
    set_bad("device_memory", "2T", "'device_memory'", "from 1 to 1099511627776");
    set_bad("local_memory_per_thread", "1G", "'local_memory_per_thread'", "to 16777216");
    set_bad("deadlock_cycles", "99999999999", "'deadlock_cycles'", "to 1000000000");
    set_bad("dram.tRCD", "1000000", "'dram.tRCD'", "from 0 to 100000");
    set_bad("l2.sets", "2097152", "'l2.sets'", "from 1 to 1048576");
    set_bad("sm.count", "5000000000", "'sm.count'", NULL);
    set_bad("l1d.assoc", "65", "'l1d.assoc'", "from 1 to 64");
    set_bad("mode", "fast", "'mode'", "timing,functional");
    set_bad("sm.shared", "5X", "'sm.shared'", "K, M or G");
    set_bad("clock.core", "-1", "'clock.core'", "a number from 1");
    set_bad("clock.core", "nan", "'clock.core'", NULL);
    set_bad("sm.sched", "gto:bad", "'sm.sched'", "name[:key=value");
    set_bad("sm.sched", "9x", "'sm.sched'", NULL);
    set_bad("l1d.enabled", "maybe", "'l1d.enabled'", "true");

    struct gpu_config c;
    config_defaults(&c);
    set_ok(&c, "sm.sched", "two_level_active:active=8,inner=gto");
    assert_string_equal(c.sched, "two_level_active:active=8,inner=gto");
    set_ok(&c, "mode", "functional");
    assert_string_equal(c.mode, "functional");
    set_ok(&c, "l1d.enabled", "off");
    assert_int_equal(c.l1d_enabled, 0);
    set_ok(&c, "device_memory", "2G");
    assert_int_equal(c.device_memory, 2ull << 30);
    set_ok(&c, "clock.core", "1400.5");
    assert_true(c.core_mhz == 1400.5);

    uint64_t v;
    assert_int_equal(config_parse_size("64K", &v), 0);
    assert_int_equal(v, 65536);
    assert_int_equal(config_parse_size("1MiB", &v), 0);
    assert_int_equal(v, 1u << 20);
    assert_int_equal(config_parse_size("123", &v), 0);
    assert_int_equal(v, 123);
    assert_int_not_equal(config_parse_size("12x", &v), 0);
    assert_int_not_equal(config_parse_size("", &v), 0);
    assert_int_not_equal(config_parse_size("-1", &v), 0);
}

static void validate_bad(const char *k, const char *v, const char *frag)
{
    struct gpu_config c;
    struct err e;
    config_defaults(&c);
    set_ok(&c, k, v);
    assert_int_equal(config_validate(&c, &e), WS_ERR_INVALID);
    if (!strstr(e.msg, frag))
        fail_msg("%s=%s: message '%s' lacks '%s'", k, v, e.msg, frag);
}

static void test_validate(void **state)
{
    (void)state;
    validate_bad("sm.threads", "1000", "multiple of 32");
    validate_bad("sm.threads", "2048", "sm.warps = 48");
    validate_bad("l1d.sets", "3", "l1d.sets = 3 is not a power of two");
    validate_bad("l2.line", "96", "l2.line = 96");
    validate_bad("sm.schedulers", "64", "exceeds sm.warps");
    validate_bad("dram.chunk", "64", "dram.chunk");
    validate_bad("sm.threads", "33", "sm.threads = 33 is not a multiple of 32");
    validate_bad("l2.sets", "1048576", "l2.sets x l2.assoc = 8388608 lines");
    validate_bad("l1i.index", "fermi", "l1i.index = fermi needs 32 or 64 sets, not 4");
    struct gpu_config c;
    struct err e;
    config_defaults(&c);
    set_ok(&c, "sm.warps", "256");
    set_ok(&c, "sm.schedulers", "2");
    assert_int_equal(config_validate(&c, &e), WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "128 warps per scheduler"));
    set_ok(&c, "sm.schedulers", "4");
    assert_int_equal(config_validate(&c, &e), WS_OK);
}

static char *write_tmp(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/ws_test_config_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static void test_file_loading(void **state)
{
    (void)state;
    struct gpu_config c;
    struct err e;
    config_defaults(&c);
    char *p = write_tmp("# comment\nsm.count = 4   # trailing\n\nsm.sched=lrr\n");
    assert_int_equal(config_load(&c, p, &e), WS_OK);
    assert_int_equal(c.n_sms, 4);
    assert_string_equal(c.sched, "lrr");
    unlink(p);

    p = write_tmp("sm.count = 4\n\nthis line is wrong\n");
    assert_int_equal(config_load(&c, p, &e), WS_ERR_INVALID);
    char want[128];
    snprintf(want, sizeof want, "%s:3:", p);
    if (!strstr(e.msg, want))
        fail_msg("'%s' lacks '%s'", e.msg, want);
    unlink(p);

    p = write_tmp("sm.count = 4\nl1d.asoc = 8\n");
    assert_int_equal(config_load(&c, p, &e), WS_ERR_INVALID);
    snprintf(want, sizeof want, "%s:2: unknown configuration key 'l1d.asoc'", p);
    if (!strstr(e.msg, want) || !strstr(e.msg, "'l1d.assoc'"))
        fail_msg("'%s' lacks '%s'", e.msg, want);
    unlink(p);

    p = write_tmp("sm.count = zero\n");
    assert_int_equal(config_load(&c, p, &e), WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, ":1: configuration key 'sm.count': invalid value 'zero'"));
    unlink(p);

    assert_int_not_equal(config_load(&c, "/nonexistent/warpsim.cfg", &e), WS_OK);
    assert_non_null(strstr(e.msg, "neither a preset"));

    config_defaults(&c);
    assert_int_equal(config_load(&c, "medic", &e), WS_OK);
    assert_int_equal(c.l2_banks, 2);

    config_defaults(&c);
    assert_int_equal(config_load(&c, WS_SOURCE_DIR "/configs/example.cfg", &e), WS_OK);
    assert_int_equal(config_validate(&c, &e), WS_OK);
    assert_int_equal(c.n_sms, 30); /* from "preset = daws" */
    assert_string_equal(c.sched, "lrr");
    assert_int_equal(cache_bytes(&c.l1d), 64 * KB);
}

static void test_print_roundtrip(void **state)
{
    (void)state;
    const char *const *names = config_preset_names();
    for (size_t i = 0; names[i]; i++) {
        struct gpu_config a, b;
        struct err e;
        preset(&a, names[i]);
        set_ok(&a, "clock.core", "1234.56789");
        char *text = print_to_string(&a, 0);
        char *p = write_tmp(text);
        config_defaults(&b);
        assert_int_equal(config_load(&b, p, &e), WS_OK);
        unlink(p);
        char *again = print_to_string(&b, 0);
        assert_string_equal(text, again);
        free(text);
        free(again);
    }
    struct gpu_config c;
    config_defaults(&c);
    char *json = print_to_string(&c, 1);
    assert_true(json[0] == '{' && json[strlen(json) - 1] == '}');
    assert_non_null(strstr(json, "\n  \"sm.count\": 15,\n"));
    assert_non_null(strstr(json, "\n  \"sm.sched\": \"gto\",\n"));
    assert_non_null(strstr(json, "\n  \"clock.dram\": 924,\n"));
    assert_non_null(strstr(json, "\n  \"device_memory\": 4294967296,\n"));
    free(json);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    config_describe(f);
    fclose(f);
    assert_non_null(strstr(buf, "l1d.assoc"));
    assert_non_null(strstr(buf, "default 4; allowed: an integer from 1 to 64"));
    free(buf);
}

static void test_gpgpusim_import(void **state)
{
    (void)state;
    char *text;
    size_t len;
    struct err e;
    assert_int_equal(
        file_read_all(WS_SOURCE_DIR "/configs/gtx480-gpgpusim.config", &text, &len, &e), WS_OK);
    struct gpu_config c;
    preset(&c, "daws"); /* start far from the GTX480 so every mapping shows */
    char *ignored = NULL;
    if (config_import_gpgpusim(&c, text, "gtx480-gpgpusim.config", &ignored, &e) != WS_OK)
        fail_msg("%s", e.msg);
    free(text);
    assert_int_equal(config_validate(&c, &e), WS_OK);
    assert_int_equal(c.n_sms, 15);
    assert_int_equal(c.max_threads_per_sm, 1536);
    assert_int_equal(c.max_warps_per_sm, 48);
    assert_int_equal(c.max_ctas_per_sm, 8);
    assert_int_equal(c.regs_per_sm, 32768);
    assert_int_equal(c.shared_per_sm, 49152);
    assert_int_equal(c.n_schedulers, 2);
    assert_string_equal(c.sched, "two_level_active:active=6");
    assert_int_equal(c.sp_units, 2);
    assert_int_equal(c.sfu_units, 1);
    assert_int_equal(c.ldst_units, 1);
    assert_int_equal(c.sp_latency, 4);
    assert_int_equal(c.dp_ii, 8);
    assert_int_equal(c.l1d.sets, 32);
    assert_int_equal(c.l1d.line, 128);
    assert_int_equal(c.l1d.assoc, 4);
    assert_string_equal(c.l1d.policy, "lru");
    assert_int_equal(c.l1d.mshr_entries, 32);
    assert_int_equal(c.l1d.mshr_max_merge, 8);
    assert_int_equal(c.l1d.miss_queue, 8);
    assert_int_equal(c.l2.sets, 64);
    assert_int_equal(c.l2.assoc, 8);
    assert_int_equal(c.l2.mshr_max_merge, 4);
    assert_int_equal(c.l2_port_bytes, 32); /* 3.2.2's data port: "4:0,32" */
    assert_int_equal(cache_bytes(&c.l1c), 8 * KB);
    assert_int_equal(cache_bytes(&c.l1i), 2 * KB);
    assert_int_equal(c.n_channels, 6);
    assert_int_equal(c.subparts_per_channel, 2);
    assert_true(c.core_mhz == 700 && c.icnt_mhz == 700 && c.l2_mhz == 700 && c.dram_mhz == 924);
    assert_int_equal(c.dram_banks, 16);
    assert_int_equal(c.tCCD, 2);
    assert_int_equal(c.tRRD, 6);
    assert_int_equal(c.tRAS, 28);
    assert_int_equal(c.tRC, 40);
    assert_int_equal(c.CL, 12);
    assert_int_equal(c.WL, 4);
    assert_int_equal(c.tCDLR, 5);
    assert_int_equal(c.tWR, 12);
    assert_int_equal(c.dram_burst, 8);
    assert_int_equal(c.dram_data_rate, 4);
    assert_int_equal(c.dram_bus_bytes, 8);
    assert_int_equal(c.dram_queue, 16);
    assert_string_equal(c.dram_sched, "frfcfs");
    assert_int_equal(c.addr_chunk, 256);
    assert_int_equal(c.l2_rop_latency, 120); /* -rop_latency: the whole L2 pipeline */
    assert_int_equal(c.l2.hit_latency, 0);
    assert_int_equal(c.dram_latency, 132); /* 100 core cycles at 924/700 */
    assert_int_equal(c.smem_banks, 32);
    assert_int_equal(c.coalesce_sectored, 0);
    assert_int_equal(c.l1d_enabled, 1);

    assert_non_null(ignored);
    assert_non_null(strstr(ignored, "-gpgpu_simd_model 1\n"));
    assert_non_null(strstr(ignored, "-network_mode 1\n"));
    /* -gpgpu_tex_cache:l1 4:128:24,L:R:m:N:L,F:128:4,128:2: the texture cache (tex.*) */
    assert_null(strstr(ignored, "-gpgpu_tex_cache:l1 4:128:24"));
    assert_int_equal(c.l1t.sets, 4);
    assert_int_equal(c.l1t.line, 128);
    assert_int_equal(c.l1t.assoc, 24);
    assert_int_equal(c.l1t.mshr_entries, 128);
    assert_int_equal(c.l1t.mshr_max_merge, 4);
    assert_int_equal(c.l1t.miss_queue, 128);
    assert_non_null(strstr(ignored, "nbkgrp=4"));
    assert_null(strstr(ignored, "outer")); /* two_level_active outer 1 (SRR) is modelled */
    assert_null(strstr(ignored, "-gpgpu_n_mem "));
    assert_null(strstr(ignored, "-gpgpu_cache:dl1"));
    free(ignored);

    /* config_load recognises the format */
    struct gpu_config d;
    config_defaults(&d);
    assert_int_equal(config_load(&d, WS_SOURCE_DIR "/configs/gtx480-gpgpusim.config", &e), WS_OK);
    assert_string_equal(d.sched, "two_level_active:active=6");
    assert_int_equal(d.dram_latency, 132);
    config_defaults(&d);
    assert_int_equal(config_load_ignored(&d, WS_SOURCE_DIR "/configs/gtx480-gpgpusim.config",
                                         &ignored, &e),
                     WS_OK);
    assert_non_null(strstr(ignored, "-visualizer_enabled 0\n"));
    free(ignored);
    assert_int_equal(config_load_ignored(&d, "lwm", &ignored, &e), WS_OK);
    assert_string_equal(ignored, "");
    free(ignored);
}

static void test_gpgpusim_forms(void **state)
{
    (void)state;
    struct gpu_config c;
    struct err e;
    char *ign = NULL;
    config_defaults(&c);
    const char *text = "-gpgpu_n_clusters 7\n"
                       "-gpgpu_n_cores_per_cluster 2\n"
                       "-gpgpu_dram_timing_opt 8:2:8:12:25:10:35:10:7:6:13\n"
                       "-gpgpu_dram_scheduler 0\n"
                       "-gpgpu_gmem_skip_L1D 1\n"
                       "-gpgpu_cache:dl1 N:64:128:6,L:L:m:N:H,S:256:8,16:0,32\n"
                       "-gpgpu_cache:dl2 S:32:128:16,F:B:m:W:L,A:64:4,8:0,32\n"
                       "-gpgpu_coalesce_arch 70\n"
                       "-gpgpu_scheduler lrr\n"
                       "-gpgpu_pipeline_widths 4,0,4,4,4,4,0,4,4,4,8,4,4\n"
                       "-gpgpu_num_sfu_units 2\n"
                       "-gpgpu_frfcfs_dram_sched_queue_size 0\n";
    assert_int_equal(config_import_gpgpusim(&c, text, "v.config", &ign, &e), WS_OK);
    assert_int_equal(c.n_sms, 14);
    assert_int_equal(c.dram_banks, 8);
    assert_int_equal(c.tRRD, 8);
    assert_int_equal(c.tWR, 13);
    assert_string_equal(c.dram_sched, "fcfs");
    assert_int_equal(c.l1d_enabled, 0);
    assert_int_equal(c.l1d.sets, 64);
    assert_int_equal(c.l1d.assoc, 6);
    assert_int_equal(c.l1d.mshr_entries, 256);
    assert_int_equal(c.l1d.mshr_max_merge, 8);
    assert_int_equal(c.l1d.miss_queue, 16);
    assert_string_equal(c.l2.policy, "fifo");
    assert_int_equal(c.l2.assoc, 16);
    assert_int_equal(c.l2_port_bytes, 32); /* the data port width after "8:0" */
    assert_int_equal(c.l2_sector_bytes, 32); /* "S:" */
    assert_string_equal(c.l1d.index, "fermi"); /* "L:L:m:N:H" */
    assert_string_equal(c.l2.index, "linear"); /* "F:B:m:W:L" */
    assert_int_equal(c.coalesce_sectored, 1);
    assert_string_equal(c.sched, "lrr");
    assert_int_equal(c.sp_units, 4);
    assert_int_equal(c.dp_units, 0);
    assert_int_equal(c.int_units, 4);
    assert_int_equal(c.sfu_units, 2); /* -gpgpu_num_sfu_units wins over the widths */
    assert_int_equal(c.ldst_units, 4);
    assert_int_equal(c.dram_queue, 1024);
    assert_null(strstr(ign, "sectored")); /* a sectored L2 is modelled */
    assert_non_null(strstr(ign, "unlimited"));
    free(ign);

    config_defaults(&c); /* a sectored L1 is not */
    assert_int_equal(config_import_gpgpusim(&c, "-gpgpu_cache:dl1 S:32:128:4,L:L:m:N:L,A:32:8,8\n",
                                            "s.config", &ign, &e),
                     WS_OK);
    assert_non_null(strstr(ign, "-gpgpu_cache:dl1: sectored"));
    free(ign);

    config_defaults(&c);
    assert_int_equal(config_import_gpgpusim(&c, "# x\n-gpgpu_shader_cta abc\n", "b.config", NULL,
                                            &e),
                     WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "b.config:2:19: option -gpgpu_shader_cta: invalid value 'abc'"));

    assert_int_equal(config_import_gpgpusim(&c, "-gpgpu_shader_core_pipeline 1024:16\n",
                                            "w.config", NULL, &e),
                     WS_ERR_UNSUPPORTED);
    assert_non_null(strstr(e.msg, "w.config:1:29:"));

    assert_int_equal(config_import_gpgpusim(&c, "-gpgpu_cache:dl1 32:128:4,R:L:m:N:H,A:32:8,8\n",
                                            "r.config", NULL, &e),
                     WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "replacement L (LRU) or F (FIFO)"));

    assert_int_equal(config_import_gpgpusim(&c, "-gpgpu_cache:dl1 32:100:4\n", "p.config", NULL,
                                            &e),
                     WS_OK); /* the importer sets; config_validate checks */
    assert_int_equal(config_validate(&c, &e), WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "l1d.line = 100"));

    assert_int_equal(config_import_gpgpusim(&c, "gpgpu_n_mem 6\n", "q.config", NULL, &e),
                     WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "q.config:1:1: expected a GPGPU-Sim option"));

    assert_int_equal(config_import_gpgpusim(&c, "-gpgpu_n_mem 6\n-gpgpu_dram_timing_opt\n"
                                                "  \"nbk=16:CCD=2\n-gpgpu_n_mem 6\n",
                                            "u.config", NULL, &e),
                     WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "u.config:3:3: quoted value has no closing"));
    assert_int_equal(config_import_gpgpusim(&c, "-gpgpu_n_mem 6 -gpgpu_n_cores_per_cluster\n"
                                                "  -gpgpu_n_clusters 3\n",
                                            "n.config", NULL, &e),
                     WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "n.config:1:16: option -gpgpu_n_cores_per_cluster has no value"));
}

/* The layout of GPGPU-Sim's shipped SM2_GTX480 (4.x) and GTX480 (3.2.x)
 * configs: the quoted DRAM timing continues on the next line, cache strings
 * carry N:/S: prefixes, options have 4.x names. */
static void test_gpgpusim_shipped_shape(void **state)
{
    (void)state;
    char *text, *ign = NULL;
    size_t len;
    struct err e;
    assert_int_equal(file_read_all(WS_SOURCE_DIR "/tests/unit/data/sm2-gtx480-shape.config",
                                   &text, &len, &e),
                     WS_OK);
    struct gpu_config c;
    config_defaults(&c);
    config_set(&c, "dram.tCDLR", "99", &e); /* set by the continued line */
    config_set(&c, "dram.tRC", "99", &e);   /* set by the first line */
    if (config_import_gpgpusim(&c, text, "sm2.config", &ign, &e) != WS_OK)
        fail_msg("%s", e.msg);
    free(text);
    assert_int_equal(config_validate(&c, &e), WS_OK);
    assert_int_equal(c.dram_banks, 16);
    assert_int_equal(c.tRC, 40);
    assert_int_equal(c.CL, 12);
    assert_int_equal(c.WL, 4);
    assert_int_equal(c.tCDLR, 5);
    assert_int_equal(c.tWR, 12);
    assert_int_equal(c.l1d.hit_latency, 35);
    assert_int_equal(c.smem_latency, 26);
    assert_int_equal(c.l2_rop_latency, 120);
    assert_int_equal(c.l2.hit_latency, 0);
    assert_int_equal(c.dram_latency, 132);
    assert_int_equal(c.l1d.sets, 32);
    assert_int_equal(c.l1d.mshr_entries, 64);
    assert_int_equal(c.l2.sets, 64);
    assert_int_equal(c.l2.mshr_entries, 256);
    assert_int_equal(c.l2.miss_queue, 16);
    assert_int_equal(cache_bytes(&c.l1i), 2 * KB);
    assert_int_equal(c.dram_queue, 64);
    assert_int_equal(c.dram_data_rate, 4); /* the trailing comment is stripped */
    assert_int_equal(c.icnt_flit_bytes, 40);
    assert_string_equal(c.sched, "gto");
    assert_int_equal(c.sp_units, 2);
    assert_int_equal(c.dp_units, 1);
    /* what warpsim does not model is named */
    assert_non_null(strstr(ign, "nbkgrp=4 (not modelled)"));
    assert_non_null(strstr(ign, "RTPL=2 (not modelled)"));
    /* 4.x's kernel-boundary flush, memcpy into the L2 and sectored L2 */
    assert_int_equal(c.l1d_flush, 1);
    assert_int_equal(c.l2_flush, 0);
    assert_int_equal(c.l2_memcpy_fill, 1);
    assert_int_equal(c.l2_sector_bytes, 32);
    assert_null(strstr(ign, "-gpgpu_flush_l1_cache"));
    assert_null(strstr(ign, "-gpgpu_perf_sim_memcpy"));
    assert_null(strstr(ign, "-gpgpu_cache:dl2: sectored"));
    assert_string_equal(c.l1d.index, "fermi");
    assert_non_null(strstr(ign, "-gpgpu_cache:dl2: set-index function 'P' (not modelled"));
    assert_null(strstr(ign, "CL=12"));
    free(ign);
}

/* Option and string forms of older releases: 3.0/3.1 cache strings, the
 * CCWS release's type prefix and L1 hit latency, 3.0/3.1 positional DRAM
 * timing, the 3.1.x/3.2.0 DRAM queue name, 3.3.0's un-prefixed latencies. */
static void test_gpgpusim_old_forms(void **state)
{
    (void)state;
    struct gpu_config c;
    struct err e;
    char *ign = NULL;
    config_defaults(&c);
    const char *text = "-gpgpu_clock_domains 325.0:650.0:650.0:800.0\n"
                       "-gpgpu_cache:dl1 N,64:128:4:L:R:m,A:16:4,4:0:0:0.0:0\n"
                       "-gpgpu_cache:dl2 64:128:8:F:B:m,A:32:4,4\n"
                       "-gpgpu_const_cache:l1 L,64:64:2:L:R:f,A:2:32,4\n"
                       "-gpgpu_dram_timing_opt 8:2:8:12:21:13:34:9:4:5\n"
                       "-gpgpu_dram_sched_queue_size 32\n"
                       "-L1_HIT_LATENCY 20\n"
                       "-rop_latency 115\n"
                       "-dram_latency 30\n"
                       "-gpgpu_scheduler tl:16\n"
                       "-gpgpu_flush_cache 1\n";
    if (config_import_gpgpusim(&c, text, "old.config", &ign, &e) != WS_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(c.l1d.sets, 64);
    assert_int_equal(c.l1d.assoc, 4);
    assert_string_equal(c.l1d.policy, "lru");
    assert_int_equal(c.l1d.mshr_entries, 16);
    assert_int_equal(c.l1d.mshr_max_merge, 4);
    assert_int_equal(c.l1d.miss_queue, 4);
    assert_string_equal(c.l2.policy, "fifo");
    assert_int_equal(c.l2.assoc, 8);
    assert_int_equal(c.l2.mshr_entries, 32);
    assert_int_equal(cache_bytes(&c.l1c), 8 * KB);
    assert_int_equal(c.dram_banks, 8);
    assert_int_equal(c.tRAS, 21);
    assert_int_equal(c.WL, 4);
    assert_int_equal(c.dram_queue, 32);
    assert_int_equal(c.l1d.hit_latency, 20);
    assert_int_equal(c.l2_rop_latency, 230); /* 115 core cycles at 650/325 */
    assert_int_equal(c.l2.hit_latency, 0);
    assert_int_equal(c.dram_latency, 74); /* 30 core cycles at 800/325 */
    assert_int_equal(c.l2_port_bytes, 0); /* no data-port field before 3.2.2 */
    assert_int_equal(c.l1d_flush, 1);     /* 3.1's flush covers the L1s and the L2 */
    assert_int_equal(c.l2_flush, 1);
    assert_string_equal(c.sched, "two_level_active:active=16,release=3.2.0"); /* 3.2.0's tl:N */
    assert_non_null(strstr(ign, "tWTR=5"));
    assert_non_null(strstr(ign, "cache type 'L'"));
    free(ign);

    config_defaults(&c);
    assert_int_equal(config_import_gpgpusim(&c, "-l1_latency 35\n-smem_latency 26\n"
                                                "-gpgpu_cache:dl1 32:128:4:L:R\n",
                                            "v33.config", NULL, &e),
                     WS_ERR_INVALID);
    assert_non_null(strstr(e.msg, "v33.config:3:18: option -gpgpu_cache:dl1: invalid value"));
    assert_int_equal(c.l1d.hit_latency, 35);
    assert_int_equal(c.smem_latency, 26);
}

/* config_print_used: every key in timing mode, the four keys functional
 * execution reads in functional mode (with their current values). */
static void test_print_used(void **state)
{
    (void)state;
    struct gpu_config c;
    config_defaults(&c);
    char *all = print_to_string(&c, 0), *used = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&used, &len);
    assert_non_null(f);
    config_print_used(&c, f);
    fclose(f);
    assert_string_equal(used, all);
    free(used);
    free(all);
    set_ok(&c, "mode", "functional");
    set_ok(&c, "max_warp_insn", "5000");
    f = open_memstream(&used, &len);
    assert_non_null(f);
    config_print_used(&c, f);
    fclose(f);
    assert_string_equal(used, "mode = functional\ndevice_memory = 4G\n"
                              "local_memory_per_thread = 1M\nmax_warp_insn = 5000\n"
                              "oob_read_zero = 0\nracecheck = 0\nfunc_order = serial\n"
                              "func_window = 16\n");
    free(used);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),         cmocka_unit_test(test_preset_daws),
        cmocka_unit_test(test_preset_paws),      cmocka_unit_test(test_preset_lwm),
        cmocka_unit_test(test_preset_medic),     cmocka_unit_test(test_preset_cawa_gtx480),
        cmocka_unit_test(test_preset_semantics), cmocka_unit_test(test_unknown_key),
        cmocka_unit_test(test_bad_values),       cmocka_unit_test(test_validate),
        cmocka_unit_test(test_file_loading),     cmocka_unit_test(test_print_roundtrip),
        cmocka_unit_test(test_gpgpusim_import),  cmocka_unit_test(test_gpgpusim_forms),
        cmocka_unit_test(test_gpgpusim_shipped_shape), cmocka_unit_test(test_gpgpusim_old_forms),
        cmocka_unit_test(test_print_used),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
